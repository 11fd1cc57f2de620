"""SGLang: ``--mem-fraction-static`` of the memory free at start, minus the weights.

``ModelRunner.profile_max_num_token``::

    rest_memory = available_after_weights - total_free_at_start * (1 - mem_fraction_static)
    max_total_num_tokens = int(rest_memory * 2**30 // cell_size)
    cell_size = sum over layers of (K + V elements per GPU) * dtype bytes

(for MLA, ``(kv_lora_rank + qk_rope_head_dim) * layers * dtype``). With no printed
figures, ``total_free_at_start`` is the device memory and ``available_after_weights`` is
that minus the weights, so ``rest = total * f - weights``. Default ``f`` follows the
SGLang 0.4.x table: 0.88 (TP 1), 0.87 (TP 2), 0.85 (TP 4), 0.81 (TP 8), 0.79 (TP 16).
"""

from __future__ import annotations

from calculators.engines.base import EngineResult, SettingError, Settings
from calculators.engines.vllm import elem_sums, kv_dtype_bytes
from calculators.models import ModelArch
from calculators.weights import weights_bytes

DEFAULT_VERSION = "0.4"


def default_mem_fraction(tp: int) -> float:
    if tp >= 16:
        return 0.79
    if tp >= 8:
        return 0.81
    if tp >= 4:
        return 0.85
    if tp >= 2:
        return 0.87
    return 0.88


def cell_size(arch: ModelArch, s: Settings) -> int:
    k, v = elem_sums(arch, s.tp)
    return (k + v) * kv_dtype_bytes(arch, s.kv_dtype)


def max_total_tokens(rest_bytes: int, cell: int) -> int:
    return max(rest_bytes, 0) // cell


def compute(arch: ModelArch, s: Settings) -> EngineResult:
    if s.context < 1 or s.seqs < 1:
        raise SettingError("context and seqs must be >= 1")
    f = s.mem_fraction_static if s.mem_fraction_static is not None else default_mem_fraction(s.tp)
    if not 0 < f < 1:
        raise SettingError("--mem-fraction-static must be in (0, 1)")
    ke, ve = elem_sums(arch, s.tp)
    eb = kv_dtype_bytes(arch, s.kv_dtype)
    cell = (ke + ve) * eb
    k_tok = ke * eb
    w = s.weights_bytes if s.weights_bytes is not None else weights_bytes(arch, s.weights, s.tp)
    rest: int | None
    if s.available_kv_bytes is not None:
        rest = s.available_kv_bytes
    elif s.vram_bytes is not None:
        rest = int(s.vram_bytes * f) - w
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
        overhead_bytes=0 if s.vram_bytes is None else int(s.vram_bytes * (1 - f)),
        kv_budget_bytes=rest,
        kv_cache_tokens=None if rest is None else max_total_tokens(rest, cell),
        kv_dtype=f"{s.kv_dtype} ({eb} B)",
    )
    if rest is not None and rest < 0:
        res.notes.append(
            f"weights leave no room under --mem-fraction-static {f}: "
            f"raise it above {w / s.vram_bytes:.3f}"
            if s.vram_bytes
            else "no room for KV"
        )
    return res
