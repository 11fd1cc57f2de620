"""Texts that `errkb new` leaves for the contributor to write."""

from __future__ import annotations

from typing import Any

# Every text the contributor must write starts with this; `errkb check` names each one left.
PLACEHOLDER = "FILL IN:"


def placeholders(data: Any, loc: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    """Locations of every string still starting with PLACEHOLDER."""
    if isinstance(data, str):
        return [loc] if data.lstrip().startswith(PLACEHOLDER) else []
    if isinstance(data, dict):
        return [p for k, v in data.items() for p in placeholders(v, (*loc, k))]
    if isinstance(data, list):
        return [p for i, v in enumerate(data) for p in placeholders(v, (*loc, i))]
    return []
