"""The soak run's pieces (tests/soak.py): the daemon as a subprocess, read-only looks at its ledger, a phone,
the request records and the summary, and the count of the reader's bookings."""

from __future__ import annotations

import http.cookiejar
import io
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for _path in (ROOT, ROOT / "tests"):  # the repository and its tests, whichever way it was started
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from companion.daemon.control import ask  # noqa: E402
from companion.ledger.store import EventRow  # noqa: E402
from companion.table.service import open_game  # noqa: E402

EDITION = "elite"
PLAYERS = ["Anna", "Boris", "Vera"]
PLAYER_UIDS = {name: f"0A00000{i + 1}" for i, name in enumerate(PLAYERS)}
BANKER_PIN = "2468"
SEAT_PIN = "4711"
SEAT_PLAYER = ("2", "Boris")
# what the state folder gets between a kill and the restart: only faults the daemon is meant to survive
# (kill -9 itself leaves the lock file, the -wal and the socket file behind every time)
FAULTS = ("none", "lock_rewritten", "anchor_touched", "shm_deleted")
READER_VERBS = {"roll", "exchange", "auction_roll", "buy"}  # one of these per reader press at most
NEVER_BY_HAND = {"end_game", "bankrupt", "undo"}  # the progress moves leave the game's end to the game
START_TIMEOUT = 120.0  # a loaded 2-core machine starts the daemon in seconds; be generous
ANSWER_TIMEOUT = 120.0  # one request's answer (the daemon's own writer timeout is 30 s)

BOOKED, REFUSED, UNKNOWN, FAILED, NO_ANSWER = "booked", "refused", "unknown", "failed", "no answer"
RETRY = (UNKNOWN, NO_ANSWER)  # a family tries these again with the same id; a "failed" one is believed


@dataclass
class Request:
    """One client request and every answer it got (a retry adds an answer, never a new request)."""

    client: str  # socket1, socket2... | banker | player | reader
    rid: str  # the id it was sent with (the ledger's request id for the socket, the action id for phones)
    actor: str
    command: str
    answers: list[list] = field(default_factory=list)  # [told, seq or None, detail, round]
    head_before: int = 0  # reader: the ledger's head when the press was made ...
    at: float = 0.0  # ... and the wall clock just before it (a booking made earlier is not this press's)

    @property
    def last(self) -> str:
        return self.answers[-1][0] if self.answers else NO_ANSWER

    def told(self, what: str, seq: int | None, detail: str, round_no: int) -> None:
        self.answers.append([what, seq, " ".join(detail.split())[:300], round_no])

    def ledger_id(self) -> str:
        if self.client in ("banker", "player"):
            return f"phone:{self.actor}:{self.rid}"[:100]
        return self.rid


@dataclass
class Summary:
    """What a run found: the counts, and for each lost, doubled or falsely failed request a line saying which."""

    kills: int
    seed: int
    faults: dict
    requests: dict
    answers: dict
    reader_actions: int
    reader_booked: int
    events: int
    lost: list
    doubled: list
    false_failed: list
    unresolved: list
    problems: list

    def line(self) -> str:
        told = " ".join(f"{k.replace(' ', '_')}={v}" for k, v in sorted(self.answers.items()))
        faults = ",".join(f"{k}:{v}" for k, v in sorted(self.faults.items()))
        return (
            f"soak: kills={self.kills} seed={self.seed} faults={faults} events={self.events} "
            f"requests={sum(self.requests.values())} {told} reader={self.reader_booked}/{self.reader_actions} "
            f"| lost={len(self.lost)} doubled={len(self.doubled)} false_failed={len(self.false_failed)} "
            f"unresolved={len(self.unresolved)} problems={len(self.problems)}"
        )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def child_env(state_dir: Path) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["COMPANION_STATE_DIR"] = str(state_dir)  # the anchors: the daemon's and the command line's
    env["COMPANION_LANG"] = "en"
    env.pop("NOTIFY_SOCKET", None)
    env.pop("WATCHDOG_USEC", None)
    return env


