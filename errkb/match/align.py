"""Score a message by its tokens aligned, in order, to the log's token stream.

A template (one stored wording, cleaned into tokens) is aligned from a *seed*: a stream
position holding one of its words. From the seed the alignment extends forwards and then
backwards, one template token at a time: each token takes its nearest occurrence after (or
before) the last one matched, at most GAP stream tokens away and not across a barrier
(skipped lines); a token with no such occurrence is skipped. The score is the fraction of the
template's first CAP tokens' weight matched, less a share of the weight of the tokens the log
contradicts (`contradicted`). Greedy and seeded, so the JavaScript twin reproduces it step
for step.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence

from errkb.match.normalize import WEAK


def align(
    occurs: Sequence[list[int] | None],
    j: int,
    p: int,
    seg: list[int],
    gap: int,
) -> tuple[list[int], list[int]]:
    """(template positions matched, ascending; the stream position of each) aligning
    template token j at stream position p. `occurs[k]`: the stream positions of the
    template's token k, ascending (None when the stream has none), looked up once per
    template rather than once per seed."""
    after: list[int] = []
    before: list[int] = []
    at_after: list[int] = []
    at_before: list[int] = []
    here = seg[p]
    # A token's nearest occurrence after (before) the last one matched must lie within
    # gap + 1 of it: a list with none in that range is passed over without a search.
    step = gap + 1
    cur = p
    for k in range(j + 1, len(occurs)):
        found = occurs[k]
        if not found or found[-1] <= cur:
            continue
        q = found[bisect_right(found, cur)]
        if q - cur <= step and seg[q] == here:
            after.append(k)
            at_after.append(q)
            cur = q
    cur = p
    for k in range(j - 1, -1, -1):
        found = occurs[k]
        if not found or found[0] >= cur:
            continue
        q = found[bisect_left(found, cur) - 1]
        if cur - q <= step and seg[q] == here:
            before.append(k)
            at_before.append(q)
            cur = q
    return [*reversed(before), j, *after], [*reversed(at_before), p, *at_after]


def beyond_reach(
    occurs: Sequence[list[int] | None],
    ws: Sequence[float],
    heavy: Sequence[int],
    j: int,
    p: int,
    step: int,
    ceiling: float,
    need: float,
) -> bool:
    """Whether aligning template token j at stream position p is known not to matter: the
    alignment cannot reach the template's first token, and the heaviest tokens (`heavy`)
    that have no occurrence in reach of p take the weight it could have below `need`.

    Each `align` step moves at most `step` stream positions, so token k can only be matched
    within (k - j) steps after p (or j - k steps before it). An alignment that cannot start
    at token 0 changes no skipped span (`Matcher.align_template`'s `covered`), and one
    weighing less than `need` neither reaches the template's threshold nor beats the best
    alignment so far: skipping it leaves the result as it was."""
    if j == 0:
        return False
    first = occurs[0]
    if first:
        i = bisect_left(first, p)
        if i and first[i - 1] >= p - j * step:
            return False
    bound = ceiling
    for k in heavy:
        found = occurs[k]
        if k == j or not found:
            continue
        if k > j:
            i = bisect_right(found, p)
            near = i < len(found) and found[i] <= p + (k - j) * step
        else:
            i = bisect_left(found, p)
            near = i > 0 and found[i - 1] >= p - (j - k) * step
        if not near:
            bound -= ws[k]
            # A margin: `bound` is added up in another order than an alignment's weight.
            if bound + 1e-6 < need:
                return True
    return False


def contradicted(matched: Sequence[int], at: Sequence[int]) -> list[int]:
    """Template positions the log contradicts: skipped between two aligned tokens where the
    log, too, holds other tokens ("illegal memory access" against "illegal instruction")."""
    out: list[int] = []
    for a in range(1, len(matched)):
        if matched[a] - matched[a - 1] > 1 and at[a] - at[a - 1] > 1:
            out.extend(range(matched[a - 1] + 1, matched[a]))
    return out


def replaced_first(
    matched: Sequence[int],
    at: Sequence[int],
    ws: Sequence[float],
    stream: Sequence[str],
    line_of: Sequence[int],
    rare: float,
) -> list[int]:
    """The template token just before the alignment, if the log holds another word in its
    place on the same line and the token is one few entries hold (`rare` weight or more):
    "libcudart.so.12: cannot open ..." against "libcuda.so.1: cannot open ...". A common
    word there ("RuntimeError", "error") is a wrapper's or a release's, not a contradiction."""
    first, p = matched[0], at[0]
    if (
        first > 0
        and p > 0
        and line_of[p - 1] == line_of[p]
        and ws[first - 1] >= rare
        and stream[p - 1] not in WEAK
    ):
        return [first - 1]
    return []


def named_at(toks: Sequence[str], naming: frozenset[tuple[str, str]]) -> tuple[int, ...]:
    """The template positions holding a name: the token after a naming pair ("no attribute"),
    unless a placeholder stands there."""
    return tuple(
        k
        for k in range(2, len(toks))
        if (toks[k - 2], toks[k - 1]) in naming and toks[k] not in WEAK
    )


def renamed(
    matched: Sequence[int],
    at: Sequence[int],
    named: Sequence[int],
    stream: Sequence[str],
    line_of: Sequence[int],
) -> bool:
    """Whether the log names another thing where the template names one (`named`, the word
    after a matcher.NAMING pair): "has no attribute 'engine'" against "has no attribute
    'model'". The name is the error (the normaliser keeps it a word for that reason), however
    common a word it is, so the wording does not match at all rather than losing the name's
    weight."""
    pos = dict(zip(matched, at, strict=True))
    for k in named:
        q = pos.get(k - 1)
        if q is None or k in pos or q + 1 >= len(stream):
            continue
        if line_of[q + 1] == line_of[q] and stream[q + 1] not in WEAK:
            return True
    return False


def idf(entries: int, holding: int) -> float:
    """The weight of a token `holding` of `entries` entries use: log(1 + N / df), rounded."""
    return round(math.log(1 + entries / holding), 4)


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
    return {t: idf(n, c) for t, c in sorted(df.items())}


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
