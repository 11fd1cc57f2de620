"""Repeated stretches of a log: an alignment seeded in a copy of an earlier stretch is known.

Logs repeat themselves: a retry loop prints the same traceback again, a crash is printed
once per rank, a 10,000-line log is often the same few hundred lines many times. An
alignment (`align.align`) reads only the stream within `reach` tokens of its seed, plus one
token either side (`replaced_first`, `renamed`), and which of those positions share the
seed's line and segment. So a seed whose surroundings are a token-for-token copy of an
earlier seed's (same lines, in the same order, the seed at the same place in its line, the
same segment breaks) aligns exactly as that seed did, at a later place: it cannot beat it
(`Matcher.align_template` keeps the first of equal alignments), and only the span it would
have covered is needed. `Windows` names each seed's surroundings so such copies are found
with a dictionary lookup instead of aligned again. This changes no result, only the time
spent on logs that repeat; the browser aligns every seed.
"""

from __future__ import annotations

from bisect import bisect_right


class Windows:
    """Names for the surroundings of stream positions, equal exactly for copies.

    `starts`: the stream position where each kept line begins, ascending; `shapes`: a number
    per kept line, equal for lines with equal tokens that continue the segment the line
    before them is in (a line after skipped lines gets another number); `length`: the
    stream's length; `reach`: how far an alignment reads from its seed, either way.
    """

    def __init__(self, starts: list[int], shapes: list[int], length: int, reach: int) -> None:
        self.starts = starts
        self.shapes = shapes
        self.length = length
        self.reach = reach
        self.names: dict[tuple[int, ...], int] = {}
        self.of_line: dict[int, int | None] = {}

    def place(self, p: int) -> tuple[int | None, int]:
        """Stream position p's surroundings (`line_name`) and its offset in its line."""
        s = bisect_right(self.starts, p) - 1  # the last line starting at or before p
        return self.line_name(s), p - self.starts[s]

    def line_name(self, s: int) -> int | None:
        """A number for kept line s's surroundings (None where they run off the stream)."""
        if s in self.of_line:
            return self.of_line[s]
        starts = self.starts
        end = starts[s + 1] if s + 1 < len(starts) else self.length
        lo_at, hi_at = starts[s] - self.reach, end - 1 + self.reach
        name: int | None = None
        if lo_at >= 0 and hi_at < self.length:
            lo = bisect_right(starts, lo_at) - 1
            hi = bisect_right(starts, hi_at) - 1
            # The lines around s, and where s stands among them: equal keys mean equal tokens
            # at every offset from s's start within reach (equal shapes, equal lengths), and
            # a segment break (a new shape number) at the same places.
            key = (s - lo, *self.shapes[lo : hi + 1])
            name = self.names.setdefault(key, len(self.names))
        self.of_line[s] = name
        return name
