"""The site plan: every generated page and redirect, computed from the corpus alone.

The MkDocs hook and `errkb generate` both consume this; neither knows how a page
is made.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from subprocess import Popen
from typing import Any

import errkb.mdtext as mdtext
from calculators.grid import (
    SETUPS,
    Cell,
    load_or_compute,
    setup_grid,
    source_key,
    start_background,
)
from errkb.checks.corpus import Corpus, load_corpus
from errkb.entries import engines, links, schema, urls
from errkb.entries.diagnostics import Diagnostic
from errkb.entries.engines import ENGINES
from errkb.entries.loader import LoadedEntry
from errkb.entries.lock import Lock
from errkb.entries.schema import CATEGORIES, Entry
from errkb.entries.urls import (
    CATEGORIES_INDEX,
    ENGINES_INDEX,
    GPUS_INDEX,
    MODELS_INDEX,
    SIZING,
    concurrency_uri,
    entry_uri,
    evidence_uri,
    former_evidence_uri,
    former_uri,
    gpu_uri,
    model_uri,
    short_uri,
    url_of,
)
from errkb.memo import keyed, remembered
from errkb.settings import Settings
from errkb.site import icons, render
from errkb.site.api import api_files
from errkb.site.browsercalc import RUNTIME_JSON, BrowserCalc, browser_calc, default_cache
from errkb.site.budget import over_budget, stale_reserve
from errkb.site.charts import CHARTS_DIR, chart_specs
from errkb.site.charts import stale as stale_charts
from errkb.site.fitcache import FitParts, TableKey, load_fit_parts
from errkb.site.fitdata import FitData, fit_assets, fit_data
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
from errkb.site.gcpause import collector_paused
from errkb.site.indexes import (
    categories_index,
    category_page,
    engine_page,
    engines_index,
    errors_index,
)
from errkb.site.render import render_entry, render_evidence


@dataclass(frozen=True)
class GeneratedPage:
    src_uri: str
    markdown: str
    edit_path: str | None = None  # repository path of the YAML behind the page
    # Repository paths of every YAML file the page is made from: `mkdocs serve --dirty`
    # rebuilds the page only when one of them is newer than the page's HTML.
    sources: tuple[str, ...] = ()


@dataclass(frozen=True)
class SitePlan:
    settings: Settings
    corpus: Corpus
    pages: tuple[GeneratedPage, ...] = ()
    assets: dict[str, str] = field(default_factory=dict)  # site path -> content (JSON API)
    static: dict[str, Path] = field(default_factory=dict)  # site path -> file copied as is
    redirects: dict[str, str] = field(default_factory=dict)  # old src_uri -> target src_uri
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.diagnostics

    @functools.cached_property
    def _entry_pages(self) -> dict[str, LoadedEntry]:
        """src_uri of each entry's page (not its evidence page) -> the entry."""
        return {entry_uri(item.entry): item for item in self.corpus.items}

    @functools.cached_property
    def _stale_reserve(self) -> int:
        return stale_reserve(render.stale_note(self.settings))

    def page_problem(self, src_uri: str, html: str) -> Diagnostic | None:
        """The built page `src_uri` breaks its weight budget (entry pages only)."""
        item = self._entry_pages.get(src_uri)
        if item is None or not self.settings.page_budget:
            return None
        stale = render.verified_age(item.entry, self.settings)[1]
        reserve = 0 if stale else self._stale_reserve
        return over_budget(html, path=item.path, position=item.position, reserve=reserve)

    def index_urls(self) -> list[str]:
        """URLs of the generated non-entry pages (recorded in the lock)."""
        # An entry's pages are recorded by its id and slugs; old slugs redirect both.
        entry_pages = {u(e) for e in self.corpus.entries for u in (entry_uri, evidence_uri)}
        return sorted(url_of(p.src_uri) for p in self.pages if p.src_uri not in entry_pages)


_LISTED_ID_RE = re.compile(r"\bE\d{4}\b")
# The errors/ folder's own mtime changes when an entry file is added, removed or renamed,
# which moves entries between the pages of a paged list.
_ERRORS_DIR = "errors"


def index_pages(corpus: Corpus) -> list[GeneratedPage]:
    every = tuple(item.path for item in corpus.items)
    pages = [
        GeneratedPage(CATEGORIES_INDEX, categories_index(corpus), sources=every),
        GeneratedPage(ENGINES_INDEX, engines_index(corpus), sources=every),
    ]
    lists = [*errors_index(corpus)]
    lists += [p for c in CATEGORIES for p in category_page(corpus, c)]
    lists += [p for e in ENGINES for p in engine_page(corpus, e)]
    paths = {item.entry.id: item.path for item in corpus.items}
    for uri, markdown in lists:
        # A list page shows only its own entries: an edit elsewhere leaves it as it is, so
        # `mkdocs serve --dirty` re-renders a few list pages per save, not all of them.
        listed = sorted({paths[i] for i in _LISTED_ID_RE.findall(markdown) if i in paths})
        pages.append(GeneratedPage(uri, markdown, sources=(_ERRORS_DIR, *listed)))
    return pages


