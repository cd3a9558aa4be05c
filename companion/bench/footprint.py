"""The daemon's footprint (part of `companion bench daemon`): memory, threads, start-up and a tap with phones live.

The box runs in a child process of its own (so its memory and threads are its alone), on simulated
hardware with its phone page on loopback, an Elite game started, the demo's cards and the reader
ready (companion/bench/box.py). Timed from the moment the child is spawned (CLOCK_MONOTONIC is one
clock for every process): READY (the sd_notify datagram, to a socket of this bench standing in for
systemd's $NOTIFY_SOCKET), the first OLED frame (the dummy screen's first Screen.show) and the
first page served (GET /phone/ answered 200, polled by this process). Then with 0, 8 and 50 phone
pages live (each an open /phone/events stream of a joined spectator, held by this process, outside
the box, as phones are) it reads the child's resident memory (VmRSS), its peak (VmHWM), its
threads and the CPU it spends over IDLE_S (6 s; 40 s capped) while nothing happens (the open pages' own cost) from /proc,
and times `taps` reader inputs (ROLLs and card taps, frame in to receipt
drawn: the table bench's clocks).

The same is run inside a cgroup (v1, /sys/fs/cgroup/{memory,cpu}; root needed) standing in for a
Zero 2 W: memory.limit_in_bytes 512 MiB, and cpu.cfs_quota_us / cfs_period_us giving 1/20 of one
core (the Zero's A53 is ~20x slower per core for interpreted Python: /work/shared/notes/performance.md).
Not emulated: the Zero's 4 cores (its threads share one slice here), its SD card's I/O (the ledger's
fsyncs run on this disk), its I2C bus and its caches; memory the kernel and other services use on
a 512 MB Zero is not taken out.
"""

import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from companion.bench.box import free_port, spectator
from companion.bench.common import p99

PHONES = (0, 8, 50)
ZERO_CPU_SHARE = 20  # 1/20 of one core
IDLE_S = 6.0  # seconds of nothing happening over which the idle CPU is measured
ZERO_MEMORY = 512 * 1024 * 1024
CGROUP = "companion-bench-zero"


# ----- the box (the child process) ------------------------------------------------------------------------------


def child(folder: str, port: int, seed: int, patience: float) -> None:
    """The box: says its times and answers "taps N" on stdin with the latencies, one JSON line each."""
    import random

    from companion.bench.table import Clocks, play_on
    from companion.hw import display

    out_lock = threading.Lock()

    def say(**values: Any) -> None:
        with out_lock:
            sys.stdout.write(json.dumps(values) + "\n")
            sys.stdout.flush()

    show = display.Screen.show

    def first_show(self: Any, frame: Any) -> Any:
        drawn = show(self, frame)
        if not getattr(display.Screen, "_bench_seen", False):
            display.Screen._bench_seen = True  # type: ignore[attr-defined]
            say(frame=time.monotonic())
        return drawn

    display.Screen.show = first_show  # type: ignore[method-assign]
    from companion.bench.box import bench_box

    extra = {"phone.host": "127.0.0.1", "phone.port": port, "phone.auction_quiet_seconds": 0.0}
    with bench_box(Path(folder), seed, True, extra, patience) as (daemon, table, cards):
        clocks = Clocks(daemon)
        clocks.watch(table)
        rng = random.Random(seed)
        said: list[str] = []  # what the box said (a ROLL may only name the JACKPOT first: booked nothing, by design)
        box_say = daemon.say

        def saying(code: str, **params: Any) -> Any:
            said.append(code)
            return box_say(code, **params)

        daemon.say = saying  # type: ignore[method-assign]
        say(code=daemon.phone.table_code(), pid=os.getpid())
        for line in sys.stdin:
            words = line.split()
            if not words or words[0] != "taps":
                break
            before = len(clocks.finished())
            clocks.frames.clear()
            said.clear()
            lost = play_on(daemon, table, cards, clocks, rng, int(words[1]), patience)
            lost += [f"the box said {code}" for code in said if code.startswith(("roll_", "tap_"))] if lost else []
            done = clocks.finished()[before:]
            clocks.frames.clear()
            say(taps=[(s.drawn - s.t_in) / 1e6 for s in done], lost=lost)


