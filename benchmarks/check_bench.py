"""How long `errkb check` takes at 100 and 1,000 entries: prints figures, asserts nothing.

Run from the repository root, on demand (never in the unit tests):

    python benchmarks/check_bench.py                 # N = 100 and 1,000
    python benchmarks/check_bench.py --sizes 100,1000,5000 --runs 3

For each N it writes N synthetic, schema-valid entries and their lock into a temporary copy of
the repository (benchmarks/site_scale.py's entries: entry i is the same whatever N is), then
runs the installed `errkb check --root COPY` in a fresh process, as pre-commit and CI do, and
prints the best of --runs wall-clock times (process start and imports included). The target
(issue 20) is under 3 s at 1,000 entries. Timings depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: benchmark this checkout's errkb
    sys.path.insert(0, str(ROOT))

from benchmarks.site_scale import EPOCH, make_repo  # noqa: E402


def time_check(repo: Path, runs: int) -> tuple[float, int, str]:
    """Best wall time of `errkb check`, its exit code and its last stderr line."""
    env = os.environ | {"SOURCE_DATE_EPOCH": str(EPOCH)}
    best, code, tail = float("inf"), 0, ""
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "errkb.cli", "check", "--root", str(repo)],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        best = min(best, time.perf_counter() - start)
        code = proc.returncode
        tail = (proc.stderr.strip().splitlines() or [""])[-1]
    return best, code, tail


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="100,1000", help="e.g. 100,1000,5000")
    parser.add_argument("--runs", type=int, default=3, help="best of this many runs")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    sizes = [int(s.replace("_", "")) for s in args.sizes.split(",") if s]
    with tempfile.TemporaryDirectory(prefix="errkb-check-") as work:
        for n in sizes:
            repo = make_repo(Path(work) / f"n{n}", n, args.seed)
            seconds, code, tail = time_check(repo, args.runs)
            print(f"errkb check, {n:>5} entries: {seconds:6.2f} s  (exit {code}: {tail})")


if __name__ == "__main__":
    main()
