"""Pattern collisions: a contributor's regex that would catch another entry's message."""

from __future__ import annotations

from pathlib import Path

from errkb.entries import schema
from errkb.entries.schema import Entry, python_regex
from errkb.match import normalize
from errkb.match.needles import needles
from errkb.match.normalize import Lines, clean_line
from errkb.memo import persistent


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
    everything = list(range(len(messages)))
    candidates_for: dict[tuple[str, ...], list[int]] = {}
    found: list[tuple[Entry, int, Entry, int]] = []
    for entry in entries:
        for p_index, pattern in enumerate(entry.patterns):
            if pattern.generic:
                continue
            literals = needles(pattern.regex)
            if literals is None:
                candidates = everything
            else:
                key = tuple(literals)
                if key not in candidates_for:
                    candidates_for[key] = corpus.containing(literals)
                candidates = candidates_for[key]
            verdicts: dict[tuple[str, ...], bool] = {}
            for k in candidates:
                other, m_index, _ = messages[k]
                if other.id == entry.id or (
                    entry.id in other.related and other.id in entry.related
                ):
                    continue
                lines = cleaned[k]
                verdict = verdicts.get(lines)
                if verdict is None:
                    verdict = verdicts[lines] = _matches((pattern.regex, lines))
                if verdict:
                    found.append((entry, p_index, other, m_index))
    return found


@persistent("cleaned-messages", Path(normalize.__file__ or ""))
def _cleaned(text: str) -> tuple[str, ...]:
    return tuple(clean_line(line) for line in text.split("\n"))


# Compiling a regex costs more than searching a message with it: a build compiles only the
# patterns it meets with a message it has not seen them with.
@persistent("pattern-verdicts", Path(__file__), Path(schema.__file__ or ""))
def _matches(pair: tuple[str, tuple[str, ...]]) -> bool:
    regex = python_regex(pair[0])
    return any(regex.search(line) for line in pair[1])
