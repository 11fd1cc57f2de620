"""Charts for the GPU and model pages: Vega-Lite specs rendered to static SVG.

Vega-Lite (through vl-convert, which embeds it) draws them, so the pages carry plain SVG
images that need no JavaScript; the tables beside them hold the same numbers as text.
Rendering costs about 0.1 s a chart, most of a build's budget for 60 of them, so the SVGs
are committed under docs/assets/charts/ like the JSON Schema: `errkb charts` writes them,
each headed by the digest of the spec it was drawn from (the spec holds all the data), and
the build fails when one no longer matches what the calculators compute.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from calculators.grid import Cell, combo
from errkb.site.fitdata import FitData

VEGA_LITE = "https://vega.github.io/schema/vega-lite/v5.json"
MODEL_CHART = ("vllm-bf16", "vllm-awq", "llamacpp-q4k", "llamacpp-q4k-q8kv")
GPU_CHART = ("vllm-bf16", "llamacpp-q4k")


def _spec(
    title: str, rows: list[dict[str, Any]], label: str, height: int, keys: tuple[str, ...]
) -> dict[str, Any]:
    order = [combo(k).label for k in keys]
    return {
        "$schema": VEGA_LITE,
        "title": title,
        "width": 520,
        "height": height,
        "data": {"values": rows},
        "mark": {"type": "bar"},
        "encoding": {
            "y": {"field": label, "type": "nominal", "sort": None, "title": None},
            "yOffset": {"field": "setting", "sort": order},
            "x": {
                "field": "max_context",
                "type": "quantitative",
                "title": "longest context per sequence (tokens); 0 = does not fit",
                "axis": {"format": "~s"},
            },
            "color": {
                "field": "setting",
                "type": "nominal",
                "sort": order,
                "legend": {"orient": "bottom", "columns": 2, "labelLimit": 400, "title": None},
            },
        },
        "config": {"font": "sans-serif", "view": {"stroke": None}},
    }


def _rows(
    cells: list[Cell], label: str, names: dict[str, str], keys: tuple[str, ...]
) -> list[dict[str, Any]]:
    return [
        {
            label: names[c.gpu if label == "gpu" else c.model],
            "setting": combo(c.combo).label,
            "max_context": c.max_context or 0,
        }
        for c in cells
        if c.combo in keys
    ]


def model_chart(model_name: str, cells: list[Cell], gpu_names: dict[str, str]) -> dict[str, Any]:
    rows = _rows(cells, "gpu", gpu_names, MODEL_CHART)
    return _spec(f"{model_name}: longest context by GPU", rows, "gpu", 14 * len(rows), MODEL_CHART)


def gpu_chart(gpu_name: str, cells: list[Cell], model_names: dict[str, str]) -> dict[str, Any]:
    rows = _rows(cells, "model", model_names, GPU_CHART)
    return _spec(f"{gpu_name}: longest context by model", rows, "model", 8 * len(rows), GPU_CHART)


CHARTS_DIR = "docs/assets/charts"  # repository path; pages link to assets/charts/...
_HEADER = "<!-- errkb chart, spec digest {} -->\n"


def digest(spec: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:20]


def render_svg(spec: dict[str, Any]) -> str:
    import vl_convert  # imported late: only `errkb charts` draws

    return _HEADER.format(digest(spec)) + vl_convert.vegalite_to_svg(spec)


def stale(root: Path, specs: dict[str, dict[str, Any]]) -> list[str]:
    """Chart files (docs-relative) that are missing, drawn from other data, or left over."""
    base = root / CHARTS_DIR
    out = []
    for rel_path, spec in specs.items():
        path = base / rel_path
        first = path.open(encoding="utf-8").readline() if path.is_file() else ""
        if first != _HEADER.format(digest(spec)):
            out.append(rel_path)
    present = (
        {p.relative_to(base).as_posix() for p in base.rglob("*.svg")} if base.is_dir() else set()
    )
    return sorted([*out, *(present - set(specs))])


def write(root: Path, specs: dict[str, dict[str, Any]]) -> list[str]:
    """Draw what `stale` reports (and remove left-over files); returns what changed."""
    base = root / CHARTS_DIR
    changed = stale(root, specs)
    for rel_path in changed:
        path = base / rel_path
        if rel_path in specs:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(render_svg(specs[rel_path]), encoding="utf-8")
        else:
            path.unlink()
    return changed


def chart_path(kind: str, item_id: str) -> str:
    """Docs-relative path of a chart under CHARTS_DIR."""
    return f"{kind}/{item_id}.svg"


def chart_uri(kind: str, item_id: str) -> str:
    return f"assets/charts/{chart_path(kind, item_id)}"


def chart_specs(fit: FitData) -> dict[str, dict[str, Any]]:
    """Every chart's Vega-Lite spec: one per model (by GPU) and one per GPU (by model)."""
    gpu_names = {g.id: g.name for g in fit.gpus.values()}
    model_names = {m.id: m.name for m in fit.catalog.values()}
    per_model, per_gpu = fit.grouped("model"), fit.grouped("gpu")
    out: dict[str, dict[str, Any]] = {}
    for m in fit.catalog.values():
        out[chart_path("models", m.id)] = model_chart(m.name, per_model[m.id], gpu_names)
    for g in fit.gpus.values():
        out[chart_path("gpus", g.id)] = gpu_chart(g.name, per_gpu[g.id], model_names)
    return out
