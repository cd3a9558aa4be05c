"""Every answer the box gives is true: a request the writer could not take in time was withdrawn (nothing
was done) or its outcome is unknown under its request id, never "failed" and then booked; a reader's line
resent after the daemon restarted is answered from the ledger, never booked twice; an empty request id is
refused, never replaced by a fresh one (issue 21, points 1, 2 and 7)."""

import sqlite3
import subprocess
import sys
import threading

import pytest
from test_phone_views import ANNA, Phone, start_box
from test_reader_link import Peer

from companion.daemon.config import Config, defaults
from companion.daemon.main import Daemon, wait_for
from companion.daemon.owner import WriterBusy
from companion.daemon.phone import Refused
from companion.hw.reader import ReaderLink
from companion.table.service import open_game

LATE_S = 0.5  # daemon.answer_seconds in these tests: the write lock is held far longer


def config(tmp_path, **extra):
    values = dict(defaults().values)
    values.update({"games_dir": str(tmp_path / "games"), "virtual_table.port": 0, **extra})
    return Config(values, "(test)")


def started(tmp_path, **extra):
    daemon = Daemon(config(tmp_path, **extra), out=lambda line: None).start()
    assert daemon.handle({"op": "start", "edition": "elite", "players": ["Anna", "Boris"], "seed": 1})["ok"]
    return daemon


def request_ids(path):
    """Every request id the ledger file holds, read by a connection of our own."""
    conn = sqlite3.connect(path)
    try:
        return [row[0] for row in conn.execute("SELECT request_id FROM events ORDER BY seq")]
    finally:
        conn.close()


def do(path, *words, request_id=None):
    argv = [sys.executable, "-m", "companion", "do", "--db", path]
    if request_id is not None:
        argv += ["--request-id", request_id]
    return subprocess.run(argv + list(words), capture_output=True, text=True, timeout=120)


class WriteLock:
    """Another connection holding the ledger's write lock (a `companion` at a terminal, a slow card)."""

    def __init__(self, path):
        self.conn = sqlite3.connect(path, isolation_level=None, timeout=30)
        self.conn.execute("BEGIN IMMEDIATE")

    def release(self):
        self.conn.execute("ROLLBACK")
        self.conn.close()


def test_a_writer_held_up_by_the_write_lock_answers_unknown_or_withdrawn_never_failed_then_booked(tmp_path):
    box = started(tmp_path, **{"daemon.answer_seconds": LATE_S})
    try:
        path = box.owner.table.ledger.path
        before = box.owner.table.head_seq
        lock = WriteLock(path)
        try:
            # `companion do` through the socket: the writer takes it and waits for the lock
            late = do(path, "Anna:", "roll", "3", "4", request_id="late-roll-1")
            assert late.returncode == 7, late.stderr
            line = late.stderr.strip().splitlines()[-1]
            assert line.startswith("outcome unknown:") and "late-roll-1" in line and "Traceback" not in late.stderr
            # the control socket and a phone, queued behind it: withdrawn when they give up, nothing done
            behind = box.handle({"op": "do", "actor": "Anna", "command": "buy", "request_id": "behind-1"})
            assert not behind["ok"] and behind["exit"] == 5 and "nothing was done" in behind["message"]
            # (its first look at the game may be what is withdrawn: the page answers that 503 too, web/phone.py)
            with pytest.raises((Refused, WriterBusy)) as phone:
                box.phone.act("Boris", {"verb": "pay", "args": ["Boris", "Anna", "1"]}, "aaaabbbbcccc", "en")
            assert getattr(phone.value, "status", 503) == 503 and "nothing was done" in str(phone.value)
        finally:
            lock.release()
        box.owner.call(lambda: None, timeout=60)  # the writer has done whatever it still held
        ids = request_ids(path)
        assert "behind-1" not in ids and not any(i.startswith("phone:Boris:") for i in ids), ids
        assert ids.count("late-roll-1") <= 1
        # the retry under the same id is answered from the ledger (or books it now, once)
        again = do(path, "Anna:", "roll", "3", "4", request_id="late-roll-1")
        assert again.returncode == 0, again.stderr
        assert "Anna: roll 3 4" in again.stdout
        assert request_ids(path).count("late-roll-1") == 1
        assert box.owner.table.head_seq == before + 1
    finally:
        box.stop()


