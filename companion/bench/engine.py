"""`companion bench engine`: commands per second applied in memory on one core, then the `legal` figures.

The commands of seeded autoplay games applied by Rules.apply alone (no ledger), the first run a
warm-up; then, per edition, one `legal` call against one `apply` (companion/bench/legal.py).
"""

import os
import statistics
import time
from typing import Any

from companion.bench.common import PLAYERS, Stream, command_stream, one_core
from companion.bench.legal import bench_legal

__all__ = ["bench_legal", "main", "run_engine"]  # bench_legal: the second half of this bench's report


def run_engine(rules: Any, games: Stream) -> tuple[int, float]:
    count = 0
    start = time.perf_counter()
    for seed, lines, _ in games:
        state = rules.new_state(PLAYERS, seed)
        for line in lines:
            state = rules.apply(state, line)
            count += 1
    return count, time.perf_counter() - start


def main(n_events: int = 1000, runs: int = 5) -> None:
    rules, games = command_stream(n_events)
    n = sum(len(lines) for _, lines, _ in games)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {one_core()})  # one core, as the target says
    rates = []
    for _ in range(runs + 1):
        count, seconds = run_engine(rules, games)
        rates.append(count / seconds)
    rates = rates[1:]  # the first run warms up
    print(f"engine: {n} commands x {runs} runs, in memory, one core")
    print(
        f"  median {statistics.median(rates):,.0f} commands/s "
        f"(min {min(rates):,.0f}, max {max(rates):,.0f}); target >= 20,000"
    )
    bench_legal(n_events, runs)
