"""The site's search: a Pagefind index, chunked so that a first search downloads a few hundred
kilobytes however large the corpus grows (issue 17).

Material's search plugin ships one JSON index of every page, which every visitor downloads and
parses before the first result: 59 MB at 5,000 entries. Pagefind splits its index by word and
its excerpts by page, and a search fetches only the chunks its words need. It runs on the built
HTML, so it serves MkDocs (`on_post_build`) and any other site engine alike
(`errkb search-index SITE_DIR`).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

BUNDLE = "pagefind"

# What the search page's script loads; Pagefind's own UIs and their CSS are not used.
_UNUSED = (
    "pagefind-ui.js",
    "pagefind-ui.css",
    "pagefind-modular-ui.js",
    "pagefind-modular-ui.css",
    "pagefind-component-ui.js",
    "pagefind-component-ui.css",
    "pagefind-highlight.js",
)

_H2_RE = re.compile(r"<h2[\s>]")
_EXCLUDED_RE = re.compile(r"<h[23]\b[^>]*\bdata-search-exclude\b")


class SearchIndexError(RuntimeError):
    pass


@dataclass(frozen=True)
class SearchIndex:
    pages: int
    files: int
    bytes: int


def ignore_excluded_sections(html: str) -> str:
    """Wrap each section whose heading carries `data-search-exclude` (related links, sources,
    the verified block) in `data-pagefind-ignore`, so that a search for an entry's words lands
    on that entry, not on every entry that links to it. A section runs to the next h2."""
    if "data-search-exclude" not in html:
        return html
    starts = [m.start() for m in _H2_RE.finditer(html)]
    out: list[str] = []
    pos = 0
    for match in _EXCLUDED_RE.finditer(html):
        if match.start() < pos:
            continue  # an excluded h3 inside a section already wrapped
        end = next((s for s in starts if s > match.start()), len(html))
        out += [html[pos : match.start()], "<div data-pagefind-ignore>", html[match.start() : end]]
        out.append("</div>")
        pos = end
    out.append(html[pos:])
    return "".join(out)


def _executable() -> str:
    try:
        from pagefind_bin import get_executable  # type: ignore[import-untyped]
    except ImportError:
        found = shutil.which("pagefind")
        if found is None:
            raise SearchIndexError(
                "Pagefind is not installed: python -m pip install 'pagefind[bin]' "
                "(it comes with the [site] and [test] extras)"
            ) from None
        return found
    return str(get_executable())


def build_search_index(site_dir: Path) -> SearchIndex:
    """Index the built site in `site_dir` into `site_dir/pagefind/` (replacing it)."""
    bundle = site_dir / BUNDLE
    if bundle.exists():
        shutil.rmtree(bundle)
    args = [
        _executable(),
        "--site",
        str(site_dir),
        "--output-subdir",
        BUNDLE,
        "--force-language",
        "en",
        "--exclude-selectors",
        ".headerlink",
        "--silent",
    ]
    proc = subprocess.run(args, capture_output=True, text=True, check=False)
    if proc.returncode != 0 or not (bundle / "pagefind.js").is_file():
        raise SearchIndexError(
            f"pagefind failed (exit {proc.returncode}): {(proc.stderr or proc.stdout).strip()}"
        )
    for name in _UNUSED:
        (bundle / name).unlink(missing_ok=True)
    files = [p for p in bundle.rglob("*") if p.is_file()]
    entry = (bundle / "pagefind-entry.json").read_text(encoding="utf-8")
    pages = sum(int(n) for n in re.findall(r'"page_count":\s*(\d+)', entry))
    return SearchIndex(pages=pages, files=len(files), bytes=sum(p.stat().st_size for p in files))