class Box:
    """The daemon as a subprocess on simulated hardware, its folders, and the state folder's faults."""

    def __init__(self, folder: Path, log_dir: Path, reader: str = "sim"):
        self.folder = folder
        self.reader = reader  # sim: the daemon's own simulated reader; pty: the firmware in a process of its own
        self.games = folder / "games"
        self.state_dir = folder / "state"
        self.socket = folder / "c.sock"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.db = self.games / "current.sqlite"
        self.conf = folder / "companion.toml"
        self.log_path = log_dir / "daemon.log"
        self.env = child_env(self.state_dir)
        self.proc: subprocess.Popen | None = None
        self.starts = 0
        self.board: subprocess.Popen | None = None
        self.board_lock = threading.Lock()
        hardware = 'hardware = "simulated"\n'
        if reader == "pty":  # a reader that outlives the daemon, as the Pico on its USB cable does
            self.board = subprocess.Popen(
                [sys.executable, str(Path(__file__).resolve().with_name("soak.py")), "firmware", str(folder)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env=self.env,
            )
            first = (self.board.stdout.readline() if self.board.stdout else "").split()
            if not first or first[0] != "ready":
                raise RuntimeError(f"the reader's firmware did not start: {first}")
            hardware = f'hardware = "real"\n[reader]\nport = "{first[1]}"\nretry_seconds = 0.05\n'
        self.conf.write_text(
            f'games_dir = "{self.games}"\n{hardware}'
            f'[control]\nsocket = "{self.socket}"\n'
            f"[virtual_table]\nport = {self.port}\n"
            f'[phone]\nport = 0\nbanker_pin = "{BANKER_PIN}"\nauction_quiet_seconds = 0.0\n'
            f'url = "{self.url}/phone/"\n',
            encoding="utf-8",
        )

    def start(self) -> None:
        self.starts += 1
        with open(self.log_path, "a", encoding="utf-8") as log:
            log.write(f"\n===== start {self.starts} at {time.strftime('%H:%M:%S')} =====\n")
        log = open(self.log_path, "a", encoding="utf-8")  # noqa: SIM115 (the child writes to it)
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "companion", "run", "--config", str(self.conf)],
                stdout=log,
                stderr=subprocess.STDOUT,
                env=self.env,
                cwd=str(ROOT),
            )
        finally:
            log.close()
        end = time.monotonic() + START_TIMEOUT
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"the daemon exited with {self.proc.returncode} at start {self.starts}: {self.log_tail()}"
                )
            try:
                if ask(self.socket, {"op": "status"}, timeout=10)["ok"] and (self.board is not None or self._page_up()):
                    return
            except (OSError, ValueError):
                pass
            time.sleep(0.2)
        raise RuntimeError(f"the daemon did not come up within {START_TIMEOUT:.0f} s: {self.log_tail()}")

    def _page_up(self) -> bool:
        try:
            with urllib.request.urlopen(self.url + "/status", timeout=10) as r:
                return r.status == 200
        except (OSError, ValueError):
            return False

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        if self.alive():
            os.kill(self.proc.pid, signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait(60)

    def stop(self) -> int:
        if not self.alive():
            return self.proc.returncode if self.proc else 0
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.kill()
            return -9

    def log_tail(self, n: int = 1500) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")[-n:]
        except OSError:
            return ""

    def fault(self, name: str) -> None:
        """Do `name` to the state folder while the daemon is down (the faults it is meant to survive)."""
        if name == "lock_rewritten":  # a lock left by a daemon long gone, naming a pid that is not ours
            (self.games / "daemon.lock").write_text(json.dumps({"pid": 999999, "socket": str(self.socket)}))
        elif name == "anchor_touched":  # a backup tool or `touch` changed its times, not its words
            for anchor in (self.state_dir / "anchors").glob("*.anchor"):
                os.utime(anchor)
        elif name == "shm_deleted":  # SQLite rebuilds its shared-memory index from the -wal
            Path(str(self.db) + "-shm").unlink(missing_ok=True)

    def board_do(self, line: str) -> None:
        with self.board_lock:  # the reader client and the ack_lost fault share the firmware's stdin
            assert self.board is not None and self.board.stdin and self.board.stdout
            self.board.stdin.write(line + "\n")
            self.board.stdin.flush()
            if self.board.stdout.readline().strip() != "ok":
                raise ConnectionError(f"the reader's firmware did not take {line!r}")

    def close_board(self) -> None:
        if self.board is not None and self.board.poll() is None:
            if self.board.stdin:
                self.board.stdin.close()
            try:
                self.board.wait(30)
            except subprocess.TimeoutExpired:
                self.board.kill()
                self.board.wait()

    def sim(self, action: str, **extra: str) -> None:
        if self.board is not None:  # the firmware's own process: its stdin is the table's hands
            words = {"press_roll": "press", "remove": "remove", "deaf": f"deaf {extra.get('seconds', '0')}"}
            self.board_do(words.get(action) or f"place {extra.get('uid', '')}")
            return
        answer = ask(self.socket, {"op": "sim", "action": action, **extra}, timeout=30)
        if not answer.get("ok"):
            raise ConnectionError(answer.get("message", "refused"))

    def press(self, button: str) -> None:
        body = json.dumps({"button": button, "long": False}).encode()
        req = urllib.request.Request(self.url + "/press", data=body, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=30):
            pass

    def frame(self) -> bytes:
        with urllib.request.urlopen(self.url + "/frame.png", timeout=30) as r:
            return r.read()

    def read_table_code(self, scratch: Path, tries: int = 6) -> str | None:
        """The phone page's table code as a phone gets it: the QR code on the OLED's Game… → Phone page
        (OK opens the table's menu, UP wraps to its last line "Game…", and three UPs from the first line of
        the game menu reach "Phone page": its last lines are Phone page, the ledger's head, Power off…), read
        with zbarimg. None when it cannot be read."""
        zbar = shutil.which("zbarimg")
        if zbar is None or self.board is not None:  # no zbarimg, or no OLED (real hardware: the pty reader)
            return None
        from PIL import Image, ImageOps

        for _ in range(tries):
            for button in ("back", "back", "back", "ok", "up", "ok", "up", "up", "up", "ok"):
                self.press(button)
            time.sleep(0.5)  # the panel draws the page
            image = Image.open(io.BytesIO(self.frame()))
            big = image.convert("L").resize((image.width * 4, image.height * 4), Image.Resampling.NEAREST)
            path = scratch / "oled.png"
            ImageOps.expand(big, border=32, fill="black").save(path)
            done = subprocess.run([zbar, "--raw", "-q", str(path)], capture_output=True, text=True, timeout=60)
            for button in ("back", "back", "back"):
                self.press(button)
            text = done.stdout.strip()
            if "#code=" in text:
                return text.split("#code=", 1)[1].strip()
        return None


class Ledger:
    """Read-only looks at the box's ledger from the soak's own process (the daemon may be writing)."""

    def __init__(self, path: Path, state_dir: Path):
        self.path, self.state_dir = path, state_dir  # the daemon's anchors, checked on every look

    def rows_after(self, seq: int) -> list[EventRow]:
        try:
            conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=30)
        except sqlite3.Error:
            return []
        try:
            found = conn.execute("SELECT seq, body, hash FROM events WHERE seq > ? ORDER BY seq", (seq,)).fetchall()
        except sqlite3.Error:
            return []
        finally:
            conn.close()
        return [EventRow.from_body(s, body, h) for s, body, h in found]

    def table(self):
        """The game read-only (its state for choosing a move), or None while it cannot be read."""
        try:
            return open_game(str(self.path), readonly=True, state_dir=self.state_dir)
        except Exception:  # mid-restart: a -wal to recover, the file being opened; the caller waits
            return None


