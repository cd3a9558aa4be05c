"""`companion bench sim`: whole simulated games per second on one core, per edition, against the peer.

For every edition: games/s, rounds/s and mean rounds per game, with the invariants checked after
every event and without, played by the simulator's bots (companion.sim.runner.play_game: each
command chosen from Rules.legal and applied once) through the same Rules the table runs. A round
is one pass in which every live player takes a turn, counted the same way for the peer.

`--peer DIR` also plays a copy of gamescomputersplay/monopoly found at DIR, imported at run time in
a child process with DIR first on sys.path (never vendored): its monopoly_game() one game after
another, its event log off, its bankruptcies file in a temporary folder, its "All Rich" early stop
disabled (only a last survivor ends a game), with our round cap. `--baseline DIR` plays our own
games again with the companion package of another checkout (an older commit), so a speedup is a
ratio measured in the same run. Every row runs in its own child process pinned to one core; the
rows take turns and each figure is the median of the repeats.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass

from companion.bench.common import one_core

ROUND_CAP = 1000
PLAYERS = 4
# the checkout this package is in (companion/bench/sim.py: three levels up), whose engine the rows play
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# One row of ours: play_game from the companion package under sys.argv[1], one game after another
# (a short warm-up game first, not counted).
_OURS = r"""
import json, os, sys, time
sys.path.insert(0, sys.argv[1])
from companion.sim.runner import play_game
edition, games, invariants, cap = sys.argv[2], int(sys.argv[3]), sys.argv[4] == "on", int(sys.argv[5])
play_game(edition, 10**6, invariants=invariants, round_cap=min(cap, 20))
rounds = events = 0
start = time.perf_counter()
for seed in range(1, games + 1):
    record = play_game(edition, seed, invariants=invariants, round_cap=cap)
    rounds += record.rounds
    events += record.events
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "games": games, "rounds": rounds, "events": events}))
"""

# The floor row: the same games, their commands parsed beforehand and applied by Rules.apply alone
# (no bots, no legal lists, no Game wrapper, invariants off). No decision-making can make a game
# faster than this: it is the ceiling of the present engine for any simulator built on it.
_FLOOR = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from companion.editions import load_edition, rules_for
from companion.engine.actions import TABLE
from companion.engine.command import parse_command, split_actor
from companion.sim.runner import play_game, seat_names, switch_off_invariants
edition, games, cap = sys.argv[2], int(sys.argv[3]), int(sys.argv[5])
rules = rules_for(load_edition(edition))
switch_off_invariants(rules)
rounds = events = 0
seconds = 0.0
for seed in range(1, games + 1):
    record = play_game(edition, seed, invariants=False, round_cap=cap)
    steps = []
    for line in record.lines[1:]:
        actor, text = split_actor(line)
        steps.append((actor or TABLE, parse_command(text)))
    start = time.perf_counter()
    state = rules.new_state(seat_names(len(record.players)), seed)
    for seq, (actor, cmd) in enumerate(steps, 2):
        state = rules.apply(state, cmd, actor, seq=seq)
    seconds += time.perf_counter() - start
    rounds += record.rounds
    events += len(steps) + 1
print(json.dumps({"seconds": seconds, "games": games, "rounds": rounds, "events": events}))
"""

# The peer's row: its own game function with its own seed scheme; a round is counted for every
# pass over the players that was played (the end check runs before each pass).
_PEER = r"""
import json, pathlib, random, sys, tempfile, time
sys.path.insert(0, sys.argv[1])
games, cap = int(sys.argv[2]), int(sys.argv[3])
import settings
from monopoly.log_settings import LogSettings
import monopoly.core.game as peer_game
LogSettings.KEEP_GAME_LOG = False
LogSettings.BANKRUPTCIES_PATH = pathlib.Path(tempfile.mkdtemp(prefix="bench-peer-")) / "bankruptcies.tsv"
type.__setattr__(settings.SimulationSettings, "n_moves", cap)
checks = []
def until_one_left(players, log, game_number, turn_n):
    stop = sum(1 for p in players if not p.is_bankrupt) < 2
    checks.append((turn_n, stop))
    return stop
peer_game._check_end_conditions = until_one_left
rng = random.Random(0)
seeds = [(i + 1, rng.getrandbits(32)) for i in range(games)]
rounds = 0
start = time.perf_counter()
for pair in seeds:
    checks.clear()
    peer_game.monopoly_game(pair)
    turn_n, stop = checks[-1]
    rounds += turn_n - 1 if stop else turn_n
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "games": games, "rounds": rounds, "events": 0}))
"""


@dataclass(frozen=True)
class Row:
    """One line of the report: whose games, which edition, invariants on or off."""

    label: str  # ours, baseline, floor (apply alone), peer
    edition: str
    invariants: bool
    root: str  # the folder put first on the child's sys.path


@dataclass(frozen=True)
class Figures:
    games_s: float
    rounds_s: float
    rounds_game: float
    events_s: float


class BenchError(Exception):
    """A row could not run (no peer at DIR, no simulator in the baseline), or nothing to measure: one
    line for the user, a SIM message code with its parameters (str() is the English line)."""

    def __init__(self, key: str, **params: object):
        self.key, self.params = key, params
        super().__init__(self.say("en"))

    def say(self, lang: str) -> str:
        from companion.sim.report import say

        return say(self.key, lang, **self.params)


