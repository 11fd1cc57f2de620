"""GGUF files as llama.cpp quantises and loads them.

Which ggml type each tensor of a file type gets is ``llama_tensor_get_type`` (src/llama-quant.cpp
at b4343; the same rules in b4896 and, for LLaMA, in b1832's llama.cpp): the file type's base
type everywhere, except

* ``output.weight``: q6_K (q8_0 in a Q8_0 file, f16 in an F16 file);
* ``attn_v`` and ``ffn_down`` of Q4_K_M / Q5_K_M: q6_K on the "more bits" layers (the first
  and last eighth, and every third layer between), else the base type;
* Q2_K: ``attn_output`` and ``ffn_down`` in q3_K, ``attn_v`` in q3_K (q4_K with four or more
  query heads per KV head); Q3_K_M: ``attn_v`` q5_K in the first two layers and q4_K after,
  ``attn_output`` q4_K, ``ffn_down`` q5_K in the first sixteenth and q4_K after;
* an 80-layer grouped-query model (llama.cpp's LLM_TYPE_70B): ``attn_v`` q5_K where the rules
  above give q3_K or q4_K;
* GPT-NeoX's fused ``attn_qkv``: q5_K in Q4_K_M, q6_K in Q5_K_M, q4_K in Q3_K_M;
* norms and biases stay f32; a row that does not fill a type's blocks falls back (q2_K/q3_K to
  q4_0, q4_K to q5_0, q5_K to q5_1, q6_K to q8_0, then f16).

Where they go (``llama_model_load``): the token embeddings stay in host memory (the
``CPU_Mapped`` buffer, mapped from the file); everything else goes to the GPU with every layer
offloaded, each tensor padded to 128 bytes, and a quantised tensor whose rows are not a
multiple of 512 elements gets one padded row more (``MATRIX_ROW_PADDING``). These reproduce the
``CUDA0`` and ``CPU_Mapped`` model buffer sizes llama.cpp's CI printed for every file type of
pythia-2.8b and open-llama-7b-v2 (``data/llamacpp_buffers.yaml``). Those are models with as
many KV heads as query heads, so the grouped-query rules above are read from the source
(src/llama-quant.cpp) but not checked on a log; the logs' tensor sizes are multiples of 128
bytes and 512 elements, so they do not exercise the two paddings either. Later builds route
GPT-NeoX's ``attn_qkv`` through the ``attn_v`` rule; the b4343 rule is the one modelled.
"""

from __future__ import annotations

from dataclasses import dataclass

from calculators.dtypes import GGML_TYPES
from calculators.models import ModelArch

# File type -> base ggml type (llama_model_quantize_internal's default_type).
FILE_TYPES: dict[str, str] = {
    "F16": "f16",
    "Q8_0": "q8_0",
    "Q4_0": "q4_0",
    "Q4_1": "q4_1",
    "Q5_0": "q5_0",
    "Q5_1": "q5_1",
    "Q2_K": "q2_k",
    "Q3_K_M": "q3_k",
    "Q4_K_M": "q4_k",
    "Q5_K_M": "q5_k",
    "Q6_K": "q6_k",
}
# The names a --weights value may use for a file type: the mixed ones. Q4_0, Q8_0, F16, Q2_K
# and Q6_K name a ggml type too, and there `--weights gguf-q4_0` keeps meaning that one type
# for every tensor (calculators/weights.py).
MIXED_FILE_TYPES = tuple(t for t in FILE_TYPES if t.lower() not in GGML_TYPES)
_FALLBACK = {"q2_k": "q4_0", "q3_k": "q4_0", "q4_k": "q5_0", "q5_k": "q5_1", "q6_k": "q8_0"}
TENSOR_ALIGN = 128  # ggml_backend_cuda_buffer_type_get_alignment
MATRIX_ROW_PADDING = 512  # ggml-cuda: quantised rows are padded to this many elements


# Dense families whose llama.cpp layers carry f32 vectors besides the two norms
# (src/llama-model.cpp, llama_model::load_tensors): Qwen2's Q, K and V biases, Qwen3's
# per-head Q and K norms.
QKV_BIAS_FAMILIES = frozenset({"qwen2"})
QK_NORM_FAMILIES = frozenset({"qwen3"})


