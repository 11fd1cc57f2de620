"""MkDocs adapter over `errkb.site.plan`: it hands generated pages to MkDocs and nothing more.

Zensical reads mkdocs.yml but runs no hooks, so no page logic may live here;
`errkb generate --out DIR` produces the same pages without MkDocs.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page

from errkb.settings import load_settings
from errkb.site.compact import compact_html
from errkb.site.markers import UnknownMarker, expand_markers
from errkb.site.plan import GeneratedPage, LatePage, SitePlan, begin_site_plan
from errkb.site.search import SearchIndexError, build_search_index, ignore_excluded_sections

# Under "mkdocs." so that `--strict` counts what we log.
log = logging.getLogger("mkdocs.hooks.errkb")

# Rebuilt on every build (serve re-runs on_config), never reused across builds. With the fit
# parts cold, `_plan` lacks its late pages until `_whole_plan()` waits for them: MkDocs reads
# the other pages first.
_plan: SitePlan | None = None
_complete: Callable[[], SitePlan] | None = None
_late_assets: list[File] = []
# `mkdocs serve --dirty` keeps the search index of its first build: a rebuild after each save
# stays fast, and the preview's search may lag the edit. Other builds clean the site directory,
# so they index again (`mkdocs build` always does).
_keep_index = False


class _GeneratedPage(File):
    """A generated page that `mkdocs serve --dirty` rebuilds only when its YAML changed.

    MkDocs counts a file made from a string as always modified, so without this a dirty
    rebuild still renders every entry page. Only dirty builds ask; full builds render all.
    """

    root: Path = Path()
    sources: tuple[str, ...] = ()  # repository paths, resolved only when a dirty build asks

    def is_modified(self) -> bool:
        if not self.sources or not os.path.isfile(self.abs_dest_path):
            return True
        built = os.path.getmtime(self.abs_dest_path)
        try:
            return any(os.path.getmtime(self.root / source) >= built for source in self.sources)
        except OSError:  # a source was deleted: rebuild
            return True


class _LatePage(_GeneratedPage):
    """A fit page, or an entry page with a fit table, whose Markdown the build reads last:
    reading it waits for the child process computing the fit parts."""

    @property
    def content_string(self) -> str:
        return _whole_plan().markdown[self.src_uri]

    @content_string.setter
    def content_string(self, value: str) -> None:
        File.content_string.fset(self, value)  # type: ignore[attr-defined]


def _current_plan() -> SitePlan:
    if _plan is None:
        raise PluginError("errkb: the site plan was not built (on_config did not run)")
    return _plan


def _whole_plan() -> SitePlan:
    """The plan with its late pages, waiting for them once."""
    global _plan, _complete
    if _complete is not None:
        _plan, _complete = _complete(), None
        _stop_on_problems(_plan, "in the fit tables")  # a committed chart older than its data
    return _current_plan()


def _stop_on_problems(plan: SitePlan, where: str) -> None:
    if not plan.ok:
        for diagnostic in plan.diagnostics:
            log.error(diagnostic.render())
        raise PluginError(f"errkb: {len(plan.diagnostics)} problem(s) {where}")


def on_startup(*, command: str, dirty: bool) -> None:
    global _keep_index
    _keep_index = command == "serve" and dirty


def on_config(config: MkDocsConfig, **kwargs: Any) -> MkDocsConfig:
    """Load and check errors/, then register the redirects the plan needs."""
    global _plan, _complete
    root = Path(config.config_file_path).parent
    _plan, _complete = begin_site_plan(load_settings(root))
    if not _plan.late_pages:  # whole already
        _complete = None
    _stop_on_problems(_plan, "in errors/ (run `errkb check`)")
    redirects = config.plugins.get("redirects")
    if redirects is None:
        raise PluginError("errkb: the redirects plugin must be enabled in mkdocs.yml")
    redirects.config["redirect_maps"].update(_plan.redirects)
    return config


# Hooks run after plugins at equal priority; the redirects plugin indexes pages in its own
# on_files, so the generated pages must exist before it runs.
@event_priority(50)
def on_files(files: Files, *, config: MkDocsConfig) -> Files:
    """Add every generated page as an in-memory file (nothing is written to docs/)."""
    plan = _current_plan()
    # Late pages last, so that MkDocs reads them last: a cold build's child computes them
    # meanwhile. A whole plan lists them in the same place.
    slots: list[tuple[GeneratedPage | LatePage, str, type[_GeneratedPage]]]
    slots = [(p, p.markdown, _GeneratedPage) for p in plan.pages]
    slots += [(p, "", _LatePage) for p in plan.late_pages]
    for page, markdown, kind in slots:
        if files.get_file_from_path(page.src_uri) is not None:
            raise PluginError(f"errkb: docs/{page.src_uri} collides with a generated page")
        file = kind.generated(
            config, page.src_uri, content=markdown, inclusion=InclusionLevel.NOT_IN_NAV
        )
        assert isinstance(file, _GeneratedPage)
        file.root, file.sources = plan.settings.root, page.sources
        # edit_uri is docs-relative (mkdocs.yml: edit/<branch>/docs/), so step out to the YAML;
        # index pages have no source to edit.
        file.edit_uri = f"../{page.edit_path}" if page.edit_path else None
        files.append(file)
    for path, content in plan.assets.items():
        files.append(File.generated(config, path, content=content))
    _late_assets.clear()
    for path in plan.late_assets:  # filled in on_env, before MkDocs writes them
        _late_assets.append(File.generated(config, path, content=""))
        files.append(_late_assets[-1])
    for path, source in plan.static.items():
        files.append(File.generated(config, path, abs_src_path=str(source)))
    return files


def on_env(env: Any, *, config: MkDocsConfig, files: Files) -> Any:
    """Every page is read: fill in the fit JSON (the plan is whole by now)."""
    assets = _whole_plan().assets
    for file in _late_assets:
        file.content_string = assets[file.src_uri]
    _late_assets.clear()
    return env


def on_page_markdown(markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Expand `<!-- errkb:NAME -->` markers in hand-written pages."""
    if page.file.generated_by is not None:
        return markdown
    try:
        return expand_markers(markdown, src_uri=page.file.src_uri, plan=_current_plan())
    except UnknownMarker as exc:
        raise PluginError(str(exc)) from None


def on_page_content(html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Keep the sections that only link elsewhere out of the search index."""
    return ignore_excluded_sections(html)


def on_post_page(output: str, *, page: Page, config: MkDocsConfig) -> str:
    """The same page in fewer bytes: template indentation and whitespace-only spans go; an
    entry page over its weight budget is reported against its YAML."""
    html = compact_html(output)
    if (problem := _current_plan().page_problem(page.file.src_uri, html)) is not None:
        log.warning(problem.render())
        if os.environ.get("GITHUB_ACTIONS") == "true":  # an annotation on the pull request's diff
            print(problem.render_github())
    return html


def on_post_build(*, config: MkDocsConfig) -> None:
    """Index the built site for search (Pagefind), into site/pagefind/."""
    site = Path(config.site_dir)
    if _keep_index and (site / "pagefind" / "pagefind.js").is_file():
        return
    try:
        build_search_index(site)
    except SearchIndexError as exc:
        raise PluginError(f"errkb: {exc}") from None
