"""`companion bench ledger|engine`: throughput figures as medians and ratios in one run.

ledger: durable commands per second through engine + ledger (WAL, synchronous=FULL),
        against a raw sqlite3 insert+commit of the same rows in the same file
        system, run alternately; the fsync is the physical floor both share.
engine: commands per second applied in memory on one core (no ledger).
"""
import os
import random
import statistics
import tempfile
import time

from companion.autoplay import next_command
from companion.editions import load_edition, rules_for
from companion.engine.game import Game
import sqlite3

from companion.table import new_game

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


def run_raw(games, folder):
    """The floor: the same event and posting rows, one plain transaction each."""
    count = 0
    start = time.perf_counter()
    for seed, _, events in games:
        conn = sqlite3.connect(os.path.join(folder, f"r{seed}-{time.perf_counter_ns()}.sqlite"),
                               isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("CREATE TABLE events(seq INTEGER PRIMARY KEY, command TEXT, notes TEXT, created_at TEXT)")
        conn.execute("CREATE TABLE postings(seq INTEGER, leg INTEGER, account TEXT, amount INTEGER, "
                     "PRIMARY KEY(seq, leg))")
        for e in events[1:]:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO events VALUES (?,?,?,?)", (e.seq, e.command, "[]", "now"))
            conn.executemany("INSERT INTO postings VALUES (?,?,?,?)",
                             [(e.seq, i, p.account, p.amount) for i, p in enumerate(e.postings)])
            conn.execute("COMMIT")
            count += 1
        conn.close()
    return count, time.perf_counter() - start


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
    rules, games = command_stream(n_events)
    n = sum(len(lines) for _, lines, _ in games)
    if what == "engine":
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})   # one core, as the target says
        rates = []
        for _ in range(runs + 1):
            count, seconds = run_engine(rules, games)
            rates.append(count / seconds)
        rates = rates[1:]                    # the first run warms up
        print(f"engine: {n} commands x {runs} runs, in memory, one core")
        print(f"  median {statistics.median(rates):,.0f} commands/s "
              f"(min {min(rates):,.0f}, max {max(rates):,.0f}); target >= 20,000")
        return
    with tempfile.TemporaryDirectory(prefix="companion-bench-", dir=os.environ.get("BENCH_DIR")) as folder:
        durable, raw, ratios = [], [], []
        for _ in range(runs):
            c1, t1 = run_durable(games, folder)
            c2, t2 = run_raw(games, folder)
            durable.append(c1 / t1)
            raw.append(c2 / t2)
            ratios.append(t1 / t2)
    print(f"ledger: {n} commands x {runs} runs, WAL + synchronous=FULL, folder on {folder}")
    print(f"  engine+ledger  median {statistics.median(durable):,.0f} durable commands/s")
    print(f"  raw sqlite3    median {statistics.median(raw):,.0f} insert+commit/s (same rows)")
    print(f"  cost ratio     median {statistics.median(ratios):.2f}x the raw commit "
          f"(min {min(ratios):.2f}, max {max(ratios):.2f}); target <= 2x")