def booked_at(row: EventRow) -> float:
    """When the event was stored (the ledger keeps the time to the millisecond: round up)."""
    return datetime.fromisoformat(row.created_at).timestamp() + 0.001


def dice_of(row: EventRow) -> tuple[str, ...]:
    """The dice a reader booking carries (a resent ROLL carries the same dice), () for a buy."""
    words = row.event.command.split()
    return tuple(words[1:]) if words and words[0] != "buy" else ()


def reader_unit(row: EventRow) -> bool:
    """A booking that only the reader makes here: a dice verb or a buy by a player, under a generated id."""
    verb = row.event.command.split()[0] if row.event.command else ""
    return (
        row.actor != "table"
        and verb in READER_VERBS
        and not row.request_id.startswith("soak-")
        and not row.request_id.startswith("phone:")
    )


def reader_doubles(
    final: list[EventRow], presses: list[Request], restarts: list[float], window: float
) -> tuple[int, list[str]]:
    """(the reader's bookings, those no press accounts for). Each press books at most one dice or buy event
    and owns the one it saw (the first stored after it). One that no press saw is owned by an unanswered
    press made up to `window` seconds before it (its booking waited behind a stall), unless it carries the
    dice of the reader's last answered booking from before a restart (`restarts`: when each daemon was
    started): a ROLL the reader sent again to the next daemon, booked twice."""
    presses = sorted(presses, key=lambda r: r.at)
    claimed = {a[1] for p in presses for a in p.answers if a[0] == BOOKED}
    matched = {id(p) for p in presses if any(a[0] == BOOKED for a in p.answers)}
    booked, doubled = 0, []
    last_claimed: EventRow | None = None
    for row in final:
        if not reader_unit(row):
            continue
        booked += 1
        seq, when = row.event.seq, booked_at(row)
        if seq in claimed:
            last_claimed = row
            continue
        again = (
            last_claimed is not None
            and dice_of(last_claimed) == dice_of(row) != ()
            and any(booked_at(last_claimed) < t < when for t in restarts)
        )
        owner = (
            None
            if again
            else next(
                (p for p in presses if id(p) not in matched and p.head_before < seq and when - window <= p.at <= when),
                None,
            )
        )
        if owner is not None:
            matched.add(id(owner))
        elif again and last_claimed is not None:
            doubled.append(
                f"reader booking #{seq} ({row.event.command}, {row.request_id}): the dice of "
                f"#{last_claimed.event.seq} ({last_claimed.event.command}) again, after a restart"
            )
        else:
            doubled.append(
                f"reader booking #{seq} ({row.event.command}, {row.request_id}): no press made up to "
                f"{window:.0f} s before it is left to account for it"
            )
    return booked, doubled


