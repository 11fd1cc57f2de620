"""llama.cpp's whole footprint in users' logs: model buffer, KV cache and compute buffer.

``data/llamacpp_logs.yaml`` holds start-up logs that people pasted in public threads (llama.cpp
itself, or Ollama's server log, which carries llama.cpp's lines). Each case gives what a user
knows before starting: the model (a catalog id), the GGUF file type, the release and the
flags; and what llama.cpp printed. The split into calibration and holdout is the same fixed
function of the source URL as ``endtoend.split``, decided before any case was scored.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from statistics import median
from typing import Any

from calculators.datafiles import read_data
from calculators.endtoend import CALIBRATION, HOLDOUT, LogCase, split
from calculators.engines import run
from calculators.engines.base import MiB, Settings
from calculators.gguf import model_buffers
from calculators.models import get_model

PARTS = ("model", "kv", "compute")


@cache
def load_cases() -> tuple[dict[str, Any], ...]:
    return tuple(read_data("llamacpp_logs.yaml")["cases"])


def settings(case: dict[str, Any]) -> Settings:
    """The calculator's settings for a case: only the inputs a user has before starting."""
    i = case["inputs"]
    return Settings(
        engine=case["engine"],
        version=str(i["version"]),
        context=int(i["context"]),
        seqs=int(i.get("seqs", 1)),
        weights=f"gguf-{i['file_type'].lower()}",
        cache_type_k=i.get("cache_type_k", "f16"),
        cache_type_v=i.get("cache_type_v", "f16"),
        flash_attn=i.get("flash_attn"),
        n_batch=int(i.get("n_batch", 2048)),
        n_ubatch=int(i.get("n_ubatch", 512)),
        kv_unified=i.get("kv_unified"),
    )


@dataclass(frozen=True, slots=True)
class Outcome(LogCase):
    release: str
    predicted: dict[str, float]  # MiB per part
    printed: dict[str, float]

    def rel_error(self, part: str) -> float | None:
        printed = self.printed.get(part)
        if not printed:
            return None
        return (self.predicted[part] - printed) / printed


def predict(case: dict[str, Any]) -> Outcome:
    arch = get_model(case["inputs"]["model"])
    file_type = case["inputs"]["file_type"]
    res = run(arch, settings(case))
    gpu, _host = model_buffers(arch, file_type)
    p = case["printed"]
    printed = {
        "model": p.get("model_gpu_mib"),
        "kv": p.get("kv_mib"),
        "compute": p.get("compute_gpu_mib"),
    }
    return Outcome(
        case_id=case["id"],
        engine=case["engine"],
        half=split(case["source"]),
        source=case["source"],
        release=str(case["inputs"]["version"]),
        predicted={
            "model": gpu / MiB,
            "kv": res.kv_bytes / MiB,
            "compute": res.overhead_bytes / MiB,
        },
        printed={k: float(v) for k, v in printed.items() if v is not None},
    )


@cache
def _all_outcomes() -> tuple[Outcome, ...]:
    # The table and the fit pages' note ask for both halves; each case is predicted once.
    return tuple(predict(c) for c in load_cases())


def outcomes(half: str | None = None) -> list[Outcome]:
    return [o for o in _all_outcomes() if half is None or o.half == half]


def summary(items: list[Outcome], part: str) -> dict[str, float]:
    errs = [abs(e) for o in items if (e := o.rel_error(part)) is not None]
    exact = sum(1 for o in items if o.rel_error(part) is not None and _exact(o, part))
    return {
        "cases": len(errs),
        "median_pct": 100 * median(errs) if errs else math.nan,
        "worst_pct": 100 * max(errs) if errs else math.nan,
        "exact": exact,
    }


def _exact(o: Outcome, part: str) -> bool:
    # llama.cpp prints MiB to two decimals.
    return abs(o.predicted[part] - o.printed[part]) < 0.006


def _cell(o: Outcome, part: str) -> str:
    if part not in o.printed:
        return "n/a"
    err = o.rel_error(part)
    pct = "" if err is None else f" ({100 * err:+.1f}%)"
    return f"{o.predicted[part]:.2f} / {o.printed[part]:.2f}{pct}"


def table_markdown() -> str:
    rows = [
        "| half | log | engine | release | model buffer MiB | KV MiB | compute buffer MiB |",
        "|---|---|---|---|---:|---:|---:|",
    ]
    for half in (HOLDOUT, CALIBRATION):
        for o in outcomes(half):
            rows.append(
                f"| {half} | [{o.case_id}]({o.source}) | {o.engine} | {o.release} | "
                + " | ".join(_cell(o, part) for part in PARTS)
                + " |"
            )
    lines = ["\n".join(rows), "", "Each cell: predicted / printed (error)."]
    for half in (HOLDOUT, CALIBRATION):
        items = outcomes(half)
        parts = []
        for part in PARTS:
            s = summary(items, part)
            if s["cases"]:
                parts.append(
                    f"{part} {int(s['exact'])} of {int(s['cases'])} exact, median "
                    f"{s['median_pct']:.1f}%, worst {s['worst_pct']:.1f}%"
                )
        logs = "1 log" if len(items) == 1 else f"{len(items)} logs"
        lines.append(f"- **{half}** ({logs}): {'; '.join(parts)}.")
    return "\n".join(lines)
