"""Paste a log, find the entry: one matching definition for the CLI and the browser.

The definition is data (`matcher_data`): normalisation rules as regexes that
Python and JavaScript both run, and each message reduced to a token string.
`docs/assets/javascripts/matcher.js` implements the same scoring over the same
JSON, and a browser test holds the two to identical rankings.

How a log is scored:
1. Each line is cleaned by the rules (ANSI colours, log prefixes, timestamps,
   paths, hex, numbers) and cut into lowercase word tokens; all lines are joined
   into one token stream, so a message wrapped over several lines still matches.
2. A message matches where the longest prefix of its tokens appears contiguously
   in the stream; its score is the fraction of its tokens in that prefix, counting at
   most its first CAP tokens (long messages end in clauses that vary by version).
3. Entry patterns (regexes) match on cleaned lines and score 1.
4. Entries are ranked strong matches first, causes before entries marked
   `symptom` (the engine died *because* of an OOM), then earliest in the log
   first: the first error a log shows is usually the cause.

Speed: a 10,000-line log is mostly noise, and running ten regexes over every
line costs more than all the searching. So only *candidate* lines are cleaned:
lines near a template's trigger word (a word every match of that template must
contain) and lines holding a pattern's literal text. Runs of other lines become
a barrier token that no message can match across. The browser does the same,
from the same exported triggers, needles and window.
"""

from __future__ import annotations

import bisect
import itertools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from errkb.match import lexical
from errkb.match.align import align


class _Text(Protocol):
    @property
    def text(self) -> str: ...


class _Regex(Protocol):
    @property
    def regex(self) -> str: ...


class Entry(Protocol):
    """What the matcher reads of an entry (errkb's schema Entry has it): the matcher stays
    independent of how entries are loaded and checked."""

    @property
    def id(self) -> str: ...
    @property
    def symptom(self) -> bool: ...
    @property
    def retired(self) -> object: ...
    @property
    def related(self) -> Sequence[str]: ...
    @property
    def messages(self) -> Sequence[_Text]: ...
    @property
    def patterns(self) -> Sequence[_Regex]: ...
    @property
    def title(self) -> str: ...
    @property
    def category(self) -> str: ...
    @property
    def summary(self) -> str: ...
    @property
    def detection(self) -> str | None: ...


