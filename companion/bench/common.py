"""What the benchmarks share: the seeded command stream, the core they pin to, percentiles and a figures row.

Nothing heavy is imported here at module level: the web and daemon benches' clients run in spawned
processes that import their bench module (and so this one) and should start light.
"""

import os
import random
import statistics
import tempfile
from typing import Any

PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]

Stream = list[tuple[int, list[str], Any]]  # per game: (seed, its command lines, its events)


def command_stream(n: int, seed: int = 1, edition: str = "elite") -> tuple[Any, Stream]:
    """A list of games' command lines (several games if one ends early): (the edition's rules, the games)."""
    from companion.bots.autoplay import next_command
    from companion.editions import load_edition, rules_for
    from companion.engine.game import Game

    rules = rules_for(load_edition(edition))
    games, total = [], 0
    while total < n:
        rng = random.Random(seed)
        game = Game.start(rules, seed, PLAYERS)
        lines: list[str] = []
        while total + len(lines) < n and game.state.phase != "over":
            line, _ = next_command(game, rng)
            if line is None:
                break
            game.apply(line)
            lines.append(line)
        games.append((seed, lines, game.events))
        total += len(lines)
        seed += 1
    return rules, games


def scratch(prefix: str) -> "tempfile.TemporaryDirectory[str]":
    """A temporary folder for ledgers a bench writes, under $BENCH_DIR if set (to measure another file system)."""
    return tempfile.TemporaryDirectory(prefix=prefix, dir=os.environ.get("BENCH_DIR"))


def one_core() -> int:
    """The core a one-core figure runs on: the lowest this process may use."""
    return min(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 0


# ----- the figures -------------------------------------------------------------------------------------------
# Two 99th percentiles, each kept as the bench that reports it has always computed it (a figure's method
# does not change under a refactor): the reader's path (link, table) interpolates, the phone page's
# (web, daemon) takes the nearest rank.


def p99(values: list[float]) -> float:
    """The 99th percentile, nearest rank (the worst value with fewer than 100 samples)."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, -(-99 * len(ordered) // 100) - 1))]


def p99_inclusive(values: list[float]) -> float:
    """The 99th percentile interpolated between samples (statistics.quantiles, inclusive); one sample: itself."""
    return statistics.quantiles(values, n=100, method="inclusive")[98] if len(values) > 1 else values[0]


def median_p99_row(label: str, values: list[float], width: int, tail: str) -> str:
    """One row of a latency table: the label, the median and the nearest-rank p99 in ms, then `tail`."""
    if not values:
        return f"  {label:<{width}} {'-':>9} {'-':>9}  (no samples)"
    return f"  {label:<{width}} {statistics.median(values):>9.2f} {p99(values):>9.2f}  {tail}"
