"""matcher.js on its own, in QuickJS: one entry's bad pattern is skipped and reported."""

from __future__ import annotations

import json

import quickjs  # type: ignore[import-untyped]

from errkb.matcher import Matcher, matcher_data
from tests.conftest import ROOT, TODAY, MakeRepo

MATCHER_JS = ROOT / "docs" / "assets" / "javascripts" / "matcher.js"
SHIM = "var errors = []; var console = {error: function (m) { errors.push(String(m)); }};"
SHIM += "var window = {console: console}; var document = {addEventListener: function () {}};"


def test_bad_pattern_is_skipped_not_fatal(make_repo: MakeRepo) -> None:
    from errkb.checks.corpus import load_corpus

    entries = load_corpus(make_repo(lock=False), today=TODAY, lock=None).corpus.entries
    data = matcher_data(entries)
    log = "fixture: The NVIDIA driver on your system is too old (found version 12040)."
    expected = [m.entry_id for m in Matcher(data).match(log, top=5)]
    assert expected
    # What a pattern only Python accepts would do to the page, had errkb check let it through.
    data["patterns"].append({"id": "E0001", "regex": "address (?>already) in use", "needles": None})
    ctx = quickjs.Context()
    ctx.eval(SHIM)
    ctx.eval(MATCHER_JS.read_text(encoding="utf-8"))
    ctx.eval(f"var m = new window.ErrkbMatcher({json.dumps(data)});")
    assert json.loads(ctx.eval("JSON.stringify(m.skipped)")) == [
        {"id": "E0001", "regex": "address (?>already) in use", "error": "invalid group"}
    ]
    assert "E0001" in ctx.eval("errors.join('\\n')")
    ranked = json.loads(ctx.eval(f"JSON.stringify(m.match({json.dumps(log)}, 5))"))
    assert [r["id"] for r in ranked] == expected
