"""`companion bench daemon`: a ROLL through the writer while phones read the heaviest pages, ROLL to booked.

The daemon runs as on the box with simulated hardware and its phone page server
(waitress on 127.0.0.1, a free port), an Elite game of four players played by
the autoplayer to `events` events (10,000: the sync elided while it is built,
then back to synchronous=FULL). Then the game goes on, and each ROLL among its
commands is timed from the moment it is handed to the writer thread (Owner.submit,
the queue the reader's ROLL waits in) until it is booked and published (submit
returned): median and p99 of `rolls` ROLLs, in four rounds of the same run:

1. baseline: nobody reads;
2. `spectators` spectators (8), each with its own session, fetching the
   heaviest page, /phone/export.json (the whole ledger in words), each once a
   second (a phone hammering its reload button);
3. the same spectators fetching it back to back, each again as soon as the
   last one arrived (over loopback: far more than a phone's Wi-Fi carries);
4. a stream storm: `streams` (200) clients opening /phone/events, reading its
   first line, closing and opening again.

The clients run in another process (spawned: they share no interpreter lock
with the daemon, as phones would not), so only this machine's cores are shared.
Also reported: one export of the whole game, cold (first) and warm, timed by a
client with nothing else running, and the clients' fetches per second.
Target: ROLL to booked p99 under 50 ms with 8 spectators refreshing the export.
Everything is bounded by deadlines and stops by itself; nothing leaves loopback.

Then the footprint (companion/bench/footprint.py): a fresh box in a process of its own, its resident
memory, threads and start-up times (READY, first OLED frame, first page served), with 0, 8 and 50
phone pages live and a tap's latency among them; again inside a cgroup standing in for a Zero 2 W.
"""

import http.client
import logging
import multiprocessing
import statistics
import tempfile
import threading
import time
from typing import Any

from companion.bench import footprint
from companion.bench.box import spectator, start_box
from companion.bench.common import PLAYERS, command_stream, median_p99_row, p99

EXPORT = "/phone/export.json"
MS = 1000.0


# ----- the clients (the spawned process) -------------------------------------------------------------------


def _fetch(port: int, cookie: str, path: str, timeout: float = 60.0) -> tuple[int, int]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"Cookie": cookie})
        response = conn.getresponse()
        return response.status, len(response.read())
    finally:
        conn.close()


