"""The log matcher on the fixture corpus: normalisation, ranking, honest 'no match'."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from errkb.checks.corpus import load_corpus
from errkb.cli import cli
from errkb.matcher import (
    MIN_SCORE,
    Lines,
    Matcher,
    anchor_words,
    clean_line,
    clean_line_unguarded,
    matcher_data,
    message_tokens,
    needles,
    reachable,
    split_lines,
    total,
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
    # Most of the message's weight, not all: enough to suggest, not enough to be certain.
    found = matcher(make_repo())
    [m] = found.match("fixture: The NVIDIA driver on your system is too old", top=1)
    assert m.entry_id == "E0002" and MIN_SCORE <= m.score < 0.9 and not m.possible
    # Its first 8 of 13 tokens (the words that tell it apart missing) are not a match.
    assert found.match("fixture: The NVIDIA driver on your system is") == []


def test_alignment_tolerates_inserted_and_missing_words(make_repo: MakeRepo) -> None:
    """A wording a release changed (words in between, a word dropped) and a prefixed line."""
    m = matcher(make_repo())
    log = "vllm-1  | (RayWorkerVllm pid=12, ip=10.0.0.2) [rank0]: fixture: The NVIDIA driver on this system is sadly too old (version 3)."
    [first] = m.match(log, top=1)
    assert first.entry_id == "E0002" and first.score >= 0.75 and not first.possible
    quoted = (
        "> ```\n> fixture: The NVIDIA driver on your system is too old (found version 1).\n> ```"
    )
    assert [x.entry_id for x in m.match(quoted, top=1)] == ["E0002"]
    json_record = '{"level":"error","msg":"boom:\\nfixture: The NVIDIA driver\\non your system is too old (found version 1)."}'
    assert [x.entry_id for x in m.match(json_record, top=1)] == ["E0002"]


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
        "possible": False,
        "generic": False,
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
@given(
    st.text(
        alphabet=st.sampled_from(list("aZ09 -:./\\x\x1b[]()=BKMGiTbytes_>|`~nrk^")), max_size=60
    )
)
def test_guards_never_change_cleaning_on_any_text(line: str) -> None:
    assert clean_line(line) == clean_line_unguarded(line)


def test_needles_are_literal_text_every_match_contains() -> None:
    assert needles(r"No available memory for the cache blocks") == [
        "no available memory for the cache blocks"
    ]
    assert needles(r"(graph\.replay\(\)|CUDAGraph::replay\(\))") == [
        "cudagraph::replay()",
        "graph.replay()",
    ]
    # Punctuation that is no regex operator is text too: E0214's "--limit-mm-per-prompt" had
    # the needle "prompt", which every vLLM metrics line holds, and cleaned half a serving log.
    assert needles(r"--limit-mm-per-prompt.?, but (passed|found) \d+") == ["--limit-mm-per-prompt"]
    # Escaped punctuation is literal text; a pattern with no run of 4 letters had no needle
    # and ran on every line of a 10,000-line log (E0167's Ollama request-log pattern).
    assert needles(r"\[GIN\] .*\| 403 \|") == ["[gin]"]
    assert needles(r"cuda\.?graph \d+ x") == ["graph"]  # "\d" is a class, not text
    assert needles("colou?r model") == ["r model"]  # the optional "u" ends a run
    assert needles(r"\d+ tokens") == ["tokens"]
    assert needles("(?:foo bar|baz qux) x") is None  # alternation inside: no certain text
    assert needles("a|b") is None  # too short to be worth it


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet="abz_ .:/-\n()'", max_size=6),
    st.text(alphabet="abz_ .:/-\n()'", max_size=6),
    st.integers(min_value=0, max_value=10**6),
)
def test_a_needle_in_a_log_passes_the_word_filters(before: str, after: str, pick: int) -> None:
    """The pattern stage skips a needle whose inner words are not words of the log, or whose
    words (the two at its ends perhaps cut) are part of no word of the log: a needle the log
    holds, whatever surrounds it, passes both, so the skips change no result."""
    from errkb.matcher import WORDS_ONLY

    m = _real_matcher()
    found = [
        (n, ws, cut)
        for (_, _, lits), words in zip(m.patterns, m.needle_parts, strict=True)
        for n, (ws, cut) in zip(lits or (), words, strict=True)
    ]
    needle, ws, cut = found[pick % len(found)]
    words = frozenset((before + needle + after).encode().translate(WORDS_ONLY).split())
    vocabulary = b"\n".join(words)
    assert words.issuperset(ws)
    assert all(w in words or w in vocabulary for w in cut)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(alphabet="abz_ .:[]/-()'0", max_size=12), min_size=1, max_size=8),
    st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=3),
    st.integers(min_value=0, max_value=9),
)
def test_needles_found_through_their_rarest_word_are_the_lines_a_full_search_finds(
    lines: list[str], picks: list[int], stop: int
) -> None:
    """NeedleLines reads only the lines holding a needle's rarest inner word; the lines it
    reports are exactly those a search of the whole text reports, in order, before `stop`.
    Needles are the corpus's own, some written into the lines, some only their words."""
    from errkb.match.lines import NeedleLines
    from errkb.matcher import WORDS_ONLY, needle_words

    m = _real_matcher()
    pool = [n for _, _, lits in m.patterns for n in lits or ()]
    needles = [pool[p % len(pool)] for p in picks]
    inner = [needle_words(n)[0] for n in needles]
    # Every third line holds a needle, every third its inner words only (not the needle).
    lines = [
        line
        + (
            needles[k % len(needles)]
            if k % 3 == 1
            else " ".join(w.decode() for w in inner[k % len(needles)])
            if k % 3 == 2
            else ""
        )
        for k, line in enumerate(lines)
    ]
    lowered = Lines([line.lower() for line in lines])
    words_only = [line.encode("utf-8", "replace").translate(WORDS_ONLY) for line in lowered.lines]
    index = NeedleLines(lowered, words_only, m.needle_vocab)
    got = list(index.holding(needles, inner, min(stop, len(lines))))
    assert got == list(lowered.iter_containing(needles, min(stop, len(lines))))


