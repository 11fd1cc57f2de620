"""Entry text is untrusted: every hostile case is refused by `errkb check` or renders inert."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from errkb.cli import cli
from tests.browser import browser_page, chromium_or_skip, serve
from tests.conftest import MakeRepo
from tests.hostile import CASES, Case, write_case
from tests.test_check import run_check
from tests.test_site_build import strict_build

INERT = [c for c in CASES if c.inert]


def test_the_corpus_is_large_and_mixed() -> None:
    assert len(CASES) >= 25
    assert len({c.name for c in CASES}) == len(CASES)
    assert 5 <= len(INERT) < len(CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_case_is_refused_or_accepted_as_declared(make_repo: MakeRepo, case: Case) -> None:
    repo = make_repo()
    write_case(case, repo / "errors")
    code, lines = run_check(repo)
    if case.inert:
        assert (code, lines) == (0, []), f"{case.name}: {lines}"
        return
    assert code == 1
    mine = [line for line in lines if line.startswith("errors/E0001.yaml:")]
    assert mine, lines
    assert any((case.rejected or "") in line for line in mine), mine


def _copy(case: Case, number: int) -> tuple[str, str]:
    """The case as entry E01nn with its own id, slug and message wordings."""
    text = case.content.decode("utf-8")
    text = text.replace("id: E0001", f"id: E01{number:02d}", 1)
    text = text.replace("slug: fixture-kv-cache-too-small", f"slug: hostile-{case.name}", 1)
    text = text.replace("fixture message with", f"fixture message {case.name} with")
    text = text.replace("second wording", f"second wording {case.name}")
    return f"E01{number:02d}.yaml", text


class _Active(HTMLParser):
    """Collects every place a payload could run: script bodies, attribute values, URLs."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._in_script = tag == "script"
        for name, value in attrs:
            value = value or ""
            if name.startswith("on"):  # no page of ours has inline handlers
                self.found.append(f"<{tag} {name}={value!r}>")
            if name in ("href", "src") and value.strip().lower().startswith(
                ("javascript:", "data:")
            ):
                self.found.append(f"<{tag} {name}={value!r}>")

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and "__pwned" in data:
            self.found.append(f"<script>{data[:80]}")


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.conftest import FIXTURES, copy_skeleton

    repo = copy_skeleton(tmp_path_factory.mktemp("hostile"))
    for src in sorted((FIXTURES / "valid").glob("*.yaml")):
        (repo / "errors" / src.name).write_bytes(src.read_bytes())
    for number, case in enumerate(INERT, start=1):
        name, text = _copy(case, number)
        (repo / "errors" / name).write_text(text, encoding="utf-8")
    assert CliRunner().invoke(cli, ["lock", "--root", str(repo)]).exit_code == 0
    assert run_check(repo) == (0, [])
    return strict_build(repo, repo.parent / "site")


@pytest.mark.parametrize("case", INERT, ids=lambda c: c.name)
def test_inert_case_html_has_no_active_payload(hostile_site: Path, case: Case) -> None:
    html = (hostile_site / "errors" / f"hostile-{case.name}" / "index.html").read_text("utf-8")
    parser = _Active()
    parser.feed(html)
    assert parser.found == [], case.name
    if case.name == "macro-syntax":
        assert "{{ config.site_name }}" in html and "{% include" in html
    if case.name == "snippet-include":
        assert "root:" not in html and "--8&lt;--" in html


def test_no_payload_runs_in_a_browser(hostile_site: Path) -> None:
    chromium_or_skip()
    dialogs: list[str] = []
    with serve(hostile_site) as base, browser_page() as page:
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        for case in INERT:
            page.goto(f"{base}errors/hostile-{case.name}/")
            page.wait_for_load_state("load")
            # Hover and click what a reader would: links and code blocks.
            for link in page.query_selector_all("article a")[:20]:
                link.hover()
            assert page.evaluate("() => window.__pwned === undefined"), case.name
    assert dialogs == []
