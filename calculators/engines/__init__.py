"""Engine profiles: one small module per engine, each naming the version it models."""

from __future__ import annotations

from collections.abc import Callable

from calculators.engines import llamacpp, ollama, sglang, vllm
from calculators.engines.base import EngineResult, SettingError, Settings
from calculators.models import ModelArch

ENGINES: dict[str, Callable[[ModelArch, Settings], EngineResult]] = {
    "llama.cpp": llamacpp.compute,
    "ollama": ollama.compute,
    "vllm": vllm.compute,
    "sglang": sglang.compute,
}
PAGED = frozenset({"vllm", "sglang"})


def run(arch: ModelArch, s: Settings) -> EngineResult:
    try:
        fn = ENGINES[s.engine]
    except KeyError:
        raise SettingError(f"unknown engine {s.engine!r}; one of {', '.join(ENGINES)}") from None
    return fn(arch, s)


__all__ = ["ENGINES", "PAGED", "EngineResult", "SettingError", "Settings", "run"]