@functools.cache
def _real_data() -> dict[str, Any]:
    return matcher_data(real_corpus().entries)


@functools.cache
def _suite_log_texts() -> list[str]:
    return [path.read_text("utf-8") for path in REAL_LOGS]


@functools.cache
def _real_matcher() -> Matcher:
    return Matcher(matcher_data(real_corpus().entries))


def test_every_pattern_in_the_corpus_has_a_needle() -> None:
    """A pattern without one is tried on every line of a log (E0167's did, until its escaped
    brackets counted as text): the serving-log benchmark doubled."""
    corpus = real_corpus()
    missing = [(e.id, p.regex) for e in corpus.entries for p in e.patterns if not needles(p.regex)]
    assert missing == []


def test_routine_serving_lines_are_not_candidates() -> None:
    """A template whose anchor word every request or metrics line holds gets the whole serving
    log cleaned: E0258's httpx line (anchor `http`, in every `"POST ... HTTP/1.1" 200 OK`)
    took the serving benchmark from 78 to 320 ms. Routine vLLM lines, none near an error,
    must stay out of the candidates."""
    from benchmarks.match_bench import routine_lines

    m = Matcher(matcher_data(real_corpus().entries))
    marked, _ = m.candidates(Lines(split_lines("\n".join(routine_lines(200)).lower())))
    assert sum(marked) == 0


def test_routine_serving_lines_hold_no_patterns_needle() -> None:
    """A pattern is tried on every distinct line holding one of its needles: a needle that
    every metrics or request line holds gets the whole serving log cleaned and searched. A
    generic pattern for V0's `Running: N reqs, Swapped: M reqs` (needle ` reqs, swapped: `)
    took the serving benchmark from 54 to 128 ms."""
    from benchmarks.match_bench import routine_lines

    m = _real_matcher()
    text = "\n".join(routine_lines(200)).lower()
    held = sorted({n for _, _, lits in m.patterns for n in lits or () if n in text})
    assert held == []


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["a", "b", "c", "d", "the", "of", "0", "size"]), min_size=5, max_size=24
    ),
    st.lists(st.floats(min_value=0.1, max_value=5.0), min_size=24, max_size=24),
    st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), st.integers(0, 9)),
)
def test_anchor_words_are_in_every_reported_match(
    toks: list[str], raw: list[float], counts: dict[str, int]
) -> None:
    """The weight of a template outside its anchor words is below MIN_SCORE of the whole:
    a match that aligned none of them could not be reported, so only lines near an anchor
    word need cleaning."""
    weights = raw[: len(toks)]
    anchors = anchor_words(toks, weights, lambda w: counts.get(w, 0), MIN_SCORE)
    if not reachable(toks, weights, MIN_SCORE):
        return
    outside = total([w for t, w in zip(toks, weights, strict=True) if t not in anchors])
    assert outside < MIN_SCORE * total(weights)


