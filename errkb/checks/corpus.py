"""The corpus: every entry at once, and the checks that need more than one entry."""

from __future__ import annotations

import datetime as dt
import functools
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from calculators.grid import COMBOS
from calculators.models import load_catalog
from errkb.checks.costs import missing_costs
from errkb.checks.flaglint import lint_entries
from errkb.checks.patterns import pattern_collisions, unfiltered_patterns
from errkb.entries.diagnostics import Diagnostic, format_loc
from errkb.entries.links import Loc, entry_links
from errkb.entries.loader import FILE_RE, LoadedEntry, entry_file_ids, load_dir
from errkb.entries.lock import Lock
from errkb.entries.schema import Entry
from errkb.entries.yamlsafe import YamlProblem, load_located
from errkb.memo import remembered


@dataclass(frozen=True)
class Corpus:
    items: tuple[LoadedEntry, ...]
    backlinks: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def entries(self) -> list[Entry]:
        return [item.entry for item in self.items]

    def by_id(self) -> dict[str, Entry]:
        return {item.entry.id: item.entry for item in self.items}

    @functools.cached_property
    def digests(self) -> dict[str, str]:
        """Each entry's file digest (empty for entries made in memory)."""
        return {item.entry.id: item.digest for item in self.items}


Links = list[tuple[Loc, str]]  # errkb.entrylinks.entry_links of one entry


def compute_backlinks(
    entries: list[Entry], links: list[Links] | None = None
) -> dict[str, tuple[str, ...]]:
    """`links`: each entry's prose links, when the caller has them already."""
    incoming: dict[str, set[str]] = defaultdict(set)
    for entry, prose in zip(entries, links or map(entry_links, entries), strict=True):
        for target in entry.related:
            incoming[target].add(entry.id)
        # A link in the prose is a link too: the target page lists it under "Linked from".
        for _, target in prose:
            if target != entry.id:
                incoming[target].add(entry.id)
        if entry.retired and entry.retired.superseded_by:
            incoming[entry.retired.superseded_by].add(entry.id)
    return {target: tuple(sorted(sources)) for target, sources in sorted(incoming.items())}


def check_corpus(
    items: list[LoadedEntry], today: dt.date, present: set[str], links: list[Links]
) -> list[Diagnostic]:
    """Rules across entries: uniqueness, references, dates.

    `present` holds the ids of every entry file, loaded or not: a reference to an
    entry that failed validation is that entry's problem, reported once, there.
    `links` holds each item's prose links (errkb.entrylinks.entry_links).
    """
    problems: list[Diagnostic] = []

    def at(item: LoadedEntry, *loc: str | int, field: str, message: str) -> None:
        line, col = item.position(*loc)
        problems.append(Diagnostic(item.path, line, col, field, message))

    ids: dict[str, LoadedEntry] = {}
    slugs: dict[str, LoadedEntry] = {}
    # One wording can have several causes (an OOM while loading vs at long context); entries
    # may share it only if each links the other, so a reader always sees the alternative.
    texts: dict[str, list[LoadedEntry]] = {}
    for item in items:
        e = item.entry
        if (other := ids.get(e.id)) is not None:
            at(item, "id", field="id", message=f"id {e.id} is already used by {other.path}")
        ids.setdefault(e.id, item)
        for i, slug in enumerate([e.slug, *e.former_slugs]):
            loc: tuple[str | int, ...] = ("slug",) if i == 0 else ("former_slugs", i - 1)
            name = "slug" if i == 0 else f"former_slugs[{i - 1}]"
            if (other := slugs.get(slug)) is not None and other is not item:
                at(item, *loc, field=name, message=f"slug {slug!r} is already used by {other.path}")
            slugs.setdefault(slug, item)
        for i, message in enumerate(e.messages):
            key = " ".join(message.text.split())
            for other in texts.get(key, []):
                if other is item:
                    continue
                if other.entry.id not in e.related or e.id not in other.entry.related:
                    at(
                        item,
                        "messages",
                        i,
                        "text",
                        field=f"messages[{i}].text",
                        message=f"the same message is in {other.path}: list each entry in the "
                        "other's `related`, or tell the wordings apart",
                    )
            texts.setdefault(key, []).append(item)

    by_entry = {id(item.entry): item for item in items}

    def at_pattern(entry: Entry, p_index: int, message: str) -> None:
        at(
            by_entry[id(entry)],
            "patterns",
            p_index,
            "regex",
            field=f"patterns[{p_index}].regex",
            message=message,
        )

    entries = [item.entry for item in items]
    for entry, p_index, victim, m_index in pattern_collisions(entries):
        at_pattern(
            entry,
            p_index,
            f"also matches message {m_index + 1} of {victim.id} ({victim.title}): a paste "
            "of that message would land here; make the pattern more specific",
        )
    for entry, p_index in unfiltered_patterns(entries):
        at_pattern(
            entry,
            p_index,
            "holds no fixed text (4 letters or more, outside groups and classes) that "
            "every match contains, so it is searched on every line of every log: begin it with "
            "fixed text, or split an alternation into one pattern per branch",
        )

    # A fit table names catalog models and engines that have table settings.
    known = {
        "models": (
            set(load_catalog()),
            "is not in the model catalog (calculators/data/models.yaml)",
        ),
        "engines": (
            {c.engine for c in COMBOS},
            "has no fit-table settings (vllm, sglang, llama.cpp, ollama)",
        ),
    }
    for item in items:
        if (fit := item.entry.fit) is None:
            continue
        for name, (allowed, why) in known.items():
            for i, value in enumerate(getattr(fit, name)):
                if value not in allowed:
                    at(item, "fit", name, i, field=f"fit.{name}[{i}]", message=f"{value!r} {why}")

    for item, prose in zip(items, links, strict=True):
        e = item.entry
        for i, target in enumerate(e.related):
            if target not in ids and target not in present:
                at(item, "related", i, field=f"related[{i}]", message=f"no entry has id {target}")
        for loc, target in prose:
            if target not in present:
                at(
                    item,
                    *loc,
                    field=format_loc(loc),
                    message=f"links to {target}, which no entry has",
                )
        if e.retired and (successor := e.retired.superseded_by):
            if successor not in ids and successor not in present:
                at(
                    item,
                    "retired",
                    "superseded_by",
                    field="retired.superseded_by",
                    message=f"no entry has id {successor}",
                )
            elif successor == e.id:
                at(
                    item,
                    "retired",
                    "superseded_by",
                    field="retired.superseded_by",
                    message="an entry cannot supersede itself",
                )
        if e.verified.date > today:
            at(
                item,
                "verified",
                "date",
                field="verified.date",
                message=f"{e.verified.date} is in the future (today is {today})",
            )
        if e.retired and e.retired.date > today:
            at(
                item,
                "retired",
                "date",
                field="retired.date",
                message=f"{e.retired.date} is in the future (today is {today})",
            )
    return problems


