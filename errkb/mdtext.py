"""Small Markdown builders that keep untrusted text literal."""

from __future__ import annotations

import functools
import json
import posixpath
import re

# Characters Python-Markdown treats as escapable; escaping them keeps plain text plain.
_ESCAPE = str.maketrans({c: "\\" + c for c in "\\`*_{}[]()#+!|"})


def escape(text: str) -> str:
    """Plain text as inline Markdown that renders to the same text."""
    return text.translate(_ESCAPE)


def code_span(text: str) -> str:
    """Inline code that survives any backticks inside the text."""
    text = " ".join(text.split())
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or longest else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def table_code(text: str, limit: int = 140) -> str:
    """A code span for a table cell: one line, shortened, pipes escaped for the table parser."""
    one = " ".join(text.split())
    if len(one) > limit:
        one = one[: limit - 1].rstrip() + "…"
    return code_span(one).replace("|", "\\|")


def fenced(code: str, lang: str = "text", indent: int = 0, css: str | None = None) -> str:
    """A fenced block whose fence is longer than any backtick run in the code; `css` adds a
    class to the block (superfences' `{ .lang .class }` form)."""
    longest = max((len(run) for run in re.findall(r"`{3,}", code)), default=2)
    fence = "`" * max(3, longest + 1)
    pad = " " * indent
    body = "\n".join(pad + line if line else "" for line in code.rstrip("\n").split("\n"))
    info = f"{{ .{lang} .{css} }}" if css else lang
    return f"{pad}{fence}{info}\n{body}\n{pad}{fence}"


def indent(text: str, width: int = 4) -> str:
    pad = " " * width
    return "\n".join(pad + line if line.strip() else "" for line in text.split("\n"))


def rel(from_uri: str, to_uri: str) -> str:
    """Relative link between two source files (what MkDocs validates and rewrites).

    posixpath.relpath on pure strings: relpath itself calls abspath (os.getcwd) twice per
    link, which was most of the time spent rendering index pages on large corpora.
    """
    return _rel(posixpath.dirname(from_uri), to_uri)


# Every page of a folder links to the same few engine, category and index pages.
@functools.lru_cache(maxsize=1 << 16)
def _rel(from_dir: str, to_uri: str) -> str:
    start = [p for p in posixpath.normpath(from_dir or ".").split("/") if p != "."]
    target = [p for p in posixpath.normpath(to_uri).split("/") if p != "."]
    common = 0
    for a, b in zip(start, target, strict=False):
        if a != b:
            break
        common += 1
    return "/".join([".."] * (len(start) - common) + target[common:]) or "."


def front_matter(meta: dict[str, object]) -> str:
    # JSON is valid YAML and quotes every string, so no value can break out of its key.
    lines = [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in meta.items()]
    return "---\n" + "\n".join(lines) + "\n---\n"
