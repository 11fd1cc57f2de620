"""The weight budget of an entry's page (issue 17): at most 30 KB of HTML, whatever the corpus.

Material's chrome takes about 11 KB of it; the rest is the entry's own words. An entry that
grows past it fails the strict build with a message that names its YAML file and the sections
that weigh most, so a contributor knows what to tighten before a reviewer has to say it.

There are no exceptions: an entry that cannot be tightened under the budget is split, as E0070
was (the Hub's rate limit and no connection became two entries).

A page is weighed as it will be once its entry turns stale, with the warning that adds and a
longer day count: otherwise a page just under the budget would fail a build months later with
no edit to blame.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from errkb.entries.diagnostics import Diagnostic

ENTRY_PAGE_BUDGET = 30 * 1024

_SECTION_RE = re.compile(r'<h2\b[^>]*\bid="([^"]+)"[^>]*>(.*?)<', re.S)
# The entry field behind each section of its page (errkb/site/render.py's anchors).
_FIELDS = {
    "messages": "messages",
    "cause": "cause",
    "quick-check": "quick_check",
    "solutions": "solutions",
    "example": "example",
    "fit": "fit",
    "alternatives": "alternatives",
    "detection": "detection",
    "prevention": "prevention",
    "related": "related",
}
Position = Callable[[str], tuple[int, int]]  # a top-level field -> its (line, col) in the YAML


def stale_reserve(note: str) -> int:
    """Bytes a page gains when its entry turns stale: the warning admonition as Python-Markdown
    renders it around `note`, and a day count up to two digits longer."""
    warning = (
        '<div class="admonition warning">\n<p class="admonition-title">Possibly stale</p>\n'
        f"<p>{note}</p>\n</div>\n"
    )
    return len(warning.encode()) + 2


def _sections(html: str) -> list[tuple[str, str, int]]:
    """(anchor, heading, bytes) of each h2 section of the article, largest first."""
    article = html[html.find("<article") : html.rfind("</article>")]
    heads = list(_SECTION_RE.finditer(article))
    sizes = []
    for i, head in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(article)
        size = len(article[head.start() : end].encode())
        sizes.append((head.group(1), head.group(2).strip(), size))
    return sorted(sizes, key=lambda s: -s[2])


def over_budget(
    html: str, *, path: str, position: Position | None = None, reserve: int = 0
) -> Diagnostic | None:
    """A problem naming `path` (the entry's YAML) when its page, with `reserve` bytes it will
    gain without an edit, is over the budget, at the field behind its heaviest section when
    `position` places it."""
    size = len(html.encode()) + reserve
    if size <= ENTRY_PAGE_BUDGET:
        return None
    sections = _sections(html)
    largest = ", ".join(f"{name} {n / 1024:.1f} KB" for _, name, n in sections[:3])
    field = next((_FIELDS[a] for a, _, _ in sections if a in _FIELDS), "")
    line, col = position(field) if position and field else (1, 1)
    return Diagnostic(
        path,
        line,
        col,
        field if position else "",
        f"its page is {size / 1024:.1f} KB of HTML{_once_stale(reserve)}, over the "
        f"{ENTRY_PAGE_BUDGET // 1024} KB an entry page may weigh (largest sections: {largest}). "
        "Tighten the prose, and move provenance (which release changed a wording, which issue "
        "shows it) into verified.how, which the evidence page shows",
    )


def _once_stale(reserve: int) -> str:
    return " once its entry turns stale" if reserve else ""
