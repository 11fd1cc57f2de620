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

Activation peak, V0: the profile run pushes ``max_num_batched_tokens`` tokens through the
widest MLP, ``2 bytes x (3*intermediate/tp + 3*hidden)`` per token (calibrated on the
Llama-3.1-8B logs of vLLM issue #10517). In V0, ``max_num_batched_tokens`` is
``max(max_model_len, 2048)`` unless chunked prefill is on, which V0 turns on by default
above 32768 tokens, with 512 batched tokens: memory is therefore *not* monotonic in context.

Activation peak, V1 (0.8.5 to 0.11, ``GPUModelRunner.profile_run``): a dummy forward of
``max_num_batched_tokens`` tokens, then a dummy *sampler* run on
``N = min(max_num_seqs, max_num_batched_tokens)`` rows of full-vocabulary logits with
temperature, top-k and top-p all on. The PyTorch top-k/top-p path
(``apply_top_k_top_p``) holds, per logit: the model-dtype logits (2 B), their float32 copy
(4), the sorted values (4) and int64 indices (8), and CUDA's segmented sort of a row longer than
4096 allocates a second copy of keys and int64 values (4 + 8) and its own index buffer (8):
38 bytes at the sort (28 afterwards, at the scatter). FlashInfer's sampler keeps 2 + 4 + 4 + 4
= 14. Which one runs: before 0.11.1 FlashInfer's whenever FlashInfer is installed (the vLLM
Docker image; a plain pip install has none), from 0.11.1 PyTorch's unless
``VLLM_USE_FLASHINFER_SAMPLER=1`` (``topk_topp_sampler.py``). So with ``vllm serve`` on an H100 (``max_num_seqs`` 1024) and a 152k vocabulary the
sampler alone peaks at 4 GiB whatever the model size. Defaults
(``EngineArgs._set_default_args``): on a device of 70 GiB or more (from 0.9, not an A100)
``max_num_batched_tokens`` is 8192 for ``vllm serve`` and 16384 for the ``LLM`` class,
``max_num_seqs`` 1024; otherwise 2048 / 8192 and 256.

``non_torch_memory`` in V1 is the *increase* since the worker started (cuBLAS workspaces,
NCCL and custom all-reduce buffers); the CUDA context itself was already in use at start and
does not reduce the budget. CUDA graphs are captured after the KV cache is allocated and are
not subtracted (0.10, 0.11): they use memory beyond ``gpu_memory_utilization``.

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

from functools import lru_cache

from calculators.dtypes import PAGED_KV_DTYPES, torch_dtype_bytes
from calculators.engines.base import EngineResult, GiB, SettingError, Settings, parse_release
from calculators.engines.vllm_weights import mxfp4_backend, vllm_weights_bytes
from calculators.kv import LayerKV, paged_layers
from calculators.models import ModelArch

