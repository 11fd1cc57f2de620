"""Two builds of the real corpus are byte-identical.

SOURCE_DATE_EPOCH fixes every date a build prints (sitemap, sitemap.xml.gz header, the
"verified N days before this build" line). The two builds run at once, in separate processes
with different hash seeds and into different directories, so set ordering, wall-clock time and
absolute paths would all show up as differences. The first build reads no cache
(`ERRKB_NO_CACHE`), the second the checkout's entry cache and memos, so what they remember
from earlier builds cannot change a byte either.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import ROOT
from tests.sitecheck import differences

BUILD = """
import sys
from mkdocs.commands.build import build
from mkdocs.config import load_config

build(load_config(sys.argv[1], strict=True, site_dir=sys.argv[2]))
"""


def test_two_builds_are_byte_identical(tmp_path: Path) -> None:
    # Today, so that no entry is verified "in the future"; the same value for both builds.
    epoch = str(int(time.time()) // 86_400 * 86_400)
    sites = [tmp_path / "one" / "site", tmp_path / "two" / "site"]
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", BUILD, str(ROOT / "mkdocs.yml"), str(site)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={
                **os.environ,
                "SOURCE_DATE_EPOCH": epoch,
                "PYTHONHASHSEED": str(seed),
                "PYTHONPATH": str(ROOT),
                "NO_MKDOCS_2_WARNING": "1",
            }
            | ({"ERRKB_NO_CACHE": "1"} if seed == 1 else {}),
        )
        for seed, site in enumerate(sites, start=1)
    ]
    for proc in procs:
        output, _ = proc.communicate(timeout=600)
        assert proc.returncode == 0, output[-4000:]
    assert (sites[0] / "index.html").is_file()
    differing = differences(*sites)
    assert differing == [], f"{len(differing)} file(s) differ between two builds: " + ", ".join(
        differing[:50]
    )
