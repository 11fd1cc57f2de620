"""Strict MkDocs builds, in a temp dir, of the fixture corpus and of the real one."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config

from errkb.checks.corpus import load_corpus
from errkb.site.icons import ICONS, SPRITE, symbol_id
from tests.conftest import ROOT, TODAY, MakeRepo, fixture_text
from tests.sitecheck import (
    differences,
    internal_links,
    locked_urls,
    page_file,
    parse,
    redirect_target,
    resolves,
)


def strict_build(repo: Path, site: Path) -> Path:
    config = load_config(str(repo / "mkdocs.yml"), strict=True, site_dir=str(site))
    build(config)
    return site


@pytest.fixture(scope="module")
def real_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return strict_build(ROOT, tmp_path_factory.mktemp("real") / "site")


@pytest.fixture
def fixture_site(make_repo: MakeRepo, tmp_path: Path) -> tuple[Path, Path]:
    repo = make_repo()
    return repo, strict_build(repo, tmp_path / "site")


def test_every_entry_file_yields_one_page(real_site: Path) -> None:
    files = sorted((ROOT / "errors").glob("E*.yaml"))
    result = load_corpus(ROOT, today=TODAY, lock=None)
    assert len(result.corpus.items) == len(files)
    pages = sorted(p.parent.name for p in (real_site / "errors").glob("*/index.html"))
    slugs = {item.entry.slug for item in result.corpus.items}
    former = {s for item in result.corpus.items for s in item.entry.former_slugs}
    # Every entry page is there, and every other page under errors/ is a former-slug redirect.
    assert slugs <= set(pages)
    assert set(pages) - slugs == former
    for item in result.corpus.items:
        html = page_file(real_site, f"errors/{item.entry.slug}/").read_text()
        assert f"<strong>{item.entry.id}</strong>" in html
        evidence = page_file(real_site, f"errors/{item.entry.slug}/evidence/").read_text()
        assert f"Evidence for {item.entry.id}" in evidence


def test_every_published_url_resolves(real_site: Path) -> None:
    missing = [url for url in locked_urls(ROOT) if not resolves(real_site, url)]
    assert missing == []


def test_real_site_links_and_short_urls(real_site: Path) -> None:
    result = load_corpus(ROOT, today=TODAY, lock=None)
    for item in result.corpus.items:
        entry = item.entry
        assert redirect_target(real_site, f"e/{entry.id}/") == f"errors/{entry.slug}/"
        for target, fragment in internal_links(real_site, f"errors/{entry.slug}/"):
            assert resolves(real_site, target), (entry.id, target)
            if fragment:
                assert fragment in parse(page_file(real_site, target)).ids, (
                    entry.id,
                    target,
                    fragment,
                )


# The widgets' scripts, by the element each one starts from.
WIDGET_SCRIPTS = {
    'id="errkb-match"': "matcher.js",
    'id="errkb-fit': "fit.js",
    'class="errkb-filter"': "home.js",
    'id="errkb-search"': "search.js",
}


def test_each_page_loads_the_scripts_of_its_widgets_and_no_others(real_site: Path) -> None:
    pages = sorted(real_site.rglob("*.html"))
    loaded: dict[str, int] = {}
    for html_file in pages:
        html = html_file.read_text(encoding="utf-8")
        for marker, script in WIDGET_SCRIPTS.items():
            has_widget = marker in html
            has_script = f"javascripts/{script}" in html
            assert has_widget == has_script, (html_file.relative_to(real_site), script)
            loaded[script] = loaded.get(script, 0) + has_script
    # Every script is loaded somewhere (the markers above are not stale), entry pages by none.
    assert set(loaded) == set(WIDGET_SCRIPTS.values()) and all(loaded.values()), loaded
    entry = page_file(real_site, "errors/cuda-oom-long-context/").read_text(encoding="utf-8")
    assert not any(f"javascripts/{s}" in entry for s in WIDGET_SCRIPTS.values())


_USE_RE = re.compile(r'<use href="([^"#]*)#([^"]+)"')


def test_every_icon_a_page_draws_is_in_the_sprite(real_site: Path) -> None:
    symbols = set(re.findall(r'<symbol id="([^"]+)"', (real_site / SPRITE).read_text()))
    assert symbols == {symbol_id(icon) for icon in ICONS}
    drawn: set[str] = set()
    for html_file in sorted(real_site.rglob("*.html")):
        html = html_file.read_text(encoding="utf-8")
        assert "<path" not in html.split("<article", 1)[0], html_file  # no inline chrome icon
        for href, symbol in _USE_RE.findall(html):
            # 404.html links from the site's root path: it is served at any depth.
            base = real_site if href.startswith("/errkb/") else html_file.parent
            where = (base / href.removeprefix("/errkb/")).resolve()
            assert where == (real_site / SPRITE).resolve(), (html_file, href)
            drawn.add(symbol)
    assert drawn == symbols  # and the sprite carries none that no page draws


def test_related_backlinks_aliases_and_short_urls(fixture_site: tuple[Path, Path]) -> None:
    _, site = fixture_site
    one = "errors/fixture-kv-cache-too-small/"
    two = "errors/fixture-driver-too-old/"
    assert ("errors/fixture-driver-too-old/", "") in internal_links(site, one)
    # E0001 lists E0002 as related, so E0002's evidence page shows the backlink (and vice
    # versa), and its page counts it.
    evidence = page_file(site, two + "evidence/").read_text()
    backlinks = evidence[evidence.index('id="backlinks"') :]
    assert 'href="../../fixture-kv-cache-too-small/"' in backlinks
    assert ("errors/fixture-driver-too-old/evidence/", "") in internal_links(site, two)
    assert "1 entry that links here" in page_file(site, two).read_text()
    assert redirect_target(site, "errors/fixture-old-driver/evidence/") == two + "evidence/"
    doc = json.loads((site / "api" / "v1" / "entries" / "E0002.json").read_text())
    base = "https://errkb.github.io/errkb/"
    assert doc["evidence_url"] == base + two + "evidence/" and resolves(site, two + "evidence/")
    assert redirect_target(site, "e/E0001/") == one
    assert redirect_target(site, "e/E0002/") == two
    assert redirect_target(site, "errors/fixture-old-driver/") == two
    for anchor in (
        "messages",
        "cause",
        "quick-check",
        "solutions",
        "raise-utilization",
        "shorten-context",
        "example",
        "alternatives",
        "bigger-gpu",
        "related",
        "sources",
        "verified",
        "feedback",
    ):
        assert anchor in parse(page_file(site, one)).ids
    assert {"sources", "verified", "backlinks"} <= parse(page_file(site, one + "evidence/")).ids


def test_index_pages_list_entries(fixture_site: tuple[Path, Path]) -> None:
    _, site = fixture_site
    home = page_file(site, "").read_text()
    assert "fixture: The NVIDIA driver on your system is too old" in home  # triage row
    assert 'href="errors/fixture-driver-too-old/"' in home
    vllm = page_file(site, "engines/vllm/").read_text()
    assert 'href="../../errors/fixture-kv-cache-too-small/"' in vllm
    assert "fixture-driver-too-old" not in vllm
    memory = page_file(site, "categories/memory/").read_text()
    assert "fixture-kv-cache-too-small" in memory and "fixture-driver-too-old" not in memory


def test_edit_button_opens_the_yaml(fixture_site: tuple[Path, Path]) -> None:
    _, site = fixture_site
    html = page_file(site, "errors/fixture-kv-cache-too-small/").read_text()
    assert (
        'href="https://github.com/errkb/errkb/edit/main/errors/E0001.yaml" title="Edit this page"'
        in html
    )


def test_message_braces_are_not_macro_rendered(fixture_site: tuple[Path, Path]) -> None:
    _, site = fixture_site
    html = page_file(site, "errors/fixture-kv-cache-too-small/").read_text()
    assert "fixture message with {{ braces }}" in html


def test_a_cold_build_of_the_fit_tables_writes_what_a_warm_one_does(
    make_repo: MakeRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the fit parts cold, a child process computes them while MkDocs reads the other
    pages: the site is the same, byte for byte, as one built from the cache."""
    import errkb.site.fitcache as fitcache
    import errkb.site.fitplan as fitplan

    fit = "fit:\n  engines: [vllm]\n  models: [llama-3.1-8b, qwen3-14b]\n"
    repo = make_repo({"E0001.yaml": fixture_text("E0001.yaml") + fit})  # warms the cache
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1790000000")
    warm = strict_build(repo, tmp_path / "warm")
    for path in (repo / ".cache" / "errkb").glob("*.json"):
        path.unlink()
    monkeypatch.setattr(fitcache, "_memo", {})
    monkeypatch.setattr(fitplan.os, "cpu_count", lambda: 2)
    waited: list[int] = []
    parts = fitplan.Pending.parts

    def counted(self: fitplan.Pending) -> fitcache.FitParts:
        waited.append(1)
        return parts(self)

    monkeypatch.setattr(fitplan.Pending, "parts", counted)
    cold = strict_build(repo, tmp_path / "cold")
    assert waited == [1], "the cold build did not take its fit parts from the child"
    entry = page_file(cold, "errors/fixture-kv-cache-too-small/").read_text()
    assert 'href="../../models/qwen3-14b/"' in entry  # its fit table
    assert differences(warm, cold) == []