def test_rare_words_are_anchors_first() -> None:
    toks = ["cuda", "out", "of", "memory", "tried", "allocate", "size"]
    weights = [1.0] * len(toks)
    counts = {"cuda": 9, "out": 9, "memory": 9, "tried": 0, "allocate": 1}
    assert anchor_words(toks, weights, lambda w: counts.get(w, 0), 0.75)[:2] == [
        "tried",
        "allocate",
    ]


def test_rarest_trigger_in_this_log_picks_the_lines() -> None:
    """A routine line that shares a common trigger word does not make the log a candidate."""
    m = Matcher(matcher_data(real_corpus().entries))
    routine = "INFO metrics.py:341] Avg prompt throughput: 2.1 tokens/s, Avg generation throughput"
    log = "\n".join([routine] * 500)
    lowered = Lines(split_lines(log.lower()))
    assert sum(m.candidates(lowered)[0]) == 0


def test_candidate_filter_is_invisible_on_real_logs() -> None:
    """On every real log, cleaning only candidate lines ranks exactly as cleaning all lines."""
    data = matcher_data(real_corpus().entries)
    fast, full = Matcher(data), Matcher(data)
    full.scan_all = True
    for path in REAL_LOGS:
        log = path.read_text(encoding="utf-8")
        assert fast.match(log, top=5) == full.match(log, top=5), path.name


def test_context_decides_between_siblings_sharing_a_wording() -> None:
    """The same PyTorch OOM line: loading weights (E0009), a request (E0008), warming up
    the sampler (E0049, whose own wording the paste does not show)."""
    root = Path(__file__).resolve().parent.parent
    corpus = load_corpus(root, today=TODAY, lock=None).corpus
    m = Matcher(matcher_data(corpus.entries))
    oom = corpus.by_id()["E0009"].messages[0].text
    # Alone, the line matches both E0008 and E0009 (they share the wording), not E0049.
    alone = {x.entry_id: x.score for x in m.match(oom, top=5)}
    assert alone["E0008"] >= 0.9 and alone["E0009"] >= 0.9 and "E0049" not in alone
    cases = {
        "Loading safetensors checkpoint shards:  50% Completed | 1/2 [00:01<00:01,  1.20s/it]": "E0009",
        "INFO 06-02 09:39:03 [logger.py:39] Received request chatcmpl-6f2: prompt: 'Summarise'": "E0008",
        "(VllmWorker rank=0 pid=1) INFO 06-02 09:39:03 [gpu_model_runner.py:1] Warming up with dummy requests": "E0049",
    }
    for before, expected in cases.items():
        ranked = [x.entry_id for x in m.match(f"{before}\n{oom}", top=3)]
        assert ranked[0] == expected, (before, ranked)
        assert {"E0008", "E0009"} <= set(ranked)  # the others stay listed


def _assert_cleaned(cases: dict[str, str]) -> None:
    """Each line cleans to its value, with the substring guards and without."""
    for line, cleaned in cases.items():
        assert clean_line(line).strip() == cleaned, line
        assert clean_line_unguarded(line).strip() == cleaned, line


def test_clean_line_strips_the_prefixes_real_pastes_carry() -> None:
    cases = {
        'ollama  | time=2024-01-01T00:00:00.000Z level=ERROR source=server.go:1 msg="boom"': '"boom"',
        'level=ERROR source=server.go:1 msg="boom"': '"boom"',
        "Jun 18 22:16:41 host ollama[116408]: SIGABRT: abort": "SIGABRT: abort",
        "Jun  8 02:16:41 gpu-box kernel: boom": "boom",
        "ollama  | 2024/01/21 22:41:55 gpu.go:146: CUDA Compute Capability detected: 8.6": "CUDA Compute Capability detected:  0",
        "vllm-1  | (RayWorkerVllm pid=1234, ip=10.0.0.1) ERROR 06-02 09:39:03 [core.py:396] boom": "boom",
        "[rank0]: torch.OutOfMemoryError: boom": "torch.OutOfMemoryError: boom",
        "(RayWorkerVllm pid=1234) [rank1]: boom": "boom",
        "> > boom": "boom",
        "```text": "",
        "  | ValueError: boom": "ValueError: boom",
        "VM-0-16-ubuntu:392:494 [2] enqueue.cc:43 NCCL WARN Cuda failure": "enqueue.cc: 0  NCCL WARN Cuda failure",
        "2024-04-12T08:51:37.145592Z ERROR warmup{max_input_length=4096}:warmup: text_generation_client: "
        "router/client/src/lib.rs:33: Server error: CUDA out of memory": "Server error: CUDA out of memory",
        "2024-04-12T08:51:37.145592Z ERROR text_generation_launcher: Error when initializing model": "Error when initializing model",
        '{"level":"error","msg":"a\\nb"}': '{"level":"error","msg":"a b"}',
    }
    _assert_cleaned(cases)


