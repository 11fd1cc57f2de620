"""The method page: marker for the generated table, no template syntax, no dead links."""

from __future__ import annotations

import re
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "calculators" / "method.md"


def test_method_page_has_marker_and_no_template_syntax() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert text.count("<!-- errkb:calc-validation -->") == 1
    assert text.count("<!-- errkb:calc-endtoend -->") == 1
    assert "{{" not in text and "}}" not in text


def test_method_page_links_are_external_or_exist() -> None:
    text = PAGE.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)]+)\)", text):
        if target.startswith(("http://", "https://", "#")):
            continue
        assert (PAGE.parent / target.split("#")[0]).exists(), target
