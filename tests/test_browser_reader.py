"""The first five minutes, as a reader on a phone (390 px) or a laptop (1280 px) sees them.

The real site is built once; headless Chromium (Debian's package) loads it from loopback.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config

from calculators.grid import combo
from tests.browser import browser_page, chromium_or_skip, serve
from tests.conftest import ROOT

PAGES = {
    "home": "",
    "entry": "errors/vllm-no-memory-for-cache-blocks/",
    "gpu": "gpus/rtx-4090/",
    "gpu index": "gpus/",
    "will it run": "calculators/will-it-run/",
}
WIDTHS = (390, 1280)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    chromium_or_skip()
    out = tmp_path_factory.mktemp("site")
    build(load_config(str(ROOT / "mkdocs.yml"), strict=True, site_dir=str(out)))
    with serve(out) as base:
        yield base


@pytest.fixture(scope="module")
def page(site: str) -> Iterator[Any]:
    with browser_page() as p:
        yield p


def _settle(page: Any, path: str) -> None:
    if path == PAGES["home"]:  # the quick form fills its choices, then the page is whole
        page.wait_for_selector("#errkb-fit-quick[data-ready=true]")
    if path == PAGES["will it run"]:
        page.wait_for_selector("#errkb-fit[data-ready=true]")
        page.wait_for_selector(".errkb-calc-command")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", list(PAGES))
def test_no_horizontal_page_scroll(site: str, page: Any, name: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(site + PAGES[name])
    _settle(page, PAGES[name])
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{name} at {width} px scrolls sideways by {overflow} px"


@pytest.mark.parametrize("width", WIDTHS)
def test_every_exact_message_is_visible_whole(site: str, page: Any, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(site + PAGES["entry"])
    blocks = page.evaluate(
        "() => [...document.querySelectorAll('.errkb-message pre > code')].map(p =>"
        " [p.scrollWidth, p.clientWidth, p.textContent.length])"
    )
    assert len(blocks) >= 2
    for scroll, client, length in blocks:
        assert length > 40 and scroll <= client, (scroll, client)
    # Material still gives each one its copy button.
    page.wait_for_selector(".errkb-message [data-md-type=copy]", state="attached")
    assert page.locator(".errkb-message [data-md-type=copy]").count() == len(blocks)


def test_a_shared_will_it_run_link_restores_the_answer(site: str, page: Any) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    query = "?gpu=rtx-4090&model=llama-3.1-8b&setting=vllm-bf16-fp8kv&context=32768&seqs=2"
    page.goto(site + PAGES["will it run"] + query)
    _settle(page, PAGES["will it run"])
    want = (
        f"errkb calc --model llama-3.1-8b --gpu rtx-4090 "
        f"{' '.join(combo('vllm-bf16-fp8kv').calc_args())} --context 32768 --seqs 2"
    )
    assert page.text_content(".errkb-calc-command") == want
    shared = page.text_content(".errkb-share-url")
    assert shared.endswith(query)
    markdown = page.text_content(".errkb-share-markdown")
    assert markdown.startswith("[Will Llama 3.1 8B run on ") and markdown.endswith(f"({shared})")
    # The link opened elsewhere gives the same answer.
    page.goto(site + "about/")
    page.goto(shared)
    _settle(page, PAGES["will it run"])
    assert page.text_content(".errkb-calc-command") == want


def test_a_page_load_makes_no_request_outside_the_site(site: str, page: Any) -> None:
    # A fresh context: Material caches some answers in sessionStorage, which would hide a
    # request a first-time visitor's browser makes.
    context = page.context.browser.new_context()
    fresh = context.new_page()
    outside: list[str] = []
    fresh.on("request", lambda r: None if r.url.startswith(site) else outside.append(r.url))
    try:
        for path in PAGES.values():
            fresh.goto(site + path)
            _settle(fresh, path)
            fresh.wait_for_load_state("networkidle")
    finally:
        context.close()
    assert [u for u in outside if not u.startswith("data:")] == []


def test_the_chrome_icons_draw_from_the_sprite(site: str, page: Any) -> None:
    """Every header, drawer and button icon is a <use> of assets/images/icons.svg, fetched
    once and cached. They must show: getBBox of a <use> measures the shape it draws, 0 when
    the sprite or the symbol is missing. The drawer a phone opens, then the header."""
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(site + PAGES["entry"])
    page.click("label.md-header__button[for=__drawer]")
    page.wait_for_timeout(400)  # the drawer slides in
    measure = """(sel) => [...document.querySelectorAll(sel)].map(u => {
        const b = u.getBBox();
        return [u.getAttribute('href').split('#')[1], Math.round(b.width), Math.round(b.height)];
    })"""
    drawer = page.evaluate(measure, ".md-nav--primary svg use")
    assert [d[0] for d in drawer] == ["material-library", "material-github"], drawer
    assert all(w >= 12 and h >= 12 for _, w, h in drawer), drawer
    page.set_viewport_size({"width": 1300, "height": 800})
    page.goto(site + PAGES["entry"])
    header = page.evaluate(measure, ".md-header svg use")
    shown = {name for name, w, h in header if w >= 12 and h >= 12}
    assert {"material-library", "material-magnify", "material-github"} <= shown, header
    assert page.evaluate("() => document.querySelectorAll('svg path').length") == 0


def test_site_has_no_third_party_asset_urls(site: str) -> None:
    """The static check behind the browser one: no page links a stylesheet, script or font
    from another host."""
    import re
    import urllib.request

    html = urllib.request.urlopen(site).read().decode()
    scripts = re.findall(r'<script[^>]+src="(https?://[^"]+)"', html)
    links = re.findall(r"<link\b[^>]*>", html)
    fetched = [  # rel=canonical and the like name a URL; these make the browser fetch one
        re.search(r'href="([^"]+)"', tag).group(1)  # type: ignore[union-attr]
        for tag in links
        if re.search(r'rel="(stylesheet|preload|preconnect|icon|manifest|modulepreload)"', tag)
    ]
    assets = [u for u in scripts + fetched if u.startswith(("http://", "https://", "//"))]
    assert len(links) >= 3  # the pattern sees the page's links
    assert [a for a in assets if not a.startswith(site)] == []


def test_chromium_is_the_packaged_one() -> None:
    # Guards the guard: the tests above must not pass by skipping.
    assert Path(chromium_or_skip()).name.startswith("chromium")


def test_the_home_page_starts_with_the_readers_problem(site: str, page: Any) -> None:
    """Above the fold on a phone: the paste box (the real matcher), the search box (the
    Pagefind search page) and a short "will it run?" form that lands on the full answer."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(site)
    page.wait_for_selector("#errkb-fit-quick[data-ready=true]")
    # The matcher's data waits for the reader: nothing is fetched until the box is used.
    assert page.get_attribute("#errkb-match", "data-ready") is None
    for selector in (
        "#errkb-match textarea",
        ".errkb-home-search input",
        "#errkb-fit-quick button",
    ):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["y"] + box["height"] <= 844 * 1.2, selector

    page.fill("#errkb-match textarea", "ValueError: No available memory for the cache blocks.")
    page.click("#errkb-match button")
    page.wait_for_selector(".errkb-ranking li")
    assert page.get_attribute(".errkb-ranking li", "data-id") == "E0001"

    page.goto(site)
    page.fill(".errkb-home-search [name=q]", "No available memory for the cache blocks")
    page.click(".errkb-home-search button")
    page.wait_for_selector(".errkb-search-list li")
    first = page.locator(".errkb-search-list li a").first
    assert first.get_attribute("href") == "/errors/vllm-no-memory-for-cache-blocks/"

    page.goto(site)
    page.wait_for_selector("#errkb-fit-quick[data-ready=true]")
    page.select_option("#errkb-fit-quick [name=model]", "qwen2.5-14b")
    page.select_option("#errkb-fit-quick [name=gpu]", "l40s")
    page.select_option("#errkb-fit-quick [name=context]", "32768")
    page.click("#errkb-fit-quick button")
    _settle(page, PAGES["will it run"])
    assert page.text_content(".errkb-calc-command").startswith(
        "errkb calc --model qwen2.5-14b --gpu l40s "
    )
    assert "--context 32768 --seqs 1" in page.text_content(".errkb-calc-command")


