"""What a reader downloads per page, on the real site: the budget of issue 17 (an entry or
fit page at most 30 KB of HTML), which issue 15 holds the GPU and model pages to.

Bytes of built HTML are the same on every machine, so this is a test, not a benchmark;
`benchmarks/site_scale.py` measures the same pages at 1,000 and 5,000 entries.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config

from errkb.checks.corpus import load_corpus
from tests.conftest import ROOT, TODAY

BUDGET = 30 * 1024


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    build(load_config(str(ROOT / "mkdocs.yml"), strict=True, site_dir=str(out)))
    return out


def _weights(site: Path, pattern: str) -> dict[str, int]:
    return {str(p.parent.relative_to(site)): p.stat().st_size for p in sorted(site.glob(pattern))}


@pytest.mark.parametrize(
    ("pattern", "at_least"),
    [
        ("gpus/*/index.html", 50),
        ("gpus/*/concurrency/index.html", 50),
        ("models/*/index.html", 120),
    ],
)
def test_fit_pages_stay_within_the_budget(site: Path, pattern: str, at_least: int) -> None:
    pages = _weights(site, pattern)
    pages.pop("gpus/sizing", None)  # a list of every model: an index page (150 KB budget)
    assert len(pages) >= at_least
    over = {p: n for p, n in pages.items() if n > BUDGET}
    assert over == {}


def test_index_pages_stay_within_their_budget(site: Path) -> None:
    pages = {"": (site / "index.html").stat().st_size}
    for pattern in ("*/index.html", "*/page/*/index.html", "engines/*/index.html"):
        pages.update(_weights(site, pattern))
    assert {p: n for p, n in pages.items() if n > 150 * 1024} == {}


def test_entry_pages_stay_within_the_budget(site: Path) -> None:
    """What the build enforces, checked on the built pages: every entry's page (and its
    evidence page) within 30 KB."""
    slugs = {item.entry.slug for item in load_corpus(ROOT, today=TODAY, lock=None).corpus.items}
    pages = _weights(site, "errors/*/index.html")
    assert {p.split("/")[1] for p in pages} >= slugs and len(slugs) >= 100
    evidence = _weights(site, "errors/*/evidence/index.html")
    assert {p.split("/")[1] for p in evidence} >= slugs
    assert {p: n for p, n in {**pages, **evidence}.items() if n > BUDGET} == {}
