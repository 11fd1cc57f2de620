"""`errkb new`: a first entry that validates as soon as its placeholders are written."""

from __future__ import annotations

import datetime as dt
import json
import re
import unicodedata
from pathlib import Path

from errkb.entries.loader import FILE_RE
from errkb.entries.lock import Lock
from errkb.entries.placeholders import PLACEHOLDER


def next_id(root: Path) -> str:
    """One past the highest id on disk or ever published: ids are never reused."""
    used = {
        int(m.group(1)[1:])
        for p in (root / "errors").glob("*.yaml")
        if (m := FILE_RE.match(p.name))
    }
    used |= {int(entry_id[1:]) for entry_id in Lock.read(root).entries}
    return f"E{max(used, default=0) + 1:04d}"


def slugify(title: str) -> str:
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    words = re.findall(r"[a-z0-9]+", ascii_title.lower())
    slug = ""
    for word in words:  # whole words, at most 60 characters
        if len(slug) + len(word) + 1 > 60:
            break
        slug = f"{slug}-{word}" if slug else word
    return slug or "new-error"


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a valid YAML scalar


def scaffold(
    *,
    entry_id: str,
    title: str,
    engine: str,
    category: str,
    severity: str,
    today: dt.date,
    message: str | None = None,
    source: str | None = None,
) -> str:
    msg = message or f"{PLACEHOLDER} paste the exact line the engine printed"
    src = source or f"{PLACEHOLDER} https:// link to the issue or the engine source at a tag"
    fill = PLACEHOLDER
    lines = [
        "# yaml-language-server: $schema=../errkb/data/entry.schema.json",
        f"id: {entry_id}",
        f"slug: {slugify(title)}",
        f"title: {_q(title)}",
        f"summary: {_q(f'{fill} one line for the triage table, what it means')}",
        f"category: {category}",
        f"engines: [{engine}]",
        f"severity: {severity}",
        "messages:",
        "  - text: |-",
        *[f"      {line}" for line in msg.splitlines()],
        f"    engine: {engine}",
        f"    versions: {_q(f'{fill} PEP 440 range where this wording exists, e.g. >=0.6.0,<0.9.0')}",
        f"    source: {_q(src)}",
        f"cause: {_q(f'{fill} why it happens (the mechanism, not the fix)')}",
        "solutions:",
        "  - anchor: first-fix",
        f"    title: {_q(f'{fill} the fix that works most often')}",
        f"    body: {_q(f'{fill} what to do and why it works')}",
        "    commands:",
        f"      - engine: {engine}",
        f"        versions: {_q(f'{fill} versions where every flag below exists')}",
        "        lang: bash",
        "        code: |-",
        f"          {fill} the command",
        f"    risk: {_q(f'{fill} the trade-off')}",
        f"    takes: {_q(f'{fill} setting, code, reinstall, model, system or hardware')}",
        f"    trades: {_q(f'{fill} a list of context, throughput, latency, concurrency, quality, memory; or nothing')}",
        "sources:",
        f"  - title: {_q(f'{fill} what this link shows')}",
        f"    url: {_q(src)}",
        "verified:",
        f"  date: {today.isoformat()}",
        f"  by: {_q(f'{fill} your GitHub handle')}",
        f"  versions: {{{engine}: {_q(f'{fill} the version you checked')}}}",
        f"  how: {_q(f'{fill} what you read or ran to check this page')}",
    ]
    return "\n".join(lines) + "\n"