def _open_stream(port: int, cookie: str) -> int:
    """Open /phone/events, read its first line (the stream is open: subscribed), close it."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", "/phone/events", headers={"Cookie": cookie})
        response = conn.getresponse()
        if response.status == 200:
            response.fp.readline()
        return response.status
    finally:
        conn.close()


def _clients(pipe: Any, port: int, cookies: list[str], kind: str, pace: float = 0.0) -> None:
    """One thread per cookie, each fetching the export (kind "export") or reopening a stream ("streams"),
    again as soon as the last ended or, with `pace`, every `pace` seconds, until the bench says "stop";
    then sends {"done": n, "errors": n, "statuses": {...}}."""
    stop = threading.Event()
    statuses: dict[int, int] = {}
    lock = threading.Lock()

    def run(cookie: str, offset: float) -> None:
        stop.wait(offset)  # paced phones are not in step with each other
        while not stop.is_set():
            started = time.monotonic()
            try:
                status = _fetch(port, cookie, EXPORT)[0] if kind == "export" else _open_stream(port, cookie)
            except OSError:
                status = -1
            with lock:
                statuses[status] = statuses.get(status, 0) + 1
            if pace:
                stop.wait(max(0.0, pace - (time.monotonic() - started)))

    threads = [
        threading.Thread(target=run, args=(c, pace * i / len(cookies)), daemon=True) for i, c in enumerate(cookies)
    ]
    for t in threads:
        t.start()
    pipe.send("started")
    pipe.poll(600)
    stop.set()
    for t in threads:
        t.join(35)
    done = sum(statuses.values())
    pipe.send({"done": done, "errors": done - statuses.get(200, 0), "statuses": statuses})


# ----- the run ------------------------------------------------------------------------------------------------


def _row(label: str, values: list[float], base: list[float] | None = None) -> str:
    ratio = ""
    if values and base:
        ratio = f"  ({statistics.median(values) / statistics.median(base):.2f}x, p99 {p99(values) / p99(base):.2f}x)"
    return median_p99_row(label, values, 44, "ms" + ratio)


def _rolls(owner: Any, lines: list[str], at: int, rolls: int) -> tuple[list[float], int]:
    """Play on from `lines[at]` until `rolls` ROLLs were timed: milliseconds each, and where play stopped."""
    times: list[float] = []
    while len(times) < rolls and at < len(lines):
        line = lines[at]
        at += 1
        if line.split()[0] == "roll":
            start = time.perf_counter()
            owner.submit("table", line)
            times.append((time.perf_counter() - start) * MS)
            time.sleep(0.02)  # a moment between ROLLs, as between turns
        else:
            owner.submit("table", line)
    return times, at


def _under_load(
    ctx: Any,
    port: int,
    cookies: list[str],
    kind: str,
    owner: Any,
    lines: list[str],
    at: int,
    rolls: int,
    pace: float = 0.0,
) -> tuple[list[float], int, dict[str, Any]]:
    here, there = ctx.Pipe()
    child = ctx.Process(target=_clients, args=(there, port, cookies, kind, pace), daemon=True)
    child.start()
    try:
        if not here.poll(60):
            raise RuntimeError("the clients did not start")
        here.recv()
        time.sleep(1.0)  # the load running before the first ROLL
        times, at = _rolls(owner, lines, at, rolls)
        here.send("stop")
        counts = here.recv() if here.poll(60) else {"done": 0, "errors": 0, "statuses": {}}
    finally:
        child.join(10)
        if child.is_alive():
            child.terminate()
    return times, at, counts


def main(events: int = 10_000, rolls: int = 60, spectators: int = 8, streams: int = 200, seed: int = 7) -> int:
    """Run the three rounds and print their rows; 0 (the target is reported, not enforced)."""

    logging.getLogger("waitress").setLevel(logging.ERROR)  # "task queue depth": the storm is the point here
    _, games = command_stream(events + 40 * rolls, seed=seed, edition="elite")
    lines = games[0][1]
    if len(lines) < events + 10 * rolls:
        raise RuntimeError("the autoplayer's game ended too early for this bench")
    ctx = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory(prefix="companion-bench-daemon-") as tmp:
        daemon = start_box(tmp, seed, PLAYERS)
        try:
            owner = daemon.owner
            table = owner.table
            assert table is not None
            owner.call(lambda: table.ledger.conn.execute("PRAGMA synchronous=OFF"))
            at = 0
            while owner.snapshot.head_seq < events:
                owner.submit("table", lines[at])
                at += 1
            owner.call(lambda: table.ledger.conn.execute("PRAGMA synchronous=FULL"))
            port, code = daemon.phone_server.port, daemon.phone.table_code()
            cookie = spectator(port, code)
            print(
                f"daemon with its phone page on waitress at 127.0.0.1:{port}, an Elite game of {len(PLAYERS)} "
                f"players at event #{owner.snapshot.head_seq} (WAL, synchronous=FULL); clients in another process"
            )
            exports = []
            for _ in range(3):
                start = time.perf_counter()
                status, size = _fetch(port, cookie, EXPORT)
                exports.append((time.perf_counter() - start) * MS)
                if status != 200:
                    raise RuntimeError(f"the export answered {status}")
            print(
                f"  {EXPORT} of #{owner.snapshot.head_seq} events ({size:,} bytes), nothing else running: "
                f"cold {exports[0]:.0f} ms, warm {statistics.median(exports[1:]):.0f} ms (target: under 1 s)"
            )
            print(f"ROLL handed to the writer to booked, {rolls} ROLLs a round, ms:")
            print(f"  {'':<44} {'median':>9} {'p99':>9}")
            base, at = _rolls(owner, lines, at, rolls)
            print(_row("baseline: nobody reads", base))
            cookies = [spectator(port, code) for _ in range(spectators)]
            paced, at, counts = _under_load(ctx, port, cookies, "export", owner, lines, at, rolls, pace=1.0)
            print(_row(f"{spectators} spectators, the export every second", paced, base))
            print(f"    (exports fetched: {counts['done'] - counts['errors']}, refused or failed: {counts['errors']})")
            loaded, at, counts = _under_load(ctx, port, cookies, "export", owner, lines, at, rolls)
            print(_row(f"{spectators} spectators, the export back to back", loaded, base))
            print(
                f"    (exports fetched: {counts['done'] - counts['errors']}, refused or failed: {counts['errors']}; "
                "as fast as loopback carries them, far beyond a phone's Wi-Fi)"
            )
            stream_cookies = [spectator(port, code) for _ in range(streams)]
            storm, at, counts = _under_load(ctx, port, stream_cookies, "streams", owner, lines, at, rolls)
            print(_row(f"{streams} streams reopening", storm, base))
            print(f"    (streams opened: {counts['done'] - counts['errors']}, refused or failed: {counts['errors']})")
            for label, samples in (("every second", paced), ("back to back", loaded)):
                worst = p99(samples) if samples else float("inf")
                print(
                    f"  p99 with {spectators} spectators exporting {label}: {worst:.1f} ms "
                    f"({'met' if worst < 50 else 'NOT met'}: target under 50 ms)"
                )
            print("the clients share this machine's cores with the daemon; on the box they are phones.")
            # this process holds the daemon with a long game after its exports: an upper bound for the box's
            # memory (the bench's own lines and the game's command stream are counted in it too)
            rss = _status("VmRSS") / 1024
            print(f"  this process after the rounds (daemon, #{owner.snapshot.head_seq} events, bench): {rss:.1f} MB")
            print(f"  resident, peak {_status('VmHWM') / 1024:.1f} MB, {threading.active_count()} threads")
        finally:
            daemon.stop(quiet=True)
    footprint.report()
    return 0


def _status(key: str) -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith(key + ":"))
