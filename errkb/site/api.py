"""The static JSON API under /api/v1/: an index, one document per entry, the matcher data.

Documents are plain files in the built site, so bots, IDE plugins and triage tools can
read them from any static host. Their shapes are pydantic models; the JSON Schemas
published beside them are generated from the same models.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from errkb.checks.corpus import Corpus
from errkb.entries import schema, urls
from errkb.entries.schema import Category, Engine, Entry, Severity
from errkb.entries.urls import API, entry_uri, evidence_uri, short_uri, url_of
from errkb.matcher import matcher_data
from errkb.memo import keyed
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
    evidence_url: str  # the page with the entry's sources, verification notes and backlinks
    backlinks: list[str]
    entry: Entry


def _urls(entry: Entry, settings: Settings) -> dict[str, str]:
    base = settings.site_url
    return {
        "url": base + url_of(entry_uri(entry)),
        "short_url": base + url_of(short_uri(entry.id)),
        "api_url": f"{base}{API}/entries/{entry.id}.json",
    }


def index_row(entry: Entry, settings: Settings) -> ApiIndexEntry:
    return ApiIndexEntry(
        id=entry.id,
        slug=entry.slug,
        title=entry.title,
        summary=entry.summary,
        category=entry.category,
        engines=list(entry.engines),
        severity=entry.severity,
        retired=entry.retired is not None,
        path=url_of(entry_uri(entry)),
        messages=[
            ApiMessage(text=m.text, engine=m.engine, versions=m.versions) for m in entry.messages
        ],
        verified=ApiVerified(date=entry.verified.date, versions=dict(entry.verified.versions)),
        **_urls(entry, settings),
    )


def index_document(corpus: Corpus, settings: Settings) -> ApiIndex:
    rows = [index_row(e, settings) for e in corpus.entries]
    return ApiIndex(api_version=1, count=len(rows), entries=rows)


def entry_document(entry: Entry, corpus: Corpus, settings: Settings) -> ApiEntry:
    urls = _urls(entry, settings)
    return ApiEntry(
        api_version=1,
        url=urls["url"],
        short_url=urls["short_url"],
        evidence_url=settings.site_url + url_of(evidence_uri(entry)),
        backlinks=list(corpus.backlinks.get(entry.id, ())),
        entry=entry,
    )


# An entry's document, and its row of the index, are pure functions of its YAML, its
# backlinks and the site's address: remembered between builds under those (serialising 5,000
# entries took over a second).
_SOURCES = (
    Path(__file__),
    Path(json_text.__code__.co_filename),
    Path(schema.__file__ or ""),
    Path(urls.__file__ or ""),
)
_entry_doc_memo = keyed("api-entries", *_SOURCES)
_index_row_memo = keyed("api-index-rows", *_SOURCES)


def index_text(corpus: Corpus, settings: Settings) -> str:
    """`json_text` of the index document, joined from each entry's remembered row."""
    rows = []
    for item in corpus.items:

        def row(entry: Entry = item.entry) -> str:
            return json_text(index_row(entry, settings).model_dump(mode="json")).rstrip("\n")

        key = (item.digest, settings.site_url)
        rows.append(_index_row_memo.get(key, row) if item.digest else row())
    # json_text's sorted keys: api_version, count, entries.
    return f'{{"api_version":1,"count":{len(rows)},"entries":[{",".join(rows)}]}}\n'


def api_files(corpus: Corpus, settings: Settings) -> dict[str, str]:
    """Site path -> content of every API document."""
    files = {
        f"{API}/index.json": index_text(corpus, settings),
        f"{API}/matcher.json": json_text(matcher_data(corpus.entries)),
        f"{API}/index.schema.json": json_text(ApiIndex.model_json_schema()),
        f"{API}/entry.schema.json": json_text(ApiEntry.model_json_schema()),
    }
    for item in corpus.items:
        entry = item.entry

        def text(entry: Entry = entry) -> str:
            return json_text(entry_document(entry, corpus, settings).model_dump(mode="json"))

        backlinks = corpus.backlinks.get(entry.id, ())
        key = (item.digest, backlinks, settings.site_url)
        files[f"{API}/entries/{entry.id}.json"] = (
            _entry_doc_memo.get(key, text) if item.digest else text()
        )
    return dict(sorted(files.items()))
