"""The entry page renderer: a snapshot of one page, and the escaping of untrusted text."""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml

from calculators.grid import COMBOS
from errkb.checks.corpus import load_corpus
from errkb.entries.schema import Command
from errkb.mdtext import code_span, escape, fenced
from errkb.settings import load_settings
from errkb.site.fitdata import FitData
from errkb.site.fitpages import TABLE_GPUS, fit_table, fmt_tokens
from errkb.site.plan import entry_pages
from errkb.site.render import FEEDBACK_FORM, _command_tabs, feedback_url
from tests.conftest import ROOT, TODAY, MakeRepo

SNAPSHOTS = Path(__file__).parent / "snapshots"


@pytest.mark.parametrize(
    ("src_uri", "snapshot"),
    [
        ("errors/fixture-kv-cache-too-small.md", "E0001.md"),
        ("errors/fixture-kv-cache-too-small/evidence.md", "E0001-evidence.md"),
    ],
)
def test_entry_page_snapshot(
    make_repo: MakeRepo, fit: FitData, src_uri: str, snapshot: str
) -> None:
    """Regenerate with UPDATE_SNAPSHOTS=1 after a deliberate change, and review the diff."""
    repo = make_repo()
    corpus = load_corpus(repo, today=TODAY, lock=None).corpus
    pages = {
        p.src_uri: p.markdown for p in entry_pages(corpus, load_settings(repo, today=TODAY), fit)
    }
    page = pages[src_uri]
    if os.environ.get("UPDATE_SNAPSHOTS"):
        (SNAPSHOTS / snapshot).write_text(page, encoding="utf-8")
    assert page == (SNAPSHOTS / snapshot).read_text(encoding="utf-8")


def test_escape_keeps_markup_literal() -> None:
    assert escape("a *b* [c](d) {#x} | e_f") == r"a \*b\* \[c\]\(d\) \{\#x\} \| e\_f"


def test_code_span_survives_backticks() -> None:
    assert code_span("a `b` c") == "`` a `b` c ``"
    assert code_span("plain") == "`plain`"


def test_fence_longer_than_any_backtick_run() -> None:
    block = fenced("```\nbreak out\n````", "text")
    assert block.startswith("`````text\n") and block.endswith("\n`````")


def test_entry_id_links_become_page_links(make_repo: MakeRepo, fit: FitData) -> None:
    from tests.conftest import fixture_text

    text = fixture_text("E0001.yaml").replace(
        "[link](https://example.org/doc)",
        "[the other entry](E0002) and, as code, `[x](E0002)`",
    )
    repo = make_repo({"E0001.yaml": text})
    corpus = load_corpus(repo, today=TODAY, lock=None).corpus
    pages = {
        p.src_uri: p.markdown for p in entry_pages(corpus, load_settings(repo, today=TODAY), fit)
    }
    page = pages["errors/fixture-kv-cache-too-small.md"]
    slug = next(e.slug for e in corpus.entries if e.id == "E0002")
    assert f"[the other entry]({slug}.md)" in page
    assert "`[x](E0002)`" in page  # literal inside code


def test_resolve_leaves_code_and_unknown_ids() -> None:
    from errkb.entries.links import linked_ids, resolve

    text = (
        'See [a](E0001), [b](E0002 "title"), [c](<E0003>) and `[d](E0004)`.\n\n'
        "```text\n[e](E0005)\n```\n\n[ref]: E0006\n"
    )
    assert linked_ids(text) == ["E0001", "E0002", "E0003", "E0006"]
    urls = {"E0001": "one.md", "E0002": "two.md", "E0006": "six.md"}
    out = resolve(text, urls.get)
    assert "[a](one.md)" in out and '[b](two.md "title")' in out and "[ref]: six.md" in out
    assert "[c](<E0003>)" in out  # unknown ids are kept (the corpus check reports them)
    assert "`[d](E0004)`" in out and "[e](E0005)" in out