def test_a_shared_paste_link_restores_the_ranking(site: str, page: Any) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(site + "match/")
    page.wait_for_selector("#errkb-match[data-ready=true]")
    log = "ERROR 06-02 09:39:03 [core.py:396] ValueError: No available memory for the cache blocks."
    page.fill("#errkb-match textarea", log)
    page.click("#errkb-match button")
    page.wait_for_selector(".errkb-ranking li")
    ranking = page.eval_on_selector_all(".errkb-ranking li", "els => els.map(e => e.dataset.id)")
    shared = page.text_content(".errkb-share-url")
    assert "?log=" in shared and ranking[0] == "E0001"
    assert page.text_content(".errkb-share-markdown").startswith("[errkb E0001: ")
    page.goto(site + "about/")
    page.goto(shared)
    page.wait_for_selector(".errkb-ranking li")
    assert page.input_value("#errkb-match textarea") == log
    assert (
        page.eval_on_selector_all(".errkb-ranking li", "els => els.map(e => e.dataset.id)")
        == ranking
    )

    # A long log is not put in the URL; the lines that matched are, and they rank the same.
    long_log = "\n".join(
        f"INFO 06-02 09:39:{i % 60:02d} [engine.py:1] step {i}" for i in range(200)
    )
    page.fill("#errkb-match textarea", long_log + "\n" + log)
    page.click("#errkb-match button")
    page.wait_for_function("() => document.querySelector('.errkb-share-url')")
    shared = page.text_content(".errkb-share-url")
    assert "?lines=" in shared and len(shared) < 1000
    page.goto(shared)
    page.wait_for_selector(".errkb-ranking li")
    assert page.get_attribute(".errkb-ranking li", "data-id") == "E0001"


