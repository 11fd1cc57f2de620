"""``errkb calc`` through click's test runner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from calculators.cli import calc

FIELDS = {
    "kv_bytes_per_token",
    "kv_bytes",
    "k_bytes",
    "v_bytes",
    "weights_bytes",
    "kv_budget_bytes",
    "kv_cache_tokens",
    "max_context",
    "max_concurrency",
    "fits",
    "engine_version",
}


def run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(calc, list(args))
    return res.exit_code, res.stdout, res.stderr


def test_json_has_the_promised_fields() -> None:
    code, out, _ = run(
        "--model",
        "llama-3.1-8b",
        "--engine",
        "vllm",
        "--gpu",
        "h100-80gb",
        "--context",
        "32768",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert set(data) >= FIELDS
    assert data["kv_bytes_per_token"] == 32 * 2 * 8 * 128 * 2
    assert data["fits"] is True and data["kv_cache_tokens"] > 32768


def test_llama_cpp_quantised_cache() -> None:
    code, out, _ = run(
        "--model",
        "qwen2.5-32b",
        "--engine",
        "llama.cpp",
        "--engine-version",
        "2024",
        "--context",
        "32768",
        "--cache-type-k",
        "q8_0",
        "--cache-type-v",
        "q8_0",
        "--flash-attn",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["k_bytes"] == data["v_bytes"] == 2176 * 1024 * 1024  # llama.cpp issue #11200


def test_config_path_with_nested_text_config(tmp_path: Path) -> None:
    cfg = {
        "model_type": "llava",
        "text_config": {
            "num_hidden_layers": 32,
            "hidden_size": 4096,
            "num_attention_heads": 32,
            "num_key_value_heads": 8,
            "intermediate_size": 14336,
            "vocab_size": 32000,
        },
    }
    p = tmp_path / "config.json"
    p.write_text(json.dumps(cfg))
    code, out, _ = run("--config", str(p), "--json")
    assert code == 0
    assert json.loads(out)["kv_bytes_per_token"] == 131072


@pytest.mark.parametrize(
    "args",
    [
        ("--model", "no-such-model"),
        ("--model", "llama-3.1-8b", "--gpu", "no-such-gpu"),
        ("--model", "llama-3.1-8b", "--engine", "vllm", "--tp", "3"),
        ("--model", "llama-3.1-8b", "--cache-type-v", "q4_0", "--no-flash-attn"),
        ("--model", "llama-3.1-8b", "--context", "0"),
        ("--model", "llama-3.1-8b", "--engine", "tgi"),
        ("--model", "llama-3.1-8b", "--gpu-memory-utilization", "1.5"),
        ("--model", "llama-3.1-8b", "--engine-version", "zzz"),
        ("--model", "llama-3.1-8b", "--config", "x.json"),
        (),
    ],
)
def test_errors_are_one_line_exit_2(args: tuple[str, ...]) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert "Traceback" not in err


def test_bad_config_file(tmp_path: Path) -> None:
    bad = tmp_path / "config.json"
    bad.write_text("{not json")
    code, _, err = run("--config", str(bad))
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1
    bad.write_text(json.dumps({"hidden_size": 10}))
    code, _, err = run("--config", str(bad))
    assert code == 2 and "bad config" in err


def test_human_output() -> None:
    code, out, _ = run(
        "--model", "gemma-2-9b", "--gpu", "rtx-4090", "--weights", "gguf-q4_k", "--flash-attn"
    )
    assert code == 0
    assert "max context" in out and "fits" in out


LLAMA_8B = {  # meta-llama/Llama-3.1-8B config.json, the fields the calculator reads
    "model_type": "llama",
    "num_hidden_layers": 32,
    "hidden_size": 4096,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "intermediate_size": 14336,
    "vocab_size": 128256,
    "max_position_embeddings": 131072,
}


@pytest.mark.parametrize(
    ("drop", "add", "named"),
    [
        ("intermediate_size", {}, "intermediate_size"),
        ("vocab_size", {}, "vocab_size"),
        (None, {"model_type": "qwen3_moe", "num_experts": 128}, "moe_intermediate_size"),
    ],
)
def test_an_incomplete_config_names_the_missing_field(
    tmp_path: Path, drop: str | None, add: dict[str, object], named: str
) -> None:
    """No silent guess: weights 10x off from a missing MLP width once passed without a word."""
    config = {k: v for k, v in LLAMA_8B.items() if k != drop} | add
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    code, out, err = run("--config", str(path), "--gpu", "rtx-4090")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and named in err, err


def test_a_conventional_default_is_said_not_hidden(tmp_path: Path) -> None:
    config = {
        "model_type": "gpt2",
        "n_layer": 12,
        "n_embd": 768,
        "n_head": 12,
        "n_inner": None,
        "vocab_size": 50257,
        "n_positions": 1024,
    }
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    code, out, _ = run("--config", str(path), "--gpu", "rtx-4090", "--context", "1024", "--json")
    assert code == 0
    assert any("4 x hidden_size" in n for n in json.loads(out)["notes"])


def _json(*args: str) -> dict[str, object]:
    code, out, err = run(*args, "--json")
    assert code == 0, err
    return dict(json.loads(out))


VLLM_H100 = ("--model", "qwen3-8b", "--engine", "vllm", "--gpu", "h100-80gb", "--context", "32768")
LLAMA_4090 = ("--model", "llama-3.1-8b", "--engine", "llama.cpp", "--gpu", "rtx-4090")


def test_vllm_flags_move_the_budget_the_way_the_engine_does() -> None:
    base = _json(*VLLM_H100)
    # Fewer sequences: a smaller sampler warm-up at the profile run, so more KV.
    fewer = _json(*VLLM_H100, "--max-num-seqs", "64")
    assert int(fewer["kv_budget_bytes"]) > int(base["kv_budget_bytes"])  # type: ignore[call-overload]
    # PyTorch's own top-k/top-p holds twice FlashInfer's bytes per logit.
    native = _json(*VLLM_H100, "--sampler", "native")
    assert int(native["kv_budget_bytes"]) < int(base["kv_budget_bytes"])  # type: ignore[call-overload]
    # The LLM class profiles 16,384 tokens on an H100, not 8,192; never more KV.
    llm = _json(*VLLM_H100, "--entrypoint", "llm")
    assert int(llm["kv_budget_bytes"]) <= int(base["kv_budget_bytes"])  # type: ignore[call-overload]
    offload = _json(*VLLM_H100, "--cpu-offload-gb", "4")
    assert int(base["weights_bytes"]) - int(offload["weights_bytes"]) == 4 << 30  # type: ignore[call-overload]


def test_llamacpp_flags_move_the_total() -> None:
    base = _json(*LLAMA_4090)
    half = _json(*LLAMA_4090, "--n-gpu-layers", "16")
    assert int(half["weights_bytes"]) * 2 == int(base["weights_bytes"])  # type: ignore[call-overload]
    assert int(half["kv_bytes"]) * 2 == int(base["kv_bytes"])  # type: ignore[call-overload]
    small_ub = _json(*LLAMA_4090, "--ubatch-size", "128")
    assert int(small_ub["overhead_bytes"]) < int(base["overhead_bytes"])  # type: ignore[call-overload]
    # n_ubatch is clamped to n_batch, as llama.cpp does.
    clamped = _json(*LLAMA_4090, "--batch-size", "128")
    assert clamped["overhead_bytes"] == small_ub["overhead_bytes"]


def test_safetensors_index_gives_exact_weights(tmp_path: Path) -> None:
    index = tmp_path / "model.safetensors.index.json"
    index.write_text(json.dumps({"metadata": {"total_size": 3 << 30}, "weight_map": {}}))
    out = _json(*VLLM_H100, "--safetensors-index", str(index), "--tp", "2")
    assert out["weights_bytes"] == 3 << 29
    bad = tmp_path / "bad.json"
    bad.write_text('{"metadata": {}}')
    code, _, err = run(*VLLM_H100, "--safetensors-index", str(bad))
    assert code == 2 and "metadata.total_size" in err and len(err.strip().splitlines()) == 1


def test_sglang_chunk_size_moves_the_default_fraction_from_the_cli() -> None:
    base = ["--model", "qwen3-8b", "--gpu", "h100-80gb", "--engine", "sglang", "--json"]
    code, out, _ = run(*base)
    chunked_code, chunked, _ = run(*base, "--chunked-prefill-size", "4096")
    assert code == chunked_code == 0
    # A smaller chunk reserves less (512 + 1.5 x 4,096 + ... under the 10 GiB floor).
    assert json.loads(chunked)["kv_cache_tokens"] > json.loads(out)["kv_cache_tokens"]
    assert run(*base, "--chunked-prefill-size", "-2")[0] == 2


def test_vllm_on_unified_memory_says_what_it_cannot_count() -> None:
    # vLLM reads free memory as MemAvailable on Orin, Thor and Spark (utils/mem_utils.py,
    # 0.13 to 0.28), so host memory taken during start-up shrinks the budget: said, not hidden.
    spark = _json(
        "--model",
        "qwen3-8b",
        "--engine",
        "vllm",
        "--gpu",
        "dgx-spark",
        "--engine-version",
        "0.13.0",
    )
    assert any(str(n).startswith("unified memory: vLLM reads free memory") for n in spark["notes"])  # type: ignore[attr-defined]
    h100 = _json(*VLLM_H100)
    assert not any(str(n).startswith("unified memory") for n in h100["notes"])  # type: ignore[attr-defined]
