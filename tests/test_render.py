"""The entry page renderer: a snapshot of one page, and the escaping of untrusted text."""

from __future__ import annotations

import os
from pathlib import Path

from errkb.corpus import load_corpus
from errkb.mdtext import code_span, escape, fenced
from errkb.settings import load_settings
from errkb.site import entry_pages
from tests.conftest import TODAY, MakeRepo

SNAPSHOT = Path(__file__).parent / "snapshots" / "E0001.md"


def test_entry_page_snapshot(make_repo: MakeRepo) -> None:
    """Regenerate with UPDATE_SNAPSHOTS=1 after a deliberate change, and review the diff."""
    repo = make_repo()
    corpus = load_corpus(repo, today=TODAY, lock=None).corpus
    pages = {p.src_uri: p.markdown for p in entry_pages(corpus, load_settings(repo, today=TODAY))}
    page = pages["errors/fixture-kv-cache-too-small.md"]
    if os.environ.get("UPDATE_SNAPSHOTS"):
        SNAPSHOT.write_text(page, encoding="utf-8")
    assert page == SNAPSHOT.read_text(encoding="utf-8")


def test_escape_keeps_markup_literal() -> None:
    assert escape("a *b* [c](d) {#x} | e_f") == r"a \*b\* \[c\]\(d\) \{\#x\} \| e\_f"


def test_code_span_survives_backticks() -> None:
    assert code_span("a `b` c") == "`` a `b` c ``"
    assert code_span("plain") == "`plain`"


def test_fence_longer_than_any_backtick_run() -> None:
    block = fenced("```\nbreak out\n````", "text")
    assert block.startswith("`````text\n") and block.endswith("\n`````")
