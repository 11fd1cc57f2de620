"""The .github files: schema-valid (check-jsonschema's vendored GitHub schemas) and safe."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
GITHUB = ROOT / ".github"
WORKFLOWS = sorted((GITHUB / "workflows").glob("*.yml"))
FORMS = sorted(p for p in (GITHUB / "ISSUE_TEMPLATE").glob("*.yml") if p.name != "config.yml")


def check_jsonschema(schema: str, files: list[Path]) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("check-jsonschema") or str(Path(sys.executable).parent / "check-jsonschema")
    return subprocess.run(
        [exe, "--builtin-schema", schema, *map(str, files)],
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize(
    ("schema", "files"),
    [
        ("vendor.github-workflows", WORKFLOWS),
        ("vendor.github-issue-forms", FORMS),
        ("vendor.github-issue-config", [GITHUB / "ISSUE_TEMPLATE" / "config.yml"]),
    ],
    ids=["workflows", "issue-forms", "issue-config"],
)
def test_github_files_validate(schema: str, files: list[Path]) -> None:
    assert files
    result = check_jsonschema(schema, files)
    assert result.returncode == 0, result.stdout + result.stderr


def test_checker_catches_a_broken_workflow(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yml"
    bad.write_text("on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    stepz: []\n")
    assert check_jsonschema("vendor.github-workflows", [bad]).returncode != 0


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_workflow_policy(path: Path) -> None:
    flow = yaml.safe_load(path.read_text(encoding="utf-8"))
    triggers = flow.get(True, flow.get("on"))  # PyYAML reads the key `on` as True
    assert "pull_request_target" not in (triggers or {}), "forks' code must never get secrets"
    permissions = flow.get("permissions")
    assert isinstance(permissions, dict), "declare the token's permissions explicitly"
    assert permissions.get("contents") == "read"
    for job in flow["jobs"].values():
        for step in job.get("steps", []):
            if step.get("uses", "").startswith("actions/checkout"):
                assert step.get("with", {}).get("persist-credentials") is False


# `uses: owner/repo@<full commit SHA> # vX.Y.Z`: a tag (even @v4.2.2) can be moved to other
# code by whoever controls the action's repository; a commit cannot. The comment says which
# release the SHA is, for people and for update bots.
_USES_RE = re.compile(r"^\s*(?:-\s+)?uses:\s*(\S+)(.*)$")
_PINNED_RE = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+@[0-9a-f]{40}$")
_RELEASE_COMMENT_RE = re.compile(r"^\s+#\s*v\d+(\.\d+)*\s*$")


def unpinned(text: str) -> list[str]:
    """Every `uses:` line not pinned to a full commit SHA with its release in a comment."""
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = _USES_RE.match(line)
        if match is None or match.group(1).startswith("./"):  # an action in this repository
            continue
        target, rest = match.groups()
        if not _PINNED_RE.match(target) or not _RELEASE_COMMENT_RE.match(rest):
            out.append(f"{number}: {line.strip()}")
    return out


def test_pin_policy_refuses_movable_refs() -> None:
    sample = "\n".join(
        [
            "      - uses: actions/checkout@v4",
            "      - uses: actions/checkout@v4.2.2",
            "      - uses: actions/checkout@11d5960a  # v4.4.0",
            "      - uses: actions/checkout@11d5960a326750d5838078e36cf38b85af677262",
            "        uses: actions/deploy-pages@d6db90164ac5ed86f2b6aed7e0febac5b3c0c03e # v4.0.5",
            "      - uses: ./.github/actions/local",
        ]
    )
    assert [line.split(":")[0] for line in unpinned(sample)] == ["1", "2", "3", "4"]


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_every_action_is_pinned_to_a_commit(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert "uses:" in text
    assert unpinned(text) == []
