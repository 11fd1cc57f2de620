"""`errkb generate`: the same pages without the MkDocs hook (the Zensical path)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from mkdocs.commands.build import build
from mkdocs.config import load_config

from errkb.checks.corpus import load_corpus
from errkb.cli import cli
from errkb.entries.lock import Lock
from errkb.settings import load_settings
from errkb.site.generate import dump_config
from errkb.site.plan import plan_from_corpus
from tests.conftest import EPOCH, TODAY, MakeRepo
from tests.sitecheck import page_file, redirect_target


def test_generate_writes_every_page_and_builds_without_hooks(
    make_repo: MakeRepo, tmp_path: Path
) -> None:
    repo = make_repo()
    out = tmp_path / "gen"
    result = CliRunner().invoke(
        cli, ["generate", "--root", str(repo), "--out", str(out)], env={"SOURCE_DATE_EPOCH": EPOCH}
    )
    assert result.exit_code == 0, result.output
    corpus = load_corpus(repo, today=TODAY, lock=None).corpus
    plan = plan_from_corpus(corpus, load_settings(repo, today=TODAY), Lock())
    for page in plan.pages:
        assert (out / "docs" / page.src_uri).read_text(encoding="utf-8") == page.markdown
    home = (out / "docs" / "index.md").read_text(encoding="utf-8")
    assert "<!-- errkb:" not in home and "| The line you see |" in home
    config_text = (out / "mkdocs.yml").read_text(encoding="utf-8")
    assert "\nhooks:" not in config_text and "errkb_pages" not in config_text

    site = tmp_path / "site"
    build(load_config(str(out / "mkdocs.yml"), strict=True, site_dir=str(site)))
    assert page_file(site, "errors/fixture-kv-cache-too-small/").is_file()
    assert redirect_target(site, "e/E0002/") == "errors/fixture-driver-too-old/"


def test_generate_refuses_to_write_into_docs(make_repo: MakeRepo) -> None:
    repo = make_repo()
    result = CliRunner().invoke(cli, ["generate", "--root", str(repo), "--out", str(repo / "docs")])
    assert result.exit_code == 2
    assert "--out must be outside the sources" in result.output


def test_generated_config_keeps_the_tags_mkdocs_resolves() -> None:
    """Material's emoji and superfences settings use `!!python/name:` and MkDocs has `!ENV`;
    a safe_load would fail on them, a plain dump would drop them."""
    import io

    from mkdocs.utils import yaml_load

    from errkb.site.generate import hook_free_config

    text = (
        "site_name: t\n"
        "hooks: [hooks/x.py]\n"
        "plugins: [search, redirects]\n"
        "markdown_extensions:\n"
        "  - pymdownx.emoji:\n"
        "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n"
        "  - pymdownx.superfences:\n"
        "      custom_fences:\n"
        "        - name: mermaid\n"
        "          format: !!python/name:pymdownx.superfences.fence_code_format\n"
        "extra:\n"
        "  analytics: !ENV [ERRKB_TEST_UNSET, none]\n"
    )
    out = dump_config(hook_free_config(text, {"e/E0001.md": "errors/x.md"}))
    original, generated = yaml_load(io.StringIO(text)), yaml_load(io.StringIO(out))
    assert generated["markdown_extensions"] == original["markdown_extensions"]
    assert generated["extra"] == original["extra"] == {"analytics": "none"}
    assert "hooks" not in generated
    assert generated["plugins"][1] == {
        "redirects": {"redirect_maps": {"e/E0001.md": "errors/x.md"}}
    }
