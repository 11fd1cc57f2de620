"""The fit parts kept between builds are the parts a cold build computes."""

from __future__ import annotations

import os
from pathlib import Path

import errkb.site.fitcache as fitcache
from calculators.grid import fit_grid, prune_cache
from errkb.site.fitdata import FitData, fit_data
from errkb.site.fitplan import build_parts as _build_parts
from errkb.site.fitplan import table as _table


def _load(cache_dir: Path, wanted: list[fitcache.TableKey], calls: list[str]) -> fitcache.FitParts:
    def fit() -> FitData:
        calls.append("grid")
        return fit_data(fit_grid())

    fitcache._memo.clear()  # as a new build process
    return fitcache.load_fit_parts(cache_dir, wanted, fit=fit, build=_build_parts, table=_table)


def test_a_warm_build_gets_what_a_cold_one_computed(tmp_path: Path) -> None:
    wanted = [(("llama-3.1-8b", "qwen3-14b"), ("vllm", "llama.cpp"), "errors/x/")]
    calls: list[str] = []
    cold = _load(tmp_path, wanted, calls)
    assert calls == ["grid"]
    assert len(list(tmp_path.glob("fitparts-*.json"))) == 1
    warm = _load(tmp_path, wanted, calls)
    assert calls == ["grid"], "a warm build does not load the grid"
    assert warm == cold
    fresh = _build_parts(fit_data(fit_grid()))
    assert warm.pages == fresh.pages and warm.assets == fresh.assets
    assert warm.charts == fresh.charts
    assert warm.tables[wanted[0]] == _table(fit_data(fit_grid()), wanted[0])
    assert len(warm.pages) > 170 and any(uri.startswith("gpus/") for uri, _ in warm.pages)


def test_a_new_fit_table_loads_the_grid_once_and_is_kept(tmp_path: Path) -> None:
    first = (("llama-3.1-8b",), ("vllm",), "errors/a/")
    second = (("qwen3-14b",), ("sglang",), "errors/b/")
    calls: list[str] = []
    _load(tmp_path, [first], calls)
    parts = _load(tmp_path, [first, second], calls)
    assert calls == ["grid", "grid"]
    assert parts.tables[second] == _table(fit_data(fit_grid()), second)
    again = _load(tmp_path, [first, second], calls)
    assert calls == ["grid", "grid"] and again == parts


def test_a_damaged_cache_is_rebuilt(tmp_path: Path) -> None:
    calls: list[str] = []
    _load(tmp_path, [], calls)
    (path,) = tmp_path.glob("fitparts-*.json")
    path.write_text('{"pages": [', encoding="utf-8")
    parts = _load(tmp_path, [], calls)
    assert calls == ["grid", "grid"] and parts.pages


def test_old_cache_files_are_pruned_to_the_newest_two(tmp_path: Path) -> None:
    # Five earlier keys, oldest first, and the one just written.
    for k in range(5):
        old = tmp_path / f"grid-old{k}.json"
        old.write_text("[]", encoding="utf-8")
        os.utime(old, (1_000_000 + k, 1_000_000 + k))
    other_kind = tmp_path / "fitparts-keep.json"
    other_kind.write_text("{}", encoding="utf-8")
    current = tmp_path / "grid-new.json"
    current.write_text("[]", encoding="utf-8")
    prune_cache(current)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "fitparts-keep.json",
        "grid-new.json",
        "grid-old4.json",
    ]
