"""Remembered pages and API documents (issue 17) are what a fresh render gives, after any edit.

An entry's page shows other entries' titles, summaries and slugs, its list pages show its row,
and the API index its row: each is remembered under digests of its inputs. These tests edit
what another page shows and compare the remembered plan with one rendered from nothing.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from errkb import memo as memo_module
from errkb.checks.corpus import load_corpus
from errkb.entries.lock import Lock
from errkb.settings import load_settings
from errkb.site import api, indexes, plan
from errkb.site.fitdata import json_text
from tests.conftest import TODAY, MakeRepo

PAGE_MEMOS = (
    plan._entry_page_memo,
    indexes._list_page_memo,
    api._entry_doc_memo,
    api._index_row_memo,
)


@pytest.fixture(autouse=True)
def _fresh_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ERRKB_NO_CACHE", raising=False)
    monkeypatch.setenv("ERRKB_TABLES", "0")  # the fit tables have their own cache and tests
    for memo in PAGE_MEMOS:
        monkeypatch.setattr(memo, "values", {})


def _forget() -> None:
    """As a new process with no cache on disk would start."""
    for memo in PAGE_MEMOS:
        memo.values = {}


def texts(repo: Path, today: dt.date = TODAY) -> dict[str, str]:
    """Every generated page and API document of the repository's plan."""
    with memo_module.remembered(repo):
        result = load_corpus(repo, today=today, lock=None)
        assert result.ok, result.diagnostics
        built = plan.plan_from_corpus(result.corpus, load_settings(repo, today=today), Lock())
    return {p.src_uri: p.markdown for p in built.pages} | built.assets


def fresh(repo: Path, today: dt.date = TODAY) -> dict[str, str]:
    _forget()
    for path in (repo / memo_module.MEMO_DIR).glob("*.pickle"):
        path.unlink()
    return texts(repo, today)


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_pages_follow_the_titles_summaries_and_slugs_they_show(make_repo: MakeRepo) -> None:
    repo = make_repo(lock=False)
    before = texts(repo)
    assert texts(repo) == before  # remembered in memory
    _forget()
    assert texts(repo) == before  # and read back from disk
    assert all(memo.values for memo in PAGE_MEMOS)

    # E0001 lists E0002 under Related errors and links to it; the lists and the API show both.
    # Entry pages show the titles of the entries they list; the API shows their summaries.
    e2 = repo / "errors" / "E0002.yaml"
    _edit(e2, 'title: "Fixture: driver too old"', 'title: "Fixture: the driver is too old"')
    _edit(e2, "slug: fixture-driver-too-old", "slug: fixture-driver-is-old")
    summary = next(
        line for line in e2.read_text(encoding="utf-8").splitlines() if line.startswith("summary:")
    )
    _edit(e2, summary, 'summary: "A summary edited after the first build."')
    _forget()
    after = texts(repo)
    assert after == fresh(repo)
    page = after["errors/fixture-kv-cache-too-small.md"]
    assert "Fixture: the driver is too old" in page
    assert "fixture-driver-is-old" in page and "fixture-driver-too-old" not in page
    assert "A summary edited after the first build." in after["api/v1/index.json"]
    assert "Fixture: the driver is too old" in after["errors/index.md"]
    assert "Fixture: the driver is too old" in after["api/v1/index.json"]


def test_pages_follow_the_build_date(make_repo: MakeRepo) -> None:
    repo = make_repo(lock=False)
    today = texts(repo)
    later = texts(repo, TODAY + dt.timedelta(days=400))
    assert later == fresh(repo, TODAY + dt.timedelta(days=400))
    assert (
        later["errors/fixture-kv-cache-too-small.md"]
        != today["errors/fixture-kv-cache-too-small.md"]
    )


def test_the_index_joined_from_rows_is_the_index_document(make_repo: MakeRepo) -> None:
    repo = make_repo(lock=False)
    result = load_corpus(repo, today=TODAY, lock=None)
    settings = load_settings(repo, today=TODAY)
    whole = json_text(api.index_document(result.corpus, settings).model_dump(mode="json"))
    with memo_module.remembered(repo):
        assert api.index_text(result.corpus, settings) == whole
    with memo_module.remembered(repo):
        assert api.index_text(result.corpus, settings) == whole
