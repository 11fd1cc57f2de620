"""End-to-end budget checks: predictions from what a user knows, against printed startup logs.

``data/startup_logs.yaml`` holds each case's inputs (catalog model and GPU, engine release,
flags) and what the engine printed. The split into calibration and holdout is a fixed
function of the source URL, so no one picks which logs score the model.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from functools import cache
from statistics import median
from typing import Any

from calculators.datafiles import read_data
from calculators.engines.base import GiB
from calculators.estimate import estimate
from calculators.models import get_model

CALIBRATION = "calibration"
HOLDOUT = "holdout"


def split(source: str) -> str:
    """Which half a log belongs to: decided by its source URL, never by its error."""
    return HOLDOUT if int(hashlib.sha1(source.encode()).hexdigest(), 16) % 2 else CALIBRATION


@cache
def load_cases() -> tuple[dict[str, Any], ...]:
    return tuple(read_data("startup_logs.yaml")["cases"])


@dataclass(frozen=True, slots=True)
class LogCase:
    """A scored log: which case, which engine, which half, where it was published."""

    case_id: str
    engine: str
    half: str
    source: str


@dataclass(frozen=True, slots=True)
class Outcome(LogCase):
    predicted_gib: float
    printed_gib: float | None  # SGLang prints its pool in tokens only
    predicted_tokens: int | None
    printed_tokens: int | None
    release: str = ""

    @property
    def error_gib(self) -> float | None:
        return None if self.printed_gib is None else self.predicted_gib - self.printed_gib

    @property
    def tokens_rel_error(self) -> float | None:
        if self.predicted_tokens is None or not self.printed_tokens:
            return None
        return (self.predicted_tokens - self.printed_tokens) / self.printed_tokens


def predict(case: dict[str, Any]) -> Outcome:
    inputs = dict(case["inputs"])
    arch = get_model(inputs.pop("model"))
    e = estimate(arch, engine=case["engine"], solve_limits=False, **inputs)
    assert e.kv_budget_bytes is not None, f"{case['id']}: no budget (is the GPU known?)"
    printed = case["printed"]
    tokens = printed.get("tokens")
    kv = printed.get("available_kv_gib")
    return Outcome(
        case_id=case["id"],
        engine=case["engine"],
        half=split(case["source"]),
        source=case["source"],
        predicted_gib=e.kv_budget_bytes / GiB,
        printed_gib=None if kv is None else float(kv),
        predicted_tokens=e.kv_cache_tokens if tokens is not None else None,
        printed_tokens=tokens,
        release=str(case["inputs"].get("version") or ""),
    )


def outcomes(half: str | None = None, engine: str | None = None) -> list[Outcome]:
    out = [predict(c) for c in load_cases()]
    return [
        o
        for o in out
        if (half is None or o.half == half) and (engine is None or o.engine == engine)
    ]


def summary(items: list[Outcome]) -> dict[str, float]:
    errs = [abs(e) for o in items if (e := o.error_gib) is not None]
    tok = [abs(r) for o in items if (r := o.tokens_rel_error) is not None]
    return {
        "cases": len(items),
        "median_abs_gib": median(errs) if errs else float("nan"),
        "worst_abs_gib": max(errs) if errs else float("nan"),
        "median_abs_tokens_pct": 100 * median(tok) if tok else float("nan"),
        "worst_abs_tokens_pct": 100 * max(tok) if tok else float("nan"),
    }


def _gib(x: float | None, signed: bool = False) -> str:
    if x is None:
        return "n/a"
    return f"{x:+.2f}" if signed else f"{x:.2f}"


def table_markdown() -> str:
    rows = [
        "| half | log | engine | release | predicted KV GiB | printed KV GiB | error GiB "
        "| KV tokens error |",
        "|---|---|---|---|---:|---:|---:|---:|",
    ]
    for half in (HOLDOUT, CALIBRATION):
        for o in outcomes(half):
            tok = o.tokens_rel_error
            rows.append(
                f"| {half} | [{o.case_id}]({o.source}) | {o.engine} | {o.release} | "
                f"{o.predicted_gib:.2f} | {_gib(o.printed_gib)} | {_gib(o.error_gib, True)} | "
                f"{'n/a' if tok is None else f'{100 * tok:+.1f}%'} |"
            )
    lines = ["\n".join(rows), ""]
    for half in (HOLDOUT, CALIBRATION):
        for engine in sorted({o.engine for o in outcomes(half)}):
            s = summary(outcomes(half, engine))
            parts = []
            if not math.isnan(s["median_abs_gib"]):
                parts.append(
                    f"available KV median error {s['median_abs_gib']:.2f} GiB, "
                    f"worst {s['worst_abs_gib']:.2f} GiB"
                )
            if not math.isnan(s["median_abs_tokens_pct"]):
                parts.append(
                    f"KV tokens median {s['median_abs_tokens_pct']:.1f}%, "
                    f"worst {s['worst_abs_tokens_pct']:.1f}%"
                )
            lines.append(f"- **{half}, {engine}** ({s['cases']} logs): {'; '.join(parts)}.")
    return "\n".join(lines)
