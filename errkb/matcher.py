"""Paste a log, find the entry: one matching definition for the CLI, the JSON API and the browser.

The definition is data (`matcher_data`, exported as `api/v1/matcher.json`):
normalisation rules as regexes that Python and JavaScript both run, each stored
wording reduced to weighted tokens, and the second stage's BM25 weights.
`docs/assets/javascripts/matcher.js` runs the same arithmetic, in the same order,
over the same JSON; browser tests hold the two to identical rankings. The stages
live in `errkb.match`; this module is the public front (`Matcher`, `matcher_data`).

How a log is scored:
1. Each line is cleaned by the rules (`errkb.match.normalize`: colours, the
   prefixes real logs carry, Markdown quotes, JSON escapes, timestamps, paths,
   quoted names, numbers) and cut into lowercase tokens; the lines make one token
   stream, so a message wrapped over several lines still matches.
2. A stored wording (its first CAP tokens) is aligned to the stream in order, gaps
   allowed (`errkb.match.align`); its score is the weight of the tokens aligned over
   the weight of all, each token weighted by how few entries use it (IDF), so
   boilerplate that many errors share counts little; a token skipped where the log
   holds other words takes CONTRADICTED of its weight away again, and so does a rare token
   just before where the alignment starts when the log holds another word there ("libcuda"
   for "libcudart"). It matches from MIN_SCORE.
3. Entry patterns (regexes) match on cleaned lines, or on lines as printed, and score 1.
4. Entries are ranked strong matches first (by position: the first error a log
   shows is usually the cause), causes before entries marked `symptom`; entries
   matched at the same line are ordered by the log's phase there
   (`errkb.match.context`).
5. A wording or pattern marked `generic` (a line the program also prints for failures the
   entry does not cover) gives its entry only as a *possible* match, after the others; at one
   line a generic wording (the line's message) comes before a generic pattern (its wrapper).
6. When no wording matches, the second stage (`errkb.match.lexical`) may offer
   *possible* matches: entries whose text (messages, title, summary, cause, detection
   notes) shares the words of the log's error lines, when one entry stands out; they
   rank below every template match, with scores below 0.5. After a template match the
   second stage's entries fill the remaining places without that test: they cannot make
   a log that no entry covers look covered, since something is listed already.

Speed: a 10,000-line log is mostly noise, so only *candidate* lines are cleaned:
lines near an anchor word of a template (the words of which every reportable
alignment holds one, chosen per log, rarest first) and lines holding a pattern's
literal text. Runs of other lines break the stream: no alignment crosses them.
Logs repeat themselves (retry loops, every rank's copy): a seed whose surroundings copy an
earlier seed's is not aligned again (`errkb.match.repeats`), and patterns search each
distinct line once, a needle with inner words only in the lines holding its rarest one
(`errkb.match.lines`). A seed whose alignment cannot matter is not aligned
(`align.beyond_reach`). None of these changes a result; the browser does without them.
"""

from __future__ import annotations

import gc
import itertools
import math
import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from errkb.match import lexical
from errkb.match import normalize as normalize_module
from errkb.match.align import (
    align,
    anchor_words,
    beyond_reach,
    contradicted,
    idf,
    named_at,
    reachable,
    renamed,
    replaced_first,
    token_weights,
    total,
)
from errkb.match.context import CONTEXT, PHASES, context_links, entry_phases, phase_at
from errkb.match.entry import Entry
from errkb.match.lines import NeedleLines
from errkb.match.needles import needles
from errkb.match.normalize import (
    ANSI,
    ESCAPES,
    PLACEHOLDERS,
    RULES,
    STOP,
    TOKEN_RE,
    WEAK,
    WORDS_ONLY,
    Lines,
    clean_line,
    clean_line_unguarded,
    content_tokens,
    is_trailer,
    split_lines,
    strip_colours,
    tokens,
)
from errkb.match.repeats import Windows
from errkb.memo import persistent

__all__ = [
    "CAP",
    "GAP",
    "MIN_SCORE",
    "MIN_TOKENS",
    "PLACEHOLDERS",
    "RULES",
    "STOP",
    "STRONG",
    "WEAK",
    "Entry",
    "Lines",
    "Match",
    "Matcher",
    "Template",
    "anchor_words",
    "clean_line",
    "clean_line_unguarded",
    "matcher_data",
    "needles",
    "reachable",
    "split_lines",
    "tokens",
    "total",
]

