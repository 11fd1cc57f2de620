"""SGLang: ``--mem-fraction-static`` of the memory free at start, minus the weights.

``ModelRunner.profile_max_num_token``::

    rest_memory = available_after_weights - total_free_at_start * (1 - mem_fraction_static)
    max_total_num_tokens = int(rest_memory * 2**30 // cell_size)
    cell_size = sum over layers of (K + V elements per GPU) * dtype bytes

(for MLA, ``(kv_lora_rank + qk_rope_head_dim) * layers * dtype``). With no printed
figures, ``total_free_at_start`` is the device memory and ``available_after_weights`` is
that minus the weights, so ``rest = total * f - weights``.

Default ``f`` (``ServerArgs.__post_init__``), from ``nvidia-smi``'s memory.total in MiB:

* 0.4.x (read at 0.4.6.post5): 0.88 (TP 1), 0.87 (TP 2), 0.85 (TP 4), 0.81 (TP 8),
  0.79 (TP 16) on devices up to 81,920 MiB, 0.88 above; over 96 GiB raised to
  ``min(f + 48 GiB * (1 - f) / mem, (mem - 18 GiB) / mem)``.
* 0.5.0 to 0.5.2 (read at 0.5.2): ``(mem - reserved) / mem`` rounded to 3 places, reserved by
  device size: under 35 GiB ``2.8 + tp/10`` GiB, under 90 GiB ``9.5 + tp/2``, under 160 GiB
  ``12 + tp/2``, above 32 GiB.
* 0.5.3 to 0.5.13 (read at 0.5.3, 0.5.4, 0.5.5, 0.5.6, 0.5.7, 0.5.8, 0.5.9, 0.5.10 and 0.5.13,
  ``_handle_gpu_memory_settings``): the same rounding with ``reserved`` in MiB =
  ``512 + 1.5 x max(chunked_prefill_size, 2048) + 2 x cuda_graph_max_bs + tp x 128``, at
  least 10 GiB on devices over 60 GiB. The two sizes follow the device: under 20 GiB 2,048 and
  8; under 35 GiB 2,048 and 24 (16 before 0.5.5; 80 from TP 4); under 60 GiB 4,096 and 32
  (160); under 160 GiB 8,192 and 256 (512); above, 16,384 and 512. From 0.5.10 piecewise
  CUDA graphs are on by default on CUDA for models that are not multimodal, and reserve 8 MiB
  per captured size up to ``chunked_prefill_size`` (1.5 GiB for MLA models).
* On AMD GPUs from 0.5.5 the default attention backend (aiter, for models without MLA)
  multiplies the fraction, given or default, by 0.85 when the context length (the model's
  own, without ``--context-length``) exceeds 8,192.

The memory free at start is not the device: ``init_torch_distributed`` measures it after the
CUDA context exists and after NCCL and the custom all-reduce are set up, so with no printed
figures ``total_free_at_start = device - STARTUP``. STARTUP is measured, not read: SGLang logs
"Load weight begin. avail mem" 0.25 GiB under the CUDA total on an RTX 3090
(ml-research/LlavaGuard#7) and 0.48 GiB under it on an RTX 4090 (sgl-project/sglang#3419),
both at TP 1; PyTorch reports 0.46 and 0.58 GiB of non-PyTorch memory on an RTX 4090 and 5090
(pinokiofactory/flux-webui#11, Wan-Video/Wan2.1#465; these include cuBLAS's workspace). We
take 0.4 GiB. The distributed set-up ("Init torch distributed ends. mem usage") adds 0.00 GB at
TP 1 (sgl-project/sglang#9600), 0.26 GB at TP 2 on RTX 4090s (#16920), 0.39 GB at TP 4 on
sm_120 cards (#40558) and 0.22 to 0.27 GB at TP 8 across nodes (#3888): we take 0.3 GiB from TP
2. One node of eight NVLink GPUs of the H200 class printed 1.77 to 2.01 GB (#11716, NCCL's
NVLink buffers); that is not modelled, so 8-way NVLink pools come out about 1.5 GiB a GPU high.

``--chunked-prefill-size`` and ``--cuda-graph-max-bs`` enter only through that default: from
0.5.3 a given value replaces the device's in ``reserved`` (chunked prefill off, ``-1``, counts
``--max-prefill-tokens``, 16,384), and from 0.5.10 the piecewise graphs go up to the given chunk;
with ``--mem-fraction-static`` given, or before 0.5.3, they change nothing here.
``--max-running-requests`` does not change ``max_total_num_tokens`` of a model without recurrent
layers (read in 0.4.6, 0.5.2 and 0.5.10): the pool is sized first, and the request table and
activations live in the reserved ``1 - f``.
"""