@dataclass(frozen=True, slots=True)
class Tensor:
    kind: str  # token_embd, output, attn_qkv, attn_q ... ffn_down, or "norm" for f32 vectors
    layer: int  # -1 outside the repeating layers
    ne0: int  # row length (elements)
    ne1: int = 1  # rows


def tensors(arch: ModelArch) -> list[Tensor]:
    """The tensors of a dense LLaMA-style or GPT-NeoX GGUF (no MoE, MLA or recurrent layers)."""
    if arch.moe is not None or arch.mla is not None or arch.n_linear_layers:
        raise ValueError(f"{arch.id}: only dense attention models have a GGUF layout here")
    h, ff, v = arch.hidden_size, arch.intermediate_size, arch.vocab_size
    q, kv = arch.n_heads * arch.head_dim, arch.n_kv_heads * arch.head_dim
    neox = arch.model_type == "gpt_neox"
    out = [Tensor("token_embd", -1, h, v), Tensor("norm", -1, h)]
    out += [Tensor("norm", -1, h)] if neox else []  # output_norm bias
    if not arch.tie_word_embeddings:
        out.append(Tensor("output", -1, h, v))
    for i in range(arch.n_layers):
        if neox:  # LayerNorm weights and biases, and a bias on every linear
            out += [Tensor("norm", i, h) for _ in range(4)]
            out += [Tensor("attn_qkv", i, h, q + 2 * kv), Tensor("norm", i, q + 2 * kv)]
            out += [Tensor("attn_output", i, q, h), Tensor("norm", i, h)]
            out += [Tensor("ffn_up", i, h, ff), Tensor("norm", i, ff)]
            out += [Tensor("ffn_down", i, ff, h), Tensor("norm", i, h)]
        else:
            out += [Tensor("norm", i, h), Tensor("norm", i, h)]
            if arch.model_type in QKV_BIAS_FAMILIES:  # bq, bk, bv
                out += [Tensor("norm", i, h), Tensor("norm", i, kv), Tensor("norm", i, kv)]
            if arch.model_type in QK_NORM_FAMILIES:  # attn_q_norm, attn_k_norm per head
                out += [Tensor("norm", i, arch.head_dim), Tensor("norm", i, arch.head_dim)]
            out += [Tensor("attn_q", i, h, q), Tensor("attn_k", i, h, kv)]
            out += [Tensor("attn_v", i, h, kv), Tensor("attn_output", i, q, h)]
            out += [Tensor("ffn_gate", i, h, ff), Tensor("ffn_up", i, h, ff)]
            out += [Tensor("ffn_down", i, ff, h)]
    return out


def _more_bits(i: int, n: int) -> bool:
    return i < n // 8 or i >= 7 * n // 8 or (i - n // 8) % 3 == 2


def tensor_type(file_type: str, t: Tensor, arch: ModelArch) -> str:
    """The ggml type `file_type` gives tensor `t` of `arch` (before the block-size fallback)."""
    n_layers, tied = arch.n_layers, arch.tie_word_embeddings
    gqa = arch.n_heads // max(arch.n_kv_heads, 1)
    base = FILE_TYPES[file_type]
    if t.kind == "norm":
        return "f32"
    if base == "f16":
        return base
    # A model with tied embeddings has no output.weight, and its token embeddings take the
    # output's rule (`!qs.has_output && name == token_embd`).
    if t.kind == "output" or (t.kind == "token_embd" and tied):
        return "q8_0" if base == "q8_0" else "q6_k"
    if t.kind == "token_embd":
        return base
    i = t.layer
    if t.kind == "attn_v":
        new = _attn_v(file_type, base, i, n_layers, gqa)
        # An 80-layer grouped-query model is llama.cpp's LLM_TYPE_70B, whose small attn_v
        # gets more bits.
        if n_layers == 80 and gqa > 1 and new in ("q3_k", "q4_k"):
            return "q5_k"
        return new
    if file_type == "Q2_K" and t.kind in ("attn_output", "ffn_down"):
        return "q3_k"
    if file_type == "Q3_K_M":
        if t.kind in ("attn_output", "attn_qkv"):
            return "q4_k"
        if t.kind == "ffn_down":
            return "q5_k" if i < n_layers // 16 else "q4_k"
    if file_type in ("Q4_K_M", "Q5_K_M"):
        if t.kind == "attn_qkv":
            return "q5_k" if file_type == "Q4_K_M" else "q6_k"
        if t.kind == "ffn_down" and _more_bits(i, n_layers):
            return "q6_k"
    return base


