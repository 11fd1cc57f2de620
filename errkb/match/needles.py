"""Literal text a pattern's every match contains: the prefilter for entry patterns."""

from __future__ import annotations

import itertools
from pathlib import Path

from errkb.memo import persistent


@persistent("needles", Path(__file__))
def needles(regex: str) -> list[str] | None:
    """Literal lowercase texts one of which every match of `regex` contains; None if unsure.

    Conservative by construction: a top-level alternation (or one group around the whole
    regex) gives one needle per branch; within a branch only literal text outside groups and
    classes counts (letters, spaces and punctuation that is not a regex operator, escaped or
    not; no digits), and the longest such run of at least 4 characters is kept.
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
    """(index, character, depth) for every character; an escape gives its two characters."""
    out: list[tuple[int, str, int]] = []
    depth, i, in_class = 0, 0, False
    while i < len(regex):
        ch = regex[i]
        if ch == "\\":
            # The escape and the character escaped: "\\[" is a literal bracket, "\\d" a class.
            out.append((i, regex[i : i + 2], depth + in_class))
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


# Characters with a meaning in a regex: they end a run of literal text. Digits end it too: a
# pattern may be matched against the cleaned line, where every number reads "0".
_META = frozenset(".^$*+?{}[]()|\\")


def _text(ch: str) -> str | None:
    """The character `ch` (one from `_scan`) stands for, if it is literal text: a letter, a
    space or punctuation that is no regex operator, or an escaped punctuation mark ("\\[");
    not a digit, and not an escaped backslash, which the log's escaped line breaks ("\\n" in
    a JSON record) lose when the log is searched."""
    if len(ch) == 1:
        literal = ch if ch not in _META else None
    else:
        literal = ch[1] if not ch[1].isalnum() and ch[1] != "\\" else None
    if literal is None or not literal.isascii() or literal.isdigit():
        return None
    return literal


def _literal(branch: str) -> str | None:
    runs: list[str] = []
    current = ""
    for _, ch, depth in _scan(branch):
        text = _text(ch) if depth == 0 else None
        if text is not None:
            current += text
            continue
        if ch in "*?{" and current:
            current = current[:-1]  # the character before a quantifier is optional
        runs.append(current)
        current = ""
    runs.append(current)
    best = max((r.strip() for r in runs), key=len)
    return best.lower() if len(best) >= 4 else None