# (pattern, replacement): applied in order to every line. Replacements are literal text so that
# both languages read them the same way; patterns use the syntax Python and JavaScript share.
RULES: list[tuple[str, str]] = [
    (r"\x1b\[[0-9;?]*[A-Za-z]", ""),  # ANSI colours and cursor codes
    # Markdown as people paste into issues: quote marks and code fences.
    (r"^\s*(>\s?)+", ""),
    (r"^\s*(```|~~~)[\w+-]*\s*$", ""),
    # Docker Compose ("ollama  | ", "vllm-1 | ") and CI ("  | ") line prefixes.
    (r"^\s*([\w.-]+\s+)?\|\s", ""),
    # NCCL's C++ prefix: "host:1234:5678 [0] NCCL WARN ..."
    (r"^\s*[\w.-]+:\d+:\d+\s+\[\d+\]\s+", ""),
    # Ray workers and vLLM processes: "(RayWorkerVllm pid=123, ip=10.0.0.1) ", "(pid=7) "
    (r"^\s*\(([A-Za-z_]\w*\s+)?[a-z_]+=[^)]*\)\s*", ""),
    (r"^\s*\[rank\d+\]:\s*", ""),  # torchrun: "[rank0]: "
    # vLLM and most Python loggers: "(VllmWorker rank=0 pid=1) INFO 06-12 10:41:03 [engine.py:123] "
    (
        r"^\s*(\([A-Za-z_]+[^)]*\)\s*)?(DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)\s+\d\d-\d\d\s+[\d:.]+\s*(\[[^\]]*\]\s*)?",
        "",
    ),
    # Ollama/Go slog: time=... level=ERROR source=sched.go:123 msg="..."
    (r"^\s*time=\S+\s+level=\S+\s+(source=\S+\s+)?msg=", ""),
    # tqdm progress bars ("38%|██▊     | 3/8 [00:02<00:03,  1.28it/s]") vary in every paste.
    (r"\d+%\|[^|\n]*\|\s*[\d.]+[kMG]?/[\d.]+[kMG]?\s*\[[^\]\n]*\]", " progress "),
    (r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d([.,]\d+)?(Z|[+-]\d\d:?\d\d)?", " "),  # ISO timestamps
    (r"\b\d\d:\d\d:\d\d([.,]\d+)?\b", " "),  # bare clock times
    # TGI's launcher and router: "ERROR warmup{...}:warmup: text_generation_client: router/client/src/lib.rs:33: "
    (
        r"^\s*(ERROR|WARN|INFO|DEBUG)\s[^\n]*?text_generation_[a-z_]+(::[a-z_]+)*:\s*([\w/.-]+\.rs:\d+:\s*)?",
        "",
    ),
    # A quoted name ('Qwen2ForCausalLM', 'mllama') is the user's value, not the message's.
    (r"'[A-Za-z_][\w.-]{0,80}'", " quoted "),
    (r"0x[0-9a-fA-F]+", " hex "),
    (r"(/[\w.@+-]+){2,}/?", " path "),  # POSIX paths
    (r"[A-Za-z]:(\\[\w.@+-]+)+\\?", " path "),  # Windows paths
    (r"\\[nrt]", " "),  # escaped line breaks and tabs: a JSON log record's "msg"
    (r"\b\d+(\.\d+)?[ \t]?(bytes|[KMGT]i?B)\b", " size "),  # 154.25 MiB and 12.73 GiB alike
    (r"\d+(\.\d+)*", " 0 "),  # every number looks the same
]
TOKEN_RE = r"[a-z_]+|0"
# Words that say nothing about which error it is: never anchor words, never lexical terms.
STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "in",
        "is",
        "it",
        "of",
        "on",
        "or",
        "that",
        "the",
        "this",
        "to",
        "was",
        "with",
    ]
)
MIN_TOKENS = 5  # a match of fewer tokens than this is a coincidence, not an error
MIN_SCORE = 0.75  # weighted fraction of a message that must align (near misses reach 0.71)
STRONG = 0.9  # above this a match is certain; ranked by position in the log
# A message's first CAP tokens identify it: long messages (PyTorch's OOM runs to 75 tokens)
# end in clauses that change between versions, so a score counts at most this many.
CAP = 24
# Stream tokens an alignment may step over between two matched tokens (versions insert clauses).
GAP = 6
# Lines a match may reach before and after a line holding one of its anchor words.
WINDOW = (8, 16)
PLACEHOLDERS = frozenset(
    {"0", "path", "hex", "size", "progress", "quoted"}
)  # tokens the rules write, not the log
# The second stage. A log's error lines are the lines holding one of these (lowercase) texts.
ERROR_WORDS = [
    "error", "exception", "fail", "fatal", "killed", "abort", "traceback", "out of memory",
    "cannot", "unable", "not supported", "unsupported", "invalid", "oom", "panic", "assert",
    "segmentation fault", "core dumped", "denied", "refused", "not found", "no such",
]  # fmt: skip
QUERY_LINES = 24  # the first error lines of a log, with the line after each, make the query
# The second stage offers possible matches when its best entry scores LEXICAL_MIN and
# LEXICAL_MARGIN times the next one, then that entry and the next ones scoring LEXICAL_MIN / 2.
# Set on the suite and the calibration pastes (tests/test_match_figures.py prints the figures).
LEXICAL_MIN = 30.0
LEXICAL_MARGIN = 1.5
POSSIBLE_MAX = 0.5  # a possible match's shown score stays below this (and below MIN_SCORE)
LEXICAL_SCALE = 20.0  # shown score: POSSIBLE_MAX * s / (s + LEXICAL_SCALE) for a BM25 score s
# Context: entries matched at the same line are told apart by the phase the log was in. An
# entry's phases are those whose words its title holds; the log's phase at a match is that of
# the first phase word on the nearest line that holds one: the match's line, then the lines
# before and after it, nearest first, up to CONTEXT lines away. Words are runs of letters, so "load_model" holds "load".
PHASES: dict[str, list[str]] = {
    "load": ["load", "loading", "loads", "loaded", "weight", "weights", "safetensors", "shards", "checkpoint", "loader"],
    "warmup": ["warming", "warm", "warmup", "dummy"],
    "serve": ["request", "requests", "prompt", "prompts", "prefill", "serving", "completions", "context", "decode", "generate"],
}  # fmt: skip
CONTEXT = 40

