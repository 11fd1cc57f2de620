"""A first-time contributor's path: errkb new, fill the placeholders, check, lock, strict build."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from errkb.cli import cli
from errkb.entries.scaffold import next_id, slugify
from tests.conftest import MakeRepo
from tests.test_check import run_check
from tests.test_site_build import strict_build

# What a contributor writes in place of each placeholder, by field name.
FILLED = {
    "summary": "The fixture engine refused the request.",
    "versions": '">=0.6.0,<0.9.0"',
    "source": "https://github.com/vllm-project/vllm/issues/1",
    "cause": "The engine checks the request before it runs it.",
    "title": "Send a shorter request",
    "body": "Shorten the prompt.",
    "code": "vllm serve facebook/opt-125m --max-model-len 2048",
    "risk": "Long prompts are cut.",
    "takes": "code",
    "trades": "[context]",
    "url": "https://github.com/vllm-project/vllm/issues/1",
    "by": "a-contributor",
    "vllm": "0.8.5",
    "how": "Read the engine source at v0.8.5.",
}


def fill(text: str) -> str:
    """Replace every quoted placeholder with what FILLED holds for its key."""
    text = re.sub(r'(\{|\b)(\w+): "FILL IN:[^"]*"', lambda m: f"{m[1]}{m[2]}: {FILLED[m[2]]}", text)
    text = text.replace("FILL IN: the command", FILLED["code"])
    assert "FILL IN" not in text
    return text


def test_new_entry_scaffold_to_strict_build(make_repo: MakeRepo, tmp_path: Path) -> None:
    repo = make_repo()
    runner = CliRunner()
    args = ["new", "--root", str(repo), "--title", "vLLM: fixture request refused"]
    args += ["--engine", "vllm", "--category", "serving", "--severity", "error"]
    args += ["--message", "ValueError: the fixture engine refused this request outright"]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    path = repo / "errors" / "E0003.yaml"
    assert result.stdout.strip() == "wrote errors/E0003.yaml"

    # Unfilled, the check names every placeholder with its line, and nothing else.
    code, lines = run_check(repo)
    assert code == 1
    assert lines and all(": still a placeholder: " in line for line in lines), lines
    assert "errors/E0003.yaml:5:10: summary: still a placeholder: " in lines[0]

    path.write_text(fill(path.read_text(encoding="utf-8")), encoding="utf-8")
    assert run_check(repo)[1] == [
        "errors/E0003.yaml:2:5: id: E0003 is not in errors/published.lock yet: run `errkb lock` "
        "to publish its id"
    ]
    assert runner.invoke(cli, ["lock", "--root", str(repo)]).exit_code == 0
    assert run_check(repo) == (0, [])
    site = strict_build(repo, tmp_path / "site")
    assert (site / "errors" / "vllm-fixture-request-refused" / "index.html").is_file()


def test_new_never_reuses_a_published_id(make_repo: MakeRepo) -> None:
    repo = make_repo()
    (repo / "errors" / "E0002.yaml").unlink()  # E0002 stays in published.lock
    assert next_id(repo) == "E0003"


def test_slug_from_title() -> None:
    assert slugify("vLLM: No available memory for the cache blocks") == (
        "vllm-no-available-memory-for-the-cache-blocks"
    )
    assert slugify("Ünïcode & ../../etc/passwd") == "unicode-etc-passwd"
    assert len(slugify("word " * 40)) <= 60
