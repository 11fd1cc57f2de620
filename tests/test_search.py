"""The search index: what goes in, and that the Pagefind bundle is built from a site."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from errkb.cli import cli
from errkb.site.search import ignore_excluded_sections

PAGE = (
    "<h1>E0001</h1><p>cause words</p>"
    '<h2 id="fixes">Fixes</h2><p>fix words</p>'
    '<h2 data-search-exclude id="related">Related</h2><p>other entry</p>'
    '<h3 data-search-exclude id="backlinks">Linked from</h3><p>third entry</p>'
    '<h2 id="example">Example</h2><p>example words</p>'
    '<h2 data-search-exclude id="sources">Sources</h2><p>a url</p>'
)


def test_excluded_sections_are_wrapped_up_to_the_next_h2() -> None:
    out = ignore_excluded_sections(PAGE)
    assert out.count("<div data-pagefind-ignore>") == 2
    ignored = [part.split("</div>")[0] for part in out.split("<div data-pagefind-ignore>")[1:]]
    assert "other entry" in ignored[0] and "third entry" in ignored[0]
    assert "example words" not in ignored[0]
    assert ignored[1].endswith("<p>a url</p>")
    # Nothing is lost or reordered: removing the wrappers gives the page back.
    assert out.replace("<div data-pagefind-ignore>", "").replace("</div>", "") == PAGE
    assert ignore_excluded_sections("<p>no sections</p>") == "<p>no sections</p>"


def _page(title: str, body: str) -> str:
    return (
        f"<!doctype html><html lang=en><head><title>{title}</title></head><body>"
        f"<nav>site navigation</nav><div data-pagefind-body><h1>{title}</h1>{body}</div>"
        "</body></html>"
    )


def test_search_index_cli_builds_the_bundle(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "a").mkdir(parents=True)
    (site / "b").mkdir()
    (site / "a" / "index.html").write_text(_page("Cache blocks", "<p>no memory</p>"), "utf-8")
    (site / "b" / "index.html").write_text(_page("Port in use", "<p>address</p>"), "utf-8")
    (site / "c.html").write_text("<html><body><p>not searchable</p></body></html>", "utf-8")
    result = CliRunner().invoke(cli, ["search-index", str(site)])
    assert result.exit_code == 0, result.output
    assert "indexed 2 pages" in result.output
    bundle = site / "pagefind"
    assert (bundle / "pagefind.js").is_file()
    assert list((bundle / "index").glob("*.pf_index"))
    assert len(list((bundle / "fragment").glob("*.pf_fragment"))) == 2
    assert not (bundle / "pagefind-ui.js").exists()  # the site's own script renders results


def test_compact_html_keeps_what_renders() -> None:
    from errkb.site.compact import compact_html

    page = (
        "<div>\n    <p>a <code>b</code>\n      <a href=x>c</a></p>\n"
        '<pre><code>  keep   this\n    <span class="w">  </span>x</code></pre>\n'
        "<textarea>\n  typed\n</textarea>\n  <script>\n  var s = '  x';\n</script>\n</div>"
    )
    out = compact_html(page)
    assert "<p>a <code>b</code>\n<a href=x>c</a></p>" in out
    assert "<pre><code>  keep   this\n      x</code></pre>" in out  # the span, not its text
    assert "<textarea>\n  typed\n</textarea>" in out
    assert "<script>\n  var s = '  x';\n</script>" in out
    assert len(out) < len(page)


def test_compact_html_keeps_every_token_its_colour() -> None:
    from errkb.site.compact import compact_html

    code = (
        '<pre><code><span class="n">ray</span><span class="o">.</span><span class="n">init</span>'
        '<span class="p">(</span><span class="p">{</span><span class="p">}</span><span class="p">)'
        '</span><span class="w"> </span><span class="c1"># a</span><span class="c1"> b</span>'
        '<span class="s2">x</span></code></pre>'
    )
    assert compact_html(code) == (
        '<pre><code>ray.init({}) <span class="c1"># a b</span><span class="s2">x</span></code></pre>'
    )
    assert compact_html("<pre><span></span><code>x</code></pre>") == "<pre><code>x</code></pre>"
    # Operators and punctuation may lose their spans only because the site's stylesheet gives
    # them the code's own colour, in every scheme.
    css = (Path(__file__).parents[1] / "docs/assets/stylesheets/errkb.css").read_text()
    rule = css[css.index("[data-md-color-scheme] {") :].split("}")[0]
    assert "--md-code-hl-operator-color: var(--md-code-fg-color);" in rule
    assert "--md-code-hl-punctuation-color: var(--md-code-fg-color);" in rule
    # Outside a pre, a span is left as it is.
    assert compact_html('<p><span class="n">a</span></p>') == '<p><span class="n">a</span></p>'


def test_compact_html_keeps_no_break_spaces() -> None:
    from errkb.site.compact import compact_html

    # U+00A0 is not HTML whitespace: it renders, at a line's start as anywhere.
    assert compact_html("<p>a\n\u00a0\u00a0b \n</p>") == "<p>a\n\u00a0\u00a0b\n</p>"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab <>\t\r\f\n\u00a0", max_size=60))
def test_compact_html_turns_each_newline_run_into_one_newline(text: str) -> None:
    from errkb.site.compact import compact_html

    # The rule, stated once as a regex over HTML's whitespace, outside any verbatim element.
    assert compact_html(text) == re.sub(r"[ \t\r\f]*\n[ \t\r\f\n]*", "\n", text)
