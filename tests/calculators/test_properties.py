"""Properties of the KV and weight model that must hold for any setting."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import arch_from_config, estimate, get_model, load_catalog, weights_bytes
from calculators.dtypes import GGML_TYPES
from calculators.engines import llamacpp, run
from calculators.engines.base import Settings

CATALOG = sorted(load_catalog())

BASE = {
    "model_type": "llama",
    "num_hidden_layers": 32,
    "hidden_size": 4096,
    "num_attention_heads": 32,
    "intermediate_size": 14336,
    "vocab_size": 128256,
}


@given(kv=st.sampled_from([1, 2, 4, 8, 16, 32]), ctx=st.integers(1, 200_000))
def test_gqa_below_mha_by_the_head_ratio(kv: int, ctx: int) -> None:
    mha = arch_from_config(BASE)
    gqa = arch_from_config({**BASE, "num_key_value_heads": kv})
    for engine in ("vllm", "sglang"):
        a = estimate(mha, engine=engine, context=ctx, solve_limits=False)
        b = estimate(gqa, engine=engine, context=ctx, solve_limits=False)
        assert a.kv_bytes_per_token == b.kv_bytes_per_token * (32 // kv)
    a = estimate(mha, engine="llama.cpp", context=ctx, solve_limits=False, flash_attn=True)
    b = estimate(gqa, engine="llama.cpp", context=ctx, solve_limits=False, flash_attn=True)
    assert a.kv_bytes == b.kv_bytes * (32 // kv)


@given(model=st.sampled_from(CATALOG), ctx=st.integers(1, 300_000))
def test_fp8_halves_fp16(model: str, ctx: int) -> None:
    arch = get_model(model)
    for engine in ("vllm", "sglang"):
        f16 = estimate(arch, engine=engine, context=ctx, kv_dtype="fp16", solve_limits=False)
        f8 = estimate(arch, engine=engine, context=ctx, kv_dtype="fp8", solve_limits=False)
        assert f16.kv_bytes_per_token == 2 * f8.kv_bytes_per_token
        assert f16.kv_bytes == 2 * f8.kv_bytes


@given(model=st.sampled_from(CATALOG), ctx=st.integers(1, 100_000))
def test_q8_0_is_34_over_32_bytes_per_element_for_k_and_v(model: str, ctx: int) -> None:
    arch = get_model(model)
    f16 = estimate(arch, engine="llama.cpp", context=ctx, flash_attn=True, solve_limits=False)
    q8 = estimate(
        arch,
        engine="llama.cpp",
        context=ctx,
        flash_attn=True,
        cache_type_k="q8_0",
        cache_type_v="q8_0",
        solve_limits=False,
    )
    # f16 is 2 bytes per element; q8_0 is 34 bytes per 32 elements.
    assert Fraction(q8.k_bytes, f16.k_bytes) == Fraction(34, 64)
    assert Fraction(q8.v_bytes, f16.v_bytes) == Fraction(34, 64)
    assert Fraction(q8.kv_bytes_per_token, f16.kv_bytes_per_token) == Fraction(34, 64)


def test_block_types_have_ggml_sizes() -> None:
    sizes = {name: (t.block_size, t.type_size) for name, t in GGML_TYPES.items()}
    assert sizes["q8_0"] == (32, 34)
    assert sizes["q4_0"] == (32, 18)
    assert sizes["q4_1"] == (32, 20)
    assert sizes["q5_0"] == (32, 22)
    assert sizes["q5_1"] == (32, 24)
    assert sizes["iq4_nl"] == (32, 18)


@settings(max_examples=60)
@given(
    model=st.sampled_from(CATALOG),
    era=st.sampled_from(sorted(llamacpp.ERAS)),
    ctx=st.integers(1, 100_000),
    step=st.integers(1, 50_000),
    seqs=st.integers(1, 8),
    fa=st.booleans(),
    ctk=st.sampled_from(["f16", "q8_0", "q4_0"]),
)
def test_adding_context_never_decreases_kv_bytes(
    model: str, era: str, ctx: int, step: int, seqs: int, fa: bool, ctk: str
) -> None:
    arch = get_model(model)
    s = Settings(
        engine="llama.cpp",
        version=era,
        context=ctx,
        seqs=seqs,
        flash_attn=fa,
        cache_type_k=ctk,
        cache_type_v="f16",
    )
    a = run(arch, s)
    b = run(arch, replace(s, context=ctx + step))
    assert b.kv_bytes >= a.kv_bytes
    for engine in ("vllm", "sglang"):
        p = Settings(engine=engine, context=ctx, seqs=seqs)
        assert run(arch, replace(p, context=ctx + step)).kv_bytes >= run(arch, p).kv_bytes


def test_swa_cache_is_smaller_than_full_and_capped_by_window() -> None:
    arch = get_model("gemma-2-9b")
    full = estimate(
        arch, engine="llama.cpp", context=32768, flash_attn=True, swa_full=True, solve_limits=False
    )
    swa = estimate(arch, engine="llama.cpp", context=32768, flash_attn=True, solve_limits=False)
    assert swa.kv_bytes < full.kv_bytes
    assert swa.cells_swa is not None and swa.cells is not None
    assert swa.cells_swa < swa.cells
    # Old llama.cpp (before PR #13194) allocated every layer at full size.
    old = estimate(
        arch, engine="llama.cpp", version="2024", context=32768, flash_attn=True, solve_limits=False
    )
    assert old.kv_bytes == full.kv_bytes


def test_mistral_v01_window_is_not_an_iswa_cache_in_llama_cpp() -> None:
    arch = get_model("mistral-7b-v0.1")
    e = estimate(arch, engine="llama.cpp", context=32768, flash_attn=True, solve_limits=False)
    assert e.cells_swa is None
    assert e.kv_bytes == 32768 * 32 * 2 * 1024 * 2


def test_mla_latent_per_token() -> None:
    arch = get_model("deepseek-v3")
    v = estimate(arch, engine="vllm", context=1, solve_limits=False)
    assert v.kv_bytes_per_token == 61 * (512 + 64) * 2
    new = estimate(arch, engine="llama.cpp", context=1, solve_limits=False, flash_attn=True)
    assert new.kv_bytes_per_token == 61 * (576 + 512) * 2
    old = estimate(
        arch, engine="llama.cpp", version="2024", context=1, solve_limits=False, flash_attn=True
    )
    assert old.kv_bytes_per_token == 61 * (128 * 192 + 128 * 128) * 2


@pytest.mark.parametrize("tp,heads", [(1, 8), (2, 4), (4, 2), (8, 1), (16, 1)])
def test_tp_splits_kv_heads_and_replicates_beyond_them(tp: int, heads: int) -> None:
    arch = get_model("llama-3.1-70b")
    e = estimate(arch, engine="vllm", context=1, tp=tp, solve_limits=False)
    assert e.kv_bytes_per_token == 80 * 2 * heads * 128 * 2


def test_recurrent_layers_hold_state_not_kv() -> None:
    cfg = {
        **BASE,
        "num_key_value_heads": 8,
        "num_hidden_layers": 8,
        "layer_types": ["linear_attention"] * 6 + ["full_attention"] * 2,
        "linear_num_key_heads": 16,
        "linear_num_value_heads": 32,
        "linear_key_head_dim": 128,
        "linear_value_head_dim": 128,
        "linear_conv_kernel_dim": 4,
    }
    arch = arch_from_config(cfg)
    a = estimate(arch, engine="llama.cpp", context=1000, flash_attn=True, solve_limits=False)
    b = estimate(arch, engine="llama.cpp", context=9000, flash_attn=True, solve_limits=False)
    assert a.kv_bytes_per_token == 2 * 8 * 128 * 2 * 2  # only the two attention layers
    assert a.state_bytes == b.state_bytes > 0


def test_kv_sharing_layers_store_nothing() -> None:
    plain = arch_from_config({**BASE, "num_key_value_heads": 8})
    shared = arch_from_config({**BASE, "num_key_value_heads": 8, "num_kv_shared_layers": 12})
    a = estimate(plain, engine="vllm", context=1, solve_limits=False)
    b = estimate(shared, engine="vllm", context=1, solve_limits=False)
    assert b.kv_bytes_per_token * 32 == a.kv_bytes_per_token * 20


def test_weights_formats() -> None:
    arch = get_model("llama-3.1-8b")
    bf16 = weights_bytes(arch, "bf16")
    assert bf16 == 2 * arch.params
    assert weights_bytes(arch, "fp8") < bf16 // 2 + arch.vocab_size * arch.hidden_size * 4
    assert weights_bytes(arch, "gguf-q8_0") == arch.params * 34 // 32
    assert weights_bytes(arch, "gguf-q4_0") == arch.params * 18 // 32
    assert weights_bytes(arch, "awq") < weights_bytes(arch, "fp8")
    assert weights_bytes(arch, "bf16", tp=2) == bf16 // 2


def test_moe_counts_every_expert() -> None:
    mixtral = get_model("mixtral-8x7b")
    dense_equiv = arch_from_config(
        {
            "model_type": "mistral",
            "num_hidden_layers": 32,
            "hidden_size": 4096,
            "num_attention_heads": 32,
            "num_key_value_heads": 8,
            "intermediate_size": 14336,
            "vocab_size": 32000,
        }
    )
    expert_params = 3 * 4096 * 14336 * 32
    assert mixtral.params - dense_equiv.params == pytest.approx(7 * expert_params, rel=0.001)


def test_fits_and_max_context_never_contradict_on_the_fit_grid() -> None:
    """Every cell the site shows: "fits at N tokens" holds exactly when the longest context
    that fits is at least N (beyond the model's own context length, neither is claimed)."""
    from calculators.grid import CONTEXTS, fit_grid

    checked = 0
    for cell in fit_grid():
        if cell.error:
            continue
        for context, fits in zip(CONTEXTS, cell.fits, strict=False):
            if fits is None:
                continue
            assert fits == ((cell.max_context or 0) >= context), (cell, context)
            checked += 1
    assert checked > 10_000


def test_a_context_beyond_the_model_does_not_fit() -> None:
    from calculators import estimate, get_model

    arch = get_model("llama-2-7b")
    assert arch.max_position_embeddings is not None
    over = estimate(arch, engine="vllm", context=arch.max_position_embeddings * 2, gpu="h100-80gb")
    assert over.fits is False and over.max_context is not None
    assert over.max_context <= arch.max_position_embeddings
    assert any("beyond the model's context length" in n for n in over.notes)


def test_sampler_default_follows_the_release() -> None:
    # topk_topp_sampler.py: FlashInfer's sampler opt-in from 0.11.1, a Triton kernel for rows
    # of 8 or more from 0.17; Model Runner V2 (dense models from 0.25) skips top-k/top-p.
    from calculators.engines.base import Settings
    from calculators.engines.vllm import sampler_of

    dense, moe = get_model("qwen3-8b"), get_model("qwen3-30b-a3b")

    def pick(version: str | None, sampler: str = "auto", max_num_seqs: int | None = None) -> str:
        s = Settings(engine="vllm", version=version, sampler=sampler, max_num_seqs=max_num_seqs)
        return sampler_of(s, dense)

    assert pick("0.10.1.1") == "flashinfer"
    assert pick("0.11.0") == "flashinfer"
    assert pick("0.11.1") == "native"
    assert pick("0.16.0") == "native"
    assert pick("0.19.0") == "triton"
    assert pick("0.19.0", max_num_seqs=4) == "native"  # fewer than 8 rows: the sort path
    assert pick("0.25.0") == "none"
    assert sampler_of(Settings(engine="vllm", version="0.25.0"), moe) == "triton"
    assert pick("v1") == "flashinfer"  # the site's tables: the 0.10/0.11 reading
    assert pick("0.19.0", "flashinfer") == "flashinfer"


def test_release_defaults_utilisation_and_graph_note() -> None:
    from calculators.engines.base import Settings
    from calculators.engines.vllm import cuda_graphs_subtracted, default_utilization

    assert default_utilization(Settings(engine="vllm", version="0.19.1")) == 0.9
    assert default_utilization(Settings(engine="vllm", version="0.20.0")) == 0.92
    dense, moe = get_model("qwen3-8b"), get_model("qwen3-30b-a3b")
    assert not cuda_graphs_subtracted(moe, Settings(engine="vllm", version="0.19.1"))
    assert cuda_graphs_subtracted(moe, Settings(engine="vllm", version="0.20.0"))
    assert not cuda_graphs_subtracted(dense, Settings(engine="vllm", version="0.27.1"))
    assert cuda_graphs_subtracted(dense, Settings(engine="vllm", version="0.29.0"))
    eager = Settings(engine="vllm", version="0.29.0", enforce_eager=True)
    assert not cuda_graphs_subtracted(dense, eager)


def test_native_sampler_holds_38_bytes_per_logit_at_the_sort() -> None:
    from calculators.engines.base import Settings
    from calculators.engines.vllm import activation_bytes
    from calculators.models import get_model

    arch = get_model("qwen3-0.6b")
    s = Settings(engine="vllm", version="0.11.1", vram_bytes=80 << 30, gpu_name="H100")
    tokens, rows = 8192, 1024
    want = rows * arch.vocab_size * 38 + tokens * arch.hidden_size * 2
    assert activation_bytes(arch, s, "v1") == want


@settings(max_examples=200, deadline=None)
@given(
    model=st.sampled_from(CATALOG),
    engine=st.sampled_from(["vllm", "sglang"]),
    version=st.sampled_from([None, "v0", "0.9.2", "0.10.1", "0.11.0", "0.17.0", "0.25.0", "0.30"]),
    gib=st.sampled_from([16, 24, 48, 80, 141]),
    tp=st.sampled_from([1, 2]),
    contexts=st.lists(st.integers(1, 300_000), min_size=2, max_size=4),
)
def test_a_pool_said_not_to_vary_with_context_does_not(
    model: str, engine: str, version: str | None, gib: int, tp: int, contexts: list[int]
) -> None:
    """The fit grid runs vLLM and SGLang once per GPU and model where `POOL_VARIES` says the
    pool does not depend on the context, and derives the other contexts from that run."""
    from calculators.engines.base import SettingError
    from calculators.engines.registry import POOL_VARIES

    arch = get_model(model)
    s = Settings(
        engine=engine,
        version=None if engine == "sglang" else version,
        vram_bytes=gib << 30,
        tp=tp,
        gpu_name="NVIDIA H100 80GB HBM3" if gib == 80 else None,
    )
    if POOL_VARIES[engine](arch, s):
        return
    try:
        pools = {
            (r.kv_cache_tokens, r.max_concurrency, r.kv_budget_bytes)
            for r in (run(arch, replace(s, context=c)) for c in contexts)
        }
    except SettingError:
        return
    assert len(pools) == 1


def test_v2_sampler_state_is_charged_from_0_27_on_model_runner_v2_only() -> None:
    # sample/penalties.py (0.24 to 0.33) holds int32 counts per request slot and token; the
    # profiler charges tensors allocated after the weights only from 0.27 (mem_utils.py).
    from calculators.engines import run
    from calculators.engines.base import Settings
    from calculators.engines.vllm import FULL_GRAPHS_EXTRA, V1_NON_TORCH, v2_sampler_state_bytes
    from calculators.models import ModelArch

    dense, moe = get_model("qwen3-8b"), get_model("qwen3-30b-a3b")
    per_slot = (dense.vocab_size + -(-dense.vocab_size // 32)) * 4

    def state(arch: ModelArch, version: str) -> int:
        return v2_sampler_state_bytes(arch, Settings(engine="vllm", version=version), 256)

    assert state(dense, "0.26.0") == 0  # V2 ran it, but weights + peak + non-torch missed it
    assert state(dense, "0.27.1") == 256 * per_slot
    assert state(moe, "0.28.0") == 0  # MoE stays on the V1 runner until 0.29
    assert state(moe, "0.29.0") == 256 * (moe.vocab_size + -(-moe.vocab_size // 32)) * 4
    assert state(dense, "v1") == 0

    def budget(version: str, **kw: object) -> int:
        s = Settings(engine="vllm", version=version, vram_bytes=44 << 30, context=4096, **kw)  # type: ignore[arg-type]
        r = run(dense, s)
        assert r.kv_budget_bytes is not None
        return r.kv_budget_bytes

    # A non-torch figure read from a log replaces the modelled non-torch, the state and the
    # full-graph residual alike.
    with_state = budget("0.28.0")
    given = budget("0.28.0", non_torch_bytes=0)
    assert given - with_state == V1_NON_TORCH[1] + 256 * per_slot + FULL_GRAPHS_EXTRA


def test_full_graph_residual_from_0_11_and_never_eager() -> None:
    # 0.11 made FULL_AND_PIECEWISE V1's default (0.10.1.1: PIECEWISE); the residual is counted
    # from then on, never with --enforce-eager, never for a release label without a number.
    from calculators.engines import run
    from calculators.engines.base import Settings
    from calculators.engines.vllm import FULL_GRAPHS_EXTRA

    arch = get_model("llama-3.1-8b")

    def budget(version: str, eager: bool = False) -> int:
        s = Settings(
            engine="vllm", version=version, vram_bytes=40 << 30, context=4096, enforce_eager=eager
        )
        r = run(arch, s)
        assert r.kv_budget_bytes is not None
        return r.kv_budget_bytes

    assert budget("0.10.1.1") - budget("0.11.0") == FULL_GRAPHS_EXTRA
    assert budget("0.11.0", eager=True) - budget("0.11.0") == FULL_GRAPHS_EXTRA
    assert budget("0.10.1.1", eager=True) == budget("0.10.1.1")
    assert budget("v1") - budget("0.11.0") == FULL_GRAPHS_EXTRA
