"""Smaller HTML for the same page (issue 17): an entry page was 40 KB, 6 KB of it template
indentation and another 1 to 8 KB Pygments' spans around plain whitespace.

Only what cannot render differently is removed: a run of whitespace holding a newline becomes
one newline (HTML renders both as one space), never inside `pre`, `textarea`, `script` or
`style`. Inside `pre`, Pygments' empty opening span goes, and these spans give way to their
text: `w` (whitespace, which no stylesheet colours), `n` (names, which Material colours
`--md-code-hl-name-color`, the code's own colour), `o` and `p` (operators and punctuation,
which errkb.css gives the code's own colour: their lighter grey was 4 KB of spans on the
heaviest entry page). A token that continues one of the same class joins it
(`<span class="c1"># a</span><span class="c1"> b</span>` is `<span class="c1"># a b</span>`).
Whitespace here is HTML's (space, tab, CR, LF, form feed), not Unicode's: a no-break space
renders, so it stays.
"""

from __future__ import annotations

import re

_VERBATIM_RE = re.compile(r"(<(pre|textarea|script|style)\b.*?</\2>)", re.DOTALL | re.IGNORECASE)
_HTML_SPACE = " \t\r\f"  # with "\n", which the split below consumes
_PLAIN_SPAN_RE = re.compile(r'<span class="[wnop]">([^<]*)</span>')
_EMPTY_SPAN = "<span></span>"
_SAME_CLASS_RE = re.compile(r'(<span class="([^"]+)">[^<]*)</span><span class="\2">')


def compact_html(html: str) -> str:
    parts = _VERBATIM_RE.split(html)
    out: list[str] = []
    # split() with two groups yields: text, whole verbatim element, its tag name, text, ...
    for i in range(0, len(parts), 3):
        out.append(_collapse_newline_runs(parts[i]))
        if i + 1 < len(parts):
            verbatim = parts[i + 1]
            if verbatim[:4].lower() == "<pre":
                verbatim = _tokens(verbatim)
            out.append(verbatim)
    return "".join(out)


def _tokens(pre: str) -> str:
    pre = _PLAIN_SPAN_RE.sub(r"\1", pre.replace(_EMPTY_SPAN, ""))
    joined = _SAME_CLASS_RE.sub(r"\1", pre)
    while joined != pre:  # a run of three or more joins one pair per pass
        pre, joined = joined, _SAME_CLASS_RE.sub(r"\1", joined)
    return joined


def _collapse_newline_runs(text: str) -> str:
    """Every run of whitespace that holds a newline, as one newline.

    Line by line rather than by one regex: a pattern that may start at any space tries at
    every space of the page, and this took 0.9 s of a 1,000-entry build.
    """
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    kept = [lines[0].rstrip(_HTML_SPACE)]
    # A line that is all whitespace belongs to the run around it, so it goes entirely.
    kept += [s for s in (line.strip(_HTML_SPACE) for line in lines[1:-1]) if s]
    kept.append(lines[-1].lstrip(_HTML_SPACE))
    return "\n".join(kept)
