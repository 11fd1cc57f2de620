"""Ollama's estimate lines in users' logs, against ``engines/ollama_estimate.py``.

``data/ollama_estimates.yaml`` holds "offload to ..." lines that Ollama printed in public logs,
with what a user knows before starting (model, GGUF file type, release, num_ctx, parallel).
Ollama prints each figure to one decimal (``format.HumanBytes2``), so a figure is "as printed"
when ours prints the same. Split like the other logs, by a fixed hash of the source URL.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from calculators.datafiles import read_data
from calculators.endtoend import CALIBRATION, HOLDOUT, split
from calculators.engines.ollama_estimate import OllamaEstimate, ollama_estimate
from calculators.models import get_model

GiB, MiB, KiB = 1 << 30, 1 << 20, 1 << 10
FIELDS: dict[str, str] = {
    "required_full": "memory.required.full",
    "kv": "memory.required.kv",
    "weights_total": "memory.weights.total",
    "weights_nonrepeating": "memory.weights.nonrepeating",
    "graph_full": "memory.graph.full",
    "graph_partial": "memory.graph.partial",
}


def human_bytes(b: int) -> str:
    """Ollama's ``format.HumanBytes2``."""
    if b >= GiB:
        return f"{b / GiB:.1f} GiB"
    if b >= MiB:
        return f"{b / MiB:.1f} MiB"
    if b >= KiB:
        return f"{b / KiB:.1f} KiB"
    return f"{b} B"


_UNITS = {"GiB": GiB, "MiB": MiB, "KiB": KiB, "B": 1}


def parse_bytes(text: str) -> float:
    number, unit = re.fullmatch(r"\s*([\d.]+)\s*(GiB|MiB|KiB|B)\s*", text).groups()  # type: ignore[union-attr]
    return float(number) * _UNITS[unit]


@cache
def load_cases() -> tuple[dict[str, Any], ...]:
    return tuple(read_data("ollama_estimates.yaml")["cases"])


def figures(est: OllamaEstimate) -> dict[str, int]:
    return {
        "required_full": est.required_full,
        "kv": est.kv_bytes,
        "weights_total": est.weights_total,
        "weights_nonrepeating": est.output_bytes,
        "graph_full": est.graph_full,
        "graph_partial": est.graph_partial,
    }


def predict_case(case: dict[str, Any]) -> OllamaEstimate:
    i = case["inputs"]
    return ollama_estimate(
        get_model(i["model"]),
        i["file_type"],
        num_ctx=int(i["num_ctx"]),
        parallel=int(i.get("parallel", 1)),
        num_batch=int(i.get("num_batch", 512)),
        kv_cache_type=i.get("kv_cache_type", "f16"),
        library=i.get("library", "cuda"),
        version=str(i["version"]),
    )


@dataclass(frozen=True, slots=True)
class Outcome:
    case_id: str
    half: str
    source: str
    release: str
    predicted: dict[str, int]
    printed: dict[str, str]

    def as_printed(self, name: str) -> bool:
        return human_bytes(self.predicted[name]) == self.printed[name]

    def rel_error(self, name: str) -> float:
        printed = parse_bytes(self.printed[name])
        return (self.predicted[name] - printed) / printed


@cache
def _all_outcomes() -> tuple[Outcome, ...]:
    # The table asks for each half twice; each case is estimated once.
    return tuple(
        Outcome(
            case_id=case["id"],
            half=split(case["source"]),
            source=case["source"],
            release=str(case["inputs"]["version"]),
            predicted=figures(predict_case(case)),
            printed={k: v for k, v in case["printed"].items() if k in FIELDS},
        )
        for case in load_cases()
    )


def outcomes(half: str | None = None) -> list[Outcome]:
    return [o for o in _all_outcomes() if half is None or o.half == half]


def table_markdown() -> str:
    rows = [
        "| half | log | Ollama | " + " | ".join(f"`{FIELDS[f]}`" for f in FIELDS) + " |",
        "|---|---|---|" + "---:|" * len(FIELDS),
    ]
    for half in (HOLDOUT, CALIBRATION):
        for o in outcomes(half):
            cells = []
            for f in FIELDS:
                if f not in o.printed:
                    cells.append("n/a")
                    continue
                ours = human_bytes(o.predicted[f])
                cells.append(ours if o.as_printed(f) else f"**{ours}** (printed {o.printed[f]})")
            rows.append(
                f"| {half} | [{o.case_id}]({o.source}) | {o.release} | " + " | ".join(cells) + " |"
            )
    lines = ["\n".join(rows), ""]
    for half in (HOLDOUT, CALIBRATION):
        items = outcomes(half)
        if not items:
            lines.append(f"- **{half}**: no logs yet.")
            continue
        total = sum(len(o.printed) for o in items)
        same = sum(o.as_printed(f) for o in items for f in o.printed)
        worst = max((abs(o.rel_error(f)) for o in items for f in o.printed), default=0.0)
        lines.append(
            f"- **{half}** ({len(items)} logs): {same} of {total} figures as Ollama printed "
            f"them; the largest difference {100 * worst:.1f}%."
        )
    return "\n".join(lines)
