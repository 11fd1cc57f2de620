"""`errkb stale`: which entries to re-verify, and the issue body the scheduled job posts."""

from __future__ import annotations

import datetime as dt

from click.testing import CliRunner

from errkb.checks.stale import Release, Releases, load_releases, stale_entries
from errkb.cli import cli
from tests.conftest import EPOCH, TODAY, MakeRepo


def run(repo: object, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        cli, ["stale", "--root", str(repo), *args], env={"SOURCE_DATE_EPOCH": EPOCH}
    )
    return result.exit_code, result.stdout


def test_stale_lists_age_and_newer_releases(make_repo: MakeRepo) -> None:
    code, out = run(make_repo(), "--fail")
    assert code == 1
    assert out.splitlines() == [
        "E0001 fixture-kv-cache-too-small: verified 322 days ago (limit 180); verified against "
        "llama.cpp b4567; llama.cpp b10864 was released on 2026-09-08; verified against "
        "vllm 0.8.5; vllm 0.33.0 was released on 2026-11-02",
        "E0002 fixture-driver-too-old: verified 1054 days ago (limit 180); verified against "
        "pytorch 2.5.1; pytorch 2.15.0 was released on 2026-10-28",
    ]


def test_stale_markdown_is_the_issue_body(make_repo: MakeRepo) -> None:
    code, out = run(make_repo(), "--days", "400", "--format", "markdown")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("2 entries need a re-check (as of 2026-11-20).")
    assert lines[4] == (
        "| [E0001](https://errkb.github.io/errkb/e/E0001/) | Fixture: KV cache too small | "
        "verified against llama.cpp b4567; llama.cpp b10864 was released on 2026-09-08; "
        "verified against vllm 0.8.5; vllm 0.33.0 was released on 2026-11-02 |"
    )


def test_entry_verified_after_the_release_is_fresh(make_repo: MakeRepo) -> None:
    from errkb.checks.corpus import load_corpus

    entries = [i.entry for i in load_corpus(make_repo(), today=TODAY, lock=None).corpus.items]
    releases = Releases(
        checked=TODAY,
        engines={
            "vllm": Release(
                version="0.8.5", date=dt.date(2025, 1, 1), source="https://example.org/r"
            )
        },
    )
    found = stale_entries(entries, today=TODAY, max_days=10_000, releases=releases)
    assert [s.entry.id for s in found] == []


def test_committed_releases_file_is_valid_and_current() -> None:
    releases = load_releases()
    assert releases.checked <= TODAY
    assert {"vllm", "sglang", "llama.cpp", "ollama", "tgi"} <= set(releases.engines)
    assert all(r.date <= releases.checked for r in releases.engines.values())
