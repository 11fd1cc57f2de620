"""The on-disk memo: what it keeps, when it forgets, and that the lint reads the same through it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from errkb import memo as memo_module
from errkb.memo import Memo


@pytest.fixture(autouse=True)
def _fresh_process(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each test starts as a new process would: nothing held in memory, and the memos these
    # tests declare never join those of the real build.
    monkeypatch.setattr(memo_module, "_open", {})
    monkeypatch.setattr(memo_module, "_persistent", [])
    monkeypatch.delenv("ERRKB_NO_CACHE", raising=False)


def test_a_saved_result_is_read_back_by_a_new_process(tmp_path: Path) -> None:
    calls: list[str] = []

    def square() -> int:
        calls.append("3")
        return 9

    first: Memo[str, int] = Memo(tmp_path, "square", "v1")
    assert first.get("3", square) == 9
    first.save()
    memo_module._open.clear()
    again: Memo[str, int] = Memo(tmp_path, "square", "v1")
    assert again.get("3", square) == 9
    assert calls == ["3"]


def test_another_version_starts_empty(tmp_path: Path) -> None:
    first: Memo[str, int] = Memo(tmp_path, "square", "v1")
    first.get("3", lambda: 9)
    first.save()
    memo_module._open.clear()
    changed: Memo[str, int] = Memo(tmp_path, "square", "v2")
    assert changed.get("3", lambda: 10) == 10


def test_only_what_a_run_used_is_kept(tmp_path: Path) -> None:
    first: Memo[str, int] = Memo(tmp_path, "square", "v1")
    first.get("old", lambda: 1)
    first.get("kept", lambda: 2)
    first.save()
    memo_module._open.clear()
    second: Memo[str, int] = Memo(tmp_path, "square", "v1")
    second.get("kept", lambda: -1)
    second.save()
    memo_module._open.clear()
    third: Memo[str, int] = Memo(tmp_path, "square", "v1")
    assert third.get("old", lambda: 7) == 7
    assert third.get("kept", lambda: -1) == 2


def test_an_unreadable_file_is_ignored_and_rewritten(tmp_path: Path) -> None:
    path = tmp_path / memo_module.MEMO_DIR / "square.pickle"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a pickle")
    broken: Memo[str, int] = Memo(tmp_path, "square", "v1")
    assert broken.get("3", lambda: 9) == 9
    broken.save()
    memo_module._open.clear()
    reread: Memo[str, int] = Memo(tmp_path, "square", "v1")
    assert reread.get("3", lambda: -1) == 9


def test_errkb_no_cache_computes_every_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ERRKB_NO_CACHE", "1")
    off: Memo[str, int] = Memo(tmp_path, "square", "v1")
    assert off.get("3", lambda: 9) == 9
    assert off.get("3", lambda: 10) == 10
    off.save()
    assert not (tmp_path / memo_module.MEMO_DIR).exists()


def test_the_lint_through_the_memo_reports_what_the_lint_reports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from errkb.checks import flaglint
    from errkb.entries.loader import load_dir

    root = Path(__file__).parents[1]
    items, problems = load_dir(root / "errors", root, use_cache=False)
    assert not problems and len(items) > 100
    # One command made wrong, so the comparison covers a reported problem too.
    bad = items[0].entry.solutions[0].commands[0]
    object.__setattr__(bad, "code", bad.code + " --no-such-flag-anywhere")
    direct = flaglint.lint_entries(items)
    assert any("--no-such-flag-anywhere" in d.message for d in direct)

    calls = 0
    real = flaglint.lint_command

    def counted(*args: object, **kwargs: object) -> list[str]:
        nonlocal calls
        calls += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(flaglint, "lint_command", counted)
    assert flaglint.lint_entries(items, root=tmp_path) == direct
    cold = calls
    assert cold > 0
    memo_module._open.clear()  # as a new process: read from disk
    assert flaglint.lint_entries(items, root=tmp_path) == direct
    assert calls == cold  # nothing linted again


def test_persistent_results_outlive_the_process_until_the_code_changes(tmp_path: Path) -> None:
    source = tmp_path / "code.py"
    source.write_text("v1")
    calls: list[str] = []

    def declare() -> Callable[[str], int]:
        memo_module._persistent.clear()  # a new process declares its functions again

        @memo_module.persistent("length", source)
        def length(text: str) -> int:
            calls.append(text)
            return len(text)

        return length

    length = declare()
    with memo_module.remembered(tmp_path):
        assert (length("abc"), length("abc"), length("de")) == (3, 3, 2)
    assert calls == ["abc", "de"]
    length = declare()
    with memo_module.remembered(tmp_path):
        assert length("abc") == 3  # from disk; "de" is not asked for, so it is forgotten
    assert calls == ["abc", "de"]
    length = declare()
    with memo_module.remembered(tmp_path):
        assert length("de") == 2
    assert calls == ["abc", "de", "de"]
    source.write_text("v2")  # the code changed: nothing remembered counts
    length = declare()
    with memo_module.remembered(tmp_path):
        assert length("de") == 2
    assert calls == ["abc", "de", "de", "de"]


def test_a_long_running_process_saves_what_each_build_used(tmp_path: Path) -> None:
    calls: list[str] = []
    source = tmp_path / "code.py"
    source.write_text("v1")

    @memo_module.persistent("upper", source)
    def upper(text: str) -> str:
        calls.append(text)
        return text.upper()

    with memo_module.remembered(tmp_path):  # `mkdocs serve`'s first build
        upper("a")
        upper("b")
    with memo_module.remembered(tmp_path):  # a rebuild after a save: "a" is gone
        upper("b")
    assert calls == ["a", "b"]
    upper.values.clear()  # type: ignore[attr-defined]  # as the next process starts
    with memo_module.remembered(tmp_path):
        assert (upper("b"), upper("a")) == ("B", "A")
    assert calls == ["a", "b", "a"]
