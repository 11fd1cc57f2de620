"""Links from an entry's prose to another entry, written with its id: `[the KV entry](E0001)`.

An id survives slug changes and file moves; the schema accepts it as a link target, the
corpus check requires the entry to exist, and the renderer turns it into the page's URL.
Code blocks and code spans are left alone: there the text is literal.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

from errkb.entries import schema
from errkb.entries.schema import Entry, blank_code
from errkb.memo import persistent

# `](E0001)`, `](E0001 "title")`, `](<E0001>)`; and a reference definition `[x]: E0001`.
_INLINE_RE = re.compile(r"(\]\(\s*<?)(E\d{4})(?=[\s>)])")
_REF_DEF_RE = re.compile(r"^(\s{0,3}\[[^\]]+\]:\s*<?)(E\d{4})(?=[\s>]|$)", re.MULTILINE)


@persistent("id-links", Path(__file__), Path(schema.__file__ or ""))
def _targets(text: str) -> tuple[tuple[int, int, str], ...]:
    """(start, end, id) of each id link target in `text`."""
    prose = blank_code(text)
    found = [*_INLINE_RE.finditer(prose), *_REF_DEF_RE.finditer(prose)]
    return tuple((m.start(2), m.end(2), m.group(2)) for m in found)


def linked_ids(text: str) -> list[str]:
    return [entry_id for _, _, entry_id in _targets(text)]


def resolve(text: str, url_for: Callable[[str], str | None]) -> str:
    """`text` with each entry id link target replaced by `url_for(id)` (kept when None)."""
    spans = sorted(_targets(text))
    out: list[str] = []
    last = 0
    for start, end, entry_id in spans:
        url = url_for(entry_id)
        out += [text[last:start], url if url is not None else entry_id]
        last = end
    return "".join(out) + text[last:]


Loc = tuple[str | int, ...]


def entry_links(entry: Entry) -> list[tuple[Loc, str]]:
    """(location of the prose field, linked id) for every id link in the entry's prose."""
    return [(loc, target) for loc, text in prose_fields(entry) for target in linked_ids(text)]


def prose_fields(entry: Entry) -> Iterator[tuple[Loc, str]]:
    """(location in the YAML, text) of every prose field, where id links may appear."""
    for name in ("cause", "quick_check", "detection", "prevention"):
        if value := getattr(entry, name):
            yield (name,), value
    for group in ("solutions", "alternatives"):
        for i, solution in enumerate(getattr(entry, group)):
            yield (group, i, "body"), solution.body
            if solution.risk:
                yield (group, i, "risk"), solution.risk
            for j, command in enumerate(solution.commands):
                if command.note:
                    yield (group, i, "commands", j, "note"), command.note
    if entry.example and entry.example.note:
        yield ("example", "note"), entry.example.note
    if entry.retired:
        yield ("retired", "reason"), entry.retired.reason
    yield ("verified", "how"), entry.verified.how