def test_index_pages_filter_their_table(site: str, page: Any) -> None:
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(site + "models/")
    page.wait_for_selector("input.errkb-filter[data-ready=true]")
    rows = "table tbody tr"
    total = page.locator(rows).count()
    page.fill("input.errkb-filter", "gemma 9b")
    visible = page.eval_on_selector_all(
        rows, "rs => rs.filter(r => !r.hidden).map(r => r.textContent.toLowerCase())"
    )
    assert 0 < len(visible) < total
    assert all("gemma" in text and "9b" in text for text in visible)
    page.fill("input.errkb-filter", "")
    assert page.eval_on_selector_all(rows, "rs => rs.filter(r => !r.hidden).length") == total

    # The GPU index: a maker and a memory band, each a select on its own column.
    page.goto(site + "gpus/")
    page.wait_for_selector("input.errkb-filter[data-ready=true]")
    total = page.locator(rows).count()
    page.select_option("select.errkb-col-filter[data-kind=equals]", "AMD")
    page.select_option("select.errkb-col-filter[data-kind=range]", "49153-99999999")
    shown = page.eval_on_selector_all(
        rows,
        "rs => rs.filter(r => !r.hidden).map(r => [r.cells[1].textContent.trim(),"
        " parseInt(r.cells[2].textContent.replace(/,/g, ''), 10)])",
    )
    assert 0 < len(shown) < total
    assert all(maker == "AMD" and mib > 49152 for maker, mib in shown)


def test_search_fetches_only_what_the_query_needs(site: str, page: Any) -> None:
    """The header's search button leads to the search page; a query fetches Pagefind's loader,
    its WebAssembly, one index chunk per word and the excerpts of the shown results, never the
    whole index; excerpts render as text (marks only)."""
    fetched: dict[str, int] = {}

    def on_response(response: Any) -> None:
        if "/pagefind/" in response.url:
            fetched[response.url.split("/pagefind/", 1)[1].split("?")[0]] = len(response.body())

    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(site + PAGES["entry"])
    page.click(".md-header a[href$='search/']")
    page.wait_for_selector("#errkb-search[data-ready=true]")
    page.on("response", on_response)
    try:
        page.fill("#errkb-search [name=q]", "quantized V cache requires flash attention")
        page.wait_for_selector(".errkb-search-list li")
        page.wait_for_timeout(300)
    finally:
        page.remove_listener("response", on_response)
    hrefs = page.eval_on_selector_all(
        ".errkb-search-list li a", "els => els.map(e => e.getAttribute('href'))"
    )
    assert hrefs[0] == "/errors/llamacpp-quantized-v-cache-requires-flash-attention/"
    tags = set(
        page.eval_on_selector_all(".errkb-search-list li p *", "els => els.map(e => e.tagName)")
    )
    assert tags <= {"MARK"}
    chunks = [name for name in fetched if name.startswith("index/")]
    # Each word loads the chunks holding the words that begin with it (CloudCannon/pagefind#478):
    # one, or two where a chunk boundary falls among them (one did at 182 entries).
    assert 0 < len(chunks) <= 2 * 6
    assert sum(fetched.values()) < 500_000
