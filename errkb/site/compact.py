"""Smaller HTML for the same page (issue 17): an entry page was 40 KB, 6 KB of it template
indentation and another 1 to 8 KB Pygments' spans around plain whitespace.

Only whitespace that cannot render differently is removed: a run of whitespace holding a
newline becomes one newline (HTML renders both as one space), never inside `pre`, `textarea`,
`script` or `style`; and `<span class="w">` (Pygments' whitespace token, which no stylesheet
colours) gives way to its text.
"""

from __future__ import annotations

import re

_VERBATIM_RE = re.compile(r"(<(pre|textarea|script|style)\b.*?</\2>)", re.DOTALL | re.IGNORECASE)
_NEWLINE_RUN_RE = re.compile(r"[ \t]*\n\s*")
_WS_SPAN_RE = re.compile(r'<span class="w">(\s*)</span>')


def compact_html(html: str) -> str:
    parts = _VERBATIM_RE.split(html)
    out: list[str] = []
    # split() with two groups yields: text, whole verbatim element, its tag name, text, ...
    for i in range(0, len(parts), 3):
        out.append(_NEWLINE_RUN_RE.sub("\n", parts[i]))
        if i + 1 < len(parts):
            verbatim = parts[i + 1]
            if verbatim[:4].lower() == "<pre":
                verbatim = _WS_SPAN_RE.sub(r"\1", verbatim)
            out.append(verbatim)
    return "".join(out)
