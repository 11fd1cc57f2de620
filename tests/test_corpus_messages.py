"""Every message variant in errors/ leads the matcher back to its own entry."""

from __future__ import annotations

import pytest

from errkb.matcher import Matcher, matcher_data
from tests.conftest import real_corpus

CORPUS = real_corpus()  # fails on any diagnostic: no entry drops out unseen
MATCHER = Matcher(matcher_data(CORPUS.entries))
BY_ID = CORPUS.by_id()
CASES = [
    pytest.param(e.id, i, m.text, id=f"{e.id}-{i}")
    for e in CORPUS.entries
    if not e.retired
    for i, m in enumerate(e.messages)
]


def test_the_corpus_has_every_message_under_test() -> None:
    assert len(CASES) == sum(len(e.messages) for e in CORPUS.entries if not e.retired)
    assert len(CORPUS.entries) >= 60


@pytest.mark.parametrize(("entry_id", "index", "text"), CASES)
def test_message_matches_its_entry(entry_id: str, index: int, text: str) -> None:
    ranked = MATCHER.match(text, top=5)
    ids = [m.entry_id for m in ranked]
    assert entry_id in ids, f"{entry_id} message {index + 1} ranks {ids}"
    own = ranked[ids.index(entry_id)]
    # Only an equally good match of an entry that shares this wording may rank above it:
    # mutually related entries may carry the same message (errkb check enforces that).
    # A symptom's message quotes its cause (an engine-dead error wrapping an OOM), and causes
    # rank first by design: those related causes may rank above it too.
    entry = BY_ID[entry_id]
    for above in ranked[: ids.index(entry_id)]:
        other = BY_ID[above.entry_id]
        assert other.id in entry.related and entry.id in other.related, (entry_id, ids)
        if not (entry.symptom and not other.symptom):
            assert (above.score, above.line) == (own.score, own.line), (entry_id, ids)
