"""Read errors/ into validated entries, turning every problem into a Diagnostic.

Nothing here stops at the first problem: a contributor sees everything that is
wrong with their pull request in one run.
"""

from __future__ import annotations

import difflib
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from errkb.entries.cache import cached
from errkb.entries.diagnostics import Diagnostic, conflict_marker, format_loc
from errkb.entries.placeholders import PLACEHOLDER, placeholders
from errkb.entries.schema import DEFER_CROSS_FIELD, Entry, cross_field_problems
from errkb.entries.yamlsafe import Located, YamlProblem, load_located

LOCK_NAME = "published.lock"
FILE_RE = re.compile(r"^(E[0-9]{4})\.yaml$")


@dataclass(frozen=True)
class LoadedEntry:
    entry: Entry
    path: str  # repository-relative, forward slashes
    located: Located
    # sha256 of the path and the file's bytes: what the build's memos of pages and API
    # documents key an entry by (empty for an entry made in memory, which is never memoised).
    digest: str = ""

    def position(self, *loc: str | int) -> tuple[int, int]:
        return self.located.position(loc)


def _all_field_names(model: type[BaseModel], seen: set[type[BaseModel]] | None = None) -> set[str]:
    seen = seen if seen is not None else set()
    if model in seen:
        return set()
    seen.add(model)
    names = set(model.model_fields)
    for info in model.model_fields.values():
        for candidate in _nested_models(info.annotation):
            names |= _all_field_names(candidate, seen)
    return names


