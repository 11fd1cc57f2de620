"""The paste page ranks logs exactly as `errkb match` does (headless Chromium)."""

from __future__ import annotations

from pathlib import Path

import yaml
from mkdocs.commands.build import build
from mkdocs.config import load_config

from errkb.checks.corpus import load_corpus
from errkb.matcher import Matcher, matcher_data
from tests.browser import browser_page, chromium_or_skip, serve
from tests.conftest import TODAY, MakeRepo, real_corpus

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
    python = Matcher(matcher_data(load_corpus(repo, today=TODAY, lock=None).corpus.entries))
    with serve(site) as base, browser_page() as page:
        page.goto(base + "match/")
        page.wait_for_selector("#errkb-match[data-ready=true]")
        kinds = set()
        for log in LOGS:
            found = python.match(log, top=5)
            expected = [(m.entry_id, m.score, m.line, m.matched, m.possible) for m in found]
            kinds.add("possible" if found and found[0].possible else "match" if found else "none")
            page.evaluate("() => document.querySelector('.errkb-results').replaceChildren()")
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
                        i.get_attribute("data-possible") == "true",
                    )
                    for i in items
                ]
                assert shown == [(e[0], e[1], e[2], e[4]) for e in expected], log
                js = page.evaluate("(log) => window.errkbMatcher.match(log, 5)", log)
                assert [(r["id"], r["matched"]) for r in js] == [(e[0], e[3]) for e in expected]
            if not expected or expected[0][4]:
                # No confident match: the pre-filled issue is still offered.
                page.wait_for_selector(".errkb-nomatch")
                href = page.get_attribute(".errkb-nomatch a", "href") or ""
                assert href.startswith("https://github.com/errkb/errkb/issues/new?")
            else:
                assert page.query_selector(".errkb-nomatch") is None
        assert kinds == {"match", "none"}


def _real_logs(message: str) -> list[str]:
    """The suite's logs and the calibration pastes (the held-out part stays unread here)."""
    fixtures = Path(__file__).parent / "fixtures"
    logs = sorted((fixtures / "logs").glob("*.log"))
    index = fixtures / "pastes" / "index.yaml"
    pastes = yaml.safe_load(index.read_text(encoding="utf-8")) if index.is_file() else []
    logs += [fixtures / "pastes" / c["file"] for c in pastes if c["part"] == "calibration"]
    texts = [p.read_text(encoding="utf-8") for p in logs]
    noise = "INFO 06-16 21:24:15 metrics.py:341] Avg prompt throughput: 2706.1 tokens/s"
    # The candidate window: a message cut in two by more lines than the window reaches (the
    # skipped lines become a barrier), by fewer, and one word per line.
    words = message.split()
    half = len(words) // 2
    first, second = " ".join(words[:half]), " ".join(words[half:])
    texts.append("\n".join([first, *[noise] * 30, second]))
    texts.append("\n".join([first, *[noise] * 3, second]))
    texts.append("\n".join(words))
    # Blank lines past the window, then the rest just before another trigger: only the
    # barrier keeps the two halves from joining into a false full match.
    texts.append("\n".join([first, *[""] * 30, second, "Waiting for output from MQLLMEngine"]))
    texts.append("\n".join([noise] * 2000 + texts[5].splitlines() + [noise] * 2000))
    return texts