from __future__ import annotations

from functools import lru_cache

from calculators.engines.base import EngineResult, GiB, SettingError, Settings, parse_release
from calculators.engines.vllm import elem_sums, kv_dtype_bytes
from calculators.models import ModelArch
from calculators.weights import vision_bytes, weights_bytes

DEFAULT_VERSION = "0.5.13"
NEWEST_READ = (0, 5, 13)  # releases after it take its rules, with a note
GiB_MiB = 1024
# In use when SGLang measures the free memory it budgets from (see the docstring's sources).
STARTUP_CONTEXT_BYTES = 4 * GiB // 10
STARTUP_DISTRIBUTED_BYTES = 3 * GiB // 10  # from TP 2
# Piecewise CUDA graph capture sizes (ServerArgs._generate_piecewise_cuda_graph_tokens).
_PIECEWISE_STEPS = ((4, 33, 4), (48, 257, 16), (288, 513, 32), (576, 1025, 64), (1280, 4097, 256))
MAX_PREFILL_TOKENS = 16384  # ServerArgs.max_prefill_tokens, the default


@lru_cache(maxsize=256)
def release(version: str | None) -> tuple[int, int, int]:
    """(0, 5, 7) for ``0.5.7`` or ``v0.5.10.post1``; a bare ``0.5`` is 0.5.0's rules."""
    parsed = parse_release(version or DEFAULT_VERSION)
    if parsed is None:
        raise SettingError(f"unknown SGLang version {version!r}; use e.g. 0.5.13")
    return parsed


def piecewise_sizes(max_tokens: int) -> int:
    """How many piecewise CUDA graph sizes SGLang captures up to `max_tokens`."""
    sizes = [n for lo, hi, step in _PIECEWISE_STEPS for n in range(lo, hi, step)]
    sizes += list(range(4608, max_tokens + 1, 512))
    return sum(1 for n in sizes if n <= max_tokens)


def _reserved_mib(
    v: tuple[int, int, int],
    tp: int,
    device_mib: int,
    *,
    mla: bool,
    piecewise: bool,
    chunk: int | None = None,
    graphs: int | None = None,
) -> float:
    """0.5.3 and later: what ``_handle_gpu_memory_settings`` keeps out of the fraction.

    `chunk` and `graphs`: --chunked-prefill-size and --cuda-graph-max-bs when given (each
    replaces only its own device default, as ServerArgs fills only what is None)."""
    if device_mib < 20 * GiB_MiB:
        dchunk, dgraphs = 2048, 8
    elif device_mib < 35 * GiB_MiB:
        dchunk, dgraphs = 2048, (80 if tp >= 4 else (24 if v >= (0, 5, 5) else 16))
    elif device_mib < 60 * GiB_MiB:
        dchunk, dgraphs = 4096, (160 if tp >= 4 else 32)
    elif device_mib < 160 * GiB_MiB:
        dchunk, dgraphs = 8192, (512 if tp >= 4 else 256)
    else:
        dchunk, dgraphs = 16384, 512
    chunk = dchunk if chunk is None else chunk
    graphs = dgraphs if graphs is None else graphs
    # Chunked prefill off (-1): the activation term follows --max-prefill-tokens (16,384).
    prefill = chunk if chunk > 0 else MAX_PREFILL_TOKENS
    reserved = 512 + max(prefill, 2048) * 1.5 + graphs * 2 + tp / 8 * 1024
    if device_mib > 60 * GiB_MiB:
        reserved = max(reserved, 10 * GiB_MiB)
    if piecewise and v >= (0, 5, 10):
        reserved += 1.5 * GiB_MiB if mla else piecewise_sizes(chunk) * 8
    return reserved