# Tokens checked, heaviest first, before aligning a seed (speed only; `align.beyond_reach`).
HEAVY = 6
MIN_TOKENS = 5  # a match of fewer tokens than this is a coincidence, not an error
MIN_SCORE = 0.75  # weighted fraction of a message that must align (near misses reach 0.71)
STRONG = 0.9  # above this a match is certain; ranked by position in the log
# A message's first CAP tokens identify it: long messages (PyTorch's OOM runs to 75 tokens)
# end in clauses that change between versions, so a score counts at most this many.
CAP = 24
# Stream tokens an alignment may step over between two matched tokens (versions insert clauses).
GAP = 6
# A template token the log contradicts (skipped where the log holds other words: "illegal
# memory access" against "illegal instruction") takes away this much of its weight again.
# Set on the suite and the calibration pastes: from 0 to 0.5 on 2026-11-26, top-1 494 to 495
# of 536, near misses given a page 20 to 18 of 146; 0.5 to 0.75 measured the same, 0.25 and 1
# worse (a slot the engine fills, such as ggml's op name, is a substitution too).
CONTRADICTED = 0.5
# A word held by at most this many entries, replaced by another word just before where a
# wording's alignment starts, counts as contradicted too (see align.replaced_first). Set on the
# calibration part: 3 took three confident pages from near misses and no right page from a
# case; 5 and 6 also took confidence from right pages.
RARE_ENTRIES = 3
# The word after these pairs names what the error is about: the attribute, the module, the
# import, the undefined name, the shared library ("has no attribute 'model'", "No module named
# 'vllm._C'", "cannot import name 'cached_download'", "NameError: name 'Replicate' is not
# defined", "error while loading shared libraries: libgomp.so.1"). A log naming another there
# is another error (see align.renamed). A quoted name after a pair must stay a word: the
# normaliser's quoted-name rule (normalize.RULES) lists the same contexts.
NAMING = (
    ("no", "attribute"),
    ("module", "named"),
    ("import", "name"),
    ("nameerror", "name"),
    ("shared", "libraries"),
)
# A template shorter than SHORT_TOKENS (`ERROR Failed to load the model.`) is made of words
# many errors share: spread over a line with gaps it is a coincidence, so it may skip at most
# SHORT_GAP tokens between two of its words. Set on the suite and the calibration pastes.
SHORT_TOKENS = 8
SHORT_GAP = 2
# ... and must align this much of its weight, not MIN_SCORE: "Failed to load the model" is
# most of "ERROR Failed to load the model." but not text-generation-webui's line.
SHORT_MIN_SCORE = 0.9
# Lines a match may reach before and after a line holding one of its anchor words.
WINDOW = (8, 16)
# The second stage. A log's error lines are the lines holding one of these (lowercase) texts.
ERROR_WORDS = [
    "error", "exception", "fail", "fatal", "killed", "abort", "traceback", "out of memory",
    "cannot", "unable", "not supported", "unsupported", "invalid", "oom", "panic", "assert",
    "segmentation fault", "core dumped", "denied", "refused", "not found", "no such",
    "illegal instruction", "terminated", "insufficient", "not enough", "too old", "unknown",
    "timeout", "timed out", "timing out",
]  # fmt: skip
QUERY_LINES = 24  # the first error lines of a log, with the line after each, make the query
# When nothing else matched, the second stage offers possible matches when its best entry
# stands out: it scores LEXICAL_MARGIN times the next entry, at most LEXICAL_UNKNOWN of the
# query's words are in no entry at all (a log mostly about things no page mentions is about
# something else), and either it scores LEXICAL_FLOOR and LEXICAL_COVERAGE of what the query's
# terms could score at best (each term's highest weight in any entry, added up), or it
# scores LEXICAL_SHORT_FLOOR and LEXICAL_FULL of that (a short query one entry explains
# almost whole). Then that entry and the next ones scoring half as much or more.
# Set on 2026-11-27 on the calibration part and the suite with every wording that matched a
# paste taken out of its entry, one paste at a time (an unseen wording, as held-out pastes
# bring): see tests/test_match_figures.py for the figures.
LEXICAL_FLOOR = 40.0
LEXICAL_COVERAGE = 0.5
LEXICAL_SHORT_FLOOR = 12.0
LEXICAL_FULL = 0.85
LEXICAL_UNKNOWN = 0.3
LEXICAL_MARGIN = 1.5
POSSIBLE_MAX = 0.5  # a possible match's shown score stays below this (and below MIN_SCORE)
GENERIC_MAX = 0.49  # a generic wording's match is shown at its score times this
LEXICAL_SCALE = 20.0  # shown score: POSSIBLE_MAX * s / (s + LEXICAL_SCALE) for a BM25 score s


@dataclass(frozen=True)
class Template:
    entry_id: str
    tokens: tuple[str, ...]  # the first CAP tokens of the wording: what a match is scored on
    symptom: bool
    generic: bool = False  # printed for many failures: matches only as a possible match


@dataclass(frozen=True)
class Match:
    entry_id: str
    score: float
    line: int  # 1-based line of the log where the match starts
    matched: str  # that line, as the user pasted it
    possible: bool = False  # a lower-confidence match: the second stage's, or a generic line's
    generic: bool = False  # possible because only a line printed for many failures matched


def templates(entries: Sequence[Entry]) -> list[Template]:
    out: list[Template] = []
    for entry in entries:
        if entry.retired:
            continue
        for message in entry.messages:
            toks = message_tokens(message.text)[:CAP]
            if len(toks) >= MIN_TOKENS:
                out.append(Template(entry.id, toks, entry.symptom, message.generic))
    return out


# Pure functions of the text, remembered between builds (`errkb.memo`): all but the edited
# entries' texts are the same as last time.
_NORMALIZE = Path(normalize_module.__file__ or "")


@persistent("message-tokens", _NORMALIZE)
def message_tokens(text: str) -> tuple[str, ...]:
    kept = (line for line in text.split("\n") if not is_trailer(line))
    return tuple(tokens(" ".join(clean_line(line) for line in kept)))


