"""What the fit grid gives the site, kept between builds: pages, JSON, chart specs, entry tables.

Rendering 178 GPU, model and setup pages from 51,000 cells took about a second of every
build, warm or cold, though they change only when the calculators or the code that renders
them change. The parts are saved as JSON under `.cache/errkb`, keyed by a digest of both
packages' sources; an entry asking for a fit table the cache lacks (a new entry, a changed
`fit:`) loads the grid and adds it. Nothing here decides what a page says: a cache hit gives
the same strings a cold build computes (`tests/test_fitcache.py`).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from calculators.grid import prune_cache, source_key
from errkb.site.fitdata import FitData

TableKey = tuple[tuple[str, ...], tuple[str, ...], str]  # models, engines, entry URI
_ERRKB = Path(__file__).resolve().parent.parent  # the errkb package


@cache
def parts_key() -> str:
    """The calculators' digest and a digest of every errkb source (read once per process:
    code changes need a restart of `mkdocs serve` anyway)."""
    digest = hashlib.sha256(source_key().encode())
    for path in sorted(_ERRKB.rglob("*.py")):
        digest.update(path.relative_to(_ERRKB).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@dataclass
class FitParts:
    """`pages`: (URI, Markdown) of every fit page; `assets`: site path -> JSON text;
    `charts`: chart path -> Vega-Lite spec; `tables`: the fit tables entries asked for."""

    pages: list[tuple[str, str]]
    assets: dict[str, str]
    charts: dict[str, dict[str, Any]]
    tables: dict[TableKey, str] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps(
            {
                "pages": self.pages,
                "assets": self.assets,
                "charts": self.charts,
                "tables": [
                    [list(m), list(e), uri, html] for (m, e, uri), html in self.tables.items()
                ],
            }
        )

    @classmethod
    def from_json(cls, text: str) -> FitParts:
        data = json.loads(text)
        return cls(
            pages=[(uri, markdown) for uri, markdown in data["pages"]],
            assets=dict(data["assets"]),
            charts=dict(data["charts"]),
            tables={(tuple(m), tuple(e), uri): html for m, e, uri, html in data["tables"]},
        )


def _path(cache_dir: Path) -> Path:
    return cache_dir / f"fitparts-{parts_key()}.json"


_memo: dict[str, FitParts] = {}  # `mkdocs serve`: one process, many plans


def fit_parts_cached(cache_dir: Path) -> bool:
    """Whether `load_fit_parts` would find the parts without building them (a fit table an
    entry newly asks for is still added, from the cached grid)."""
    return parts_key() in _memo or _path(cache_dir).is_file()


def load_fit_parts(
    cache_dir: Path,
    wanted: Iterable[TableKey],
    *,
    fit: Callable[[], FitData],
    build: Callable[[FitData], FitParts],
    table: Callable[[FitData, TableKey], str],
) -> FitParts:
    """The parts from memory or `cache_dir`, else built from `fit()` (the grid, loaded only
    when something is missing) and saved; fit tables in `wanted` and missing are added."""
    key = parts_key()
    parts = _memo.get(key)
    path = _path(cache_dir)
    if parts is None and path.is_file():
        try:
            parts = FitParts.from_json(path.read_text(encoding="utf-8"))
        except (ValueError, KeyError, TypeError):  # a cache from an interrupted write
            parts = None
    changed = False
    data: FitData | None = None
    if parts is None:
        data = fit()
        parts, changed = build(data), True
    for want in wanted:
        if want not in parts.tables:
            data = data or fit()
            parts.tables[want] = table(data, want)
            changed = True
    _memo.clear()
    _memo[key] = parts
    if changed:
        try:
            cache_dir.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")  # builds may run side by side
            tmp.write_text(parts.to_json(), encoding="utf-8")
            tmp.replace(path)
            prune_cache(path)
        except OSError:  # a read-only checkout builds too, only without the cache
            pass
    return parts