@lru_cache(maxsize=4096)
def default_mem_fraction(
    tp: int,
    device_mib: int | None = None,
    version: str | None = None,
    *,
    mla: bool = False,
    piecewise: bool = True,
    chunk: int | None = None,
    graphs: int | None = None,
) -> float:
    """SGLang's own default ``--mem-fraction-static`` for the release (see the docstring).

    `piecewise`: whether the release's piecewise CUDA graphs may run (CUDA, not multimodal);
    `chunk`, `graphs`: --chunked-prefill-size and --cuda-graph-max-bs when given (0.5.3 on)."""
    v = release(version)
    if device_mib is not None and v >= (0, 5, 3):
        reserved = _reserved_mib(
            v, tp, device_mib, mla=mla, piecewise=piecewise, chunk=chunk, graphs=graphs
        )
        return round((device_mib - reserved) / device_mib, 3)
    if device_mib is not None and v >= (0, 5, 0):
        gib = 1024
        if device_mib < 35 * gib:
            reserved = (2.8 + tp / 10) * gib
        elif device_mib < 90 * gib:
            reserved = (9.5 + tp / 2) * gib
        elif device_mib < 160 * gib:
            reserved = (12 + tp / 2) * gib
        else:
            reserved = 32 * gib
        return round((device_mib - reserved) / device_mib, 3)
    f = _tp_table(tp) if device_mib is None or device_mib <= 81920 else 0.88
    if device_mib is not None and device_mib > 96 * 1024:
        f = min(f + 48 * 1024 * (1 - f) / device_mib, (device_mib - 18 * 1024) / device_mib)
    return f


def _multimodal(arch: ModelArch) -> bool:
    # The catalog holds the text part of vision-language models; SGLang loads the whole model.
    return arch.model_type.endswith("_vl_text") or arch.model_type.endswith("_vl_moe_text")


def _tp_table(tp: int) -> float:
    if tp >= 16:
        return 0.79
    if tp >= 8:
        return 0.81
    if tp >= 4:
        return 0.85
    if tp >= 2:
        return 0.87
    return 0.88


def startup_bytes(tp: int) -> int:
    """What the CUDA context and the distributed set-up hold before SGLang measures free memory."""
    return STARTUP_CONTEXT_BYTES + (STARTUP_DISTRIBUTED_BYTES if tp > 1 else 0)


def cell_size(arch: ModelArch, s: Settings) -> int:
    k, v = elem_sums(arch, s.tp)
    return (k + v) * kv_dtype_bytes(arch, s.kv_dtype)


def max_total_tokens(rest_bytes: int, cell: int) -> int:
    return max(rest_bytes, 0) // cell


def pool_varies_with_context(arch: ModelArch, s: Settings) -> bool:
    """SGLang sizes its pool from the memory fraction and the weights alone."""
    return False


