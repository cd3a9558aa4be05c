"""`companion bench ledger`: durable commands per second through engine + ledger, against raw sqlite3.

Engine + ledger (WAL, synchronous=FULL) against a raw sqlite3 insert+commit of the same rows in the
same file system, run alternately; the fsync is the physical floor both share. A third run adds a
synced side file before each commit, as the ledger's anchor must: the two-sync floor.
"""

import os
import sqlite3
import statistics
import time

from companion.bench.common import PLAYERS, Stream, command_stream, scratch
from companion.table.service import new_game


def run_durable(games: Stream, folder: str) -> tuple[int, float]:
    count = 0
    start = time.perf_counter()
    for seed, lines, _ in games:
        table = new_game(os.path.join(folder, f"d{seed}-{time.perf_counter_ns()}.sqlite"), "elite", PLAYERS, seed)
        for line in lines:
            table.submit(line)
            count += 1
        table.close()
    return count, time.perf_counter() - start


def run_raw(games: Stream, folder: str, anchored: bool = False) -> tuple[int, float]:
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


def main(n_events: int = 1000, runs: int = 5) -> None:
    _, games = command_stream(n_events)
    n = sum(len(lines) for _, lines, _ in games)
    with scratch("companion-bench-") as folder:
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
