"""Ollama: llama.cpp's cache, sized ``num_ctx x OLLAMA_NUM_PARALLEL``.

Ollama starts its runner with ``--ctx-size num_ctx*OLLAMA_NUM_PARALLEL --parallel N``
(server.go "starting llama server" logs), so the cache is llama.cpp's with that total.
``OLLAMA_KV_CACHE_TYPE`` sets both K and V; a quantised type needs flash attention
(``OLLAMA_FLASH_ATTENTION=1``), otherwise Ollama falls back to f16 (docs/faq.md,
PR #6279). Ollama releases vendor llama.cpp (``llama/llama.cpp`` at the commit in
``Makefile.sync``); what that code does decides the cache, read release by release:

* up to 0.6.5 (llama.cpp of 2024 and d7cfe1ff): the ``2024`` rules;
* 0.6.6 to 0.11.4 (71e90e88 to de4c07f9): MLA stores the latent (``2025-04``); no iSWA cache;
* 0.11.5 to 0.13.4 (e54d41be, b6646, b6840, b7108): per-sequence streams (``b5913``).
  Ollama's runner never sets ``kv_unified``, and ``llama_context_default_params`` leaves it
  false, so with ``OLLAMA_NUM_PARALLEL`` above 1 each sequence gets its own stream of
  ``num_ctx`` cells (``llama/llama.go``, ``src/llama-context.cpp``);
* 0.13.5 and later (ec98e200): the context padded to 256 cells, the newest rules.

Ollama passes flash attention on or off explicitly, so llama.cpp's ``-fa auto`` never applies.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import calculators.engines.llamacpp as llamacpp
from calculators.engines.base import EngineResult, GiB, SettingError, Settings
from calculators.engines.ollama_estimate import LAST, covers, ollama_estimate, release_of
from calculators.gguf import FILE_TYPES
from calculators.models import ModelArch

DEFAULT_VERSION = "0.11.4"


# (first release, llama.cpp era of its vendored code), newest first; from Makefile.sync.
_ERAS: tuple[tuple[tuple[int, int, int], str], ...] = (
    ((0, 13, 5), llamacpp.DEFAULT_ERA),
    ((0, 11, 5), "b5913"),
    ((0, 6, 6), "2025-04"),
    ((0, 0, 0), "2024"),
)


def _release(version: str) -> tuple[int, int, int]:
    try:
        return release_of(version)
    except ValueError:
        raise SettingError(f"unknown Ollama version {version!r}; use e.g. 0.11.4") from None


def _era_for(version: str) -> str:
    release = _release(version)
    return next(era for first, era in _ERAS if release >= first)


def inner_settings(s: Settings) -> tuple[Settings, str, str | None]:
    """The llama.cpp settings Ollama runs, its version label and a fallback note."""
    return _inner_settings(s)


# Settings are frozen and hashable; the solvers ask for the same setting's inner one often.
@lru_cache(maxsize=1024)
def _inner_settings(s: Settings) -> tuple[Settings, str, str | None]:
    version = s.version or DEFAULT_VERSION
    fa = bool(s.flash_attn)
    k_type, v_type = s.cache_type_k, s.cache_type_v
    note = None
    quantised = any(t.lower() not in ("f16", "f32", "bf16") for t in (k_type, v_type))
    if quantised and not fa:
        note = "Ollama ignores a quantised OLLAMA_KV_CACHE_TYPE without flash attention: f16 used"
        k_type = v_type = "f16"
    inner = replace(
        s,
        engine="llama.cpp",
        version=_era_for(version),
        cache_type_k=k_type,
        cache_type_v=v_type,
        flash_attn=fa,
        # Streams exist from the b5913 rules on, and Ollama leaves kv_unified false there.
        kv_unified=not llamacpp.ERAS[_era_for(version)].streams,
    )
    return inner, version, note


def compute(arch: ModelArch, s: Settings) -> EngineResult:
    inner, version, note = inner_settings(s)
    res = llamacpp.compute(arch, inner)
    res.engine_version = f"Ollama {version} ({res.engine_version})"
    if note:
        res.notes.append(note)
    estimate_note = _estimate_note(arch, s, inner, version)
    if estimate_note:
        res.notes.append(estimate_note)
    return res


def _estimate_note(arch: ModelArch, s: Settings, inner: Settings, version: str) -> str | None:
    """Ollama's own estimate, which decides the offload, where it is modelled."""
    file_type = s.weights.strip().upper().removeprefix("GGUF-")
    if _release(version) > LAST:
        return (
            f"Ollama {version} decides how many layers go to the GPU from memory layouts it "
            "measures (for every model from 0.12.11), not from the estimate of 0.3 to 0.11; the "
            "figures here are llama.cpp's buffers"
        )
    if not covers(version) or file_type not in FILE_TYPES or s.weights_bytes is not None:
        return None
    try:
        est = ollama_estimate(
            arch,
            file_type,
            num_ctx=s.context,
            parallel=s.seqs,
            num_batch=min(s.n_batch, s.n_ubatch),
            kv_cache_type=inner.cache_type_k if inner.flash_attn else "f16",
            version=version,
        )
    except ValueError:
        return None
    return (
        f"Ollama {version}'s own estimate (memory.required.full) is {est.required_full / GiB:.1f} "
        f"GiB; it puts every layer on the GPU only when the GPU reports more than "
        f"{est.free_needed / GiB:.1f} GiB free (the total less what the display and other "
        "processes hold), else fewer layers run on the GPU and the rest on the CPU"
    )
