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
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar


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
    # tqdm progress bars ("38%|██▊     | 3/8 [00:02<00:03,  1.28it/s]") vary in every paste.
    (r"\d+%\|[^|\n]*\|\s*[\d.]+[kMG]?/[\d.]+[kMG]?\s*\[[^\]\n]*\]", " progress "),
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
# A message's first CAP tokens identify it: long messages (PyTorch's OOM runs to 75 tokens)
# end in clauses that change between versions, so a score counts at most this many.
CAP = 24
# Lines a match may reach before and after the line holding its trigger word: a message
# starts at most MIN_TOKENS - 1 tokens before the trigger and may be wrapped over many lines.
WINDOW = (MIN_TOKENS - 1, 16)
PLACEHOLDERS = frozenset(
    {"0", "path", "hex", "size", "progress"}
)  # tokens the rules write, not the log
BARRIER = "|"  # stands for skipped lines; TOKEN_RE never yields it, so nothing matches across

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
_Guard = Callable[[str, bool], bool]
_GUARDS: list[_Guard] = [
    lambda line, digits: "\x1b" in line,
    lambda line, digits: line.lstrip(" \t\n\r\f\v").startswith(_LEVEL_START),
    lambda line, digits: "level=" in line,
    lambda line, digits: digits and "%|" in line,
    lambda line, digits: digits and "-" in line and ":" in line,
    lambda line, digits: digits and ":" in line,
    lambda line, digits: "0x" in line,
    lambda line, digits: "/" in line,
    lambda line, digits: ":\\" in line,
    lambda line, digits: digits and ("B" in line or "bytes" in line),
    lambda line, digits: digits,
]


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


@dataclass(frozen=True)
class Template:
    entry_id: str
    tokens: tuple[str, ...]
    symptom: bool

    @property
    def triggers(self) -> tuple[str, ...]:
        return trigger_words(self.tokens)


@dataclass(frozen=True)
class Match:
    entry_id: str
    score: float
    line: int  # 1-based line of the log where the match starts
    matched: str  # that line, as the user pasted it


def trigger_words(toks: tuple[str, ...]) -> tuple[str, ...]:
    """Words every match of `toks` contains; empty when none (then every line is a candidate).

    A reported match covers at least `need` tokens (MIN_TOKENS, and MIN_SCORE of its first
    CAP tokens) starting at most SKIP_MAX in, so it always covers tokens SKIP_MAX .. need - 1.
    Any of these words can pick the candidate lines; the matcher uses the one that occurs on
    the fewest lines of the log at hand.
    """
    n = min(len(toks), CAP)
    need = next((k for k in range(MIN_TOKENS, n + 1) if k / n >= MIN_SCORE), n)
    return tuple(dict.fromkeys(t for t in toks[SKIP_MAX:need] if t not in PLACEHOLDERS))


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
            toks = tuple(tokens(" ".join(clean_line(line) for line in message.text.split("\n"))))
            if len(toks) >= MIN_TOKENS:
                out.append(Template(entry.id, toks, entry.symptom))
    return out


def matcher_data(entries: Sequence[Entry]) -> dict[str, Any]:
    """What the browser needs to match exactly as `errkb match` does, from every entry."""
    return {
        "version": 2,
        "rules": [[p, r] for p, r in RULES],
        "token_re": TOKEN_RE,
        "min_tokens": MIN_TOKENS,
        "min_score": MIN_SCORE,
        "strong": STRONG,
        "skip_max": SKIP_MAX,
        "cap": CAP,
        "window": list(WINDOW),
        "templates": [
            {"id": t.entry_id, "tokens": list(t.tokens), "triggers": list(t.triggers)}
            for t in templates(entries)
        ],
        "symptoms": sorted(e.id for e in entries if e.symptom and not e.retired),
        "patterns": [
            {"id": e.id, "regex": p.regex, "needles": needles(p.regex)}
            for e in entries
            if not e.retired
            for p in e.patterns
        ],
    }


