"""`companion bench web`: the phone page under load, with waitress on loopback: table view against a static file, commit to 50 live pages.

The daemon runs as on the box with simulated hardware, an Elite game open, and
its own phone page server (waitress, `phone.threads` from the config: 64, sized
for 8 phones and these 50 pages), bound to 127.0.0.1 on a free port. The
clients are another process (spawned, so they share no interpreter lock with
the server): the phones are other machines, only the two cores are shared.

1. Requests per second, keep-alive, a fixed number of client threads each on
   its own connection (http.client): the table view (`/phone/table`, a
   spectator's session: the whole page, read on the writer thread) against
   the page's script (`/phone/static/phone.js`) from the same server, in
   alternating rounds of the same length, on a game the autoplayer has
   taken `history` events along (150); medians, and the ratio.
   Target: the table view at least half as fast as the static file.
2. Commit to arrival: every page holds a live stream (`/phone/events`, a
   spectator session each); the bench submits payments through the daemon's
   single writer (Owner.submit, as the reader, the buttons and the phones
   do), one at a time, each after the last has reached every page, and notes
   when each page's stream delivers its id (time.monotonic, one clock for
   both processes). Per arrival (commits x pages samples) and per commit until
   the last of the pages has it: median and p99. The same with one page is
   the baseline in the same run; the booking alone (submit returned) beside.
   Target: p99 under 100 ms with 50 pages.

Everything is bounded (rounds of fixed length, a deadline on every wait) and
stops by itself; nothing leaves loopback.
"""

import http.client
import multiprocessing
import re
import selectors
import socket
import statistics
import tempfile
import threading
import time
from typing import Any

from companion.bench.box import spectator, start_box
from companion.bench.common import median_p99_row, p99

__all__ = ["main", "p99"]  # p99: the nearest-rank percentile this bench reports (tests/test_bench_web.py)

STATIC = "/phone/static/phone.js"
TABLE = "/phone/table"
PLAYERS = ["Anna", "Boris", "Vera"]
WAIT_S = 5.0  # the longest a commit may take to reach every page before it counts as missing
MS = 1000.0


# ----- the clients (the spawned process) -------------------------------------------------------------------


def _rates(port: int, cookie: str, paths: list[str], rounds: int, seconds: float, threads: int) -> dict[str, Any]:
    """Requests per second for each path: `rounds` rounds of `seconds` each, paths alternating in order;
    `threads` threads each on its own keep-alive connection. {path: [req/s per round], "errors": n}."""
    out: dict[str, Any] = {path: [] for path in paths}
    out["errors"] = 0
    conns = [http.client.HTTPConnection("127.0.0.1", port, timeout=10) for _ in range(threads)]
    headers = {"Cookie": cookie, "Accept-Language": "en"}

    def burst(path: str, span: float) -> float:
        counts, errors = [0] * threads, [0] * threads
        go = threading.Barrier(threads + 1)
        stop_at = [0.0]

        def run(i: int) -> None:
            conn = conns[i]
            go.wait()
            while time.monotonic() < stop_at[0]:
                try:
                    conn.request("GET", path, headers=headers)
                    response = conn.getresponse()
                    response.read()
                    if response.status == 200:
                        counts[i] += 1
                    else:
                        errors[i] += 1
                except (OSError, http.client.HTTPException):
                    errors[i] += 1
                    conn.close()  # http.client reconnects on the next request

        workers = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(threads)]
        for w in workers:
            w.start()
        started = time.monotonic()
        stop_at[0] = started + span
        go.wait()
        for w in workers:
            w.join(span + 15)
        elapsed = time.monotonic() - started
        out["errors"] += sum(errors)
        return sum(counts) / elapsed

    for path in paths:  # warm-up, not counted: connections open, caches filled
        burst(path, min(0.3, seconds))
    for r in range(rounds):
        for path in paths if r % 2 == 0 else paths[::-1]:
            out[path].append(burst(path, seconds))
    for conn in conns:
        conn.close()
    return out


_ID = re.compile(rb"id: (\d+)\nevent: ledger\n")


