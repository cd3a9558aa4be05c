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

import json
import os
import sqlite3
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for _path in (ROOT, ROOT / "tests"):  # the repository and its tests, whichever way it was started
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from soak_box import (  # noqa: E402
    ANSWER_TIMEOUT,
    BOOKED,
    FAILED,
    FAULTS,
    REFUSED,
    RETRY,
    PhoneRefused,
    Request,
    Summary,
    reader_doubles,
)
from soak_clients import SoakClients  # noqa: E402

from companion.daemon.control import ask  # noqa: E402
from companion.ledger.store import EventRow  # noqa: E402
from companion.table.service import verify_game  # noqa: E402


class Soak(SoakClients):
    """One run: the clients (tests/soak_clients.py), the kills and faults between them, and the count."""

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
