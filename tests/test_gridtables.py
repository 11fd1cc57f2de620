"""The grid-table extension is a speed-up only: every page renders the same without it."""

from __future__ import annotations

from pathlib import Path

import markdown
import yaml

from calculators.gpus import load_gpus
from calculators.models import load_catalog
from errkb.entries.urls import gpu_uri, model_uri
from errkb.site.fitdata import FitData
from errkb.site.fitpages import gpu_page, model_page, sizing_guide
from errkb.site.gridtables import OPEN

ROOT = Path(__file__).resolve().parent.parent


def _site_markdown() -> tuple[list[str], dict[str, object]]:
    """The Markdown extensions and their options as mkdocs.yml sets them, minus ours."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    names: list[str] = []
    options: dict[str, object] = {}
    for item in config["markdown_extensions"]:
        name, opts = next(iter(item.items())) if isinstance(item, dict) else (item, None)
        if name == "errkb.site.gridtables":
            continue
        names.append(name)
        if opts:
            options[name] = opts
    return names, options


def _convert(text: str, *, stash: bool) -> str:
    names, options = _site_markdown()
    extensions = [*names, "errkb.site.gridtables"] if stash else names
    return markdown.Markdown(extensions=extensions, extension_configs=options).convert(text)


def test_mkdocs_loads_the_extension() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert "errkb.site.gridtables" in config["markdown_extensions"]


def test_every_fit_page_renders_the_same_with_and_without_it(fit: FitData) -> None:
    pages = [gpu_page(fit, g, gpu_uri(g.id)) for g in load_gpus().values()]
    pages += [model_page(fit, m, model_uri(m.id)) for m in load_catalog().values()]
    pages.append(sizing_guide(fit, "gpus/sizing.md"))
    tables = 0
    for text in pages:
        tables += text.count(OPEN)
        assert _convert(text, stash=True) == _convert(text, stash=False)
    # Each GPU and model page has its tables in the stashed form, or nothing is sped up.
    assert tables >= 2 * (len(pages) - 1)


def test_stashed_table_is_not_parsed_as_markdown() -> None:
    text = f"Before.\n\n{OPEN}\n<tr><td>*a*</td></tr>\n</table>\n\nAfter *b*."
    html = _convert(text, stash=True)
    assert "<td>*a*</td>" in html
    assert "<em>b</em>" in html
    assert html == _convert(text, stash=False)


def test_table_in_a_code_fence_stays_code() -> None:
    text = f"```html\n{OPEN}\n<tr><td>x</td></tr>\n</table>\n```\n"
    html = _convert(text, stash=True)
    assert "<table" not in html  # quoted, not a table: highlighted tokens of its source
    assert "&lt;</span>" in html and ">table</span>" in html
    assert html == _convert(text, stash=False)


def test_unclosed_table_is_left_to_markdown() -> None:
    text = f"{OPEN}\n<tr><td>x</td></tr>\n\nText after."
    assert _convert(text, stash=True) == _convert(text, stash=False)