def test_the_model_type_a_loader_names_is_the_users_not_the_errors() -> None:
    cases = {
        "ValueError: Model type qwen3_moe not supported.": "ValueError: Model type  quoted  not supported.",
        "error: Unsupported model type: deepseek_v3": "error: Unsupported model type:  quoted",
        "has model type `glm4_moe_lite` but Transformers": "has model type  quoted  but Transformers",
        # No name in the slot: the words stay words.
        "Model type not supported": "Model type not supported",
    }
    _assert_cleaned(cases)
    # Another model's report of the same error is no contradiction (E0081 stores deepseek_v3).
    m = Matcher(matcher_data(real_corpus().entries))
    assert m.match("Unsupported model type: qwen3_moe", top=1)[0].entry_id == "E0081"


def test_js_flags_are_the_browsers() -> None:
    """errkb check compiles patterns with the flags matcher.js gives `new RegExp`."""
    from errkb.entries.jsregex import JS_FLAGS, js_regex_error

    js = (ROOT / "docs" / "assets" / "javascripts" / "matcher.js").read_text(encoding="utf-8")
    flags = re.findall(r'new RegExp\(\s*[\w.]*regex\s*,\s*"([a-z]*)"\s*\)', js)
    assert flags and set(flags) == {JS_FLAGS}, flags
    assert js_regex_error(r"CUDA out of memory\. Tried to allocate \d+") is None
    assert js_regex_error("address (?>already) in use") == "invalid group"


def test_every_pattern_fires_on_the_printed_line_it_was_written_for() -> None:
    # Patterns run on cleaned lines (numbers, paths and quoted names become placeholders) and
    # on the line as printed: 91 of 225 patterns matched none of their own entry's cleaned
    # messages, so a pattern such as `unknown model architecture: '[^']*'` never fired.
    import re as _re

    from errkb.match.normalize import split_lines
    from errkb.matcher import Matcher, matcher_data

    corpus = real_corpus()
    matcher = Matcher(matcher_data(corpus.entries))
    checked = 0
    for entry in corpus.entries:
        for pattern in entry.patterns:
            rx = _re.compile(pattern.regex, _re.IGNORECASE | _re.ASCII)
            lines = [ln for m in entry.messages for ln in split_lines(m.text) if rx.search(ln)]
            if not lines:
                continue  # written for a wording the entry does not store
            found = [m.entry_id for m in matcher.match(lines[0], top=10)]
            assert entry.id in found, (entry.id, pattern.regex, lines[0])
            # ... and behind a timestamp, which cleaning removes, `^` patterns included.
            stamped = f"2025-06-02T09:39:03.123Z {lines[0]}"
            found = [m.entry_id for m in matcher.match(stamped, top=10)]
            assert entry.id in found, (entry.id, pattern.regex, stamped)
            checked += 1
    assert checked >= 150


def test_a_cause_on_its_symptoms_line_ranks_below_it_unless_it_matches_as_well() -> None:
    """E0029 (Ollama's runner terminated, a symptom) lists E0087 (illegal instruction) as a
    cause. A line cut short of E0087's wording matches it less well than E0029's, and the
    line is E0029's; with the cause's own wording whole, the cause leads. A runner that died
    of another signal shares most of E0087's words, but the log contradicts the two that
    matter ("segmentation fault" where E0087 says "illegal instruction"): no E0087 from its
    wordings. (The second stage fills the places after a template match by shared words, so
    E0087 may follow as a *possible* match, never before E0029 and never as a confident one.)"""
    m = Matcher(matcher_data(real_corpus().entries))
    cut = "llama runner process has terminated: signal: illegal instruction"
    ranked = [x.entry_id for x in m.match(cut, top=3)]
    assert ranked[0] == "E0029" and "E0087" in ranked
    segfault = "llama runner process has terminated: signal: segmentation fault (core dumped)"
    found = m.match(segfault, top=3)
    assert [x.entry_id for x in found if not x.possible] == ["E0029"]
    assert found[0].entry_id == "E0029" and all(x.possible for x in found[1:])
    illegal = "llama runner process has terminated: signal: illegal instruction (core dumped)"
    assert m.match(illegal, top=3)[0].entry_id == "E0087"


