"""Model architecture: what a model's ``config.json`` says about its KV cache and weights.

``arch_from_config`` reads a Hugging Face ``config.json`` (nested ``text_config`` of
multimodal models included) into a frozen ``ModelArch``. ``load_catalog`` reads the
cited catalog in ``calculators/data/models.yaml`` through the same function, so a
catalog entry and a user's own config are parsed identically.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from typing import Any

from calculators.datafiles import read_data
from calculators.vision import VisionTower, vision_from_config

# Layer kinds. "full" and "sliding" layers hold K and V per token; "linear" layers
# (Mamba / gated-delta-net / conv) hold a fixed recurrent state per sequence; "shared"
# layers reuse another layer's KV (cross-layer KV sharing) and store nothing.
FULL = "full"
SLIDING = "sliding"
LINEAR = "linear"
SHARED = "shared"
LAYER_KINDS = (FULL, SLIDING, LINEAR, SHARED)

# Families whose interleaved local/global layout llama.cpp allocates as an iSWA cache.
_ALTERNATING_SWA = {"gemma2": 2}
_PATTERN_SWA_DEFAULT = {"gemma3": 6, "gemma3_text": 6, "cohere2": 4}
# Families whose single sliding window covers every layer.
_UNIFORM_SWA = {"mistral", "mixtral", "starcoder2", "phi3"}
# Non-gated MLPs (two matrices instead of three).
_NON_GATED = {"gpt2", "gpt_bigcode", "gptj", "gpt_neox", "phi", "phi-msft", "starcoder2", "bert"}


class ConfigError(ValueError):
    """A config.json that cannot describe a decoder model."""


@dataclass(frozen=True, slots=True)
class MLA:
    """Multi-head latent attention (DeepSeek V2/V3): a compressed KV latent per token."""

    kv_lora_rank: int
    qk_rope_head_dim: int
    qk_nope_head_dim: int
    v_head_dim: int
    q_lora_rank: int | None


@dataclass(frozen=True, slots=True)
class MoE:
    n_experts: int
    experts_per_tok: int
    expert_intermediate: int
    n_shared_experts: int
    shared_intermediate: int
    dense_layers: int  # leading dense layers (first_k_dense_replace)


@dataclass(frozen=True, slots=True)
class ModelArch:
    """The architecture facts the calculators need, all from config.json."""

    id: str
    name: str
    model_type: str
    n_layers: int
    hidden_size: int
    n_heads: int
    n_kv_heads: int
    head_dim: int
    v_head_dim: int
    vocab_size: int
    intermediate_size: int
    layer_kinds: tuple[str, ...]
    sliding_window: int | None
    max_position_embeddings: int | None
    torch_dtype: str | None
    tie_word_embeddings: bool
    gated_mlp: bool
    mla: MLA | None = None
    moe: MoE | None = None
    linear_state_elems: int = 0  # recurrent-state elements per linear layer per sequence
    source: str = ""
    hf_repo: str = ""
    params: int = field(default=0)
    # What the config did not say and the calculator took from the model type's convention;
    # every answer built on this architecture repeats them.
    assumptions: tuple[str, ...] = ()
    vision: VisionTower | None = None  # a multimodal checkpoint's vision encoder and projector

    def __hash__(self) -> int:
        # Cheap and stable: the fields that identify a layout (equality still compares all).
        return hash(
            (
                self.id,
                self.n_layers,
                self.hidden_size,
                self.n_kv_heads,
                self.head_dim,
                self.vocab_size,
                self.intermediate_size,
                len(self.layer_kinds),
            )
        )

    @property
    def checkpoint_params(self) -> int:
        """Parameters of the whole checkpoint: the language model and any vision tower."""
        return self.params + (self.vision.params if self.vision is not None else 0)

    @property
    def n_kv_layers(self) -> int:
        return sum(1 for k in self.layer_kinds if k in (FULL, SLIDING))

    @property
    def n_full_layers(self) -> int:
        return self.layer_kinds.count(FULL)

    @property
    def n_sliding_layers(self) -> int:
        return self.layer_kinds.count(SLIDING)

    @property
    def n_linear_layers(self) -> int:
        return self.layer_kinds.count(LINEAR)

    @property
    def is_mla(self) -> bool:
        return self.mla is not None

    @property
    def is_moe(self) -> bool:
        return self.moe is not None


def _first(cfg: Mapping[str, Any], *keys: str) -> Any:
    for k in keys:
        v = cfg.get(k)
        if v is not None:
            return v
    return None


def _int(cfg: Mapping[str, Any], *keys: str, default: int | None = None) -> int:
    v = _first(cfg, *keys)
    if v is None:
        if default is None:
            raise ConfigError(f"config has none of {', '.join(keys)}")
        return default
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise ConfigError(f"{keys[0]} must be a number, got {v!r}")
    iv = int(v)
    if iv != v or iv < 0:
        raise ConfigError(f"{keys[0]} must be a non-negative integer, got {v!r}")
    return iv


def _text_config(cfg: Mapping[str, Any]) -> Mapping[str, Any]:
    """The language-model part of a config (nested in multimodal models)."""
    for key in ("text_config", "llm_config", "language_config", "thinker_config"):
        sub = cfg.get(key)
        if isinstance(sub, Mapping):
            if key == "thinker_config" and isinstance(sub.get("text_config"), Mapping):
                sub = sub["text_config"]
            merged = dict(sub)
            # Some multimodal configs keep the dtype only at the top level.
            if "torch_dtype" not in merged and "torch_dtype" in cfg:
                merged["torch_dtype"] = cfg["torch_dtype"]
            if "dtype" not in merged and "dtype" in cfg:
                merged["dtype"] = cfg["dtype"]
            if _first(merged, "num_hidden_layers", "n_layer", "num_layers") is not None:
                return merged
    return cfg


def _layer_kinds(cfg: Mapping[str, Any], model_type: str, n_layers: int) -> tuple[str, ...]:
    kinds: list[str]
    lt = cfg.get("layer_types")
    if isinstance(lt, list) and lt:
        if len(lt) != n_layers:
            raise ConfigError(f"layer_types has {len(lt)} entries for {n_layers} layers")
        kinds = []
        for t in lt:
            s = str(t).lower()
            if "sliding" in s or s in ("local", "chunked_attention"):
                kinds.append(SLIDING)
            elif "linear" in s or "mamba" in s or s in ("conv", "recurrent", "ssm"):
                kinds.append(LINEAR)
            else:
                kinds.append(FULL)
    elif isinstance(cfg.get("hybrid_override_pattern"), str):
        # Nemotron-H: M = mamba, * = attention, - = MLP only (no cache).
        pat = cfg["hybrid_override_pattern"]
        if len(pat) != n_layers:
            raise ConfigError("hybrid_override_pattern length differs from num_hidden_layers")
        kinds = [LINEAR if c == "M" else FULL if c == "*" else SHARED for c in pat]
    elif model_type == "jamba":
        period = _int(cfg, "attn_layer_period", default=8)
        offset = _int(cfg, "attn_layer_offset", default=4)
        kinds = [FULL if i % period == offset else LINEAR for i in range(n_layers)]
    elif model_type in _ALTERNATING_SWA and cfg.get("sliding_window"):
        kinds = [SLIDING if i % 2 == 0 else FULL for i in range(n_layers)]
    elif model_type in _PATTERN_SWA_DEFAULT and cfg.get("sliding_window"):
        pattern = _int(cfg, "sliding_window_pattern", default=_PATTERN_SWA_DEFAULT[model_type])
        kinds = [FULL if (i + 1) % pattern == 0 else SLIDING for i in range(n_layers)]
    elif model_type in _UNIFORM_SWA and cfg.get("sliding_window"):
        kinds = [SLIDING] * n_layers
    elif model_type == "qwen2" and cfg.get("use_sliding_window") and cfg.get("sliding_window"):
        start = _int(cfg, "max_window_layers", default=n_layers)
        kinds = [SLIDING if i >= start else FULL for i in range(n_layers)]
    else:
        kinds = [FULL] * n_layers
    shared = _int(cfg, "num_kv_shared_layers", default=0)
    if shared:
        if shared >= n_layers:
            raise ConfigError("num_kv_shared_layers must be below num_hidden_layers")
        kinds[n_layers - shared :] = [SHARED] * shared
    return tuple(kinds)


def _linear_state_elems(cfg: Mapping[str, Any]) -> int:
    """Recurrent-state elements per linear layer per sequence (conv + SSM state)."""
    if cfg.get("linear_num_value_heads"):  # Qwen3-Next gated delta net
        nk = _int(cfg, "linear_num_key_heads")
        nv = _int(cfg, "linear_num_value_heads")
        dk = _int(cfg, "linear_key_head_dim")
        dv = _int(cfg, "linear_value_head_dim")
        kconv = _int(cfg, "linear_conv_kernel_dim", default=4)
        conv = (2 * nk * dk + nv * dv) * (kconv - 1)
        return conv + nv * dk * dv
    if cfg.get("mamba_num_heads") or cfg.get("mamba_n_heads"):  # Mamba2 (Nemotron-H, Granite)
        nh = _int(cfg, "mamba_num_heads", "mamba_n_heads")
        hd = _int(cfg, "mamba_head_dim", "mamba_d_head")
        ds = _int(cfg, "ssm_state_size", "mamba_d_state")
        ng = _int(cfg, "n_groups", "mamba_n_groups", default=1)
        kconv = _int(cfg, "conv_kernel", "mamba_d_conv", default=4)
        d_inner = nh * hd
        return (d_inner + 2 * ng * ds) * (kconv - 1) + nh * hd * ds
    if cfg.get("mamba_d_state"):  # Mamba1 (Jamba)
        ds = _int(cfg, "mamba_d_state")
        kconv = _int(cfg, "mamba_d_conv", default=4)
        expand = _int(cfg, "mamba_expand", default=2)
        d_inner = expand * _int(cfg, "hidden_size")
        return d_inner * (kconv - 1) + d_inner * ds
    return 0


# MoE model types whose experts are intermediate_size wide (their configs have no
# moe_intermediate_size: Mixtral, gpt-oss, OLMoE, PhiMoE, Jamba, Granite MoE, MiniMax-M2,
# whose 256 experts of 1536 over 62 layers give its published 230B); any other MoE config
# without it would be a guess, so it is refused.
_EXPERTS_USE_INTERMEDIATE = frozenset(
    {"mixtral", "gpt_oss", "olmoe", "phimoe", "jamba", "granitemoe", "minimax_m2"}
)


def _moe(cfg: Mapping[str, Any], model_type: str, intermediate: int) -> MoE | None:
    n_exp = _first(cfg, "num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts")
    if not n_exp:
        return None
    per_tok = _int(cfg, "num_experts_per_tok", "num_experts_per_token", "moe_top_k", default=1)
    if _first(cfg, "moe_intermediate_size") is None and model_type not in _EXPERTS_USE_INTERMEDIATE:
        raise ConfigError(
            f"a {model_type} MoE config without moe_intermediate_size: the experts' width decides "
            "the weights; add it from the model's config.json"
        )
    expert_inter = _int(cfg, "moe_intermediate_size", default=intermediate)
    n_shared = _int(cfg, "n_shared_experts", "num_shared_experts", default=0)
    shared_inter = _int(cfg, "shared_expert_intermediate_size", default=0)
    if shared_inter and not n_shared:
        n_shared = 1
    elif n_shared and not shared_inter:
        shared_inter = expert_inter
    dense = _int(cfg, "first_k_dense_replace", default=0)
    return MoE(int(n_exp), per_tok, expert_inter, n_shared, shared_inter, dense)


# Model types whose config may leave the MLP width out because 4 x hidden_size is their
# documented default (GPT-2's `n_inner: null`).
_FOUR_X_MLP = frozenset({"gpt2", "gpt_bigcode", "gptj", "gpt_neo"})


def arch_from_config(
    config: Mapping[str, Any],
    *,
    model_id: str = "config",
    name: str | None = None,
    source: str = "",
    hf_repo: str = "",
) -> ModelArch:
    """Build a ``ModelArch`` from a Hugging Face ``config.json`` mapping.

    Raises ``ConfigError`` (a ``ValueError``) when the config lacks what a decoder needs.
    """
    if not isinstance(config, Mapping):
        raise ConfigError("config.json must be a JSON object")
    cfg = _text_config(config)
    model_type = str(cfg.get("model_type") or config.get("model_type") or "unknown")
    n_layers = _int(cfg, "num_hidden_layers", "n_layer", "num_layers", "n_layers")
    hidden = _int(cfg, "hidden_size", "n_embd", "d_model", "dim")
    n_heads = _int(cfg, "num_attention_heads", "n_head", "n_heads")
    if n_layers == 0 or hidden == 0 or n_heads == 0:
        raise ConfigError("num_hidden_layers, hidden_size and num_attention_heads must be > 0")
    if cfg.get("multi_query") is True:  # gpt_bigcode
        n_kv = 1
    elif cfg.get("multi_query_attention") is True:  # chatglm
        n_kv = _int(cfg, "multi_query_group_num", default=1)
    else:
        n_kv = _int(cfg, "num_key_value_heads", "n_head_kv", "num_kv_heads", default=n_heads)
    if n_kv == 0 or n_heads % n_kv:
        raise ConfigError(f"num_key_value_heads={n_kv} must divide num_attention_heads={n_heads}")
    head_dim = _int(cfg, "head_dim", "kv_channels", default=hidden // n_heads)
    mla: MLA | None = None
    if cfg.get("kv_lora_rank"):
        mla = MLA(
            kv_lora_rank=_int(cfg, "kv_lora_rank"),
            qk_rope_head_dim=_int(cfg, "qk_rope_head_dim"),
            qk_nope_head_dim=_int(cfg, "qk_nope_head_dim"),
            v_head_dim=_int(cfg, "v_head_dim"),
            q_lora_rank=cfg.get("q_lora_rank"),
        )
        head_dim = mla.qk_nope_head_dim + mla.qk_rope_head_dim
    v_head_dim = mla.v_head_dim if mla else _int(cfg, "v_head_dim", default=head_dim)
    assumed: list[str] = []
    # Every layer MoE with its own expert width (Qwen3.5 MoE): no dense MLP to size.
    all_moe = (
        _first(cfg, "num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts")
        and _first(cfg, "moe_intermediate_size") is not None
        and not _first(cfg, "first_k_dense_replace")
        and not cfg.get("mlp_only_layers")
    )
    if _first(cfg, "intermediate_size", "ffn_hidden_size", "n_inner") is None and not all_moe:
        if model_type not in _FOUR_X_MLP:
            raise ConfigError(
                "config has no intermediate_size (nor ffn_hidden_size, n_inner): the MLP width "
                "decides the weights; add it from the model's config.json"
            )
        assumed.append(f"intermediate_size taken as 4 x hidden_size ({model_type}'s default)")
    intermediate = _int(cfg, "intermediate_size", "ffn_hidden_size", "n_inner", default=4 * hidden)
    vocab = _int(cfg, "vocab_size", "padded_vocab_size")
    kinds = _layer_kinds(cfg, model_type, n_layers)
    window = cfg.get("sliding_window") if SLIDING in kinds else None
    if window is not None and (not isinstance(window, int) or window <= 0):
        raise ConfigError(f"sliding_window must be a positive integer, got {window!r}")
    dtype = _first(cfg, "torch_dtype", "dtype")
    max_pos = _first(cfg, "max_position_embeddings", "seq_length", "n_positions")
    try:
        tower = vision_from_config(config, cfg)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    if isinstance(tower, str):
        assumed.append(
            f"the checkpoint's vision tower ({tower}) is not counted in the weights: "
            "vLLM and SGLang load it, a GGUF leaves it to the mmproj file"
        )
    arch = ModelArch(
        id=model_id,
        name=name or model_id,
        model_type=model_type,
        n_layers=n_layers,
        hidden_size=hidden,
        n_heads=n_heads,
        n_kv_heads=n_kv,
        head_dim=head_dim,
        v_head_dim=v_head_dim,
        vocab_size=vocab,
        intermediate_size=intermediate,
        layer_kinds=kinds,
        sliding_window=window,
        max_position_embeddings=int(max_pos) if isinstance(max_pos, int) else None,
        torch_dtype=str(dtype) if dtype else None,
        tie_word_embeddings=bool(cfg.get("tie_word_embeddings", config.get("tie_word_embeddings"))),
        gated_mlp=model_type not in _NON_GATED,
        mla=mla,
        moe=_moe(cfg, model_type, intermediate),
        linear_state_elems=_linear_state_elems(cfg) if LINEAR in kinds else 0,
        source=source,
        hf_repo=hf_repo,
        assumptions=tuple(assumed),
        vision=tower if isinstance(tower, VisionTower) else None,
    )
    object.__setattr__(arch, "params", param_count(arch))
    return arch


@dataclass(frozen=True, slots=True)
class ParamBreakdown:
    embedding: int  # token embeddings
    lm_head: int  # output projection (0 when tied)
    attention: int
    dense_mlp: int
    experts: int  # routed experts, all of them
    other: int  # norms, routers, shared experts

    @property
    def total(self) -> int:
        return (
            self.embedding
            + self.lm_head
            + self.attention
            + self.dense_mlp
            + self.experts
            + self.other
        )

    @property
    def linear(self) -> int:
        """Parameters in the linear layers a weight quantiser touches."""
        return self.attention + self.dense_mlp + self.experts + self.other


@lru_cache(maxsize=1024)
def param_breakdown(arch: ModelArch) -> ParamBreakdown:
    h = arch.hidden_size
    embedding = arch.vocab_size * h
    lm_head = 0 if arch.tie_word_embeddings else arch.vocab_size * h
    attn_layers = sum(1 for k in arch.layer_kinds if k != "linear")
    if arch.mla is not None:
        m = arch.mla
        qk = m.qk_nope_head_dim + m.qk_rope_head_dim
        q = (
            (h * m.q_lora_rank + m.q_lora_rank * arch.n_heads * qk)
            if m.q_lora_rank
            else (h * arch.n_heads * qk)
        )
        kv = h * (m.kv_lora_rank + m.qk_rope_head_dim) + m.kv_lora_rank * arch.n_heads * (
            m.qk_nope_head_dim + m.v_head_dim
        )
        o = arch.n_heads * m.v_head_dim * h
        per_layer_attn = q + kv + o
    else:
        per_layer_attn = (
            h * arch.n_heads * arch.head_dim
            + h * arch.n_kv_heads * (arch.head_dim + arch.v_head_dim)
            + arch.n_heads * arch.v_head_dim * h
        )
    attention = per_layer_attn * attn_layers
    mats = 3 if arch.gated_mlp else 2
    other = 2 * h * arch.n_layers + h
    dense_mlp = 0
    experts = 0
    if arch.moe is None:
        dense_mlp = mats * h * arch.intermediate_size * arch.n_layers
    else:
        moe = arch.moe
        n_dense = min(moe.dense_layers, arch.n_layers)
        n_moe = arch.n_layers - n_dense
        dense_mlp = mats * h * arch.intermediate_size * n_dense
        experts = mats * h * moe.expert_intermediate * moe.n_experts * n_moe
        shared = mats * h * moe.shared_intermediate * moe.n_shared_experts
        other += n_moe * (h * moe.n_experts + shared)
    # Linear (recurrent) layers: in/out projections of roughly 2*h*d_inner; counted coarsely.
    other += arch.n_linear_layers * 6 * h * h
    return ParamBreakdown(embedding, lm_head, attention, dense_mlp, experts, other)


def param_count(arch: ModelArch) -> int:
    return param_breakdown(arch).total


@cache
def load_catalog() -> dict[str, ModelArch]:
    """The cited model catalog (``calculators/data/models.yaml``), keyed by id."""
    raw = read_data("models.yaml")
    out: dict[str, ModelArch] = {}
    for entry in raw["models"]:
        mid = str(entry["id"])
        if mid in out:
            raise ValueError(f"duplicate catalog id {mid}")
        arch = arch_from_config(
            entry["config"],
            model_id=mid,
            name=str(entry.get("name", mid)),
            source=str(entry["source"]),
            hf_repo=str(entry.get("hf_repo", "")),
        )
        if entry.get("vision_not_counted"):
            # A multimodal checkpoint whose vision_config the catalog could not cite.
            note = (
                f"the checkpoint's vision tower is not counted in the weights "
                f"({entry['vision_not_counted']}): vLLM and SGLang load it, a GGUF leaves it "
                "to the mmproj file"
            )
            arch = replace(arch, assumptions=(*arch.assumptions, note))
        out[mid] = arch
    return out


def get_model(model_id: str) -> ModelArch:
    """Catalog lookup by id, case-insensitive, also by Hugging Face repo name."""
    cat = load_catalog()
    if model_id in cat:
        return cat[model_id]
    low = model_id.lower()
    for arch in cat.values():
        if arch.id.lower() == low or (arch.hf_repo and arch.hf_repo.lower() == low):
            return arch
    raise KeyError(model_id)
