"""Time `errkb match` on a 10,000-line log: prints figures, asserts nothing (machines are noisy).

Targets (issue 14): the serving log under 100 ms, the dense worst case under 250 ms.

Run from the repository root: python benchmarks/match_bench.py
Two 10,000-line logs:
- "dense": every line comes from the real error pastes in tests/fixtures/logs (all of them,
  in file order, repeated up to 10,000 lines), so error lines are everywhere (the worst case
  for the candidate-line filter); it grows harder as suite logs join;
- "server": a serving log as `vllm serve` writes it over hours: its routine per-request and
  metrics lines (copied from real pastes in tests/fixtures/logs, numbers varied) with three
  of the real error pastes inside.
"""

from __future__ import annotations

import datetime as dt
import statistics
import time
from pathlib import Path

from errkb.checks.corpus import load_corpus
from errkb.matcher import Lines, Matcher, matcher_data, split_lines

ROOT = Path(__file__).resolve().parent.parent
TARGET_MS = {"server": 100.0, "dense": 250.0}  # issue 14: after start-up


LOGS = ROOT / "tests" / "fixtures" / "logs"
# Routine lines as printed in tests/fixtures/logs/018-vllm-v0-preempt-swap.log and
# 029-vllm-v1-oom-killed-apiserver.log (numbers are varied per line below).
ROUTINE = [
    "INFO 06-16 21:24:{s:02d} metrics.py:341] Avg prompt throughput: {a}.1 tokens/s, Avg "
    "generation throughput: {b}.4 tokens/s, Running: {r} reqs, Swapped: 0 reqs, Pending: 0 reqs, "
    "GPU KV cache usage: {u}.2%, CPU KV cache usage: 0.0%.",
    '(APIServer pid=1) INFO:     10.1.6.81:{p} - "POST /v1/chat/completions HTTP/1.1" 200 OK',
]


def build_log(lines: int = 10_000) -> str:
    pool: list[str] = []
    for path in sorted(LOGS.glob("*.log")):
        pool.extend(path.read_text(encoding="utf-8").splitlines())
    out = [pool[i % len(pool)] for i in range(lines)]
    return "\n".join(out)


def routine_lines(lines: int) -> list[str]:
    """The serving log's routine request and metrics lines, numbers varied per line."""
    return [
        ROUTINE[i % 2].format(s=i % 60, a=i % 997, b=i % 89, r=i % 40, u=i % 100, p=10000 + i)
        for i in range(lines)
    ]


def build_server_log(lines: int = 10_000) -> str:
    out = routine_lines(lines)
    pastes = sorted(LOGS.glob("*.log"))
    for k, path in enumerate((pastes[0], pastes[20], pastes[40]), start=1):
        paste = path.read_text(encoding="utf-8").splitlines()
        at = k * lines // 4
        out[at : at + len(paste)] = paste
    return "\n".join(out[:lines])


def main() -> None:
    t0 = time.perf_counter()
    corpus = load_corpus(ROOT, today=dt.date.today(), lock=None, checks=False).corpus
    matcher = Matcher(matcher_data(corpus.entries))
    startup = time.perf_counter() - t0
    print(f"entries: {len(corpus.items)}, templates: {len(matcher.templates)}")
    print(f"start-up (load corpus, build matcher): {startup * 1000:.0f} ms")
    for name, log in (("server", build_server_log()), ("dense", build_log())):
        lowered = Lines(split_lines(log.lower()))
        kept = sum(matcher.candidates(lowered)[0])
        runs = []
        for _ in range(7):
            t = time.perf_counter()
            found = matcher.match(log, top=5)
            runs.append((time.perf_counter() - t) * 1000)
        median = statistics.median(runs)
        print(
            f"{name} log: {len(lowered.lines)} lines, {len(log) / 1e6:.2f} MB, {kept} candidate lines"
        )
        print(
            f"  match, median of {len(runs)}: {median:.1f} ms (min {min(runs):.1f}, max {max(runs):.1f})"
        )
        target = TARGET_MS[name]
        print(f"  ratio to the {target:.0f} ms target: {median / target:.2f}")
        print(f"  top matches: {[m.entry_id for m in found]}")


if __name__ == "__main__":
    main()
