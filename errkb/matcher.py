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
   in the stream; its score is the fraction of its tokens in that prefix.
3. Entry patterns (regexes) match on cleaned lines and score 1.
4. Entries are ranked strong matches first, causes before entries marked
   `symptom` (the engine died *because* of an OOM), then earliest in the log
   first: the first error a log shows is usually the cause.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from errkb.corpus import Corpus

# (pattern, replacement): applied in order to every line. Replacements are literal text so that
# both languages read them the same way; patterns use the syntax Python and JavaScript share.
RULES: list[tuple[str, str]] = [
    (r"\x1b\[[0-9;?]*[A-Za-z]", ""),  # ANSI colours and cursor codes
    # vLLM and most Python loggers: "(VllmWorker rank=0 pid=1) INFO 06-12 10:41:03 [engine.py:123] "
    (
        r"^\s*(\([A-Za-z_]+[^)]*\)\s*)?(DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)\s+\d\d-\d\d\s+[\d:.]+\s*(\[[^\]]*\]\s*)?",
        "",
    ),
    # Ollama/Go slog: time=... level=ERROR source=sched.go:123 msg="..."
    (r"^\s*time=\S+\s+level=\S+\s+(source=\S+\s+)?msg=", ""),
    (r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d([.,]\d+)?(Z|[+-]\d\d:?\d\d)?", " "),  # ISO timestamps
    (r"\b\d\d:\d\d:\d\d([.,]\d+)?\b", " "),  # bare clock times
    (r"0x[0-9a-fA-F]+", " hex "),
    (r"(/[\w.@+-]+){2,}/?", " path "),  # POSIX paths
    (r"[A-Za-z]:(\\[\w.@+-]+)+\\?", " path "),  # Windows paths
    (r"\b\d+(\.\d+)?[ \t]?(bytes|[KMGT]i?B)\b", " size "),  # 154.25 MiB and 12.73 GiB alike
    (r"\d+(\.\d+)*", " 0 "),  # every number looks the same
]
TOKEN_RE = r"[a-z_]+|0"
MIN_TOKENS = 5  # a match shorter than this is a coincidence, not an error
MIN_SCORE = 0.6  # fraction of a message that must appear
SKIP_MAX = 2  # leading message tokens that may be missing (an exception name, "Error:")
STRONG = 0.9  # above this a match is certain; ranked by position in the log

# ASCII semantics for \\d, \\w, \\s and \\b, as in JavaScript.
_RULES = [(re.compile(p, re.ASCII), r) for p, r in RULES]
_TOKEN = re.compile(TOKEN_RE)
LINE_BREAK = re.compile(r"\r\n|\r|\n")  # what JavaScript splits on, unlike str.splitlines


def clean_line(line: str) -> str:
    for pattern, replacement in _RULES:
        line = pattern.sub(replacement, line)
    return line


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


@dataclass(frozen=True)
class Template:
    entry_id: str
    tokens: tuple[str, ...]
    symptom: bool


@dataclass(frozen=True)
class Match:
    entry_id: str
    score: float
    line: int  # 1-based line of the log where the match starts
    matched: str  # that line, as the user pasted it


def templates(corpus: Corpus) -> list[Template]:
    out: list[Template] = []
    for entry in corpus.entries:
        if entry.retired:
            continue
        for message in entry.messages:
            toks = tuple(tokens(" ".join(clean_line(line) for line in message.text.split("\n"))))
            if len(toks) >= MIN_TOKENS:
                out.append(Template(entry.id, toks, entry.symptom))
    return out


def matcher_data(corpus: Corpus) -> dict[str, Any]:
    """What the browser needs to match exactly as `errkb match` does."""
    return {
        "version": 1,
        "rules": [[p, r] for p, r in RULES],
        "token_re": TOKEN_RE,
        "min_tokens": MIN_TOKENS,
        "min_score": MIN_SCORE,
        "strong": STRONG,
        "skip_max": SKIP_MAX,
        "templates": [{"id": t.entry_id, "tokens": list(t.tokens)} for t in templates(corpus)],
        "symptoms": sorted(e.id for e in corpus.entries if e.symptom and not e.retired),
        "patterns": [
            {"id": e.id, "regex": p.regex}
            for e in corpus.entries
            if not e.retired
            for p in e.patterns
        ],
    }


class Matcher:
    def __init__(self, data: dict[str, Any]) -> None:
        self.templates = [(t["id"], tuple(t["tokens"])) for t in data["templates"]]
        self.patterns = [
            (p["id"], re.compile(p["regex"], re.IGNORECASE | re.ASCII)) for p in data["patterns"]
        ]
        self.min_tokens = int(data["min_tokens"])
        self.min_score = float(data["min_score"])
        self.strong = float(data["strong"])
        self.symptoms = frozenset(data["symptoms"])

    def match(self, log: str, top: int = 5) -> list[Match]:
        raw_lines = LINE_BREAK.split(log)
        cleaned = [clean_line(line) for line in raw_lines]
        stream: list[str] = []
        line_of: list[int] = []  # token index -> line index
        for i, line in enumerate(cleaned):
            line_tokens = tokens(line)
            stream.extend(line_tokens)
            line_of.extend([i] * len(line_tokens))
        # Token positions are recovered from character offsets in " tok tok tok ".
        joined = " " + " ".join(stream) + " "
        starts = _token_starts(stream)
        best: dict[str, tuple[float, int]] = {}

        def offer(entry_id: str, score: float, line: int) -> None:
            current = best.get(entry_id)
            if current is None or (score, -line) > (current[0], -current[1]):
                best[entry_id] = (score, line)

        for entry_id, toks in self.templates:
            # Engines wrap messages in their own exception names, so the first tokens may differ.
            for skip in range(SKIP_MAX + 1):
                found = _longest_prefix(joined, toks[skip:], self.min_tokens)
                if found is None:
                    continue
                length, offset = found
                score = length / len(toks)
                if score >= self.min_score:
                    offer(entry_id, score, line_of[starts[offset]])
        for entry_id, pattern in self.patterns:
            for i, line in enumerate(cleaned):
                if pattern.search(line):
                    offer(entry_id, 1.0, i)
                    break
        ranked = sorted(
            best.items(), key=lambda kv: rank_key(kv[1][0], kv[1][1], kv[0], self.strong)
        )
        return [
            Match(
                entry_id, round(score, 3), line + 1, _RULES[0][0].sub("", raw_lines[line]).strip()
            )
            for entry_id, (score, line) in ranked[:top]
        ]


def rank_key(
    score: float, line: int, entry_id: str, strong: float
) -> tuple[int, float, float, str]:
    if score >= strong:
        return (0, line, -score, entry_id)
    return (1, -score, line, entry_id)


def _token_starts(stream: list[str]) -> dict[int, int]:
    """Character offset of each token in the joined stream -> its token index."""
    out: dict[int, int] = {}
    offset = 1
    for i, tok in enumerate(stream):
        out[offset] = i
        offset += len(tok) + 1
    return out


def _longest_prefix(joined: str, toks: tuple[str, ...], minimum: int) -> tuple[int, int] | None:
    """Longest k >= minimum such that the first k tokens occur contiguously: (k, char offset)."""
    need = minimum
    if len(toks) < need or joined.find(" " + " ".join(toks[:need]) + " ") < 0:
        return None
    lo, hi = need, len(toks)  # prefix presence is monotonic in k, so binary search works
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if joined.find(" " + " ".join(toks[:mid]) + " ") >= 0:
            lo = mid
        else:
            hi = mid - 1
    return lo, joined.find(" " + " ".join(toks[:lo]) + " ") + 1
