"""The second stage: BM25 over every entry's text, for what no stored wording catches.

Documents are entries: their messages, title, summary and detection notes, cleaned by the
matcher's rules. Terms are content tokens and pairs of adjacent content tokens (a pair
"out memory" says more than its words). The weight of each (term, entry) is computed here,
at build time, and exported rounded, so the browser adds exactly the same numbers.

A query is the set of terms on a log's *error lines* (lines that say error, failed, ...,
and the line after each, where wrapped messages go on), at most QUERY_LINES of them: the
score of an entry is the sum of the weights of the query's terms, added in sorted term order
(the same order in JavaScript, so the same float).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Sequence

K1 = 1.2
B = 0.75
DIGITS = 4  # exported weights are rounded to this many decimals


def terms(toks: Sequence[str]) -> list[str]:
    """Content tokens, then adjacent pairs ("out memory"), in order."""
    return [*toks, *(a + " " + b for a, b in itertools.pairwise(toks))]


def build(docs: Sequence[Iterable[Sequence[str]]]) -> dict[str, list[list[float]]]:
    """term -> [[document index, weight], ...]; each doc is its lines' content tokens."""
    counts = [Counter(t for toks in doc for t in terms(toks)) for doc in docs]
    n = len(counts)
    lengths = [sum(c.values()) for c in counts]
    average = sum(lengths) / n if n else 1.0
    # Inverted once (documents in ascending order per term), not every term over every document.
    holders: dict[str, list[tuple[int, int]]] = {}
    for d, c in enumerate(counts):
        for t, tf in c.items():
            holders.setdefault(t, []).append((d, tf))
    postings: dict[str, list[list[float]]] = {}
    for term in sorted(holders):
        row_in = holders[term]
        df = len(row_in)
        idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
        row: list[list[float]] = []
        for d, tf in row_in:
            w = idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengths[d] / average))
            row.append([d, round(w, DIGITS)])
        postings[term] = row
    return postings
