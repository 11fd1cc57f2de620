"""Solvers: max context that fits, max concurrency at a context, whether a setting fits.

Memory is not always monotonic in context (vLLM V0 switches to chunked prefill above
32768 tokens and its profiled activation drops), so ``max_context`` searches each
monotonic segment between an engine's breakpoints and keeps the largest fitting value,
instead of assuming a straight line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import calculators.engines.llamacpp as llamacpp
import calculators.engines.ollama as ollama
import calculators.engines.registry as engines
from calculators.engines.base import EngineResult, Settings
from calculators.engines.vllm import CHUNKED_PREFILL_THRESHOLD, version_key
from calculators.models import ModelArch

MAX_CONTEXT_CAP = 1 << 22  # 4M tokens: the search ceiling when a model gives no limit


def result_fits(r: EngineResult, s: Settings) -> bool | None:
    """Whether ``r`` (computed for ``s``) fits; None when no memory size is known."""
    if s.engine in engines.PAGED:
        return paged_fits(r, s.context, s.seqs)
    if s.vram_bytes is None:
        return None
    return r.total_bytes <= s.vram_bytes


def paged_fits(r: EngineResult, context: int, seqs: int) -> bool | None:
    """vLLM/SGLang: whether ``seqs`` sequences of ``context`` tokens fit ``r``'s pool."""
    if r.kv_cache_tokens is None:
        return None
    if r.max_concurrency is not None:  # vLLM hybrid manager: per-request blocks
        return r.max_concurrency >= seqs and r.kv_cache_tokens > 0
    return r.kv_cache_tokens >= context * seqs and r.kv_cache_tokens > 0


def paged_concurrency(r: EngineResult, context: int) -> float | None:
    """vLLM/SGLang: pool tokens / context, as vLLM logs "Maximum concurrency" (a float)."""
    if r.kv_cache_tokens is None:
        return None
    if r.max_concurrency is not None:
        return r.max_concurrency
    return r.kv_cache_tokens / context


def fits(arch: ModelArch, s: Settings) -> bool | None:
    return result_fits(engines.run(arch, s), s)


def _breakpoints(s: Settings) -> list[int]:
    if s.engine == "vllm" and version_key(s.version) == "v0" and s.max_num_batched_tokens is None:
        return [CHUNKED_PREFILL_THRESHOLD]
    return []


