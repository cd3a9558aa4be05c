"""The soak run of issue 21: the daemon killed -9 again and again while the socket, phones and the reader book.

`run_soak(folder, kills, seed)` starts the real daemon (`python -m companion run`, simulated hardware) as a
subprocess and, while it runs, three clients book concurrently, each recording what it was told for every
request (booked with its seq / refused / outcome unknown / failed / no answer):

- **socket**: `companion do --request-id ID` (a new process per request, the command line's own path
  through the control socket); mostly `pay A B 1` as player A, sometimes the table's next legal move
  (an auction's hammer, a card drawn...) when the game waits for something the reader cannot give;
- **phones**: the phone page's `POST /phone/act` with an action id, one phone as the banker (the table
  PIN), one as Boris (a seat PIN the banker sets); the table code is read off the box's OLED the way a
  phone reads it, as the QR code on *Game… → Phone page* (the virtual table's buttons and picture,
  through zbarimg), because no other way out of the daemon's process tells it;
- **reader**: ROLL on the simulated reader (a plot's card only shows its purchase, which OK books: the
  socket books the plot on offer instead), through the control socket's `sim` operation
  (the hook tests use for the daemon's own simulated reader); a press is answered by the ledger
  itself: a booking by the reader appearing after it.

Between kills the state folder may get a fault the daemon is meant to survive (`FAULTS`). After each
restart the clients retry their unanswered and "outcome unknown" requests with the same ids; at the end
every unanswered one is retried once more, the daemon is stopped, and the ledger is read (read-only) to
count:

- **lost**: told "booked" (or, for the reader, seen booked) but absent from the ledger at the end;
- **doubled**: one request booked more than once (one request id twice, or one reader press twice);
- **false failed**: told "failed" (or "refused") but found booked.

Environment: SOAK_KILLS (default 8), SOAK_SEED (default 1), SOAK_LOG_DIR (a folder for the daemon's output
and every request's record as JSON lines; default: the run's own folder), SOAK_STALLS (default 0: in that
many rounds another process holds the ledger's write lock for SOAK_STALL_SECONDS, default 45, before the
kill; the daemon's callers give up after 30 s, which is what issue 21's point 1 is about), SOAK_SOCKET_CLIENTS
(default 3: people typing `companion do` at once), SOAK_READER (`sim`, the default: the daemon's own simulated
reader, which dies with it; `pty`: the firmware in a process of its own that outlives every kill and resends
what was never acknowledged, with one fault more, `ack_lost`; no phones then, as there is no OLED to read
the table code from). `python -m tests.soak` runs it
from the command line and prints the summary line.
"""

from __future__ import annotations

