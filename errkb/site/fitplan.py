"""The fit grid's share of the site plan: its pages, JSON, charts and the entries' fit tables.

They change only with the calculators and the code that renders them, so they are kept in
`.cache/errkb` (`errkb.site.fitcache`). When that cache is cold (a fresh CI clone, a change
to the calculators) they take about three seconds: the grid, then 240 pages from it. A
build then starts `python -m errkb.site.fitplan` on the second core (`start`), goes on with
the entries, and waits (`Pending.parts`) only when MkDocs reaches the first page that needs
them; the child saves what it computed to the cache, and this process reads it from there.
What each part says is decided here alone, in either process (`tests/test_fitplan.py`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from calculators.gpus import Gpu, load_gpus
from calculators.grid import SETUPS, Cell, Setup, load_or_compute, setup_grid
from calculators.models import ModelArch, load_catalog
from errkb.entries.urls import (
    GPUS_INDEX,
    MODELS_INDEX,
    SIZING,
    concurrency_uri,
    gpu_uri,
    model_uri,
)
from errkb.site.charts import chart_specs
from errkb.site.fitcache import FitParts, TableKey, fit_parts_cached, load_fit_parts
from errkb.site.fitdata import FitData, fit_asset_paths, fit_assets, fit_data
from errkb.site.fitpages import (
    fit_table,
    gpu_concurrency_page,
    gpu_page,
    gpus_index,
    model_page,
    models_index,
    setup_concurrency_page,
    setup_page,
    sizing_guide,
)

# Fit pages change when the calculator's data does, not when an entry does.
CALC_SOURCES = ("calculators/data/models.yaml", "calculators/data/gpus.yaml")

_PACKAGE_ROOT = Path(__file__).resolve().parent.parent.parent  # where `errkb` imports from


@cache
def _setup_cells() -> dict[str, dict[tuple[str, str], Cell]]:
    by_setup: dict[str, dict[tuple[str, str], Cell]] = {}
    for c in setup_grid():
        by_setup.setdefault(c.gpu, {})[(c.model, c.combo)] = c
    return by_setup


def _gpu_builder(
    page: Callable[[FitData, Gpu, str], str], g: str, uri: str
) -> Callable[[FitData], str]:
    return lambda fit: page(fit, fit.gpus[g], uri)


def _model_builder(m: str, uri: str) -> Callable[[FitData], str]:
    return lambda fit: model_page(fit, fit.catalog[m], uri)


def _setup_builder(
    page: Callable[[FitData, Setup, dict[tuple[str, str], Cell], str], str], s: Setup, uri: str
) -> Callable[[FitData], str]:
    return lambda fit: page(fit, s, _setup_cells()[s.id], uri)


def _page_builders(
    gpus: dict[str, Gpu], catalog: dict[str, ModelArch]
) -> list[tuple[str, Callable[[FitData], str]]]:
    """(URI, how its Markdown is made) for every fit page, in the site's order. The URIs come
    from the catalogs alone, so a build can name these pages before the grid exists."""
    out: list[tuple[str, Callable[[FitData], str]]] = [
        (GPUS_INDEX, lambda fit: gpus_index(fit, GPUS_INDEX)),
        (MODELS_INDEX, lambda fit: models_index(fit, MODELS_INDEX)),
        (SIZING, lambda fit: sizing_guide(fit, SIZING)),
    ]
    out += [(gpu_uri(g), _gpu_builder(gpu_page, g, gpu_uri(g))) for g in gpus]
    out += [(model_uri(m), _model_builder(m, model_uri(m))) for m in catalog]
    out += [
        (concurrency_uri(g), _gpu_builder(gpu_concurrency_page, g, concurrency_uri(g)))
        for g in gpus
    ]
    for uri_of, page in ((gpu_uri, setup_page), (concurrency_uri, setup_concurrency_page)):
        out += [(uri_of(s.id), _setup_builder(page, s, uri_of(s.id))) for s in SETUPS]
    return out


@dataclass(frozen=True)
class FitLayout:
    """What the fit parts will hold, known from the catalogs before the grid is computed."""

    pages: tuple[str, ...]  # src_uri of every fit page, in the site's order
    assets: tuple[str, ...]  # site path of every fit JSON file


def fit_layout() -> FitLayout:
    gpus, catalog = load_gpus(), load_catalog()
    pages = tuple(uri for uri, _ in _page_builders(gpus, catalog))
    return FitLayout(pages, fit_asset_paths(catalog))


def fit_pages(fit: FitData) -> list[tuple[str, str]]:
    """(URI, Markdown) of every fit page."""
    return [(uri, build(fit)) for uri, build in _page_builders(fit.gpus, fit.catalog)]


def build_parts(fit: FitData) -> FitParts:
    return FitParts(pages=fit_pages(fit), assets=fit_assets(fit), charts=chart_specs(fit))


def table(fit: FitData, key: TableKey) -> str:
    models, engines, uri = key
    return fit_table(fit, list(models), list(engines), uri)


def fit_parts(cache_dir: Path, wanted: Iterable[TableKey]) -> FitParts:
    """The parts, from the cache or computed in this process (and saved)."""
    return load_fit_parts(
        cache_dir,
        wanted,
        fit=lambda: fit_data(load_or_compute(cache_dir)),
        build=build_parts,
        table=table,
    )


class Pending:
    """The parts a child process is computing. `send` the fit tables the entries want once
    the corpus is loaded; `parts()` waits for the child, then reads what it saved. A child
    that failed, or could not save, leaves the work to this process: slower, same parts."""

    def __init__(self, child: subprocess.Popen[bytes], cache_dir: Path) -> None:
        self._child, self._cache_dir = child, cache_dir
        self._wanted: list[TableKey] = []

    def send(self, wanted: Iterable[TableKey]) -> None:
        self._wanted = list(wanted)
        stdin = self._child.stdin
        assert stdin is not None
        try:
            stdin.write(
                json.dumps([[list(m), list(e), uri] for m, e, uri in self._wanted]).encode()
            )
            stdin.close()
        except OSError:  # the child died: `parts()` computes here
            pass

    def parts(self) -> FitParts:
        self._child.communicate()
        return fit_parts(self._cache_dir, self._wanted)

    def cancel(self) -> None:
        self._child.kill()
        self._child.communicate()


def start(cache_dir: Path) -> Pending | None:
    """Start computing the fit parts in a child process when they are not cached and a
    second core can take them. None: nothing started (the caller computes, or reads the
    cache)."""
    if fit_parts_cached(cache_dir) or (os.cpu_count() or 1) < 2:
        return None
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(_PACKAGE_ROOT), *sys.path])}
    try:
        child = subprocess.Popen(
            [sys.executable, "-m", "errkb.site.fitplan", str(cache_dir)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,  # a failure is recomputed in the build, which reports it
            env=env,
        )
    except OSError:
        return None
    return Pending(child, cache_dir)


def _child(cache_dir: Path) -> None:
    """The grid and the pages first; then the tables the build sends (it loads the corpus
    meanwhile); everything saved to `cache_dir` for the build to read."""
    fit = fit_data(load_or_compute(cache_dir))
    parts = build_parts(fit)
    wanted = [(tuple(m), tuple(e), uri) for m, e, uri in json.loads(sys.stdin.read() or "[]")]
    load_fit_parts(cache_dir, wanted, fit=lambda: fit, build=lambda _: parts, table=table)


if __name__ == "__main__":
    _child(Path(sys.argv[1]))
