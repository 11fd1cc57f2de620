"""Pattern collisions: a contributor's regex that would catch another entry's message."""

from __future__ import annotations

import re

from errkb.entries.schema import Entry
from errkb.match.needles import needles
from errkb.match.normalize import Lines, clean_line


def pattern_collisions(entries: list[Entry]) -> list[tuple[Entry, int, Entry, int]]:
    """(entry, pattern index, other entry, message index) where a pattern matches another
    entry's message: a paste of that message would land on the wrong page.

    Entries that list each other in `related` may share wordings, as they may share messages.
    Every message is lowercased into one text, so each pattern's needles find the messages
    worth a regex with C-speed searches: the check stays linear as the corpus grows.
    """
    messages = [(e, i, m.text) for e in entries for i, m in enumerate(e.messages)]
    corpus = Lines([text.lower().replace("\n", " ") for _, _, text in messages])
    # Cleaned once per message; many messages clean to the same lines (only numbers differ).
    cleaned = [tuple(clean_line(line) for line in text.split("\n")) for _, _, text in messages]
    found: list[tuple[Entry, int, Entry, int]] = []
    for entry in entries:
        for p_index, pattern in enumerate(entry.patterns):
            regex = re.compile(pattern.regex, re.IGNORECASE | re.ASCII)
            literals = needles(pattern.regex)
            candidates = range(len(messages)) if literals is None else corpus.containing(literals)
            verdicts: dict[tuple[str, ...], bool] = {}
            for k in candidates:
                other, m_index, _ = messages[k]
                if other.id == entry.id or (
                    entry.id in other.related and other.id in entry.related
                ):
                    continue
                lines = cleaned[k]
                if lines not in verdicts:
                    verdicts[lines] = any(regex.search(line) for line in lines)
                if verdicts[lines]:
                    found.append((entry, p_index, other, m_index))
    return found