def test_a_phone_whose_action_is_under_way_too_long_is_told_to_look_before_trying_again(tmp_path):
    box = start_box(tmp_path, **{"daemon.answer_seconds": LATE_S})
    try:
        anna = Phone(box).join().pair(ANNA)
        path = box.owner.table.ledger.path
        before = box.owner.table.head_seq
        lock = WriteLock(path)
        try:
            late = anna.act("roll", "3", "4", aid="late-phone-0001")
            assert late.status_code == 503, late.json  # never a 500
            assert "may or may not" in late.json["error"] and "before trying again" in late.json["error"]
            # the writer is still held: the next action waits behind it, is withdrawn and says so
            behind = anna.act("pay", "Anna", "Boris", "5", aid="late-phone-0002")
            assert behind.status_code == 503 and "nothing was done" in behind.json["error"], behind.json
        finally:
            lock.release()
        box.owner.call(lambda: None, timeout=60)
        # the page kept its action id: pressing again pays once, answered as the first time
        again = anna.act("roll", "3", "4", aid="late-phone-0001")
        assert again.status_code == 200 and again.json["seq"] == before + 1
        assert request_ids(path).count("phone:Anna:late-phone-0001") == 1
        assert "phone:Anna:late-phone-0002" not in request_ids(path)
        assert box.owner.table.head_seq == before + 1
    finally:
        box.stop()


def test_a_job_whose_caller_gave_up_before_the_writer_took_it_never_runs(tmp_path):
    box = started(tmp_path)
    try:
        release = threading.Event()
        box.owner.post(lambda: release.wait(60))  # the writer is busy with something long
        ran = []
        with pytest.raises(WriterBusy):
            box.owner.call(lambda: ran.append(1), timeout=0.2)
        release.set()
        box.owner.call(lambda: None, timeout=60)
        assert ran == []
    finally:
        box.stop()


@pytest.mark.parametrize("empty", ["", "   "])
def test_an_empty_request_id_is_refused_and_nothing_is_booked(tmp_path, empty):
    box = started(tmp_path)
    try:
        path = box.owner.table.ledger.path
        before = box.owner.table.head_seq
        answer = box.handle({"op": "do", "actor": "Anna", "command": "roll 3 4", "request_id": empty})
        assert not answer["ok"] and answer["exit"] == 4 and "cannot be empty" in answer["message"]
        answer = box.handle({"op": "do", "actor": "Anna", "command": "roll 3 4", "request_id": empty, "lang": "ru"})
        assert not answer["ok"] and "не может быть пустым" in answer["message"]
        through = do(path, "Anna:", "roll", "3", "4", request_id=empty)
        assert through.returncode == 4 and through.stderr.count("\n") == 1, through.stderr
        assert box.owner.table.head_seq == before
    finally:
        box.stop()
    alone = do(path, "Anna:", "roll", "3", "4", request_id=empty)  # no daemon: the command line books itself
    assert alone.returncode == 4 and "cannot be empty" in alone.stderr and alone.stderr.count("\n") == 1
    table = open_game(path)
    try:
        assert table.head_seq == before
    finally:
        table.close()


def link_to(daemon, peer):
    """The daemon's reader link, made as the daemon makes it, to a scripted reader on a pty."""
    daemon.link.stop()
    daemon.link = ReaderLink(str(peer.link), daemon._on_tap, daemon._on_roll, daemon._on_link_state, retry=0.05).start()
    hellos = len([f for f in peer.heard if f.verb == "HELLO"])
    assert wait_for(lambda: (peer.pump(), len([f for f in peer.heard if f.verb == "HELLO"]) > hellos)[1], 60)
    peer.send("HELLO", {"proto": 1, "fw": "1.2.3", "boot": "0badcafe"})  # the same reader: it did not reboot
    assert wait_for(lambda: daemon.link.state.state == "ready", 60)


