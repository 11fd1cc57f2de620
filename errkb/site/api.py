"""The static JSON API under /api/v1/: an index, one document per entry, the matcher data.

Documents are plain files in the built site, so bots, IDE plugins and triage tools can
read them from any static host. Their shapes are pydantic models; the JSON Schemas
published beside them are generated from the same models.
"""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, ConfigDict

from errkb.checks.corpus import Corpus
from errkb.entries.schema import Category, Engine, Entry, Severity
from errkb.entries.urls import API, entry_uri, short_uri, url_of
from errkb.matcher import matcher_data
from errkb.settings import Settings
from errkb.site.fitdata import json_text


class ApiMessage(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str
    engine: Engine
    versions: str


class ApiVerified(BaseModel):
    model_config = ConfigDict(extra="forbid")
    date: dt.date
    versions: dict[Engine, str]


class ApiIndexEntry(BaseModel):
    """One row of /api/v1/index.json."""

    model_config = ConfigDict(extra="forbid")
    id: str
    slug: str
    title: str
    summary: str
    category: Category
    engines: list[Engine]
    severity: Severity
    retired: bool
    url: str
    # Relative to the site root, for pages that link entries without knowing where the site
    # is served from (the paste box on a local build or an intranet mirror).
    path: str
    short_url: str
    api_url: str
    messages: list[ApiMessage]
    verified: ApiVerified


class ApiIndex(BaseModel):
    model_config = ConfigDict(extra="forbid")
    api_version: int
    count: int
    entries: list[ApiIndexEntry]


class ApiEntry(BaseModel):
    """/api/v1/entries/<id>.json: the whole entry plus its links."""

    model_config = ConfigDict(extra="forbid")
    api_version: int
    url: str
    short_url: str
    backlinks: list[str]
    entry: Entry


def _urls(entry: Entry, settings: Settings) -> dict[str, str]:
    base = settings.site_url
    return {
        "url": base + url_of(entry_uri(entry)),
        "short_url": base + url_of(short_uri(entry.id)),
        "api_url": f"{base}{API}/entries/{entry.id}.json",
    }


def index_document(corpus: Corpus, settings: Settings) -> ApiIndex:
    rows = [
        ApiIndexEntry(
            id=e.id,
            slug=e.slug,
            title=e.title,
            summary=e.summary,
            category=e.category,
            engines=list(e.engines),
            severity=e.severity,
            retired=e.retired is not None,
            path=url_of(entry_uri(e)),
            messages=[
                ApiMessage(text=m.text, engine=m.engine, versions=m.versions) for m in e.messages
            ],
            verified=ApiVerified(date=e.verified.date, versions=dict(e.verified.versions)),
            **_urls(e, settings),
        )
        for e in corpus.entries
    ]
    return ApiIndex(api_version=1, count=len(rows), entries=rows)


def entry_document(entry: Entry, corpus: Corpus, settings: Settings) -> ApiEntry:
    urls = _urls(entry, settings)
    return ApiEntry(
        api_version=1,
        url=urls["url"],
        short_url=urls["short_url"],
        backlinks=list(corpus.backlinks.get(entry.id, ())),
        entry=entry,
    )


def api_files(corpus: Corpus, settings: Settings) -> dict[str, str]:
    """Site path -> content of every API document."""
    files = {
        f"{API}/index.json": json_text(index_document(corpus, settings).model_dump(mode="json")),
        f"{API}/matcher.json": json_text(matcher_data(corpus.entries)),
        f"{API}/index.schema.json": json_text(ApiIndex.model_json_schema()),
        f"{API}/entry.schema.json": json_text(ApiEntry.model_json_schema()),
    }
    for entry in corpus.entries:
        doc = entry_document(entry, corpus, settings).model_dump(mode="json")
        files[f"{API}/entries/{entry.id}.json"] = json_text(doc)
    return dict(sorted(files.items()))
