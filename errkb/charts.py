"""Charts for the GPU and model pages: Vega-Lite specs rendered to static SVG at build time.

Vega-Lite (through vl-convert, which embeds it) draws them, so the pages carry plain SVG
images that need no JavaScript; the tables beside them hold the same numbers as text.
Rendering costs tens of milliseconds a chart, so SVGs are kept in memory and in
`.cache/errkb/charts/`, keyed by a digest of the spec (the spec holds all the data).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from calculators.grid import Cell, combo

VEGA_LITE = "https://vega.github.io/schema/vega-lite/v5.json"
MODEL_CHART = ("vllm-bf16", "vllm-awq", "llamacpp-q4k", "llamacpp-q4k-q8kv")
GPU_CHART = ("vllm-bf16", "llamacpp-q4k")
_memory: dict[str, str] = {}


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


def render_svg(spec: dict[str, Any], cache_dir: Path | None = None) -> str:
    key = hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:20]
    if key in _memory:
        return _memory[key]
    path = cache_dir / f"{key}.svg" if cache_dir else None
    if path is not None and path.is_file():
        svg = path.read_text(encoding="utf-8")
    else:
        import vl_convert  # imported late: only builds with tables need it

        svg = vl_convert.vegalite_to_svg(spec)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(svg, encoding="utf-8")
    _memory[key] = svg
    return svg
