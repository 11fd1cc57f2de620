"""Pattern collisions: a contributor's regex that would catch another entry's message."""

from __future__ import annotations

from errkb.entries.schema import Entry, python_regex
from errkb.match.needles import needles
from errkb.match.normalize import Lines, clean_line


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
    cleaned = [tuple(clean_line(line) for line in text.split("\n")) for _, _, text in messages]
    everything = list(range(len(messages)))
    candidates_for: dict[tuple[str, ...], list[int]] = {}
    found: list[tuple[Entry, int, Entry, int]] = []
    for entry in entries:
        for p_index, pattern in enumerate(entry.patterns):
            if pattern.generic:
                continue
            regex = python_regex(pattern.regex)
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
                    verdict = verdicts[lines] = any(regex.search(line) for line in lines)
                if verdict:
                    found.append((entry, p_index, other, m_index))
    return found
