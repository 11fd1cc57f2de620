"""Score a message by its tokens aligned, in order, to the log's token stream.

A template (one stored wording, cleaned into tokens) is aligned from a *seed*: a stream
position holding one of its words. From the seed the alignment extends forwards and then
backwards, one template token at a time: each token takes its nearest occurrence after (or
before) the last one matched, at most GAP stream tokens away and not across a barrier
(skipped lines); a token with no such occurrence is skipped. The score is the fraction of the
template's first CAP tokens' weight matched. Greedy and seeded, so the JavaScript twin reproduces it
step for step.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence


def align(
    toks: Sequence[str],
    j: int,
    p: int,
    pos: dict[str, list[int]],
    seg: list[int],
    gap: int,
) -> tuple[list[int], int, int]:
    """(template positions matched, ascending; first and last stream position) aligning
    toks[j] at stream position p."""
    after: list[int] = []
    before: list[int] = []
    first = last = p
    here = seg[p]
    cur = p
    for k in range(j + 1, len(toks)):
        found = pos.get(toks[k])
        if not found:
            continue
        i = bisect_right(found, cur)
        if i < len(found):
            q = found[i]
            if q - cur - 1 <= gap and seg[q] == here:
                after.append(k)
                cur = last = q
    cur = p
    for k in range(j - 1, -1, -1):
        found = pos.get(toks[k])
        if not found:
            continue
        i = bisect_left(found, cur) - 1
        if i >= 0:
            q = found[i]
            if cur - q - 1 <= gap and seg[q] == here:
                before.append(k)
                cur = first = q
    return [*reversed(before), j, *after], first, last