def _shown_ids(entry: Entry) -> list[str]:
    """The entries an entry's page names: its related list and its successor."""
    ids = list(entry.related)
    if entry.retired and entry.retired.superseded_by:
        ids.append(entry.retired.superseded_by)
    return ids


def _sources(item: LoadedEntry, ids: Iterable[str], paths: dict[str, str]) -> tuple[str, ...]:
    """The entry's YAML and those of the entries whose titles its page shows."""
    return (item.path, *sorted({paths[i] for i in ids if i in paths}))


# An entry's page is a pure function of its YAML, the titles and slugs of the entries it
# lists, every entry's slug (prose links), its fit table and the settings. Keyed by
# those, pages are remembered between builds: a build renders only the pages an edit changes.
_entry_page_memo = keyed(
    "entry-pages",
    *(Path(m.__file__ or "") for m in (render, mdtext, links, urls, engines, schema)),
)


def slugs_digest(corpus: Corpus) -> str:
    """What every prose link on every page depends on: each id's slug."""
    pairs = "\n".join(f"{item.entry.id} {item.entry.slug}" for item in corpus.items)
    return hashlib.sha256(pairs.encode()).hexdigest()


def _shown(ids: Iterable[str], by_id: dict[str, Entry]) -> tuple[Any, ...]:
    """What a page shows of the entries it names: their links and titles."""
    return tuple((i, by_id[i].slug, by_id[i].title) for i in ids if i in by_id)


def entry_pages(
    corpus: Corpus, settings: Settings, tables: dict[TableKey, str] | None
) -> list[GeneratedPage]:
    """Each entry's page and its evidence page. `tables`: the fit tables entries ask for
    (None leaves tables out)."""
    by_id = corpus.by_id()
    paths = {item.entry.id: item.path for item in corpus.items}
    slugs = slugs_digest(corpus)
    pages = []
    for item in corpus.items:
        entry = item.entry
        backlinks = corpus.backlinks.get(entry.id, ())
        fit = _entry_table(tables, entry)
        shown = _shown_ids(entry)

        def page(
            item: LoadedEntry = item, backlinks: tuple[str, ...] = backlinks, fit: str | None = fit
        ) -> str:
            return render_entry(
                item.entry,
                path=item.path,
                by_id=by_id,
                backlinks=backlinks,
                settings=settings,
                fit=fit,
            )

        def evidence(item: LoadedEntry = item, backlinks: tuple[str, ...] = backlinks) -> str:
            return render_evidence(
                item.entry, path=item.path, by_id=by_id, backlinks=backlinks, settings=settings
            )

        if item.digest:
            # The page counts the entries linking here; the evidence page lists them.
            common = (item.digest, slugs, settings)
            key = ("page", *common, len(backlinks), _shown(shown, by_id), fit)
            markdown = _entry_page_memo.get(key, page)
            proof = _entry_page_memo.get(("evidence", *common, _shown(backlinks, by_id)), evidence)
        else:
            markdown, proof = page(), evidence()
        pages.append(
            GeneratedPage(
                entry_uri(entry),
                markdown,
                edit_path=item.path,
                sources=_sources(item, [*shown, *backlinks], paths),  # it counts backlinks
            )
        )
        pages.append(
            GeneratedPage(
                evidence_uri(entry),
                proof,
                edit_path=item.path,
                sources=_sources(item, backlinks, paths),
            )
        )
    return pages


def _entry_table(tables: dict[TableKey, str] | None, entry: Entry) -> str | None:
    key = _table_key(entry)
    return None if tables is None or key is None else tables[key]


def _table_key(entry: Entry) -> TableKey | None:
    if entry.fit is None:
        return None
    return (tuple(entry.fit.models), tuple(entry.fit.engines), entry_uri(entry))


def _table(fit: FitData, key: TableKey) -> str:
    models, engines, uri = key
    return fit_table(fit, list(models), list(engines), uri)


# Fit pages change when the calculator's data does, not when an entry does.
_CALC_SOURCES = ("calculators/data/models.yaml", "calculators/data/gpus.yaml")


def _calc_page(uri: str, text: str) -> GeneratedPage:
    return GeneratedPage(uri, text, sources=_CALC_SOURCES)


def fit_pages(fit: FitData) -> list[GeneratedPage]:
    pages = [
        _calc_page(GPUS_INDEX, gpus_index(fit, GPUS_INDEX)),
        _calc_page(MODELS_INDEX, models_index(fit, MODELS_INDEX)),
        _calc_page(SIZING, sizing_guide(fit, SIZING)),
    ]
    pages += [_calc_page(gpu_uri(g), gpu_page(fit, gpu, gpu_uri(g))) for g, gpu in fit.gpus.items()]
    pages += [
        _calc_page(model_uri(m), model_page(fit, arch, model_uri(m)))
        for m, arch in fit.catalog.items()
    ]
    pages += [
        _calc_page(concurrency_uri(g), gpu_concurrency_page(fit, gpu, concurrency_uri(g)))
        for g, gpu in fit.gpus.items()
    ]
    by_setup: dict[str, dict[tuple[str, str], Cell]] = {}
    for c in setup_grid():
        by_setup.setdefault(c.gpu, {})[(c.model, c.combo)] = c
    for uri, page in ((gpu_uri, setup_page), (concurrency_uri, setup_concurrency_page)):
        pages += [_calc_page(uri(s.id), page(fit, s, by_setup[s.id], uri(s.id))) for s in SETUPS]
    return pages