def _attn_v(file_type: str, base: str, i: int, n_layers: int, gqa: int) -> str:
    if file_type == "Q2_K":
        return "q4_k" if gqa >= 4 else "q3_k"
    if file_type == "Q3_K_M":
        return "q5_k" if i < 2 else "q4_k"
    if file_type in ("Q4_K_M", "Q5_K_M") and _more_bits(i, n_layers):
        return "q6_k"
    return base


def _fits(type_name: str, t: Tensor) -> str:
    while t.ne0 % GGML_TYPES[type_name].block_size:
        type_name = _FALLBACK.get(type_name, "f16")
    return type_name


def _up(x: int, m: int) -> int:
    return -(-x // m) * m


def file_type_of(weights: str, arch: ModelArch) -> str | None:
    """The mixed GGUF file type a --weights value names (gguf-q4_k_m -> Q4_K_M), for a model
    whose GGUF layout is modelled here (dense attention models); else None."""
    name = weights.strip().upper().removeprefix("GGUF-")
    if name not in MIXED_FILE_TYPES:
        return None
    if arch.moe is not None or arch.mla is not None or arch.n_linear_layers:
        raise ValueError(
            f"GGUF file type {name} is modelled for dense models only; for {arch.id} give "
            "a ggml type (e.g. gguf-q4_k) or the weights from the log (--weights-gib)"
        )
    return name


def model_buffers(arch: ModelArch, file_type: str, *, aligned: bool = True) -> tuple[int, int]:
    """(GPU bytes, host bytes) of the model buffers with every layer offloaded.

    `aligned`: ggml-backend's per-tensor padding (b1832's CUDA path printed the plain sum)."""
    if file_type not in FILE_TYPES:
        raise ValueError(f"unknown GGUF file type {file_type!r}; one of {', '.join(FILE_TYPES)}")
    gpu = host = 0
    tied = arch.tie_word_embeddings
    for t in tensors(arch):
        kind = _fits(tensor_type(file_type, t, arch), t)
        st = GGML_TYPES[kind]
        size = st.row_bytes(t.ne0) * t.ne1
        if t.kind == "token_embd":
            host += size
            if not tied:
                continue
            # The output layer reads the same matrix, so llama.cpp loads a duplicate of it on
            # the GPU (TENSOR_DUPLICATED).
        if aligned:
            if st.block_size > 1 and t.ne0 % MATRIX_ROW_PADDING:
                size += st.row_bytes(MATRIX_ROW_PADDING - t.ne0 % MATRIX_ROW_PADDING)
            size = _up(size, TENSOR_ALIGN)
        gpu += size
    return gpu, host


def stored_tensors(arch: ModelArch, file_type: str) -> list[tuple[Tensor, int]]:
    """Each tensor with its bytes as the file stores it (no padding)."""
    out = []
    for t in tensors(arch):
        kind = _fits(tensor_type(file_type, t, arch), t)
        out.append((t, GGML_TYPES[kind].row_bytes(t.ne0) * t.ne1))
    return out


def file_bytes(arch: ModelArch, file_type: str) -> int:
    """The tensors' bytes as the file stores them (each once, no padding)."""
    return sum(size for _, size in stored_tensors(arch, file_type))


def type_counts(arch: ModelArch, file_type: str) -> dict[str, int]:
    """How many tensors of each ggml type the file holds (llama_model_loader's '- type' lines)."""
    counts: dict[str, int] = {}
    for t in tensors(arch):
        kind = _fits(tensor_type(file_type, t, arch), t)
        counts[kind] = counts.get(kind, 0) + 1
    return counts