def run_row(row: Row, games: int, round_cap: int) -> Figures:
    """Play one row's games in a child process pinned to one core; its figures."""
    if row.label == "peer":
        argv = ["-c", _PEER, row.root, str(games), str(round_cap)]
    elif row.label == "floor":
        argv = ["-c", _FLOOR, row.root, row.edition, str(games), "off", str(round_cap)]
    else:
        argv = ["-c", _OURS, row.root, row.edition, str(games), "on" if row.invariants else "off", str(round_cap)]
    core = one_core()

    def pin() -> None:
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {core})

    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, *argv], capture_output=True, text=True, cwd=row.root, env=env, preexec_fn=pin
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise BenchError("bench_row_failed", label=row.label, path=row.root, last=last)
    data = json.loads(done.stdout.strip().splitlines()[-1])
    seconds = data["seconds"]
    return Figures(
        data["games"] / seconds, data["rounds"] / seconds, data["rounds"] / data["games"], data["events"] / seconds
    )


def check_peer(folder: str) -> None:
    if not os.path.isfile(os.path.join(folder, "monopoly", "core", "game.py")):
        raise BenchError("bench_no_peer", path=folder)


def check_baseline(folder: str) -> None:
    if not os.path.isfile(os.path.join(folder, "companion", "sim", "runner.py")):
        raise BenchError("bench_no_baseline", path=folder)


def medians(runs: list[Figures]) -> Figures:
    return Figures(
        *(statistics.median(getattr(r, f) for r in runs) for f in ("games_s", "rounds_s", "rounds_game", "events_s"))
    )


def main(
    games: int = 20,
    peer: str | None = None,
    editions: list[str] | None = None,
    repeats: int = 3,
    baseline: str | None = None,
    round_cap: int = ROUND_CAP,
    out: Callable[[str], None] = print,
) -> dict[tuple[str, str, bool], Figures]:
    """Print the report; return the figures by (label, edition, invariants) for tests and notes."""
    from companion.editions import shipped

    editions = editions or shipped()
    unknown = [e for e in editions if e not in shipped()]
    if unknown:
        raise BenchError("bench_unknown_edition", name=unknown[0], known=", ".join(shipped()))
    # nothing to measure is said, not divided by (--games 0 was a ZeroDivisionError, -3 printed
    # negative games/s as a figure)
    for option, value in (("--games", games), ("--repeats", repeats), ("--round-cap", round_cap)):
        if value < 1:
            raise BenchError("bench_number", option=option, low=1, value=value)
    if peer:
        check_peer(peer)
    if baseline:
        check_baseline(baseline)
    rows = [Row("ours", e, inv, REPO) for e in editions for inv in (True, False)]
    rows += [Row("floor", e, False, REPO) for e in editions]
    if baseline:
        rows += [Row("baseline", e, False, os.path.abspath(baseline)) for e in editions]
    if peer:
        rows.append(Row("peer", "monopoly", False, os.path.abspath(peer)))
    out(
        f"sim: {games} games a row x {repeats} repeats (rows take turns), {PLAYERS} players, "
        f"cap {round_cap} rounds, one core (cpu {one_core()}), a child process a row; medians"
    )
    runs: dict[Row, list[Figures]] = {row: [] for row in rows}
    for _ in range(repeats):
        for row in rows:
            runs[row].append(run_row(row, games, round_cap))
    results = {(row.label, row.edition, row.invariants): medians(runs[row]) for row in rows}
    out(
        f"  {'who':<10} {'edition':<15} {'invariants':<10} {'games/s':>9} {'rounds/s':>10} {'rounds/game':>12} "
        f"{'events/s':>10}"
    )
    for row in rows:
        f = results[(row.label, row.edition, row.invariants)]
        name = {"peer": "peer: gcp", "floor": "apply only"}.get(row.label, row.label)
        events = f"{f.events_s:>10,.0f}" if row.label != "peer" else f"{'-':>10}"
        inv = "on" if row.invariants else "off"
        out(
            f"  {name:<10} {row.edition:<15} {inv:<10} {f.games_s:>9.2f} {f.rounds_s:>10,.0f} "
            f"{f.rounds_game:>12.1f} {events}"
        )
    if baseline:
        for e in editions:
            now, then = results[("ours", e, False)], results[("baseline", e, False)]
            out(f"  {e}: rounds/s against the baseline, invariants off: {now.rounds_s / then.rounds_s:.2f}x")
    for e in editions:
        now, floor = results[("ours", e, False)], results[("floor", e, False)]
        out(
            f"  {e}: the simulator at {now.rounds_s / floor.rounds_s:.2f}x of its ceiling (the same games' "
            f"commands applied alone: {floor.rounds_s:,.0f} rounds/s)"
        )
    if peer and "monopoly" in editions:
        theirs = results[("peer", "monopoly", False)].rounds_s
        off, on = results[("ours", "monopoly", False)].rounds_s, results[("ours", "monopoly", True)].rounds_s
        out(
            f"  monopoly rounds/s against the peer's: invariants off {off / theirs:.3f}x, on {on / theirs:.3f}x "
            f"(target >= 1x with believable game lengths); the ceiling (apply alone) "
            f"{results[('floor', 'monopoly', False)].rounds_s / theirs:.3f}x"
        )
    return results