WEAK = STOP | PLACEHOLDERS

# ASCII semantics for \\d, \\w, \\s and \\b, as in JavaScript.
_RULES = [(re.compile(p, re.ASCII), r) for p, r in RULES]
_TOKEN = re.compile(TOKEN_RE)
LINE_BREAK = re.compile(r"\r\n|\r|\n")  # what JavaScript splits on, unlike str.splitlines


def split_lines(text: str) -> list[str]:
    """LINE_BREAK.split, at C speed when the text has no carriage returns."""
    return LINE_BREAK.split(text) if "\r" in text else text.split("\n")


def clean_line(line: str) -> str:
    """Apply RULES in order; cheap substring guards skip the rules that cannot apply.

    Each guard is a necessary condition for its rule to match (tests hold the guarded result
    equal to plain application); the browser simply runs every rule.
    """
    digits = _ANY_DIGIT.search(line) is not None  # no rule before the last one writes a digit
    for (pattern, replacement), guard in zip(_RULES, _GUARDS, strict=True):
        if guard(line, digits):
            line = pattern.sub(replacement, line)
    return line


def clean_line_unguarded(line: str) -> str:
    for pattern, replacement in _RULES:
        line = pattern.sub(replacement, line)
    return line


_ANY_DIGIT = re.compile(r"\d", re.ASCII)
_LEVEL_START = tuple("(DIWEC")  # what the log-prefix rule needs after leading whitespace
_WS = " \t\n\r\f\v"
_Guard = Callable[[str, bool], bool]
_GUARDS: list[_Guard] = [
    lambda line, digits: "\x1b" in line,
    lambda line, digits: line.lstrip(_WS).startswith(">"),
    lambda line, digits: "```" in line or "~~~" in line,
    lambda line, digits: "|" in line,
    lambda line, digits: digits and "[" in line,
    lambda line, digits: line.lstrip(_WS).startswith("(") and "=" in line,
    lambda line, digits: "[rank" in line,
    lambda line, digits: line.lstrip(_WS).startswith(_LEVEL_START),
    lambda line, digits: "level=" in line,
    lambda line, digits: digits and "%|" in line,
    lambda line, digits: digits and "-" in line and ":" in line,
    lambda line, digits: digits and ":" in line,
    lambda line, digits: "text_generation_" in line,
    lambda line, digits: "'" in line,
    lambda line, digits: "0x" in line,
    lambda line, digits: "/" in line,
    lambda line, digits: ":\\" in line,
    lambda line, digits: "\\" in line,
    lambda line, digits: digits and ("B" in line or "bytes" in line),
    lambda line, digits: digits,
]


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def content_tokens(text: str) -> list[str]:
    """Tokens that say which error it is: no STOP words, no placeholders."""
    return [t for t in tokens(text) if t not in WEAK]


@dataclass(frozen=True)
class Template:
    entry_id: str
    tokens: tuple[str, ...]  # the first CAP tokens of the wording: what a match is scored on
    symptom: bool


@dataclass(frozen=True)
class Match:
    entry_id: str
    score: float
    line: int  # 1-based line of the log where the match starts
    matched: str  # that line, as the user pasted it
    possible: bool = False  # a second-stage (lexical) match: lower confidence


def token_weights(groups: Sequence[Sequence[Sequence[str]]]) -> dict[str, float]:
    """An IDF weight for every template token: log(1 + N / df), df counting entries.

    Wordings share boilerplate ("CUDA kernel errors might be asynchronously reported ..."):
    weighting by how few entries hold a token makes the part that tells errors apart count.
    """
    df: dict[str, int] = {}
    for group in groups:
        for tok in {t for toks in group for t in toks}:
            df[tok] = df.get(tok, 0) + 1
    n = len(groups)
    return {t: round(math.log(1 + n / c), 4) for t, c in sorted(df.items())}


