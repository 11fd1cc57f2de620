"""Reading a built site: which URLs exist, where links and redirects point."""

from __future__ import annotations

import filecmp
import posixpath
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from errkb.entries.lock import Lock


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for key, value in attrs:
            if key == "id" and value:
                self.ids.add(value)
            if key == "href" and value and tag == "a":
                self.hrefs.append(value)


def parse(path: Path) -> _Collector:
    collector = _Collector()
    collector.feed(path.read_text(encoding="utf-8"))
    return collector


def page_file(site: Path, url: str) -> Path:
    """The HTML file that serves a site-relative URL such as `errors/foo/`."""
    url = url.lstrip("/")
    return site / url / "index.html" if url == "" or url.endswith("/") else site / url


def resolves(site: Path, url: str) -> bool:
    return page_file(site, url).is_file()


def redirect_target(site: Path, url: str) -> str | None:
    """Site-relative URL a mkdocs-redirects stub sends the reader to, or None."""
    html = page_file(site, url).read_text(encoding="utf-8")
    match = re.search(r'location\.href="([^"]+)"', html)
    if match is None:
        return None
    base = posixpath.dirname(url.rstrip("/") + "/index.html")
    return posixpath.normpath(posixpath.join(base, match.group(1))) + "/"


def internal_links(site: Path, url: str) -> list[tuple[str, str]]:
    """(target url, fragment) for every relative link on a page."""
    out = []
    base = posixpath.dirname(url.rstrip("/") + "/index.html") if url else ""
    for href in parse(page_file(site, url)).hrefs:
        parts = urlsplit(href)
        if parts.scheme or parts.netloc or href.startswith("#") or not parts.path:
            continue
        target = posixpath.normpath(posixpath.join(base, unquote(parts.path)))
        target = "" if target == "." else target + ("/" if parts.path.endswith("/") else "")
        out.append((target, parts.fragment))
    return out


def locked_urls(root: Path) -> list[str]:
    lock = Lock.read(root)
    assert not lock.problems, lock.problems
    urls = [f"e/{entry_id}/" for entry_id in lock.entries]
    urls += [f"errors/{slug}/" for slugs in lock.entries.values() for slug in slugs]
    # Every slug's evidence page too (published with the evidence pages, 2026-11-26).
    urls += [f"errors/{slug}/evidence/" for slugs in lock.entries.values() for slug in slugs]
    return urls + lock.pages


def differences(a: Path, b: Path) -> list[str]:
    """Files only in one site, or in both with different bytes."""
    out: list[str] = []

    def walk(cmp: filecmp.dircmp[str], prefix: str) -> None:
        out.extend(f"{prefix}{name} (only in the first build)" for name in cmp.left_only)
        out.extend(f"{prefix}{name} (only in the second build)" for name in cmp.right_only)
        out.extend(f"{prefix}{name} (not a file in both)" for name in cmp.common_funny)
        _, mismatch, errors = filecmp.cmpfiles(cmp.left, cmp.right, cmp.common_files, shallow=False)
        out.extend(f"{prefix}{name}" for name in mismatch + errors)
        for name, sub in sorted(cmp.subdirs.items()):
            walk(sub, f"{prefix}{name}/")

    walk(filecmp.dircmp(a, b), "")
    return sorted(out)
