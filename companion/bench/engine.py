"""`companion bench ledger|engine|open`: figures as medians and ratios in one run.

ledger: durable commands per second through engine + ledger (WAL, synchronous=FULL),
        against a raw sqlite3 insert+commit of the same rows in the same file
        system, run alternately; the fsync is the physical floor both share.
engine: commands per second applied in memory on one core (no ledger); then, per edition,
        the cost of one `legal` call (for the table and for the player whose turn it is)
        over the states of a seeded autoplay game, against one `apply` in the same run.
open:   time to reopen games of 100 to 10,000 events in a fresh process (checkpoint + tail),
        against a full replay from the first event in the same run.
"""

import os
import random
import sqlite3
import statistics
import tempfile
import time

from companion.bots.autoplay import next_command
from companion.editions import load_edition, rules_for, shipped
from companion.engine.actions import TABLE
from companion.engine.game import Game
from companion.table.service import new_game

PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]


def command_stream(n, seed=1, edition="elite"):
    """A list of games' command lines (several games if one ends early)."""
    rules = rules_for(load_edition(edition))
    games, total = [], 0
    while total < n:
        rng = random.Random(seed)
        game = Game.start(rules, seed, PLAYERS)
        lines = []
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


def run_durable(games, folder):
    count = 0
    start = time.perf_counter()
    for seed, lines, _ in games:
        table = new_game(os.path.join(folder, f"d{seed}-{time.perf_counter_ns()}.sqlite"), "elite", PLAYERS, seed)
        for line in lines:
            table.submit(line)
            count += 1
        table.close()
    return count, time.perf_counter() - start


def run_raw(games, folder, anchored=False):
    """The floor: the same event and posting rows, one plain transaction each.

    anchored: also write and sync a small side file before each COMMIT, as the
    ledger's anchor must (the second sync every durable event pays).
    """
    count = 0
    side = os.open(os.path.join(folder, f"side-{time.perf_counter_ns()}"), os.O_RDWR | os.O_CREAT, 0o644)
    start = time.perf_counter()
    for seed, _, events in games:
        conn = sqlite3.connect(os.path.join(folder, f"r{seed}-{time.perf_counter_ns()}.sqlite"), isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("CREATE TABLE events(seq INTEGER PRIMARY KEY, command TEXT, notes TEXT, created_at TEXT)")
        conn.execute(
            "CREATE TABLE postings(seq INTEGER, leg INTEGER, account TEXT, amount INTEGER, PRIMARY KEY(seq, leg))"
        )
        for e in events[1:]:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO events VALUES (?,?,?,?)", (e.seq, e.command, "[]", "now"))
            conn.executemany(
                "INSERT INTO postings VALUES (?,?,?,?)",
                [(e.seq, i, p.account, p.amount) for i, p in enumerate(e.postings)],
            )
            if anchored:
                os.pwrite(side, f"{e.seq}".ljust(256).encode(), (e.seq % 2) * 256)
                os.fdatasync(side)
            conn.execute("COMMIT")
            count += 1
        conn.close()
    seconds = time.perf_counter() - start
    os.close(side)
    return count, seconds


def run_engine(rules, games):
    count = 0
    start = time.perf_counter()
    for seed, lines, _ in games:
        state = rules.new_state(PLAYERS, seed)
        for line in lines:
            state = rules.apply(state, line)
            count += 1
    return count, time.perf_counter() - start


def main(what, n_events=1000, runs=5):
    if what == "open":
        bench_open(runs)
        return
    rules, games = command_stream(n_events)
    n = sum(len(lines) for _, lines, _ in games)
    if what == "engine":
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, as the target says
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
        return
    with tempfile.TemporaryDirectory(prefix="companion-bench-", dir=os.environ.get("BENCH_DIR")) as folder:
        durable, raw, floor, ratios, floor_ratios = [], [], [], [], []
        for _ in range(runs):
            c1, t1 = run_durable(games, folder)
            c2, t2 = run_raw(games, folder)
            c3, t3 = run_raw(games, folder, anchored=True)
            durable.append(c1 / t1)
            raw.append(c2 / t2)
            floor.append(c3 / t3)
            ratios.append(t1 / t2)
            floor_ratios.append(t1 / t3)
    print(f"ledger: {n} commands x {runs} runs, WAL + synchronous=FULL, folder on {folder}")
    print(f"  engine+ledger   median {statistics.median(durable):,.0f} durable commands/s")
    print(f"  raw sqlite3     median {statistics.median(raw):,.0f} insert+commit/s (same rows)")
    print(f"  raw + a synced side file  median {statistics.median(floor):,.0f}/s (the anchor's floor: two syncs)")
    print(
        f"  cost ratio      median {statistics.median(ratios):.2f}x the raw commit "
        f"(min {min(ratios):.2f}, max {max(ratios):.2f}); the anchor's second sync alone makes ~2x"
    )
    print(
        f"  against the two-sync floor  median {statistics.median(floor_ratios):.2f}x "
        f"(min {min(floor_ratios):.2f}, max {max(floor_ratios):.2f}); target <= 2x"
    )


def game_states(rules, games):
    """(state before, command) of every command of the games, replayed in memory."""
    pairs = []
    for seed, lines, _ in games:
        state = rules.new_state(PLAYERS, seed)
        for line in lines:
            pairs.append((state, line))
            state = rules.apply(state, line)
    return pairs


def per_call_us(pairs, call, runs):
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


def on_turn(state):
    """The player actor measured: the one whose turn it is (or the first still playing)."""
    return state.turn if state.turn in state.alive else state.alive[0]


def legal_figures(edition, n_events, runs):
    """(states, apply, legal for the table, legal for the player on turn): medians in us per call."""
    rules, games = command_stream(n_events, seed=1, edition=edition)
    pairs = game_states(rules, games)
    apply = per_call_us(pairs, rules.apply, runs)
    table = per_call_us(pairs, lambda s, _: rules.legal(s, TABLE), runs)
    player = per_call_us(pairs, lambda s, _: rules.legal(s, on_turn(s)), runs)
    return len(pairs), apply, table, player


def bench_legal(n_events, runs):
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


def build_ledger(path, n_events, seed=1):
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


def open_times(path, full, runs):
    import subprocess
    import sys

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


def bench_open(runs):
    with tempfile.TemporaryDirectory(prefix="companion-bench-open-", dir=os.environ.get("BENCH_DIR")) as folder:
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
