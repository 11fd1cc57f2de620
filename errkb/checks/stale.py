"""`errkb stale`: entries whose verification is too old to trust without a re-check.

An entry is stale when its `verified.date` is older than `stale_after_days`, or when an
engine released a version after the entry was verified and the entry *claims* that version:
one of its messages or commands for that engine has a version range that contains it (an
open range such as `>=0.9.0`). A release outside every range the entry states (`<0.8`,
`==0.8.4`) changes nothing the page says. Newest releases come from
errkb/data/engine_releases.yaml, committed and updated by hand with their sources.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version
from pydantic import BaseModel, ConfigDict, Field

from errkb.entries.schema import Engine, Entry, HttpsUrl, VersionStr
from errkb.entries.urls import short_uri, url_of
from errkb.entries.yamlsafe import load_located
from errkb.mdtext import escape

RELEASES_PATH = Path(__file__).parents[1] / "data" / "engine_releases.yaml"


class Release(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: VersionStr
    date: dt.date
    source: HttpsUrl = Field(description="Release page or tag that shows the version and date.")


class Releases(BaseModel):
    model_config = ConfigDict(extra="forbid")

    checked: dt.date = Field(description="When this file was last compared with the releases.")
    engines: dict[Engine, Release]


def load_releases(path: Path = RELEASES_PATH) -> Releases:
    return Releases.model_validate(load_located(path.read_bytes()).data)


@dataclass(frozen=True)
class Reason:
    """Why an entry is stale; `group` is what the report files it under."""

    group: str
    text: str


@dataclass(frozen=True)
class Stale:
    entry: Entry
    reasons: tuple[Reason, ...]

    @property
    def why(self) -> str:
        return "; ".join(r.text for r in self.reasons)


def _comparable(engine: str, version: str) -> Version | None:
    # llama.cpp builds are written b4567 in `verified` and 4567 in ranges.
    try:
        return Version(version[1:] if engine == "llama.cpp" and version[:1] == "b" else version)
    except InvalidVersion:
        return None


def claimed_ranges(entry: Entry, engine: str) -> list[str]:
    """Every version range the entry states for `engine`, messages and commands alike."""
    ranges = [m.versions for m in entry.messages if m.engine == engine]
    ranges += [c.versions for s in entry.solutions for c in s.commands if c.engine == engine]
    return ranges


def _claims(entry: Entry, engine: str, version: Version) -> str | None:
    """The first range of the entry's that contains `version`, or None."""
    for versions in claimed_ranges(entry, engine):
        if versions.strip() == "*" or SpecifierSet(versions).contains(version, prereleases=True):
            return versions
    return None


def stale_entries(
    entries: list[Entry], *, today: dt.date, max_days: int, releases: Releases
) -> list[Stale]:
    out: list[Stale] = []
    for entry in sorted(entries, key=lambda e: e.id):
        if entry.retired:
            continue
        reasons: list[Reason] = []
        age = (today - entry.verified.date).days
        if age > max_days:
            reasons.append(Reason("age", f"verified {age} days ago (limit {max_days})"))
        for engine, newest in sorted(releases.engines.items()):
            if entry.verified.date >= newest.date:
                continue
            if entry.verified.versions.get(engine) == newest.version:
                continue
            version = _comparable(engine, newest.version)
            if version is None or (claimed := _claims(entry, engine, version)) is None:
                continue
            against = entry.verified.versions.get(engine)
            reasons.append(
                Reason(
                    f"{engine} {newest.version}",
                    f"states {engine} {claimed}, which includes {newest.version} (released "
                    f"{newest.date}); verified "
                    + (f"against {against}" if against else f"on {entry.verified.date}"),
                )
            )
        if reasons:
            out.append(Stale(entry, tuple(reasons)))
    return out


# GitHub refuses an issue body over 65,536 characters; leave room for the footer.
BODY_LIMIT = 60_000


def markdown_report(
    found: list[Stale], *, site_url: str, today: dt.date, limit: int = BODY_LIMIT
) -> str:
    """The weekly issue's body: a summary per reason, then one table per reason, cut to
    `limit` characters with a count of what was left out (`errkb stale` lists it all)."""
    if not found:
        return ""
    groups: dict[str, list[Stale]] = defaultdict(list)
    for item in found:
        for reason in item.reasons:
            groups[reason.group].append(item)
    order = sorted(groups, key=lambda g: (g != "age", -len(groups[g]), g))
    head = [
        f"{len(found)} entries need a re-check (as of {today}). Re-read the engine source at "
        "the newest release, fix what changed, and update `verified`.",
        "",
        "| Why | Entries |",
        "|---|---|",
        *[f"| {_group_title(g)} | {len(groups[g])} |" for g in order],
    ]
    out = "\n".join(head) + "\n"
    left = 0
    for g in order:
        section = ["", f"## {_group_title(g)}", "", "| Entry | Title | Why |", "|---|---|---|"]
        text = "\n".join(section) + "\n"
        if len(out) + len(text) > limit:
            left += len(groups[g])
            continue
        out += text
        for item in groups[g]:
            e = item.entry
            reason = next(r for r in item.reasons if r.group == g)
            link = site_url + url_of(short_uri(e.id))
            row = f"| [{e.id}]({link}) | {escape(e.title)} | {escape(reason.text)} |\n"
            if len(out) + len(row) > limit:
                left += 1
                continue
            out += row
    if left:
        out += f"\n{left} more rows did not fit in an issue; run `errkb stale` for the full list.\n"
    return out


def _group_title(group: str) -> str:
    return "Verified too long ago" if group == "age" else f"Released since: {group}"