def _listen(port: int, cookies: list[str], since: int, pipe: Any, deadline_s: float) -> None:
    """Open one live stream per cookie, say "ready" once every stream has answered, then note when each
    ledger event's id arrives on each page; once every page has an event, send (seq, [arrival times]).
    Ends on "stop" from the bench, or at the deadline."""
    selector = selectors.DefaultSelector()
    socks = []
    for i, cookie in enumerate(cookies):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(
            (
                f"GET /phone/events?since={since} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                f"Cookie: {cookie}\r\nAccept: text/event-stream\r\nAccept-Language: en\r\n\r\n"
            ).encode()
        )
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, i)
        socks.append(sock)
    buffers = [b""] * len(cookies)
    answered = [False] * len(cookies)
    arrivals: dict[int, dict[int, float]] = {}
    said_ready = False
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        if pipe.poll() and pipe.recv() == "stop":
            break
        for key, _ in selector.select(timeout=0.05):
            now = time.monotonic()
            i = key.data
            try:
                data = key.fileobj.recv(65536)  # type: ignore[union-attr]
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if not data:
                selector.unregister(key.fileobj)
                continue
            buffers[i] += data
            if not answered[i] and b"retry:" in buffers[i]:
                answered[i] = True
            last = 0
            for found in _ID.finditer(buffers[i]):
                seq = int(found.group(1))
                arrivals.setdefault(seq, {}).setdefault(i, now)
                last = found.end()
                if len(arrivals[seq]) == len(cookies):
                    pipe.send((seq, [arrivals[seq][k] for k in range(len(cookies))]))
            buffers[i] = buffers[i][last:] if last else buffers[i][-4096:]
        if not said_ready and all(answered):
            said_ready = True
            pipe.send("ready")
    for sock in socks:
        sock.close()
    pipe.send("done")


def _rates_child(pipe: Any, *args: Any) -> None:
    pipe.send(_rates(*args))


# ----- the box and its sessions ------------------------------------------------------------------------------


