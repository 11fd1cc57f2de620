"""Vision towers of multimodal checkpoints (issue 13 item 2): counted where engines load them.

The figures are checked against what vLLM printed in test_endtoend's weight test; here, how
the tower is read, split and reported.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from calculators.datafiles import read_data
from calculators.models import ConfigError, arch_from_config, get_model, load_catalog
from calculators.weights import vision_bytes, weights_bytes


def _record(model_id: str) -> dict[str, Any]:
    return next(m for m in read_data("models.yaml")["models"] if m["id"] == model_id)


def _as_config_json(model_id: str) -> dict[str, Any]:
    """The catalog record laid out as the model's own config.json nests it."""
    flat = dict(_record(model_id)["config"])
    vision = flat.pop("vision_config")
    top = {k: flat.pop(k) for k in ("spatial_merge_size", "multimodal_projector_bias") if k in flat}
    return {"model_type": "multimodal", "text_config": flat, "vision_config": vision, **top}


@pytest.mark.parametrize("model_id", ["qwen3-vl-30b-a3b", "mistral-small-3.2-24b", "qwen3.5-27b"])
def test_a_users_config_json_reads_as_the_catalog_does(model_id: str) -> None:
    mine = arch_from_config(_as_config_json(model_id))
    assert mine.vision is not None
    assert mine.vision == get_model(model_id).vision


def test_the_tower_splits_as_vllms_parallel_layers_do() -> None:
    arch = get_model("qwen3-vl-8b")
    v = arch.vision
    assert v is not None and v.sharded > v.replicated > 0
    assert vision_bytes(arch, "bf16", 1) == v.params * 2
    assert vision_bytes(arch, "bf16", 4) == (v.sharded // 4 + v.replicated) * 2


def test_quantised_text_weights_keep_a_16_bit_tower() -> None:
    arch = get_model("qwen3-vl-8b")
    assert vision_bytes(arch, "awq") == vision_bytes(arch, "bf16") > 0


@pytest.mark.parametrize("fmt", ["gguf-q4_k", "q8_0", "gguf-bf16"])
def test_a_gguf_holds_the_text_model_only(fmt: str) -> None:
    # llama.cpp loads the tower from a separate mmproj file, only with --mmproj.
    assert vision_bytes(get_model("qwen3-vl-8b"), fmt) == 0


@pytest.mark.parametrize("engine", ["vllm", "sglang"])
def test_the_engines_that_load_the_checkpoint_hold_the_tower(engine: str) -> None:
    from calculators.estimate import estimate

    arch = get_model("qwen3-vl-8b")
    e = estimate(arch, engine=engine, gpu="h100-80gb", tp=2, solve_limits=False)
    text = weights_bytes(arch, "bf16", 2)
    assert e.weights_bytes >= text + vision_bytes(arch, "bf16", 2)
    llama = estimate(arch, engine="llama.cpp", gpu="h100-80gb", solve_limits=False)
    assert llama.weights_bytes == weights_bytes(arch, "bf16")
    assert any("mmproj" in n for n in llama.notes)


def test_qwen_vl_adds_vllms_mrope_table_to_the_loaded_weights() -> None:
    from calculators.engines.vllm_weights import vllm_weights_bytes

    def table(model_id: str, tp: int) -> int:
        arch = get_model(model_id)
        return (
            vllm_weights_bytes(arch, "bf16", tp)
            - weights_bytes(arch, "bf16", tp)
            - (vision_bytes(arch, "bf16", tp))
        )

    # 4 x 262,144 positions x 128 rotary dims x 2 bytes: 0.25 GiB on every GPU.
    assert table("qwen3-vl-8b", 2) == 4 * 262144 * 128 * 2
    # Qwen3.5 rotates a quarter of its 256-dim heads.
    assert table("qwen3.5-27b", 1) == 4 * 262144 * 64 * 2
    assert table("qwen3-8b", 1) == 0


def test_a_vision_family_not_read_yet_is_named_not_guessed() -> None:
    cfg = _as_config_json("qwen3-vl-8b")
    cfg["vision_config"] = {"model_type": "siglip_vision_model", "hidden_size": 1152}
    arch = arch_from_config(cfg)
    assert arch.vision is None
    assert any("siglip_vision_model" in a and "not counted" in a for a in arch.assumptions)


def test_a_bad_vision_field_is_a_one_line_config_error() -> None:
    cfg = _as_config_json("qwen3-vl-8b")
    cfg["vision_config"] = {**cfg["vision_config"], "depth": "27"}
    with pytest.raises(ConfigError, match=r"^vision_config\.depth must be a positive integer"):
        arch_from_config(cfg)
    del cfg["vision_config"]["depth"]
    with pytest.raises(ConfigError, match=r"^vision_config has no depth: "):
        arch_from_config(cfg)


def test_every_multimodal_catalog_model_counts_its_tower_or_says_it_does_not() -> None:
    multimodal = [
        m["id"]
        for m in read_data("models.yaml")["models"]
        if re.search(r"\bvision", str(m.get("source", ""))) or "vision_not_counted" in m
    ]
    assert len(multimodal) >= 14
    for model_id in multimodal:
        arch = load_catalog()[model_id]
        said = any("vision tower is not counted" in a for a in arch.assumptions)
        assert (arch.vision is not None) != said, model_id


def test_vllms_answer_says_the_encoder_profile_is_not_modelled() -> None:
    from calculators.estimate import estimate

    e = estimate(get_model("qwen3-vl-8b"), engine="vllm", gpu="rtx-4090", solve_limits=False)
    assert any("encodes the largest image or video" in n for n in e.notes)
    text_only = estimate(get_model("qwen3-8b"), engine="vllm", gpu="rtx-4090", solve_limits=False)
    assert not any("image or video" in n for n in text_only.notes)


def test_language_model_only_builds_no_tower() -> None:
    # vLLM skips the tower when no modality is allowed (qwen3_vl.py of 0.11.0: self.visual =
    # None; --language-model-only from 0.17): neither its weights nor its profile pass.
    from calculators.estimate import estimate

    arch = get_model("qwen3-vl-8b")
    full = estimate(arch, engine="vllm", gpu="rtx-4090", solve_limits=False)
    text = estimate(
        arch, engine="vllm", gpu="rtx-4090", language_model_only=True, solve_limits=False
    )
    assert full.weights_bytes - text.weights_bytes == vision_bytes(arch, "bf16", 1)
    assert full.kv_budget_bytes is not None and text.kv_budget_bytes is not None
    assert text.kv_budget_bytes - full.kv_budget_bytes == vision_bytes(arch, "bf16", 1)
    assert not any("image or video" in n for n in text.notes)
    assert any("neither loaded nor profiled" in n for n in text.notes)
