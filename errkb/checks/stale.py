"""`errkb stale`: entries whose verification is too old to trust without a re-check.

An entry is stale when its `verified.date` is older than `stale_after_days`, or older than
the newest release of an engine it was verified against (errkb/data/engine_releases.yaml,
committed and updated by hand with its sources).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from errkb.entries.schema import Engine, Entry, HttpsUrl, VersionStr
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
class Stale:
    entry: Entry
    reasons: tuple[str, ...]


def stale_entries(
    entries: list[Entry], *, today: dt.date, max_days: int, releases: Releases
) -> list[Stale]:
    out: list[Stale] = []
    for entry in sorted(entries, key=lambda e: e.id):
        if entry.retired:
            continue
        reasons: list[str] = []
        age = (today - entry.verified.date).days
        if age > max_days:
            reasons.append(f"verified {age} days ago (limit {max_days})")
        for engine, version in sorted(entry.verified.versions.items()):
            newest = releases.engines.get(engine)
            if newest and entry.verified.date < newest.date and version != newest.version:
                reasons.append(
                    f"verified against {engine} {version}; {engine} {newest.version} "
                    f"was released on {newest.date}"
                )
        if reasons:
            out.append(Stale(entry, tuple(reasons)))
    return out


def markdown_report(found: list[Stale], *, site_url: str, today: dt.date) -> str:
    if not found:
        return ""
    lines = [
        f"{len(found)} entries need a re-check (as of {today}). Re-read the engine source at "
        "the newest release, fix what changed, and update `verified`.",
        "",
        "| Entry | Title | Why |",
        "|---|---|---|",
    ]
    for item in found:
        e = item.entry
        link = f"[{e.id}]({site_url}e/{e.id}/)"
        lines.append(f"| {link} | {escape(e.title)} | {'; '.join(item.reasons)} |")
    return "\n".join(lines) + "\n"
