"""The site plan: every generated page and redirect, computed from the corpus alone.

The MkDocs hook and `errkb generate` both consume this; neither knows how a page
is made.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import errkb.mdtext as mdtext
from calculators.grid import source_key
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
    entry_uri,
    evidence_uri,
    former_evidence_uri,
    former_uri,
    short_uri,
    url_of,
)
from errkb.memo import keyed, remembered
from errkb.settings import Settings
from errkb.site import icons, render
from errkb.site.api import api_files
from errkb.site.browsercalc import RUNTIME_JSON, BrowserCalc, browser_calc, default_cache
from errkb.site.budget import over_budget, stale_reserve
from errkb.site.charts import CHARTS_DIR
from errkb.site.charts import stale as stale_charts
from errkb.site.fitcache import FitParts, TableKey
from errkb.site.fitplan import CALC_SOURCES, fit_layout, fit_parts
from errkb.site.fitplan import start as start_fit_parts
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
class LatePage:
    """A page whose Markdown waits for the fit parts: what MkDocs needs to list it now."""

    src_uri: str
    edit_path: str | None = None
    sources: tuple[str, ...] = ()

    def filled(self, markdown: str) -> GeneratedPage:
        return GeneratedPage(self.src_uri, markdown, self.edit_path, self.sources)


@dataclass(frozen=True)
class SitePlan:
    settings: Settings
    corpus: Corpus
    pages: tuple[GeneratedPage, ...] = ()
    assets: dict[str, str] = field(default_factory=dict)  # site path -> content (JSON API)
    static: dict[str, Path] = field(default_factory=dict)  # site path -> file copied as is
    redirects: dict[str, str] = field(default_factory=dict)  # old src_uri -> target src_uri
    diagnostics: tuple[Diagnostic, ...] = ()
    # Named here, computed in a child process (`begin_site_plan`): none in a whole plan.
    late_pages: tuple[LatePage, ...] = ()
    late_assets: tuple[str, ...] = ()

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
        every: tuple[GeneratedPage | LatePage, ...] = (*self.pages, *self.late_pages)
        return sorted(url_of(p.src_uri) for p in every if p.src_uri not in entry_pages)

    @functools.cached_property
    def markdown(self) -> dict[str, str]:
        """src_uri -> Markdown of every page."""
        return {p.src_uri: p.markdown for p in self.pages}


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


class _EntryPages:
    """Each entry's page and its evidence page, remembered between builds (`_entry_page_memo`)."""

    def __init__(self, corpus: Corpus, settings: Settings) -> None:
        self.corpus, self.settings = corpus, settings
        self.by_id = corpus.by_id()
        self.paths = {item.entry.id: item.path for item in corpus.items}
        self.slugs = slugs_digest(corpus)

    def slot(self, item: LoadedEntry) -> LatePage:
        """The entry page, before its Markdown: it counts backlinks, so they are sources."""
        shown = [*_shown_ids(item.entry), *self.corpus.backlinks.get(item.entry.id, ())]
        return LatePage(entry_uri(item.entry), item.path, _sources(item, shown, self.paths))

    def page(self, item: LoadedEntry, tables: dict[TableKey, str] | None) -> GeneratedPage:
        entry, by_id = item.entry, self.by_id
        backlinks = self.corpus.backlinks.get(entry.id, ())
        fit = _entry_table(tables, entry)

        def page() -> str:
            return render_entry(
                entry,
                path=item.path,
                by_id=by_id,
                backlinks=backlinks,
                settings=self.settings,
                fit=fit,
            )

        if item.digest:
            # The page counts the entries linking here; the evidence page lists them.
            shown = _shown(_shown_ids(entry), by_id)
            key = ("page", item.digest, self.slugs, self.settings, len(backlinks), shown, fit)
            markdown = _entry_page_memo.get(key, page)
        else:
            markdown = page()
        return self.slot(item).filled(markdown)

    def evidence(self, item: LoadedEntry) -> GeneratedPage:
        entry, by_id = item.entry, self.by_id
        backlinks = self.corpus.backlinks.get(entry.id, ())

        def evidence() -> str:
            return render_evidence(
                entry, path=item.path, by_id=by_id, backlinks=backlinks, settings=self.settings
            )

        if item.digest:
            common = (item.digest, self.slugs, self.settings)
            proof = _entry_page_memo.get(("evidence", *common, _shown(backlinks, by_id)), evidence)
        else:
            proof = evidence()
        return GeneratedPage(
            evidence_uri(entry),
            proof,
            edit_path=item.path,
            sources=_sources(item, backlinks, self.paths),
        )


def entry_pages(
    corpus: Corpus, settings: Settings, tables: dict[TableKey, str] | None
) -> list[GeneratedPage]:
    """Each entry's page and its evidence page. `tables`: the fit tables entries ask for
    (None leaves tables out)."""
    made = _EntryPages(corpus, settings)
    return [p for item in corpus.items for p in (made.page(item, tables), made.evidence(item))]


def _entry_table(tables: dict[TableKey, str] | None, entry: Entry) -> str | None:
    key = _table_key(entry)
    return None if tables is None or key is None else tables[key]


