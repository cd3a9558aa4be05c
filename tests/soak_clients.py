"""The soak run's clients (tests/soak.py): the socket, the phones and the reader booking at once, each
recording every answer it got, and the state they share with the run."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _path in (ROOT, ROOT / "tests"):  # the repository and its tests, whichever way it was started
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from soak_box import (  # noqa: E402
    ANSWER_TIMEOUT,
    BANKER_PIN,
    BOOKED,
    EDITION,
    FAILED,
    FAULTS,
    NEVER_BY_HAND,
    NO_ANSWER,
    PLAYER_UIDS,
    PLAYERS,
    REFUSED,
    RETRY,
    SEAT_PIN,
    SEAT_PLAYER,
    UNKNOWN,
    Box,
    Ledger,
    Phone,
    PhoneRefused,
    Request,
    booked_at,
    reader_unit,
)

from companion.bots.autoplay import next_command  # noqa: E402
from companion.daemon.control import ask  # noqa: E402
from companion.daemon.taps import dice_needed, end_meaning  # noqa: E402
from companion.editions import load_edition  # noqa: E402


class SoakClients:
    """The box, its clients (threads of this process) and their records; the run (tests/soak.py) kills and counts."""

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