import http.cookiejar
import io
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from companion.bots.autoplay import next_command  # noqa: E402
from companion.daemon.control import ask  # noqa: E402
from companion.daemon.taps import dice_needed, end_meaning  # noqa: E402
from companion.editions import load_edition  # noqa: E402
from companion.ledger.store import EventRow  # noqa: E402
from companion.table.service import open_game, verify_game  # noqa: E402

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
                [sys.executable, str(Path(__file__).resolve()), "firmware", str(folder)],
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
        (OK opens the table's menu, UP wraps to its last line "Game…", and two UPs from the first line of
        the game menu reach "Phone page"), read with zbarimg. None when it cannot be read."""
        zbar = shutil.which("zbarimg")
        if zbar is None or self.board is not None:  # no zbarimg, or no OLED (real hardware: the pty reader)
            return None
        from PIL import Image, ImageOps

        for _ in range(tries):
            for button in ("back", "back", "back", "ok", "up", "ok", "up", "up", "ok"):
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


class Soak:
    """One run: the box, its clients (threads of this process), the kills and faults, and the count."""

    def __init__(
        self,
        folder: Path,
        kills: int,
        seed: int,
        log_dir: Path,
        stalls: int = 0,
        stall_seconds: float = 45.0,
        socket_clients: int = 3,
        reader: str = "sim",
        budget: float = 0.0,
        faults: tuple[str, ...] = (),
    ):
        self.folder, self.kills, self.seed, self.log_dir = folder, kills, seed, log_dir
        self.socket_clients = socket_clients
        self.budget = budget  # seconds for the kills (0: no limit); the settling after them comes on top
        self.faults_allowed = tuple(faults or FAULTS + (("ack_lost",) if reader == "pty" else ()))
        self.kills_done = 0
        self.stalls, self.stall_seconds = stalls, stall_seconds
        self.rng = random.Random(seed)
        self.box = Box(folder, log_dir, reader)
        self.ledger = Ledger(self.box.db, self.box.state_dir)
        self.requests: list[Request] = []
        self.lock = threading.Lock()
        self.up = threading.Event()  # the daemon answers and the phones have joined
        self.done = threading.Event()
        self.round = 0
        self.code: str | None = None
        self.code_version = 0  # bumped at each restart: the phones join again
        self.faults: Counter = Counter()
        self.problems: list[str] = []
        self.plot_uids: dict[str, str] = {}
        self.seen_reader: list[tuple[int, str]] = []  # (seq, request id) of reader bookings seen while running
        self.claimed: set[int] = set()  # the reader bookings a press has taken as its answer
        self.restarts: list[float] = []  # when each daemon was started (time.time())
        self.reader_lock = threading.Lock()  # one press at a time: the reader client's or the ack_lost fault's

    # ----- records -----------------------------------------------------------------------------

    def new_request(self, client: str, rid: str, actor: str, command: str) -> Request:
        req = Request(client, rid, actor, command)
        with self.lock:
            self.requests.append(req)
        return req

    def pending(self, client: str) -> list[Request]:
        with self.lock:
            return [r for r in self.requests if r.client == client and r.last in RETRY]

    # ----- setup ------------------------------------------------------------------------------

    def set_up_game(self) -> None:
        answer = ask(self.box.socket, {"op": "start", "edition": EDITION, "players": PLAYERS, "seed": self.seed})
        assert answer["ok"], answer
        for i, name in enumerate(PLAYERS):
            assert ask(self.box.socket, {"op": "enrol", "kind": "player", "ref": str(i + 1), "uid": PLAYER_UIDS[name]})[
                "ok"
            ]
        for i, plot in enumerate(load_edition(EDITION).plots):
            uid = f"04{i + 1:012X}"
            if ask(self.box.socket, {"op": "enrol", "kind": "plot", "ref": plot, "uid": uid})["ok"]:
                self.plot_uids[plot] = uid

    def bring_up(self) -> None:
        """Start the daemon, read the table code off its OLED, and let the clients go on."""
        self.restarts.append(time.time())
        self.box.start()
        if self.box.board is not None:  # the reader greets the new daemon and resends what it still holds first
            end = time.monotonic() + 60
            while time.monotonic() < end and ask(self.box.socket, {"op": "status"}).get("reader") != "ready":
                time.sleep(0.1)
            time.sleep(2.0)
        self.code = self.box.read_table_code(self.folder)
        if self.code is None and self.box.board is None:
            self.problems.append(f"round {self.round}: the table code could not be read off the OLED")
        self.code_version += 1
        self.up.set()

    # ----- the clients -------------------------------------------------------------------------

    def wait_up(self) -> bool:
        while not self.done.is_set():
            if self.up.wait(0.2):
                return True
        return False

    def socket_client(self, k: int = 1) -> None:
        """One person at a terminal typing `companion do` (several of them at once: SOAK_SOCKET_CLIENTS)."""
        rng = random.Random(self.seed * 1000 + 10 + k)
        n = 0
        while self.wait_up():
            for req in self.pending(f"socket{k}"):
                if not self.up.is_set() or self.done.is_set():
                    break
                self.do(req)
            if not self.up.is_set():
                continue
            n += 1
            actor, command = self.socket_move(rng)
            if command is None:
                time.sleep(0.3)
                continue
            self.do(self.new_request(f"socket{k}", f"soak-{self.seed}-s{k}-{n}", actor, command))
            time.sleep(rng.uniform(0.0, 0.3))

    def socket_move(self, rng: random.Random) -> tuple[str, str | None]:
        """Mostly a payment between players; the table's next legal move when the reader cannot move on."""
        if rng.random() < 0.3:
            table = self.ledger.table()
            if table is not None:
                try:
                    s = table.state
                    if s.phase == "over":
                        return "table", None
                    readerish = dice_needed(table.rules, s) or end_meaning(table.rules, s) is not None
                    if not readerish:
                        line, _ = next_command(table.game, rng)
                        if line and line.split()[0] not in NEVER_BY_HAND:
                            return "table", line
                finally:
                    table.close()
        a, b = rng.sample(PLAYERS, 2)
        return a, f"pay {a} {b} 1"

    def do(self, req: Request) -> None:
        """`companion do` through the daemon's socket, as a person types it; the answer from its exit code."""
        words = ([] if req.actor == "table" else [f"{req.actor}:"]) + req.command.split()
        argv = [sys.executable, "-m", "companion", "do", "--db", str(self.box.db), "--request-id", req.rid, *words]
        round_no = self.round
        try:
            done = subprocess.run(
                argv, capture_output=True, text=True, timeout=ANSWER_TIMEOUT, env=self.box.env, cwd=str(ROOT)
            )
        except subprocess.TimeoutExpired:
            req.told(NO_ANSWER, None, "no answer in time", round_no)
            return
        code, out, err = done.returncode, done.stdout, done.stderr.strip().splitlines()
        said = err[-1] if err else ""
        if code == 0:
            seq = None
            for line in out.splitlines():
                if line.startswith("#"):
                    head = line[1:].split()[0]
                    seq = int(head) if head.isdigit() else None
                    break
            req.told(BOOKED, seq, out.splitlines()[0] if out else "", round_no)
        elif code == 3:
            req.told(REFUSED, None, said, round_no)
        elif code == 7:
            req.told(UNKNOWN, None, said, round_no)
        elif code == 5:  # the daemon did not answer, the ledger is busy or locked: nothing said about the booking
            req.told(NO_ANSWER, None, f"exit 5: {said}", round_no)
        elif code < 0:
            req.told(NO_ANSWER, None, f"killed by signal {-code}", round_no)
        else:  # 4 (bad input: "the writer thread did not answer in time"), 6, 8, 9, 70: it failed
            req.told(FAILED, None, f"exit {code}: {said}", round_no)

    def phone_client(self) -> None:
        rng = random.Random(self.seed * 1000 + 2)
        banker = player = None
        joined_for = 0
        n = 0
        while self.wait_up():
            if joined_for != self.code_version:
                banker = player = None
                if self.code is None:
                    time.sleep(0.5)
                    continue
                try:
                    banker, player = self.phones_join()
                    joined_for = self.code_version
                except (OSError, ValueError, PhoneRefused) as exc:
                    if self.up.is_set():
                        time.sleep(0.5)
                    if self.up.is_set() and not self.done.is_set():
                        self.problems.append(f"round {self.round}: the phones could not join: {exc}")
                        joined_for = self.code_version  # this round goes on without phones
                    continue
            if banker is None:
                time.sleep(0.3)
                continue
            for req in self.pending("banker") + self.pending("player"):
                if not self.up.is_set() or joined_for != self.code_version:
                    break
                self.act(banker if req.client == "banker" else player, req)
            if not self.up.is_set() or joined_for != self.code_version:
                continue
            n += 1
            if rng.random() < 0.5:
                a, b = rng.sample(PLAYERS, 2)
                req = self.new_request("banker", f"soak{self.seed}-b{n:06d}", "table", f"pay {a} {b} 1")
                self.act(banker, req)
            else:
                _, me = SEAT_PLAYER
                other = rng.choice([p for p in PLAYERS if p != me])
                req = self.new_request("player", f"soak{self.seed}-p{n:06d}", me, f"pay {me} {other} 1")
                self.act(player, req)
            time.sleep(rng.uniform(0.0, 0.3))

    def phones_join(self) -> tuple[Phone, Phone]:
        banker = Phone(self.box.url)
        banker.post("/phone/join", code=self.code)
        banker.post("/phone/banker", pin=BANKER_PIN)
        seat, _ = SEAT_PLAYER
        banker.post("/phone/seat-pin", seat=seat, pin=SEAT_PIN)
        player = Phone(self.box.url)
        player.post("/phone/join", code=self.code)
        player.post("/phone/claim", seat=seat, pin=SEAT_PIN)
        return banker, player

    def act(self, phone: Phone, req: Request) -> None:
        verb, *args = req.command.split()
        round_no = self.round
        try:
            status, body = phone.try_post("/phone/act", aid=req.rid, verb=verb, arg=args)
        except (OSError, ValueError) as exc:
            req.told(NO_ANSWER, None, f"{type(exc).__name__}: {exc}", round_no)
            return
        said = str(body.get("error", "")) if isinstance(body, dict) else ""
        if status == 200 and isinstance(body, dict) and body.get("ok"):
            req.told(BOOKED, body.get("seq"), " / ".join(body.get("lines", [])[:1]), round_no)
        elif isinstance(body, dict) and (
            body.get("unknown") or body.get("outcome") == "unknown" or "unknown" in said.lower() or status == 202
        ):
            req.told(UNKNOWN, None, f"{status}: {said}", round_no)
        elif status == 409:
            req.told(REFUSED, None, said, round_no)
        elif status in (403, 429, 502, 503, 504):  # the session ended with the daemon, or busy: ask again
            req.told(NO_ANSWER, None, f"{status}: {said}", round_no)
        else:  # 400, 500 (the writer's 30 s timeout shows as 500): the phone says it failed
            req.told(FAILED, None, f"{status}: {said}", round_no)

    def reader_client(self) -> None:
        n = 0
        while self.wait_up():
            with self.reader_lock:  # one hand on the reader: its presses are told apart by their order
                action = self.reader_move()
                if action is not None:
                    n += 1
                    req = Request("reader", f"reader-{n}", "", "ROLL" if action[0] == "roll" else f"tap {action[1]}")
                    self.reader_press(req, action, 10.0)
            time.sleep(0.3 if action is None or req.last != BOOKED else 0.5)  # a card lifted, resends settled

    def reader_move(self) -> tuple[str, str, int] | None:
        """What a player would do at the reader now: (roll or tap, the plot, the ledger's head), or None."""
        table = self.ledger.table()
        if table is None:
            return None
        try:
            s, head = table.state, table.head_seq
            if s.phase == "over":
                return None
            if dice_needed(table.rules, s) or end_meaning(table.rules, s) is not None:
                return ("roll", "", head)
            return None
        finally:
            table.close()

    def reader_press(self, req: Request, action: tuple[str, str, int], wait: float) -> None:
        """Press ROLL or tap the plot's card, and wait for the booking it makes: the reader's answer is the
        booking itself (the Pi's two pips), the first reader booking stored after the press that no other
        press has taken."""
        kind, plot, head = action
        req.head_before, req.at = head, time.time()
        try:
            if kind == "roll":
                self.box.sim("press_roll")
            else:
                self.box.sim("place", uid=self.plot_uids[plot])
                time.sleep(0.15)
                self.box.sim("remove")
        except (OSError, ValueError):
            return  # the daemon is gone: nothing was pressed on a reader that is not there
        with self.lock:
            self.requests.append(req)
        end = time.monotonic() + wait
        while time.monotonic() < end and self.up.is_set():
            rows = [r for r in self.ledger.rows_after(head) if reader_unit(r) and booked_at(r) >= req.at]
            with self.lock:
                rows = [r for r in rows if r.event.seq not in self.claimed]
                if rows:
                    self.claimed.add(rows[0].event.seq)
                    self.seen_reader.extend((r.event.seq, r.request_id) for r in rows)
                    req.told(BOOKED, rows[0].event.seq, rows[0].event.command, self.round)
                    return
            time.sleep(0.05)
        req.told(NO_ANSWER, None, "no booking seen", self.round)

    # ----- the run -----------------------------------------------------------------------------

    def run(self) -> Summary:
        self.box.start()
        self.set_up_game()
        self.box.kill()  # the first start's game is set up: from here on every start is a restart
        self.bring_up()
        clients = [
            threading.Thread(target=self.socket_client, args=(k,), name=f"soak-socket{k}", daemon=True)
            for k in range(1, self.socket_clients + 1)
        ]
        phones = [self.phone_client] if self.box.board is None else []  # no OLED to read the table code from
        clients += [
            threading.Thread(target=work, name=f"soak-{work.__name__}", daemon=True)
            for work in (*phones, self.reader_client)
        ]
        for thread in clients:
            thread.start()
        try:
            stalls = set(self.rng.sample(range(1, self.kills + 1), min(self.stalls, self.kills)))
            began = time.monotonic()
            for round_no in range(1, self.kills + 1):
                if self.budget and time.monotonic() - began > self.budget:
                    break  # a loaded machine: fewer kills rather than a test that runs for ever
                self.round = round_no
                if self.round in stalls:
                    self.stall()
                time.sleep(self.rng.uniform(1.0, 5.0))
                if not self.box.alive():
                    self.problems.append(
                        f"round {self.round}: the daemon had exited by itself: {self.box.log_tail(400)}"
                    )
                fault = self.rng.choice(self.faults_allowed)
                if fault == "ack_lost":
                    self.lose_an_ack()
                self.up.clear()
                self.box.kill()
                self.kills_done += 1
                wal = Path(str(self.box.db) + "-wal")
                if wal.exists() and wal.stat().st_size > 0:  # the kill left a -wal for the next start to recover
                    self.faults["wal_left"] += 1
                self.faults[fault] += 1
                self.box.fault(fault)
                time.sleep(self.rng.uniform(0.0, 0.5))
                try:
                    self.bring_up()
                except RuntimeError as exc:
                    self.problems.append(f"round {self.round} (after {fault}): {exc}")
                    break
            self.round += 1
            self.done.set()  # no new requests: the clients finish the one in hand
            for thread in clients:
                thread.join(ANSWER_TIMEOUT + 30)
            self.settle()
        finally:
            self.done.set()
            self.up.clear()
            for thread in clients:
                thread.join(ANSWER_TIMEOUT + 30)
            code = self.box.stop()
            self.box.close_board()
            if code not in (0, -9):
                self.problems.append(f"the daemon's stop: exit {code}")
        return self.count()

    def lose_an_ack(self) -> None:
        """The reader stops hearing the Pi for a few seconds (a flaky cable) while a ROLL of its own is
        booked, and the daemon dies before the reader hears that ACK: the reader sends the ROLL again to
        the next daemon (issue 21, point 2). The kill follows as soon as the booking is seen."""
        with self.reader_lock:
            end = time.monotonic() + 15.0
            action = self.reader_move()
            while action is None or action[0] != "roll":  # the reader client or a terminal moves the game on
                if time.monotonic() > end:
                    self.faults["ack_lost_no_roll"] += 1  # the game waited for something else all along
                    return
                self.reader_lock.release()
                time.sleep(0.3)
                self.reader_lock.acquire()
                action = self.reader_move()
            try:
                self.box.sim("deaf", seconds="2.5")  # over before the next daemon greets the reader
            except (OSError, ValueError):
                return
            self.reader_press(Request("reader", f"reader-ack-{self.round}", "", "ROLL (its ACK lost)"), action, 3.0)

    def stall(self) -> None:
        """Another process holds the ledger's write lock for a while (a `companion do` stuck on a slow card,
        a backup tool): the daemon's writer waits, its callers give up; the kill comes soon after."""
        self.faults["stall"] += 1
        conn = sqlite3.connect(str(self.box.db), timeout=60, isolation_level=None)
        try:
            conn.execute("BEGIN IMMEDIATE")
            time.sleep(self.stall_seconds)
            conn.execute("ROLLBACK")
        except sqlite3.Error as exc:
            self.problems.append(f"round {self.round}: the stall could not take the write lock: {exc}")
        finally:
            conn.close()

    def settle(self) -> None:
        """The end: no kill; every request left unanswered or "unknown" is retried with its id until answered."""
        if not self.box.alive():
            return
        if self.box.board is not None:  # the reader greets the last daemon and resends what it still holds
            end = time.monotonic() + 60
            while time.monotonic() < end and ask(self.box.socket, {"op": "status"}).get("reader") != "ready":
                time.sleep(0.2)
            time.sleep(3.0)
        deadline = time.monotonic() + 2 * ANSWER_TIMEOUT
        banker = player = None
        for _ in range(3):
            waiting = [r for r in self.requests if r.client.startswith("socket") and r.last in RETRY]
            for req in waiting + self.pending("banker") + self.pending("player"):
                if time.monotonic() > deadline:
                    return
                if req.client.startswith("socket"):
                    self.do(req)
                    continue
                if banker is None and self.code is not None:
                    try:
                        banker, player = self.phones_join()
                    except (OSError, ValueError, PhoneRefused) as exc:
                        self.problems.append(f"the phones could not join for the last retries: {exc}")
                        self.code = None
                if banker is not None and player is not None:
                    self.act(banker if req.client == "banker" else player, req)
        time.sleep(1.0)  # the reader's last press is booked or not by now

    def count(self) -> Summary:
        final = self.ledger.rows_after(0)
        try:  # after all the kills the ledger still verifies: chain, anchor, a full replay
            verify_game(str(self.box.db), state_dir=self.box.state_dir).close()
        except Exception as exc:
            self.problems.append(f"the ledger does not verify at the end: {exc}")
        by_id: dict[str, list[EventRow]] = {}
        for row in final:
            by_id.setdefault(row.request_id, []).append(row)
        lost, doubled, false_failed, unresolved = [], [], [], []
        for rid, rows in by_id.items():
            if len(rows) > 1:
                doubled.append(f"request id {rid} booked {len(rows)} times: {[r.event.seq for r in rows]}")
        answers: Counter = Counter()
        requests: Counter = Counter()
        for req in self.requests:
            requests[req.client] += 1
            for told, *_ in req.answers:
                answers[told] += 1
            if req.client == "reader":
                continue
            stored = by_id.get(req.ledger_id(), [])
            for told, seq, _detail, round_no in req.answers:
                if told == BOOKED and not stored:
                    lost.append(
                        f"{req.client} {req.rid} ({req.command}) told booked as #{seq} in round "
                        f"{round_no}, absent at the end"
                    )
                    break
            for told, _seq, detail, round_no in req.answers:
                if told in (FAILED, REFUSED) and stored:
                    false_failed.append(
                        f"{req.client} {req.rid} ({req.command}) told {told} in round {round_no} "
                        f"({detail}), booked as #{stored[0].event.seq}"
                    )
                    break
            if req.last in RETRY and not stored:
                unresolved.append(f"{req.client} {req.rid} ({req.command}): last told {req.last}, not in the ledger")
        # the reader: every booking only the reader makes belongs to one press made before it
        present = {(r.event.seq, r.request_id) for r in final}
        for seq, rid in sorted(set(self.seen_reader)):
            if (seq, rid) not in present:
                lost.append(f"reader booking #{seq} ({rid}) seen while running, absent at the end")
        presses = [r for r in self.requests if r.client == "reader"]
        window = 15.0 + (self.stall_seconds if self.stalls else 0.0)
        reader_booked, twice = reader_doubles(final, presses, self.restarts, window)
        doubled += twice
        return Summary(
            self.kills_done,
            self.seed,
            dict(self.faults),
            dict(requests),
            dict(answers),
            len(presses),
            reader_booked,
            len(final),
            lost,
            doubled,
            false_failed,
            unresolved,
            self.problems,
        )


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


