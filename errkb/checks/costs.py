"""New entries say what each fix costs: `takes` and `trades` on every solution.

Entries published before the fields existed are filled in over time; an entry whose id is not
in the lock yet (a pull request's new entry) must have them, so the gap only shrinks.
"""

from __future__ import annotations

from collections.abc import Iterable

from errkb.entries.diagnostics import Diagnostic
from errkb.entries.loader import LoadedEntry


def missing_costs(items: Iterable[LoadedEntry], published: set[str]) -> list[Diagnostic]:
    problems: list[Diagnostic] = []
    for item in items:
        if item.entry.id in published:
            continue
        for kind in ("solutions", "alternatives"):
            for i, solution in enumerate(getattr(item.entry, kind)):
                for name, value in (("takes", solution.takes), ("trades", solution.trades)):
                    if value:
                        continue
                    line, col = item.position(kind, i)
                    problems.append(
                        Diagnostic(
                            item.path,
                            line,
                            col,
                            f"{kind}[{i}].{name}",
                            f"a new entry says what each fix {'takes' if name == 'takes' else 'gives up'}"
                            f": add `{name}:` (see docs/contributing.md#rules)",
                        )
                    )
    return problems