VERSIONS = {
    "v0": "vLLM V0 engine (0.6.4 to 0.8.x)",
    "v1": "vLLM V1 engine (0.8 and later; defaults and profile run as read in 0.10 and 0.11)",
}
DEFAULT_VERSION = "v1"
CHUNKED_PREFILL_THRESHOLD = 32768  # V0: chunked prefill on by default above this
V0_CHUNKED_BATCH = 512
DEFAULT_UTILIZATION = 0.9
# 0.20.0 raised the default (config/cache.py) and began subtracting its CUDA graph estimate.
UTILIZATION_092_FROM = (0, 20, 0)
DEFAULT_NON_TORCH = GiB // 2
# Bytes held per logit at the sampler's peak (see the module docstring).
# "triton": the in-place top-k/top-p kernel of 0.17+ (no full sort), "none": Model Runner
# V2's dummy sampler run, which skips top-k/top-p until 0.33 (the logits alone).
SAMPLER_BYTES_PER_LOGIT = {"native": 38, "flashinfer": 14, "triton": 14, "none": 2}
# From this release FlashInfer's top-k/top-p sampler is opt-in (VLLM_USE_FLASHINFER_SAMPLER).
NATIVE_SAMPLER_FROM = (0, 11, 1)
# From this release rows of 8 or more go through the Triton kernel (topk_topp_triton.py).
TRITON_SAMPLER_FROM = (0, 17, 0)
# Model Runner V2 by default: every dense model without sliding-window or recurrent layers
# from 0.25, every model from 0.29; its profile run skips top-k/top-p before 0.33.
V2_DENSE_FROM, V2_ALL_FROM, V2_SAMPLER_FROM = (0, 25, 0), (0, 29, 0), (0, 33, 0)
# From 0.27 the profiler charges everything the worker holds since it started
# (utils/mem_utils.py: total_consumed, the drop in free memory, plus the transient torch
# peak); 0.26 and earlier charged weights + torch peak increase + non-torch increase, which
# misses tensors allocated between loading and profiling.
TOTAL_CONSUMED_FROM = (0, 27, 0)
# V1's non-torch *increase* since the worker started (cuBLAS workspaces; NCCL and custom
# all-reduce buffers with TP), calibrated on the two calibration logs of
# data/startup_logs.yaml that print every other part of the budget (Qwen2-7B on A100s,
# vLLM 0.10.1.1: 0.03 GiB at TP 1, 0.15 GiB at TP 2).
V1_NON_TORCH = {1: GiB * 5 // 100, 2: GiB * 15 // 100}
# From 0.11 V1 captures full CUDA graphs by default (FULL_AND_PIECEWISE; 0.10 defaulted to
# PIECEWISE, config/__init__.py), and every calibration log from then on charges more non-KV
# memory than weights + activation peak + the figures above: +0.67 GiB (0.11.2, H200),
# +0.55 (0.19.0, A100 80GB), +0.36 and +0.29 (0.19.1, A100 40GB), +0.45 (0.26.0, RTX
# A4000), none with --enforce-eager. Their median, counted as non-torch memory; which
# allocation it is was not found in the source.
FULL_GRAPHS_FROM = (0, 11, 0)
FULL_GRAPHS_EXTRA = GiB * 45 // 100
LATEST = (0, 11)


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


@lru_cache(maxsize=256)  # a pure function of a string the grid asks 60,000 times
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


@lru_cache(maxsize=256)
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


def pool_varies_with_context(arch: ModelArch, s: Settings) -> bool:
    """Whether ``compute``'s pool (KV tokens, concurrency) depends on ``s.context``: V0 sizes
    its profile batch by it, the hybrid manager its blocks per request; V1 otherwise not."""
    return version_key(s.version) == "v0" or (
        hybrid_manager(s.version) and kv_groups(arch) is not None
    )


def release(version: str | None) -> tuple[int, int]:
    """(major, minor) of an explicit release; the newest modelled one for labels."""
    v = (version or "").strip().lower().lstrip("v")
    parts = v.split(".")
    if len(parts) >= 2 and parts[0].isdigit() and parts[1].isdigit():
        return int(parts[0]), int(parts[1])
    return (0, 7) if version_key(version) == "v0" else LATEST


@lru_cache(maxsize=256)
def _release3(version: str | None) -> tuple[int, int, int] | None:
    return parse_release(version)


def runner_v2(arch: ModelArch | None, s: Settings) -> bool:
    """Whether the release runs this model on Model Runner V2 by default (0.22 to 0.24 took
    a few families first; they are modelled with V1 here)."""
    r = _release3(s.version)
    if r is None or arch is None:
        return False
    if r >= V2_ALL_FROM:
        return True
    plain = arch.moe is None and not arch.n_sliding_layers and not arch.n_linear_layers
    return r >= V2_DENSE_FROM and plain


def sampler_of(s: Settings, arch: ModelArch | None = None) -> str:
    """The sampler the profile run warms up: the user's choice, or the release's default."""
    if s.sampler != "auto":
        return s.sampler
    r = _release3(s.version)
    if r is None or r < NATIVE_SAMPLER_FROM:
        return "flashinfer"  # the vLLM Docker image, which the calibration logs ran
    if runner_v2(arch, s) and r < V2_SAMPLER_FROM:
        return "none"
    if r < TRITON_SAMPLER_FROM:
        return "native"
    tokens, seqs = v1_defaults(s)
    return "triton" if min(seqs, tokens) >= 8 else "native"


def default_utilization(s: Settings) -> float:
    r = _release3(s.version)
    return 0.92 if r is not None and r >= UTILIZATION_092_FROM else DEFAULT_UTILIZATION


def cuda_graphs_subtracted(arch: ModelArch, s: Settings) -> bool:
    """Whether the release takes its CUDA graph estimate out of the KV budget (0.20 on the V1
    runner, every runner from 0.29); never with --enforce-eager."""
    r = _release3(s.version)
    if s.enforce_eager or r is None or r < UTILIZATION_092_FROM:
        return False
    return r >= V2_ALL_FROM or not runner_v2(arch, s)


def v2_sampler_state_bytes(arch: ModelArch, s: Settings, seqs: int) -> int:
    """Model Runner V2's per-request penalty state, charged to the KV budget from 0.27.

    ``sample/penalties.py`` (0.24 to 0.33) allocates, for every request slot
    (``max_num_seqs``) and on every GPU, ``output_bin_counts`` (int32, one per vocabulary
    entry) and ``prompt_bin_mask`` (int32, one bit per entry), whether or not any request
    uses a penalty. The sampler is built after the weights are measured, so only the
    releases that charge everything the worker holds count it."""
    r = _release3(s.version)
    if r is None or r < TOTAL_CONSUMED_FROM or not runner_v2(arch, s):
        return 0
    return seqs * (arch.vocab_size + -(-arch.vocab_size // 32)) * 4


def full_graphs_extra(s: Settings) -> int:
    """The non-KV memory calibration logs show beyond the modelled parts from 0.11, when
    full CUDA graphs became the default (see FULL_GRAPHS_EXTRA); none with --enforce-eager."""
    r = _release3(s.version)
    if s.enforce_eager or r is None or r < FULL_GRAPHS_FROM:
        return 0
    return FULL_GRAPHS_EXTRA


def large_device(s: Settings) -> bool:
    """vLLM's test for its larger scheduler defaults (70 GiB or more; from 0.9 not an A100).

    vLLM reads the total from NVML (``get_device_total_memory``) inside a try whose fallback
    is 0 (``arg_utils.py``: "This is only used to set default_max_num_batched_tokens"). NVML
    has no memory total on GB10 (nvidia-smi prints [N/A]), so a 121 GiB DGX Spark gets the
    small defaults."""
    if not s.nvml_memory:
        return False
    if s.vram_bytes is None or s.vram_bytes < 70 * GiB:
        return False
    return release(s.version) < (0, 9) or "a100" not in (s.gpu_name or "").lower()


def v1_defaults(s: Settings) -> tuple[int, int]:
    """(max_num_batched_tokens, max_num_seqs) as V1 fills them when the user did not."""
    big = large_device(s)
    serve = s.entrypoint != "llm"
    tokens = s.max_num_batched_tokens
    if tokens is None:
        tokens = (8192 if serve else 16384) if big else (2048 if serve else 8192)
        r = _release3(s.version)
        huge = s.vram_bytes is not None and s.vram_bytes >= 160 * GiB
        if serve and huge and r is not None and r >= (0, 28, 0):
            tokens = 16384  # 0.28 gave GPUs of 160 GiB or more the LLM class's batch
    seqs = s.max_num_seqs
    if seqs is None:
        seqs = min(1024 if big else 256, tokens)
    return tokens, seqs


def batched_tokens(s: Settings, ver: str) -> int:
    if s.max_num_batched_tokens is not None:
        return s.max_num_batched_tokens
    if ver == "v1":
        return v1_defaults(s)[0]
    if s.context > CHUNKED_PREFILL_THRESHOLD:
        return V0_CHUNKED_BATCH
    return max(s.context, 2048)


def activation_bytes(arch: ModelArch, s: Settings, ver: str) -> int:
    return _activation(arch, s, ver, v1_defaults(s) if ver == "v1" else None)


def _activation(arch: ModelArch, s: Settings, ver: str, defaults: tuple[int, int] | None) -> int:
    """`activation_bytes` with V1's (batched tokens, sequences) already read (None for V0)."""
    if s.activation_bytes is not None:
        return s.activation_bytes
    inter = arch.intermediate_size
    if arch.moe is not None:
        inter = max(
            inter if arch.moe.dense_layers else 0,
            arch.moe.expert_intermediate * arch.moe.experts_per_tok,
        )
    per_token = 2 * (3 * inter // s.tp + 3 * arch.hidden_size)
    if defaults is None:
        return batched_tokens(s, ver) * per_token
    tokens, seqs = defaults  # v1_defaults keeps the user's --max-num-batched-tokens
    forward = tokens * per_token
    try:
        per_logit = SAMPLER_BYTES_PER_LOGIT[sampler_of(s, arch)]
    except KeyError:
        raise SettingError(
            f"unknown sampler {s.sampler!r}; one of auto, {', '.join(SAMPLER_BYTES_PER_LOGIT)}"
        ) from None
    # The forward's hidden states stay alive while the sampler runs.
    sampler = min(seqs, tokens) * arch.vocab_size * per_logit + tokens * arch.hidden_size * 2
    return max(forward, sampler)


def page_bytes(arch: ModelArch, s: Settings) -> int:
    k, v = elem_sums(arch, s.tp)
    return s.block_size * (k + v) * kv_dtype_bytes(arch, s.kv_dtype)


def compute(arch: ModelArch, s: Settings) -> EngineResult:
    ver = version_key(s.version)
    if s.context < 1 or s.seqs < 1:
        raise SettingError("context and seqs must be >= 1")
    if s.block_size < 1:
        raise SettingError("block size must be >= 1")
    if arch.n_heads % s.tp:
        # ModelConfig.verify_with_parallel_config refuses the setting before loading anything.
        raise SettingError(
            f"Total number of attention heads ({arch.n_heads}) must be divisible by tensor "
            f"parallel size ({s.tp})."
        )
    ke, ve = elem_sums(arch, s.tp)
    eb = kv_dtype_bytes(arch, s.kv_dtype)
    per_token = (ke + ve) * eb
    page = s.block_size * per_token
    w = s.weights_bytes
    if w is None:
        r = _release3(s.version)
        w = vllm_weights_bytes(
            arch, s.weights, s.tp, s.gpu_name, r[:2] if r else None, s.language_model_only
        )
    if s.cpu_offload_bytes:
        w = max(w - s.cpu_offload_bytes, 0)
    util = s.gpu_memory_utilization
    if util is None:
        util = default_utilization(s)
    if not 0 < util <= 1:
        raise SettingError("--gpu-memory-utilization must be in (0, 1]")
    defaults = v1_defaults(s) if ver == "v1" else None
    act = _activation(arch, s, ver, defaults)
    non_torch = s.non_torch_bytes
    sampler_state = graphs_extra = 0
    if non_torch is None:  # a figure read from a log already holds the sampler's state
        non_torch = V1_NON_TORCH[min(s.tp, 2)] if ver == "v1" else DEFAULT_NON_TORCH
        sampler_state = v2_sampler_state_bytes(arch, s, defaults[1]) if defaults else 0
        graphs_extra = full_graphs_extra(s)
        non_torch += sampler_state + graphs_extra
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
    k_bytes = kv * ke // (ke + ve) if ke + ve else 0  # K's share, rounded down
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
    if defaults is not None and s.activation_bytes is None:
        tokens, seqs = defaults
        how = sampler_of(s, arch)
        kind = "no top-k/top-p, Model Runner V2" if how == "none" else f"{how} top-k/top-p"
        res.notes.append(
            f"profile run: {tokens:,} batched tokens, sampler warm-up on {min(seqs, tokens):,} "
            f"requests x {arch.vocab_size:,} logits ({kind})"
        )
        if sampler_state:
            res.notes.append(
                f"Model Runner V2 keeps penalty counts for {seqs:,} request slots x "
                f"{arch.vocab_size:,} tokens ({sampler_state / GiB:.2f} GiB per GPU), charged "
                "to the KV budget from 0.27"
            )
        if arch.vision is not None and not s.language_model_only:
            res.notes.append(
                "the profile run also encodes the largest image or video the model accepts, "
                "which is not modelled: the KV budget shown may be high by that encoder's peak "
                "(one Qwen3-VL-30B-A3B log at TP 4 printed 2.7 GiB less than this "
                "calculator); with --skip-mm-profiling (0.10.1 and later) vLLM leaves it out "
                "too, and the first large image may then run out of memory; "
                "--language-model-only (0.17 and later) builds no tower at all"
            )
        if cuda_graphs_subtracted(arch, s):
            res.notes.append(
                "this release subtracts its CUDA graph estimate from the KV budget; it is "
                "measured at start-up (0.05 to 2.7 GiB in public logs; 0.52 and 2.35 GiB for "
                "Qwen3-8B's same 86 graphs in two releases on two GPUs) and not modelled here, so the "
                "KV budget shown is high by that much (none with --enforce-eager)"
            )
        elif not s.enforce_eager:
            res.notes.append(
                "CUDA graphs are captured after the KV cache and use memory beyond "
                "--gpu-memory-utilization (none with --enforce-eager)"
            )
    # Neither note applies when the budget or the non-torch memory was read from a log.
    measured = s.available_kv_bytes is not None or s.non_torch_bytes is not None
    if graphs_extra and not measured:
        res.notes.append(
            f"from 0.11 (full CUDA graphs by default) {FULL_GRAPHS_EXTRA / GiB:.2f} GiB more "
            "non-KV memory is counted: the median of what five calibration logs (0.11.2 to "
            "0.26.0) charged beyond the parts modelled here; which allocation it is was not "
            "found in the source"
        )
    # No NVML memory total is how the catalog marks unified memory (GB10, the only CUDA device
    # without one).
    if not s.nvml_memory and not measured:
        res.notes.append(
            "unified memory: vLLM reads free memory as the host's MemAvailable "
            "(utils/mem_utils.py, 0.13 and later), so host memory taken while it loads and "
            "profiles counts against the KV budget, which is not modelled here (both public "
            "DGX Spark logs checked printed over 1 GiB less than this calculator)"
        )
    if s.weights_bytes is None and s.weights.strip().lower() == "mxfp4" and arch.moe:
        r = _release3(s.version)
        backend = mxfp4_backend(s.gpu_name, r[:2] if r else None)
        res.notes.append(
            f"MXFP4 experts as vLLM's {backend} MoE kernels hold them, padded (not the "
            "checkpoint's bytes)"
        )
    if s.cpu_offload_bytes:
        res.notes.append(
            f"--cpu-offload-gb {s.cpu_offload_bytes / GiB:g}: that much of the weights per GPU "
            "stays in CPU memory"
        )
    return res
