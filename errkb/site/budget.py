"""The weight budget of an entry's page (issue 17): at most 30 KB of HTML, whatever the corpus.

Material's chrome takes about 12 KB of it; the rest is the entry's own words. An entry that
grows past it fails the strict build with a message that names its YAML file and the sections
that weigh most, so a contributor knows what to tighten before a reviewer has to say it.
"""

from __future__ import annotations

import re

from errkb.entries.diagnostics import Diagnostic

ENTRY_PAGE_BUDGET = 30 * 1024

_SECTION_RE = re.compile(r'<h2\b[^>]*\bid="([^"]+)"[^>]*>(.*?)<', re.S)


def _sections(html: str) -> list[tuple[str, int]]:
    """(heading, bytes) of each h2 section of the article, largest first."""
    article = html[html.find("<article") : html.rfind("</article>")]
    heads = list(_SECTION_RE.finditer(article))
    sizes = []
    for i, head in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(article)
        sizes.append((head.group(2).strip(), len(article[head.start() : end].encode())))
    return sorted(sizes, key=lambda s: -s[1])


def over_budget(html: str, *, path: str) -> Diagnostic | None:
    """A problem naming `path` (the entry's YAML) when its page is over the budget."""
    size = len(html.encode())
    if size <= ENTRY_PAGE_BUDGET:
        return None
    largest = ", ".join(f"{name} {n / 1024:.1f} KB" for name, n in _sections(html)[:3])
    return Diagnostic(
        path,
        1,
        1,
        "",
        f"its page is {size / 1024:.1f} KB of HTML, over the {ENTRY_PAGE_BUDGET // 1024} KB an "
        f"entry page may weigh (largest sections: {largest}). Tighten the prose, and move "
        "provenance (which release changed a wording, which issue shows it) into verified.how, "
        "which the evidence page shows",
    )