def test_a_roll_whose_ack_was_lost_resent_after_the_daemon_restarted_is_booked_once(tmp_path):
    box = started(tmp_path)
    peer = Peer(tmp_path)
    try:
        assert box.handle({"op": "do", "actor": "Anna", "command": "roll 3 4"})["ok"]
        assert box.handle({"op": "do", "actor": "Anna", "command": "buy"})["ok"]
        link_to(box, peer)
        path, before = box.owner.table.ledger.path, box.owner.table.head_seq
        roll = peer.send("ROLL", {"dice": "2,5"})  # ends Anna's turn, then Boris rolls 2 and 5
        assert wait_for(lambda: box.owner.table.head_seq == before + 2, 60)
        # its ACK never reaches the reader (the Pi restarted before it went out): it keeps the line to resend
    finally:
        box.stop()
    booked = request_ids(path)
    assert booked[-2:] == [
        f"reader:0badcafe:{roll.split()[0].decode()}:end",
        f"reader:0badcafe:{roll.split()[0].decode()}",
    ]
    box = Daemon(config(tmp_path), out=lambda line: None).start()
    try:
        link_to(box, peer)
        peer.heard.clear()
        peer.write(roll)  # the very line again
        assert wait_for(lambda: (peer.pump(), any(f.verb == "BEEP" for f in peer.heard))[1], 60)
        box.owner.call(lambda: None, timeout=60)
        assert [f.fields for f in peer.heard if f.verb == "BEEP"] == [{"times": "2", "ms": "40"}]  # "booked"
        assert box.owner.table.head_seq == before + 2
        assert request_ids(path) == booked
    finally:
        box.stop()
        peer.unplug()


def test_a_phone_action_retried_after_the_daemon_restarted_pays_once(tmp_path):
    box = started(tmp_path)
    try:
        first = box.phone.act("Anna", {"verb": "roll", "args": ["3", "4"]}, "retry-after-restart", "en")
        path = box.owner.table.ledger.path
    finally:
        box.stop()
    box = Daemon(config(tmp_path), out=lambda line: None).start()
    try:  # the page never heard the answer and sends the same action id to the new daemon
        again = box.phone.act("Anna", {"verb": "roll", "args": ["3", "4"]}, "retry-after-restart", "en")
        assert again["seq"] == first["seq"] == box.owner.table.head_seq
        assert request_ids(path).count("phone:Anna:retry-after-restart") == 1
    finally:
        box.stop()


def test_a_tap_that_drew_resent_after_the_daemon_restarted_is_answered_not_refused_or_booked_again(tmp_path):
    # a deck card's tap books at once (a plot's card only shows its purchase since issue 22: OK books it)
    box = started(tmp_path)
    try:
        assert box.handle({"op": "enrol", "kind": "card", "ref": "c01", "uid": "0B000001"})["ok"]
        assert box.handle({"op": "do", "actor": "table", "command": "land chance1"})["ok"]  # a CHANCE card is due
        before = box.owner.table.head_seq
        box._on_tap("0B000001", ("0badcafe", 9))  # as the link hands over line 9 of that reader's boot
        box.owner.call(lambda: None)
        assert box.owner.table.head_seq == before + 1 and box.owner.table.game.events[-1].command == "draw c01"
        path = box.owner.table.ledger.path
    finally:
        box.stop()
    box = Daemon(config(tmp_path), out=lambda line: None).start()
    try:
        said = box.owner.subscribe(since=box.owner.table.head_seq)
        box._on_tap("0B000001", ("0badcafe", 9))  # resent: its ACK was lost with the restart
        box.owner.call(lambda: None)
        assert box.owner.table.head_seq == before + 1
        assert request_ids(path).count("reader:0badcafe:9") == 1
        notices = []
        while (item := said.get(timeout=0.2)) is not None:
            notices.append(item.notice.code if item.notice else item.event)
        assert not [
            n for n in notices if n in ("nothing_for_card", "card_blocked_why", "tap_failed", "request_reused")
        ], notices
    finally:
        box.stop()