# ----- the bench (this process) ---------------------------------------------------------------------------------


def _proc(pid: int) -> dict[str, float]:
    values: dict[str, float] = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM", "VmSize", "Threads"):
                values[key] = int(rest.split()[0])
    return values


def _cpu_seconds(pid: int) -> float:
    """The process's CPU time so far (user + system, all its threads)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _zero_cgroup() -> tuple[list[Path], str]:
    """The capped cgroups (memory, cpu) made fresh, and how they cap; ([], why) when they cannot be made."""
    base = Path("/sys/fs/cgroup")
    memory, cpu = base / "memory" / CGROUP, base / "cpu" / CGROUP
    try:
        for group in (memory, cpu):
            group.mkdir(exist_ok=True)
        (memory / "memory.limit_in_bytes").write_text(str(ZERO_MEMORY))
        # a short period: the quota (at least 1 ms) comes back every 20 ms, so a throttled box waits at most
        # 19 ms for its next slice, not 95 as with the default 100 ms period (a slow core never waits at all)
        period = 20_000
        (cpu / "cpu.cfs_period_us").write_text(str(period))
        (cpu / "cpu.cfs_quota_us").write_text(str(period // ZERO_CPU_SHARE))
    except OSError as exc:
        return [], f"no cgroup v1 memory/cpu controllers to write ({exc.strerror}; root needed)"
    return [memory, cpu], f"cgroup v1: memory {ZERO_MEMORY >> 20} MiB, cpu {period // ZERO_CPU_SHARE}/{period} us"


def _joiner(groups: list[Path]) -> Any:
    def join() -> None:
        for group in groups:
            (group / "tasks").write_text(str(os.getpid()))

    return join if groups else None


class Box:
    """The child process: spawned, timed to READY, first frame and first page, then driven by "taps N"."""

    def __init__(self, folder: str, seed: int, groups: list[Path], patience: float):
        self.port = free_port()
        self._notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._notify.bind(str(Path(folder) / "notify.sock"))
        env = dict(os.environ, NOTIFY_SOCKET=str(Path(folder) / "notify.sock"))
        code = "from companion.bench.footprint import child; import sys; child(*sys.argv[1:3], 7, float(sys.argv[3]))"
        self.t0 = time.monotonic()
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, str(Path(folder) / "games"), str(self.port), str(patience)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            preexec_fn=_joiner(groups),
        )
        self.patience = patience
        self.times: dict[str, float] = {}
        self._page = threading.Thread(target=self._first_page, daemon=True)
        self._page.start()
        self._ready = threading.Thread(target=self._wait_ready, daemon=True)
        self._ready.start()
        self.code = ""
        while not self.code:
            line = self.proc.stdout.readline() if self.proc.stdout else ""
            if not line:
                raise RuntimeError("the box ended before its game was ready")
            values = json.loads(line)
            if "frame" in values:
                self.times["first OLED frame"] = values["frame"] - self.t0
            self.code = values.get("code", "")
        self._page.join(60 * patience)
        self._ready.join(60 * patience)

    def _wait_ready(self) -> None:
        self._notify.settimeout(120 * self.patience)
        try:
            while True:
                if b"READY=1" in self._notify.recv(4096):
                    self.times["READY"] = time.monotonic() - self.t0
                    return
        except OSError:
            return

    def _first_page(self) -> None:
        deadline = time.monotonic() + 120 * self.patience
        while time.monotonic() < deadline:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5 * self.patience)
                conn.request("GET", "/phone/")
                if conn.getresponse().status == 200:
                    self.times["first page served"] = time.monotonic() - self.t0
                    return
            except OSError:
                time.sleep(0.005)

    def taps(self, n: int) -> tuple[list[float], list[str]]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"taps {n}\n")
        self.proc.stdin.flush()
        values = json.loads(self.proc.stdout.readline())
        return values["taps"], values["lost"]

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(60 * self.patience)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._notify.close()


def _open_pages(port: int, code: str, n: int) -> list[socket.socket]:
    """`n` live phone pages: joined spectators' /phone/events streams, open until closed."""
    pages = []
    for _ in range(n):
        cookie = spectator(port, code)
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        sock.sendall(f"GET /phone/events HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\n\r\n".encode())
        head = b""
        while b"retry:" not in head:
            chunk = sock.recv(4096)
            if not chunk:
                raise RuntimeError("a phone's stream closed before it opened")
            head += chunk
        sock.setblocking(False)  # the events that come are left in the buffer (a few taps' worth fit)
        pages.append(sock)
    return pages