def _largest_fitting(
    fits_at: Callable[[int], bool | None], lo: int, hi: int, guess: int, *, step: int = 0
) -> int:
    """Largest x in [lo, hi] with fits_at(x), given fits_at(lo) and monotone in the segment.

    Gallops from ``guess`` (an interpolated estimate) so a typical solve costs a handful
    of evaluations instead of a full bisection; ``step`` is the first stride (1 where the
    guess is usually exact).
    """
    g = min(max(guess, lo), hi)
    step = step or max(1, min(256, (hi - lo) // 1024))
    if fits_at(g):
        a = g
        while True:
            if a == hi:
                return hi
            probe = min(a + step, hi)
            if not fits_at(probe):
                b = probe
                break
            a = probe
            step *= 2
    else:
        a, b = lo, g
        while step < b - a:
            probe = b - step
            if fits_at(probe):
                a = probe
                break
            b = probe
            step *= 2
    while b - a > 1:  # fits(a), not fits(b)
        mid = (a + b) // 2
        if fits_at(mid):
            a = mid
        else:
            b = mid
    return a


def max_context(
    arch: ModelArch,
    s: Settings,
    *,
    limit: int | None = None,
    result: EngineResult | None = None,
) -> int | None:
    """Largest per-sequence context (with ``s.seqs`` sequences) that fits; 0 if none.

    ``limit`` caps the search (default: the model's max_position_embeddings). Returns
    None when no memory size is known.
    """
    hi_cap = limit or arch.max_position_embeddings or MAX_CONTEXT_CAP
    paged_r = None
    if s.engine in engines.PAGED:
        paged_r = result if result is not None else engines.run(arch, s)
        if paged_r.kv_cache_tokens is None:
            return None
    if (
        paged_r is not None
        and paged_r.kv_cache_tokens is not None
        and not _breakpoints(s)
        and paged_r.max_concurrency is None
    ):
        t = paged_r.kv_cache_tokens
        return min(hi_cap, t // s.seqs) if t > 0 else 0
    if s.engine not in engines.PAGED:
        if s.vram_bytes is None:
            return None
        quantum = context_quantum(arch, s)
        return max_context_of_total(total_fn(arch, s), s.vram_bytes, hi_cap, s.seqs, quantum)
    if fits(arch, replace(s, context=1)) is None:
        return None
    bounds = [1, *(b for b in _breakpoints(s) if b < hi_cap), hi_cap]
    best = 0
    for i in range(len(bounds) - 1):
        lo = bounds[i] if i == 0 else bounds[i] + 1
        hi = bounds[i + 1]

        def fits_at(c: int) -> bool:
            return bool(fits(arch, replace(s, context=c)))

        if not fits_at(lo):
            continue
        guess = (lo + hi) // 2
        best = max(best, _largest_fitting(fits_at, lo, hi, guess))
    return best


def max_concurrency(
    arch: ModelArch, s: Settings, *, result: EngineResult | None = None
) -> float | None:
    """Sequences of ``s.context`` tokens that fit at once.

    vLLM/SGLang: pool tokens / context, as vLLM logs "Maximum concurrency" (a float).
    llama.cpp/Ollama: the largest whole number of slots whose cache fits.
    """
    if s.engine in engines.PAGED:
        r = result if result is not None else engines.run(arch, replace(s, seqs=1))
        return paged_concurrency(r, s.context)
    if s.vram_bytes is None:
        return None
    return max_concurrency_of_total(total_fn(arch, s), s.context, s.vram_bytes)


def max_context_of_total(
    tf: Callable[[int, int], int], vram: int, hi_cap: int, seqs: int, quantum: int
) -> int:
    """Largest context in [1, hi_cap] with tf(context, seqs) <= vram; 0 if none.

    ``quantum``: the total is the same for every context in ``(k*q, (k+1)*q]`` (llama.cpp's
    KV cells with one sequence), so only multiples are tried; 1 when that is not known.
    """
    t1 = tf(1, seqs)
    if t1 > vram:
        return 0
    if quantum > 1:
        if tf(hi_cap, seqs) <= vram:
            return hi_cap
        steps = -(-hi_cap // quantum)
        probe = min(17, steps)
        slope = (tf(quantum * probe, seqs) - t1) / max(probe - 1, 1)
        guess = steps if slope <= 0 else int(1 + (vram - t1) / slope)
        k = _largest_fitting(lambda k: tf(k * quantum, seqs) <= vram, 1, steps, guess, step=1)
        return k * quantum

    def fits_ctx(c: int) -> bool:
        return tf(c, seqs) <= vram

    slope = (tf(4097, seqs) - t1) / 4096
    guess = hi_cap if slope <= 0 else int(1 + (vram - t1) / slope)
    return _largest_fitting(fits_ctx, 1, hi_cap, guess)


def max_concurrency_of_total(tf: Callable[[int, int], int], ctx: int, vram: int) -> float:
    """The largest whole number of sequences n with tf(ctx, n) <= vram (0 if not even one)."""

    def fits_at(n: int) -> bool:
        return tf(ctx, n) <= vram

    t1 = tf(ctx, 1)
    if t1 > vram:
        return 0.0
    per_seq = tf(ctx, 2) - t1
    guess = 1 << 16 if per_seq <= 0 else 1 + (vram - t1) // per_seq
    return float(_largest_fitting(fits_at, 1, 1 << 16, int(guess), step=1))


def _llamacpp_settings(s: Settings) -> Settings:
    """The llama.cpp setting an Ollama setting runs (itself for llama.cpp)."""
    return ollama.inner_settings(s)[0] if s.engine == "ollama" else s


def total_fn(arch: ModelArch, s: Settings) -> Callable[[int, int], int]:
    """llama.cpp's or Ollama's total bytes as a function of (context, seqs) for setting ``s``
    (what ``compute(...).total_bytes`` gives there); raises ``SettingError``."""
    return llamacpp.total_fn(arch, _llamacpp_settings(s))


def context_quantum(arch: ModelArch, s: Settings) -> int:
    """See ``max_context_of_total``: 1 unless one sequence's total steps in whole KV cells."""
    return llamacpp.context_quantum(arch, _llamacpp_settings(s)) if s.seqs == 1 else 1
