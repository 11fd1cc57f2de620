"""Published ids and URLs are append-only: nothing in errors/published.lock may stop resolving."""

from __future__ import annotations

from click.testing import CliRunner

from errkb.cli import cli
from tests.conftest import MakeRepo, fixture_text


def check(repo: object) -> tuple[int, list[str]]:
    result = CliRunner().invoke(cli, ["check", "--root", str(repo)])
    return result.exit_code, result.stdout.splitlines()


def test_deleting_a_published_entry_is_refused(make_repo: MakeRepo) -> None:
    repo = make_repo()
    (repo / "errors" / "E0002.yaml").unlink()
    text = fixture_text("E0001.yaml").replace("related: [E0002]\n", "")
    (repo / "errors" / "E0001.yaml").write_text(text, encoding="utf-8")
    code, lines = check(repo)
    assert code == 1
    assert lines == [
        "errors/E0002.yaml:1:1: id: E0002 was published and its file is gone: ids are never deleted "
        "or reused; restore the file and mark it `retired` instead"
    ]


def test_renaming_a_slug_needs_former_slugs(make_repo: MakeRepo) -> None:
    repo = make_repo()
    path = repo / "errors" / "E0001.yaml"
    path.write_text(
        fixture_text("E0001.yaml").replace(
            "slug: fixture-kv-cache-too-small", "slug: fixture-kv-cache-short"
        ),
        encoding="utf-8",
    )
    code, lines = check(repo)
    assert code == 1
    assert lines == [
        "errors/E0001.yaml:4:7: former_slugs: slug 'fixture-kv-cache-too-small' was published for "
        "E0001: add it to former_slugs so its URL keeps working"
    ]
    path.write_text(
        fixture_text("E0001.yaml").replace(
            "slug: fixture-kv-cache-too-small",
            "slug: fixture-kv-cache-short\nformer_slugs: [fixture-kv-cache-too-small]",
        ),
        encoding="utf-8",
    )
    # The new slug is not published yet: `errkb lock` records it, then all is well.
    assert CliRunner().invoke(cli, ["lock", "--root", str(repo)]).exit_code == 0
    assert check(repo) == (0, [])
    lock = (repo / "errors" / "published.lock").read_text()
    assert "\nE0001 fixture-kv-cache-too-small fixture-kv-cache-short\n" in lock


def test_lock_is_append_only_and_idempotent(make_repo: MakeRepo) -> None:
    repo = make_repo()
    before = (repo / "errors" / "published.lock").read_text()
    result = CliRunner().invoke(cli, ["lock", "--root", str(repo)])
    assert result.exit_code == 0
    assert "is up to date" in result.stderr
    assert (repo / "errors" / "published.lock").read_text() == before


def test_new_entry_must_be_locked(make_repo: MakeRepo) -> None:
    repo = make_repo()
    text = (
        fixture_text("E0002.yaml")
        .replace("E0002", "E0003")
        .replace("fixture-driver-too-old", "fixture-three")
        .replace("former_slugs: [fixture-old-driver]\n", "")
        .replace("found version 1", "found version 3")
    )
    (repo / "errors" / "E0003.yaml").write_text(text, encoding="utf-8")
    code, lines = check(repo)
    assert (code, lines) == (
        1,
        [
            "errors/E0003.yaml:2:5: id: E0003 is not in errors/published.lock yet: run `errkb lock` to "
            "publish its id"
        ],
    )
    assert CliRunner().invoke(cli, ["lock", "--root", str(repo)]).exit_code == 0
    assert check(repo) == (0, [])


def test_lock_refuses_what_it_cannot_fix(make_repo: MakeRepo) -> None:
    repo = make_repo()
    (repo / "errors" / "E0002.yaml").unlink()
    (repo / "errors" / "E0001.yaml").write_text(
        fixture_text("E0001.yaml").replace("related: [E0002]\n", ""), encoding="utf-8"
    )
    result = CliRunner().invoke(cli, ["lock", "--root", str(repo)])
    assert result.exit_code == 1
    assert "E0002 was published and its file is gone" in result.stdout
    assert "\nE0002 " in (repo / "errors" / "published.lock").read_text()


def test_published_page_that_disappears_is_refused(make_repo: MakeRepo) -> None:
    repo = make_repo()
    path = repo / "errors" / "published.lock"
    text = path.read_text().replace("\npage ", "\npage engines/some-engine-we-dropped/\npage ", 1)
    path.write_text(text)
    line = text.splitlines().index("page engines/some-engine-we-dropped/") + 1
    # A page-level check: the build makes it (`errkb check` builds no pages).
    assert check(repo) == (0, [])
    out = repo.parent / "generated"
    result = CliRunner().invoke(cli, ["generate", "--root", str(repo), "--out", str(out)])
    code, lines = result.exit_code, result.stdout.splitlines()
    assert code == 1
    assert lines == [
        f"errors/published.lock:{line}:1: pages: page engines/some-engine-we-dropped/ was "
        "published and is no longer generated: keep it or redirect it"
    ]
