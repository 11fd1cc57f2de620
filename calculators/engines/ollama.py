"""Ollama: llama.cpp's cache, sized ``num_ctx x OLLAMA_NUM_PARALLEL``.

Ollama starts its runner with ``--ctx-size num_ctx*OLLAMA_NUM_PARALLEL --parallel N``
(server.go "starting llama server" logs), so the cache is llama.cpp's with that total.
``OLLAMA_KV_CACHE_TYPE`` sets both K and V; a quantised type needs flash attention
(``OLLAMA_FLASH_ATTENTION=1``), otherwise Ollama falls back to f16 (docs/faq.md,
PR #6279). Ollama releases vendor llama.cpp: up to 0.5.x the vendored code follows the
llama.cpp ``2024`` era rules; later releases are mapped to the newest era and are not
validated here.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import calculators.engines.llamacpp as llamacpp
from calculators.engines.base import EngineResult, SettingError, Settings
from calculators.models import ModelArch

DEFAULT_VERSION = "0.5.7"


def _era_for(version: str) -> str:
    parts = version.strip().lstrip("v").split(".")
    try:
        major, minor = int(parts[0]), int(parts[1])
    except (ValueError, IndexError):
        raise SettingError(f"unknown Ollama version {version!r}; use e.g. 0.5.7") from None
    return "2024" if (major, minor) < (0, 6) else llamacpp.DEFAULT_ERA


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
        kv_unified=True,
    )
    return inner, version, note


def compute(arch: ModelArch, s: Settings) -> EngineResult:
    inner, version, note = inner_settings(s)
    res = llamacpp.compute(arch, inner)
    res.engine_version = f"Ollama {version} ({res.engine_version})"
    if note:
        res.notes.append(note)
    return res