def test_context_links_hold_phased_memory_siblings_linked_either_way() -> None:
    from types import SimpleNamespace

    from errkb.match.context import context_links

    def entry(id_: str, title: str, category: str, related: list[str]) -> SimpleNamespace:
        return SimpleNamespace(id=id_, title=title, category=category, related=related)

    entries = [
        entry("E0001", "Out of memory while loading weights", "memory", ["E0002", "E0004"]),
        entry("E0002", "Out of memory during a long prompt", "memory", []),  # linked from E0001
        entry("E0003", "Out of memory while warming up", "memory", ["E0001", "E0003"]),
        entry("E0004", "Loading shards fails", "loading", ["E0001"]),  # another category
        entry("E0005", "Driver too old", "memory", ["E0001"]),  # no phase word in its title
        # Phased and related, but not memory: different lines, never phase siblings.
        entry("E0006", "Adapter fails while loading", "model", ["E0007"]),
        entry("E0007", "Generate refuses a keyword", "model", []),
    ]
    assert context_links(entries) == {  # type: ignore[arg-type]
        "E0001": ["E0002", "E0003"],
        "E0002": ["E0001"],
        "E0003": ["E0001"],
    }


WEBUI_WRAPPER = (
    '12:00:00-101 INFO     Loading "model.gguf"\n'
    "12:00:01-202 ERROR    Failed to load the model.\n"
    "Traceback (most recent call last):\n"
    '  File "modules/models.py", line 66, in llama_cpp_server_loader\n'
)


def test_a_generic_line_alone_is_a_possible_match_and_a_specific_one_is_confident() -> None:
    """E0090 marks text-generation-webui's `Failed to load the model.` generic: the web UI
    prints it for every loader's failure, not only for the llama.cpp loader's."""
    m = Matcher(matcher_data(real_corpus().entries))
    unknown = WEBUI_WRAPPER + "ModuleNotFoundError: No module named 'some_loader_binaries'\n"
    [first, *_] = m.match(unknown)
    assert (first.entry_id, first.possible, first.generic, first.line) == ("E0090", True, True, 2)
    assert first.score <= 0.49
    specific = WEBUI_WRAPPER + "AttributeError: 'LlamaCppModel' object has no attribute 'model'\n"
    [first, *_] = m.match(specific)
    assert (first.entry_id, first.possible, first.generic) == ("E0090", False, False)
    assert first.score >= 0.9


def test_a_generic_pattern_gives_a_possible_match_below_the_entry_whose_message_it_is() -> None:
    """E0029's catch-all pattern: Ollama's runner exited for a reason no entry stores, so the
    page that says where the reason is comes first, as a possible match; when the reason after
    the colon is a stored message (E0015's out of memory), E0015 leads, confidently."""
    m = Matcher(matcher_data(real_corpus().entries))
    odd = "Error: llama runner process has terminated: error loading model: some new reason xyz"
    [first, *_] = m.match(odd)
    assert (first.entry_id, first.possible, first.generic) == ("E0029", True, True)
    oom = "Error: llama runner process has terminated: cudaMalloc failed: out of memory"
    found = m.match(oom)
    assert (found[0].entry_id, found[0].possible) == ("E0015", False)
    assert all(f.possible for f in found if f.entry_id == "E0029")
    # The reason is a generic wording of E0026 (a tensor check also stops broken files): both
    # are possible matches, and the wording's entry comes first though the pattern scores 1.0.
    tensor = (
        "Error: llama runner process has terminated: error loading model: check_tensor_dims: "
        "tensor 'output.weight' not found"
    )
    found = m.match(tensor)
    assert [(f.entry_id, f.possible, f.generic) for f in found[:2]] == [
        ("E0026", True, True),
        ("E0029", True, True),
    ]
    assert found[0].score < found[1].score


