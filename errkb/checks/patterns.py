"""Pattern collisions: a contributor's regex that would catch another entry's message."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from errkb.entries import schema
from errkb.entries.schema import Entry, python_regex
from errkb.match import normalize
from errkb.match.needles import needles
from errkb.match.normalize import Lines, clean_line
from errkb.memo import persistent


def unfiltered_patterns(entries: list[Entry]) -> list[tuple[Entry, int]]:
    """(entry, pattern index) for each pattern with no literal text that every match holds
    (`needles` gives None): the matcher cannot prefilter it, so it searches every line of every
    log twice (as printed and cleaned), and one such pattern doubled the time of a 10,000-line
    log."""
    return [(e, i) for e in entries for i, p in enumerate(e.patterns) if needles(p.regex) is None]


def pattern_collisions(entries: list[Entry]) -> list[tuple[Entry, int, Entry, int]]:
    """(entry, pattern index, other entry, message index) where a pattern matches another
    entry's message: a paste of that message would land on the wrong page.

    Entries that list each other in `related` may share wordings, as they may share messages;
    a `generic` pattern may match any message, since it only ever gives a possible match.
    Every message is lowercased into one text, so each pattern's needles find the messages
    worth a regex with C-speed searches, once per distinct set of needles (patterns written
    from one template share theirs); each regex then runs once per distinct cleaned message.
    """
    messages = [(e, i, m.text) for e in entries for i, m in enumerate(e.messages)]
    corpus = Lines([text.lower().replace("\n", " ") for _, _, text in messages])
    # Cleaned once per message; many messages clean to the same lines (only numbers differ).
    cleaned = [_cleaned(text) for _, _, text in messages]
    everything = _by_lines(range(len(messages)), cleaned)
    # Per distinct set of needles: its candidate messages grouped by their cleaned lines, so a
    # pattern loops over distinct texts; only a text its regex matches is expanded back into
    # messages (without this the loop grew with patterns x messages: 2.2 s at 5,000 entries).
    groups_for: dict[tuple[str, ...], dict[tuple[str, ...], list[int]]] = {}
    found: list[tuple[Entry, int, Entry, int]] = []
    for entry in entries:
        for p_index, pattern in enumerate(entry.patterns):
            if pattern.generic:
                continue
            literals = needles(pattern.regex)
            if literals is None:
                groups = everything
            else:
                key = tuple(literals)
                if key not in groups_for:
                    groups_for[key] = _by_lines(corpus.containing(literals), cleaned)
                groups = groups_for[key]
            verdicts = _matches.many((pattern.regex, lines) for lines in groups)
            for members, verdict in zip(groups.values(), verdicts, strict=True):
                if not verdict:
                    continue
                for k in members:
                    other, m_index, _ = messages[k]
                    if other.id == entry.id or (
                        entry.id in other.related and other.id in entry.related
                    ):
                        continue
                    found.append((entry, p_index, other, m_index))
    return found


def _by_lines(
    indexes: Iterable[int], cleaned: list[tuple[str, ...]]
) -> dict[tuple[str, ...], list[int]]:
    out: dict[tuple[str, ...], list[int]] = {}
    for k in indexes:
        out.setdefault(cleaned[k], []).append(k)
    return out


@persistent("cleaned-messages", Path(normalize.__file__ or ""))
def _cleaned(text: str) -> tuple[str, ...]:
    return tuple(clean_line(line) for line in text.split("\n"))


# Compiling a regex costs more than searching a message with it: a build compiles only the
# patterns it meets with a message it has not seen them with.
@persistent("pattern-verdicts", Path(__file__), Path(schema.__file__ or ""))
def _matches(pair: tuple[str, tuple[str, ...]]) -> bool:
    regex = python_regex(pair[0])
    return any(regex.search(line) for line in pair[1])
