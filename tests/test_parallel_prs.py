"""Pull requests written in parallel: ids and the lock survive the merge, or the check says why.

Two contributors who each run `errkb new` on their own branch both get the next free id.
Whatever git makes of that (a conflicted entry file, a lock with both records), `errkb check`
reports it at a file and line; different ids merge without any conflict at all.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from errkb.cli import cli
from errkb.entries.lock import LOCK_PATH, Lock
from tests.conftest import FIXTURES, ROOT, MakeRepo
from tests.test_check import run_check
from tests.test_new import fill

OLD_LOCK = FIXTURES / "lock" / "published-2026-11-24.json"  # the JSON lock before the migration


def test_migration_kept_every_published_record() -> None:
    old = json.loads(OLD_LOCK.read_text(encoding="utf-8"))
    new = Lock.read(ROOT)
    assert new.problems == []
    assert len(old["entries"]) == 78 and len(old["pages"]) == 82
    for entry_id, slugs in old["entries"].items():
        assert new.entries[entry_id][: len(slugs)] == slugs, entry_id
    assert set(old["pages"]) <= set(new.pages)
    # The old format still reads, so a branch that kept it can be rewritten by `errkb lock`.
    legacy = Lock._read_json(OLD_LOCK.read_text(encoding="utf-8"))
    assert (legacy.entries, legacy.problems) == (old["entries"], [])


def _lock_lines(repo: Path) -> list[str]:
    return (repo / LOCK_PATH).read_text(encoding="utf-8").splitlines()


def test_conflicted_lock_is_reported_at_its_lines(make_repo: MakeRepo) -> None:
    repo = make_repo()
    lines = _lock_lines(repo)
    at = lines.index(next(x for x in lines if x.startswith("E0002 ")))
    conflicted = [
        *lines[:at],
        "<<<<<<< HEAD",
        lines[at],
        "=======",
        "E0002 someone-elses-entry",
        ">>>>>>> their-branch",
        *lines[at + 1 :],
    ]
    (repo / LOCK_PATH).write_text("\n".join(conflicted) + "\n", encoding="utf-8")
    code, out = run_check(repo)
    assert code == 1
    n = at + 1
    assert out == [
        f"{LOCK_PATH}:{n}:1: merge conflict marker: keep the lines of both sides (each id once), "
        "delete the markers, then run `errkb lock`",
        f"{LOCK_PATH}:{n + 2}:1: merge conflict marker: keep the lines of both sides (each id "
        "once), delete the markers, then run `errkb lock`",
        f"{LOCK_PATH}:{n + 3}:1: E0002 is recorded twice (also line {n + 1}): two pull requests "
        "took the same id; give the newer entry another id with `errkb new` and keep only its "
        "own line here",
        f"{LOCK_PATH}:{n + 4}:1: merge conflict marker: keep the lines of both sides (each id "
        "once), delete the markers, then run `errkb lock`",
    ]
    # `errkb lock` will not paper over it either.
    result = CliRunner().invoke(cli, ["lock", "--root", str(repo)])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"{LOCK_PATH}:{n}:1: merge conflict marker" in result.stdout


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("E0001 Not_A_Slug\n", "1:1: not a lock record (`E0042 slug ...` or `page url/`): "),
        ('{"entries": {"E0001": [\n', "2:1: invalid JSON: Expecting value"),
        ('{"entries": {}}\n', "1:1: not a lock file: KeyError('pages')"),
    ],
)
def test_malformed_lock_is_reported_not_raised(
    make_repo: MakeRepo, text: str, expected: str
) -> None:
    repo = make_repo()
    (repo / LOCK_PATH).write_text(text, encoding="utf-8")
    code, out = run_check(repo)
    assert code == 1
    assert out and out[0].startswith(f"{LOCK_PATH}:{expected}"), out


def _git(repo: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=False)
    assert not ok or proc.returncode == 0, proc.stderr
    return proc


def _new_entry(repo: Path, title: str, message: str) -> str:
    args = ["new", "--root", str(repo), "--title", title, "--engine", "vllm"]
    args += ["--category", "serving", "--message", message]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    name = result.stdout.strip().removeprefix("wrote ")
    path = repo / name
    path.write_text(fill(path.read_text(encoding="utf-8")), encoding="utf-8")
    assert CliRunner().invoke(cli, ["lock", "--root", str(repo)]).exit_code == 0
    assert run_check(repo) == (0, []), run_check(repo)
    return name


@pytest.fixture
def git_repo(make_repo: MakeRepo) -> Path:
    if shutil.which("git") is None:
        pytest.fail("git is needed to test merges")
    repo = make_repo()
    shutil.copy2(ROOT / ".gitattributes", repo / ".gitattributes")
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "config", "user.email", "t@example.org")
    _git(repo, "config", "user.name", "t")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "base")
    return repo


def _branch(repo: Path, name: str, title: str, message: str) -> str:
    _git(repo, "checkout", "-q", "-b", name, "main")
    path = _new_entry(repo, title, message)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", name)
    return path


def test_two_branches_that_took_the_same_id_cannot_merge_unnoticed(git_repo: Path) -> None:
    repo = git_repo
    a = _branch(repo, "a", "vLLM: fixture alpha refused", "ValueError: fixture alpha refused it")
    b = _branch(repo, "b", "vLLM: fixture beta refused", "ValueError: fixture beta refused it")
    assert a == b == "errors/E0003.yaml"  # both took "highest id + 1"
    _git(repo, "checkout", "-q", "a")
    assert _git(repo, "merge", "-q", "b", ok=False).returncode != 0  # add/add on the entry
    code, out = run_check(repo)
    assert code == 1
    assert out[0].startswith("errors/E0003.yaml:3:1: merge conflict marker: "), out
    # The lock merged as a union: both records of E0003 are there, and refused.
    assert any(
        line.startswith(f"{LOCK_PATH}:") and "E0003 is recorded twice" in line for line in out
    ), out
    # Resolving the entry file by taking one side still leaves the other's published record.
    _git(repo, "checkout", "--ours", "errors/E0003.yaml")
    code, out = run_check(repo)
    assert code == 1
    assert [line for line in out if "E0003 is recorded twice" in line], out


def test_two_branches_with_different_ids_merge_cleanly(git_repo: Path) -> None:
    repo = git_repo
    _branch(repo, "a", "vLLM: fixture alpha refused", "ValueError: fixture alpha refused it")
    # The second contributor's `errkb new` saw E0003 taken (say, by an open pull request).
    _git(repo, "checkout", "-q", "-b", "b", "main")
    (repo / "errors" / "E0003.yaml").write_text("id: E0003\n", encoding="utf-8")
    result = CliRunner().invoke(
        cli,
        [
            "new",
            "--root",
            str(repo),
            "--title",
            "vLLM: fixture beta",
            "--engine",
            "vllm",
            "--category",
            "serving",
            "--message",
            "ValueError: fixture beta said no",
        ],
    )
    assert result.stdout.strip() == "wrote errors/E0004.yaml", result.output
    (repo / "errors" / "E0003.yaml").unlink()
    path = repo / "errors" / "E0004.yaml"
    path.write_text(fill(path.read_text(encoding="utf-8")), encoding="utf-8")
    assert CliRunner().invoke(cli, ["lock", "--root", str(repo)]).exit_code == 0
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "b")
    _git(repo, "checkout", "-q", "a")
    _git(repo, "merge", "-q", "--no-edit", "b")  # no conflict: different ids, different lines
    assert run_check(repo) == (0, [])
    assert [x.split()[0] for x in _lock_lines(repo) if x.startswith("E000")][-2:] == [
        "E0003",
        "E0004",
    ]


def test_a_merge_that_drops_the_other_sides_records_fails_against_the_base(
    git_repo: Path,
) -> None:
    """The one way past the checks above: resolving both conflicts by taking only your side.
    The entry and the lock then agree, and only the target branch remembers what was lost."""
    repo = git_repo
    _branch(repo, "a", "vLLM: fixture alpha refused", "ValueError: fixture alpha refused it")
    _branch(repo, "b", "vLLM: fixture beta refused", "ValueError: fixture beta refused it")
    _git(repo, "checkout", "-q", "main")
    _git(repo, "merge", "-q", "--ff-only", "a")  # the first pull request lands
    _git(repo, "checkout", "-q", "b")
    assert _git(repo, "merge", "-q", "main", ok=False).returncode != 0
    _git(repo, "checkout", "--ours", "errors/E0003.yaml", LOCK_PATH)  # b's side only
    (repo / LOCK_PATH).write_text(  # the union left both lines; keep b's alone
        "".join(
            line
            for line in (repo / LOCK_PATH).read_text(encoding="utf-8").splitlines(keepends=True)
            if not line.startswith("E0003 vllm-fixture-alpha")
        ),
        encoding="utf-8",
    )
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "merge main, keeping mine")
    assert run_check(repo) == (0, [])  # consistent on its own
    code, out = run_check(repo, "--base", "main")
    assert code == 1
    line = next(i for i, x in enumerate(_lock_lines(repo), start=1) if x.startswith("E0003 "))
    assert out == [
        f"{LOCK_PATH}:{line}:1: E0003 was published on main with slug(s) "
        "vllm-fixture-alpha-refused, which this lock has lost: keep every record of both sides "
        "(another pull request may have taken the same id; give yours a new one with `errkb new`)"
    ]
    # The merge that keeps both sides passes against its base.
    _git(repo, "checkout", "-q", "main")
    assert run_check(repo, "--base", "main") == (0, [])


def test_a_rename_merged_as_a_union_is_one_record() -> None:
    """A rename rewrites its line (`E0001 a` -> `E0001 a b`); merged beside another pull
    request's new line, the union keeps both versions: that is one entry, not two."""
    lock = Lock.parse("E0001 old-name\nE0001 old-name new-name\nE0002 other\n")
    assert (lock.entries, lock.problems) == (
        {"E0001": ["old-name", "new-name"], "E0002": ["other"]},
        [],
    )
    clash = Lock.parse("E0001 old-name one-rename\nE0001 old-name another-rename\n")
    assert [d.render() for d in clash.problems] == [
        f"{LOCK_PATH}:2:1: E0001 is recorded twice (also line 1): two pull requests took the "
        "same id; give the newer entry another id with `errkb new` and keep only its own line here"
    ]
