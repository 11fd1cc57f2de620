"""The fit grid as the site reads it, and the JSON the "will it run?" page looks up.

`FitData` is built once per build (errkb.site.plan) and handed to every page builder, so a
builder's output depends only on its arguments.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from calculators.gpus import Gpu, load_gpus
from calculators.grid import CALCULATOR_VERSION, COMBOS, CONTEXTS, SETUPS, Cell, Combo, setup_grid
from calculators.models import ModelArch, load_catalog
from errkb.entries.urls import FIT_API, short_uri, url_of

# Where a reader lands when a setting does not fit, per engine (entry ids).
NO_FIT_ENTRIES: dict[str, tuple[str, ...]] = {
    "vllm": ("E0001", "E0002", "E0009"),
    "sglang": ("E0013", "E0009"),
    "llama.cpp": ("E0015", "E0008"),
    "ollama": ("E0012", "E0015"),
}


@dataclass(frozen=True)
class FitData:
    """Every cell of the grid with the catalogs it was computed from, in grid order."""

    gpus: dict[str, Gpu]
    catalog: dict[str, ModelArch]
    cells: tuple[Cell, ...]
    _lookup: dict[tuple[str, str, str], Cell] = field(init=False, repr=False, compare=False)
    _versions: dict[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        lookup = {(c.gpu, c.model, c.combo): c for c in self.cells}
        object.__setattr__(self, "_lookup", lookup)
        # Every fit page prints this stamp: computed once, not once a page over every cell.
        engine_of = {c.key: c.engine for c in COMBOS}
        seen: dict[str, str] = {}
        for c in self.cells:
            engine = engine_of[c.combo]
            if c.engine_version and engine not in seen:
                seen[engine] = c.engine_version
        object.__setattr__(self, "_versions", dict(sorted(seen.items())))

    def cell(self, gpu_id: str, model_id: str, combo_key: str) -> Cell:
        return self._lookup[(gpu_id, model_id, combo_key)]

    def grouped(self, by: str) -> dict[str, list[Cell]]:
        """Cells per model or per GPU (`by` is the Cell field), in grid order."""
        out: dict[str, list[Cell]] = {}
        for c in self.cells:
            out.setdefault(getattr(c, by), []).append(c)
        return out

    def engine_versions(self) -> dict[str, str]:
        """What each engine profile models, as the tables' stamp."""
        return dict(self._versions)


def launch_command(c: Combo) -> str:
    """How to start the engine for one sequence at a context, as a template: `{model}` is the
    model's Hugging Face repo, `{context}` the context in tokens. The fit tables on entry pages
    and the "will it run?" page (which gets these as data) fill the same templates."""
    kv = dict(c.kv)
    if c.engine == "vllm":
        model = "<an AWQ build of {model}>" if c.weights == "awq" else "{model}"
        command = f"vllm serve {model} --max-model-len {{context}}"
        if kv.get("kv_dtype", "auto") != "auto":
            command += f" --kv-cache-dtype {kv['kv_dtype']}"
        return command
    if c.engine == "sglang":
        return "python -m sglang.launch_server --model-path {model} --context-length {context}"
    if c.engine == "ollama":
        return "OLLAMA_CONTEXT_LENGTH={context} OLLAMA_NUM_PARALLEL=1 ollama serve"
    if c.engine == "llama.cpp":
        command = "llama-server -m model.gguf -ngl 99 -c {context}"
        if kv.get("cache_type_k", "f16") != "f16" or kv.get("cache_type_v", "f16") != "f16":
            # A quantized V cache needs flash attention; `-fa` takes on/off/auto since b6325.
            command += f" -fa on -ctk {kv['cache_type_k']} -ctv {kv['cache_type_v']}"
        return command
    raise ValueError(f"no launch command for engine {c.engine!r}")


def calc_command(c: Combo) -> str:
    """`errkb calc` for one cell and a number of sequences, as a template like
    `launch_command`'s, with `{gpu}` and `{seqs}` too (`{model}` is the catalog id here)."""
    return " ".join(
        [
            "errkb calc --model {model} --gpu {gpu}",
            *c.calc_args(),
            "--context {context} --seqs {seqs}",
        ]
    )


