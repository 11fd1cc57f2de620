"""The tests' own ground: a corpus they load cannot shrink quietly, and their clocks are right."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.conftest import (
    REAL_TODAY,
    TODAY,
    CorpusProblems,
    MakeRepo,
    checked_corpus,
    fixture_text,
    real_corpus,
)


def test_a_corpus_with_a_problem_fails_the_test_that_loads_it(make_repo: MakeRepo) -> None:
    repo = make_repo()
    (repo / "errors" / "E0002.yaml").write_text(
        fixture_text("E0002.yaml").replace("category: driver", "category: drivers"),
        encoding="utf-8",
    )
    with pytest.raises(CorpusProblems, match=r"errors/E0002\.yaml:7:11: category: "):
        checked_corpus(repo, TODAY)


def test_fixture_clock_is_after_every_fixture(make_repo: MakeRepo) -> None:
    """TODAY is fixed so fixture tests never age; it must not be before any fixture's date."""
    corpus = checked_corpus(make_repo(), TODAY)  # a future verified date would be a problem
    assert corpus.items and all(e.verified.date <= TODAY for e in corpus.entries)


def test_real_corpus_is_checked_as_of_the_real_day() -> None:
    # REAL_TODAY is read from the clock when the tests start; a run that crosses midnight
    # (CI started one at 23:58) sees it one day behind, never more, and never ahead.
    now = dt.datetime.now(tz=dt.UTC).date()
    assert now - dt.timedelta(days=1) <= REAL_TODAY <= now
    corpus = real_corpus()
    assert max(e.verified.date for e in corpus.entries) <= REAL_TODAY
    assert len(corpus.entries) >= 78
