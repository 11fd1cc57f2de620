"""vLLM: a fraction of *total* GPU memory, minus what profiling measured, in paged blocks.

Budget (``worker.determine_num_available_blocks`` in V0 0.6.4+, ``gpu_worker`` in V1)::

    requested = total_gpu_memory * gpu_memory_utilization
    available_kv = requested - weights - activation_peak - non_torch_memory

Capacity::

    page_bytes = block_size * sum over KV layers of (K + V elements per GPU) * dtype bytes
    num_blocks = available_kv // page_bytes;  kv_cache_tokens = num_blocks * block_size
    max_concurrency = kv_cache_tokens / max_model_len    ("Maximum concurrency for ...")

MLA models store one latent of ``kv_lora_rank + qk_rope_head_dim`` elements per token
and layer. With tensor parallelism each GPU holds ``n_kv_heads / tp`` heads (one,
replicated, when ``tp > n_kv_heads``).

Activation peak is a heuristic: the profile run pushes ``max_num_batched_tokens``
tokens through the widest MLP, ``2 bytes x (3*intermediate/tp + 3*hidden)`` per token
(calibrated on the Llama-3.1-8B logs of vLLM issue #10517, 0.5% off there; not checked
on other models). In V0, ``max_num_batched_tokens`` is ``max(max_model_len, 2048)``
unless chunked prefill is on, which V0 turns on by default above 32768 tokens, with 512
batched tokens: memory is therefore *not* monotonic in context. V1 always chunks (8192
batched tokens by default). ``non_torch_memory`` (CUDA context, NCCL, cuBLAS) is taken
as 0.5 GiB per GPU unless given; logs show 0.16 to 3.6 GiB.

Hybrid KV cache manager (0.10 and later, models with both full and sliding-window
layers; ``vllm/v1/core/kv_cache_utils.py``): layers are grouped by attention type into
groups of ``group_size`` layers (the fewest layers of one type; the larger count when it
is under 1.5 times the smaller), ``group_size`` tensors are each shared by one layer of
every group, so::

    num_blocks = available_kv // (page_bytes_per_layer * group_size)
    GPU KV cache size = num_blocks // n_groups * block_size
    blocks per request = sum over groups: full  -> cdiv(max_model_len, block_size)
                                          sliding -> cdiv(min(window - 1 + batched, max_model_len), block_size) + 1
    Maximum concurrency = num_blocks / blocks per request

Explicit versions below 0.10 (and the ``v0``/``v1`` labels) keep every layer at full size.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from calculators.dtypes import PAGED_KV_DTYPES, torch_dtype_bytes
from calculators.engines.base import EngineResult, GiB, SettingError, Settings
from calculators.kv import LayerKV, paged_layers
from calculators.models import ModelArch
from calculators.weights import weights_bytes

VERSIONS = {
    "v0": "vLLM V0 engine (0.6.4 to 0.8.x)",
    "v1": "vLLM V1 engine (0.8 and later)",
}
DEFAULT_VERSION = "v1"
CHUNKED_PREFILL_THRESHOLD = 32768  # V0: chunked prefill on by default above this
V0_CHUNKED_BATCH = 512
V1_BATCH = 8192
DEFAULT_UTILIZATION = 0.9
DEFAULT_NON_TORCH = GiB // 2


@lru_cache(maxsize=1024)
def _layers(arch: ModelArch, tp: int) -> tuple[LayerKV, ...]:
    try:
        return tuple(paged_layers(arch, tp))
    except ValueError as exc:
        raise SettingError(str(exc)) from None


@lru_cache(maxsize=4096)
def elem_sums(arch: ModelArch, tp: int) -> tuple[int, int]:
    """(K, V) elements per token summed over KV layers, per GPU."""
    layers = _layers(arch, tp)
    return sum(x.k_elems for x in layers), sum(x.v_elems for x in layers)


def kv_dtype_bytes(arch: ModelArch, kv_dtype: str) -> int:
    d = kv_dtype.strip().lower()
    if d not in PAGED_KV_DTYPES:
        raise SettingError(
            f"unsupported --kv-cache-dtype {kv_dtype!r}; one of {', '.join(PAGED_KV_DTYPES)}"
        )
    return PAGED_KV_DTYPES[d] or torch_dtype_bytes(arch.torch_dtype)


def version_key(version: str | None) -> str:
    v = (version or DEFAULT_VERSION).strip().lower()
    if v in VERSIONS:
        return v
    if v.startswith("0."):
        parts = v.split(".")
        try:
            minor = int(parts[1])
        except (ValueError, IndexError):
            raise SettingError(f"unknown vLLM version {version!r}") from None
        return "v1" if minor >= 8 else "v0"
    raise SettingError(f"unknown vLLM version {version!r}; use v0, v1 or e.g. 0.9.2")


def hybrid_manager(version: str | None) -> bool:
    """Whether an explicit vLLM version has the hybrid KV cache manager (0.10 and later)."""
    v = (version or "").strip().lower().lstrip("v")
    parts = v.split(".")
    if len(parts) < 2 or not parts[0].isdigit() or not parts[1].isdigit():
        return False
    return (int(parts[0]), int(parts[1])) >= (0, 10)


def kv_groups(arch: ModelArch) -> tuple[int, int, int] | None:
    """(group_size, full groups, sliding groups) of the hybrid manager; None if not hybrid."""
    nf, ns = arch.n_full_layers, arch.n_sliding_layers
    if not nf or not ns or arch.n_linear_layers or arch.is_mla:
        return None
    lo, hi = min(nf, ns), max(nf, ns)
    size = hi if hi < lo * 1.5 else lo
    return size, -(-nf // size), -(-ns // size)


def _hybrid_blocks_per_request(
    arch: ModelArch, s: Settings, ver: str, groups: tuple[int, int, int]
) -> int:
    _, n_full, n_swa = groups
    bs = s.block_size
    full = -(-s.context // bs)
    window = arch.sliding_window or s.context
    swa_tokens = min(window - 1 + batched_tokens(s, ver), s.context)
    return n_full * full + n_swa * (-(-swa_tokens // bs) + 1)


def batched_tokens(s: Settings, ver: str) -> int:
    if s.max_num_batched_tokens is not None:
        return s.max_num_batched_tokens
    if ver == "v1":
        return V1_BATCH
    if s.context > CHUNKED_PREFILL_THRESHOLD:
        return V0_CHUNKED_BATCH
    return max(s.context, 2048)


def activation_bytes(arch: ModelArch, s: Settings, ver: str) -> int:
    if s.activation_bytes is not None:
        return s.activation_bytes
    inter = arch.intermediate_size
    if arch.moe is not None:
        inter = max(
            inter if arch.moe.dense_layers else 0,
            arch.moe.expert_intermediate * arch.moe.experts_per_tok,
        )
    per_token = 2 * (3 * inter // s.tp + 3 * arch.hidden_size)
    return batched_tokens(s, ver) * per_token


def page_bytes(arch: ModelArch, s: Settings) -> int:
    k, v = elem_sums(arch, s.tp)
    return s.block_size * (k + v) * kv_dtype_bytes(arch, s.kv_dtype)


def compute(arch: ModelArch, s: Settings) -> EngineResult:
    ver = version_key(s.version)
    if s.context < 1 or s.seqs < 1:
        raise SettingError("context and seqs must be >= 1")
    if s.block_size < 1:
        raise SettingError("block size must be >= 1")
    ke, ve = elem_sums(arch, s.tp)
    eb = kv_dtype_bytes(arch, s.kv_dtype)
    per_token = (ke + ve) * eb
    page = s.block_size * per_token
    w = s.weights_bytes if s.weights_bytes is not None else weights_bytes(arch, s.weights, s.tp)
    util = s.gpu_memory_utilization if s.gpu_memory_utilization is not None else DEFAULT_UTILIZATION
    if not 0 < util <= 1:
        raise SettingError("--gpu-memory-utilization must be in (0, 1]")
    act = activation_bytes(arch, s, ver)
    non_torch = s.non_torch_bytes if s.non_torch_bytes is not None else DEFAULT_NON_TORCH
    budget: int | None
    if s.available_kv_bytes is not None:
        budget = s.available_kv_bytes
    elif s.vram_bytes is not None:
        budget = int(s.vram_bytes * util) - w - act - non_torch
    else:
        budget = None
    groups = kv_groups(arch) if hybrid_manager(s.version) else None
    tokens = None
    concurrency = None
    num_blocks: int | None = None
    need_tokens = s.context * s.seqs
    blocks_needed = -(-need_tokens // s.block_size)
    kv = blocks_needed * page
    k_share = Fraction(ke, ke + ve) if ke + ve else Fraction(0)
    label = VERSIONS[ver]
    if groups is not None:
        # One page per layer per block; all layers of these models share one row size.
        n_kv_layers = len(_layers(arch, s.tp))
        layer_page = page // n_kv_layers
        pool_slot = layer_page * groups[0]
        per_req = _hybrid_blocks_per_request(arch, s, ver, groups)
        kv = per_req * pool_slot * s.seqs
        label = "vLLM V1 engine, hybrid KV cache manager (0.10 and later)"
        if budget is not None:
            num_blocks = max(budget, 0) // pool_slot
            tokens = num_blocks // (groups[1] + groups[2]) * s.block_size
            concurrency = num_blocks / per_req
    elif budget is not None:
        num_blocks = max(budget, 0) // page
        tokens = num_blocks * s.block_size
    k_bytes = int(kv * k_share)
    res = EngineResult(
        engine_version=label,
        kv_bytes=kv,
        k_bytes=k_bytes,
        v_bytes=kv - k_bytes,
        kv_bytes_per_token=per_token,
        weights_bytes=w,
        overhead_bytes=act + non_torch,
        kv_budget_bytes=budget,
        kv_cache_tokens=tokens,
        max_concurrency=concurrency,
        kv_cache_blocks=num_blocks,
        kv_dtype=f"{s.kv_dtype} ({eb} B)",
    )
    if groups is not None:
        res.notes.append(
            f"hybrid KV cache manager: {groups[1]} full and {groups[2]} sliding-window groups "
            f"of {groups[0]} layers; sliding layers hold window + batch tokens per request"
        )
    elif arch.n_sliding_layers:
        res.notes.append("sliding-window layers counted at full size (vLLM < 0.10 layout)")
    if arch.n_linear_layers:
        res.notes.append("recurrent-state layers not modelled for vLLM")
    if arch.is_mla:
        res.notes.append("MLA: one latent of kv_lora_rank + qk_rope_head_dim per token and layer")
    return res