class Matcher:
    def __init__(self, data: dict[str, Any]) -> None:
        self.templates = [(t["id"], tuple(t["tokens"])) for t in data["templates"]]
        self.patterns = [
            (p["id"], re.compile(p["regex"], re.IGNORECASE | re.ASCII), p["needles"])
            for p in data["patterns"]
        ]
        self.min_tokens = int(data["min_tokens"])
        self.min_score = float(data["min_score"])
        self.strong = float(data["strong"])
        self.cap = int(data["cap"])
        self.symptoms = frozenset(data["symptoms"])
        self.window = (int(data["window"][0]), int(data["window"][1]))
        # Distinct trigger-word sets, in first-seen order (ties break by that order, as in JS).
        sets = dict.fromkeys(tuple(w.encode() for w in t["triggers"]) for t in data["templates"])
        self.scan_all = () in sets  # a template without trigger words: clean every line
        self.trigger_sets = [ws for ws in sets if ws]
        self.vocab = frozenset(w for ws in self.trigger_sets for w in ws)

    def candidates(self, lowered: Lines) -> list[bool]:
        """Lines worth cleaning: within the window of a line that holds a trigger word."""
        n = len(lowered.lines)
        if self.scan_all:
            return [True] * n
        # A trigger counts as a whole word, a maximal run of [a-z_] ("serve" must not pick every
        # "APIServer" line). Bytes translation turns every other character into a space, so
        # split() yields exactly those runs, at C speed.
        words = lowered.text.encode("utf-8", "replace").translate(_WORDS_ONLY).split(b"\n")
        vocab = self.vocab
        index: dict[bytes, list[int]] = {}
        for i, line in enumerate(words):
            for w in vocab.intersection(line.split()):
                index.setdefault(w, []).append(i)
        hits: set[int] = set()
        for ws in self.trigger_sets:
            # The rarest of the template's trigger words in this log (first one on a tie).
            rarest = min(ws, key=lambda w: len(index.get(w, ())))
            hits.update(index.get(rarest, ()))
        marked = [False] * n
        before, after = self.window
        for i in hits:
            lo, hi = max(0, i - before), min(n, i + after + 1)
            marked[lo:hi] = [True] * (hi - lo)
        return marked

    def match(self, log: str, top: int = 5) -> list[Match]:
        raw_lines = split_lines(log)
        # Trigger words are searched in the raw lines, colours removed and lowercased: every
        # word token of a cleaned line is a substring of that text.
        lowered = Lines(split_lines(_RULES[0][0].sub("", log).lower()))
        cleaned: dict[int, str] = {}

        def clean(i: int) -> str:
            if i not in cleaned:
                cleaned[i] = clean_line(raw_lines[i])
            return cleaned[i]

        stream: list[str] = []
        line_of: list[int] = []  # token index -> line index
        previous = -1
        for i, keep in enumerate(self.candidates(lowered)):
            if not keep:
                continue
            if i != previous + 1 and stream:
                stream.append(BARRIER)
                line_of.append(i)
            previous = i
            line_tokens = tokens(clean(i))
            stream.extend(line_tokens)
            line_of.extend([i] * len(line_tokens))
        joined = " " + " ".join(stream) + " "
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
                score = min(1.0, length / min(len(toks), self.cap))
                if score >= self.min_score:
                    offer(entry_id, score, line_of[joined.count(" ", 0, offset) - 1])
        for entry_id, pattern, literals in self.patterns:
            lines = range(len(raw_lines)) if literals is None else lowered.containing(literals)
            for i in lines:
                if pattern.search(clean(i)):
                    offer(entry_id, 1.0, i)
                    break
        ranked = sorted(best.items(), key=lambda kv: self.rank_key(kv[1][0], kv[1][1], kv[0]))
        return [
            Match(
                entry_id, round(score, 3), line + 1, _RULES[0][0].sub("", raw_lines[line]).strip()
            )
            for entry_id, (score, line) in ranked[:top]
        ]

    def rank_key(
        self, score: float, line: int, entry_id: str
    ) -> tuple[int, int, float, float, str]:
        symptom = 1 if entry_id in self.symptoms else 0
        if score >= self.strong:
            return (0, symptom, line, -score, entry_id)
        return (1, symptom, -score, line, entry_id)


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


_WORDS_ONLY = bytes(
    b if b == 0x0A or b == 0x5F or 0x61 <= b <= 0x7A else 0x20 for b in range(256)
)  # keeps "\n", "_" and a-z


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
