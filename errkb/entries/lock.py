"""The committed record of everything ever published: ids, slugs and page URLs.

It only grows. An id in it can never be deleted or given to another error, a
slug in it must keep redirecting to its entry (its page and its evidence page), and
a page URL in it must keep resolving. `errkb lock` appends what is new; `errkb check` enforces the rest.

One record a line (`E0042 slug former-slug ...`, `page gpus/`), sorted, so two pull
requests that publish different ids touch different lines, and `.gitattributes` merges
the file as a union. Two pull requests that took the same id leave two `E0042` lines,
which the check refuses; a conflicted or malformed file is reported at its line.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from errkb.entries.diagnostics import Diagnostic, conflict_marker

if TYPE_CHECKING:
    from errkb.entries.loader import LoadedEntry

LOCK_PATH = "errors/published.lock"  # errkb.entries.loader skips this one file

HEADER = (
    "# Every id, slug and page ever published: append-only, written by `errkb lock`.\n"
    "# One record a line: `<id> <slug> [<newer slug> ...]` or `page <url>`. A merge keeps\n"
    "# both sides' lines (.gitattributes: merge=union); `errkb check` refuses an id taken twice.\n"
)
_ENTRY_RE = re.compile(r"^(E[0-9]{4})((?: [a-z0-9]+(?:-[a-z0-9]+)*)+)$")
_PAGE_RE = re.compile(r"^page ([A-Za-z0-9._~/-]+)$")


@dataclass
class Lock:
    entries: dict[str, list[str]] = field(default_factory=dict)  # id -> every slug it has had
    pages: list[str] = field(default_factory=list)  # site-relative URLs of generated index pages
    exists: bool = True
    lines: dict[str, int] = field(default_factory=dict)  # id or page -> its line in the file
    problems: list[Diagnostic] = field(default_factory=list)  # what reading the file found

    @classmethod
    def read(cls, root: Path) -> Lock:
        path = root / LOCK_PATH
        if not path.exists():
            return cls(exists=False)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            return cls(problems=[_at(1, f"cannot read the lock: {exc}")])
        return cls.parse_text(text)

    @classmethod
    def parse_text(cls, text: str) -> Lock:
        """Either format: one record a line, or the JSON it replaced."""
        if text.lstrip().startswith("{"):
            return cls._read_json(text)
        return cls.parse(text)

    @classmethod
    def parse(cls, text: str) -> Lock:
        lock = cls()
        pages: set[str] = set()
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if conflict_marker(raw):
                lock.problems.append(
                    _at(
                        number,
                        "merge conflict marker: keep the lines of both sides (each id once), "
                        "delete the markers, then run `errkb lock`",
                    )
                )
                continue
            if not line or line.startswith("#"):
                continue
            if match := _PAGE_RE.match(line):
                pages.add(match.group(1))
                lock.lines.setdefault(f"page {match.group(1)}", number)
                continue
            match = _ENTRY_RE.match(line)
            if match is None:
                lock.problems.append(
                    _at(number, f"not a lock record (`E0042 slug ...` or `page url/`): {line!r}")
                )
                continue
            entry_id, slugs = match.group(1), match.group(2).split()
            if (known := lock.entries.get(entry_id)) is not None:
                # A rename appends a slug: a union merge of it keeps the old line beside the new.
                if slugs[: len(known)] == known or known[: len(slugs)] == slugs:
                    lock.entries[entry_id] = max(known, slugs, key=len)
                    continue
                first = lock.lines[entry_id]
                lock.problems.append(
                    _at(
                        number,
                        f"{entry_id} is recorded twice (also line {first}): two pull requests took "
                        f"the same id; give the newer entry another id with `errkb new` and keep "
                        f"only its own line here",
                    )
                )
                continue
            lock.entries[entry_id] = slugs
            lock.lines[entry_id] = number
        lock.pages = sorted(pages)
        return lock

    @classmethod
    def _read_json(cls, text: str) -> Lock:
        """The format before one-record-a-line; `errkb lock` rewrites it."""
        for number, raw in enumerate(text.splitlines(), start=1):
            if conflict_marker(raw):
                return cls(problems=[_at(number, "merge conflict marker: resolve the conflict")])
        try:
            data = json.loads(text)
            entries = {str(k): [str(s) for s in v] for k, v in data["entries"].items()}
            pages = [str(p) for p in data["pages"]]
        except json.JSONDecodeError as exc:
            return cls(problems=[_at(exc.lineno, f"invalid JSON: {exc.msg}", exc.colno)])
        except (KeyError, TypeError, AttributeError) as exc:
            return cls(problems=[_at(1, f"not a lock file: {exc!r}")])
        return cls(entries=entries, pages=pages)

    def dumps(self) -> str:
        records = [f"{k} {' '.join(self.entries[k])}" for k in sorted(self.entries)]
        records += [f"page {url}" for url in sorted(set(self.pages))]
        return HEADER + "\n".join(records) + "\n"

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
        problems: list[Diagnostic] = list(self.problems)
        if self.problems and not self.entries:
            return problems  # unreadable: every entry would be "not in the lock yet"
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

    def keeps(self, base: Lock, where: str) -> list[Diagnostic]:
        """What `base` (the lock on the branch a pull request merges into) published and this
        lock lost: a merge resolved by taking one side must not drop the other's records."""
        problems = [
            _at(
                self.lines.get(entry_id, 1),
                f"{entry_id} was published on {where} with slug(s) {', '.join(lost)}, which this "
                "lock has lost: keep every record of both sides (another pull request may have "
                "taken the same id; give yours a new one with `errkb new`)",
            )
            for entry_id, slugs in base.entries.items()
            if (lost := [s for s in slugs if s not in self.entries.get(entry_id, [])])
        ]
        problems += [
            _at(1, f"page {url} was published on {where} and this lock has lost it")
            for url in base.pages
            if url not in self.pages
        ]
        return problems

    def check_pages(self, generated: set[str]) -> list[Diagnostic]:
        return [
            Diagnostic(
                LOCK_PATH,
                self.lines.get(f"page {url}", 1),
                1,
                "pages",
                f"page {url} was published and is no longer generated: keep it or redirect it",
            )
            for url in self.pages
            if url not in generated
        ]


def _at(line: int, message: str, col: int = 1) -> Diagnostic:
    return Diagnostic(LOCK_PATH, line, col, "", message)