def total(weights: Sequence[float]) -> float:
    """Weights added left to right (JavaScript adds in the same order: the same float)."""
    out = 0.0
    for w in weights:
        out += w
    return out


def anchor_words(
    toks: Sequence[str], weights: Sequence[float], count: Callable[[str], int], min_score: float
) -> list[str]:
    """Words one of which every reported match of a template contains, rarest in this log.

    Content positions are taken, rarest in the log at hand first (`count`: lines holding the
    word; first position on a tie), until the weight left outside them is below MIN_SCORE of
    the template's: a match that aligned none of them could not score enough.
    """
    whole = total(weights)
    rest = whole
    content = sorted(
        (k for k, t in enumerate(toks) if t not in WEAK), key=lambda k: (count(toks[k]), k)
    )
    taken: list[str] = []
    for k in content:
        if rest < min_score * whole:
            break
        taken.append(toks[k])
        rest -= weights[k]
    return list(dict.fromkeys(taken))


def reachable(toks: Sequence[str], weights: Sequence[float], min_score: float) -> bool:
    """Whether a template's weak tokens alone fall short of MIN_SCORE (else it cannot anchor)."""
    weak = total([w for t, w in zip(toks, weights, strict=True) if t in WEAK])
    return weak < min_score * total(weights) and sum(t not in WEAK for t in toks) >= 2


def needles(regex: str) -> list[str] | None:
    """Literal lowercase texts one of which every match of `regex` contains; None if unsure.

    Conservative by construction: a top-level alternation (or one group around the whole
    regex) gives one needle per branch; within a branch only letters and spaces outside
    groups and classes count (and underscores), and the longest such run of at least 4
    characters is kept.
    """
    body = regex
    if body.startswith("(") and _closing(body, 0) == len(body) - 1:
        body = body[3:-1] if body.startswith("(?:") else body[1:-1]
    out: list[str] = []
    for branch in _split_top(body, "|"):
        found = _literal(branch)
        if found is None:
            return None
        out.append(found)
    return sorted(set(out))


def _scan(regex: str) -> list[tuple[int, str, int]]:
    """(index, character, depth) for every unescaped character; escapes give ("\\", depth)."""
    out: list[tuple[int, str, int]] = []
    depth, i, in_class = 0, 0, False
    while i < len(regex):
        ch = regex[i]
        if ch == "\\":
            out.append((i, "\\", depth + in_class))
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
            out.append((i, ch, depth + 1))
        elif ch == "[":
            in_class = True
            out.append((i, ch, depth + 1))
        elif ch == "(":
            depth += 1
            out.append((i, ch, depth))
        elif ch == ")":
            out.append((i, ch, depth))
            depth -= 1
        else:
            out.append((i, ch, depth))
        i += 1
    return out


def _closing(regex: str, start: int) -> int:
    for i, ch, depth in _scan(regex):
        if i > start and ch == ")" and depth == 1:
            return i
    return -1


def _split_top(regex: str, sep: str) -> list[str]:
    cuts = [i for i, ch, depth in _scan(regex) if ch == sep and depth == 0]
    bounds = [-1, *cuts, len(regex)]
    return [regex[a + 1 : b] for a, b in itertools.pairwise(bounds)]


def _literal(branch: str) -> str | None:
    runs: list[str] = []
    current = ""
    for _, ch, depth in _scan(branch):
        if depth == 0 and ch.isascii() and (ch.isalpha() or ch in " _"):
            current += ch
            continue
        if ch in "*?{" and current:
            current = current[:-1]  # the character before a quantifier is optional
        runs.append(current)
        current = ""
    runs.append(current)
    best = max((r.strip() for r in runs), key=len)
    return best.lower() if len(best) >= 4 else None


def templates(entries: Sequence[Entry]) -> list[Template]:
    out: list[Template] = []
    for entry in entries:
        if entry.retired:
            continue
        for message in entry.messages:
            toks = tuple(message_tokens(message.text))[:CAP]
            if len(toks) >= MIN_TOKENS:
                out.append(Template(entry.id, toks, entry.symptom))
    return out


def message_tokens(text: str) -> list[str]:
    return tokens(" ".join(clean_line(line) for line in text.split("\n")))


