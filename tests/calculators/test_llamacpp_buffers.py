"""llama.cpp's model buffers as its own CI printed them, against calculators/gguf.py (issue 13:
llama.cpp model buffers within 5%; they come out exact, to the printed hundredth of a MiB)."""

from __future__ import annotations

from typing import Any

import pytest

from calculators.datafiles import read_data
from calculators.gguf import model_buffers, type_counts
from calculators.models import ModelArch, arch_from_config

DATA: dict[str, Any] = read_data("llamacpp_buffers.yaml")
MiB = 1 << 20


def _arch(model: str) -> ModelArch:
    return arch_from_config(DATA["models"][model]["config"], model_id=model)


def test_every_file_type_and_both_layouts_are_covered() -> None:
    cases = DATA["cases"]
    assert len(cases) >= 15
    assert {c["file_type"] for c in cases} >= {"F16", "Q8_0", "Q4_0", "Q2_K", "Q4_K_M", "Q6_K"}
    assert {DATA["models"][c["model"]]["config"]["model_type"] for c in cases} == {
        "gpt_neox",
        "llama",
    }
    for c in cases:
        assert c["source"].startswith("https://github.com/ggml-org/ci/blob/")
        assert str(c["printed"]["gpu_mib"]) in c["quote"], c["id"]


@pytest.mark.parametrize("case", DATA["cases"], ids=[c["id"] for c in DATA["cases"]])
def test_model_buffers_equal_what_llama_cpp_printed(case: dict[str, Any]) -> None:
    arch = _arch(case["model"])
    gpu, host = model_buffers(arch, case["file_type"], aligned=case["aligned"])
    printed = case["printed"]
    assert type_counts(arch, case["file_type"]) == printed["tensor_types"]
    assert abs(gpu / MiB - printed["gpu_mib"]) < 0.006, (gpu / MiB, printed["gpu_mib"])
    if printed.get("host_mib") is not None:
        assert abs(host / MiB - printed["host_mib"]) < 0.006, (host / MiB, printed["host_mib"])


def test_the_cli_takes_a_mixed_file_type_and_keeps_the_embeddings_off_the_gpu() -> None:
    from click.testing import CliRunner

    from calculators.cli import calc

    base = ["--model", "llama-3.1-8b", "--engine", "llama.cpp", "--vram-gib", "12", "--json"]
    mixed = CliRunner().invoke(calc, [*base, "--weights", "gguf-q4_k_m"])
    assert mixed.exit_code == 0, mixed.output
    uniform = CliRunner().invoke(calc, [*base, "--weights", "gguf-q4_k"])
    import json

    m, u = json.loads(mixed.stdout), json.loads(uniform.stdout)
    # Q4_K_M holds q6_K tensors (more bytes) but leaves the q4_K token embeddings in host memory.
    assert any("stay in host memory" in n for n in m["notes"])
    assert m["weights_bytes"] != u["weights_bytes"]
    moe = CliRunner().invoke(
        calc, ["--model", "qwen3-30b-a3b", "--engine", "llama.cpp", "--weights", "gguf-q4_k_m"]
    )
    assert moe.exit_code == 2 and "dense models only" in moe.output


def test_tied_embeddings_take_the_output_rule_and_a_gpu_copy() -> None:
    # No output.weight: llama-quantize gives token_embd the output's type, and llama.cpp loads
    # a duplicate of it on the GPU for the output layer.
    config = dict(DATA["models"]["open-llama-7b-v2"]["config"], tie_word_embeddings=True)
    tied = arch_from_config(config, model_id="tied")
    untied = _arch("open-llama-7b-v2")
    counts = type_counts(tied, "Q4_K_M")
    assert counts["q6_k"] == type_counts(untied, "Q4_K_M")["q6_k"]  # embd instead of output
    gpu, host = model_buffers(tied, "Q4_K_M")
    embd = 32000 * 4096 // 256 * 210  # q6_K rows of the embedding table
    assert host == embd
    assert gpu - model_buffers(untied, "Q4_K_M")[0] == 0  # the copy replaces output.weight


def test_file_bytes_count_each_tensor_once() -> None:
    from calculators.gguf import file_bytes

    for case in DATA["cases"]:
        arch = _arch(case["model"])
        gpu, host = model_buffers(arch, case["file_type"], aligned=False)
        assert file_bytes(arch, case["file_type"]) == gpu + host  # untied: no GPU copy
    tied = arch_from_config(
        dict(DATA["models"]["open-llama-7b-v2"]["config"], tie_word_embeddings=True), model_id="t"
    )
    gpu, host = model_buffers(tied, "Q4_K_M", aligned=False)
    assert file_bytes(tied, "Q4_K_M") == gpu  # the embeddings once, though loaded twice