def _nested_models(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    out: list[type[BaseModel]] = []
    for arg in getattr(annotation, "__args__", ()) or ():
        out.extend(_nested_models(arg))
    return out


_FIELD_NAMES = sorted(_all_field_names(Entry))

_PATTERN_HINTS = {
    "id": "must look like E0042 (E and four digits)",
    "slug": "must be lowercase words and digits joined by hyphens, e.g. vllm-kv-cache-too-small",
    "anchor": "must be lowercase words and digits joined by hyphens, starting with a letter",
}


def friendly(error: ErrorDetails) -> str:
    """Pydantic's wording, rewritten for someone editing YAML rather than Python."""
    kind = error["type"]
    loc = error["loc"]
    last = loc[-1] if loc else ""
    ctx = error.get("ctx", {})
    if kind == "missing":
        return "required field is missing"
    if kind == "extra_forbidden":
        if str(last) in _FIELD_NAMES:  # a real field, in the wrong place (`source:` on a pattern)
            return f"field {last!r} is not allowed here (other parts of an entry take it)"
        hint = difflib.get_close_matches(str(last), _FIELD_NAMES, n=1)
        return f"unknown field {last!r}" + (f" (did you mean {hint[0]!r}?)" if hint else "")
    if kind == "literal_error":
        return f"must be one of {ctx.get('expected', '')}; got {error['input']!r}"
    if kind == "string_pattern_mismatch":
        key = "anchor" if last == "anchor" else str(last)
        if isinstance(last, int) and len(loc) >= 2:
            key = "id" if loc[-2] in ("related",) else "slug"
        return _PATTERN_HINTS.get(key, f"does not match the pattern {ctx.get('pattern')}")
    if kind == "value_error":
        return str(error["msg"]).removeprefix("Value error, ")
    if kind in {
        "date_from_datetime_inexact",
        "date_from_datetime_parsing",
        "date_parsing",
        "date_type",
    }:
        return "must be a date written as YYYY-MM-DD"
    if kind == "too_short":
        return f"must have at least {ctx.get('min_length', 1)} item(s)"
    if kind.startswith("url_"):
        return f"is not a valid URL: {error['msg']}"
    if kind in {"string_type", "int_type", "list_type", "dict_type", "model_type"}:
        expected = {
            "string_type": "text",
            "int_type": "a whole number",
            "list_type": "a list",
            "dict_type": "a mapping",
            "model_type": "a mapping",
        }[kind]
        return f"must be {expected}, got {type(error['input']).__name__}"
    return str(error["msg"])


def _diagnostics_for(
    path: str, located: Located, exc: ValidationError, skip: Sequence[tuple[str | int, ...]] = ()
) -> list[Diagnostic]:
    """`skip`: placeholder locations, reported as such; what fails there or under them is not."""
    out: list[Diagnostic] = []
    seen: set[tuple[str, str]] = set()
    for error in exc.errors(include_url=False):
        # A failed model-level validator reports one extra location segment per union branch; drop
        # pydantic's internal segments such as 'function-after[...]'.
        loc = tuple(p for p in error["loc"] if not (isinstance(p, str) and "[" in p))
        if any(loc[: len(hole)] == hole for hole in skip):
            continue
        field = format_loc(loc)
        message = friendly(error)
        if (field, message) in seen:
            continue
        seen.add((field, message))
        if error["type"] == "extra_forbidden" and loc in located.keys:
            line, col = located.keys[loc]  # point at the misspelt key, not its value
        else:
            line, col = located.position(loc)
        out.append(Diagnostic(path, line, col, field, message))
    return out


def load_file(
    path: Path, root: Path, *, use_cache: bool = False
) -> tuple[LoadedEntry | None, list[Diagnostic]]:
    rel = path.relative_to(root).as_posix()
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, [Diagnostic(rel, 1, 1, "", f"cannot read file: {exc.strerror}")]
    if use_cache:
        return cached(root, rel, raw, lambda: _load_bytes(path, rel, raw))
    return _load_bytes(path, rel, raw)


def _load_bytes(path: Path, rel: str, raw: bytes) -> tuple[LoadedEntry | None, list[Diagnostic]]:
    if markers := _conflict_markers(raw, rel):
        return None, markers  # what git left, not what YAML makes of it
    try:
        located = load_located(raw)
    except YamlProblem as problem:
        return None, [Diagnostic(rel, problem.line, problem.col, "", problem.message)]
    if not isinstance(located.data, dict):
        return None, [Diagnostic(rel, 1, 1, "", "an entry must be a YAML mapping of fields")]
    # A scaffold from `errkb new`: name each placeholder left to write, and every other problem
    # too, but not what a placeholder itself breaks (a URL that is not one yet).
    holes = placeholders(located.data)
    problems = [
        Diagnostic(
            rel,
            *located.position(loc),
            format_loc(loc),
            f"still a placeholder: {_hint(located.data, loc)}",
        )
        for loc in holes
    ]
    try:
        entry = Entry.model_validate(located.data, context={DEFER_CROSS_FIELD: True})
    except ValidationError as exc:
        return None, problems + _diagnostics_for(rel, located, exc, skip=holes)
    for loc, message in cross_field_problems(entry):
        problems.append(Diagnostic(rel, *located.position(loc), format_loc(loc), message))
    if holes:
        return None, problems
    match = FILE_RE.match(path.name)
    if match and match.group(1) != entry.id:
        line, col = located.position(("id",))
        problems.append(
            Diagnostic(
                rel, line, col, "id", f"id {entry.id} does not match the file name {path.name}"
            )
        )
    digest = hashlib.sha256(rel.encode() + b"\0" + raw).hexdigest()
    # Positions are all a loaded entry needs of its YAML; without the parsed data beside the
    # model, the cached entry unpickles in about two thirds of the time.
    positions = replace(located, data=None)
    return LoadedEntry(entry, rel, positions, digest), problems


def _conflict_markers(raw: bytes, rel: str) -> list[Diagnostic]:
    if b"=======" not in raw:  # git writes it in every conflict: most files need no more
        return []
    lines = raw.decode("utf-8", "replace").splitlines()
    return [
        Diagnostic(
            rel,
            number,
            1,
            "",
            "merge conflict marker: two pull requests changed this file (if both added an "
            "entry with this id, give one of them a new id with `errkb new`)",
        )
        for number, line in enumerate(lines, start=1)
        if conflict_marker(line)
    ]


def _hint(data: Any, loc: tuple[str | int, ...]) -> str:
    for part in loc:
        data = data[part]
    return str(data).strip().removeprefix(PLACEHOLDER).strip()


def load_dir(
    errors_dir: Path, root: Path, *, use_cache: bool = False
) -> tuple[list[LoadedEntry], list[Diagnostic]]:
    """Load every file in errors/; anything that is not a well-formed entry is a problem.
    `use_cache`: reuse what an earlier run loaded from the same bytes (errkb.entries.cache)."""
    entries: list[LoadedEntry] = []
    problems: list[Diagnostic] = []
    if not errors_dir.is_dir():
        return [], [Diagnostic(errors_dir.name, 1, 1, "", "errors directory not found")]
    base = errors_dir.resolve()
    for path in sorted(errors_dir.iterdir()):
        rel = path.relative_to(root).as_posix()
        if path.name.startswith(".") or path.name == LOCK_NAME:
            continue
        if path.is_symlink():
            # A link could point outside errors/ (at secrets, at /dev/zero); entries are plain files.
            target = path.resolve()
            where = "outside errors/" if base not in target.parents else "inside errors/"
            problems.append(
                Diagnostic(rel, 1, 1, "", f"symbolic links are not allowed (points {where})")
            )
            continue
        if not path.is_file():
            problems.append(
                Diagnostic(rel, 1, 1, "", "errors/ holds only entry files, no directories")
            )
            continue
        if not FILE_RE.match(path.name):
            problems.append(
                Diagnostic(
                    rel, 1, 1, "", "entry files are named after their id, e.g. errors/E0042.yaml"
                )
            )
            continue
        loaded, diags = load_file(path, root, use_cache=use_cache)
        problems.extend(diags)
        if loaded is not None:
            entries.append(loaded)
    return entries, problems


def entry_file_ids(errors_dir: Path) -> set[str]:
    """Ids that have a file, whether or not it validates."""
    if not errors_dir.is_dir():
        return set()
    return {m.group(1) for p in errors_dir.iterdir() if (m := FILE_RE.match(p.name))}