@persistent("lexical-tokens", _NORMALIZE)
def _lexical_tokens(text: str) -> list[str]:
    return content_tokens(" ".join(map(clean_line, text.split("\n"))))


def lexical_texts(entries: Sequence[Entry]) -> tuple[tuple[tuple[str, ...], str], ...]:
    """Each entry's text for the second stage: (messages, title, summary, detection), cause.

    The cause names the error in words that a wording of another release, or a wrapper's
    line, often shares with it where no stored wording does. It counts by its words alone:
    the pairs of its prose would treble the exported weights for little.
    """
    out: list[tuple[tuple[str, ...], str]] = []
    for entry in entries:
        texts = [m.text for m in entry.messages] + [entry.title, entry.summary]
        texts += [entry.detection] if entry.detection else []
        out.append((tuple(texts), entry.cause))
    return tuple(out)


def lexical_docs(texts: tuple[tuple[tuple[str, ...], str], ...]) -> list[list[list[str]]]:
    """`lexical.build`'s input: each text's tokens (messages first), then the cause's words
    one by one, so that they make no pairs."""
    return [
        [*(_lexical_tokens(t) for t in phrased), *([w] for w in _lexical_tokens(cause))]
        for phrased, cause in texts
    ]


# BM25 weights hang on every entry's text at once (one edit moves the IDF of its terms), so
# they are remembered for the whole corpus: a build whose entries' texts did not change (a
# hand-written page edited under `mkdocs serve`, a rebuild) reads them back.
@persistent("lexical-postings", _NORMALIZE, Path(lexical.__file__ or ""), Path(__file__))
def _postings(texts: tuple[tuple[tuple[str, ...], str], ...]) -> dict[str, list[list[float]]]:
    return lexical.build(lexical_docs(texts))


def matcher_data(entries: Sequence[Entry]) -> dict[str, Any]:
    """What the browser needs to match exactly as `errkb match` does, from every entry."""
    live = [e for e in entries if not e.retired]
    ids = [e.id for e in live]
    found = templates(live)
    by_entry: dict[str, list[tuple[str, ...]]] = {}
    for t in found:
        by_entry.setdefault(t.entry_id, []).append(t.tokens)
    weights = token_weights(list(by_entry.values()))
    kept = [t for t in found if reachable(t.tokens, [weights[x] for x in t.tokens], MIN_SCORE)]
    return {
        "version": 10,
        "rules": [[p, r] for p, r in RULES],
        "token_re": TOKEN_RE,
        "stop": sorted(STOP),
        "placeholders": sorted(PLACEHOLDERS),
        "min_tokens": MIN_TOKENS,
        "min_score": MIN_SCORE,
        "strong": STRONG,
        "gap": GAP,
        "contradicted": CONTRADICTED,
        "rare_weight": idf(len(by_entry), RARE_ENTRIES),  # a word RARE_ENTRIES entries hold
        "naming": [list(pair) for pair in NAMING],
        "short_tokens": SHORT_TOKENS,
        "short_gap": SHORT_GAP,
        "short_min_score": SHORT_MIN_SCORE,
        "window": list(WINDOW),
        "generic_max": GENERIC_MAX,
        "weights": weights,
        "templates": [
            {"id": t.entry_id, "tokens": list(t.tokens)} | ({"generic": True} if t.generic else {})
            for t in kept
        ],
        "symptoms": {e.id: sorted(r for r in e.related if r in ids) for e in live if e.symptom},
        "patterns": [
            {"id": e.id, "regex": p.regex, "needles": needles(p.regex)}
            | ({"generic": True} if p.generic else {})
            for e in live
            for p in e.patterns
        ],
        "context": {
            "lines": CONTEXT,
            "phases": PHASES,
            "entries": {e.id: entry_phases(e.title) for e in live if entry_phases(e.title)},
            "links": context_links(live),
        },
        "lexical": {
            "ids": ids,
            "error_words": ERROR_WORDS,
            "query_lines": QUERY_LINES,
            "floor": LEXICAL_FLOOR,
            "coverage": LEXICAL_COVERAGE,
            "short_floor": LEXICAL_SHORT_FLOOR,
            "full": LEXICAL_FULL,
            "unknown": LEXICAL_UNKNOWN,
            "margin": LEXICAL_MARGIN,
            "possible_max": POSSIBLE_MAX,
            "scale": LEXICAL_SCALE,
            "postings": _postings(lexical_texts(live)),
        },
    }


