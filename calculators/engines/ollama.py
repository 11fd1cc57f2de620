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
from calculators.engines.base import EngineResult, SettingError, Settings
from calculators.models import ModelArch

DEFAULT_VERSION = "0.5.7"


# (first release, llama.cpp era of its vendored code), newest first; from Makefile.sync.
_ERAS: tuple[tuple[tuple[int, int, int], str], ...] = (
    ((0, 13, 5), llamacpp.DEFAULT_ERA),
    ((0, 11, 5), "b5913"),
    ((0, 6, 6), "2025-04"),
    ((0, 0, 0), "2024"),
)


def _release(version: str) -> tuple[int, int, int]:
    parts = version.strip().lstrip("v").split("-")[0].split(".")
    try:
        nums = [int(p) for p in parts[:3]]
    except ValueError:
        nums = []
    if len(nums) < 2:
        raise SettingError(f"unknown Ollama version {version!r}; use e.g. 0.5.7")
    return (nums[0], nums[1], nums[2] if len(nums) > 2 else 0)


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
    return res