def test_colour_codes_as_a_terminal_shows_them_are_removed_too() -> None:
    """Real pastes carry colours as `cat -v` or a terminal's copy shows them ("^[[1;36m"),
    which hid vLLM's process prefix from the prefix rules."""
    line = (
        "^[[1;36m(EngineCore_DP0 pid=43065)^[[0;0m ERROR 01-04 04:31:09 [core.py:844] "
        "CUDA kernel errors might be asynchronously reported"
    )
    assert clean_line(line) == "CUDA kernel errors might be asynchronously reported"


def test_a_word_the_log_contradicts_counts_against_the_match() -> None:
    """A template token skipped where the log holds another word is a contradiction, not a
    gap: "an illegal instruction" is not "an illegal memory access" (E0062), though all but
    the two words that matter align. Skipped tokens with nothing in their place (a cut line)
    and words the log inserts (a clause of a later release) are not contradictions."""
    from errkb.match.align import contradicted

    assert contradicted([0, 1, 3, 4], [10, 11, 13, 14]) == [2]  # one word for another
    assert contradicted([0, 1, 4], [10, 11, 13]) == [2, 3]  # one word in place of two
    assert contradicted([0, 1, 3], [10, 11, 12]) == []  # a word missing
    assert contradicted([0, 1, 2], [10, 11, 14]) == []  # words inserted
    m = Matcher(matcher_data(real_corpus().entries))
    memory = "RuntimeError: CUDA error: an illegal memory access was encountered"
    assert [(x.entry_id, x.possible) for x in m.match(memory, top=1)] == [("E0062", False)]
    instruction = "torch.AcceleratorError: CUDA error: an illegal instruction was encountered"
    assert all(x.possible for x in m.match(instruction, top=5))


def test_a_prefix_sharing_a_word_with_the_message_does_not_cut_its_alignment_short() -> None:
    """A seed on the prefix's "ERROR" aligned the rest of the line but not its first token,
    and its span hid the later seeds that align all of it: a sibling ranked first."""
    from errkb.matcher import Matcher, matcher_data

    matcher = Matcher(matcher_data(real_corpus().entries))
    line = "llama_model_load: error loading model: unable to allocate CPU buffer"
    for prefix in ("", "[2025-06-02 09:39:03][ERROR] ", "2025-06-02 09:39:03,123 - app - ERROR - "):
        found = matcher.match(prefix + line, top=3)
        assert [m.entry_id for m in found][:1] == ["E0066"], prefix
        assert found[0].score == 1.0, prefix


def test_a_quoted_error_code_is_the_error_not_a_users_name() -> None:
    """rocBLAS names the HIP error code in quotes; it tells hipErrorInvalidImage from the
    hipErrorInvalidDeviceFunction that E0040 stores, so it stays a word."""
    from errkb.matcher import Matcher, matcher_data

    assert "hipErrorInvalidImage" in clean_line(
        "rocBLAS error from hip error code: 'hipErrorInvalidImage':200"
    )
    matcher = Matcher(matcher_data(real_corpus().entries))
    stored = "rocBLAS error from hip error code: 'hipErrorInvalidDeviceFunction':98"
    assert [m.entry_id for m in matcher.match(stored)][:1] == ["E0040"]
    other = "rocBLAS error from hip error code: 'hipErrorInvalidImage':200"
    assert not [m for m in matcher.match(other) if not m.possible]


def test_another_attribute_module_or_import_name_is_another_error() -> None:
    """The name after "no attribute", "module named" or "import name" is the error itself, so
    a log naming another there does not match the wording, however common the stored name
    ('model') is; a line cut right after the pair, or a placeholder there, contradicts nothing."""
    from errkb.match.align import named_at, renamed
    from errkb.matcher import NAMING

    toks = ("attributeerror", "quoted", "object", "has", "no", "attribute", "model")
    named = named_at(toks, frozenset(NAMING))
    assert named == (6,)
    assert named_at((*toks[:6], "quoted"), frozenset(NAMING)) == ()  # a placeholder stored
    stream = ["attributeerror", "quoted", "object", "has", "no", "attribute", "engine"]
    line_of = [0] * len(stream)
    head = list(range(6))
    assert renamed(head, head, named, stream, line_of)
    assert not renamed(head, head, named, stream[:6], line_of[:6])  # cut after the pair
    assert not renamed(head, head, named, [*stream[:6], "0"], line_of)  # a placeholder
    assert not renamed(head, head, named, stream, [0] * 6 + [1])  # the next line's word
    assert not renamed([*head, 6], [*head, 6], named, stream, line_of)  # the same name
    m = Matcher(matcher_data(real_corpus().entries))
    stored = "AttributeError: 'LlamaCppModel' object has no attribute 'model'"
    assert [(x.entry_id, x.possible) for x in m.match(stored, top=1)] == [("E0090", False)]
    other = "AttributeError: 'AsyncLLM' object has no attribute 'engine'"
    assert not [x for x in m.match(other, top=5) if x.entry_id == "E0090" and not x.possible]


