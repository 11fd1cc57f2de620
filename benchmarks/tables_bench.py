"""What the fit tables cost the build: full `mkdocs build` with and without them.

Run from the repository root: python benchmarks/tables_bench.py [--runs N]
Prints the build time with tables (GPU/model pages, sizing guide, fit tables in entries,
the "will it run?" data), without them (ERRKB_TABLES=0), their ratio, and the grid's own
compute time. The target is a ratio of at most 1.3. Builds are not strict: without tables
the nav names pages that do not exist. The grid and the charts are cached in .cache/errkb
(keyed by the calculators' sources and each chart's data), with the fit pages rendered
from it; cold builds, with those two removed as on a fresh CI clone (the entry cache, which
both builds use alike, is kept), are printed apart. A cold build computes them in a child
process on the second core (errkb/site/fitplan.py), so its CPU seconds exceed its wall-clock.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build(tables: bool, *, cold: bool = False) -> tuple[float, float]:
    """Wall seconds and CPU seconds (the build and any process it started) of one build."""
    if cold:
        # The tables' caches only: the entry cache serves both builds alike, so removing it
        # would charge the tables for re-reading the YAML.
        for stale in (ROOT / ".cache" / "errkb").glob("*.json"):
            if stale.name.startswith(("grid-", "fitparts-")):
                stale.unlink()
    env = {**os.environ, "ERRKB_TABLES": "1" if tables else "0", "NO_MKDOCS_2_WARNING": "1"}
    with tempfile.TemporaryDirectory() as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "-q", "--site-dir", out],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
        )
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu


def grid_time() -> float:
    code = "import time; t=time.perf_counter(); from calculators.grid import fit_grid; fit_grid(); print(time.perf_counter()-t)"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return float(out.stdout)


def _fmt(xs: list[float]) -> str:
    return ", ".join(f"{x:.2f}" for x in xs)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    kinds = {"without": (False, False), "warm": (True, False), "cold": (True, True)}
    wall: dict[str, list[float]] = {k: [] for k in kinds}
    cpu: dict[str, list[float]] = {k: [] for k in kinds}
    order = list(kinds)
    for i in range(runs):
        # Interleaved, in a rotating order: drift on a noisy machine hits all three alike,
        # and each round's builds ran close together, so their ratios pair up.
        for kind in order[i % 3 :] + order[: i % 3]:
            tables, cold = kinds[kind]
            w, c = build(tables, cold=cold)
            wall[kind].append(w)
            cpu[kind].append(c)
    med = {k: statistics.median(v) for k, v in wall.items()}
    print(f"build without tables:     median {med['without']:.2f} s ({_fmt(wall['without'])})")
    print(f"build with tables, warm:  median {med['warm']:.2f} s ({_fmt(wall['warm'])})")
    print(f"build with tables, cold:  median {med['cold']:.2f} s ({_fmt(wall['cold'])})")
    print(
        "  warm: the grid and the fit pages cached in .cache/errkb; cold: those removed, "
        "as in a fresh clone (the entry cache kept for both)"
    )
    for kind in ("warm", "cold"):
        paired = [a / b for a, b in zip(wall[kind], wall["without"], strict=True)]
        print(
            f"ratio {kind} / without: {med[kind] / med['without']:.2f} of medians, "
            f"{statistics.median(paired):.2f} median of paired rounds ({_fmt(paired)}); "
            "target <= 1.30"
        )
    cmed = {k: statistics.median(v) for k, v in cpu.items()}
    print(
        f"CPU seconds (build and its children): without {cmed['without']:.2f}, "
        f"warm {cmed['warm']:.2f} ({cmed['warm'] / cmed['without']:.2f}x), "
        f"cold {cmed['cold']:.2f} ({cmed['cold'] / cmed['without']:.2f}x)"
    )
    print(f"fit grid compute (cold process, includes imports): {grid_time():.2f} s")


if __name__ == "__main__":
    main()
