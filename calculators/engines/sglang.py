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
* 0.5.x (read at 0.5.2): ``(mem - reserved) / mem`` rounded to 3 places, reserved by device
  size: under 35 GiB ``2.8 + tp/10`` GiB, under 90 GiB ``9.5 + tp/2``, under 160 GiB
  ``12 + tp/2``, above 32 GiB.

``--chunked-prefill-size`` and ``--max-running-requests`` do not change
``max_total_num_tokens`` in these releases: the pool is sized first, and the request table
and activations live in the reserved ``1 - f``.
"""

from __future__ import annotations

from calculators.engines.base import EngineResult, SettingError, Settings
from calculators.engines.vllm import elem_sums, kv_dtype_bytes
from calculators.models import ModelArch
from calculators.weights import weights_bytes

DEFAULT_VERSION = "0.5"


def default_mem_fraction(
    tp: int, device_mib: int | None = None, version: str | None = None
) -> float:
    """SGLang's own default ``--mem-fraction-static`` for the release (see the docstring)."""
    v = (version or DEFAULT_VERSION).strip().lstrip("v")
    if device_mib is not None and v.startswith("0.5"):
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
    f = s.mem_fraction_static
    if f is None:
        f = default_mem_fraction(s.tp, device_mib, s.version)
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
