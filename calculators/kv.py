"""KV elements per token, per layer, as each engine stores them.

Attention layers store K and V rows per token:

* MHA / GQA / MQA: ``K = n_kv_heads * head_dim`` and ``V = n_kv_heads * v_head_dim``
  elements, with ``head_dim`` taken from config when given (Gemma, Qwen3, Llama 3.2 ...)
  rather than ``hidden_size / n_heads``.
* MLA (DeepSeek V2/V3): vLLM, SGLang and llama.cpp since PR #12801 store the latent,
  ``kv_lora_rank + qk_rope_head_dim`` (576) elements per token in one tensor (llama.cpp
  keeps K = 576 and V = 512 rows). llama.cpp before #12801 stored the decompressed
  heads: ``K = n_heads * (qk_nope + qk_rope)``, ``V = n_heads * v_head_dim``.
* Tensor parallelism (vLLM/SGLang): each GPU holds ``n_kv_heads / tp`` heads; when
  ``tp`` exceeds ``n_kv_heads`` the heads are replicated, so each GPU holds one.
  MLA latents are replicated on every GPU.

Linear / recurrent layers hold a fixed state per sequence (``ModelArch.linear_state_elems``)
and no per-token KV. "shared" layers reuse another layer's cache.
"""

from __future__ import annotations

from dataclasses import dataclass

from calculators.models import FULL, SLIDING, ModelArch


@dataclass(frozen=True, slots=True)
class LayerKV:
    kind: str  # "full" or "sliding"
    k_elems: int  # K elements per token on one GPU
    v_elems: int  # V elements per token on one GPU


def kv_heads_per_gpu(arch: ModelArch, tp: int) -> int:
    if tp < 1:
        raise ValueError("tensor parallel size must be >= 1")
    if arch.n_kv_heads >= tp:
        if arch.n_kv_heads % tp:
            raise ValueError(
                f"{arch.n_kv_heads} KV heads do not split evenly over tensor parallel {tp}"
            )
        return arch.n_kv_heads // tp
    if tp % arch.n_kv_heads:
        raise ValueError(f"tensor parallel {tp} is not a multiple of {arch.n_kv_heads} KV heads")
    return 1  # replicated


def paged_layers(arch: ModelArch, tp: int = 1) -> list[LayerKV]:
    """Per-layer KV elements per token as vLLM and SGLang store them."""
    out: list[LayerKV] = []
    if arch.mla is not None:
        latent = arch.mla.kv_lora_rank + arch.mla.qk_rope_head_dim
        for kind in arch.layer_kinds:
            if kind in (FULL, SLIDING):
                out.append(LayerKV(kind, latent, 0))
        return out
    heads = kv_heads_per_gpu(arch, tp)
    for kind in arch.layer_kinds:
        if kind in (FULL, SLIDING):
            out.append(LayerKV(kind, heads * arch.head_dim, heads * arch.v_head_dim))
    return out


def llamacpp_layers(arch: ModelArch, *, mla_latent: bool = True) -> list[LayerKV]:
    """Per-layer K/V row lengths (n_embd_k_gqa, n_embd_v_gqa) as llama.cpp allocates them."""
    out: list[LayerKV] = []
    for kind in arch.layer_kinds:
        if kind not in (FULL, SLIDING):
            continue
        if arch.mla is not None:
            m = arch.mla
            if mla_latent:
                out.append(LayerKV(kind, m.kv_lora_rank + m.qk_rope_head_dim, m.kv_lora_rank))
            else:
                out.append(
                    LayerKV(
                        kind,
                        arch.n_heads * (m.qk_nope_head_dim + m.qk_rope_head_dim),
                        arch.n_heads * m.v_head_dim,
                    )
                )
        else:
            out.append(
                LayerKV(kind, arch.n_kv_heads * arch.head_dim, arch.n_kv_heads * arch.v_head_dim)
            )
    return out


def bytes_per_token_dense(layers: list[LayerKV], elem_bytes: float) -> int:
    """K+V bytes per token over all KV layers at a plain (non-block) element size."""
    return int(sum((layer.k_elems + layer.v_elems) for layer in layers) * elem_bytes)
