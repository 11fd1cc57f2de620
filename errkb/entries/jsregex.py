"""Compile a pattern with a real JavaScript engine, as the browser's matcher will.

The paste page builds `new RegExp(pattern, JS_FLAGS)` for every entry's pattern; a pattern
Python accepts but JavaScript refuses (atomic groups, conditionals, inline flags) would break
it. QuickJS implements the same ECMAScript grammar, so `errkb check` asks it rather than
keeping a list of what JavaScript lacks.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import quickjs  # type: ignore[import-untyped]

# The flags docs/assets/javascripts/matcher.js compiles entry patterns with (tested).
JS_FLAGS = "i"

_COMPILE = """(function (source, flags) {
  try { new RegExp(source, flags); return ""; }
  catch (e) { return String(e && e.message || e) || "invalid"; }
})"""


@cache
def _compiler() -> Callable[[str, str], str]:
    compile_in_js: Callable[[str, str], str] = quickjs.Context().eval(_COMPILE)
    return compile_in_js


def js_regex_error(source: str, flags: str = JS_FLAGS) -> str | None:
    """JavaScript's SyntaxError message for `new RegExp(source, flags)`, or None if it compiles."""
    return _compiler()(source, flags) or None
