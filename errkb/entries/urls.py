"""Where every generated page lives. URLs published here are recorded in the lock and never break."""

from __future__ import annotations

from errkb.entries.schema import Entry


def engine_key(engine: str) -> str:
    return engine.replace(".", "-")


def entry_uri(entry: Entry) -> str:
    return f"errors/{entry.slug}.md"


def evidence_uri(entry: Entry) -> str:
    """The entry's sources, verification notes and backlinks, under its page."""
    return f"errors/{entry.slug}/evidence.md"


def former_evidence_uri(slug: str) -> str:
    return f"errors/{slug}/evidence.md"


def short_uri(entry_id: str) -> str:
    return f"e/{entry_id}.md"


def former_uri(slug: str) -> str:
    return f"errors/{slug}.md"


def category_uri(category: str) -> str:
    return f"categories/{category}.md"


def engine_uri(engine: str) -> str:
    return f"engines/{engine_key(engine)}.md"


def gpu_uri(gpu_id: str) -> str:
    return f"gpus/{gpu_id}.md"


def concurrency_uri(gpu_id: str) -> str:
    """A GPU's (or multi-GPU setup's) concurrency tables, under its page: gpus/h100/concurrency/."""
    return f"gpus/{gpu_id}/concurrency.md"


def model_uri(model_id: str) -> str:
    return f"models/{model_id}.md"


ERRORS_INDEX = "errors/index.md"
CATEGORIES_INDEX = "categories/index.md"
ENGINES_INDEX = "engines/index.md"
GPUS_INDEX = "gpus/index.md"
MODELS_INDEX = "models/index.md"
SIZING = "gpus/sizing.md"
WILL_IT_RUN = "calculators/will-it-run.md"
API = "api/v1"  # the JSON API's root; its files are published URLs too
FIT_API = f"{API}/fit"


def paged_uri(uri: str, page: int) -> str:
    """Page `page` (from 1) of a list page: errors/page/2.md, engines/vllm/page/2.md. No slug
    holds a slash, so these never collide with an entry's page."""
    if page == 1:
        return uri
    base = uri[: -len("index.md")] if uri.endswith("index.md") else uri[: -len(".md")] + "/"
    return f"{base}page/{page}.md"


def url_of(src_uri: str) -> str:
    """Site-relative URL of a source file with use_directory_urls (the MkDocs default we keep)."""
    if src_uri == "index.md":
        return ""
    if src_uri.endswith("/index.md"):
        return src_uri[: -len("index.md")]
    return src_uri[: -len(".md")] + "/"