class PhoneRefused(Exception):
    """A phone step (join, PIN) that the page refused."""


class Phone:
    """A phone: its own cookies, the CSRF token of its session, form POSTs as the page sends them."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.csrf = ""
        self.refresh()

    def refresh(self) -> None:
        with self.opener.open(self.base + "/phone/api/me", timeout=ANSWER_TIMEOUT) as r:
            self.csrf = json.loads(r.read()).get("csrf", "")

    def try_post(self, path: str, **fields: Any) -> tuple[int, Any]:
        data = urllib.parse.urlencode(fields, doseq=True).encode()
        req = urllib.request.Request(self.base + path, data=data, headers={"X-CSRF-Token": self.csrf})
        try:
            with self.opener.open(req, timeout=ANSWER_TIMEOUT) as r:
                status, raw = r.status, r.read()
        except urllib.error.HTTPError as exc:
            status, raw = exc.code, exc.read()
        try:
            return status, json.loads(raw)
        except ValueError:
            return status, {"error": raw[:200].decode(errors="replace")}

    def post(self, path: str, **fields: Any) -> dict:
        status, body = self.try_post(path, **fields)
        if status != 200:
            raise PhoneRefused(f"{path}: {status} {body}")
        self.refresh()  # a role that rose gets a new token
        return body
