"""Catalog, config parsing and parameter counts against what engines printed."""

from __future__ import annotations

from typing import Any

import pytest

from calculators import ConfigError, arch_from_config, get_model, load_catalog, load_gpus


def test_catalog_has_at_least_40_cited_models() -> None:
    cat = load_catalog()
    assert len(cat) >= 40
    for arch in cat.values():
        assert arch.source.startswith("https://"), arch.id
        assert arch.n_kv_layers > 0


def test_gpu_catalog_is_cited_and_uses_driver_totals() -> None:
    gpus = load_gpus()
    assert gpus["h100-80gb"].memory_mib == 81559
    for g in gpus.values():
        assert g.source.startswith("https://"), g.id
        if g.cuda_total_gib is not None:
            assert g.cuda_source.startswith("https://")
            assert g.cuda_total_gib * 1024 < g.memory_mib


# Parameter counts llama.cpp printed ("model params = ...") in public logs.
@pytest.mark.parametrize(
    "model,printed_b,source",
    [
        ("llama-3.1-70b", 70.55, "https://github.com/ollama/ollama/pull/6279"),
        ("gpt-oss-20b", 20.91, "https://github.com/ikawrakow/ik_llama.cpp/issues/822"),
        ("qwen2.5-32b", 32.76, "https://github.com/abetlen/llama-cpp-python/pull/1901"),
        ("qwen2.5-7b", 7.62, "https://github.com/containers/ramalama/issues/616"),
        (
            "pythia-1.4b",
            1.41,
            "https://github.com/ggml-org/ci/blob/5553e5844db5348ce74df8638da3a7b86ffe1ea5/llama.cpp/3b/08828674f561c78af182d47fc0636fc3ccd1e9/ggml-2-x86-cpu/pythia_1_4b-save-load-state.log",
        ),
    ],
)
def test_param_count_matches_llama_cpp_print(model: str, printed_b: float, source: str) -> None:
    assert round(get_model(model).params / 1e9, 2) == printed_b, source


def test_nested_text_config_and_explicit_head_dim() -> None:
    cfg = {
        "model_type": "mistral3",
        "torch_dtype": "bfloat16",
        "text_config": {
            "num_hidden_layers": 26,
            "hidden_size": 3072,
            "num_attention_heads": 32,
            "num_key_value_heads": 8,
            "head_dim": 128,
            "intermediate_size": 9216,
            "vocab_size": 131072,
        },
        "vision_config": {"num_hidden_layers": 24, "hidden_size": 1024},
    }
    arch = arch_from_config(cfg)
    assert arch.n_layers == 26
    assert arch.head_dim == 128  # not 3072 / 32 = 96
    assert arch.torch_dtype == "bfloat16"


def test_gemma_layer_patterns() -> None:
    g2 = get_model("gemma-2-9b")
    assert g2.layer_kinds[:4] == ("sliding", "full", "sliding", "full")
    g3 = get_model("gemma-3-1b")
    assert g3.layer_kinds[:6] == ("sliding",) * 5 + ("full",)
    assert g3.n_full_layers == 4


@pytest.mark.parametrize(
    "cfg",
    [
        {},
        {"num_hidden_layers": 4},
        {
            "num_hidden_layers": 4,
            "hidden_size": 64,
            "num_attention_heads": 6,
            "num_key_value_heads": 4,
        },
        {"num_hidden_layers": "x", "hidden_size": 64, "num_attention_heads": 4},
        {
            "num_hidden_layers": 2,
            "hidden_size": 64,
            "num_attention_heads": 4,
            "layer_types": ["full_attention"],
        },
    ],
)
def test_bad_configs_raise_config_error(cfg: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        arch_from_config(cfg)