def test_another_undefined_name_is_another_error() -> None:
    """A NameError's name is kept a word (not cleaned to a placeholder) and follows a naming
    pair, so E0471's "name 'Replicate' is not defined" (transformers 4.52.2) is not the
    "name 'exllamav2_ext' is not defined" of a kernel extension that failed to build."""
    from errkb.match.align import named_at
    from errkb.matcher import NAMING

    toks = message_tokens("NameError: name 'Replicate' is not defined")
    assert toks[:3] == ("nameerror", "name", "replicate")
    assert named_at(toks, frozenset(NAMING)) == (2,)
    m = Matcher(matcher_data(real_corpus().entries))
    stored = "NameError: name 'Replicate' is not defined"
    assert [(x.entry_id, x.possible) for x in m.match(stored, top=1)] == [("E0471", False)]
    other = "NameError: name 'exllamav2_ext' is not defined"
    assert "E0471" not in [x.entry_id for x in m.match(other, top=5)]


def test_another_shared_library_is_another_error() -> None:
    """The library after "error while loading shared libraries:" is the error: E0473's missing
    libgomp.so.1 (an OpenMP runtime) is not a missing libnccl.so.2."""
    m = Matcher(matcher_data(real_corpus().entries))
    line = "/app/llama-server: error while loading shared libraries: {}: cannot open shared object file: No such file or directory"
    assert [(x.entry_id, x.possible) for x in m.match(line.format("libgomp.so.1"), top=1)] == [
        ("E0473", False)
    ]
    assert not [x for x in m.match(line.format("libnccl.so.2"), top=5) if x.entry_id == "E0473"]


def test_a_bounded_line_search_reads_only_the_lines_before_its_bound() -> None:
    """The pattern stage stops at the line where an entry already scored 1.0: lines from the
    bound on are never reported, and the lines before it are all reported, in order."""
    lowered = Lines(["x a", "b", "x b", "x", "b x"])
    assert list(lowered.lines_with("x")) == [0, 2, 3, 4]
    assert list(lowered.lines_with("x", before=3)) == [0, 2]
    assert list(lowered.lines_with("x", before=0)) == []
    assert list(lowered.iter_containing(["x", "b"], before=3)) == [0, 1, 2]
    assert list(lowered.iter_containing(["x", "b"])) == [0, 1, 2, 3, 4]


def test_seeds_skipped_past_a_tie_change_no_ranking() -> None:
    """A template that can at best tie its entry's score so far is not seeded beyond its
    reach from that entry's line: the suite's logs and the dense benchmark log, where the skip
    does most, rank exactly as without it, and the skip is taken."""
    from benchmarks.match_bench import build_log

    class Counting(Matcher):
        bounded = 0

        def align_template(self, *args: Any, **kwargs: Any) -> tuple[float, int] | None:
            until = args[8]
            if until is not None:
                Counting.bounded += 1
            return super().align_template(*args, **kwargs)

    data = matcher_data(real_corpus().entries)
    pruned, whole = Counting(data), Matcher(data)
    whole.tie_pruning = False
    logs = _suite_log_texts()
    for log in [*logs, build_log()]:
        assert pruned.match(log, top=5) == whole.match(log, top=5)
    assert Counting.bounded > 0


