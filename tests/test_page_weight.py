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
from errkb.site.budget import allowances
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


def test_entry_pages_keep_to_their_budget_or_their_listed_ceiling(site: Path) -> None:
    """The ratchet the build enforces, checked on the built pages: an entry page is within
    30 KB, or listed in heavy_pages.yaml, over the budget and within its ceiling."""
    listed = allowances()
    slugs = {
        item.entry.slug: item.entry.id
        for item in load_corpus(ROOT, today=TODAY, lock=None).corpus.items
    }
    weights = {slugs[p.split("/")[1]]: n for p, n in _weights(site, "errors/*/index.html").items()}
    assert len(weights) == len(slugs) >= 100
    assert set(listed) <= set(weights)
    assert {i: n for i, n in weights.items() if n > BUDGET and i not in listed} == {}
    assert {i: n for i, n in weights.items() if i in listed and n > listed[i].ceiling} == {}
    assert {i for i in listed if weights[i] <= BUDGET} == set()  # a listed page that fits goes


@pytest.mark.xfail(
    strict=True, reason="issue 17: E0070 is over 30 KB, listed in errkb/data/heavy_pages.yaml"
)
def test_entry_pages_stay_within_the_budget(site: Path) -> None:
    pages = _weights(site, "errors/*/index.html")
    assert len(pages) >= 100
    assert {p: n for p, n in pages.items() if n > BUDGET} == {}
