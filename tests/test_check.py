"""`errkb check`: every malformed entry yields `file:line:col: field: message`, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from errkb.cli import cli
from tests.conftest import MakeRepo, fixture_text

E1 = fixture_text("E0001.yaml")


def run_check(repo: Path, *args: str) -> tuple[int, list[str]]:
    result = CliRunner().invoke(cli, ["check", "--root", str(repo), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout.splitlines()


def test_valid_fixtures_pass(make_repo: MakeRepo) -> None:
    code, lines = run_check(make_repo())
    assert (code, lines) == (0, [])


CASES = [
    pytest.param(
        E1.replace("summary: The engine", "summary: [The engine"),
        [
            "errors/E0001.yaml:7:9: invalid YAML: while parsing a flow sequence did not find expected "
            "',' or ']'"
        ],
        id="bad-yaml",
    ),
    pytest.param(
        E1.replace("category: memory\n", ""),
        ["errors/E0001.yaml:3:1: category: required field is missing"],
        id="missing-field",
    ),
    pytest.param(
        E1.replace("engines: [vllm, llama.cpp]", "engines: vllm"),
        ["errors/E0001.yaml:8:10: engines: must be a list, got str"],
        id="wrong-type",
    ),
    pytest.param(
        E1.replace("severity: fatal", "severity: fatal\nseverty: high"),
        ["errors/E0001.yaml:10:1: severty: unknown field 'severty' (did you mean 'severity'?)"],
        id="unknown-field",
    ),
    pytest.param(
        E1.replace("severity: fatal", "severity: fatal\nsource: https://example.org/x"),
        [
            "errors/E0001.yaml:10:1: source: field 'source' is not allowed here (other parts of "
            "an entry take it)"
        ],
        id="field-in-the-wrong-place",
    ),
    pytest.param(
        E1.replace("related: [E0002]", "related: [E0002, E0999]"),
        ["errors/E0001.yaml:48:18: related[1]: no entry has id E0999"],
        id="unknown-related",
    ),
    pytest.param(
        E1.replace("[link](https://example.org/doc)", "[the other entry](E0999)"),
        ["errors/E0001.yaml:20:8: cause: links to E0999, which no entry has"],
        id="unknown-entry-link",
    ),
    pytest.param(
        E1.replace("[link](https://example.org/doc)", "[the other entry](E0002.md)"),
        [
            "errors/E0001.yaml:20:8: cause: link target 'E0002.md' is a relative path: use an "
            "https:// URL, or another entry's id, as in [the KV cache entry](E0001)"
        ],
        id="relative-link",
    ),
    pytest.param(
        E1.replace("date: 2026-01-02", "date: 2999-01-02"),
        ["errors/E0001.yaml:53:9: verified.date: 2999-01-02 is in the future (today is {today})"],
        id="future-date",
    ),
    pytest.param(
        E1.replace("url: https://example.org/issues/1", "url: http://example.org/issues/1"),
        ["errors/E0001.yaml:51:10: sources[0].url: URL must use https://"],
        id="non-https-source",
    ),
    pytest.param(
        E1.replace("category: memory", "category: memory\ncategory: driver"),
        ["errors/E0001.yaml:8:1: duplicate key 'category' (first defined on line 7)"],
        id="duplicate-key",
    ),
    pytest.param(
        E1.replace('versions: ">=0.4.0,<0.9.0"', 'versions: "0.4 to 0.9"'),
        [
            "errors/E0001.yaml:14:15: messages[0].versions: '0.4 to 0.9' is not a PEP 440 version range "
            "(e.g. '>=0.6.0,<0.8.0', or '*')"
        ],
        id="bad-version-range",
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_malformed_entry_reports_file_line(
    make_repo: MakeRepo, text: str, expected: list[str]
) -> None:
    import datetime as dt

    repo = make_repo()
    (repo / "errors" / "E0001.yaml").write_text(text, encoding="utf-8")
    code, lines = run_check(repo)
    today = dt.datetime.now(tz=dt.UTC).date().isoformat()
    assert code == 1
    assert lines == [line.format(today=today) for line in expected]


def test_duplicate_id_reported(make_repo: MakeRepo) -> None:
    repo = make_repo(lock=False)
    text = (
        fixture_text("E0002.yaml")
        .replace("id: E0002", "id: E0001")
        .replace("slug: fixture-driver-too-old", "slug: another")
        .replace("related: [E0001]\n", "")
    )
    (repo / "errors" / "E0002.yaml").write_text(text, encoding="utf-8")
    _, lines = run_check(repo)
    assert "errors/E0002.yaml:2:5: id: id E0001 does not match the file name E0002.yaml" in lines
    assert "errors/E0002.yaml:2:5: id: id E0001 is already used by errors/E0001.yaml" in lines


def test_every_problem_reported_at_once(make_repo: MakeRepo) -> None:
    repo = make_repo()
    bad1 = E1.replace("category: memory\n", "").replace("related: [E0002]", "related: [E0999]")
    (repo / "errors" / "E0001.yaml").write_text(bad1, encoding="utf-8")
    (repo / "errors" / "E0002.yaml").write_text("id: [unclosed\n", encoding="utf-8")
    code, lines = run_check(repo)
    assert code == 1
    assert lines == [
        "errors/E0001.yaml:3:1: category: required field is missing",
        # Checked although E0001 fails validation: no second round to find it.
        "errors/E0001.yaml:47:11: related[0]: no entry has id E0999",
        lines[2],
    ]
    assert lines[2].startswith("errors/E0002.yaml:2:1: invalid YAML: ")


def test_github_format_exact_annotations(make_repo: MakeRepo, tmp_path: Path) -> None:
    repo = make_repo()
    (repo / "errors" / "E0001.yaml").write_text(
        E1.replace("related: [E0002]", "related: [E0002, E0999]"), encoding="utf-8"
    )
    summary = tmp_path / "summary.md"
    result = CliRunner(env={"GITHUB_STEP_SUMMARY": str(summary)}).invoke(
        cli, ["check", "--root", str(repo), "--format", "github"]
    )
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "::error file=errors/E0001.yaml,line=48,col=18,title=errkb%3A related[1]::no entry has id E0999"
    ]
    assert "| errors/E0001.yaml | 48 | related[1] | no entry has id E0999 |" in summary.read_text()


def test_unexpected_files_in_errors_dir(make_repo: MakeRepo) -> None:
    repo = make_repo()
    (repo / "errors" / "notes.txt").write_text("hello", encoding="utf-8")
    (repo / "errors" / "sub").mkdir()
    _, lines = run_check(repo)
    assert lines == [
        "errors/notes.txt:1:1: entry files are named after their id, e.g. errors/E0042.yaml",
        "errors/sub:1:1: errors/ holds only entry files, no directories",
    ]


def test_non_utf8_and_binary(make_repo: MakeRepo) -> None:
    repo = make_repo(lock=False)
    (repo / "errors" / "E0003.yaml").write_bytes(b"id: E0003\ntitle: caf\xe9\n")
    (repo / "errors" / "E0004.yaml").write_bytes(b"\x00\x01\x02")
    _, lines = run_check(repo)
    assert "errors/E0003.yaml:2:1: file is not valid UTF-8" in lines
    assert "errors/E0004.yaml:1:1: file contains NUL bytes (binary file?)" in lines


def test_alias_bomb_is_refused(make_repo: MakeRepo) -> None:
    repo = make_repo(lock=False)
    levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    levels += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 8)]
    (repo / "errors" / "E0003.yaml").write_text("\n".join(levels) + "\n", encoding="utf-8")
    _, lines = run_check(repo)
    assert any(line.startswith("errors/E0003.yaml:") and "alias bomb" in line for line in lines)


def test_symlink_out_of_errors_is_refused(make_repo: MakeRepo, tmp_path: Path) -> None:
    repo = make_repo(lock=False)
    secret = tmp_path / "secret.yaml"
    secret.write_text(E1.replace("E0001", "E0003"), encoding="utf-8")
    (repo / "errors" / "E0003.yaml").symlink_to(secret)
    _, lines = run_check(repo)
    assert "errors/E0003.yaml:1:1: symbolic links are not allowed (points outside errors/)" in lines


def test_no_traceback_from_the_console_script(make_repo: MakeRepo) -> None:
    repo = make_repo()
    (repo / "errors" / "E0001.yaml").write_text("id: E0001\n: : :\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "errkb.cli", "check", "--root", str(repo)],
        capture_output=True,
        text=True,
        env={**os.environ},
        check=False,
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stdout + proc.stderr
    assert proc.stdout.startswith("errors/E0001.yaml:2:")


def test_shared_message_needs_mutual_related(make_repo: MakeRepo) -> None:
    repo = make_repo()
    shared = '  - text: |-\n      ValueError: fixture message with {{ braces }} and `backticks` and <angle> | pipe\n    engine: pytorch\n    versions: "*"\n    source: https://example.org/x\ncause:'
    two = fixture_text("E0002.yaml").replace("cause:", shared, 1)
    (repo / "errors" / "E0002.yaml").write_text(
        two.replace("related: [E0001]\n", ""), encoding="utf-8"
    )
    _, lines = run_check(repo)
    assert lines == [
        "errors/E0002.yaml:15:11: messages[1].text: the same message is in errors/E0001.yaml: list "
        "each entry in the other's `related`, or tell the wordings apart"
    ]
    (repo / "errors" / "E0002.yaml").write_text(two, encoding="utf-8")
    assert run_check(repo) == (0, [])


def test_pattern_that_matches_another_entrys_message(make_repo: MakeRepo) -> None:
    repo = make_repo()
    greedy = '  - regex: "fixture message with"\n    engine: vllm\ncause:'
    two = fixture_text("E0002.yaml").replace("cause:", "patterns:\n" + greedy, 1)
    (repo / "errors" / "E0002.yaml").write_text(
        two.replace("related: [E0001]\n", ""), encoding="utf-8"
    )
    _, lines = run_check(repo)
    assert lines == [
        "errors/E0002.yaml:16:12: patterns[0].regex: also matches message 1 of E0001 (Fixture: KV "
        "cache too small): a paste of that message would land here; make the pattern more specific"
    ]
    # Mutually related entries may share wordings, as they may share messages.
    (repo / "errors" / "E0002.yaml").write_text(two, encoding="utf-8")
    assert run_check(repo) == (0, [])
    # A generic pattern only ever gives a possible match, below the entry whose message it is.
    generic = greedy.replace("engine: vllm\n", "engine: vllm\n    generic: true\n")
    three = fixture_text("E0002.yaml").replace("cause:", "patterns:\n" + generic, 1)
    (repo / "errors" / "E0002.yaml").write_text(
        three.replace("related: [E0001]\n", ""), encoding="utf-8"
    )
    assert run_check(repo) == (0, [])


def test_pattern_without_fixed_text_is_refused(make_repo: MakeRepo) -> None:
    """Such a pattern cannot be prefiltered: every line of every log is searched for it."""
    repo = make_repo()
    split = '  - regex: "(first wording|second wording): \\\\d+"\n    engine: pytorch\ncause:'
    two = fixture_text("E0002.yaml").replace("cause:", "patterns:\n" + split, 1)
    (repo / "errors" / "E0002.yaml").write_text(two, encoding="utf-8")
    _, lines = run_check(repo)
    assert lines == [
        "errors/E0002.yaml:16:12: patterns[0].regex: holds no fixed text (4 letters or more, "
        "outside groups and classes) that every match contains, so it is searched on every line "
        "of every log: begin it with fixed text, or split an alternation into one pattern per "
        "branch"
    ]
    # One pattern per branch: each has its fixed text.
    fixed = split.replace("(first wording|second wording)", "first wording")
    (repo / "errors" / "E0002.yaml").write_text(
        fixture_text("E0002.yaml").replace("cause:", "patterns:\n" + fixed, 1), encoding="utf-8"
    )
    assert run_check(repo) == (0, [])


@pytest.mark.parametrize(
    ("regex", "why"),
    [
        ("address (?>already) in use", "invalid group"),  # atomic group: Python 3.11 only
        ("(address)? (?(1)already|not) in use", "invalid group"),  # conditional group
        ("(?i)address already in use", "invalid group"),  # inline flag (also in the hand list)
    ],
)
def test_pattern_javascript_refuses(make_repo: MakeRepo, regex: str, why: str) -> None:
    """Python compiles these; `new RegExp` in the paste page would throw on them."""
    repo = make_repo()
    pattern = f'patterns:\n  - regex: "{regex}"\n    engine: pytorch\ncause:'
    two = fixture_text("E0002.yaml").replace("cause:", pattern, 1)
    (repo / "errors" / "E0002.yaml").write_text(two, encoding="utf-8")
    code, lines = run_check(repo)
    assert code == 1
    assert len(lines) == 1, lines
    assert lines[0].startswith("errors/E0002.yaml:16:12: patterns[0].regex: "), lines
    assert lines[0].endswith(why) or why in lines[0], lines


def test_fit_table_names_catalog_models_and_tabled_engines(make_repo: MakeRepo) -> None:
    repo = make_repo()
    two = fixture_text("E0002.yaml").replace(
        "related: [E0001]",
        "fit:\n  models: [llama-3.1-8b, no-such-model]\n  engines: [tgi]\nrelated: [E0001]",
    )
    (repo / "errors" / "E0002.yaml").write_text(two, encoding="utf-8")
    _, lines = run_check(repo)
    assert lines == [
        "errors/E0002.yaml:23:26: fit.models[1]: 'no-such-model' is not in the model catalog "
        "(calculators/data/models.yaml)",
        "errors/E0002.yaml:24:13: fit.engines[0]: 'tgi' has no fit-table settings (vllm, sglang, "
        "llama.cpp, ollama)",
    ]


def test_new_entries_say_what_each_fix_costs(make_repo: MakeRepo) -> None:
    from errkb.checks.corpus import load_corpus
    from errkb.checks.costs import missing_costs
    from tests.conftest import TODAY

    items = list(load_corpus(make_repo(), today=TODAY, lock=None).corpus.items)
    assert missing_costs(items, published={i.entry.id for i in items}) == []
    from dataclasses import replace

    e2 = next(i for i in items if i.entry.id == "E0002")
    assert missing_costs([e2], published=set()) == []  # the fixture states both
    bare = e2.entry.model_copy(
        update={
            "solutions": [
                s.model_copy(update={"takes": None, "trades": []}) for s in e2.entry.solutions
            ]
        }
    )
    found = missing_costs([replace(e2, entry=bare)], published=set())
    line = e2.position("solutions", 0)[0]
    assert [d.render() for d in found][:2] == [
        f"errors/E0002.yaml:{line}:5: solutions[0].takes: a new entry says what each fix takes: "
        "add `takes:` (see docs/contributing.md#rules)",
        f"errors/E0002.yaml:{line}:5: solutions[0].trades: a new entry says what each fix gives "
        "up: add `trades:` (see docs/contributing.md#rules)",
    ]


def test_cost_line_reads_as_a_sentence() -> None:
    from errkb.entries.schema import Solution
    from errkb.site.render import cost_line

    s = Solution(anchor="a", title="t", body="b", takes="setting", trades=["context", "throughput"])
    assert cost_line(s) == "Takes a setting and a restart · gives up context length, throughput"
    assert cost_line(Solution(anchor="a", title="t", body="b")) is None
    with pytest.raises(ValueError, match="'nothing' cannot be listed"):
        Solution(anchor="a", title="t", body="b", trades=["nothing", "context"])


def test_one_run_reports_every_stage_together(make_repo: MakeRepo) -> None:
    """A schema error, a placeholder beside a schema error, an unknown related id, a cross-field
    rule and a bad lock line: one `errkb check` run names them all, each at its own line."""
    repo = make_repo()
    (repo / "errors" / "E0001.yaml").write_text(
        E1.replace("category: memory\n", "category: memroy\n"), encoding="utf-8"
    )
    two = fixture_text("E0002.yaml").replace("related: [E0001]", "related: [E0001, E0999]")
    two = two.replace("anchor: upgrade-driver", "anchor: cause")  # a page section's anchor
    (repo / "errors" / "E0002.yaml").write_text(two, encoding="utf-8")
    scaffold = (
        fixture_text("E0002.yaml")
        .replace("E0002", "E0003")
        .replace("slug: fixture-driver-too-old", "slug: fixture-three")
        .replace("former_slugs: [fixture-old-driver]\n", "")
        .replace("summary: The CUDA driver", "summary: 'FILL IN: one line'\n# The CUDA driver")
        .replace("severity: fatal", "severity: deadly")
    )
    (repo / "errors" / "E0003.yaml").write_text(scaffold, encoding="utf-8")
    lock = repo / "errors" / "published.lock"
    lock.write_text(lock.read_text(encoding="utf-8") + "E0004 Bad Slug\n", encoding="utf-8")
    bad_line = len(lock.read_text(encoding="utf-8").splitlines())
    code, lines = run_check(repo)
    assert code == 1
    assert lines == [
        "errors/E0001.yaml:7:11: category: must be one of 'memory', 'driver', 'multi-gpu', "
        "'model', 'serving' or 'install'; got 'memroy'",
        "errors/E0002.yaml:17:13: solutions[0].anchor: solution anchors clash with page "
        "sections: cause",
        "errors/E0002.yaml:22:18: related[1]: no entry has id E0999",
        "errors/E0003.yaml:5:10: summary: still a placeholder: one line",
        "errors/E0003.yaml:9:11: severity: must be one of 'fatal', 'error', 'hang' or "
        "'warning'; got 'deadly'",
        f"errors/published.lock:{bad_line}:1: not a lock record (`E0042 slug ...` or "
        "`page url/`): 'E0004 Bad Slug'",
    ]