def _table_key(entry: Entry) -> TableKey | None:
    if entry.fit is None:
        return None
    return (tuple(entry.fit.models), tuple(entry.fit.engines), entry_uri(entry))


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


# The in-browser calculator's files depend on the calculators' sources only, like the fit
# pages: `mkdocs serve` zips and checks them once per process, not on every save.
_browser_memo: dict[str, BrowserCalc] = {}


def _browser_parts() -> BrowserCalc:
    key = f"{source_key()} {default_cache()}"
    if key not in _browser_memo:
        _browser_memo.clear()
        _browser_memo[key] = browser_calc()
    return _browser_memo[key]


def _wanted(corpus: Corpus) -> list[TableKey]:
    return [k for k in (_table_key(e) for e in corpus.entries) if k is not None]


def _early_plan(corpus: Corpus, settings: Settings, lock: Lock) -> SitePlan:
    """Everything but what the fit grid decides, which `late_pages` and `late_assets` name:
    the fit pages, then the pages of entries with a fit table (always last, so that a cold
    build and a warm one list the same pages in the same order)."""
    made = _EntryPages(corpus, settings)
    pages: list[GeneratedPage] = []
    late: list[LatePage] = []
    late_assets: tuple[str, ...] = ()
    if settings.tables:
        layout = fit_layout()
        late = [LatePage(uri, sources=CALC_SOURCES) for uri in layout.pages]
        late_assets = layout.assets
    for item in corpus.items:
        if settings.tables and item.entry.fit is not None:
            late.append(made.slot(item))
        else:
            pages.append(made.page(item, None))
        pages.append(made.evidence(item))
    pages += index_pages(corpus)
    assets = api_files(corpus, settings) | {icons.SPRITE: icons.sprite()}
    static: dict[str, Path] = {}
    if settings.tables:
        browser = _browser_parts()
        assets[RUNTIME_JSON] = browser.runtime_json
        static = browser.files
    plan = SitePlan(
        settings,
        corpus,
        tuple(pages),
        assets,
        static,
        redirects(corpus),
        late_pages=tuple(late),
        late_assets=late_assets,
    )
    if not settings.tables:  # a measuring build: the locked fit pages are left out on purpose
        return plan
    return replace(plan, diagnostics=tuple(lock.check_pages(set(plan.index_urls()))))


def _completed(plan: SitePlan, parts: FitParts) -> SitePlan:
    """`plan` with the fit parts in place of its late pages and assets."""
    made = _EntryPages(plan.corpus, plan.settings)
    items = plan._entry_pages
    fit_markdown = dict(parts.pages)
    filled = [
        made.page(items[slot.src_uri], parts.tables)
        if slot.src_uri in items
        else slot.filled(fit_markdown.pop(slot.src_uri))
        for slot in plan.late_pages
    ]
    missing = set(plan.late_assets) ^ set(parts.assets)
    if fit_markdown or missing:  # the layout and the parts disagree: a bug here, not an entry
        raise RuntimeError(
            f"fit parts unlike their layout: {sorted(fit_markdown)} {sorted(missing)}"
        )
    problems = [
        Diagnostic(f"{CHARTS_DIR}/{path}", 1, 1, "", "chart is out of date: run `errkb charts`")
        for path in stale_charts(plan.settings.root, parts.charts)
    ]
    return replace(
        plan,
        pages=(*plan.pages, *filled),
        assets=plan.assets | dict(parts.assets),
        late_pages=(),
        late_assets=(),
        diagnostics=(*plan.diagnostics, *problems),
    )


def plan_from_corpus(corpus: Corpus, settings: Settings, lock: Lock) -> SitePlan:
    """The whole plan; the fit parts read from the cache or computed here."""
    plan = _early_plan(corpus, settings, lock)
    if not settings.tables:
        return plan
    return _completed(plan, fit_parts(_cache_dir(settings), _wanted(corpus)))


def build_site_plan(settings: Settings) -> SitePlan:
    return begin_site_plan(settings)[1]()


def begin_site_plan(settings: Settings) -> tuple[SitePlan, Callable[[], SitePlan]]:
    """The plan so far, and how to complete it. With the fit parts cached, or one core,
    the plan is whole at once; otherwise a child process computes them (`fitplan.start`)
    and the plan lacks its `late_pages` and `late_assets` until `complete()`, which waits."""
    with collector_paused(), remembered(settings.root):
        pending = start_fit_parts(_cache_dir(settings)) if settings.tables else None
        lock = Lock.read(settings.root)
        result = load_corpus(settings.root, today=settings.build_date, lock=lock)
        if not result.ok:
            if pending is not None:
                pending.cancel()
            failed = SitePlan(settings, result.corpus, diagnostics=tuple(result.diagnostics))
            return failed, lambda: failed
        if pending is None:
            plan = plan_from_corpus(result.corpus, settings, lock)
            return plan, lambda: plan
        pending.send(_wanted(result.corpus))
        early = _early_plan(result.corpus, settings, lock)
    # The pages of entries with fit tables are rendered outside `remembered` here: a cold
    # build of the tables does not save them to the page memo (six pages, milliseconds).
    return early, functools.cache(lambda: _completed(early, pending.parts()))