class Matcher:
    # Skip the seeds that can only tie an entry's score from a later line (see `match`); off
    # only in the test that checks the skip changes no ranking.
    tie_pruning = True
    # Skip the seeds whose surroundings copy an earlier seed's (`errkb.match.repeats`); off
    # only in the test that checks the skip changes no ranking.
    skip_copies = True
    # Skip the seeds whose alignment is known not to matter (`align.beyond_reach`); off only in
    # the test that checks the skip changes no ranking.
    reach_pruning = True

    def __init__(self, data: dict[str, Any]) -> None:
        self.min_tokens = int(data["min_tokens"])
        weight: dict[str, float] = data["weights"]
        self.templates = [
            (t["id"], tuple(t["tokens"]), tuple(weight[x] for x in t["tokens"]))
            for t in data["templates"]
        ]
        self.totals = [total(ws) for _, _, ws in self.templates]
        self.generic = [bool(t.get("generic", False)) for t in data["templates"]]
        self.patterns = [
            (p["id"], re.compile(p["regex"], re.IGNORECASE | re.ASCII), p["needles"])
            for p in data["patterns"]
        ]
        self.pattern_generic = [bool(p.get("generic", False)) for p in data["patterns"]]
        # Each needle's words, read as the log's are (WORDS_ONLY): (whole, cut).
        self.needle_parts: list[list[tuple[list[bytes], list[bytes]]]] = [
            [needle_words(n) for n in lits or ()] for _, _, lits in self.patterns
        ]
        self.needle_vocab = frozenset(
            w for ps in self.needle_parts for whole, _ in ps for w in whole
        )
        self.min_score = float(data["min_score"])
        self.strong = float(data["strong"])
        self.gap = int(data["gap"])
        self.contradicted = float(data["contradicted"])
        self.rare_weight = float(data["rare_weight"])
        naming = frozenset((str(a), str(b)) for a, b in data["naming"])
        self.named = [named_at(toks, naming) for _, toks, _ in self.templates]
        # Each template's HEAVY heaviest positions (`align.beyond_reach`).
        self.heavy = [heaviest(ws, HEAVY) for _, _, ws in self.templates]
        self.short_tokens = int(data["short_tokens"])
        self.short_gap = int(data["short_gap"])
        self.short_min_score = float(data["short_min_score"])
        self.symptoms: dict[str, list[str]] = dict(data["symptoms"])
        self.window = (int(data["window"][0]), int(data["window"][1]))
        self.scan_all = False  # tests set it: clean every line, as if all were candidates
        words = {t for _, toks, _ in self.templates for t in toks if t not in WEAK}
        self.vocab = frozenset(w.encode() for w in words)
        self.all_tokens = frozenset(t for _, toks, _ in self.templates for t in toks)
        lex = data["lexical"]
        self.ids: list[str] = list(lex["ids"])
        self.error_words: list[str] = list(lex["error_words"])
        self.query_lines = int(lex["query_lines"])
        self.lexical_floor = float(lex["floor"])
        self.lexical_coverage = float(lex["coverage"])
        self.lexical_short_floor = float(lex["short_floor"])
        self.lexical_full = float(lex["full"])
        self.lexical_unknown = float(lex["unknown"])
        self.lexical_margin = float(lex["margin"])
        self.possible_max = float(lex["possible_max"])
        self.generic_max = float(data["generic_max"])
        self.lexical_scale = float(lex["scale"])
        ctx = data["context"]
        self.context_lines = int(ctx["lines"])
        self.phase_of: dict[str, str] = {
            w: phase for phase, ws in ctx["phases"].items() for w in ws
        }
        self.entry_phases: dict[str, list[str]] = dict(ctx["entries"])
        self.links: dict[str, list[str]] = dict(ctx["links"])
        self.postings: dict[str, list[tuple[int, float]]] = {
            t: [(int(d), float(w)) for d, w in rows] for t, rows in lex["postings"].items()
        }
        self.weight: dict[str, dict[int, float]] = {t: dict(r) for t, r in self.postings.items()}
        self.best_weight = {t: max(w for _, w in rows) for t, rows in self.postings.items()}
        self.index_of = {entry_id: k for k, entry_id in enumerate(self.ids)}

    def candidates(
        self, lowered: Lines, translated: bytes | None = None
    ) -> tuple[list[bool], list[list[str]]]:
        """Lines worth cleaning, and each template's anchor words in this log.

        A line is a candidate within the window of a line holding an anchor word. Words
        are maximal runs of [a-z_] (an anchor "serve" must not pick every "APIServer"
        line); bytes translation turns every other character into a space, so split()
        yields exactly those runs, at C speed.
        """
        n = len(lowered.lines)
        if translated is None:
            translated = lowered.text.encode("utf-8", "replace").translate(WORDS_ONLY)
        words = translated.split(b"\n")
        vocab = self.vocab
        # A repeated line (a retry loop, every rank's copy) is cut into words once; a word's
        # count is the lines holding it, a line counted as often as the log prints it.
        copies = Counter(words)
        held = {line: [w.decode() for w in vocab.intersection(line.split())] for line in copies}
        counts: dict[str, int] = {}
        for line, times in copies.items():
            for w in held[line]:
                counts[w] = counts.get(w, 0) + times

        def count(word: str) -> int:
            return counts.get(word, 0)

        anchors = [anchor_words(toks, ws, count, self.min_score) for _, toks, ws in self.templates]
        if self.scan_all:
            return [True] * n, anchors
        wanted = {w for ws in anchors for w in ws}
        hit = {line for line, ws in held.items() if not wanted.isdisjoint(ws)}
        marked = [False] * n
        before, after = self.window
        done = 0  # lines before this one are marked already where a window reached them
        for i, line in enumerate(words):
            if line in hit:
                lo, hi = max(done, i - before), min(n, i + after + 1)
                if lo < hi:
                    marked[lo:hi] = [True] * (hi - lo)
                    done = hi
        return marked, anchors

    def match(self, log: str, top: int = 5) -> list[Match]:
        # Matching allocates many small lists and makes no reference cycles (a test holds it),
        # so the cyclic collector is paused while it runs: a collection it triggered would walk
        # every object in memory (the corpus, the matcher's data: some 300,000) for nothing, and
        # what it allocates is freed by reference counting when it returns.
        enabled = gc.isenabled()
        gc.disable()
        try:
            return self._match(log, top)
        finally:
            if enabled:
                gc.enable()

    def _match(self, log: str, top: int) -> list[Match]:
        raw_lines = split_lines(log)
        # Words are searched in the raw lines, colours and escapes removed and lowercased:
        # every word token of a cleaned line is a word of that text.
        lowered = Lines(split_lines(ESCAPES.sub(" ", ANSI.sub("", log).lower())))
        # Logs repeat lines (a retry loop, a progress bar, every rank's copy of an error): each
        # distinct line is cleaned, stripped of colours and cut into tokens once.
        cleaned: dict[str, str] = {}

        def clean(i: int) -> str:
            raw = raw_lines[i]
            if raw not in cleaned:
                # Stripped once here: a prefix cleaned away (a timestamp) leaves spaces that a
                # pattern's `^` must not see; tokens and terms ignore them anyway.
                cleaned[raw] = clean_line(raw).strip()
            return cleaned[raw]

        printed: dict[str, str] = {}

        def as_printed(i: int) -> str:
            raw = raw_lines[i]
            if raw not in printed:
                printed[raw] = strip_colours(raw)
            return printed[raw]

        translated = lowered.text.encode("utf-8", "replace").translate(WORDS_ONLY)
        marked, anchors = self.candidates(lowered, translated)
        # The token stream of the candidate lines: positions of each template token, the
        # line of every position, and a segment number that changes at skipped lines.
        pos: dict[str, list[int]] = {}
        stream: list[str] = []
        line_of: list[int] = []
        seg: list[int] = []
        segment, previous = 0, -1
        wanted = self.all_tokens
        # Per distinct line: its tokens, and the offsets of those some template holds (the
        # line is cut into tokens once, however often it repeats), and a number.
        shapes: dict[str, tuple[list[str], list[tuple[int, str]], int]] = {}
        # Each kept line's start in the stream and its shape's number (twice it, plus one
        # after skipped lines): see `Windows`.
        line_starts: list[int] = []
        line_shapes: list[int] = []
        for i, keep in enumerate(marked):
            if not keep:
                continue
            brk = i != previous + 1
            if brk:
                segment += 1
            previous = i
            raw = raw_lines[i]
            shape = shapes.get(raw)
            if shape is None:
                words = tokens(clean(i))
                shape = shapes[raw] = (
                    words,
                    [(k, t) for k, t in enumerate(words) if t in wanted],
                    len(shapes),
                )
            base = len(stream)
            line_starts.append(base)
            line_shapes.append(2 * shape[2] + brk)
            for k, tok in shape[1]:
                pos.setdefault(tok, []).append(base + k)
            stream.extend(shape[0])
            line_of.extend([i] * len(shape[0]))
            seg.extend([segment] * len(shape[0]))
        windows = Windows(line_starts, line_shapes, len(stream), self.reach(CAP) + 1)

        best: dict[str, tuple[float, int]] = {}
        loose: dict[str, tuple[float, int]] = {}  # matched by generic wordings
        # The winning alignment's weight decides a tie between strong matches: of two wordings
        # matched as well at one line, the one that spans more of it ("Decode out of memory"
        # against "Out of memory"). Generic matches are ranked without it.
        weight: dict[str, float] = {}
        # Whether a generic match is a pattern's: it says the line holds a wrapper's words, and
        # a generic wording matched at the same line is that line's message, so it comes first.
        by_pattern: dict[str, bool] = {}

        def offer(
            entry_id: str,
            score: float,
            line: int,
            into: dict[str, tuple[float, int]],
            aligned: float,
        ) -> None:
            current = into.get(entry_id)
            held = weight.get(entry_id, 0.0) if into is best else aligned
            if current is None or (score, -line, aligned) > (current[0], -current[1], held):
                into[entry_id] = (score, line)
                if into is best:
                    weight[entry_id] = aligned
                else:
                    by_pattern[entry_id] = aligned == 0.0

        for (entry_id, toks, ws), whole, words, generic, named, heavy in zip(
            self.templates,
            self.totals,
            anchors,
            self.generic,
            self.named,
            self.heavy,
            strict=True,
        ):
            least = self.short_min_score if len(toks) < self.short_tokens else self.min_score
            occurs = [pos.get(t) for t in toks]
            # No alignment weighs more than the template's tokens the stream holds (weights
            # are positive, added in template order: a subset's float sum is never larger).
            # A template that cannot reach its threshold, or its entry's score so far, is not
            # aligned: the ranking is what aligning it would give.
            ceiling = total([w for w, at in zip(ws, occurs, strict=True) if at])
            into = loose if generic else best
            held = into.get(entry_id)
            if ceiling < least * whole or (held is not None and ceiling / whole < held[0]):
                continue
            # At best a tie with the entry's score so far: only an alignment starting on or
            # before its line can replace it (`offer`), and one starting there is seeded at
            # most a template's reach later, so later seeds are not tried.
            until = None
            if self.tie_pruning and held is not None and ceiling / whole <= held[0]:
                until = bisect_right(line_of, held[1]) - 1 + self.reach(len(toks))
            found = self.align_template(
                toks,
                ws,
                words,
                occurs,
                ceiling,
                seg,
                stream,
                line_of,
                until,
                named,
                windows.place if self.skip_copies else None,
                need=least * whole,
                heavy=heavy if self.reach_pruning else (),
            )
            if found is not None and found[0] >= least * whole:
                offer(entry_id, found[0] / whole, line_of[found[1]], into, found[0])
        # A needle the log cannot hold (see `needle_words`) is not searched; the log's words
        # joined once answer "part of a word of the log" with a C-speed substring search.
        log_words = frozenset(translated.split())
        # Patterns search each distinct line once, at its first place (a retry loop, every
        # rank's copy of an error): the first copy comes first, and a hit stops the search.
        first_at: dict[str, int] = {}
        for i, raw in enumerate(raw_lines):
            first_at.setdefault(raw, i)
        firsts = list(first_at.values())
        distinct = Lines([lowered.lines[i] for i in firsts])
        vocabulary = b"\n".join(log_words)
        translated_lines = translated.split(b"\n")
        needle_lines = NeedleLines(
            distinct, [translated_lines[i] for i in firsts], self.needle_vocab
        )
        for (entry_id, pattern, literals), parts, generic in zip(
            self.patterns, self.needle_parts, self.pattern_generic, strict=True
        ):
            # An entry that already scored 1.0 at line L keeps it against any line from L on
            # (`offer` prefers the earlier line), so those lines are not searched.
            into = loose if generic else best
            held = into.get(entry_id)
            before = held[1] if held is not None and held[0] >= 1.0 else None
            if before == 0:
                continue
            inner: list[list[bytes]] = []  # each kept needle's inner words
            if literals is not None:
                kept = [
                    (n, whole)
                    for n, (whole, cut) in zip(literals, parts, strict=True)
                    if log_words.issuperset(whole)
                    and all(w in log_words or w in vocabulary for w in cut)
                ]
                literals = [n for n, _ in kept]
                inner = [whole for _, whole in kept]
            stop = len(firsts) if before is None else bisect_left(firsts, before)
            lines = range(stop) if literals is None else needle_lines.holding(literals, inner, stop)
            for d in lines:
                i = firsts[d]
                # Authors write patterns against the line as printed; cleaning turns its
                # numbers, paths and quoted names into placeholders, so both forms are tried.
                if pattern.search(clean(i)) or pattern.search(as_printed(i)):
                    offer(entry_id, 1.0, i, into, 0.0)
                    break
        ranked = self.rank(best, lowered, weight)
        out = [
            Match(entry_id, round3(score), line + 1, strip_colours(raw_lines[line]))
            for entry_id, (score, line) in ranked[:top]
        ]
        # A generic line says which program failed, not why: its entries are possible matches,
        # first in the log first, before the second stage's.
        for entry_id, (score, line) in sorted(
            loose.items(), key=lambda kv: (kv[1][1], by_pattern[kv[0]], -kv[1][0], kv[0])
        ):
            if len(out) < top and entry_id not in best:
                shown_score = round3(self.generic_max * score)
                matched = strip_colours(raw_lines[line])
                out.append(
                    Match(entry_id, shown_score, line + 1, matched, possible=True, generic=True)
                )
        if len(out) < top:
            shown = {m.entry_id for m in out}
            for entry_id, score, line in self.possible(lowered, clean, gated=not out):
                if len(out) == top:
                    break
                if entry_id not in shown:
                    out.append(
                        Match(entry_id, score, line + 1, strip_colours(raw_lines[line]), True)
                    )
        return out

    def gap_for(self, n: int) -> int:
        """The most stream tokens an alignment of an n-token template may skip at a step."""
        return self.short_gap if n < self.short_tokens else self.gap

    def reach(self, n: int) -> int:
        """How far before its seed an n-token template's alignment can start: n - 1 steps
        back, each at most the gap plus one."""
        return (n - 1) * (self.gap_for(n) + 1)

    def align_template(
        self,
        toks: tuple[str, ...],
        ws: tuple[float, ...],
        words: list[str],
        occurs: list[list[int] | None],
        ceiling: float,
        seg: list[int],
        stream: list[str],
        line_of: list[int],
        until: int | None = None,
        named: tuple[int, ...] = (),
        where: Callable[[int], tuple[int | None, int]] | None = None,
        need: float = 0.0,
        heavy: tuple[int, ...] = (),
    ) -> tuple[float, int] | None:
        """(weight aligned, first stream position) of the template's best alignment of at
        least MIN_TOKENS tokens, if any; seeds are the anchor words' positions, in stream
        order, a seed inside the span of an earlier alignment that began at the template's first
        token is not tried again, and the search stops at the first alignment of every token or
        of `ceiling`, the weight of every template token the stream holds, or at the first seed
        after `until` (a stream position; see `match`). An alignment whose log names another
        thing at a position in `named` (the word after a NAMING pair) is no alignment
        (`renamed`)."""
        at = {w: [k for k, t in enumerate(toks) if t == w] for w in words}
        # Every position of a word holds the same stream positions: the first one's are its seeds.
        lists = [occurs[at[w][0]] or [] for w in words if at[w]]
        # Each list is ascending: joined and sorted, timsort merges the runs.
        seeds = lists[0] if len(lists) == 1 else sorted(itertools.chain.from_iterable(lists))
        gap = self.gap_for(len(toks))
        found: tuple[float, int] | None = None
        covered = -1
        # Seeds whose surroundings copy an earlier seed's (`Windows`): how far past the seed
        # that seed's alignment covered, or None.
        copies: dict[tuple[int, int, int], int | None] = {}
        for p in seeds:
            if until is not None and p > until:
                break
            if p <= covered:
                continue
            name, offset = where(p) if where is not None else (None, 0)
            for j in at[stream[p]]:
                if name is not None:
                    key = (j, name, offset)
                    if key in copies:
                        span = copies[key]
                        if span is not None:
                            covered = max(covered, p + span)
                        continue
                # An alignment that can neither start at the template's first token nor weigh
                # `need` (the threshold) or more than the best so far is not made (`beyond_reach`).
                if heavy and beyond_reach(
                    occurs,
                    ws,
                    heavy,
                    j,
                    p,
                    gap + 1,
                    ceiling,
                    need if found is None else max(need, found[0]),
                ):
                    if name is not None:
                        copies[(j, name, offset)] = None
                    continue
                matched, at_stream = align(occurs, j, p, seg, gap)
                first = at_stream[0]
                # A later seed inside this alignment's span is skipped only when the alignment
                # began where the template begins: one seeded on a prefix's word ("[ERROR]
                # llama_model_load: error loading ...") misses the start, and a later seed
                # aligns all of it.
                if matched[0] == 0:
                    covered = max(covered, at_stream[-1])
                if name is not None:
                    copies[(j, name, offset)] = at_stream[-1] - p if matched[0] == 0 else None
                if len(matched) < self.min_tokens:
                    continue
                got = total([ws[k] for k in matched])
                # Contradictions only take weight away: an alignment that cannot win is not
                # searched for them.
                if found is None or got > found[0]:
                    if named and renamed(matched, at_stream, named, stream, line_of):
                        continue
                    against = [
                        *replaced_first(matched, at_stream, ws, stream, line_of, self.rare_weight),
                        *contradicted(matched, at_stream),
                    ]
                    got -= self.contradicted * total([ws[k] for k in against])
                    if found is None or got > found[0]:
                        found = (got, first)
                # Every token aligned, or the ceiling reached: no later seed can do better.
                if len(matched) == len(toks) or (found is not None and found[0] >= ceiling):
                    return found
        return found

    def line_terms(self, text: str) -> list[str]:
        return lexical.terms(content_tokens(text))

    def scores(self, term_set: set[str]) -> list[float]:
        """Each entry's BM25 score for a set of terms, added in sorted term order."""
        acc = [0.0] * len(self.ids)
        for term in sorted(term_set):
            for d, w in self.postings.get(term, ()):
                acc[d] += w
        return acc

    def possible(
        self, lowered: Lines, clean: Callable[[int], str], gated: bool = True
    ) -> list[tuple[str, float, int]]:
        """Second-stage matches: (entry id, shown score, line index), best first.

        The query is the terms of the log's first QUERY_LINES error lines and the line after
        each; see LEXICAL_FLOOR for which entries are offered when `gated` (nothing else
        matched). An entry's line is the query line adding most to its score (the first on a
        tie).
        """
        n = len(lowered.lines)
        picked: list[int] = []
        for i in itertools.islice(lowered.iter_containing(self.error_words), self.query_lines):
            for k in (i, i + 1):
                if k < n and (not picked or picked[-1] < k):
                    picked.append(k)
        if not picked:
            return []
        per_line = [set(self.line_terms(clean(k))) for k in picked]
        query: set[str] = set().union(*per_line)
        acc = self.scores(query)
        ranked = sorted(
            (d for d in range(len(acc)) if acc[d] > 0), key=lambda d: (-acc[d], self.ids[d])
        )
        if not ranked:
            return []
        first = acc[ranked[0]]
        # Alone, offered only when one entry stands out: near misses spread their score over
        # the entries of a family (every CUDA error shares "CUDA error ... kernel").
        if gated and not self.stands_out(first, acc, ranked, query):
            return []
        ranked = [ranked[0], *(d for d in ranked[1:] if acc[d] >= first / 2)]
        out: list[tuple[str, float, int]] = []
        for d in ranked:
            best_line, best = picked[0], -1.0
            for k, line_terms in zip(picked, per_line, strict=True):
                got = 0.0
                for term in sorted(line_terms):
                    got += self.weight.get(term, {}).get(d, 0.0)
                if got > best:
                    best_line, best = k, got
            shown = round3(self.possible_max * acc[d] / (acc[d] + self.lexical_scale))
            out.append((self.ids[d], shown, best_line))
        return out

    def stands_out(
        self, first: float, acc: list[float], ranked: list[int], query: set[str]
    ) -> bool:
        """Whether the best entry is offered when nothing else matched (see LEXICAL_FLOOR)."""
        if len(ranked) > 1 and first < self.lexical_margin * acc[ranked[1]]:
            return False
        words = [t for t in query if " " not in t]
        unknown = sum(1 for t in words if t not in self.best_weight)
        if unknown > self.lexical_unknown * len(words):
            return False
        reach = 0.0
        for term in sorted(query):
            reach += self.best_weight.get(term, 0.0)
        if first >= self.lexical_floor and first >= self.lexical_coverage * reach:
            return True
        return first >= self.lexical_short_floor and first >= self.lexical_full * reach

    def phase_at(self, lowered: Lines, line: int) -> str | None:
        return phase_at(lowered.lines, line, self.phase_of, self.context_lines)

    def rank(
        self, best: dict[str, tuple[float, int]], lowered: Lines, weight: dict[str, float]
    ) -> list[tuple[str, tuple[float, int]]]:
        """Strong matches first, by position, then weak ones, best first; causes before
        symptoms; entries matched at the same line (both strong, or both weak) ordered by
        their context, then by score, then by the weight of the wording aligned; a symptom
        after a cause it lists in `related` that matched at or before its line.

        Where the log's phase at a line fits none of the entries matched there, their linked
        siblings of that phase join them with the same score (an OOM while the sampler warms
        up is its own entry, whose wording the paste may not show).
        """
        by_line: dict[int, list[str]] = {}
        for entry_id in sorted(best):
            by_line.setdefault(best[entry_id][1], []).append(entry_id)
        phases: dict[int, str | None] = {}
        for line in sorted(by_line):
            at_line = by_line[line]
            if not any(e in self.links for e in at_line):
                continue
            phase = phases[line] = self.phase_at(lowered, line)
            if phase is None or any(phase in self.entry_phases.get(e, ()) for e in at_line):
                continue
            for e in at_line:
                for sibling in self.links.get(e, ()):
                    if sibling not in best and phase in self.entry_phases.get(sibling, ()):
                        best[sibling] = best[e]
                        weight[sibling] = weight[e]

        def group(entry_id: str) -> tuple[int, int]:
            score, line = best[entry_id]
            return (0 if score >= self.strong else 1, line)

        sizes: dict[tuple[int, int], int] = {}
        top: dict[tuple[int, int], float] = {}  # the best score of each group
        for entry_id, (score, _) in best.items():
            sizes[group(entry_id)] = sizes.get(group(entry_id), 0) + 1
            top[group(entry_id)] = max(top.get(group(entry_id), 0.0), score)
        context: dict[str, int] = {}
        for entry_id, (_, line) in best.items():
            context[entry_id] = 0
            if sizes[group(entry_id)] > 1:
                if line not in phases:
                    phases[line] = self.phase_at(lowered, line)
                if phases[line] in self.entry_phases.get(entry_id, ()):
                    context[entry_id] = 1

        strong_causes = [
            (score, line)
            for e, (score, line) in best.items()
            if score >= self.strong and e not in self.symptoms
        ]

        def outranks(cause: tuple[float, int], symptom: tuple[float, int]) -> bool:
            # A cause matched on the symptom's own line but less well than it is not that
            # line's error: the line holds the symptom's wording, not the cause's.
            return cause[1] != symptom[1] or cause[0] >= symptom[0]

        def key(entry_id: str) -> tuple[int, int, float, int, int, float, float, str]:
            score, line = best[entry_id]
            symptom = 0
            if entry_id in self.symptoms and any(
                outranks(c, best[entry_id]) for c in strong_causes
            ):
                symptom = 1
            if score >= self.strong:
                return (
                    0,
                    symptom,
                    line,
                    0,
                    -context[entry_id],
                    -score,
                    -weight[entry_id],
                    entry_id,
                )
            return (
                1,
                symptom,
                -top[group(entry_id)],
                line,
                -context[entry_id],
                -score,
                -weight[entry_id],
                entry_id,
            )

        order = sorted(best, key=key)
        for entry_id in [e for e in order if e in self.symptoms]:
            here = order.index(entry_id)
            line = best[entry_id][1]
            causes = [
                k
                for k, e in enumerate(order)
                if k > here
                and e in self.symptoms[entry_id]
                and best[e][1] <= line
                and outranks(best[e], best[entry_id])
            ]
            if causes:
                order.insert(causes[-1], order.pop(here))
        return [(entry_id, best[entry_id]) for entry_id in order]


def needle_words(needle: str) -> tuple[list[bytes], list[bytes]]:
    """(whole, cut): the needle's words with a non-word character on both sides inside it,
    which are whole words of any log holding the needle ("[gin]" holds "gin"), and those at its
    start or end, which are parts of such words ("gguf_init_from_file" is part of a word of
    every log holding it). A needle with one of either missing cannot occur in the log."""
    text = needle.encode().translate(WORDS_ONLY)
    whole: list[bytes] = []
    cut: list[bytes] = []
    for m in re.finditer(rb"[^ ]+", text):
        (whole if m.start() > 0 and m.end() < len(text) else cut).append(m.group())
    return whole, cut


def heaviest(ws: Sequence[float], n: int) -> tuple[int, ...]:
    """The positions of the n largest weights, heaviest first (the first on a tie)."""
    return tuple(sorted(range(len(ws)), key=lambda k: (-ws[k], k))[:n])


def round3(x: float) -> float:
    """Three decimals, as JavaScript's Math.floor(x * 1000 + 0.5) / 1000 gives them."""
    return math.floor(x * 1000 + 0.5) / 1000
