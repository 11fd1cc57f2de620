"""The fit grid: GPU x model x weights x engine x KV dtype, as the site shows it.

Every number comes from ``estimate`` with the same keywords ``errkb calc`` passes, so a
cell can be re-derived on the command line from its ``calc_args``. The grid is what the
build precomputes for the GPU and model pages, the fit tables inside error pages and the
"will it run?" page (which only looks numbers up, it has no formulas of its own).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import calculators.engines.registry as engines
import calculators.solve as solve
from calculators.engines.base import EngineResult, SettingError, Settings
from calculators.gpus import Gpu, gpu_settings, load_gpus
from calculators.models import ModelArch, load_catalog

# Bump when a formula or an engine profile changes what the tables show.
CALCULATOR_VERSION = "1"


@dataclass(frozen=True)
class Combo:
    """One engine setting the tables compare: engine, weights format and KV cache type."""

    key: str
    label: str
    engine: str
    weights: str
    kv: tuple[tuple[str, Any], ...]  # estimate() keywords for the KV cache

    def calc_args(self) -> list[str]:
        """The `errkb calc` options that select this setting."""
        args = ["--engine", self.engine, "--weights", self.weights]
        for name, value in self.kv:
            if name == "flash_attn":
                args.append("--flash-attn" if value else "--no-flash-attn")
            else:
                option = "kv-cache-dtype" if name == "kv_dtype" else name.replace("_", "-")
                args += [f"--{option}", str(value)]
        return args


COMBOS: tuple[Combo, ...] = (
    Combo("vllm-bf16", "vLLM, BF16 weights, auto KV", "vllm", "bf16", (("kv_dtype", "auto"),)),
    Combo("vllm-bf16-fp8kv", "vLLM, BF16 weights, FP8 KV", "vllm", "bf16", (("kv_dtype", "fp8"),)),
    Combo("vllm-awq", "vLLM, AWQ 4-bit weights, auto KV", "vllm", "awq", (("kv_dtype", "auto"),)),
    Combo(
        "sglang-bf16", "SGLang, BF16 weights, auto KV", "sglang", "bf16", (("kv_dtype", "auto"),)
    ),
    Combo(
        "llamacpp-q4k",
        "llama.cpp, Q4_K GGUF, f16 KV",
        "llama.cpp",
        "gguf-q4_k",
        (("cache_type_k", "f16"), ("cache_type_v", "f16")),
    ),
    Combo(
        "llamacpp-q4k-q8kv",
        "llama.cpp, Q4_K GGUF, q8_0 KV (flash attention)",
        "llama.cpp",
        "gguf-q4_k",
        (("cache_type_k", "q8_0"), ("cache_type_v", "q8_0"), ("flash_attn", True)),
    ),
    Combo(
        "llamacpp-q8",
        "llama.cpp, Q8_0 GGUF, f16 KV",
        "llama.cpp",
        "gguf-q8_0",
        (("cache_type_k", "f16"), ("cache_type_v", "f16")),
    ),
    Combo(
        "ollama-q4k",
        "Ollama, Q4_K GGUF, f16 KV",
        "ollama",
        "gguf-q4_k",
        (("cache_type_k", "f16"), ("cache_type_v", "f16")),
    ),
)
CONTEXTS = (4096, 8192, 32768, 131072)  # where the tables state concurrency and fit


@dataclass(frozen=True)
class Cell:
    gpu: str
    model: str
    combo: str
    max_context: int | None  # None: the weights alone do not fit (or the setting is impossible)
    concurrency: tuple[float | None, ...]  # max concurrency at each of CONTEXTS
    fits: tuple[bool | None, ...]  # one sequence of each of CONTEXTS fits
    weights_bytes: int | None
    kv_bytes_per_token: int | None
    engine_version: str
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "gpu": self.gpu,
            "model": self.model,
            "combo": self.combo,
            "max_context": self.max_context,
            "concurrency": list(self.concurrency),
            "fits": list(self.fits),
            "weights_bytes": self.weights_bytes,
            "kv_bytes_per_token": self.kv_bytes_per_token,
            "engine_version": self.engine_version,
            "error": self.error,
        }


_COMBO_BY_KEY = {c.key: c for c in COMBOS}


def combo(key: str) -> Combo:
    return _COMBO_BY_KEY[key]


@cache  # frozen: the 123 models of one GPU and setting share it
def _settings(gpu: Gpu | None, c: Combo, context: int, tp: int = 1) -> Settings:
    """The setting `errkb calc` builds for these options (`estimate` with `gpu=`)."""
    return Settings(
        engine=c.engine,
        context=context,
        weights=c.weights,
        tp=tp,
        **(gpu_settings(gpu) if gpu else {}),
        **dict(c.kv),
    )


def _usable(max_context: int | None) -> int | None:
    return max_context if max_context else None


def _beyond(arch: ModelArch, context: int) -> bool:
    # Beyond the model's own context length nothing "fits": the engine refuses the setting,
    # and `max_context` (capped there) would contradict a yes.
    return context > (arch.max_position_embeddings or context)


def _row(
    arch: ModelArch,
    where: str,
    key: str,
    first: EngineResult,
    max_context: int | None,
    at: Callable[[int], tuple[float | None, bool | None]],
) -> Cell:
    """A cell from its longest context and `at(context)`: (concurrency, fits) at each of
    CONTEXTS the model allows."""
    concurrency: list[float | None] = []
    fits: list[bool | None] = []
    for context in CONTEXTS:
        x, fit = (None, None) if _beyond(arch, context) else at(context)
        concurrency.append(x)
        fits.append(fit)
    return Cell(
        gpu=where,
        model=arch.id,
        combo=key,
        max_context=_usable(max_context),
        concurrency=tuple(concurrency),
        fits=tuple(fits),
        weights_bytes=first.weights_bytes,
        kv_bytes_per_token=first.kv_bytes_per_token,
        engine_version=first.engine_version,
    )


def _paged_cell(arch: ModelArch, s: Settings, first: EngineResult, where: str, key: str) -> Cell:
    """vLLM and SGLang: one engine run per context, or one in all where the engine's pool
    does not depend on the context (concurrency and fit then follow from it)."""
    same_pool = not engines.POOL_VARIES[s.engine](arch, s)

    def at(context: int) -> tuple[float | None, bool | None]:
        r = first
        if context != s.context and not same_pool:
            r = engines.run(arch, replace(s, context=context))
        return solve.paged_concurrency(r, context), solve.paged_fits(r, context, s.seqs)

    return _row(arch, where, key, first, solve.max_context(arch, s, result=first), at)


def _total_cell(
    arch: ModelArch,
    first: EngineResult,
    vram: int,
    where: str,
    key: str,
    tf: Callable[[int, int], int],
    quantum: int,
) -> Cell:
    """llama.cpp and Ollama: everything from the engine's total as a function of context and
    sequences (`tf`, the same sum `compute` prints; it does not depend on the GPU)."""

    def at(context: int) -> tuple[float | None, bool | None]:
        return solve.max_concurrency_of_total(tf, context, vram), tf(context, 1) <= vram

    hi_cap = arch.max_position_embeddings or solve.MAX_CONTEXT_CAP
    longest = solve.max_context_of_total(tf, vram, hi_cap, 1, quantum)
    return _row(arch, where, key, first, longest, at)


def _memo(tf: Callable[[int, int], int]) -> Callable[[int, int], int]:
    """`tf` remembered: the GPUs of one model and setting share their first probes."""
    return lru_cache(maxsize=None)(tf)  # C's cache: the grid asks it 380,000 times


def _error_cell(where: str, arch: ModelArch, c: Combo, exc: SettingError) -> Cell:
    return Cell(where, arch.id, c.key, None, (), (), None, None, "", str(exc))


def cell(arch: ModelArch, gpu: Gpu, c: Combo, tp: int = 1, where: str = "") -> Cell:
    """`where`: the id the cell is filed under (a multi-GPU setup's), else the GPU's."""
    where = where or gpu.id
    s = _settings(gpu, c, CONTEXTS[0], tp)
    try:
        first = engines.run(arch, s)
    except SettingError as exc:
        return _error_cell(where, arch, c, exc)
    if c.engine in engines.PAGED:
        return _paged_cell(arch, s, first, where, c.key)
    tf = solve.total_fn(arch, s)
    return _total_cell(
        arch, first, gpu.vram_bytes, where, c.key, tf, solve.context_quantum(arch, s)
    )


def _model_cells(arch: ModelArch, gpus: list[Gpu], c: Combo) -> list[Cell]:
    """One model and setting on every GPU: as `cell` computes each, with what does not
    depend on the GPU (llama.cpp's and Ollama's totals) computed once."""
    if c.engine in engines.PAGED:
        return [cell(arch, g, c) for g in gpus]
    s = _settings(None, c, CONTEXTS[0])
    try:
        first = engines.run(arch, s)
    except SettingError as exc:
        return [_error_cell(g.id, arch, c, exc) for g in gpus]
    tf, quantum = _memo(solve.total_fn(arch, s)), solve.context_quantum(arch, s)
    return [_total_cell(arch, first, g.vram_bytes, g.id, c.key, tf, quantum) for g in gpus]


@dataclass(frozen=True)
class Setup:
    """Several identical GPUs in one machine, the model split over them by tensor parallelism
    (vLLM and SGLang; llama.cpp splits layers instead, which these tables do not model)."""

    id: str
    gpu: str
    count: int
    why: str

    def calc_args(self) -> list[str]:
        return ["--gpu", self.gpu, "--tp", str(self.count)]


# The multi-GPU machines people build and rent (issue 15): two used RTX 3090s or two 4090s at
# home, four or eight A100s or H100s in a server.
SETUPS: tuple[Setup, ...] = (
    Setup("2x-rtx-3090", "rtx-3090", 2, "two RTX 3090s, the common home build for 70B models"),
    Setup("2x-rtx-4090", "rtx-4090", 2, "two RTX 4090s in one workstation"),
    Setup("4x-a100-80gb", "a100-80gb", 4, "half of an 8-GPU A100 server, or a 4-GPU node"),
    Setup("8x-a100-80gb", "a100-80gb", 8, "a full A100 80GB server (DGX A100, p4de)"),
    Setup("4x-h100-80gb", "h100-80gb", 4, "half of an 8-GPU H100 server"),
    Setup("8x-h100-80gb", "h100-80gb", 8, "a full H100 SXM server (DGX H100, p5)"),
)
LAYER_SPLIT = (
    "llama.cpp and Ollama split whole layers over several GPUs (--split-mode layer), which "
    "these tables do not compute; see one GPU's figures"
)
# Tensor parallelism: the engines that split every layer over the GPUs.
TP_COMBOS: tuple[Combo, ...] = tuple(c for c in COMBOS if c.engine in ("vllm", "sglang"))


def setup(setup_id: str) -> Setup:
    return next(s for s in SETUPS if s.id == setup_id)


@cache
def setup_grid() -> tuple[Cell, ...]:
    """Every multi-GPU cell: setup x model x tensor-parallel setting, filed under the setup."""
    gpus = load_gpus()
    models = load_catalog()
    return tuple(
        cell(models[m], gpus[s.gpu], c, s.count, s.id)
        if c in TP_COMBOS
        else Cell(s.id, m, c.key, None, (), (), None, None, "", LAYER_SPLIT)
        for s in SETUPS
        for m in models
        for c in COMBOS
    )


_grid: tuple[Cell, ...] | None = None


def fit_grid() -> tuple[Cell, ...]:
    """Every cell, ordered by GPU, model and setting (the order the pages print)."""
    global _grid
    if _grid is None:
        gpus = load_gpus()
        models = load_catalog()
        gpu_list = list(gpus.values())
        by_key: dict[tuple[str, str, str], Cell] = {}
        for m, arch in models.items():
            for c in COMBOS:
                for x in _model_cells(arch, gpu_list, c):
                    by_key[(x.gpu, m, c.key)] = x
        _grid = tuple(by_key[(g, m, c.key)] for g in gpus for m in models for c in COMBOS)
    return _grid


def cell_from_json(data: dict[str, Any]) -> Cell:
    return Cell(
        gpu=data["gpu"],
        model=data["model"],
        combo=data["combo"],
        max_context=data["max_context"],
        concurrency=tuple(data["concurrency"]),
        fits=tuple(data["fits"]),
        weights_bytes=data["weights_bytes"],
        kv_bytes_per_token=data["kv_bytes_per_token"],
        engine_version=data["engine_version"],
        error=data["error"],
    )


@cache
def source_key() -> str:
    """A digest of every file the grid depends on: the package's code and data.

    Read once per process, like the code and data it digests (a changed calculator needs a
    restart of `mkdocs serve` anyway)."""
    digest = hashlib.sha256(CALCULATOR_VERSION.encode())
    root = Path(__file__).parent
    for path in sorted([*root.rglob("*.py"), *root.rglob("*.yaml")]):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _cache_path(cache_dir: Path) -> Path:
    return cache_dir / f"grid-{source_key()}.json"


def load_or_compute(cache_dir: Path) -> tuple[Cell, ...]:
    """The grid from `cache_dir` when computed from the same sources, else computed here;
    saved to the cache.

    A cold build pays for the grid once; `mkdocs serve` rebuilds and warm CI builds do not.
    """
    global _grid
    path = _cache_path(cache_dir)
    if _grid is None and path.is_file():
        _grid = _from_json(path.read_bytes())
    cells = fit_grid()
    if not path.is_file():
        try:
            cache_dir.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")  # builds may run side by side
            tmp.write_text(_to_json(cells), encoding="utf-8")
            tmp.replace(path)
            prune_cache(path)
        except OSError:  # a read-only checkout builds too, only without the cache
            pass
    return cells


def prune_cache(path: Path, *, keep: int = 2) -> None:
    """Remove older cache files of `path`'s kind (`grid-*.json` beside `grid-<key>.json`).

    Each change to the calculators' sources writes a new key; without this, every edit
    leaves another 16 to 30 MB behind. Two are kept so that switching between two branches
    stays warm.
    """
    kind = path.name.split("-", 1)[0]
    others = sorted(
        (p for p in path.parent.glob(f"{kind}-*.json") if p != path),
        key=lambda p: p.stat().st_mtime,
        reverse=True,
    )
    for stale in others[keep - 1 :]:
        stale.unlink(missing_ok=True)


def _to_json(cells: tuple[Cell, ...]) -> str:
    return json.dumps([c.to_json() for c in cells])


def _from_json(text: str | bytes) -> tuple[Cell, ...]:
    return tuple(cell_from_json(d) for d in json.loads(text))


@cache
def engine_versions() -> dict[str, str]:
    """What each engine profile models, as the tables' stamp."""
    seen: dict[str, str] = {}
    for c in fit_grid():
        engine = combo(c.combo).engine
        if c.engine_version and engine not in seen:
            seen[engine] = c.engine_version
    return dict(sorted(seen.items()))
