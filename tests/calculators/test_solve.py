"""Solvers against the model they solve, at boundaries that must flip."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import get_model, load_catalog, max_concurrency, max_context
from calculators.engines import run
from calculators.engines.base import GiB, SettingError, Settings
from calculators.solve import fits, total_fn


@pytest.mark.parametrize("engine", ["llama.cpp", "ollama"])
@pytest.mark.parametrize("model", ["llama-3.1-8b", "gemma-2-9b", "qwen3-14b"])
def test_max_context_is_the_boundary(engine: str, model: str) -> None:
    arch = get_model(model)
    s = Settings(engine=engine, weights="gguf-q4_k", vram_bytes=int(12 * GiB), flash_attn=True)
    best = max_context(
        arch, engine=engine, weights="gguf-q4_k", vram_bytes=int(12 * GiB), flash_attn=True
    )
    assert best is not None and best > 0
    assert fits(arch, replace(s, context=best))
    if best < (arch.max_position_embeddings or 0):
        assert not fits(arch, replace(s, context=best + 1))


def test_max_concurrency_is_the_boundary() -> None:
    arch = get_model("llama-3.1-8b")
    s = Settings(
        engine="llama.cpp",
        context=8192,
        weights="gguf-q4_k",
        vram_bytes=int(24 * GiB),
        flash_attn=True,
    )
    n = max_concurrency(
        arch,
        engine="llama.cpp",
        context=8192,
        weights="gguf-q4_k",
        vram_bytes=int(24 * GiB),
        flash_attn=True,
    )
    assert n is not None and n >= 1
    assert fits(arch, replace(s, seqs=int(n)))
    assert not fits(arch, replace(s, seqs=int(n) + 1))


def test_vllm_v0_memory_is_not_monotonic_in_context() -> None:
    """V0 turns chunked prefill on above 32768 tokens, shrinking the profiled activation."""
    arch = get_model("llama-3.1-8b")
    kw: dict[str, Any] = {
        "engine": "vllm",
        "version": "v0",
        "vram_bytes": int(23.58 * GiB),
        "gpu_memory_utilization": 0.9,
    }
    at_29k = fits(arch, Settings(context=29000, **kw))
    at_35k = fits(arch, Settings(context=35000, **kw))
    assert at_29k is False and at_35k is True  # what vLLM issue #10517 reports
    best = max_context(arch, **kw)
    assert best is not None and best > 32768
    assert fits(arch, Settings(context=best, **kw))


def test_unknown_memory_gives_none() -> None:
    arch = get_model("llama-3.1-8b")
    assert max_context(arch, engine="llama.cpp") is None
    assert max_concurrency(arch, engine="vllm") is None


def test_vllm_hybrid_manager_counts_sliding_layers_by_window() -> None:
    """vLLM 0.10+ charges sliding-window layers window + batch tokens per request."""
    arch = get_model("gpt-oss-20b")
    kw: dict[str, Any] = {
        "engine": "vllm",
        "context": 16384,
        "vram_bytes": 16 * GiB,
        "weights_bytes": 13 * GiB,
        "max_num_batched_tokens": 2048,
        # 0.9/0.10 warm the sampler up on max_num_seqs requests; the default 256 x 201k
        # logits would leave a 16 GiB card no KV room, as it does in real logs.
        "max_num_seqs": 16,
    }
    old = max_concurrency(arch, **kw, version="0.9.2")
    new = max_concurrency(arch, **kw, version="0.10.1")
    assert old is not None and new is not None
    assert new > 1.5 * old  # 12 of 24 layers hold ~2.2k tokens instead of 16k
    best = max_context(arch, **kw, version="0.10.1")
    assert best is not None and 16384 < best < 131072
    assert fits(arch, Settings(**{**kw, "context": best}, version="0.10.1"))
    assert not fits(arch, Settings(**{**kw, "context": best + 64}, version="0.10.1"))


# The solvers search `total_fn`; `fits` and the figures printed come from `compute`. A
# difference between the two (GGUF file types once counted the host-side token embeddings in
# one and not the other) makes "fits" and "max context" disagree.
@settings(max_examples=150, deadline=None)
@given(
    model=st.sampled_from(sorted(load_catalog())),
    engine=st.sampled_from(["llama.cpp", "ollama"]),
    weights=st.sampled_from(["gguf-q4_k", "gguf-q4_k_m", "gguf-q5_k_m", "gguf-q8_0", "bf16"]),
    version=st.sampled_from([None, "2024", "2025-05", "b5913", "2025-10"]),
    cache=st.sampled_from([("f16", "f16", None), ("q8_0", "q8_0", True), ("f16", "f16", False)]),
    ngl=st.one_of(st.none(), st.integers(0, 100)),
    context=st.integers(1, 140_000),
    seqs=st.integers(1, 8),
)
def test_the_solvers_total_is_the_engines_total(
    model: str,
    engine: str,
    weights: str,
    version: str | None,
    cache: tuple[str, str, bool | None],
    ngl: int | None,
    context: int,
    seqs: int,
) -> None:
    arch = get_model(model)
    k, v, fa = cache
    s = Settings(
        engine=engine,
        weights=weights,
        version=(version or "0.5.7") if engine == "ollama" else version,
        cache_type_k=k,
        cache_type_v=v,
        flash_attn=fa,
        n_gpu_layers=ngl,
        vram_bytes=int(24 * GiB),
    )
    try:
        expected = run(arch, replace(s, context=context, seqs=seqs)).total_bytes
    except SettingError:
        return  # e.g. a GGUF file type for a MoE model: refused by both
    assert total_fn(arch, s)(context, seqs) == expected