def redirects(corpus: Corpus) -> dict[str, str]:
    out: dict[str, str] = {}
    for entry in corpus.entries:
        target = entry_uri(entry)
        out[short_uri(entry.id)] = target
        for slug in entry.former_slugs:
            out[former_uri(slug)] = target
            out[former_evidence_uri(slug)] = evidence_uri(entry)
    return dict(sorted(out.items()))


def _cache_dir(settings: Settings) -> Path:
    return settings.root / ".cache" / "errkb"


def _build_parts(fit: FitData) -> FitParts:
    return FitParts(
        pages=[(p.src_uri, p.markdown) for p in fit_pages(fit)],
        assets=fit_assets(fit),
        charts=chart_specs(fit),
    )


def _fit_parts(
    settings: Settings, corpus: Corpus, grid: Popen[bytes] | None
) -> tuple[
    tuple[GeneratedPage, ...], dict[str, str], dict[TableKey, str], dict[str, dict[str, Any]]
]:
    """(fit pages, their JSON, the entries' fit tables, chart specs), from the cache when the
    calculators and the rendering code are unchanged; the grid is loaded only if needed."""
    cache_dir = _cache_dir(settings)
    wanted = [k for k in (_table_key(e) for e in corpus.entries) if k is not None]
    parts = load_fit_parts(
        cache_dir,
        wanted,
        fit=lambda: fit_data(load_or_compute(cache_dir, background=grid)),
        build=_build_parts,
        table=_table,
    )
    if grid is not None and grid.returncode is None:  # started, then not needed: the cache hit
        grid.kill()
        grid.communicate()
    pages = tuple(GeneratedPage(uri, md, sources=_CALC_SOURCES) for uri, md in parts.pages)
    return pages, dict(parts.assets), dict(parts.tables), parts.charts


# The in-browser calculator's files depend on the calculators' sources only, like the fit
# pages: `mkdocs serve` zips and checks them once per process, not on every save.
_browser_memo: dict[str, BrowserCalc] = {}


def _browser_parts() -> BrowserCalc:
    key = f"{source_key()} {default_cache()}"
    if key not in _browser_memo:
        _browser_memo.clear()
        _browser_memo[key] = browser_calc()
    return _browser_memo[key]


def plan_from_corpus(
    corpus: Corpus, settings: Settings, lock: Lock, *, grid: Popen[bytes] | None = None
) -> SitePlan:
    """`grid`: the fit grid's computation, when `start_background` started it."""
    tables: tuple[GeneratedPage, ...] = ()
    fit_json: dict[str, str] = {}
    entry_tables: dict[TableKey, str] | None = None
    charts: dict[str, dict[str, Any]] = {}
    if settings.tables:
        tables, fit_json, entry_tables, charts = _fit_parts(settings, corpus, grid)
    pages = (*entry_pages(corpus, settings, entry_tables), *index_pages(corpus), *tables)
    assets = api_files(corpus, settings) | fit_json | {icons.SPRITE: icons.sprite()}
    static: dict[str, Path] = {}
    if settings.tables:
        browser = _browser_parts()
        assets[RUNTIME_JSON] = browser.runtime_json
        static = browser.files
    plan = SitePlan(settings, corpus, pages, assets, static, redirects(corpus))
    if not settings.tables:  # a measuring build: the locked fit pages are left out on purpose
        return plan
    problems = lock.check_pages(set(plan.index_urls()))
    problems += [
        Diagnostic(f"{CHARTS_DIR}/{path}", 1, 1, "", "chart is out of date: run `errkb charts`")
        for path in stale_charts(settings.root, charts)
    ]
    return replace(plan, diagnostics=tuple(problems))


def build_site_plan(settings: Settings) -> SitePlan:
    with collector_paused(), remembered(settings.root):
        return _build_site_plan(settings)


def _build_site_plan(settings: Settings) -> SitePlan:
    # The grid computes on another core while the corpus loads (cold builds only).
    grid = start_background(_cache_dir(settings)) if settings.tables else None
    lock = Lock.read(settings.root)
    result = load_corpus(settings.root, today=settings.build_date, lock=lock)
    if not result.ok:
        if grid is not None:
            grid.kill()
            grid.communicate()
        return SitePlan(settings, result.corpus, diagnostics=tuple(result.diagnostics))
    return plan_from_corpus(result.corpus, settings, lock, grid=grid)