def _failing_build(
    repo: Path, site: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """A strict build in a fresh process, as CI runs it, expected to fail."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})},
    )


@pytest.mark.parametrize("cache", ["warm", "cold"])
def test_a_chart_older_than_its_data_fails_the_build(
    make_repo: MakeRepo, tmp_path: Path, cache: str
) -> None:
    """Whether the fit parts come from the cache (the plan is whole when the build starts) or
    from the child process (the plan completes while MkDocs reads the pages)."""
    repo = make_repo()
    chart = repo / "docs" / "assets" / "charts" / "gpus" / "h100-80gb.svg"
    chart.write_text("<!-- errkb chart, spec digest 0 -->\n<svg/>", encoding="utf-8")
    if cache == "cold":
        for path in (repo / ".cache" / "errkb").glob("*.json"):
            path.unlink()
    result = _failing_build(repo, tmp_path / "site")
    assert result.returncode != 0
    assert "docs/assets/charts/gpus/h100-80gb.svg:1:1: chart is out of date" in result.stderr


def test_broken_entry_fails_the_build_with_file_line(make_repo: MakeRepo, tmp_path: Path) -> None:
    repo = make_repo()
    (repo / "errors" / "E0001.yaml").write_text(
        fixture_text("E0001.yaml").replace("related: [E0002]", "related: [E0002, E0999]"),
        encoding="utf-8",
    )
    proc = _failing_build(repo, tmp_path / "s")
    assert proc.returncode != 0
    assert "errors/E0001.yaml:48:18: related[1]: no entry has id E0999" in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


def test_an_entry_over_the_page_budget_fails_the_build_naming_its_file(
    make_repo: MakeRepo, tmp_path: Path
) -> None:
    repo = make_repo()
    # About 19 KB more prose in one section (the schema's most for a field is 20,000 characters).
    long = "\n".join(f"  Sentence {i} of a cause that explains far too much." for i in range(350))
    text = fixture_text("E0001.yaml")
    cause = "cause: |-\n  The KV cache is what remains after weights and activations."
    assert cause in text
    (repo / "errors" / "E0001.yaml").write_text(text.replace(cause, f"{cause}\n{long}"))
    proc = _failing_build(repo, tmp_path / "s", {"GITHUB_ACTIONS": "true"})
    assert proc.returncode != 0
    # At the field behind the heaviest section: the `cause:` value, line 20 of the fixture.
    assert re.search(
        r"errors/E0001\.yaml:20:8: cause: its page is 3\d\.\d KB of HTML, over the 30 KB an entry "
        r"page may weigh \(largest sections: Why it happens 1\d\.\d KB, ",
        proc.stderr,
    ), proc.stderr
    # In GitHub Actions the same problem is also an annotation on the pull request's diff.
    assert re.search(
        r"^::error file=errors/E0001\.yaml,line=20,col=8,title=errkb%3A cause::its page is",
        proc.stdout,
        re.M,
    ), proc.stdout
    assert "E0002" not in proc.stderr.split("over the 30 KB")[0]  # the other entry is within
    assert "Traceback" not in proc.stderr + proc.stdout


def test_list_pages_split_and_link_each_page(
    make_repo: MakeRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One entry per page makes every list paginate: the strict build checks each pager link,
    and every entry is listed exactly once across the pages."""
    import errkb.site.indexes as indexes

    monkeypatch.setattr(indexes, "LIST_PAGE_ENTRIES", 1)
    monkeypatch.setattr(indexes, "ENGINE_PAGE_ENTRIES", 1)
    repo = make_repo()
    site = strict_build(repo, tmp_path / "site")
    first = (site / "errors" / "index.html").read_text(encoding="utf-8")
    second = (site / "errors" / "page" / "2" / "index.html").read_text(encoding="utf-8")
    assert "Page 1 of 2" in first and "Page 2 of 2" in second
    assert ("E0001" in first) != ("E0001" in second) and ("E0002" in first) != ("E0002" in second)
    assert (site / "engines" / "vllm" / "index.html").is_file()


def test_list_pages_stay_small_at_any_corpus_size(make_repo: MakeRepo) -> None:
    """At 3,000 entries no list page grows past what 250 (or, for engines, 40) entries need."""
    from errkb.checks.corpus import load_corpus
    from errkb.site.indexes import category_page, engine_page, errors_index
    from tests.conftest import TODAY

    corpus = load_corpus(make_repo(), today=TODAY, lock=None).corpus
    one = corpus.by_id()["E0001"]
    many = [one.model_copy(update={"id": f"E{i:04d}", "slug": f"s{i}"}) for i in range(1, 3001)]
    big = replace(corpus, items=tuple(replace(corpus.items[0], entry=e) for e in many))
    pages = errors_index(big) + category_page(big, one.category) + engine_page(big, "vllm")
    assert len(pages) == 12 + 12 + 75
    assert max(len(markdown) for _, markdown in pages) < 100_000
    listed = [
        uri for uri, markdown in errors_index(big) for e in many[:3] if f"| {e.id} |" in markdown
    ]
    assert len(listed) == 3
