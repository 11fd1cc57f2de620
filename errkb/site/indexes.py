"""Index pages: all errors, per category, per engine, and the triage table."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import errkb.mdtext as mdtext
from errkb.checks.corpus import Corpus
from errkb.entries import engines, schema, urls
from errkb.entries.engines import ENGINES
from errkb.entries.schema import CATEGORIES, EFFORTS, Entry
from errkb.entries.urls import (
    CATEGORIES_INDEX,
    ENGINES_INDEX,
    ERRORS_INDEX,
    category_uri,
    engine_uri,
    entry_uri,
    paged_uri,
)
from errkb.mdtext import escape, front_matter, indent, rel, table_code
from errkb.memo import keyed
from errkb.site import render
from errkb.site.render import engine_links

# A page of a list is a pure function of its entries' YAML, its place in the list and the
# list's own words: remembered between builds under those (the engine pages of 5,000 entries
# took over a second), so an edit re-renders only the pages that list the edited entry.
_list_page_memo = keyed(
    "list-pages", *(Path(m.__file__ or "") for m in (mdtext, engines, schema, urls, render))
)


def _row_title(page: str, entry: Entry) -> str:
    suffix = " *(retired)*" if entry.retired else ""
    return f"[{escape(entry.title)}]({rel(page, entry_uri(entry))}){suffix}"


def entries_table(page: str, entries: list[Entry]) -> str:
    rows = ["| Id | Error | Engines | Severity |", "|---|---|---|---|"]
    for e in entries:
        rows.append(
            f"| {e.id} | {_row_title(page, e)} | {engine_links(page, e.engines)} | {e.severity} |"
        )
    return "\n".join(rows)


def triage_table(page: str, entries: list[Entry], engine: str | None = None) -> str:
    """The line you see, what it means, what the first fix takes, where to go: one row per
    message wording."""
    rows = ["| The line you see | What it means | First fix takes | Go to |", "|---|---|---|---|"]
    for e in entries:
        if e.retired:
            continue
        first = e.solutions[0].takes if e.solutions else None
        takes = escape(EFFORTS[first]) if first else "(not stated yet)"
        for m in e.messages:
            if engine is not None and m.engine != engine:
                continue
            rows.append(
                f"| {table_code(m.text)} | {escape(e.summary)} | {takes} | "
                f"[{e.id}]({rel(page, entry_uri(e))}) |"
            )
    return "\n".join(rows) if len(rows) > 2 else "No entries yet."


HOME_ROWS = 8  # per engine: the home page stays the same size however large the corpus grows


def triage_tabs(page: str, entries: list[Entry], rows: int = HOME_ROWS) -> str:
    """The home page's triage: one tab per engine with entries, the first wording of its
    first `rows` entries, and a link to the engine's page, which has every wording."""
    live = [e for e in entries if not e.retired]
    out: list[str] = []
    for engine, label in ENGINES.items():
        firsts = [
            (e, next(m for m in e.messages if m.engine == engine))
            for e in live
            if any(m.engine == engine for m in e.messages)
        ]
        if not firsts:
            continue
        table = ["| The line you see | Go to |", "|---|---|"]
        table += [
            f"| {table_code(m.text)} | [{escape(e.title)}]({rel(page, entry_uri(e))}) |"
            for e, m in firsts[:rows]
        ]
        more = f"[All {len(firsts)} {escape(label)} entries, every wording]({rel(page, engine_uri(engine))})"
        out += [f'=== "{label}"', "", indent("\n".join(table)), "", indent(more), ""]
    return "\n".join(out).rstrip("\n") if out else "No entries yet."


def _page(title: str, body: list[str], description: str) -> str:
    meta = {"title": title, "description": description, "render_macros": False}
    return front_matter(meta) + f"# {escape(title)}\n\n" + "\n".join(body) + "\n"


# Entries per page of a list: the pages stay the same size however large the corpus grows
# (issue 17: under 150 KB of HTML). An engine page carries a triage row per wording too.
LIST_PAGE_ENTRIES = 250
ENGINE_PAGE_ENTRIES = 40

Page = tuple[str, str]  # (source URI, Markdown)
Body = Callable[[str, list[Entry]], list[str]]