def run_soak(
    folder: Path | None = None,
    kills: int | None = None,
    seed: int | None = None,
    log_dir: Path | None = None,
    stalls: int | None = None,
    budget: float | None = None,
    reader: str | None = None,
    faults: tuple[str, ...] | None = None,
) -> Summary:
    """One soak run; its summary. Arguments default to SOAK_KILLS, SOAK_SEED, SOAK_LOG_DIR, SOAK_STALLS,
    SOAK_BUDGET (seconds for the kills; 0, the default: none), SOAK_READER and SOAK_FAULTS (the faults to
    choose from, comma-separated; default all that fit the reader)."""
    budget = float(os.environ.get("SOAK_BUDGET", "0")) if budget is None else budget
    kills = int(os.environ.get("SOAK_KILLS", "8")) if kills is None else kills
    stalls = int(os.environ.get("SOAK_STALLS", "0")) if stalls is None else stalls
    stall_seconds = float(os.environ.get("SOAK_STALL_SECONDS", "45"))
    socket_clients = int(os.environ.get("SOAK_SOCKET_CLIENTS", "3"))
    reader = os.environ.get("SOAK_READER", "sim") if reader is None else reader
    if reader not in ("sim", "pty"):
        raise SystemExit(f"SOAK_READER is sim or pty, not {reader!r}")
    if faults is None:
        faults = tuple(f for f in os.environ.get("SOAK_FAULTS", "").split(",") if f)
    unknown = set(faults) - set(FAULTS) - ({"ack_lost"} if reader == "pty" else set())
    if unknown:
        raise SystemExit(f"SOAK_FAULTS: no such fault here: {', '.join(sorted(unknown))}")
    seed = int(os.environ.get("SOAK_SEED", "1")) if seed is None else seed
    folder = Path(tempfile.mkdtemp(prefix="soak-")) if folder is None else folder
    if log_dir is None:
        log_dir = Path(os.environ["SOAK_LOG_DIR"]) if os.environ.get("SOAK_LOG_DIR") else folder
    folder.mkdir(parents=True, exist_ok=True)
    log_dir.mkdir(parents=True, exist_ok=True)
    soak = Soak(folder, kills, seed, log_dir, stalls, stall_seconds, socket_clients, reader, budget, faults)
    summary = soak.run()
    with open(log_dir / "requests.jsonl", "w", encoding="utf-8") as out:
        for req in soak.requests:
            out.write(json.dumps(asdict(req), ensure_ascii=False) + "\n")
    (log_dir / "summary.json").write_text(json.dumps(asdict(summary), ensure_ascii=False, indent=1), encoding="utf-8")
    return summary