def test_seeds_in_a_copy_of_an_earlier_stretch_change_no_ranking(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A seed whose surroundings copy an earlier seed's is not aligned again: logs that repeat
    themselves (suite logs printed again after others, as a retry loop or a second rank does;
    the same lines shuffled and repeated; the dense benchmark log) rank exactly as when every
    seed is aligned, and copies are found."""
    import random

    import errkb.matcher as matcher_module
    from benchmarks.match_bench import build_log
    from errkb.match.repeats import Windows

    seen: list[int] = []

    class Counting(Windows):
        def line_name(self, s: int) -> int | None:
            name = super().line_name(s)
            seen.append(-1 if name is None else name)
            return name

    monkeypatch.setattr(matcher_module, "Windows", Counting)
    skipping, whole = Matcher(_real_data()), Matcher(_real_data())
    whole.skip_copies = False
    logs = _suite_log_texts()
    rnd = random.Random(14)
    repeated = [build_log()]
    for k in range(40):
        a, b, c = rnd.sample(logs, 3)
        lines = "\n".join([a, b, a, c, b, a]).split("\n")
        if k % 2:
            rnd.shuffle(lines)
            lines += lines[: len(lines) // 2]
        repeated.append("\n".join(lines))
    for log in repeated:
        assert skipping.match(log, top=8) == whole.match(log, top=8)
    named = [n for n in seen if n >= 0]
    assert len(named) > len(set(named)), "no copy was found"


def test_a_copy_of_a_stretch_has_the_same_name_and_the_edges_none() -> None:
    """Windows names equal surroundings equally: same lines, same place, same segment breaks."""
    from errkb.match.repeats import Windows

    # Six kept lines of two tokens each; shapes 2 * line + break. Lines 0-2 and 3-5 are the
    # same lines, but line 3 follows skipped lines (odd shape) where line 0 does not matter.
    starts = [0, 2, 4, 6, 8, 10, 12, 14, 16]
    shapes = [2, 4, 6, 2, 4, 6, 2, 4, 6]
    w = Windows(starts, shapes, 18, reach=2)
    assert w.line_name(0) is None and w.line_name(8) is None  # runs off the stream
    assert w.line_name(4) == w.line_name(7) and w.line_name(1) == w.line_name(4)
    assert w.line_name(2) != w.line_name(1)
    broken = Windows(starts, [2, 4, 6, 3, 4, 6, 2, 4, 6], 18, reach=2)
    assert broken.line_name(4) != broken.line_name(7)  # a segment break before line 3
    assert Windows(starts, shapes, 18, reach=3).line_name(1) is None


def test_matching_makes_no_reference_cycles() -> None:
    """The collector is paused while a log is matched (`Matcher.match`): that is only sound
    if everything matching allocates is freed by reference counting. A collection right after
    matching the dense benchmark log and a suite log finds nothing to free."""
    import gc

    from benchmarks.match_bench import build_log

    m = Matcher(matcher_data(real_corpus().entries))
    logs = [
        build_log(2_000),
        (ROOT / "tests/fixtures/logs/001-vllm-v0-no-cache-blocks-docker.log").read_text(),
    ]
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        for log in logs:
            assert m.match(log, top=5)
            assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()


def test_seeds_beyond_reach_change_no_alignment(monkeypatch: pytest.MonkeyPatch) -> None:
    """A seed whose alignment can neither start at the template's first token nor weigh its
    threshold (or more than the best so far) is not aligned: on the suite's logs, the dense
    benchmark log and mixes of suite logs, every template's reported alignment (its best one,
    when it reaches the threshold) and every ranking are what aligning every seed gives, and
    seeds are skipped."""
    import random

    import errkb.matcher as matcher_module
    from benchmarks.match_bench import build_log
    from errkb.match.align import beyond_reach

    skipped: list[bool] = []

    def counting(*args: Any) -> bool:
        skipped.append(beyond_reach(*args))
        return skipped[-1]

    class Recording(Matcher):
        def __init__(self, data: dict[str, Any]) -> None:
            super().__init__(data)
            self.found: list[tuple[float, int] | None] = []

        def align_template(self, *args: Any, **kwargs: Any) -> tuple[float, int] | None:
            found = super().align_template(*args, **kwargs)
            reported = found is not None and found[0] >= kwargs["need"]
            self.found.append(found if reported else None)
            return found

    monkeypatch.setattr(matcher_module, "beyond_reach", counting)
    pruned, whole = Recording(_real_data()), Recording(_real_data())
    whole.reach_pruning = False
    rnd = random.Random(13)
    mixes = ["\n".join(rnd.sample(_suite_log_texts(), 4)) for _ in range(20)]
    logs = _suite_log_texts()
    for log in [*logs, *mixes, build_log()]:
        assert pruned.match(log, top=8) == whole.match(log, top=8)
    assert pruned.found == whole.found
    assert any(skipped) and not all(skipped)