def fill_command(template: str, **values: int | str) -> str:
    for name, value in values.items():
        template = template.replace("{" + name + "}", str(value))
    return template


def fit_data(cells: tuple[Cell, ...]) -> FitData:
    return FitData(load_gpus(), load_catalog(), cells)


def signature(m: ModelArch) -> dict[str, Any]:
    """The config.json fields that decide every figure: a pasted config with the same values
    has the same tables (a fine-tune of a catalog model)."""
    return {
        "model_type": m.model_type,
        "num_hidden_layers": m.n_layers,
        "hidden_size": m.hidden_size,
        "num_attention_heads": m.n_heads,
        "num_key_value_heads": m.n_kv_heads,
        "intermediate_size": m.intermediate_size,
        "vocab_size": m.vocab_size,
    }


def json_text(data: object) -> str:
    """Every JSON file the site publishes: compact, sorted, one trailing newline."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n"


def fit_asset_paths(catalog: Iterable[str]) -> tuple[str, ...]:
    """Site paths of the fit JSON: the index, then one document per catalog model (the order
    `fit_assets` writes them in), known before the grid is computed."""
    return (f"{FIT_API}/index.json", *(f"{FIT_API}/{m}.json" for m in catalog))


def fit_assets(fit: FitData) -> dict[str, str]:
    """The data the "will it run?" page looks up: an index and one document per model."""
    index = {
        "calculator_version": CALCULATOR_VERSION,
        "engine_versions": fit.engine_versions(),
        "contexts": list(CONTEXTS),
        "gpus": [
            {
                "id": g.id,
                "name": g.name,
                "memory_mib": g.memory_mib,
                "calc_gpu": g.id,
                "launch_suffix": "",
            }
            for g in fit.gpus.values()
        ]
        + [
            {
                "id": s.id,
                "name": f"{s.count}x {fit.gpus[s.gpu].name} (tensor parallel {s.count})",
                "memory_mib": s.count * fit.gpus[s.gpu].memory_mib,
                "calc_gpu": " ".join(s.calc_args()[1:]),
                # vLLM and SGLang both take this spelling (the setups compute only those).
                "launch_suffix": f" --tensor-parallel-size {s.count}",
            }
            for s in SETUPS
        ],
        "models": [
            {"id": m.id, "name": m.name, "hf_repo": m.hf_repo, "signature": signature(m)}
            for m in fit.catalog.values()
        ],
        "combos": [
            {
                "key": c.key,
                "label": c.label,
                "engine": c.engine,
                "calc_args": c.calc_args(),
                "command": launch_command(c),
                "calc_command": calc_command(c),
            }
            for c in COMBOS
        ],
        # A pasted config.json runs `errkb calc` in the page (calculators/browser.py) with
        # these options; "{combo}" stands for the chosen setting's `calc_args`.
        "config_calc": {
            "command": "errkb calc --config config.json",
            "args": ["--gpu", "{gpu}", "{combo}", "--context", "{context}", "--seqs", "{seqs}"],
            "index_args": ["--safetensors-index", "model.safetensors.index.json"],
        },
        # Site-relative URLs, so the page never builds an entry's address itself.
        "no_fit_entries": {
            engine: [{"id": i, "url": url_of(short_uri(i))} for i in ids]
            for engine, ids in NO_FIT_ENTRIES.items()
        },
    }
    index_path, *model_paths = fit_asset_paths(fit.catalog)
    out = {index_path: json_text(index)}
    several: dict[str, list[Cell]] = {}
    for c in setup_grid():
        several.setdefault(c.model, []).append(c)
    per_model = fit.grouped("model")
    for model_id, path in zip(fit.catalog, model_paths, strict=True):
        rows = [c.to_json() for c in (*per_model.get(model_id, ()), *several.get(model_id, ()))]
        out[path] = json_text({"model": model_id, "cells": rows})
    return out