def firmware(folder: str) -> None:
    """tests/firmware_on_pty.py (the reader's firmware in a process of its own, driven through stdin) with one
    command more, `deaf S`: for S seconds the reader hears nothing from the Pi (its ACKs are lost)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import firmware_on_pty  # type: ignore[import-not-found]

    deaf_until = [0.0]
    heard = firmware_on_pty.PtySerial.read

    def read(self: Any) -> bytes:
        data = heard(self)
        return b"" if time.monotonic() < deaf_until[0] else data

    firmware_on_pty.PtySerial.read = read

    class Commands:
        def __iter__(self) -> Any:
            for line in sys.__stdin__:
                words = line.split()
                if words[:1] == ["deaf"]:
                    deaf_until[0] = time.monotonic() + float(words[1])
                    print("ok", flush=True)
                    continue
                yield line

    sys.argv = [sys.argv[0], folder]
    sys.stdin = Commands()  # type: ignore[assignment]
    firmware_on_pty.main_()


if __name__ == "__main__" and sys.argv[1:2] == ["firmware"]:
    firmware(sys.argv[2])
elif __name__ == "__main__":
    result = run_soak()
    for kind in ("lost", "doubled", "false_failed", "unresolved", "problems"):
        for item in getattr(result, kind)[:20]:
            print(f"  {kind}: {item}")
    print(result.line())
    sys.exit(0 if not (result.lost or result.doubled or result.false_failed) else 1)
