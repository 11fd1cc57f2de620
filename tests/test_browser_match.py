"""The paste page ranks logs exactly as `errkb match` does (headless Chromium)."""

from __future__ import annotations

from pathlib import Path

from mkdocs.commands.build import build
from mkdocs.config import load_config

from errkb.corpus import load_corpus
from errkb.matcher import Matcher, matcher_data
from tests.browser import browser_page, chromium_or_skip, serve
from tests.conftest import TODAY, MakeRepo

LOGS = [
    "fixture: The NVIDIA driver on your system is too old (found version 12040).",
    "\x1b[31mERROR 06-12 10:41:04 [x.py:9]\x1b[0m ValueError: fixture message with {{ braces }} and\n"
    "`backticks` and <angle> | pipe\nfixture: The NVIDIA driver on your system is too old (found 1).",
    "fixture: The NVIDIA driver on your system is",
    "nothing here matches\r\nat all",
    "second wording (777 tokens)\nfixture: second wording (12345 tokens)",
]


def test_page_ranking_equals_cli(make_repo: MakeRepo, tmp_path: Path) -> None:
    chromium_or_skip()
    repo = make_repo()
    site = tmp_path / "site"
    build(load_config(str(repo / "mkdocs.yml"), strict=True, site_dir=str(site)))
    python = Matcher(matcher_data(load_corpus(repo, today=TODAY, lock=None).corpus))
    with serve(site) as base, browser_page() as page:
        page.goto(base + "match/")
        page.wait_for_selector("#errkb-match[data-ready=true]")
        for log in LOGS:
            expected = [(m.entry_id, m.score, m.line, m.matched) for m in python.match(log, top=5)]
            page.fill("#errkb-match textarea", log)
            page.click("#errkb-match button")
            if expected:
                page.wait_for_selector(".errkb-ranking li")
                items = page.query_selector_all(".errkb-ranking li")
                shown = [
                    (
                        i.get_attribute("data-id"),
                        float(i.get_attribute("data-score") or "nan"),
                        int(i.get_attribute("data-line") or "0"),
                    )
                    for i in items
                ]
                assert shown == [(e[0], e[1], e[2]) for e in expected], log
                js = page.evaluate("(log) => window.errkbMatcher.match(log, 5)", log)
                assert [(r["id"], r["matched"]) for r in js] == [(e[0], e[3]) for e in expected]
            else:
                page.wait_for_selector(".errkb-nomatch")
                href = page.get_attribute(".errkb-nomatch a", "href") or ""
                assert href.startswith("https://github.com/errkb/errkb/issues/new?")
