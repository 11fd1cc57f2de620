"""Lighthouse scores for the four pages a reader meets first, on the built site.

    python benchmarks/lighthouse.py [--site DIR] [--floor 90] [--lighthouse PATH]

Builds the site (unless --site is given), serves it on loopback with gzip as GitHub Pages does,
and runs Lighthouse (from the npm registry: `npm install --prefix .cache/lighthouse
lighthouse@12`) in Debian's chromium with Lighthouse's default mobile throttling. Prints one row
per page and the audits below 0.9 that cost points; exits 1 when any category of any page is
below --floor (or --performance-floor). CI (.ci/run) runs it with the floors
docs/performance.md states.
"""

from __future__ import annotations

import argparse
import gzip
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PAGES = {
    "home": "",
    "entry": "errors/vllm-no-memory-for-cache-blocks/",
    "GPU": "gpus/rtx-4090/",
    "will it run": "calculators/will-it-run/",
}
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
COMPRESSIBLE = (".html", ".css", ".js", ".json", ".svg", ".xml", ".txt")


class GzipHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with gzip for text, as GitHub Pages serves them."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def send_head(self) -> Any:  # type: ignore[override]
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if (
            path.suffix in COMPRESSIBLE
            and path.is_file()
            and "gzip" in self.headers.get("Accept-Encoding", "")
        ):
            body = gzip.compress(path.read_bytes(), 6)
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(path)))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return _Bytes(body)
        return super().send_head()


class _Bytes:
    def __init__(self, data: bytes) -> None:
        self.data = data

    def read(self, *_: Any) -> bytes:
        data, self.data = self.data, b""
        return data

    def close(self) -> None:
        pass


def build(dest: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(dest)],
        cwd=ROOT,
        env=env,
        check=True,
    )


def run(lighthouse: str, url: str, out: Path) -> dict[str, Any]:
    flags = "--headless=new --no-sandbox --disable-background-networking --disable-gpu"
    env = {**os.environ, "CHROME_PATH": shutil.which("chromium") or "chromium"}
    subprocess.run(
        [
            lighthouse,
            url,
            f"--chrome-flags={flags}",
            "--output=json",
            f"--output-path={out}",
            "--quiet",
            "--only-categories=" + ",".join(CATEGORIES),
        ],
        env=env,
        check=True,
    )
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


def weak_audits(report: dict[str, Any]) -> list[str]:
    out = []
    for category in report["categories"].values():
        for ref in category["auditRefs"]:
            audit = report["audits"][ref["id"]]
            if ref.get("weight", 0) > 0 and audit.get("score") is not None and audit["score"] < 0.9:
                out.append(
                    f"{ref['id']} {audit['score']:.2f} {audit.get('displayValue', '')}".strip()
                )
    return sorted(set(out))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one)")
    parser.add_argument("--floor", type=int, default=0, help="fail below this score (0 to 100)")
    parser.add_argument(
        "--performance-floor",
        type=int,
        help="a separate floor for performance, which moves with the machine's load",
    )
    default = ROOT / ".cache" / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
    parser.add_argument("--lighthouse", default=str(default))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site or Path(tmp) / "site"
        if args.site is None:
            build(site)
        server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), partial(GzipHandler, directory=str(site))
        )
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}/"
        failed = []
        print(f"| Page | {' | '.join(CATEGORIES)} | Audits under 0.9 |")
        print("|---|" + "---|" * len(CATEGORIES) + "---|")
        try:
            for name, path in PAGES.items():
                report = run(args.lighthouse, base + path, Path(tmp) / "report.json")
                scores = [round(report["categories"][c]["score"] * 100) for c in CATEGORIES]
                floors = [
                    args.performance_floor
                    if c == "performance" and args.performance_floor is not None
                    else args.floor
                    for c in CATEGORIES
                ]
                failed += [
                    f"{name} {c} {s} (floor {f})"
                    for c, s, f in zip(CATEGORIES, scores, floors, strict=True)
                    if s < f
                ]
                weak = "; ".join(weak_audits(report)) or "none"
                print(f"| {name} | {' | '.join(map(str, scores))} | {weak} |", flush=True)
        finally:
            server.shutdown()
    if failed:
        print(f"below the floor: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
