"""Shared fixtures: throwaway copies of the repository to break and build."""

from __future__ import annotations

import datetime as dt
import functools
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from calculators.grid import fit_grid
from errkb.checks.corpus import Corpus
from errkb.site.fitdata import FitData, fit_data

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
# Fixture entries are dated; checks on them run "as of" this day so the tests never age
# (tests/test_check.py holds it after every fixture's date). The real corpus is checked as of
# the real day (REAL_TODAY), as CI's `errkb check` does: its entries are verified up to today.
TODAY = dt.date(2026, 11, 20)
REAL_TODAY = dt.datetime.now(tz=dt.UTC).date()
# The same day for the CLI, which reads the build date from SOURCE_DATE_EPOCH.
EPOCH = str(int(dt.datetime(TODAY.year, TODAY.month, TODAY.day, tzinfo=dt.UTC).timestamp()))

MakeRepo = Callable[..., Path]


def copy_skeleton(dest: Path) -> Path:
    """Everything a build needs except the entries."""
    # .gitignore too: a contributor's clone never commits the build's caches (`.cache/`).
    for name in ("pyproject.toml", "mkdocs.yml", ".gitignore"):
        shutil.copy2(ROOT / name, dest / name)
    for name in ("docs", "hooks"):
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
    (dest / "errors").mkdir()
    return dest


@pytest.fixture
def make_repo(tmp_path: Path) -> MakeRepo:
    """A repository copy with the fixture entries (or the given files) in errors/."""

    def make(
        files: dict[str, str | bytes] | None = None, *, fixtures: bool = True, lock: bool = True
    ) -> Path:
        (tmp_path / "repo").mkdir()
        repo = copy_skeleton(tmp_path / "repo")
        if fixtures:
            for src in sorted((FIXTURES / "valid").glob("*.yaml")):
                shutil.copy2(src, repo / "errors" / src.name)
        for name, content in (files or {}).items():
            path = repo / "errors" / name
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")
        if lock:
            from errkb.checks.corpus import load_corpus
            from errkb.entries.lock import Lock
            from errkb.settings import load_settings
            from errkb.site.plan import plan_from_corpus

            result = load_corpus(repo, today=TODAY, lock=None)
            plan = plan_from_corpus(result.corpus, load_settings(repo, today=TODAY), Lock())
            Lock(exists=False).updated(list(result.corpus.items), plan.index_urls()).write(repo)
        return repo

    return make


class CorpusProblems(AssertionError):
    """The corpus a test loads has diagnostics: entries would drop out of the test unseen."""


def checked_corpus(root: Path, today: dt.date) -> Corpus:
    """The corpus under root, every check and the lock included; fails on any diagnostic."""
    from errkb.checks.corpus import load_corpus
    from errkb.entries.lock import Lock

    result = load_corpus(root, today=today, lock=Lock.read(root))
    if result.diagnostics:
        shown = "\n".join(d.render() for d in result.diagnostics[:30])
        raise CorpusProblems(f"{len(result.diagnostics)} problem(s) in {root}/errors:\n{shown}")
    return result.corpus


@functools.cache
def real_corpus() -> Corpus:
    """errors/ as `errkb check` sees it today; any problem fails the test that asks."""
    return checked_corpus(ROOT, REAL_TODAY)


def fixture_text(name: str) -> str:
    return (FIXTURES / "valid" / name).read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def fit() -> FitData:
    """The fit grid as a build hands it to the page builders."""
    return fit_data(fit_grid())