def test_a_prose_link_is_a_backlink(make_repo: MakeRepo) -> None:
    from tests.conftest import fixture_text

    e1 = fixture_text("E0001.yaml").replace("related: [E0002]", "related: []")
    e2 = fixture_text("E0002.yaml").replace("related: [E0001]", "related: []")
    e1 = e1.replace("[link](https://example.org/doc)", "[the other entry](E0002)")
    repo = make_repo({"E0001.yaml": e1, "E0002.yaml": e2})
    corpus = load_corpus(repo, today=TODAY, lock=None).corpus
    assert corpus.backlinks.get("E0002") == ("E0001",)
    assert "E0001" not in corpus.backlinks


def test_the_feedback_link_fills_fields_the_form_has() -> None:
    form = yaml.safe_load((ROOT / ".github" / "ISSUE_TEMPLATE" / FEEDBACK_FORM).read_text())
    fields = {item["id"] for item in form["body"] if "id" in item}
    entry = load_corpus(ROOT, today=TODAY, lock=None).corpus.by_id()["E0001"]
    url = urlsplit(feedback_url(entry, load_settings(ROOT, today=TODAY)))
    query = parse_qs(url.query)
    assert url.path.endswith("/issues/new") and query.pop("template") == [FEEDBACK_FORM]
    assert query.pop("title") == ["[E0001] feedback"]
    assert set(query) <= fields and query["entry"][0].startswith("E0001, verified ")
    assert "page-feedback" in form["labels"]


def test_an_entry_fit_table_shows_every_cell_of_the_grid(fit: FitData) -> None:
    """Merged cells expand back to the grid's figure for every GPU: a cell spanning columns
    (colspan) counts for each, and a model's name spans its settings' rows (rowspan)."""
    models = ["llama-3.1-8b", "qwen2.5-14b"]
    table = fit_table(fit, models, ["vllm", "llama.cpp"], "errors/x.md")
    body = table[table.index("<tbody>") + 7 : table.index("</tbody>")]
    rows = [r for r in body.split("<tr>") if r]
    combos = [c for e in ("vllm", "llama.cpp") for c in [x for x in COMBOS if x.engine == e][:2]]
    assert len(rows) == len(models) * len(combos)
    spanned = 0
    for row, (model, combo) in zip(rows, [(m, c) for m in models for c in combos], strict=True):
        cells = re.findall(r"<td(?: (?:col|row)span=(\d+))?>([^<]*(?:<a [^>]*>[^<]*</a>)?)", row)
        if spanned:  # the model's cell is in a row above
            spanned -= 1
        else:
            assert f'href="../../models/{model}/"' in cells[0][1]
            assert row.startswith(f"<td rowspan={len(combos)}>")
            spanned = len(combos) - 1
            cells = cells[1:]
        shown = [text for span, text in cells[1:] for _ in range(int(span or 1))]
        expected = [fmt_tokens(fit.cell(g, model, combo.key).max_context) for g in TABLE_GPUS]
        assert cells[0][1] == combo.key and shown == expected, (model, combo.key)


def test_a_tab_names_a_version_range_once_for_the_commands_that_share_it() -> None:
    commands = [
        Command(engine="vllm", versions=">=0.10.2", code="vllm serve a"),
        Command(engine="vllm", versions=">=0.10.2", code="vllm serve b", note="A note."),
        Command(engine="vllm", versions=">=0.11.0", code="vllm serve c"),
        Command(engine="sglang", versions=">=0.4.0", code="python -m sglang.launch_server"),
    ]
    tabs = _command_tabs(commands, lambda text: text)
    assert tabs.count("For vLLM `>=0.10.2`:") == 1
    assert tabs.count("For vLLM `>=0.11.0`:") == 1
    assert tabs.count("For SGLang `>=0.4.0`:") == 1
    order = [tabs.index(s) for s in ("serve a", "serve b", "A note.", ">=0.11.0", "serve c")]
    assert order == sorted(order)
