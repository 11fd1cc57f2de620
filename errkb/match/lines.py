"""Which of a log's distinct lines hold a pattern's needles, without reading the whole text.

The pattern stage looks for each pattern's needles (`errkb.match.needles`) in every distinct
line of the log. A substring search of the joined lines reads all of them for each needle the
log does not hold, and most needles are not in most logs. But a needle's inner words (a
non-word character on both sides inside it: "gin" in "[gin]") are whole words of any line
holding it, so the lines holding one of those words are the only ones to read; the rarest
word's lines are few. The distinct lines' words are indexed once per log, for the words some
needle holds.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator

from errkb.match.normalize import Lines


class NeedleLines:
    """`lines`: a log's distinct lines, lowercased; `words_only`: the same lines as the
    matcher's WORDS_ONLY translation gives them; `vocab`: every inner word of a needle."""

    def __init__(self, lines: Lines, words_only: list[bytes], vocab: frozenset[bytes]) -> None:
        self.lines = lines
        self.words: dict[bytes, list[int]] = {}
        seen: dict[bytes, list[bytes]] = {}  # lines differing only in numbers: one word list
        for at, line in enumerate(words_only):
            held = seen.get(line)
            if held is None:
                held = seen[line] = list(vocab.intersection(line.split()))
            for w in held:
                self.words.setdefault(w, []).append(at)

    def holding(self, needles: list[str], inner: list[list[bytes]], stop: int) -> Iterator[int]:
        """`Lines.iter_containing(needles, stop)`: the lines before `stop` holding a needle,
        ascending; a needle with inner words is looked for in its rarest word's lines only."""
        runs: list[Iterator[int]] = []
        for needle, words in zip(needles, inner, strict=True):
            if words:
                rare = min((self.words.get(w, []) for w in words), key=len)
                runs.append(self._among(needle, rare, stop))
            else:
                runs.append(self.lines.lines_with(needle, stop))
        last = -1
        for at in heapq.merge(*runs):
            if at != last:
                yield at
                last = at

    def _among(self, needle: str, among: list[int], stop: int) -> Iterator[int]:
        lines = self.lines.lines
        for at in among:
            if at >= stop:
                return
            if needle in lines[at]:
                yield at