def run_box(seed: int, taps: int, capped: bool) -> dict[str, Any]:
    """One box, uncapped or in the Zero's cgroup: its start-up times and, per phone count, memory and taps."""
    groups, how = _zero_cgroup() if capped else ([], "")
    if capped and not groups:
        return {"skipped": how}
    patience = float(ZERO_CPU_SHARE) if capped else 1.0
    result: dict[str, Any] = {"how": how, "rows": []}
    with tempfile.TemporaryDirectory(prefix="companion-bench-footprint-") as tmp:
        box = Box(tmp, seed, groups, patience)
        try:
            result["times"] = dict(box.times)
            box.taps(3)  # warm: the first receipts' words and fonts
            for phones in PHONES:
                pages = _open_pages(box.port, box.code, phones)
                try:
                    time.sleep(1.0 * patience)  # the pages opened and settled
                    cpu0, t0 = _cpu_seconds(box.proc.pid), time.monotonic()
                    # nothing happens: what the open pages and the box's own threads cost by themselves (6 s: the
                    # kernel counts CPU in 10 ms ticks, so 2 s could not tell 2.5 % from 3 %)
                    time.sleep(max(IDLE_S, 2.0 * patience))
                    idle = (_cpu_seconds(box.proc.pid) - cpu0) / (time.monotonic() - t0)
                    proc = dict(_proc(box.proc.pid), idle=idle)
                    latencies, lost = box.taps(taps)
                    result["rows"].append((phones, proc, latencies, lost))
                finally:
                    for page in pages:
                        page.close()
            result["peak"] = _proc(box.proc.pid)["VmHWM"]
        finally:
            box.close()
            for group in groups:
                try:
                    group.rmdir()
                except OSError:
                    pass
    return result


def report(seed: int = 7, taps: int = 20, capped: bool = True) -> None:
    """Print the footprint rows, uncapped and (root) inside the Zero 2 W cgroup."""
    for label, cap in (("this machine", False), ("a Zero 2 W stand-in", True)):
        if cap and not capped:
            continue
        result = run_box(seed, taps, cap)
        if "skipped" in result:
            print(f"footprint inside {label}: skipped, {result['skipped']}")
            continue
        times = result["times"]
        print(f"footprint on {label}" + (f" ({result['how']}):" if result["how"] else ":"))
        print(
            "  from spawn to READY {:.2f} s, to the first OLED frame {:.2f} s, to the first page served {:.2f} s".format(
                times.get("READY", float("nan")),
                times.get("first OLED frame", float("nan")),
                times.get("first page served", float("nan")),
            )
        )
        print(
            f"  {'phone pages live':<18} {'RSS MB':>7} {'threads':>7} {'VSZ MB':>7} {'idle CPU':>8}"
            "  tap to receipt ms: median, p99"
        )
        for phones, proc, latencies, lost in result["rows"]:
            med = statistics.median(latencies) if latencies else float("nan")
            worst = p99(latencies) if latencies else float("nan")
            print(
                f"  {phones:<18} {proc['VmRSS'] / 1024:7.1f} {proc['Threads']:7.0f} {proc['VmSize'] / 1024:7.0f}"
                f" {proc['idle'] * 100:7.1f}%"
                f"  {med:8.2f} {worst:8.2f}  ({len(latencies)} taps{f', booked nothing in time: {lost}' if lost else ''})"
            )
        print(f"  peak resident (VmHWM) over the run: {result['peak'] / 1024:.1f} MB")
        eight = next(proc for phones, proc, _, _ in result["rows"] if phones == 8)["VmRSS"] / 1024
        if not cap:
            frame = times.get("first OLED frame", float("inf"))
            print(
                f"  targets: {eight:.1f} MB resident with 8 phones live ({'met' if eight < 80 else 'NOT met'}: "
                f"under 80 MB), first frame {frame:.2f} s ({'met' if frame < 3 else 'NOT met'}: under 3 s)"
            )
