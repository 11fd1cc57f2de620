"""Engine profiles: one small module per engine, each naming the version it models; the
dispatcher over them is `calculators.engines.registry` (re-exported here)."""

from __future__ import annotations

from calculators.engines.base import EngineResult, SettingError, Settings
from calculators.engines.registry import ENGINES, PAGED, run

__all__ = ["ENGINES", "PAGED", "EngineResult", "SettingError", "Settings", "run"]
