"""`companion bench open`: the time to reopen a game of 100 to 10,000 events in a fresh process.

Each open runs in a new interpreter (checkpoint + tail), against a full replay from the first event
(what `companion verify` does) of the same file in the same run.
"""

import os
import random
import statistics
import subprocess
import sys

from companion.bench.common import PLAYERS, scratch
from companion.bots.autoplay import next_command
from companion.table.service import new_game

OPEN_SIZES = (100, 1000, 3000, 10000)

# a fresh interpreter times one open: the imports come first and are not counted
_OPEN_CHILD = """
import sys, time
from companion.table.service import open_game
path, full = sys.argv[1], sys.argv[2] == "full"
start = time.perf_counter()
table = open_game(path, full_replay=full)
seconds = time.perf_counter() - start
assert table.head()[0] > 0 and table.game.after
print(seconds)
table.close()
"""


def build_ledger(path: str, n_events: int, seed: int = 1) -> int:
    """A game ledger of exactly n_events events: autoplay, and table payments once a game ends."""
    table = new_game(path, "classic", PLAYERS, seed)
    rng = random.Random(seed)
    while len(table.game.events) < n_events:
        line = None
        if table.state.phase != "over":
            line, _ = next_command(table.game, rng)
        if line is None:
            break
        table.submit(line)
    count = len(table.game.events)
    table.close()
    return count


def open_times(path: str, full: bool, runs: int) -> tuple[float, float, float]:
    """(median, min, max) seconds of `runs` opens of the ledger at `path`, each in a fresh process."""
    times = []
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-c", _OPEN_CHILD, path, "full" if full else "quick"],
            capture_output=True,
            text=True,
            check=True,
        )
        times.append(float(done.stdout.strip()))
    return statistics.median(times), min(times), max(times)


def main(runs: int = 5) -> None:
    with scratch("companion-bench-open-") as folder:
        os.environ.setdefault("COMPANION_STATE_DIR", os.path.join(folder, "state"))
        print(f"open: a fresh process per open, {runs} runs each; medians (min-max)")
        print("  events   open (checkpoint + tail)     full replay (companion verify)   ratio")
        for size in OPEN_SIZES:
            path = os.path.join(folder, f"g{size}.sqlite")
            seed, count = 1, 0
            while count < size and seed < 50:
                if os.path.exists(path):
                    for suffix in ("", "-wal", "-shm"):
                        if os.path.exists(path + suffix):
                            os.remove(path + suffix)
                count = build_ledger(path, size, seed)
                seed += 1
            quick = open_times(path, False, runs)
            full = open_times(path, True, runs)
            print(
                f"  {count:>6}   {quick[0] * 1000:7.1f} ms ({quick[1] * 1000:.1f}-{quick[2] * 1000:.1f})"
                f"        {full[0] * 1000:8.1f} ms ({full[1] * 1000:.1f}-{full[2] * 1000:.1f})"
                f"        {full[0] / quick[0]:5.1f}x"
            )
        print("  target: open under 30 ms here")
