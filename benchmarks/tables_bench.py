"""What the fit tables cost the build: full `mkdocs build` with and without them.

Run from the repository root: python benchmarks/tables_bench.py [--runs N]
Prints the build time with tables (GPU/model pages, sizing guide, fit tables in entries,
the "will it run?" data), without them (ERRKB_TABLES=0), their ratio, and the grid's own
compute time. The target is a ratio of at most 1.3. Builds are not strict: without tables
the nav names pages that do not exist. The grid and the charts are cached in .cache/errkb
(keyed by the calculators' sources and each chart's data); one cold build, with that cache
removed, is printed apart.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build(tables: bool) -> float:
    env = {**os.environ, "ERRKB_TABLES": "1" if tables else "0", "NO_MKDOCS_2_WARNING": "1"}
    with tempfile.TemporaryDirectory() as out:
        t = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "-q", "--site-dir", out],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
        )
        return time.perf_counter() - t


def grid_time() -> float:
    code = "import time; t=time.perf_counter(); from calculators.grid import fit_grid; fit_grid(); print(time.perf_counter()-t)"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return float(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    with_t, without = [], []
    for _ in range(runs):  # interleaved, so drift on a noisy machine hits both alike
        without.append(build(tables=False))
        with_t.append(build(tables=True))
    shutil.rmtree(ROOT / ".cache" / "errkb", ignore_errors=True)
    cold = build(tables=True)
    a, b = statistics.median(with_t), statistics.median(without)
    print(
        f"build with tables:    median {a:.2f} s of {runs} ({', '.join(f'{x:.2f}' for x in with_t)})"
    )
    print(
        f"build without tables: median {b:.2f} s of {runs} ({', '.join(f'{x:.2f}' for x in without)})"
    )
    print(f"ratio: {a / b:.2f} (target <= 1.30)")
    print(f"cold build with tables (no .cache/errkb): {cold:.2f} s, ratio {cold / b:.2f}")
    print(f"fit grid compute (cold process, includes imports): {grid_time():.2f} s")


if __name__ == "__main__":
    main()
