"""The log matcher on the fixture corpus: normalisation, ranking, honest 'no match'."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from errkb.checks.corpus import load_corpus
from errkb.cli import cli
from errkb.matcher import (
    Lines,
    Matcher,
    clean_line,
    clean_line_unguarded,
    matcher_data,
    needles,
    split_lines,
    trigger_words,
)
from tests.conftest import ROOT, TODAY, MakeRepo, real_corpus

DRIVER = "fixture: The NVIDIA driver on your system is too old (found version 12040)."
KV = "ValueError: fixture message with {{ braces }} and `backticks` and <angle> | pipe"


def matcher(repo: object) -> Matcher:
    corpus = load_corpus(repo, today=TODAY, lock=None).corpus  # type: ignore[arg-type]
    return Matcher(matcher_data(corpus.entries))


def test_clean_line_strips_prefixes_colours_and_numbers() -> None:
    line = "\x1b[1;31m(VllmWorker rank=1 pid=4242) ERROR 06-12 10:41:03 [worker.py:123]\x1b[0m OOM at 0x7f3a in /usr/lib/x.py"
    assert " ".join(clean_line(line).split()) == "OOM at hex in path"
    ollama = (
        'time=2025-01-02T03:04:05.678Z level=ERROR source=sched.go:456 msg="model requires more"'
    )
    assert clean_line(ollama).strip() == '"model requires more"'


def test_exact_message_in_noise(make_repo: MakeRepo) -> None:
    log = "\n".join(
        ["INFO 06-12 10:41:03 [engine.py:1] loading"] * 50
        + [f"ERROR 06-12 10:41:04 [x.py:9] {DRIVER}"]
    )
    [first] = matcher(make_repo()).match(log, top=1)
    assert (first.entry_id, first.score, first.line) == ("E0002", 1.0, 51)


def test_numbers_and_wrapping_do_not_matter(make_repo: MakeRepo) -> None:
    log = "fixture: The NVIDIA driver on your\n   system is too old (found version 99999)."
    assert [m.entry_id for m in matcher(make_repo()).match(log)] == ["E0002"]


def test_root_cause_ranks_before_what_follows(make_repo: MakeRepo) -> None:
    m = matcher(make_repo())
    assert [x.entry_id for x in m.match(f"{KV}\nsomething else\n{DRIVER}\n")] == ["E0001", "E0002"]
    assert [x.entry_id for x in m.match(f"{DRIVER}\nsomething else\n{KV}\n")] == ["E0002", "E0001"]


def test_partial_message_scores_partially(make_repo: MakeRepo) -> None:
    # The first 8 of 13 tokens: enough to suggest, not enough to be certain.
    [m] = matcher(make_repo()).match("fixture: The NVIDIA driver on your system is", top=1)
    assert m.entry_id == "E0002" and 0.6 <= m.score < 0.9


def test_unrelated_log_is_no_match(make_repo: MakeRepo) -> None:
    log = "RuntimeError: CUDA error: an illegal memory access was encountered\nthe driver is fine"
    assert matcher(make_repo()).match(log) == []


def test_cli_json_shape(make_repo: MakeRepo, tmp_path: object) -> None:
    repo = make_repo()
    result = CliRunner().invoke(cli, ["match", "--root", str(repo), "--json", "-"], input=DRIVER)
    assert result.exit_code == 0
    [row] = json.loads(result.stdout)
    assert row == {
        "id": "E0002",
        "slug": "fixture-driver-too-old",
        "title": "Fixture: driver too old",
        "url": "https://errkb.github.io/errkb/errors/fixture-driver-too-old/",
        "score": 1.0,
        "line": 1,
        "matched": DRIVER,
    }
    result = CliRunner().invoke(cli, ["match", "--root", str(repo), "-"], input="all good\n")
    assert result.stdout.startswith("no match")


REAL_LOGS = sorted((Path(__file__).parent / "fixtures" / "logs").glob("*.log"))


def test_guards_never_change_cleaning() -> None:
    """The substring guards in clean_line only skip rules that could not have matched."""
    lines = [line for p in REAL_LOGS for line in p.read_text(encoding="utf-8").splitlines()]
    lines += ["\x1b[0mINFO 06-12 10:41:03 x", "C:\\Users\\me\\x.gguf 12 GiB", "0xdead 5 bytes"]
    assert [clean_line(line) for line in lines] == [clean_line_unguarded(line) for line in lines]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("aZ09 -:./\\x\x1b[]()=BKMGiTbytes_")), max_size=60))
def test_guards_never_change_cleaning_on_any_text(line: str) -> None:
    assert clean_line(line) == clean_line_unguarded(line)


def test_needles_are_literal_text_every_match_contains() -> None:
    assert needles(r"No available memory for the cache blocks") == [
        "no available memory for the cache blocks"
    ]
    assert needles(r"(graph\.replay\(\)|CUDAGraph::replay\(\))") == ["cudagraph", "replay"]
    assert needles("colou?r model") == ["r model"]  # the optional "u" ends a run
    assert needles(r"\d+ tokens") == ["tokens"]
    assert needles("(?:foo bar|baz qux) x") is None  # alternation inside: no certain text
    assert needles("a|b") is None  # too short to be worth it


def test_trigger_words_lie_where_every_match_must_reach() -> None:
    # 11 tokens: a reported match needs 7 of them (MIN_SCORE), starting at most 2 in, so
    # tokens 2..6 are in every match; placeholders ("size") are not words of the log.
    toks = tuple(
        [
            "error",
            "model",
            "requires",
            "more",
            "system",
            "memory",
            "size",
            "than",
            "is",
            "available",
            "size",
        ]
    )
    assert trigger_words(toks) == ("requires", "more", "system", "memory")
    # Long messages count their first CAP tokens: 15 of 24 are needed.
    assert len(trigger_words(tuple(f"w{i}" for i in range(60)))) == 13
    assert trigger_words(tuple(["a", "b", "0", "0", "0"])) == ()


def test_rarest_trigger_in_this_log_picks_the_lines() -> None:
    """A routine line that shares a common trigger word does not make the log a candidate."""
    m = Matcher(matcher_data(real_corpus().entries))
    routine = "INFO metrics.py:341] Avg prompt throughput: 2.1 tokens/s, Avg generation throughput"
    log = "\n".join([routine] * 500)
    lowered = Lines(split_lines(log.lower()))
    assert sum(m.candidates(lowered)) == 0


def test_candidate_filter_is_invisible_on_real_logs() -> None:
    """On every real log, cleaning only candidate lines ranks exactly as cleaning all lines."""
    data = matcher_data(real_corpus().entries)
    fast, full = Matcher(data), Matcher(data)
    full.scan_all = True
    for path in REAL_LOGS:
        log = path.read_text(encoding="utf-8")
        assert fast.match(log, top=5) == full.match(log, top=5), path.name


def test_js_flags_are_the_browsers() -> None:
    """errkb check compiles patterns with the flags matcher.js gives `new RegExp`."""
    from errkb.entries.jsregex import JS_FLAGS, js_regex_error

    js = (ROOT / "docs" / "assets" / "javascripts" / "matcher.js").read_text(encoding="utf-8")
    flags = re.findall(r'new RegExp\(\s*[\w.]*regex\s*,\s*"([a-z]*)"\s*\)', js)
    assert flags and set(flags) == {JS_FLAGS}, flags
    assert js_regex_error(r"CUDA out of memory\. Tried to allocate \d+") is None
    assert js_regex_error("address (?>already) in use") == "invalid group"