def unloaded_references(root: Path, ids: list[str], present: set[str]) -> list[Diagnostic]:
    """Unknown ids in the `related` lists of entries that failed validation: one run reports
    them beside the schema errors, instead of after those are fixed."""
    problems: list[Diagnostic] = []
    for entry_id in ids:
        rel = f"errors/{entry_id}.yaml"
        try:
            located = load_located((root / rel).read_bytes())
        except (OSError, YamlProblem):
            continue  # reported by the loader
        related = located.data.get("related") if isinstance(located.data, dict) else None
        for i, target in enumerate(related if isinstance(related, list) else []):
            if (
                isinstance(target, str)
                and FILE_RE.match(f"{target}.yaml")
                and target not in present
            ):
                line, col = located.position(("related", i))
                problems.append(
                    Diagnostic(rel, line, col, f"related[{i}]", f"no entry has id {target}")
                )
    return problems


@dataclass(frozen=True)
class LoadResult:
    corpus: Corpus
    diagnostics: list[Diagnostic]

    @property
    def ok(self) -> bool:
        return not self.diagnostics


def load_corpus(
    root: Path, *, today: dt.date, lock: Lock | None, checks: bool = True
) -> LoadResult:
    """Load and check everything under root/errors; `lock=None` skips the published-ids rules.

    `checks=False` validates each file but skips the cross-entry checks and the command
    lint (most of the load time), which matching a log and the stale report do not need.
    """
    items, problems = load_dir(root / "errors", root, use_cache=True)
    present = entry_file_ids(root / "errors")
    links = [entry_links(item.entry) for item in items]
    if checks:
        with remembered(root):  # a command-line check keeps the build's memos warm too
            problems += check_corpus(items, today, present, links)
            loaded = {item.entry.id for item in items}
            problems += unloaded_references(root, sorted(present - loaded), present)
            problems += lint_entries(items)
    if lock is not None:
        problems += lock.check(items, present)
        if lock.entries or not lock.problems:  # unreadable: every entry would look new
            problems += missing_costs(items, set(lock.entries))
    corpus = Corpus(
        tuple(sorted(items, key=lambda i: i.entry.id)),
        compute_backlinks([i.entry for i in items], links),
    )
    return LoadResult(corpus, sorted(set(problems)))