def test_every_line_a_restart_left_unacknowledged_is_answered_from_the_ledger_not_booked_again(tmp_path):
    """A reader keeps up to eight lines waiting for their ACK; after the daemon restarts it sends them all
    again, in order. Each one already booked is answered from the ledger, the second and later ones too
    (the box skips the ledger's look only for a boot's lines past those)."""
    box = started(tmp_path)
    try:
        for request_id, actor, command in [
            ("reader:0badcafe:10", "Anna", "roll 3 4"),
            (None, "Anna", "buy"),
            ("reader:0badcafe:11:end", "Anna", "end"),
            ("reader:0badcafe:11", "Boris", "roll 2 5"),
        ]:
            request = {"op": "do", "actor": actor, "command": command}
            if request_id:
                request["request_id"] = request_id
            assert box.handle(request)["ok"]
        path, before = box.owner.table.ledger.path, box.owner.table.head_seq
        booked = request_ids(path)
    finally:
        box.stop()
    box = Daemon(config(tmp_path), out=lambda line: None).start()
    try:
        said = box.owner.subscribe(since=box.owner.table.head_seq)
        box._on_roll((3, 4), ("0badcafe", 10))  # both resent: their ACKs were lost with the restart
        box._on_roll((2, 5), ("0badcafe", 11))
        box.owner.call(lambda: None)
        assert box.owner.table.head_seq == before
        assert request_ids(path) == booked
        notices = []
        while (item := said.get(timeout=0.2)) is not None:
            notices.append(item.notice.code if item.notice else item.event)
        assert [n for n in notices if not str(n).startswith("reader_")] == [], notices  # no refusal, no booking
        box._on_roll((1, 2), ("0badcafe", 12))  # the next line is new: it is worked out and booked
        box.owner.call(lambda: None)
        assert box.owner.table.head_seq > before
    finally:
        box.stop()


def test_a_roll_whose_turn_end_alone_was_booked_before_a_restart_books_only_its_roll(tmp_path):
    box = started(tmp_path)
    try:
        assert box.handle({"op": "do", "actor": "Anna", "command": "roll 3 4"})["ok"]
        assert box.handle({"op": "do", "actor": "Anna", "command": "buy"})["ok"]
        # the daemon died between the two bookings of line 5: Anna's turn ended, Boris's dice not yet booked
        assert box.handle({"op": "do", "actor": "Anna", "command": "end", "request_id": "reader:0badcafe:5:end"})["ok"]
        before = box.owner.table.head_seq
        box._on_roll((2, 5), ("0badcafe", 5))  # the line resent
        box.owner.call(lambda: None)
        events = box.owner.table.game.events
        assert box.owner.table.head_seq == before + 1
        assert (events[-1].actor, events[-1].command) == ("Boris", "roll 2 5")
        assert request_ids(box.owner.table.ledger.path)[-1] == "reader:0badcafe:5"
    finally:
        box.stop()


def test_a_readers_line_is_booked_under_an_id_made_of_its_boot_and_number_that_fits_the_ledger():
    from companion.daemon.main import reader_request_id
    from companion.table.service import MAX_REQUEST_ID

    assert reader_request_id(("0BADCAFE", 7)) == "reader:0BADCAFE:7"
    assert reader_request_id(None) is None  # a reader that gave no boot id: a fresh id, as before
    odd = reader_request_id(("a:1" + "x" * 90, 65535))  # an odd reader's boot id: short, one ':' per part
    assert len(odd) <= MAX_REQUEST_ID and odd.count(":") == 2


def test_a_roll_refused_because_another_program_held_the_lock_never_says_the_bank_is_halted(tmp_path):
    # found by the soak run: a ROLL pressed while another process held the write lock put "The bank is
    # halted and writes nothing more" on every screen, though the next ROLL booked as ever
    box = started(tmp_path)
    said: list[str] = []
    box.out = said.append
    try:
        table = box.owner.table
        before = table.head_seq
        lock = WriteLock(table.ledger.path)
        try:
            box._on_roll((3, 4), ("b00710c4", 5))
            assert wait_for(lambda: any("Not booked" in line for line in said), timeout=60), said
        finally:
            lock.release()
        assert not any("halted" in line for line in said), said
        assert box.owner.halted is None and box.owner.table.head_seq == before
        box._on_roll((3, 4), ("b00710c4", 6))  # the next press books as ever
        assert wait_for(lambda: box.owner.table.head_seq > before, timeout=30)
    finally:
        box.stop(quiet=True)


def test_the_box_knows_how_many_lines_the_reader_can_hold_back():
    """The lines looked up in the ledger after a restart cover every line the reader can hold: its
    unacknowledged ones and its queue (firmware/reader.py), each ROLL two request ids."""
    import re
    from pathlib import Path

    from companion.daemon import tapdesk
    from companion.hw.protocol import MAX_PENDING

    firmware = (Path(__file__).resolve().parent.parent / "firmware" / "reader.py").read_text()
    queue = int(re.search(r"^QUEUE_MAX = (\d+)", firmware, re.M).group(1))
    assert tapdesk.READER_QUEUE == queue
    assert tapdesk.LOOKED_UP >= 2 * (MAX_PENDING + queue)
