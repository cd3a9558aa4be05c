"""The `legal` figures of `companion bench engine`: per edition, one `legal` call against one `apply`.

Over the states of a seeded autoplay game, the cost of one `legal` call for the table and for the
player whose turn it is, against one `apply` measured alongside in the same run.
"""

import statistics
import time
from collections.abc import Callable
from typing import Any

from companion.bench.common import PLAYERS, Stream, command_stream
from companion.editions import shipped
from companion.engine.actions import TABLE


def game_states(rules: Any, games: Stream) -> list[tuple[Any, str]]:
    """(state before, command) of every command of the games, replayed in memory."""
    pairs = []
    for seed, lines, _ in games:
        state = rules.new_state(PLAYERS, seed)
        for line in lines:
            pairs.append((state, line))
            state = rules.apply(state, line)
    return pairs


def per_call_us(pairs: list[tuple[Any, str]], call: Callable[[Any, str], object], runs: int) -> float:
    """Median microseconds of call(state, line) over every pair, all runs pooled (the first run warms up)."""
    clock = time.perf_counter_ns
    times = []
    for run in range(runs + 1):
        for state, line in pairs:
            start = clock()
            call(state, line)
            elapsed = clock() - start
            if run:
                times.append(elapsed)
    return statistics.median(times) / 1000


def on_turn(state: Any) -> str:
    """The player actor measured: the one whose turn it is (or the first still playing)."""
    return state.turn if state.turn in state.alive else state.alive[0]


def legal_figures(edition: str, n_events: int, runs: int) -> tuple[int, float, float, float]:
    """(states, apply, legal for the table, legal for the player on turn): medians in us per call."""
    rules, games = command_stream(n_events, seed=1, edition=edition)
    pairs = game_states(rules, games)
    apply = per_call_us(pairs, rules.apply, runs)
    table = per_call_us(pairs, lambda s, _: rules.legal(s, TABLE), runs)
    player = per_call_us(pairs, lambda s, _: rules.legal(s, on_turn(s)), runs)
    return len(pairs), apply, table, player


def bench_legal(n_events: int, runs: int) -> None:
    """Per edition: one `legal` call for the table and for a player, against one `apply`, in one run."""
    print(
        f"legal: median us per call over the states of seeded autoplay play ({runs} runs); "
        "x = against one apply, measured alongside"
    )
    print(f"  {'edition':<15} {'states':>6}  {'apply':>9}  {'legal, table':>21}  {'legal, player on turn':>21}")
    for edition in shipped():
        states, apply, table, player = legal_figures(edition, n_events, runs)
        print(
            f"  {edition:<15} {states:>6}  {apply:>6.1f} us  "
            f"{table:>9.1f} us ({table / apply:>5.1f}x)  "
            f"{player:>9.1f} us ({player / apply:>5.1f}x)"
        )
