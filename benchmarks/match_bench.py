"""Time `errkb match` on a 10,000-line log: prints figures, asserts nothing (machines are noisy).

Run from the repository root: python benchmarks/match_bench.py
The log is built from the real pasted logs in tests/fixtures/logs, repeated, with the
labelled error lines spread through it, so the matcher meets realistic noise.
"""

from __future__ import annotations

import datetime as dt
import statistics
import time
from pathlib import Path

from errkb.corpus import load_corpus
from errkb.matcher import Matcher, matcher_data

ROOT = Path(__file__).resolve().parent.parent
TARGET_MS = 100.0


def build_log(lines: int = 10_000) -> str:
    pool: list[str] = []
    for path in sorted((ROOT / "tests" / "fixtures" / "logs").glob("*.log")):
        pool.extend(path.read_text(encoding="utf-8").splitlines())
    out = [pool[i % len(pool)] for i in range(lines)]
    return "\n".join(out)


def main() -> None:
    t0 = time.perf_counter()
    corpus = load_corpus(ROOT, today=dt.date.today(), lock=None).corpus
    matcher = Matcher(matcher_data(corpus))
    startup = time.perf_counter() - t0
    log = build_log()
    runs = []
    for _ in range(7):
        t = time.perf_counter()
        found = matcher.match(log, top=5)
        runs.append((time.perf_counter() - t) * 1000)
    median = statistics.median(runs)
    print(f"entries: {len(corpus.items)}, templates: {len(matcher.templates)}")
    print(f"log: {log.count(chr(10)) + 1} lines, {len(log) / 1e6:.2f} MB")
    print(f"start-up (load corpus, build matcher): {startup * 1000:.0f} ms")
    print(f"match, median of {len(runs)}: {median:.1f} ms (min {min(runs):.1f}, max {max(runs):.1f})")
    print(f"ratio to the {TARGET_MS:.0f} ms target: {median / TARGET_MS:.2f}")
    print(f"top matches: {[m.entry_id for m in found]}")


if __name__ == "__main__":
    main()
