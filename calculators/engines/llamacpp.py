"""llama.cpp: ``n_ctx`` KV cells per context, block-quantised cache types, iSWA caches.

Per layer llama.cpp allocates a K tensor of ``n_embd_k_gqa x kv_size`` and a V tensor of
``n_embd_v_gqa x kv_size`` elements of the cache type (``ggml_row_size``: q8_0 stores
32 elements in 34 bytes). ``kv_size`` (the "cells" the log prints) depends on the
release; the rules are grouped into eras named after the pull request that changed them:

* ``2024`` (flash-attention PR #5021 to PR #12801): ``n_ctx`` padded to 256 cells with
  flash attention, 32 without; one cache for all layers (no SWA saving); DeepSeek MLA
  stored as decompressed heads (K = n_head*(qk_nope+qk_rope), V = n_head*v_head_dim).
  Logs: ``llama_kv_cache_init`` / ``KV self size``.
* ``2025-04`` (PR #12801): MLA stores the latent, K = kv_lora_rank + qk_rope (576),
  V = kv_lora_rank (512).
* ``2025-05`` (PR #13194): interleaved-SWA models (Gemma 2/3, Cohere2, gpt-oss) get a
  second cache for their sliding layers of ``min(kv_size, PAD(n_swa*n_seq + n_ubatch))``
  cells unless ``--swa-full``. Logs: ``llama_kv_cache_unified: size = ...``.
* ``b5913`` (PR #14363): non-unified caches, one stream of ``n_ctx/n_seq`` cells per
  sequence; the log prints ``seqs`` as ``n_seq/n_stream``.
* ``2025-10`` (PR #16812): no KV padding inside the cache; the per-sequence context is
  padded to 256 and the SWA cache is ``PAD(min(kv_size, n_swa*(unified ? n_seq : 1) +
  n_ubatch), 256)``. Logs: ``llama_kv_cache: size = ...``.

The compute buffer is the peak of ggml's graph allocator over one micro-batch of ``n_ubatch``
tokens (``compute_bytes``): the output step (the f32 logits, ``n_vocab x n_ubatch``, written while
the normalised hidden state they are projected from is alive) or, without flash attention, an
attention step (the f32 KQ matrix, ``n_kv x n_ubatch x n_head``, with the KQ mask, the layer's
input, Q and KQV alive; families that load one fused QKV weight also hold that projection).
Checked against llama.cpp's CI logs (data/llamacpp_context.yaml); estimated for graphs those
logs do not show (mixture of experts, sliding windows, newer builds).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from calculators.dtypes import LLAMA_CPP_CACHE_TYPES, ggml_type
from calculators.engines.base import EngineResult, GiB, SettingError, Settings
from calculators.gguf import file_type_of, model_buffers
from calculators.kv import LayerKV, llamacpp_layers
from calculators.models import SLIDING, ModelArch
from calculators.weights import weights_bytes

# Families llama.cpp runs with an iSWA cache (interleaved local/global attention).
ISWA_FAMILIES = frozenset({"gemma2", "gemma3", "gemma3_text", "gemma3n", "cohere2", "gpt_oss"})


@dataclass(frozen=True, slots=True)
class Era:
    key: str
    label: str
    mla_latent: bool
    iswa: bool
    streams: bool
    kv_pad: bool  # True: pad kv_size to 256 (FA) / 32; False: pad per-seq context to 256
    # `-fa` unset means `auto` (on where the GPU backend supports it) rather than off: the flag
    # became on/off/auto with auto the default by b6343 (WasmEdge's bump to b6343, PR #4343,
    # maps the new string type; llama.cpp issue #27086 calls `-fa auto` the default).
    fa_auto: bool = False


ERAS: dict[str, Era] = {
    e.key: e
    for e in (
        Era("2024", "llama.cpp 2024 to PR #12801 (KV self size logs)", False, False, False, True),
        Era("2025-04", "llama.cpp PR #12801 (MLA latent cache)", True, False, False, True),
        Era("2025-05", "llama.cpp PR #13194 (iSWA cache)", True, True, False, True),
        Era("b5913", "llama.cpp b5913, PR #14363 (per-sequence streams)", True, True, True, True),
        Era("b6343", "llama.cpp b6343 (-fa auto by default)", True, True, True, True, True),
        Era(
            "2025-10",
            "llama.cpp PR #16812 (no KV padding, -fa auto)",
            True,
            True,
            True,
            False,
            True,
        ),
    )
}
DEFAULT_ERA = "2025-10"


def era(version: str | None) -> Era:
    if version is None:
        return ERAS[DEFAULT_ERA]
    v = version.strip().lower()
    if v.startswith("b") and v[1:].isdigit():
        build = int(v[1:])
        # b5913 (issue #14847) and b6343 are anchored to build numbers. Below them two builds
        # are known from Ollama's vendored copies (Makefile.sync): b4779 (d7cfe1ff, Ollama
        # 0.6.0) has neither the MLA latent cache nor the iSWA cache, b5359 (de4c07f9, Ollama
        # 0.7.0) has the latent cache and no iSWA cache. Builds between the known ones take
        # the later era.
        if build >= 6343:
            return ERAS["b6343"]
        if build >= 5913:
            return ERAS["b5913"]
        if build > 5359:
            return ERAS["2025-05"]
        return ERAS["2025-04"] if build > 4779 else ERAS["2024"]
    if v in ERAS:
        return ERAS[v]
    raise SettingError(
        f"unknown llama.cpp version {version!r}; use one of {', '.join(ERAS)} or bNNNN"
    )


def _pad(n: int, p: int) -> int:
    return (n + p - 1) // p * p


@lru_cache(maxsize=512)
def _layers(arch: ModelArch, mla_latent: bool) -> tuple[LayerKV, ...]:
    return tuple(llamacpp_layers(arch, mla_latent=mla_latent))


def cache_type(name: str) -> str:
    t = name.strip().lower()
    if t not in LLAMA_CPP_CACHE_TYPES:
        raise SettingError(
            f"unsupported cache type {name!r}; one of {', '.join(LLAMA_CPP_CACHE_TYPES)}"
        )
    return t


def quantised(cache_type_v: str) -> bool:
    """A quantised V cache, which needs flash attention whatever `-fa` says."""
    return cache_type(cache_type_v) not in ("f32", "f16", "bf16")


def cell_pad(e: Era, flash_attn: bool) -> int:
    """What a stream's cells are padded to: kv_size to 256 (FA) or 32 before PR #16812,
    the per-sequence context to 256 since."""
    return (256 if flash_attn else 32) if e.kv_pad else 256


@dataclass(frozen=True, slots=True)
class Cells:
    base: int  # cells of the full-attention cache (all streams)
    swa: int  # cells of the SWA cache (all streams); 0 when no iSWA cache
    streams: int
    printed_base: int  # what the log prints as "cells" (per stream)
    printed_swa: int


def cells_for(
    arch: ModelArch,
    e: Era,
    flash_attn: bool,
    context: int,
    n_seq: int,
    kv_unified: bool | None,
    swa_full: bool,
    n_ubatch: int,
) -> Cells:
    n_ctx = context * n_seq  # llama.cpp's -c is the total over all sequences
    if not e.streams:
        unified = True
    elif kv_unified is not None:
        unified = kv_unified
    else:
        unified = n_seq == 1 or not e.kv_pad
    streams = 1 if unified else n_seq
    pad = cell_pad(e, flash_attn)
    per_stream = _pad(n_ctx // streams, pad)
    iswa = e.iswa and arch.model_type in ISWA_FAMILIES and arch.n_sliding_layers > 0
    swa = 0
    if iswa and not swa_full:
        want = (arch.sliding_window or 0) * (n_seq if unified else 1) + n_ubatch
        swa = min(per_stream, _pad(want, pad)) if e.kv_pad else _pad(min(per_stream, want), pad)
    elif iswa:
        swa = per_stream
    return Cells(per_stream * streams, swa * streams, streams, per_stream, swa)


def kv_cells(arch: ModelArch, s: Settings, e: Era, flash_attn: bool) -> Cells:
    return cells_for(arch, e, flash_attn, s.context, s.seqs, s.kv_unified, s.swa_full, ubatch(s))


@lru_cache(maxsize=2048)
def row_sums(
    arch: ModelArch, mla_latent: bool, type_k: str, type_v: str
) -> tuple[int, int, int, int]:
    """Bytes per cell summed over layers: (K full, V full, K sliding, V sliding)."""
    tk = ggml_type(cache_type(type_k))
    tv = ggml_type(cache_type(type_v))
    kf = vf = ks = vs = 0
    for layer in _layers(arch, mla_latent):
        kb = tk.row_bytes(layer.k_elems)
        vb = tv.row_bytes(layer.v_elems) if layer.v_elems else 0
        if layer.kind == SLIDING:
            ks += kb
            vs += vb
        else:
            kf += kb
            vf += vb
    return kf, vf, ks, vs


def ubatch(s: Settings) -> int:
    """llama.cpp clamps the micro-batch to the logical batch (``n_ubatch <= n_batch``)."""
    if s.n_ubatch < 1 or s.n_batch < 1:
        raise SettingError("--ubatch-size and --batch-size must be >= 1")
    return min(s.n_ubatch, s.n_batch)


def gpu_layers(arch: ModelArch, s: Settings) -> int:
    """Repeating layers on the GPU (``-ngl``; None or more than the model has: all)."""
    if s.n_gpu_layers is None:
        return arch.n_layers
    if s.n_gpu_layers < 0:
        raise SettingError("--n-gpu-layers must be >= 0")
    return min(s.n_gpu_layers, arch.n_layers)


# Families whose llama.cpp graph projects Q, K and V with one fused weight (attn_qkv), so the
# whole projection is alive next to the KQ matrix.
FUSED_QKV_FAMILIES = frozenset(
    {"gpt_neox", "phi", "phi3", "falcon", "bloom", "mpt", "gpt2", "starcoder", "chatglm"}
)
KQ_MASK_PAD = 32  # GGML_KQ_MASK_PAD: the mask's token dimension is padded to this


def compute_bytes(arch: ModelArch, n_ubatch: int, n_kv: int) -> int:
    """The compute buffer's peak for one micro-batch; ``n_kv`` 0 with flash attention.

    Output step: f32 logits plus the hidden state they are projected from. Attention step
    (without flash attention): KQ, the KQ mask, the layer's input, Q and KQV (and a fused QKV
    projection). llama.cpp's CI logs (b1619 to b4937, Open LLaMA 7B and Pythia 2.8B) print
    70.50, 103.25, 156.00 and 162.00 MiB where this gives the same to the hundredth.
    """
    f32 = 4
    hidden = n_ubatch * arch.hidden_size * f32
    output = n_ubatch * arch.vocab_size * f32 + hidden
    if not n_kv:
        return output
    q = n_ubatch * arch.n_heads * arch.head_dim * f32
    kqv = n_ubatch * arch.n_heads * arch.v_head_dim * f32
    kq = n_kv * n_ubatch * arch.n_heads * f32
    mask = n_kv * _pad(n_ubatch, KQ_MASK_PAD) * f32
    attention = kq + mask + hidden + q + kqv
    if arch.model_type in FUSED_QKV_FAMILIES:
        kv_heads = arch.n_kv_heads * (arch.head_dim + arch.v_head_dim)
        attention += n_ubatch * (arch.n_heads * arch.head_dim + kv_heads) * f32
    return max(output, attention)


@dataclass(frozen=True, slots=True)
class _Fixed:
    """What a setting fixes before the context and the sequence count are known."""

    era: Era
    fa: bool
    ubatch: int
    rows: tuple[int, int, int, int]  # bytes per cell: K full, V full, K sliding, V sliding
    weights: int  # on the GPU, before the -ngl share
    host: int  # token embeddings kept in host memory (GGUF file types)
    file_type: str | None
    ngl: int
    state_per_seq: int


def _fixed(arch: ModelArch, s: Settings) -> _Fixed:
    """Validates ``s`` (raising ``SettingError``) and computes its context-free parts."""
    return _fixed_of(
        arch,
        s.version,
        s.tp,
        s.flash_attn,
        s.cache_type_k,
        s.cache_type_v,
        s.weights,
        s.weights_bytes,
        ubatch(s),
        gpu_layers(arch, s),
    )


# The solvers call `compute` and `total_fn` many times per setting; the arguments are the
# only fields of a setting the fixed parts read, so the cache cannot go stale.
@lru_cache(maxsize=4096)
def _fixed_of(
    arch: ModelArch,
    version: str | None,
    tp: int,
    flash_attn: bool | None,
    cache_type_k: str,
    cache_type_v: str,
    weights: str,
    weights_given: int | None,
    n_ubatch: int,
    ngl: int,
) -> _Fixed:
    e = era(version)
    if tp != 1:
        raise SettingError("llama.cpp splits layers across GPUs; use --tp 1 with --vram-gib total")
    fa = bool(flash_attn) or (flash_attn is None and e.fa_auto)
    quant_v = quantised(cache_type_v)
    if quant_v and flash_attn is False:
        raise SettingError("llama.cpp needs flash attention (-fa) for a quantised V cache")
    if quant_v and flash_attn is None:
        fa = True
    try:
        file_type = file_type_of(weights, arch) if weights_given is None else None
        w = weights_given if weights_given is not None else weights_bytes(arch, weights)
    except ValueError as exc:
        raise SettingError(str(exc)) from None
    host = 0
    if file_type is not None:
        # llama.cpp keeps the token embeddings in host memory (the CPU_Mapped buffer).
        w, host = model_buffers(arch, file_type)
    return _Fixed(
        era=e,
        fa=fa,
        ubatch=n_ubatch,
        rows=row_sums(arch, e.mla_latent, cache_type_k, cache_type_v),
        weights=w,
        host=host,
        file_type=file_type,
        ngl=ngl,
        state_per_seq=arch.n_linear_layers * arch.linear_state_elems * 4,
    )


def _parts(
    arch: ModelArch, s: Settings, f: _Fixed, context: int, seqs: int
) -> tuple[int, int, int, int, int, Cells]:
    """(weights, K, V, state, compute buffer, cells) on the GPU; their sum is the total.

    Each layer's weights, KV and state live on the device its layer is assigned to."""
    cells = cells_for(arch, f.era, f.fa, context, seqs, s.kv_unified, s.swa_full, f.ubatch)
    kf, vf, ks, vs = f.rows
    n_swa = cells.swa if cells.swa else cells.base
    n, ngl = arch.n_layers, f.ngl
    return (
        f.weights * ngl // n,
        (kf * cells.base + ks * n_swa) * ngl // n,
        (vf * cells.base + vs * n_swa) * ngl // n,
        f.state_per_seq * seqs * ngl // n,
        compute_bytes(arch, f.ubatch, 0 if f.fa else cells.base // cells.streams),
        cells,
    )


def compute(arch: ModelArch, s: Settings) -> EngineResult:
    if s.context < 1 or s.seqs < 1:
        raise SettingError("context and seqs must be >= 1")
    f = _fixed(arch, s)
    w, k, v, state, compute_b, cells = _parts(arch, s, f, s.context, s.seqs)
    kf, vf, ks, vs = f.rows
    res = EngineResult(
        engine_version=f.era.label,
        kv_bytes=k + v,
        k_bytes=k,
        v_bytes=v,
        kv_bytes_per_token=kf + vf + ks + vs,
        state_bytes=state,
        weights_bytes=w,
        overhead_bytes=compute_b,
        cells=cells.printed_base,
        cells_swa=cells.printed_swa or None,
        kv_dtype=f"K {cache_type(s.cache_type_k)}, V {cache_type(s.cache_type_v)}",
    )
    e, ngl, file_type, host = f.era, f.ngl, f.file_type, f.host
    # The note depends on the era, not only the family: before the iSWA cache (PR #13194)
    # llama_kv_cache_init loops over all n_layer layers and makes each one
    # `k = ggml_new_tensor_1d(ctx, type_k, n_embd_k_gqa*kv_size)` with no window check
    # (that era's code as kept in ik_llama.cpp src/llama.cpp at 00063b7d), so Gemma 2 and
    # the other ISWA_FAMILIES also kept their sliding layers at full size then.
    if arch.n_sliding_layers and not (e.iswa and arch.model_type in ISWA_FAMILIES):
        res.notes.append("llama.cpp allocates this model's sliding-window layers at full size")
    if s.flash_attn is None and e.fa_auto and not quantised(s.cache_type_v):
        res.notes.append(
            "-fa auto, this release's default, turns flash attention on where the GPU backend "
            "supports it (CUDA, ROCm, Metal, Vulkan): no KQ matrix in the compute buffer; "
            "--no-flash-attn for a backend without it"
        )
    if file_type is not None:
        res.notes.append(
            f"GGUF {file_type}: each tensor in the type llama-quantize gives it; the token "
            f"embeddings ({host / GiB:.2f} GiB) stay in host memory"
        )
    if ngl < arch.n_layers:
        res.notes.append(
            f"-ngl {ngl}: weights and KV of {ngl} of {arch.n_layers} layers on the GPU "
            "(the rest, and the output layer, in CPU memory); figures are per GPU-side share"
        )
    if s.vram_bytes is not None:
        res.kv_budget_bytes = s.vram_bytes - w - compute_b - state
    return res


def context_quantum(arch: ModelArch, s: Settings) -> int:
    """Tokens of context per KV cell step with one sequence: ``compute`` gives the same
    total for every context in ``(k*q, (k+1)*q]``, so a solver need only try multiples."""
    f = _fixed(arch, s)
    return cell_pad(f.era, f.fa)


def total_fn(arch: ModelArch, s: Settings) -> Callable[[int, int], int]:
    """Total bytes as a function of (context, seqs), for fast solvers: the same sum as
    ``compute(...).total_bytes`` at that context and sequence count.

    Validates ``s`` (raising ``SettingError``).
    """
    f = _fixed(arch, s)

    def total(context: int, seqs: int) -> int:
        w, k, v, state, compute_b, _ = _parts(arch, s, f, context, seqs)
        return w + k + v + state + compute_b

    return total
