"""The .github files: schema-valid (check-jsonschema's vendored GitHub schemas) and safe."""

from __future__ import annotations

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
            if "uses" in step:
                assert "@" in step["uses"], f"pin {step['uses']} to a version"
            if step.get("uses", "").startswith("actions/checkout"):
                assert step.get("with", {}).get("persist-credentials") is False
