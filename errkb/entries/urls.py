"""Where every generated page lives. URLs published here are recorded in the lock and never break."""

from __future__ import annotations

from errkb.entries.schema import Entry


def engine_key(engine: str) -> str:
    return engine.replace(".", "-")


def entry_uri(entry: Entry) -> str:
    return f"errors/{entry.slug}.md"


def short_uri(entry_id: str) -> str:
    return f"e/{entry_id}.md"


def former_uri(slug: str) -> str:
    return f"errors/{slug}.md"


def category_uri(category: str) -> str:
    return f"categories/{category}.md"


def engine_uri(engine: str) -> str:
    return f"engines/{engine_key(engine)}.md"


ERRORS_INDEX = "errors/index.md"
CATEGORIES_INDEX = "categories/index.md"
ENGINES_INDEX = "engines/index.md"


def url_of(src_uri: str) -> str:
    """Site-relative URL of a source file with use_directory_urls (the MkDocs default we keep)."""
    if src_uri == "index.md":
        return ""
    if src_uri.endswith("/index.md"):
        return src_uri[: -len("index.md")]
    return src_uri[: -len(".md")] + "/"
