"""Markers in hand-written pages, `<!-- errkb:NAME -->`, replaced by generated Markdown.

HTML comments render as nothing where they are not expanded, so a page stays
readable under any engine; an unknown marker is an error, not a silent gap.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from errkb.entries.engines import ENGINES
from errkb.entries.schema import CATEGORIES, PLATFORMS
from errkb.entries.urls import category_uri, engine_uri
from errkb.mdtext import escape, rel
from errkb.site.indexes import triage_tabs
from errkb.site.plan import SitePlan

MARKER_RE = re.compile(r"<!--\s*errkb:([a-z][a-z0-9-]*)\s*-->")


class UnknownMarker(ValueError):
    pass


def _triage(plan: SitePlan, page: str) -> str:
    return triage_tabs(page, plan.corpus.entries)


def _coverage(plan: SitePlan, page: str) -> str:
    entries = [e for e in plan.corpus.entries if not e.retired]
    rows = ["| Engine | Entries |", "|---|---|"]
    rows += [
        f"| [{escape(label)}]({rel(page, engine_uri(key))}) | {sum(key in e.engines for e in entries)} |"
        for key, label in ENGINES.items()
    ]
    rows += ["", "| Platform | Entries |", "|---|---|"]
    rows += [
        f"| {escape(label)} | {sum(key in e.platforms for e in entries)} |"
        for key, label in PLATFORMS.items()
    ]
    rows += [f"| Any back-end (not platform-specific) | {sum(not e.platforms for e in entries)} |"]
    rows += ["", "| Category | Entries |", "|---|---|"]
    rows += [
        f"| [{escape(label)}]({rel(page, category_uri(key))}) | {sum(e.category == key for e in entries)} |"
        for key, label in CATEGORIES.items()
    ]
    return "\n".join(rows)


def _count(plan: SitePlan, page: str) -> str:
    return str(sum(1 for e in plan.corpus.entries if not e.retired))


def _calc_validation(plan: SitePlan, page: str) -> str:
    # Imported on use: only the calculator method page needs the calculators core.
    from calculators import validation  # type: ignore[attr-defined,unused-ignore]

    return str(validation.table_markdown())


def _calc_endtoend(plan: SitePlan, page: str) -> str:
    from calculators import endtoend

    return endtoend.table_markdown()


def _calc_footprint(plan: SitePlan, page: str) -> str:
    from calculators import footprint

    return footprint.table_markdown()


def _calc_ollama(plan: SitePlan, page: str) -> str:
    from calculators import ollama_check

    return ollama_check.table_markdown()


def _calc_accuracy(plan: SitePlan, page: str) -> str:
    from errkb.site.fitpages import accuracy_note

    return accuracy_note(rel(page, "calculators/method.md"))


BUILDERS: dict[str, Callable[[SitePlan, str], str]] = {
    "triage": _triage,
    "coverage": _coverage,
    "entry-count": _count,
    "calc-validation": _calc_validation,
    "calc-endtoend": _calc_endtoend,
    "calc-footprint": _calc_footprint,
    "calc-ollama": _calc_ollama,
    "calc-accuracy": _calc_accuracy,
}


def expand_markers(markdown: str, *, src_uri: str, plan: SitePlan) -> str:
    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        builder = BUILDERS.get(name)
        if builder is None:
            raise UnknownMarker(
                f"{src_uri}: unknown marker errkb:{name} (known: {', '.join(BUILDERS)})"
            )
        return builder(plan, src_uri)

    return MARKER_RE.sub(replace, markdown)
