"""The vision encoder and projector a multimodal checkpoint carries beside its language model.

vLLM and SGLang load the whole checkpoint, so the tower's weights sit on every GPU next to the
text model's; a GGUF keeps them in a separate ``mmproj`` file that llama.cpp loads only with
``--mmproj``. Counted per parameter from ``vision_config`` as vLLM builds the modules (read in
``model_executor/models/qwen3_vl.py``, ``pixtral.py`` and ``mistral3.py`` of 0.11.0), split
the way its parallel linears split them with the default ``--mm-encoder-tp-mode weights``:
column-parallel weights and biases and row-parallel weights over the tensor-parallel GPUs;
norms, patch and position embeddings, plain ``nn.Linear`` layers and row-parallel biases on
every GPU. SGLang splits the Qwen3-VL tower the same way by default (``qwen3_vl.py`` of 0.5.10,
``mm_enable_dp_encoder`` off).

Families read so far: Qwen3-VL and Qwen3.5 (dense and MoE; 0.33.0 builds the same modules),
and Pixtral under Mistral 3 (Mistral Small 3.1/3.2, Ministral 3). Any other ``vision_config`` is named in
the answer as not counted. Left out: the Pixtral rotary table (a 3 MB float32 buffer) and the
allocator's rounding.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class VisionTower:
    kind: str  # the vision_config's family, as the answer names it
    sharded: int  # parameters split over the tensor-parallel GPUs
    replicated: int  # parameters every GPU holds
    # vLLM's M-RoPE cos/sin cache (elements): MRotaryEmbedding keeps 4 x max_position_embeddings
    # rows of rotary_dim for video positions (rotary_embedding/mrope.py), one shared buffer.
    rope_cache_elems: int = 0

    @property
    def params(self) -> int:
        return self.sharded + self.replicated


def _get(cfg: Mapping[str, Any], key: str, default: int | None = None) -> int:
    v = cfg.get(key, default)
    if v is None:
        raise ValueError(f"vision_config has no {key}: the tower's size needs it")
    if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
        raise ValueError(f"vision_config.{key} must be a positive integer, got {v!r}")
    return v


def _qwen3_vl(kind: str, v: Mapping[str, Any], text: Mapping[str, Any]) -> VisionTower:
    d = _get(v, "hidden_size")
    inter = _get(v, "intermediate_size")
    depth = _get(v, "depth")
    patch, temporal = _get(v, "patch_size"), _get(v, "temporal_patch_size", 2)
    out = _get(v, "out_hidden_size")
    merged = d * _get(v, "spatial_merge_size", 2) ** 2
    taps = len(v.get("deepstack_visual_indexes") or ())
    # A block: LayerNorms (weight and bias) x2; qkv (bias) and proj; fc1 (bias) and fc2.
    block_sharded = 3 * d * d + 3 * d + d * d + d * inter + inter + inter * d
    block_replicated = 2 * 2 * d + d + d  # the norms, proj's and fc2's row-parallel biases
    # A merger: LayerNorm, fc1 (merged -> merged, bias), fc2 (merged -> out, bias); the
    # deepstack mergers normalise after the 2x2 shuffle (a norm over `merged`).
    merger_sharded = merged * merged + merged + merged * out
    sharded = depth * block_sharded + (1 + taps) * merger_sharded
    replicated = (
        depth * block_replicated
        + _get(v, "in_channels", 3) * temporal * patch * patch * d
        + d  # Conv3d patch embedding, with bias
        + _get(v, "num_position_embeddings") * d
        + (2 * d + out)  # the merger's norm and fc2 bias
        + taps * (2 * merged + out)
    )
    head_dim = _get(
        text, "head_dim", _get(text, "hidden_size") // _get(text, "num_attention_heads")
    )
    rope_cfg = text.get("rope_parameters") or text.get("rope_scaling") or {}
    factor = text.get("partial_rotary_factor") or (
        rope_cfg.get("partial_rotary_factor") if isinstance(rope_cfg, Mapping) else None
    )
    factor = 1 if factor is None else factor
    if isinstance(factor, bool) or not isinstance(factor, int | float) or not 0 < factor <= 1:
        raise ValueError(f"partial_rotary_factor must be a number in (0, 1], got {factor!r}")
    max_pos = text.get("max_position_embeddings")
    rope = 4 * max_pos * int(head_dim * factor) if isinstance(max_pos, int) and max_pos > 0 else 0
    return VisionTower(kind, sharded, replicated, rope)


def _pixtral(v: Mapping[str, Any], top: Mapping[str, Any], text_hidden: int) -> VisionTower:
    d = _get(v, "hidden_size")
    inter = _get(v, "intermediate_size")
    layers = _get(v, "num_hidden_layers")
    patch = _get(v, "patch_size")
    merge = _get(top, "spatial_merge_size", 2)
    bias = bool(top.get("multimodal_projector_bias", False))
    heads = _get(v, "num_attention_heads")
    width = heads * _get(v, "head_dim", d // heads)
    # A layer: RMSNorms x2; qkv and o (no bias); gate_up and down (no bias).
    sharded = layers * (3 * d * width + width * d + 3 * d * inter)
    # Projector: RMSNorm, the patch merger's nn.Linear (d*merge^2 -> d), then linear_1
    # (column-parallel, d -> text) and linear_2 (row-parallel, text -> text).
    sharded += d * text_hidden + text_hidden * text_hidden + (text_hidden if bias else 0)
    replicated = (
        layers * 2 * d
        + _get(v, "num_channels", 3) * patch * patch * d  # Conv2d patch embedding, no bias
        + d  # ln_pre
        + d  # the projector's norm
        + d * merge * merge * d
        + (text_hidden if bias else 0)
    )
    return VisionTower("pixtral", sharded, replicated)


# vision_config model types that build vLLM's Qwen3_VisionTransformer (Qwen3.6's configs name
# theirs qwen3_5_vision / qwen3_5_moe_vision).
_QWEN3_VL = frozenset(
    {"qwen3_vl", "qwen3_vl_moe", "qwen3_5", "qwen3_5_moe", "qwen3_5_vision", "qwen3_5_moe_vision"}
)


def vision_from_config(
    config: Mapping[str, Any], text: Mapping[str, Any]
) -> VisionTower | str | None:
    """The tower of a multimodal config.json; its family's name when it is not counted yet;
    None for a text-only model. ``config`` is the whole file, ``text`` its language model."""
    v = config.get("vision_config")
    if not isinstance(v, Mapping):
        return None
    kind = str(v.get("model_type") or config.get("model_type") or "unknown")
    if kind in _QWEN3_VL:
        # Qwen3.5 builds the same tower (vLLM's qwen3_5.py imports Qwen3_VisionTransformer).
        return _qwen3_vl(kind, v, text)
    if kind == "pixtral":
        return _pixtral(v, config, _get(text, "hidden_size"))
    return kind