def lexical_docs(entries: Sequence[Entry]) -> list[list[list[str]]]:
    """Each entry's text for the second stage: messages, title, summary, detection notes."""
    docs: list[list[list[str]]] = []
    for entry in entries:
        texts = [m.text for m in entry.messages] + [entry.title, entry.summary]
        texts += [entry.detection] if entry.detection else []
        docs.append([content_tokens(" ".join(map(clean_line, t.split("\n")))) for t in texts])
    return docs


_LETTERS = re.compile(r"[a-z]+")


def phase_words(text: str) -> list[str]:
    """The phase of each phase word in `text` (lowercase), in order."""
    of = {w: phase for phase, ws in PHASES.items() for w in ws}
    return [of[w] for w in _LETTERS.findall(text.lower()) if w in of]


def entry_phases(title: str) -> list[str]:
    return sorted(set(phase_words(title)))


def context_links(entries: Sequence[Entry]) -> dict[str, list[str]]:
    """For each entry with a phase, the entries of its category with a phase that it lists in
    `related` or that list it: the siblings a log's phase may point to instead."""
    phased = [e for e in entries if entry_phases(e.title)]
    out: dict[str, list[str]] = {}
    for e in phased:
        links = sorted(
            o.id
            for o in phased
            if o.id != e.id
            and o.category == e.category
            and (o.id in e.related or e.id in o.related)
        )
        if links:
            out[e.id] = links
    return out


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
        "version": 3,
        "rules": [[p, r] for p, r in RULES],
        "token_re": TOKEN_RE,
        "stop": sorted(STOP),
        "placeholders": sorted(PLACEHOLDERS),
        "min_tokens": MIN_TOKENS,
        "min_score": MIN_SCORE,
        "strong": STRONG,
        "gap": GAP,
        "window": list(WINDOW),
        "weights": weights,
        "templates": [{"id": t.entry_id, "tokens": list(t.tokens)} for t in kept],
        "symptoms": {e.id: sorted(r for r in e.related if r in ids) for e in live if e.symptom},
        "patterns": [
            {"id": e.id, "regex": p.regex, "needles": needles(p.regex)}
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
            "min": LEXICAL_MIN,
            "margin": LEXICAL_MARGIN,
            "possible_max": POSSIBLE_MAX,
            "scale": LEXICAL_SCALE,
            "postings": lexical.build(lexical_docs(live)),
        },
    }