def compute(arch: ModelArch, s: Settings) -> EngineResult:
    if s.context < 1 or s.seqs < 1:
        raise SettingError("context and seqs must be >= 1")
    if arch.n_heads % s.tp:
        # The attention layers split the heads evenly over the tensor-parallel ranks.
        raise SettingError(f"{arch.n_heads} attention heads do not split evenly over --tp {s.tp}")
    device_mib = s.device_mib
    if device_mib is None and s.vram_bytes is not None:
        device_mib = s.vram_bytes >> 20
    amd = (s.gpu_name or "").startswith("AMD")
    mla = arch.mla is not None
    f = s.mem_fraction_static
    if f is None:
        f = default_mem_fraction(
            s.tp,
            device_mib,
            s.version,
            mla=mla,
            piecewise=not amd and not _multimodal(arch),
            chunk=s.chunked_prefill_size,
            graphs=s.cuda_graph_max_bs,
        )
    if not 0 < f < 1:
        raise SettingError("--mem-fraction-static must be in (0, 1)")
    context_len = arch.max_position_embeddings or 0
    if amd and not mla and release(s.version) >= (0, 5, 5) and context_len > 8192:
        f *= 0.85  # the aiter backend's cut, given or default (ServerArgs)
    ke, ve = elem_sums(arch, s.tp)
    eb = kv_dtype_bytes(arch, s.kv_dtype)
    cell = (ke + ve) * eb
    k_tok = ke * eb
    w = s.weights_bytes
    if w is None:  # SGLang loads the whole checkpoint, a multimodal one's vision tower too
        w = weights_bytes(arch, s.weights, s.tp) + vision_bytes(arch, s.weights, s.tp)
    rest: int | None
    free_at_start: int | None = None
    overhead = 0
    if s.vram_bytes is not None:
        free_at_start = s.vram_bytes - startup_bytes(s.tp)
        overhead = s.vram_bytes - int(free_at_start * f)
    if s.available_kv_bytes is not None:
        rest = s.available_kv_bytes
    elif free_at_start is not None:
        rest = int(free_at_start * f) - w
    else:
        rest = None
    need = s.context * s.seqs
    res = EngineResult(
        engine_version=f"SGLang {s.version or DEFAULT_VERSION}",
        kv_bytes=need * cell,
        k_bytes=need * k_tok,
        v_bytes=need * (cell - k_tok),
        kv_bytes_per_token=cell,
        weights_bytes=w,
        overhead_bytes=overhead,
        kv_budget_bytes=rest,
        kv_cache_tokens=None if rest is None else max_total_tokens(rest, cell),
        kv_dtype=f"{s.kv_dtype} ({eb} B)",
    )
    if s.available_kv_bytes is None and free_at_start is not None:
        res.notes.append(
            f"SGLang takes --mem-fraction-static {f:g} of the memory free when it starts, taken as "
            f"the device less {startup_bytes(s.tp) / GiB:.1f} GiB for the CUDA context"
            + (" and NCCL" if s.tp > 1 else "")
            + " (measured in public logs; a desktop or another process on the GPU takes more"
            + (
                "; one node of 8 NVLink GPUs was seen to hold about 2 GB for NCCL)"
                if s.tp >= 8
                else ")"
            )
        )
    given = [
        flag
        for flag, value in (
            ("--chunked-prefill-size", s.chunked_prefill_size),
            ("--cuda-graph-max-bs", s.cuda_graph_max_bs),
        )
        if value is not None
    ]
    if given and (s.mem_fraction_static is not None or release(s.version) < (0, 5, 3)):
        res.notes.append(
            f"{' and '.join(given)} {'change' if len(given) > 1 else 'changes'} SGLang's pool "
            "only through its default --mem-fraction-static (0.5.3 and later), so not here"
        )
    if s.mem_fraction_static is None and release(s.version) > NEWEST_READ:
        res.notes.append(
            f"SGLang {s.version}'s default --mem-fraction-static is taken as 0.5.13's, the newest "
            "read; by 0.5.23 the rules differ (24 to 35 GB cards get 4,096-token chunks and 48 "
            "decode graphs), so give --mem-fraction-static from the server log to be sure"
        )
    if rest is not None and rest < 0:
        res.notes.append(
            f"weights leave no room under --mem-fraction-static {f}: "
            f"raise it above {w / free_at_start:.3f}"
            if free_at_start
            else "no room for KV"
        )
    return res
