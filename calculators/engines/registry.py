"""Which engine profile computes a setting: the dispatcher every caller goes through."""

from __future__ import annotations

from collections.abc import Callable

import calculators.engines.llamacpp as llamacpp
import calculators.engines.ollama as ollama
import calculators.engines.sglang as sglang
import calculators.engines.vllm as vllm
from calculators.engines.base import EngineResult, SettingError, Settings
from calculators.models import ModelArch

ENGINES: dict[str, Callable[[ModelArch, Settings], EngineResult]] = {
    "llama.cpp": llamacpp.compute,
    "ollama": ollama.compute,
    "vllm": vllm.compute,
    "sglang": sglang.compute,
}
PAGED = frozenset({"vllm", "sglang"})
# Paged engines: whether a result's pool (tokens, concurrency) holds for other contexts too.
POOL_VARIES: dict[str, Callable[[ModelArch, Settings], bool]] = {
    "vllm": vllm.pool_varies_with_context,
    "sglang": sglang.pool_varies_with_context,
}


def run(arch: ModelArch, s: Settings) -> EngineResult:
    try:
        fn = ENGINES[s.engine]
    except KeyError:
        raise SettingError(f"unknown engine {s.engine!r}; one of {', '.join(ENGINES)}") from None
    return fn(arch, s)


__all__ = ["ENGINES", "PAGED", "POOL_VARIES", "EngineResult", "SettingError", "Settings", "run"]
