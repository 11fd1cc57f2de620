"""Ollama runs the llama.cpp it vendors: each release gets the cache rules of that code."""

from __future__ import annotations

from dataclasses import replace

import pytest

from calculators.engines import run
from calculators.engines.base import SettingError, Settings
from calculators.engines.llamacpp import era
from calculators.engines.ollama import _era_for
from calculators.models import get_model


@pytest.mark.parametrize(
    ("version", "era"),
    [
        ("0.5.7", "2024"),
        ("0.6.5", "2024"),
        ("0.6.6", "2025-04"),
        ("0.11.4", "2025-04"),
        ("v0.11.5", "b5913"),
        ("0.12.11", "b5913"),
        ("0.13.5", "2025-10"),
        ("0.9.0-rc1", "2025-04"),
    ],
)
def test_each_release_takes_the_rules_of_its_vendored_llama_cpp(version: str, era: str) -> None:
    assert _era_for(version) == era


def test_a_version_that_is_not_one_is_a_setting_error() -> None:
    with pytest.raises(SettingError):
        _era_for("latest")


def test_parallel_sequences_get_their_own_stream_from_0_11_5() -> None:
    # Same cache size, but without flash attention the KQ matrix spans one stream's cells.
    arch = get_model("llama-3.1-8b")
    base = Settings(engine="ollama", context=4096, seqs=4, flash_attn=False, weights="gguf-q4_k_m")
    old = run(arch, replace(base, version="0.11.4"))
    new = run(arch, replace(base, version="0.11.5"))
    assert old.kv_bytes == new.kv_bytes
    assert new.overhead_bytes < old.overhead_bytes


@pytest.mark.parametrize(
    ("build", "key"),
    [
        ("b4067", "2024"),
        ("b4779", "2024"),
        ("b4840", "2025-04"),
        ("b5359", "2025-04"),
        ("b5505", "2025-05"),
        ("b5913", "b5913"),
        ("b6343", "b6343"),
    ],
)
def test_a_llama_cpp_build_takes_the_rules_of_its_era(build: str, key: str) -> None:
    # b4779 and b5359 are the builds Ollama 0.6.0 and 0.7.0 vendor (their code read there).
    assert era(build).key == key
