"""`errkb stale`: which entries to re-verify, and the issue body the scheduled job posts."""

from __future__ import annotations

import datetime as dt

from click.testing import CliRunner

from errkb.checks.stale import Release, Releases, load_releases, stale_entries
from errkb.cli import cli
from tests.conftest import EPOCH, REAL_TODAY, TODAY, MakeRepo


def run(repo: object, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        cli, ["stale", "--root", str(repo), *args], env={"SOURCE_DATE_EPOCH": EPOCH}
    )
    return result.exit_code, result.stdout


def newer(engine: str) -> str:
    """What the report says of an engine's newest release, read from the committed data."""
    release = load_releases().engines[engine]
    return f"{engine} {release.version} was released on {release.date.isoformat()}"


def days(date: dt.date) -> int:
    return (TODAY - date).days


def test_stale_lists_age_and_newer_releases(make_repo: MakeRepo) -> None:
    code, out = run(make_repo(), "--fail")
    assert code == 1
    assert out.splitlines() == [
        f"E0001 fixture-kv-cache-too-small: verified {days(dt.date(2026, 1, 2))} days ago "
        f"(limit 180); verified against llama.cpp b4567; {newer('llama.cpp')}; verified against "
        f"vllm 0.8.5; {newer('vllm')}",
        f"E0002 fixture-driver-too-old: verified {days(dt.date(2024, 1, 1))} days ago "
        f"(limit 180); verified against pytorch 2.5.1; {newer('pytorch')}",
    ]


def test_stale_markdown_is_the_issue_body(make_repo: MakeRepo) -> None:
    code, out = run(make_repo(), "--days", "400", "--format", "markdown")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("2 entries need a re-check (as of 2026-11-20).")
    assert lines[4] == (
        "| [E0001](https://errkb.github.io/errkb/e/E0001/) | Fixture: KV cache too small | "
        f"verified against llama.cpp b4567; {newer('llama.cpp')}; "
        f"verified against vllm 0.8.5; {newer('vllm')} |"
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
    assert releases.checked <= REAL_TODAY
    assert {"vllm", "sglang", "llama.cpp", "ollama", "tgi"} <= set(releases.engines)
    assert all(r.date <= releases.checked for r in releases.engines.values())
