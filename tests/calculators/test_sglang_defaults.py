"""SGLang's own default --mem-fraction-static, release by release, as its ServerArgs computes it
(calculators/engines/sglang.py; read in the released wheels)."""

from __future__ import annotations

import pytest

from calculators.engines import run
from calculators.engines.base import SettingError, Settings
from calculators.engines.sglang import default_mem_fraction, piecewise_sizes, release
from calculators.models import get_model

H100, L4_4090, MI300X = 81559, 24564, 196592


@pytest.mark.parametrize(
    ("version", "device", "tp", "expected"),
    [
        # 0.5.2: reserved 9.5 + tp/2 GiB under 90 GiB.
        ("0.5.2", H100, 1, round((H100 - 10 * 1024) / H100, 3)),
        # 0.5.3+: 512 + 1.5 x 8192 + 2 x 256 + 128 MiB = 13,440 MiB on an H100.
        ("0.5.7", H100, 1, round((H100 - 13440) / H100, 3)),
        # 0.5.10+: piecewise CUDA graphs add 8 MiB for each of 58 sizes up to 8,192 tokens.
        ("0.5.13", H100, 1, round((H100 - 13440 - 58 * 8) / H100, 3)),
        # 24 GB cards: 24 graph sizes from 0.5.5, 16 before.
        ("0.5.4", L4_4090, 1, round((L4_4090 - (512 + 3072 + 32 + 128)) / L4_4090, 3)),
        ("0.5.5", L4_4090, 1, round((L4_4090 - (512 + 3072 + 48 + 128)) / L4_4090, 3)),
        # Above 160 GiB: 16,384-token chunks and 512 graphs.
        ("0.5.7", MI300X, 1, round((MI300X - (512 + 24576 + 1024 + 128)) / MI300X, 3)),
    ],
)
def test_default_fraction_by_release(version: str, device: int, tp: int, expected: float) -> None:
    assert default_mem_fraction(tp, device, version) == expected


def test_piecewise_sizes_and_releases() -> None:
    assert piecewise_sizes(8192) == 58 and piecewise_sizes(2048) == 42
    assert release("v0.5.10.post1") == (0, 5, 10) and release("0.5") == (0, 5, 0)
    with pytest.raises(SettingError):
        release("latest")


def test_amd_aiter_cuts_the_fraction_for_long_context_models() -> None:
    # Qwen3-0.6B (40,960 tokens of context) on an MI300X: the aiter backend's 0.85 from 0.5.5.
    arch = get_model("qwen3-0.6b")
    base = dict(engine="sglang", context=4096, weights="bf16", vram_bytes=MI300X << 20)
    amd = run(arch, Settings(gpu_name="AMD Instinct MI300X", version="0.5.7", **base))  # type: ignore[arg-type]
    nv = run(arch, Settings(gpu_name="NVIDIA H200", version="0.5.7", **base))  # type: ignore[arg-type]
    old = run(arch, Settings(gpu_name="AMD Instinct MI300X", version="0.5.4", **base))  # type: ignore[arg-type]
    assert amd.kv_cache_tokens is not None and nv.kv_cache_tokens is not None
    assert amd.kv_cache_tokens < 0.9 * nv.kv_cache_tokens
    assert old.kv_cache_tokens is not None and old.kv_cache_tokens > amd.kv_cache_tokens


def test_a_release_after_the_newest_read_says_so() -> None:
    arch = get_model("qwen3-8b")
    base = dict(engine="sglang", context=4096, weights="bf16", vram_bytes=H100 << 20)
    newer = run(arch, Settings(version="0.5.23", **base))  # type: ignore[arg-type]
    read = run(arch, Settings(version="0.5.13", **base))  # type: ignore[arg-type]
    assert any("newest read" in n for n in newer.notes)
    assert not any("newest read" in n for n in read.notes)
    assert newer.kv_cache_tokens == read.kv_cache_tokens


@pytest.mark.parametrize(
    ("version", "device", "chunk", "graphs", "reserved"),
    [
        # A given --chunked-prefill-size replaces the device's 8,192 in the activation term
        # (512 + 1.5 x 4,096 + 2 x 256 + 128 = 7,296 MiB, raised to the 10 GiB floor over
        # 60 GiB), and from 0.5.10 the piecewise graphs stop at it (50 sizes up to 4,096).
        ("0.5.7", H100, 4096, None, 10 * 1024),
        ("0.5.13", H100, 4096, None, 10 * 1024 + 50 * 8),
        # Chunked prefill off: --max-prefill-tokens (16,384) takes its place; no piecewise graphs.
        ("0.5.7", H100, -1, None, 512 + 16384 * 1.5 + 512 + 128),
        ("0.5.13", H100, -1, None, 512 + 16384 * 1.5 + 512 + 128),
        # A given --cuda-graph-max-bs replaces the device's 24 on a 24 GB card.
        ("0.5.7", L4_4090, None, 8, 512 + 3072 + 16 + 128),
    ],
)
def test_given_chunk_and_graph_sizes_set_the_default_fraction(
    version: str, device: int, chunk: int | None, graphs: int | None, reserved: float
) -> None:
    # ServerArgs._handle_gpu_memory_settings fills only what the user left None (0.5.10 read).
    got = default_mem_fraction(1, device, version, chunk=chunk, graphs=graphs)
    assert got == round((device - reserved) / device, 3)
    assert got != default_mem_fraction(1, device, version)


def test_given_sizes_change_nothing_where_the_fraction_is_not_derived_from_them() -> None:
    arch = get_model("qwen3-8b")
    base = dict(engine="sglang", context=4096, weights="bf16", vram_bytes=H100 << 20)
    for extra in ({"mem_fraction_static": 0.85}, {"version": "0.5.2"}):
        plain = run(arch, Settings(**base, **extra))  # type: ignore[arg-type]
        given = run(arch, Settings(chunked_prefill_size=4096, **base, **extra))  # type: ignore[arg-type]
        assert given.kv_cache_tokens == plain.kv_cache_tokens
        assert any("--chunked-prefill-size changes SGLang's pool only" in n for n in given.notes)
