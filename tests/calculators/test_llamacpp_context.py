"""llama.cpp's KV cache and compute buffer as its own CI printed them (issue 13: KV exact, compute
buffers within 5%), from the inputs a user has: the model, the build and the command's flags."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from calculators.datafiles import read_data
from calculators.engines import run
from calculators.engines.base import Settings
from calculators.models import ModelArch, arch_from_config

MiB = 1 << 20
CASES: list[dict[str, Any]] = read_data("llamacpp_context.yaml")["cases"]
MODELS: dict[str, Any] = read_data("llamacpp_buffers.yaml")["models"]


def _arch(model: str) -> ModelArch:
    return arch_from_config(MODELS[model]["config"], model_id=model)


def _run(case: dict[str, Any]) -> tuple[float, float]:
    s = Settings(
        engine="llama.cpp",
        version=f"b{case['build']}",
        context=case["n_ctx"],
        n_ubatch=case["n_ubatch"],
        n_batch=max(case["n_ubatch"], 2048),
        flash_attn=case["flash_attn"],
        weights="f16",
    )
    r = run(_arch(case["model"]), s)
    return r.kv_bytes / MiB, r.overhead_bytes / MiB


def test_the_cases_are_real_and_split() -> None:
    assert len(CASES) >= 20
    assert len({c["build"] for c in CASES}) >= 10
    for c in CASES:
        assert c["source"].startswith("https://github.com/ggml-org/ci/blob/"), c["id"]
        assert c["command"] in c["quote"], c["id"]
        for value in c["printed"].values():
            assert f"{value:.2f}" in c["quote"], (c["id"], value)
    halves = {int(hashlib.sha1(c["source"].encode()).hexdigest(), 16) % 2 for c in CASES}
    assert halves == {0, 1}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_kv_cache_is_what_llama_cpp_printed(case: dict[str, Any]) -> None:
    kv, _ = _run(case)
    assert kv == case["printed"]["kv_mib"]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_compute_buffer_within_5_percent(case: dict[str, Any]) -> None:
    _, compute = _run(case)
    printed = case["printed"]["compute_gpu_mib"]
    assert abs(compute - printed) <= 0.05 * printed, (compute, printed)