def _check_view(port: int, cookie: str) -> int:
    """The table view really is the table (not the join page or a redirect): its size in bytes."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", TABLE, headers={"Cookie": cookie})
        response = conn.getresponse()
        body = response.read()
        if response.status != 200 or b'id="players"' not in body:
            raise RuntimeError(f"the table view answered {response.status} without the players")
        return len(body)
    finally:
        conn.close()


def _size(port: int, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        return len(conn.getresponse().read())
    finally:
        conn.close()


def _commits(
    daemon: Any, pages: list[str], commits: int, ctx: Any
) -> tuple[list[float], list[float], list[float], int]:
    """Open `pages` live streams in the clients' process and submit `commits` payments one at a time:
    (every arrival's ms, each commit's ms until its last page, each booking's ms, commits missing)."""
    owner = daemon.owner
    here, there = ctx.Pipe()
    since = owner.table.head_seq
    child = ctx.Process(
        target=_listen,
        args=(daemon.phone_server.port, pages, since, there, 30.0 + commits * (WAIT_S + 0.1)),
        daemon=True,
    )
    child.start()
    arrivals: list[float] = []
    last_page: list[float] = []
    booking: list[float] = []
    missing = 0
    try:
        if not here.poll(30) or here.recv() != "ready":
            raise RuntimeError("the live pages did not open")
        for n in range(commits):
            payer, payee = (PLAYERS[0], PLAYERS[1]) if n % 2 == 0 else (PLAYERS[1], PLAYERS[0])
            started = time.monotonic()
            event = owner.submit(payer, f"pay {payer} {payee} 1")
            booked = time.monotonic()
            booking.append((booked - started) * MS)
            got = None
            wait_until = booked + WAIT_S
            while time.monotonic() < wait_until and here.poll(max(0.0, wait_until - time.monotonic())):
                message = here.recv()
                if isinstance(message, tuple) and message[0] == event.seq:
                    got = message[1]
                    break
            if got is None:
                missing += 1
                continue
            times = [(t - started) * MS for t in got]
            arrivals.extend(times)
            last_page.append(max(times))
            time.sleep(0.005)  # a moment between commits, as between taps
    finally:
        here.send("stop")
        child.join(10)
        if child.is_alive():
            child.terminate()
    return arrivals, last_page, booking, missing


# ----- the run ------------------------------------------------------------------------------------------------


def _row(label: str, values: list[float], unit: str = "ms", note: str = "") -> str:
    return median_p99_row(label, values, 52, unit + ("  " + note if note else ""))


def _history(daemon: Any, events: int, seed: int) -> int:
    """Play `events` events of the autoplayer through the writer (a game under way: a price history,
    owned plots, a ledger to page through); the ledger's head."""
    import random

    from companion.bots.autoplay import next_command

    owner, rng = daemon.owner, random.Random(seed)
    for _ in range(events):
        line, _ = owner.call(lambda: next_command(owner.table.game, rng))
        if line is None:
            break
        owner.submit("table", line)
        if owner.table.state.phase == "over":
            raise RuntimeError("the warm-up game ended: use fewer events")
    return int(owner.table.head_seq)


def main(
    pages: int = 50,
    commits: int = 100,
    rounds: int = 5,
    seconds: float = 1.0,
    threads: int = 4,
    seed: int = 7,
    history: int = 150,
) -> int:
    """Run both parts and print their rows; 0 (the targets are reported, not enforced)."""
    from companion.daemon.main import wait_for

    ctx = multiprocessing.get_context("spawn")  # the clients: no copy of the daemon's threads or locks
    with tempfile.TemporaryDirectory(prefix="companion-bench-web-") as tmp:
        daemon = start_box(tmp, seed, PLAYERS)
        try:
            wait_for(lambda: daemon.link is not None and daemon.link.state.state == "ready", timeout=10)
            port, code = daemon.phone_server.port, daemon.phone.table_code()
            threads_cfg = daemon.config["phone.threads"]
            played = _history(daemon, history, seed)
            print(
                f"phone page on waitress at 127.0.0.1:{port}: {threads_cfg} threads (phone.threads), "
                f"an Elite game of {len(PLAYERS)} players at event #{played}; the clients in another process"
            )

            # 1. the table view against a static file, the same server, alternating rounds
            cookie = spectator(port, code)
            view_bytes, static_bytes = _check_view(port, cookie), _size(port, STATIC)
            here, there = ctx.Pipe()
            child = ctx.Process(
                target=_rates_child, daemon=True, args=(there, port, cookie, [STATIC, TABLE], rounds, seconds, threads)
            )
            child.start()
            if not here.poll(60 + rounds * 2 * (seconds + 16)):
                child.terminate()
                raise RuntimeError("the request clients did not finish")
            rates = here.recv()
            child.join(10)
            static, table = statistics.median(rates[STATIC]), statistics.median(rates[TABLE])
            ratio = table / static if static else 0.0
            print(
                f"requests/s, keep-alive, {threads} client threads, {rounds} rounds of {seconds:g} s each, "
                f"medians (errors: {rates['errors']}):"
            )
            print(f"  static file {STATIC} ({static_bytes} bytes)          {static:>9.0f} req/s")
            print(f"  table view {TABLE} ({view_bytes} bytes)                {table:>9.0f} req/s")
            met_rate = ratio >= 0.5
            print(f"  table view / static file: {ratio:.2f} ({'met' if met_rate else 'NOT met'}: target at least 0.50)")

            # 2. a commit to its arrival on the live pages: one page (baseline), then `pages`
            print(
                f"commit (a payment submitted through the daemon) to its arrival on live pages, "
                f"{commits} commits each, median and p99:"
            )
            print(f"  {'':<52} {'median':>9} {'p99':>9}")
            one, _, book_one, miss_one = _commits(daemon, [spectator(port, code)], commits, ctx)
            print(_row("1 live page (baseline)", one))
            cookies = [spectator(port, code) for _ in range(pages)]
            arrivals, last_page, booking, missing = _commits(daemon, cookies, commits, ctx)
            print(_row(f"{pages} live pages: each arrival ({len(arrivals)} samples)", arrivals))
            print(_row(f"{pages} live pages: until the last page has it", last_page))
            print(_row("the booking alone (submit returned)", booking))
            if miss_one or missing:
                print(
                    f"  commits that missed a page within {WAIT_S:g} s: {miss_one} (1 page), {missing} ({pages} pages)"
                )
            worst = p99(last_page) if last_page else float("inf")
            ratio_pages = (statistics.median(arrivals) / statistics.median(one)) if arrivals and one else 0.0
            print(f"  {pages} pages against 1, medians: {ratio_pages:.2f}x")
            met_live = worst < 100 and not missing
            print(
                f"  p99 until the last of {pages} pages: {worst:.1f} ms "
                f"({'met' if met_live else 'NOT met'}: target under 100 ms)"
            )
            print("the clients share this machine's cores with the server; on the box they are phones.")
        finally:
            daemon.stop(quiet=True)
    return 0