def test_real_corpus_ranks_identically_in_javascript(make_repo: MakeRepo, tmp_path: Path) -> None:
    """Every real log, run by the page's JavaScript over the real corpus's exported data."""
    chromium_or_skip()
    corpus = real_corpus()
    data = matcher_data(corpus.entries)
    python = Matcher(data)
    # E0012 has no patterns, so only its message tokens (and the barrier) decide its rank.
    e0012 = next(e for e in corpus.entries if e.id == "E0012")
    logs = _real_logs(e0012.messages[0].text)
    # The sibling context: the same OOM line while loading, serving, warming up.
    oom = next(e for e in corpus.entries if e.id == "E0009").messages[0].text
    for before in (
        "Loading safetensors checkpoint shards:  50% Completed | 1/2",
        "Received request chatcmpl-6f2: prompt: 'Summarise'",
        "Warming up with dummy requests",
    ):
        logs.append(f"{before}\n{oom}")
    # Every message behind prefixes real logs carry, and cut to its first half.
    for m in (m.text for e in corpus.entries for m in e.messages):
        logs.append(f"vllm-1  | (RayWorkerVllm pid=7) [rank0]: {m}")
        logs.append(m[: len(m) // 2])
    site = tmp_path / "site"
    build(load_config(str(make_repo() / "mkdocs.yml"), strict=True, site_dir=str(site)))
    with serve(site) as base, browser_page() as page:
        page.goto(base + "match/")
        page.wait_for_selector("#errkb-match[data-ready=true]")
        js = page.evaluate(
            "([data, logs]) => { const m = new window.ErrkbMatcher(data);"
            " return logs.map((l) => m.match(l, 5)); }",
            [data, logs],
        )
    for log, got in zip(logs, js, strict=True):
        expected = [
            (m.entry_id, m.score, m.line, m.matched, m.possible, m.generic)
            for m in python.match(log, top=5)
        ]
        shown = [
            (r["id"], r["score"], r["line"], r["matched"], r["possible"], r["generic"]) for r in got
        ]
        assert shown == expected, log[:200]
    # The suite exercises real matches of both stages, not only misses.
    assert sum(1 for got in js if got and not got[0]["possible"]) >= 40
    assert sum(1 for got in js if got and got[0]["possible"]) >= 5
    assert sum(1 for got in js if got and got[0]["generic"]) >= 1  # a `generic: true` wording


def test_page_shows_possible_matches_and_still_offers_the_issue(tmp_path: Path) -> None:
    """On the real corpus: a paste no stored message matches gets the second stage's possible
    matches, labelled, in the same order as `errkb match`, and the pre-filled issue link."""
    chromium_or_skip()
    root = Path(__file__).resolve().parent.parent
    python = Matcher(matcher_data(load_corpus(root, today=TODAY, lock=None).corpus.entries))
    logs = _real_logs("unused")[:-5]
    possible = [log for log in logs if (found := python.match(log, top=5)) and found[0].possible]
    assert len(possible) >= 5
    site = tmp_path / "site"
    build(load_config(str(root / "mkdocs.yml"), strict=True, site_dir=str(site)))
    with serve(site) as base, browser_page() as page:
        page.goto(base + "match/")
        page.wait_for_selector("#errkb-match[data-ready=true]")
        for log in possible[:5]:
            expected = [(m.entry_id, m.score, m.possible) for m in python.match(log, top=5)]
            page.evaluate("() => document.querySelector('.errkb-results').replaceChildren()")
            page.fill("#errkb-match textarea", log)
            page.click("#errkb-match button")
            page.wait_for_selector(".errkb-nomatch")
            items = page.query_selector_all(".errkb-ranking li")
            shown = [
                (
                    i.get_attribute("data-id"),
                    float(i.get_attribute("data-score") or "nan"),
                    i.get_attribute("data-possible") == "true",
                )
                for i in items
            ]
            assert shown == expected
            assert all("possible match" in i.inner_text() for i in items)
            href = page.get_attribute(".errkb-nomatch a", "href") or ""
            assert href.startswith("https://github.com/errkb/errkb/issues/new?")


def test_a_pattern_the_browser_refuses_is_skipped_and_shown(
    make_repo: MakeRepo, tmp_path: Path
) -> None:
    """errkb check refuses such a pattern; should one reach the page anyway, the page still
    matches by everything else and says which entry's pattern it skipped."""
    import json

    chromium_or_skip()
    repo = make_repo()
    site = tmp_path / "site"
    build(load_config(str(repo / "mkdocs.yml"), strict=True, site_dir=str(site)))
    data_file = site / "api" / "v1" / "matcher.json"
    data = json.loads(data_file.read_text(encoding="utf-8"))
    data["patterns"].append({"id": "E0001", "regex": "address (?>already) in use", "needles": None})
    data_file.write_text(json.dumps(data), encoding="utf-8")
    with serve(site) as base, browser_page() as page:
        page.goto(base + "match/")
        page.wait_for_selector("#errkb-match[data-ready=true]")
        note = page.text_content(".errkb-skipped") or ""
        assert "1 pattern(s)" in note and "E0001" in note, note
        page.fill("#errkb-match textarea", LOGS[0])
        page.click("#errkb-match button")
        page.wait_for_selector(".errkb-ranking li")
        assert page.get_attribute(".errkb-ranking li", "data-id") == "E0002"
