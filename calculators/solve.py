"""Solvers: max context that fits, max concurrency at a context, whether a setting fits.

Memory is not always monotonic in context (vLLM V0 switches to chunked prefill above
32768 tokens and its profiled activation drops), so ``max_context`` searches each
monotonic segment between an engine's breakpoints and keeps the largest fitting value,
instead of assuming a straight line.
"""

from __future__ import annotations

from dataclasses import replace

from calculators import engines
from calculators.engines.base import EngineResult, Settings
from calculators.engines.vllm import CHUNKED_PREFILL_THRESHOLD, version_key
from calculators.models import ModelArch

MAX_CONTEXT_CAP = 1 << 22  # 4M tokens: the search ceiling when a model gives no limit


def result_fits(r: EngineResult, s: Settings) -> bool | None:
    """Whether ``r`` (computed for ``s``) fits; None when no memory size is known."""
    if s.engine in engines.PAGED:
        if r.kv_cache_tokens is None:
            return None
        return r.kv_cache_tokens >= s.context * s.seqs and r.kv_cache_tokens > 0
    if s.vram_bytes is None:
        return None
    return r.total_bytes <= s.vram_bytes


def fits(arch: ModelArch, s: Settings) -> bool | None:
    return result_fits(engines.run(arch, s), s)


def _breakpoints(s: Settings) -> list[int]:
    if s.engine == "vllm" and version_key(s.version) == "v0" and s.max_num_batched_tokens is None:
        return [CHUNKED_PREFILL_THRESHOLD]
    return []


def max_context(arch: ModelArch, s: Settings, *, limit: int | None = None) -> int | None:
    """Largest per-sequence context (with ``s.seqs`` sequences) that fits; 0 if none.

    ``limit`` caps the search (default: the model's max_position_embeddings). Returns
    None when no memory size is known.
    """
    hi_cap = limit or arch.max_position_embeddings or MAX_CONTEXT_CAP
    if fits(arch, replace(s, context=1)) is None:
        return None
    bounds = [1, *(b for b in _breakpoints(s) if b < hi_cap), hi_cap]
    best = 0
    # Segments are [lo, hi] inclusive; within each, memory grows with context.
    segments = []
    for i in range(len(bounds) - 1):
        lo = bounds[i] if i == 0 else bounds[i] + 1
        segments.append((lo, bounds[i + 1]))
    for lo, hi in segments:
        if not fits(arch, replace(s, context=lo)):
            continue
        if fits(arch, replace(s, context=hi)):
            best = max(best, hi)
            continue
        a, b = lo, hi  # fits(a), not fits(b)
        while b - a > 1:
            mid = (a + b) // 2
            if fits(arch, replace(s, context=mid)):
                a = mid
            else:
                b = mid
        best = max(best, a)
    return best


def max_concurrency(arch: ModelArch, s: Settings) -> float | None:
    """Sequences of ``s.context`` tokens that fit at once.

    vLLM/SGLang: pool tokens / context, as vLLM logs "Maximum concurrency" (a float).
    llama.cpp/Ollama: the largest whole number of slots whose cache fits.
    """
    if s.engine in engines.PAGED:
        r = engines.run(arch, replace(s, seqs=1))
        if r.kv_cache_tokens is None:
            return None
        return r.kv_cache_tokens / s.context
    if fits(arch, replace(s, seqs=1)) is None:
        return None
    if not fits(arch, replace(s, seqs=1)):
        return 0.0
    lo, hi = 1, 2
    while hi <= 1 << 16 and fits(arch, replace(s, seqs=hi)):
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(arch, replace(s, seqs=mid)):
            lo = mid
        else:
            hi = mid
    return float(lo)
