"""The committed record of everything ever published: ids, slugs and page URLs.

It only grows. An id in it can never be deleted or given to another error, a
slug in it must keep redirecting to its entry, and a page URL in it must keep
resolving. `errkb lock` appends what is new; `errkb check` enforces the rest.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from errkb.entries.diagnostics import Diagnostic

if TYPE_CHECKING:
    from errkb.entries.loader import LoadedEntry

LOCK_PATH = "errors/published.lock"  # errkb.entries.loader skips this one file


@dataclass
class Lock:
    entries: dict[str, list[str]] = field(default_factory=dict)  # id -> every slug it has had
    pages: list[str] = field(default_factory=list)  # site-relative URLs of generated index pages
    exists: bool = True

    @classmethod
    def read(cls, root: Path) -> Lock:
        path = root / LOCK_PATH
        if not path.exists():
            return cls(exists=False)
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(
            entries={k: list(v) for k, v in data["entries"].items()}, pages=list(data["pages"])
        )

    def dumps(self) -> str:
        data = {
            "comment": "Append-only record of published ids, slugs and pages. Update with `errkb lock`.",
            "entries": {k: self.entries[k] for k in sorted(self.entries)},
            "pages": sorted(set(self.pages)),
        }
        return json.dumps(data, indent=1, ensure_ascii=False) + "\n"

    def write(self, root: Path) -> None:
        (root / LOCK_PATH).write_text(self.dumps(), encoding="utf-8")

    def updated(self, items: list[LoadedEntry], pages: list[str]) -> Lock:
        entries = {k: list(v) for k, v in self.entries.items()}
        for item in items:
            slugs = entries.setdefault(item.entry.id, [])
            for slug in (*item.entry.former_slugs, item.entry.slug):
                if slug not in slugs:
                    slugs.append(slug)
        return Lock(entries=entries, pages=sorted(set(self.pages) | set(pages)))

    def check(self, items: list[LoadedEntry], present: set[str]) -> list[Diagnostic]:
        """`present`: ids with a file on disk, valid or not (an invalid one is reported elsewhere)."""
        problems: list[Diagnostic] = []
        by_id = {item.entry.id: item for item in items}
        for entry_id, slugs in self.entries.items():
            item = by_id.get(entry_id)
            if item is None and entry_id in present:
                continue
            if item is None:
                problems.append(
                    Diagnostic(
                        f"errors/{entry_id}.yaml",
                        1,
                        1,
                        "id",
                        f"{entry_id} was published and its file is gone: ids are never deleted or "
                        "reused; restore the file and mark it `retired` instead",
                    )
                )
                continue
            known = {item.entry.slug, *item.entry.former_slugs}
            for slug in slugs:
                if slug not in known:
                    line, col = item.position("slug")
                    problems.append(
                        Diagnostic(
                            item.path,
                            line,
                            col,
                            "former_slugs",
                            f"slug {slug!r} was published for {entry_id}: add it to former_slugs so "
                            "its URL keeps working",
                        )
                    )
        for entry_id, item in by_id.items():
            if entry_id not in self.entries:
                line, col = item.position("id")
                problems.append(
                    Diagnostic(
                        item.path,
                        line,
                        col,
                        "id",
                        f"{entry_id} is not in {LOCK_PATH} yet: run `errkb lock` to publish its id",
                    )
                )
        return problems

    def check_pages(self, generated: set[str]) -> list[Diagnostic]:
        return [
            Diagnostic(
                LOCK_PATH,
                1,
                1,
                "pages",
                f"page {url} was published and is no longer generated: keep it or redirect it",
            )
            for url in self.pages
            if url not in generated
        ]
