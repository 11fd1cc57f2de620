"""Predictions for the quoted engine logs in ``data/validation.yaml``.

The same fixtures drive the tests (``tests/calculators``) and the docs table
(``table_markdown``), so the published table is whatever the code computes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

import calculators.engines.llamacpp as llamacpp
import calculators.engines.ollama as ollama
import calculators.engines.sglang as sglang
import calculators.engines.vllm as vllm
from calculators.datafiles import read_data
from calculators.engines.base import GiB, MiB, Settings
from calculators.models import get_model

PAGED_TOLERANCE = 0.05  # vLLM/SGLang pool capacity must fall within 5% of the printed value
FULL_BUDGET = "budget predicted from GPU total, flags and heuristics (not asserted)"


@cache
def load_cases() -> dict[str, list[dict[str, Any]]]:
    data = read_data("validation.yaml")
    return {"kv_lines": list(data["kv_lines"]), "paged_capacity": list(data["paged_capacity"])}


@dataclass(frozen=True, slots=True)
class Check:
    """One printed figure against our prediction."""

    name: str
    printed: float
    predicted: float
    unit: str
    decimals: int | None = None  # set when the log prints to fixed precision

    @property
    def matches_printed_precision(self) -> bool:
        if self.decimals is None:
            return False
        return f"{self.predicted:.{self.decimals}f}" == f"{self.printed:.{self.decimals}f}"

    @property
    def rel_error(self) -> float:
        if self.printed == 0:
            return 0.0 if self.predicted == 0 else float("inf")
        return (self.predicted - self.printed) / abs(self.printed)


@dataclass(slots=True)
class CaseResult:
    case_id: str
    engine: str
    source: str
    checks: list[Check] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _settings(case: dict[str, Any], **extra: Any) -> Settings:
    inp = dict(case["inputs"])
    inp.pop("available_kv_gib", None)
    return Settings(engine=case["engine"], version=str(case["version"]), **inp, **extra)


def predict_kv_line(case: dict[str, Any]) -> CaseResult:
    """KV bytes (K and V) for a quoted llama.cpp / Ollama / SGLang size line."""
    arch = get_model(case["model"])
    s = _settings(case)
    res = CaseResult(case["id"], case["engine"], case["source"])
    printed = case["printed"]
    if case["engine"] in ("llama.cpp", "ollama"):
        if case["engine"] == "ollama":
            r = ollama.compute(arch, s)
            era = llamacpp.era(ollama._era_for(s.version or ollama.DEFAULT_VERSION))
        else:
            r = llamacpp.compute(arch, s)
            era = llamacpp.era(s.version)
        k, v = r.k_bytes, r.v_bytes
        if case["part"] != "total":
            fa = bool(s.flash_attn)
            kf, vf, ks, vs = llamacpp.row_sums(arch, era.mla_latent, s.cache_type_k, s.cache_type_v)
            cells = llamacpp.kv_cells(arch, s, era, fa)
            if case["part"] == "swa":
                k, v, n = ks * cells.swa, vs * cells.swa, cells.printed_swa
            else:
                k, v, n = kf * cells.base, vf * cells.base, cells.printed_base
            if "cells" in printed:
                res.checks.append(Check("cells", printed["cells"], n, "cells", 0))
        res.checks.append(Check("total", printed["total_mib"], (k + v) / MiB, "MiB", 2))
        res.checks.append(Check("K", printed["k_mib"], k / MiB, "MiB", 2))
        res.checks.append(Check("V", printed["v_mib"], v / MiB, "MiB", 2))
    elif case["engine"] == "sglang":
        r = sglang.compute(arch, s)
        res.checks.append(Check("K", printed["k_gib"], r.k_bytes / GiB, "GiB", 2))
        res.checks.append(Check("V", printed["v_gib"], r.v_bytes / GiB, "GiB", 2))
    else:
        raise ValueError(f"unsupported engine in kv_lines case: {case['engine']}")
    return res


def predict_paged(case: dict[str, Any]) -> CaseResult:
    """Pool capacity from the printed KV memory, and the budget from printed components."""
    arch = get_model(case["model"])
    avail = case["inputs"].get("available_kv_gib")
    printed = case["printed"]
    res = CaseResult(case["id"], case["engine"], case["source"])
    bi = case.get("budget_inputs")
    budget_gib: float | None = None
    if bi is not None and case["engine"] == "sglang":
        # ModelRunner.profile_max_num_token: what is left after the weights, less the share
        # of the memory free at start that --mem-fraction-static keeps out of the pool.
        budget_gib = bi["after_weights_gib"] - bi["free_at_start_gib"] * (
            1 - bi["mem_fraction_static"]
        )
    elif bi is not None:
        # Budget from the components the log prints (vLLM V0 0.6.4+ formula).
        requested = bi["total_gib"] * bi["utilization"]
        if "peak_torch_gib" in bi:
            budget_gib = requested - bi["peak_torch_gib"] - bi["non_torch_gib"]
        else:
            budget_gib = requested - bi["weights_gib"] - bi["non_torch_gib"] - bi["activation_gib"]
        res.checks.append(
            Check("budget from printed parts", printed["budget_gib"], budget_gib, "GiB", 2)
        )
    avail_gib = avail if avail is not None else budget_gib
    if avail_gib is None:
        raise ValueError(f"case {case['id']} has no KV memory input")
    s = _settings(case, available_kv_bytes=int(avail_gib * GiB))
    r = vllm.compute(arch, s) if case["engine"] == "vllm" else sglang.compute(arch, s)
    tokens = r.kv_cache_tokens or 0
    if "blocks" in printed:
        blocks = r.kv_cache_blocks if r.kv_cache_blocks is not None else tokens // s.block_size
        res.checks.append(Check("blocks", printed["blocks"], blocks, "blocks"))
    if "tokens" in printed:
        res.checks.append(Check("tokens", printed["tokens"], tokens, "tokens"))
    if "concurrency" in printed:
        conc = r.max_concurrency if r.max_concurrency is not None else tokens / s.context
        res.checks.append(Check("concurrency", printed["concurrency"], conc, "x", 2))
    if "k_gib" in printed:  # SGLang "K size: ... GB" of the allocated pool
        k_tok = vllm.elem_sums(arch, s.tp)[0] * vllm.kv_dtype_bytes(arch, s.kv_dtype)
        res.checks.append(Check("K size", printed["k_gib"], tokens * k_tok / GiB, "GiB", 2))
    if bi is not None and case["engine"] == "vllm":
        predicted, note = _full_budget(case, arch, bi)
        # Reported, not asserted: uses our activation heuristic and default non-torch memory.
        res.checks.append(Check(FULL_BUDGET, printed["budget_gib"], predicted, "GiB"))
        res.notes.append(note)
    return res


def _full_budget(case: dict[str, Any], arch: Any, bi: dict[str, Any]) -> tuple[float, str]:
    """Budget predicted from the GPU total and flags with our heuristics (reported, not asserted)."""
    s = _settings(case)
    ver = vllm.version_key(s.version)
    act = vllm.activation_bytes(arch, s, ver) / GiB
    weights = bi["weights_gib"]
    budget = bi["total_gib"] * bi["utilization"] - weights - act - vllm.DEFAULT_NON_TORCH / GiB
    printed_act = bi.get("activation_gib")
    if printed_act is None and "peak_torch_gib" in bi:
        printed_act = bi["peak_torch_gib"] - weights
    return budget, (
        f"budget from GPU total and flags with the heuristic activation "
        f"({act:.2f} GiB vs printed {printed_act:.2f}) and 0.5 GiB non-torch: "
        f"{budget:.2f} GiB vs printed {case['printed']['budget_gib']:.2f}"
    )


def all_results() -> list[CaseResult]:
    cases = load_cases()
    return [predict_kv_line(c) for c in cases["kv_lines"]] + [
        predict_paged(c) for c in cases["paged_capacity"]
    ]


def _fmt(x: float, unit: str, decimals: int | None) -> str:
    if unit in ("tokens", "blocks", "cells"):
        return f"{round(x):,} {unit}"
    d = 2 if decimals is None else decimals
    return f"{x:.{d}f} {unit}"


def _err(c: Check) -> str:
    if c.decimals is not None and c.matches_printed_precision:
        return "exact to printed precision"
    if c.printed == 0:
        return "exact" if c.predicted == 0 else "n/a"
    return f"{c.rel_error * 100:+.2f}%"


def table_markdown() -> str:
    """The validation table (case, source, printed, predicted, error) as Markdown."""
    cases = {c["id"]: c for group in load_cases().values() for c in group}
    lines = [
        "| case | source | printed | predicted | error |",
        "| --- | --- | --- | --- | --- |",
    ]
    for res in all_results():
        case = cases[res.case_id]
        src = res.source.replace("https://github.com/", "")
        for c in res.checks:
            lines.append(
                f"| {res.case_id} ({case['engine']}, {c.name}) | [{src}]({res.source}) | "
                f"{_fmt(c.printed, c.unit, c.decimals)} | {_fmt(c.predicted, c.unit, c.decimals)} | "
                f"{_err(c)} |"
            )
    return "\n".join(lines) + "\n"