def paged(
    base: str,
    entries: list[Entry],
    per_page: int,
    title: str,
    description: str,
    body: Body,
    *,
    digests: dict[str, str],
    words: tuple[object, ...] = (),
) -> list[Page]:
    """A list page, split so each holds at most `per_page` entries, with links between them.
    `digests`: each entry's file digest (errkb.entries.loader); `words`: whatever else `body`
    writes on every page (a total), which the remembered pages are keyed by too."""
    chunks = [entries[i : i + per_page] for i in range(0, len(entries), per_page)] or [[]]
    uris = [paged_uri(base, n) for n in range(1, len(chunks) + 1)]
    out: list[Page] = []
    for n, (uri, chunk) in enumerate(zip(uris, chunks, strict=True), start=1):

        def page(n: int = n, uri: str = uri, chunk: list[Entry] = chunk) -> str:
            lines = body(uri, chunk)
            if len(chunks) > 1:
                pager = f"Page {n} of {len(chunks)}: " + " · ".join(
                    f"**{k}**" if k == n else f"[{k}]({rel(uri, other)})"
                    for k, other in enumerate(uris, start=1)
                )
                lines = [pager, "", *lines, "", pager]
            heading = title if n == 1 else f"{title} (page {n} of {len(chunks)})"
            return _page(heading, lines, description)

        listed = tuple(digests.get(e.id, "") for e in chunk)
        if all(listed):
            key = (uri, len(chunks), title, description, words, listed)
            out.append((uri, _list_page_memo.get(key, page)))
        else:  # entries made in memory (tests) have no digest
            out.append((uri, page()))
    return out


def errors_index(corpus: Corpus) -> list[Page]:
    def body(page: str, chunk: list[Entry]) -> list[str]:
        return [
            f"{len(corpus.items)} entries. Each has a permanent short link `/e/<id>/`.",
            "",
            entries_table(page, chunk),
        ]

    return paged(
        ERRORS_INDEX,
        corpus.entries,
        LIST_PAGE_ENTRIES,
        "All errors",
        "Every error in the knowledge base",
        body,
        digests=corpus.digests,
        words=(len(corpus.items),),
    )


def categories_index(corpus: Corpus) -> str:
    page = CATEGORIES_INDEX
    rows = ["| Category | Entries |", "|---|---|"]
    for key, label in CATEGORIES.items():
        count = sum(1 for e in corpus.entries if e.category == key)
        rows.append(f"| [{escape(label)}]({rel(page, category_uri(key))}) | {count} |")
    return _page("Errors by category", rows, "Errors grouped by what went wrong")


def category_page(corpus: Corpus, category: str) -> list[Page]:
    def body(page: str, chunk: list[Entry]) -> list[str]:
        return [entries_table(page, chunk) if chunk else "No entries in this category yet."]

    return paged(
        category_uri(category),
        [e for e in corpus.entries if e.category == category],
        LIST_PAGE_ENTRIES,
        CATEGORIES[category],
        f"Errors in the category {CATEGORIES[category]}",
        body,
        digests=corpus.digests,
    )


def engines_index(corpus: Corpus) -> str:
    page = ENGINES_INDEX
    rows = ["| Engine | Entries |", "|---|---|"]
    for key, label in ENGINES.items():
        count = sum(1 for e in corpus.entries if key in e.engines)
        rows.append(f"| [{escape(label)}]({rel(page, engine_uri(key))}) | {count} |")
    return _page("Errors by engine", rows, "Errors grouped by the engine that prints them")


def engine_page(corpus: Corpus, engine: str) -> list[Page]:
    def body(page: str, chunk: list[Entry]) -> list[str]:
        return [
            "## Triage { #triage }",
            "",
            triage_table(page, chunk, engine),
            "",
            "## Entries { #entries }",
            "",
            entries_table(page, chunk) if chunk else "No entries for this engine yet.",
        ]

    return paged(
        engine_uri(engine),
        [e for e in corpus.entries if engine in e.engines],
        ENGINE_PAGE_ENTRIES,
        f"{ENGINES[engine]} errors",
        f"Errors printed by {ENGINES[engine]}",
        body,
        digests=corpus.digests,
        words=(engine,),
    )
