"""``estimate``: one call from an architecture and a setting to every figure we report."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import calculators.engines.registry as engines
import calculators.solve as solve
from calculators.engines.base import Settings
from calculators.gpus import Gpu, get_gpu, gpu_settings
from calculators.models import ModelArch
from calculators.weights import vision_bytes


@dataclass(frozen=True, slots=True)
class Estimate:
    """What ``errkb calc --json`` prints. Byte figures are per GPU."""

    model: str
    engine: str
    engine_version: str
    context: int
    seqs: int
    tp: int
    kv_dtype: str
    kv_bytes_per_token: int
    kv_bytes: int
    k_bytes: int
    v_bytes: int
    state_bytes: int
    weights_bytes: int
    overhead_bytes: int
    total_bytes: int
    vram_bytes: int | None
    kv_budget_bytes: int | None
    kv_cache_tokens: int | None
    cells: int | None
    cells_swa: int | None
    max_context: int | None
    max_concurrency: float | None
    fits: bool | None
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def estimate(
    arch: ModelArch,
    *,
    engine: str = "llama.cpp",
    context: int = 4096,
    seqs: int = 1,
    gpu: str | Gpu | None = None,
    vram_bytes: int | None = None,
    solve_limits: bool = True,
    **settings: Any,
) -> Estimate:
    """Estimate memory for ``arch`` on ``engine``.

    ``settings`` are ``Settings`` fields: ``kv_dtype``, ``cache_type_k``, ``cache_type_v``,
    ``weights``, ``tp``, ``gpu_memory_utilization``, ``mem_fraction_static``,
    ``flash_attn``, ``version`` ... ``gpu`` (catalog id or ``Gpu``) sets ``vram_bytes``.
    Raises ``SettingError`` (a ``ValueError``) for impossible settings.
    """
    if gpu is not None:
        g = get_gpu(gpu) if isinstance(gpu, str) else gpu
        for name, value in gpu_settings(g).items():
            if name == "vram_bytes":
                vram_bytes = value if vram_bytes is None else vram_bytes
            else:
                settings.setdefault(name, value)
    s = Settings(engine=engine, context=context, seqs=seqs, vram_bytes=vram_bytes, **settings)
    r = engines.run(arch, s)
    fit = solve.result_fits(r, s)
    notes = [*arch.assumptions, *r.notes]
    if arch.vision is not None:
        notes.append(_vision_note(arch, s))
    if arch.max_position_embeddings and context > arch.max_position_embeddings and fit:
        # The engine refuses a context beyond the model's own (vLLM's max_model_len check),
        # and max_context is capped there: a "fits" here would contradict it.
        fit = False
        notes.append(
            f"{context:,} tokens is beyond the model's context length "
            f"(max_position_embeddings {arch.max_position_embeddings:,}): the engine refuses it"
        )
    max_ctx = solve.max_context(arch, s, result=r) if solve_limits else None
    conc = solve.max_concurrency(arch, s, result=r) if solve_limits else None
    return Estimate(
        model=arch.id,
        engine=engine,
        engine_version=r.engine_version,
        context=context,
        seqs=seqs,
        tp=s.tp,
        kv_dtype=r.kv_dtype,
        kv_bytes_per_token=r.kv_bytes_per_token,
        kv_bytes=r.kv_bytes,
        k_bytes=r.k_bytes,
        v_bytes=r.v_bytes,
        state_bytes=r.state_bytes,
        weights_bytes=r.weights_bytes,
        overhead_bytes=r.overhead_bytes,
        total_bytes=r.total_bytes,
        vram_bytes=vram_bytes,
        kv_budget_bytes=r.kv_budget_bytes,
        kv_cache_tokens=r.kv_cache_tokens,
        cells=r.cells,
        cells_swa=r.cells_swa,
        max_context=max_ctx,
        max_concurrency=conc,
        fits=fit,
        notes=notes,
    )


def max_context(arch: ModelArch, **kw: Any) -> int | None:
    """Largest per-sequence context that fits (see ``estimate`` for keywords)."""
    gpu = kw.pop("gpu", None)
    if gpu is not None and kw.get("vram_bytes") is None:
        kw["vram_bytes"] = (get_gpu(gpu) if isinstance(gpu, str) else gpu).vram_bytes
    return solve.max_context(arch, Settings(**kw))


def max_concurrency(arch: ModelArch, **kw: Any) -> float | None:
    """Sequences of ``context`` tokens that fit at once (see ``estimate``)."""
    gpu = kw.pop("gpu", None)
    if gpu is not None and kw.get("vram_bytes") is None:
        kw["vram_bytes"] = (get_gpu(gpu) if isinstance(gpu, str) else gpu).vram_bytes
    return solve.max_concurrency(arch, Settings(**kw))


def _vision_note(arch: ModelArch, s: Settings) -> str:
    v = arch.vision
    assert v is not None
    if s.engine == "vllm" and s.language_model_only:
        return (
            f"--language-model-only: the vision tower ({v.params / 1e9:.2f}B parameters) is "
            "neither loaded nor profiled"
        )
    if s.engine in ("vllm", "sglang") and vision_bytes(arch, s.weights, s.tp):
        return (
            f"weights include the vision tower: {v.params / 1e9:.2f}B parameters in 16 bits, "
            "split over tensor-parallel GPUs as vLLM splits it"
        )
    return (
        f"a GGUF holds the text model only; the vision tower ({v.params / 1e9:.2f}B "
        "parameters) is the separate mmproj file, loaded with --mmproj and not counted"
    )
