"""Ollama's own estimate (the "offload to ..." log line), predicted from what a user knows before
starting (calculators/engines/ollama_estimate.py), against the lines users' logs printed."""

from __future__ import annotations

import re
from typing import Any

import pytest

from calculators.engines import run
from calculators.engines.base import Settings
from calculators.engines.ollama_estimate import covers, ollama_estimate
from calculators.models import get_model
from calculators.ollama_check import (
    FIELDS,
    figures,
    human_bytes,
    load_cases,
    outcomes,
    parse_bytes,
    predict_case,
    table_markdown,
)

CASES: list[dict[str, Any]] = list(load_cases())


def test_the_cases_are_real_and_quoted() -> None:
    assert len(CASES) >= 3
    for c in CASES:
        assert re.fullmatch(r"https://github\.com/[^/]+/[^/]+/blob/[0-9a-f]{40}/.+", c["source"])
        for name, value in c["printed"].items():
            assert f'{FIELDS[name]}="{value}"' in c["quote"], (c["id"], name)
        ctx = int(c["inputs"]["num_ctx"]) * int(c["inputs"].get("parallel", 1))
        assert f"--ctx-size {ctx} " in c["quote"], c["id"]
        assert covers(str(c["inputs"]["version"])), c["id"]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_every_figure_as_ollama_printed_it(case: dict[str, Any]) -> None:
    ours = {k: human_bytes(v) for k, v in figures(predict_case(case)).items()}
    assert {k: ours[k] for k in case["printed"]} == case["printed"]


def test_human_bytes_is_ollamas_format() -> None:
    assert human_bytes(560 * (1 << 20)) == "560.0 MiB"
    assert human_bytes(int(6.46 * (1 << 30))) == "6.5 GiB"
    assert human_bytes(0) == "0 B"
    assert parse_bytes("411.0 MiB") == 411 * (1 << 20)


def test_metal_has_no_partial_graph_and_a_quantised_cache_halves_the_kv() -> None:
    arch = get_model("llama-3.1-8b")
    cuda = ollama_estimate(arch, "Q4_K_M", num_ctx=8192)
    metal = ollama_estimate(arch, "Q4_K_M", num_ctx=8192, library="metal")
    q8 = ollama_estimate(arch, "Q4_K_M", num_ctx=8192, kv_cache_type="q8_0")
    assert metal.graph_partial == metal.graph_full and cuda.graph_partial > cuda.graph_full
    assert q8.kv_bytes * 2 == cuda.kv_bytes
    assert ollama_estimate(arch, "Q4_K_M", num_ctx=2048, parallel=4).context == 8192
    # Every layer goes to the GPU only with room for the larger graph as well.
    assert cuda.free_needed == cuda.required_full - cuda.graph_full + cuda.graph_partial


def test_errkb_calc_states_ollamas_estimate_for_the_releases_that_use_it() -> None:
    arch = get_model("llama-3.1-8b")
    s = dict(engine="ollama", context=2048, seqs=4, weights="gguf-q4_k_m", flash_attn=False)
    old = run(arch, Settings(version="0.5.4", **s))  # type: ignore[arg-type]
    assert any("memory.required.full) is 6.5 GiB" in n for n in old.notes)
    new = run(arch, Settings(version="0.13.0", **s))  # type: ignore[arg-type]
    assert not any("own estimate" in n for n in new.notes)
    assert any("memory layouts it measures" in n for n in new.notes)


def test_the_table_reports_the_holdout(capsys: pytest.CaptureFixture[str]) -> None:
    table = table_markdown()
    print(table)
    assert "**holdout**" in table
    assert all(o.as_printed(f) for o in outcomes() for f in o.printed)
