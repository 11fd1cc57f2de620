"""The content-addressed entry cache gives what a fresh load gives, and never a stale entry."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from errkb.entries.cache import CACHE_DIR
from errkb.entries.loader import load_dir
from tests.conftest import MakeRepo


def loaded(repo: Path, use_cache: bool) -> tuple[list[object], list[str]]:
    items, problems = load_dir(repo / "errors", repo, use_cache=use_cache)
    return [(i.path, i.entry, i.position("slug")) for i in items], [d.render() for d in problems]


def test_a_cached_load_equals_a_fresh_one(make_repo: MakeRepo) -> None:
    repo = make_repo({"E0003.yaml": "id: E0003\nslug: x\n"}, lock=False)  # one broken entry
    shutil.rmtree(repo / CACHE_DIR, ignore_errors=True)
    fresh = loaded(repo, use_cache=False)
    assert not (repo / CACHE_DIR).exists()
    first = loaded(repo, use_cache=True)
    files = list((repo / CACHE_DIR).rglob("*.pickle"))
    assert len(files) == 3  # two entries and the broken file's diagnostics
    assert loaded(repo, use_cache=True) == first == fresh
    assert fresh[1] and all(line.startswith("errors/E0003.yaml:") for line in fresh[1])


def test_an_edited_file_is_loaded_again(make_repo: MakeRepo) -> None:
    repo = make_repo()
    loaded(repo, use_cache=True)
    path = repo / "errors" / "E0002.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("Upgrade the driver", "Update the driver")
    )
    items, _ = load_dir(repo / "errors", repo, use_cache=True)
    titles = [s.title for i in items for s in i.entry.solutions if i.entry.id == "E0002"]
    assert titles == ["Update the driver"]


def test_an_unreadable_cache_file_is_ignored(make_repo: MakeRepo) -> None:
    repo = make_repo()
    want = loaded(repo, use_cache=True)
    for path in (repo / CACHE_DIR).rglob("*.pickle"):
        path.write_bytes(b"not a pickle")
    assert loaded(repo, use_cache=True) == want


def test_the_environment_can_turn_it_off(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ERRKB_NO_CACHE", "1")
    repo = make_repo(lock=False)
    loaded(repo, use_cache=True)
    assert not (repo / CACHE_DIR).exists()
