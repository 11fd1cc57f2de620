"""`errkb stale`: which entries to re-verify, and the issue body the scheduled job posts.

Expectations read the committed releases file (errkb/data/engine_releases.yaml) rather than
copying it, so updating the file does not break the tests.
"""

from __future__ import annotations

import datetime as dt

from click.testing import CliRunner

from errkb.checks.corpus import load_corpus
from errkb.checks.stale import (
    Reason,
    Release,
    Releases,
    Stale,
    load_releases,
    markdown_report,
    stale_entries,
)
from errkb.cli import cli
from errkb.entries.schema import Entry
from tests.conftest import EPOCH, TODAY, MakeRepo

RELEASES = load_releases()
SITE = "https://errkb.github.io/errkb/"


def run(repo: object, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        cli, ["stale", "--root", str(repo), *args], env={"SOURCE_DATE_EPOCH": EPOCH}
    )
    return result.exit_code, result.stdout


def fixture_entries(make_repo: MakeRepo) -> dict[str, Entry]:
    return load_corpus(make_repo(), today=TODAY, lock=None).corpus.by_id()


def releases(**engines: tuple[str, dt.date]) -> Releases:
    return Releases(
        checked=TODAY,
        engines={
            e.replace("_", "."): Release(version=v, date=d, source="https://example.org/r")
            for e, (v, d) in engines.items()
        },
    )


def test_cli_lists_age_and_each_release_an_entry_claims(make_repo: MakeRepo) -> None:
    repo = make_repo()
    entries = load_corpus(repo, today=TODAY, lock=None).corpus.by_id()
    code, out = run(repo, "--fail")
    assert code == 1
    lines = dict(line.split(": ", 1) for line in out.splitlines())
    e1, e2 = entries["E0001"], entries["E0002"]
    vllm, llama, torch = (
        RELEASES.engines["vllm"],
        RELEASES.engines["llama.cpp"],
        RELEASES.engines["pytorch"],
    )
    assert lines["E0001 fixture-kv-cache-too-small"] == "; ".join(
        [
            f"verified {(TODAY - e1.verified.date).days} days ago (limit 180)",
            # "*" for llama.cpp commands and ">=0.9.0" for vLLM messages both contain the releases.
            f"states llama.cpp *, which includes {llama.version} (released {llama.date}); "
            "verified against b4567",
            f"states vllm >=0.9.0, which includes {vllm.version} (released {vllm.date}); "
            "verified against 0.8.5",
        ]
    )
    assert lines["E0002 fixture-driver-too-old"] == (
        f"verified {(TODAY - e2.verified.date).days} days ago (limit 180); "
        f"states pytorch *, which includes {torch.version} (released {torch.date}); "
        "verified against 2.5.1"
    )


def test_a_release_outside_every_stated_range_changes_nothing(make_repo: MakeRepo) -> None:
    e1 = fixture_entries(make_repo)["E0001"]
    after = e1.verified.date + dt.timedelta(days=1)
    # E0001 states vLLM ">=0.4.0,<0.9.0" and ">=0.9.0": a 0.3 release is outside both.
    found = stale_entries(
        [e1], today=TODAY, max_days=10_000, releases=releases(vllm=("0.3.1", after))
    )
    assert found == []
    found = stale_entries(
        [e1], today=TODAY, max_days=10_000, releases=releases(vllm=("0.9.1", after))
    )
    assert [r.group for s in found for r in s.reasons] == ["vllm 0.9.1"]


def test_entry_verified_after_the_release_is_fresh(make_repo: MakeRepo) -> None:
    entries = list(fixture_entries(make_repo).values())
    found = stale_entries(
        entries,
        today=TODAY,
        max_days=10_000,
        releases=releases(
            vllm=("0.99.0", dt.date(2020, 1, 1)), llama_cpp=("b99999", dt.date(2020, 1, 1))
        ),
    )
    assert found == []


def test_markdown_groups_by_reason_and_links_each_entry(make_repo: MakeRepo) -> None:
    code, out = run(make_repo(), "--days", "10000", "--format", "markdown")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith(f"2 entries need a re-check (as of {TODAY}).")
    vllm = RELEASES.engines["vllm"]
    assert f"| Released since: vllm {vllm.version} | 1 |" in lines
    assert f"## Released since: vllm {vllm.version}" in lines
    row = next(line for line in lines if line.startswith("| [E0001]") and "vllm" in line)
    assert row.startswith(f"| [E0001]({SITE}e/E0001/) | Fixture: KV cache too small | ")


def test_report_fits_an_issue_body_at_any_size(make_repo: MakeRepo) -> None:
    e1 = fixture_entries(make_repo)["E0001"]
    many = [
        Stale(e1.model_copy(update={"id": f"E{i:04d}"}), (Reason("age", "x" * 80),))
        for i in range(1, 3000)
    ]
    body = markdown_report(many, site_url=SITE, today=TODAY)
    assert len(body) <= 65_536
    shown = body.count("| [E")
    left = int(body.rsplit("\n", 2)[-2].split()[0])
    assert shown + left == len(many) and left > 0
    small = markdown_report(many[:3], site_url=SITE, today=TODAY)
    assert small.count("| [E") == 3 and "did not fit" not in small


def test_committed_releases_file_is_valid_and_current() -> None:
    assert RELEASES.checked <= dt.date.today()
    assert {"vllm", "sglang", "llama.cpp", "ollama", "tgi"} <= set(RELEASES.engines)
    assert all(r.date <= RELEASES.checked for r in RELEASES.engines.values())
