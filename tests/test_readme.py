"""The README's promises run as written: the issue-bot snippet against a built site's API."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from mkdocs.commands.build import build
from mkdocs.config import load_config

from tests.browser import serve
from tests.conftest import ROOT


def readme_python_blocks() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_the_issue_bot_snippet_finds_the_page(tmp_path: Path) -> None:
    [snippet] = [b for b in readme_python_blocks() if "Matcher(" in b]
    site = tmp_path / "site"
    build(load_config(str(ROOT / "mkdocs.yml"), strict=True, site_dir=str(site)))
    with serve(site) as base:
        code = snippet.replace("https://errkb.github.io/errkb/api/v1/", base + "api/v1/")
        assert code != snippet  # the snippet names the published API, and we pointed it here
        out = io.StringIO()
        body = "vllm-1  | ValueError: No available memory for the cache blocks. Try increasing"
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md", "exec"), {"issue_body": body})
    printed = out.getvalue()
    assert printed.startswith("This looks like [vLLM: No available memory for the cache blocks")
    assert "(https://errkb.github.io/errkb/e/E0001/)" in printed