class Matcher:
    def __init__(self, data: dict[str, Any]) -> None:
        self.min_tokens = int(data["min_tokens"])
        weight: dict[str, float] = data["weights"]
        self.templates = [
            (t["id"], tuple(t["tokens"]), tuple(weight[x] for x in t["tokens"]))
            for t in data["templates"]
        ]
        self.totals = [total(ws) for _, _, ws in self.templates]
        self.patterns = [
            (p["id"], re.compile(p["regex"], re.IGNORECASE | re.ASCII), p["needles"])
            for p in data["patterns"]
        ]
        self.min_score = float(data["min_score"])
        self.strong = float(data["strong"])
        self.gap = int(data["gap"])
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
        self.lexical_min = float(lex["min"])
        self.lexical_margin = float(lex["margin"])
        self.possible_max = float(lex["possible_max"])
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
        self.index_of = {entry_id: k for k, entry_id in enumerate(self.ids)}

    def candidates(self, lowered: Lines) -> tuple[list[bool], list[list[str]]]:
        """Lines worth cleaning, and each template's anchor words in this log.

        A line is a candidate within the window of a line holding an anchor word. Words
        are maximal runs of [a-z_] (an anchor "serve" must not pick every "APIServer"
        line); bytes translation turns every other character into a space, so split()
        yields exactly those runs, at C speed.
        """
        n = len(lowered.lines)
        words = lowered.text.encode("utf-8", "replace").translate(_WORDS_ONLY).split(b"\n")
        vocab = self.vocab
        index: dict[str, list[int]] = {}
        for i, line in enumerate(words):
            for w in vocab.intersection(line.split()):
                index.setdefault(w.decode(), []).append(i)

        def count(word: str) -> int:
            return len(index.get(word, ()))

        anchors = [anchor_words(toks, ws, count, self.min_score) for _, toks, ws in self.templates]
        if self.scan_all:
            return [True] * n, anchors
        hits = {i for ws in anchors for w in ws for i in index.get(w, ())}
        marked = [False] * n
        before, after = self.window
        for i in hits:
            lo, hi = max(0, i - before), min(n, i + after + 1)
            marked[lo:hi] = [True] * (hi - lo)
        return marked, anchors

    def match(self, log: str, top: int = 5) -> list[Match]:
        raw_lines = split_lines(log)
        # Words are searched in the raw lines, colours and escapes removed and lowercased:
        # every word token of a cleaned line is a word of that text.
        lowered = Lines(split_lines(_ESCAPES.sub(" ", _RULES[0][0].sub("", log).lower())))
        cleaned: dict[int, str] = {}

        def clean(i: int) -> str:
            if i not in cleaned:
                cleaned[i] = clean_line(raw_lines[i])
            return cleaned[i]

        marked, anchors = self.candidates(lowered)
        # The token stream of the candidate lines: positions of each template token, the
        # line of every position, and a segment number that changes at skipped lines.
        pos: dict[str, list[int]] = {}
        stream: list[str] = []
        line_of: list[int] = []
        seg: list[int] = []
        segment, previous = 0, -1
        wanted = self.all_tokens
        for i, keep in enumerate(marked):
            if not keep:
                continue
            if i != previous + 1:
                segment += 1
            previous = i
            for tok in tokens(clean(i)):
                if tok in wanted:
                    pos.setdefault(tok, []).append(len(line_of))
                stream.append(tok)
                line_of.append(i)
                seg.append(segment)
        best: dict[str, tuple[float, int]] = {}

        def offer(entry_id: str, score: float, line: int) -> None:
            current = best.get(entry_id)
            if current is None or (score, -line) > (current[0], -current[1]):
                best[entry_id] = (score, line)

        for (entry_id, toks, ws), whole, words in zip(
            self.templates, self.totals, anchors, strict=True
        ):
            found = self.align_template(toks, ws, words, pos, seg, stream)
            if found is not None and found[0] >= self.min_score * whole:
                offer(entry_id, found[0] / whole, line_of[found[1]])
        for entry_id, pattern, literals in self.patterns:
            lines = range(len(raw_lines)) if literals is None else lowered.containing(literals)
            for i in lines:
                if pattern.search(clean(i)):
                    offer(entry_id, 1.0, i)
                    break
        ranked = self.rank(best, lowered)
        out = [
            Match(entry_id, round3(score), line + 1, _strip_colours(raw_lines[line]))
            for entry_id, (score, line) in ranked[:top]
        ]
        if len(out) < top:
            shown = {m.entry_id for m in out}
            for entry_id, score, line in self.possible(lowered, clean):
                if len(out) == top:
                    break
                if entry_id not in shown:
                    out.append(
                        Match(entry_id, score, line + 1, _strip_colours(raw_lines[line]), True)
                    )
        return out

    def align_template(
        self,
        toks: tuple[str, ...],
        ws: tuple[float, ...],
        words: list[str],
        pos: dict[str, list[int]],
        seg: list[int],
        stream: list[str],
    ) -> tuple[float, int] | None:
        """(weight aligned, first stream position) of the template's best alignment of at
        least MIN_TOKENS tokens, if any; seeds are the anchor words' positions, in stream
        order, and a seed inside an earlier alignment's span is not tried again."""
        seeds = sorted(p for w in words for p in pos.get(w, ()))
        at = {w: [k for k, t in enumerate(toks) if t == w] for w in words}
        found: tuple[float, int] | None = None
        covered = -1
        for p in seeds:
            if p <= covered:
                continue
            for j in at[stream[p]]:
                matched, first, last = align(toks, j, p, pos, seg, self.gap)
                covered = max(covered, last)
                if len(matched) < self.min_tokens:
                    continue
                got = total([ws[k] for k in matched])
                if found is None or got > found[0]:
                    found = (got, first)
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

    def possible(self, lowered: Lines, clean: Callable[[int], str]) -> list[tuple[str, float, int]]:
        """Second-stage matches: (entry id, shown score, line index), best first.

        The query is the terms of the log's first QUERY_LINES error lines and the line after
        each; see LEXICAL_MIN for which entries are offered. An entry's line is the query
        line adding most to its score (the first on a tie).
        """
        n = len(lowered.lines)
        picked: list[int] = []
        for i in lowered.containing(self.error_words)[: self.query_lines]:
            for k in (i, i + 1):
                if k < n and (not picked or picked[-1] < k):
                    picked.append(k)
        if not picked:
            return []
        per_line = [set(self.line_terms(clean(k))) for k in picked]
        acc = self.scores(set().union(*per_line))
        ranked = sorted(
            (d for d in range(len(acc)) if acc[d] > 0), key=lambda d: (-acc[d], self.ids[d])
        )
        # Offered only when one entry stands out: near misses spread their score over the
        # entries of a family (every CUDA error shares "CUDA error ... kernel").
        if not ranked or acc[ranked[0]] < self.lexical_min:
            return []
        if len(ranked) > 1 and acc[ranked[0]] < self.lexical_margin * acc[ranked[1]]:
            return []
        ranked = [ranked[0], *(d for d in ranked[1:] if acc[d] >= self.lexical_min / 2)]
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

    def phase_at(self, lowered: Lines, line: int) -> str | None:
        """The log's phase at a line: see PHASES."""
        n = len(lowered.lines)
        for distance in range(self.context_lines + 1):
            for k in (line - distance, line + distance) if distance else (line,):
                if 0 <= k < n:
                    for w in _LETTERS.findall(lowered.lines[k]):
                        phase = self.phase_of.get(w)
                        if phase is not None:
                            return phase
        return None

    def rank(
        self, best: dict[str, tuple[float, int]], lowered: Lines
    ) -> list[tuple[str, tuple[float, int]]]:
        """Strong matches first, by position, then weak ones, best first; causes before
        symptoms; entries matched at the same line (both strong, or both weak) ordered by
        their context, then by score; a
        symptom after a cause it lists in `related` that matched at or before its line.

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

        def key(entry_id: str) -> tuple[int, int, float, int, int, float, str]:
            score, line = best[entry_id]
            symptom = 1 if entry_id in self.symptoms else 0
            if score >= self.strong:
                return (0, symptom, line, 0, -context[entry_id], -score, entry_id)
            return (1, symptom, -top[group(entry_id)], line, -context[entry_id], -score, entry_id)

        order = sorted(best, key=key)
        for entry_id in [e for e in order if e in self.symptoms]:
            here = order.index(entry_id)
            line = best[entry_id][1]
            causes = [
                k
                for k, e in enumerate(order)
                if k > here and e in self.symptoms[entry_id] and best[e][1] <= line
            ]
            if causes:
                order.insert(causes[-1], order.pop(here))
        return [(entry_id, best[entry_id]) for entry_id in order]


class Lines:
    """The lines of a log joined once, for C-speed substring searches that report line numbers."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.text = "\n".join(lines)
        self.starts = [0, *itertools.accumulate(len(line) + 1 for line in lines)]

    def containing(self, words: list[str]) -> list[int]:
        """Sorted indices of the lines that contain any of `words`."""
        text, starts = self.text, self.starts
        found: set[int] = set()
        for word in words:
            at = text.find(word)
            while at >= 0:
                line = bisect.bisect_right(starts, at) - 1
                found.add(line)
                at = text.find(word, starts[line + 1])
        return sorted(found)


_ESCAPES = re.compile(r"\\[nrt]")  # as the rule in RULES, for the word search


def round3(x: float) -> float:
    """Three decimals, as JavaScript's Math.floor(x * 1000 + 0.5) / 1000 gives them."""
    return math.floor(x * 1000 + 0.5) / 1000


def _strip_colours(line: str) -> str:
    return _RULES[0][0].sub("", line).strip()


_WORDS_ONLY = bytes(
    b if b == 0x0A or b == 0x5F or 0x61 <= b <= 0x7A else 0x20 for b in range(256)
)  # keeps "\n", "_" and a-z


E = TypeVar("E", bound=Entry)


def pattern_collisions(entries: Sequence[E]) -> list[tuple[E, int, E, int]]:
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
    found: list[tuple[E, int, E, int]] = []
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
