"""How long `errkb check` takes at 100 and 1,000 entries: prints figures, asserts nothing.

Run from the repository root, on demand (never in the unit tests):

    python benchmarks/check_bench.py                 # N = 100 and 1,000
    python benchmarks/check_bench.py --sizes 100,1000,5000 --runs 3

For each N it writes N synthetic, schema-valid entries and their lock into a temporary copy of
the repository (benchmarks/site_scale.py's entries: entry i is the same whatever N is), then
runs the installed `errkb check --root COPY` in a fresh process, as pre-commit and CI do, and
prints the best of --runs wall-clock and CPU times (process start and imports included; CPU
time is steadier on a busy machine). The target (issue 20) is under 3 s at 1,000 entries.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: benchmark this checkout's errkb
    sys.path.insert(0, str(ROOT))

from benchmarks.site_scale import EPOCH, make_repo  # noqa: E402


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_check(repo: Path, runs: int) -> tuple[float, float, int, str]:
    """Best wall and CPU seconds of `errkb check`, its exit code and its last stderr line."""
    env = os.environ | {"SOURCE_DATE_EPOCH": str(EPOCH)}
    best, best_cpu, code, tail = float("inf"), float("inf"), 0, ""
    for _ in range(runs):
        cpu = _children_cpu()
        start = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "errkb.cli", "check", "--root", str(repo)],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, _children_cpu() - cpu)
        code = proc.returncode
        tail = (proc.stderr.strip().splitlines() or [""])[-1]
    return best, best_cpu, code, tail


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
            seconds, cpu, code, tail = time_check(repo, args.runs)
            print(
                f"errkb check, {n:>5} entries: {seconds:6.2f} s wall, {cpu:6.2f} s CPU  "
                f"(exit {code}: {tail})"
            )


if __name__ == "__main__":
    main()
