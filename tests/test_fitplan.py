"""The fit parts a child process computes while the build goes on are the parts the build
would compute itself, and a build names them correctly before they exist."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import errkb.site.fitcache as fitcache
import errkb.site.fitplan as fitplan
from errkb.site.fitcache import TableKey
from errkb.site.fitdata import FitData

WANTED: list[TableKey] = [(("llama-3.1-8b", "qwen3-14b"), ("vllm", "llama.cpp"), "errors/x/")]


@pytest.fixture
def cold(monkeypatch: pytest.MonkeyPatch) -> None:
    """As a new build process on two cores: nothing in memory."""
    monkeypatch.setattr(fitcache, "_memo", {})
    monkeypatch.setattr(fitplan.os, "cpu_count", lambda: 2)


def _expected(fit: FitData) -> fitcache.FitParts:
    parts = fitplan.build_parts(fit)
    parts.tables = {key: fitplan.table(fit, key) for key in WANTED}
    return parts


def test_the_layout_names_every_fit_page_in_order_and_every_json_file(fit: FitData) -> None:
    parts = fitplan.build_parts(fit)
    layout = fitplan.fit_layout()
    assert list(layout.pages) == [uri for uri, _ in parts.pages]
    assert sorted(layout.assets) == sorted(parts.assets)
    assert len(layout.pages) > 170 and len(layout.assets) > 100


@pytest.mark.usefixtures("cold")
def test_the_child_computes_what_the_build_would(
    tmp_path: Path, fit: FitData, monkeypatch: pytest.MonkeyPatch
) -> None:
    pending = fitplan.start(tmp_path)
    assert pending is not None
    pending.send(WANTED)

    def not_here(cache_dir: Path) -> object:
        raise AssertionError("the build computed the grid the child was computing")

    monkeypatch.setattr(fitplan, "load_or_compute", not_here)
    assert pending.parts() == _expected(fit)
    assert len(list(tmp_path.glob("fitparts-*.json"))) == 1  # saved for the next build
    assert fitplan.start(tmp_path) is None


@pytest.mark.usefixtures("cold")
def test_a_failed_child_leaves_the_work_to_the_build(tmp_path: Path, fit: FitData) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.read(); raise SystemExit(3)"],
        stdin=subprocess.PIPE,
    )
    pending = fitplan.Pending(child, tmp_path)
    pending.send(WANTED)
    assert pending.parts() == _expected(fit)


@pytest.mark.usefixtures("cold")
def test_one_core_starts_no_child(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fitplan.os, "cpu_count", lambda: 1)
    assert fitplan.start(tmp_path) is None
