"""The on-disk memo: what it keeps, when it forgets, and that the lint reads the same through it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from errkb import memo as memo_module


@pytest.fixture(autouse=True)
def _fresh_process(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each test starts as a new process would: nothing held in memory, and the memos these
    # tests declare never join those of the real build.
    monkeypatch.setattr(memo_module, "_persistent", [])
    monkeypatch.delenv("ERRKB_NO_CACHE", raising=False)


def test_the_lint_through_the_memo_reports_what_the_lint_reports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from errkb.checks import flaglint
    from errkb.entries.loader import load_dir

    monkeypatch.setattr(memo_module, "_persistent", [flaglint._lint_shipped])
    monkeypatch.setattr(flaglint._lint_shipped, "values", {})
    root = Path(__file__).parents[1]
    items, problems = load_dir(root / "errors", root, use_cache=False)
    assert not problems and len(items) > 100
    # One command made wrong, so the comparison covers a reported problem too.
    bad = items[0].entry.solutions[0].commands[0]
    object.__setattr__(bad, "code", bad.code + " --no-such-flag-anywhere")
    direct = flaglint.lint_entries(items, flaglint.load_flags())
    assert any("--no-such-flag-anywhere" in d.message for d in direct)

    calls = 0
    real = flaglint.lint_command

    def counted(*args: object, **kwargs: object) -> list[str]:
        nonlocal calls
        calls += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(flaglint, "lint_command", counted)
    monkeypatch.setattr(flaglint._lint_shipped, "values", {})
    with memo_module.remembered(tmp_path):
        assert flaglint.lint_entries(items) == direct
    cold = calls
    assert cold > 0
    flaglint._lint_shipped.values.clear()  # as a new process: read from disk
    with memo_module.remembered(tmp_path):
        assert flaglint.lint_entries(items) == direct
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


def _counted(tmp_path: Path, name: str, fn: Callable[[Any], Any]) -> tuple[Any, list[Any]]:
    """`fn` declared as persistent memo `name` from a source file, and the inputs it computed."""
    source = tmp_path / "code.py"
    if not source.exists():
        source.write_text("v1")
    calls: list[Any] = []

    @memo_module.persistent(name, source)
    def counted(arg: Any) -> Any:
        calls.append(arg)
        return fn(arg)

    return counted, calls


def test_a_long_running_process_saves_what_each_build_used(tmp_path: Path) -> None:
    upper, calls = _counted(tmp_path, "upper", str.upper)
    with memo_module.remembered(tmp_path):  # `mkdocs serve`'s first build
        upper("a")
        upper("b")
    with memo_module.remembered(tmp_path):  # a rebuild after a save: "a" is gone
        upper("b")
    assert calls == ["a", "b"]
    upper.values.clear()  # as the next process starts
    with memo_module.remembered(tmp_path):
        assert (upper("b"), upper("a")) == ("B", "A")
    assert calls == ["a", "b", "a"]


def test_a_nested_run_saves_once_and_a_run_that_uses_a_memo_not_leaves_it(tmp_path: Path) -> None:
    lower, calls = _counted(tmp_path, "lower", str.lower)
    path = tmp_path / memo_module.MEMO_DIR / "lower.pickle"
    with memo_module.remembered(tmp_path):  # a build
        with memo_module.remembered(tmp_path):  # its corpus load
            lower("A")
        assert not path.exists()  # the inner run neither saves nor forgets the outer's use
        lower("B")
    assert memo_module.read_memo(path, lower.version) == {"A": "a", "B": "b"}
    with memo_module.remembered(tmp_path):  # `errkb check`, which never calls it
        pass
    assert memo_module.read_memo(path, lower.version) == {"A": "a", "B": "b"}
    assert calls == ["A", "B"]


def test_an_unreadable_memo_is_ignored_and_rewritten(tmp_path: Path) -> None:
    double, _ = _counted(tmp_path, "double", lambda n: 2 * n)
    path = tmp_path / memo_module.MEMO_DIR / "double.pickle"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a pickle")
    with memo_module.remembered(tmp_path):
        assert double(3) == 6
    assert memo_module.read_memo(path, double.version) == {3: 6}


def test_errkb_no_cache_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ERRKB_NO_CACHE", "1")
    triple, _ = _counted(tmp_path, "triple", lambda n: 3 * n)
    with memo_module.remembered(tmp_path):
        assert triple(3) == 9
    assert not (tmp_path / memo_module.MEMO_DIR).exists()


def test_many_is_one_call_a_key_remembered_and_saved_alike(tmp_path: Path) -> None:
    upper, calls = _counted(tmp_path, "upper-many", str.upper)
    with memo_module.remembered(tmp_path):
        assert upper("a") == "A"
        assert upper.many(["a", "b", "a", "c"]) == ["A", "B", "A", "C"]
    assert calls == ["a", "b", "c"]  # "a" was remembered, "b" computed once
    path = tmp_path / memo_module.MEMO_DIR / "upper-many.pickle"
    assert memo_module.read_memo(path, upper.version) == {"a": "A", "b": "B", "c": "C"}
    upper.values.clear()
    with memo_module.remembered(tmp_path):  # the next process: read back, nothing computed
        assert upper.many(["c"]) == ["C"]
    assert calls == ["a", "b", "c"]
    assert memo_module.read_memo(path, upper.version) == {"c": "C"}  # only what was used
