"""The game's owner: one writer thread books what every thread hands it, publishes each event once and
in order, catches up with another process's writes, and stops cleanly or halts loudly."""

import subprocess
import sys
import threading

import pytest

from companion.daemon.owner import NoGame, Owner, OwnerStopped
from companion.errors import InvariantViolation, RuleViolation
from companion.table.service import new_game

PLAYERS = ["Anna", "Boris", "Vera"]


@pytest.fixture
def game(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "state"))
    path = tmp_path / "game.sqlite"
    table = new_game(str(path), "elite", PLAYERS, 7)
    owner = Owner(table, idle_check=0.02).start()
    yield owner, path
    owner.stop()


def events_of(sub, count, timeout=10.0):
    got = []
    while len(got) < count:
        item = sub.get(timeout=timeout)
        assert item is not None, f"only {len(got)} of {count} items came"
        if item.event is not None:
            got.append(item.event)
    return got


def test_many_threads_at_once_are_booked_one_by_one_and_published_in_order(game):
    """Six phones paying at the same moment: every payment is booked once, the sequence has no gap,
    and a listener sees them in the ledger's order."""
    owner, _ = game
    sub = owner.subscribe(since=1)
    errors = []

    def pay(i):
        for _ in range(5):
            try:
                owner.submit("table", f"pay {PLAYERS[i % 3]} {PLAYERS[(i + 1) % 3]} 1")
            except Exception as exc:  # noqa: BLE001 - the test reports any
                errors.append(exc)

    threads = [threading.Thread(target=pay, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    seen = events_of(sub, 30)
    assert [e.seq for e in seen] == list(range(2, 32))
    assert owner.table.head_seq == 31


def test_a_listener_that_lost_its_place_gets_the_rest_replayed_first(game):
    owner, _ = game
    for _ in range(3):
        owner.submit("table", "pay Anna Boris 5")
    sub = owner.subscribe(since=2)
    owner.submit("table", "pay Boris Anna 5")
    assert [e.seq for e in events_of(sub, 3)] == [3, 4, 5]


def test_a_refusal_comes_back_to_the_asker_and_changes_nothing(game):
    owner, _ = game
    with pytest.raises(RuleViolation):
        owner.submit("Boris", "roll 3 4")  # not Boris's turn
    assert owner.table.head_seq == 1


def test_another_process_writing_is_noticed_caught_up_and_published(game):
    """A `companion do` at a terminal on the same ledger: the daemon's listeners see it too."""
    owner, path = game
    sub = owner.subscribe(since=1)
    done = subprocess.run(
        [sys.executable, "-m", "companion", "do", "--db", str(path), "pay", "Anna", "Vera", "7"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    [event] = events_of(sub, 1)
    assert (event.seq, event.command) == (2, "pay Anna Vera 7")
    assert owner.submit("table", "pay Vera Anna 7").seq == 3


def test_a_broken_invariant_halts_the_bank_and_the_watchdog_probe_fails(game, monkeypatch):
    owner, _ = game
    sub = owner.subscribe(since=1)

    def broken(*args, **kwargs):
        raise InvariantViolation("balances do not sum to zero")

    monkeypatch.setattr(owner.table, "submit", broken)
    with pytest.raises(InvariantViolation):
        owner.submit("table", "pay Anna Boris 1")
    notice = sub.get(timeout=5)
    assert notice.notice.code == "halted" and "sum to zero" in notice.notice.params["why"]
    assert owner.probe(1.0) is False
    with pytest.raises(InvariantViolation, match="halted"):
        owner.submit("table", "pay Anna Boris 1")


def test_a_hung_writer_fails_the_probe(game):
    owner, _ = game
    release = threading.Event()
    owner.post(lambda: release.wait(5))
    assert owner.probe(0.2) is False
    release.set()
    assert owner.probe(5.0) is True


def test_stop_finishes_the_request_in_hand_and_refuses_the_rest(game):
    owner, _ = game
    started, release = threading.Event(), threading.Event()
    results = {}

    def slow():
        started.set()
        release.wait(5)
        return owner.apply("table", "pay Anna Boris 9")

    t = threading.Thread(target=lambda: results.setdefault("slow", owner.call(slow)))
    t.start()
    started.wait(5)
    stopper = threading.Thread(target=owner.stop)
    stopper.start()
    release.set()
    t.join(5)
    stopper.join(5)
    assert results["slow"].seq == 2
    with pytest.raises(OwnerStopped):
        owner.submit("table", "pay Anna Boris 1")


def test_without_a_game_a_command_says_so(tmp_path):
    owner = Owner(None).start()
    try:
        with pytest.raises(NoGame):
            owner.submit("table", "roll 3 4")
    finally:
        owner.stop()


def payment(i):
    """The i-th of a run of payments between Anna and Boris, back and forth (nobody runs out of money)."""
    return f"pay {'Anna Boris' if i % 2 else 'Boris Anna'} 1"


def test_the_backup_beside_the_ledger_is_made_when_the_writer_is_idle_never_before_the_screens_have_it(
    tmp_path, monkeypatch
):
    """Every BACKUP_EVERY events a copy of the ledger is written beside it (docs/reliability.md); on the box
    that copy (milliseconds of SQLite and fsync) waits until the event is published and the writer is idle,
    so a tap's receipt never waits for it; a stop writes a backup still owed."""
    from companion.daemon.main import wait_for
    from companion.table.service import BACKUP_EVERY

    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "state"))
    path = tmp_path / "game.sqlite"
    backup = tmp_path / "game.sqlite.backup"
    owner = Owner(new_game(str(path), "classic", ["Anna", "Boris"], 1), idle_check=0.05).start()
    sub = owner.subscribe()
    published_without_backup = []

    def pay_and_look(i):
        event = owner.apply("table", payment(i))
        if event.seq == BACKUP_EVERY:
            published_without_backup.append(not backup.exists())  # published, the copy not yet made

    try:
        for i in range(BACKUP_EVERY - 1):  # #1 is the new game: #100 is the 99th payment
            owner.call(lambda i=i: pay_and_look(i))
        assert events_of(sub, BACKUP_EVERY)[-1].seq == BACKUP_EVERY
        assert published_without_backup == [True]
        assert wait_for(backup.exists, timeout=5.0)  # the writer went idle and made it
    finally:
        owner.stop()

    # owed at the stop: written before the ledger is closed
    backup.unlink()
    path2 = tmp_path / "second.sqlite"
    owner = Owner(new_game(str(path2), "classic", ["Anna", "Boris"], 1), idle_check=60.0).start()
    try:
        owner.call(lambda: [owner.apply("table", payment(i)) for i in range(BACKUP_EVERY - 1)])
        assert not (tmp_path / "second.sqlite.backup").exists()
    finally:
        owner.stop()
    assert (tmp_path / "second.sqlite.backup").exists()


def test_a_tap_while_the_backup_beside_the_ledger_is_made_is_booked_at_once(tmp_path, monkeypatch):
    """The backup every BACKUP_EVERY events is copied on a thread of its own through its own connection: a
    booking that comes meanwhile does not wait for it (it held the idle writer 7-100 ms here, ~2 s on a
    Zero 2 W), and the copy still holds a consistent game."""
    from companion.daemon.main import wait_for
    from companion.ledger import files
    from companion.table.service import BACKUP_EVERY, open_game

    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "state"))
    path = tmp_path / "game.sqlite"
    copying, release = threading.Event(), threading.Event()
    copy = files.LedgerFile._synced_copy

    def slow_copy(self, *args, **kwargs):
        copying.set()
        release.wait(30)  # the SD card is slow today
        return copy(self, *args, **kwargs)

    monkeypatch.setattr(files.LedgerFile, "_synced_copy", slow_copy)
    owner = Owner(new_game(str(path), "classic", ["Anna", "Boris"], 1), idle_check=0.02).start()
    try:
        owner.call(lambda: [owner.apply("table", payment(i)) for i in range(BACKUP_EVERY - 1)])
        assert copying.wait(10)  # the writer went idle and the copy began
        event = owner.submit("table", "pay Anna Boris 1", timeout=2)  # not behind the copy
        assert event.seq == BACKUP_EVERY + 1
        release.set()
        assert wait_for((tmp_path / "game.sqlite.backup").exists, timeout=10)
    finally:
        release.set()
        owner.stop()
    copied = open_game(str(tmp_path / "game.sqlite.backup"))
    try:
        assert copied.head_seq in (BACKUP_EVERY, BACKUP_EVERY + 1)  # a consistent moment of the game
    finally:
        copied.close()


def test_the_backup_made_aside_copies_this_game_even_when_another_file_took_its_name(tmp_path, monkeypatch):
    """The aside copy reads the ledger by its name: when another file was put there (a restore by hand, a
    mistaken copy), the copy beside the ledger is still made of the game this table holds, never the
    newcomer's."""
    import os

    from companion.table.service import open_game

    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "state"))
    path = tmp_path / "game.sqlite"
    table = new_game(str(path), "classic", ["Anna", "Boris"], 1)
    for i in range(5):
        table.submit(payment(i))
    other = new_game(str(tmp_path / "other.sqlite"), "classic", ["Vera", "Gleb"], 2)
    other.close()
    table.ledger.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # this game's pages all in its own file
    os.replace(tmp_path / "other.sqlite", path)  # another game's file under this one's name
    table.backup_due = True
    table.housekeeping(aside=True)
    table.finish_backup()
    table.close()
    copied = open_game(str(tmp_path / "game.sqlite.backup"))
    try:
        assert list(copied.state.players) == ["Anna", "Boris"] and copied.head_seq == 6
    finally:
        copied.close()


class SlowScreen:
    """A dummy OLED whose receipts ("#seq" pages) wait for `release`: the screen busy drawing one."""

    def __init__(self):
        from companion.hw.display import Screen, open_device

        self.release = threading.Event()
        self.drawing = threading.Event()
        self.titles: list[str] = []
        outer = self

        class Slow(Screen):
            def show(self, frame):
                if frame.title.startswith("#"):
                    outer.titles.append(frame.title)
                    outer.drawing.set()
                    outer.release.wait(30)
                return super().show(frame)

        self.screen = Slow(open_device("dummy"))


def booked_while_drawing(owner, slow, command):
    """Book `command` on another thread while the slow screen draws its receipt: (the thread, an Event set once
    the caller has its answer); returns with the receipt being drawn."""
    answered = threading.Event()
    booking = threading.Thread(target=lambda: (owner.submit("table", command), answered.set()))
    booking.start()
    assert slow.drawing.wait(10)
    return booking, answered


def test_a_phone_gets_an_event_only_once_the_box_has_drawn_its_receipt(tmp_path, monkeypatch):
    """The receipt on the OLED first, everyone else after it (issue 25): fifty phone pages, the printer and
    the writer's own after-work never make the family's receipt wait behind them; the phone still gets
    every event, in order, and the booking's caller hears its answer once the screen has it."""
    from companion.daemon import owner as owner_module
    from companion.daemon.panel import Panel

    monkeypatch.setattr(owner_module, "LEAD_WAIT_S", 60.0)  # the others wait for the screen, however slow
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "state"))
    table = new_game(str(tmp_path / "game.sqlite"), "elite", PLAYERS, 7)
    owner = Owner(table, idle_check=0.02).start()
    slow = SlowScreen()
    panel = Panel(slow.screen, owner, "en").start()
    try:
        phone, _ = owner.follow()
        printer = owner.subscribe(since=table.head_seq)
        booking, answered = booked_while_drawing(owner, slow, "pay Anna Boris 1")
        assert phone.get(timeout=0.3) is None  # the receipt is still being drawn: the phone waits,
        assert printer.get(timeout=0) is None  # and so does the box's own printer,
        assert not answered.is_set()  # and the caller
        slow.release.set()
        booking.join(10)
        assert answered.is_set()
        assert [e.seq for e in events_of(phone, 1)] == [2]
        assert [e.seq for e in events_of(printer, 1)] == [2]
        owner.submit("table", "pay Boris Vera 1")
        assert [e.seq for e in events_of(phone, 1)] == [3]
    finally:
        slow.release.set()
        panel.stop()
        owner.stop()


def test_a_new_games_receipts_come_first_too(tmp_path, monkeypatch):
    """A new game's events start again at #1: the phones still wait for each one's receipt (the screen's
    "drawn up to" is the last event it drew, not the highest number it ever saw)."""
    from companion.daemon import owner as owner_module
    from companion.daemon.panel import Panel

    monkeypatch.setattr(owner_module, "LEAD_WAIT_S", 60.0)
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "state"))
    owner = Owner(new_game(str(tmp_path / "first.sqlite"), "elite", PLAYERS, 7), idle_check=0.02).start()
    slow = SlowScreen()
    slow.release.set()
    panel = Panel(slow.screen, owner, "en").start()
    try:
        for _ in range(3):
            owner.submit("table", "pay Anna Boris 1")
        assert panel.wait_drawn(4, 5)
        owner.replace_table(new_game(str(tmp_path / "second.sqlite"), "elite", PLAYERS, 8))
        phone, _ = owner.follow()
        slow.release.clear()
        slow.drawing.clear()
        booking, _ = booked_while_drawing(owner, slow, "pay Boris Vera 1")  # the new game's #2
        assert phone.get(timeout=0.3) is None  # #2's receipt is being drawn: the phone waits for it
        slow.release.set()
        booking.join(10)
        assert [e.seq for e in events_of(phone, 1)] == [2]
    finally:
        slow.release.set()
        panel.stop()
        owner.stop()


def test_a_screen_that_hangs_holds_the_others_back_only_briefly(tmp_path, monkeypatch):
    """A display that stopped answering costs each booking at most LEAD_WAIT_S: the phones and the caller
    still hear of it."""
    from companion.daemon import owner as owner_module
    from companion.daemon.panel import Panel

    monkeypatch.setattr(owner_module, "LEAD_WAIT_S", 0.2)
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "state"))
    table = new_game(str(tmp_path / "game.sqlite"), "elite", PLAYERS, 7)
    owner = Owner(table, idle_check=0.02).start()
    slow = SlowScreen()  # never released until the end
    panel = Panel(slow.screen, owner, "en").start()
    try:
        phone, _ = owner.follow()
        event = owner.submit("table", "pay Anna Boris 1", timeout=5)
        assert [e.seq for e in events_of(phone, 1, timeout=5)] == [event.seq]
    finally:
        slow.release.set()
        panel.stop()
        owner.stop()


def test_a_display_that_fails_never_holds_the_writer(tmp_path, monkeypatch):
    """An OLED whose every draw fails (a loose wire) is still a screen that has handled its items: the
    writer does not wait LEAD_WAIT_S behind it on every booking."""
    from companion.daemon import owner as owner_module
    from companion.daemon.panel import Panel
    from companion.hw.display import Screen, open_device

    monkeypatch.setattr(owner_module, "LEAD_WAIT_S", 60.0)
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "state"))

    class Broken(Screen):
        def show(self, frame):
            raise OSError(121, "Remote I/O error")

    owner = Owner(new_game(str(tmp_path / "game.sqlite"), "elite", PLAYERS, 7), idle_check=0.02).start()
    panel = Panel(Broken(open_device("dummy")), owner, "en").start()
    try:
        phone, _ = owner.follow()
        for _ in range(3):
            owner.submit("table", "pay Anna Boris 1", timeout=5)  # each answered, none held 60 s
        assert [e.seq for e in events_of(phone, 3, timeout=5)] == [2, 3, 4]
    finally:
        panel.stop()
        owner.stop()


def test_a_job_that_books_twice_is_drawn_once_and_its_notice_follows_its_events(tmp_path, monkeypatch):
    """A ROLL that ends the turn books two events in one job: the OLED composes only the last one's receipt
    (the first would be replaced before anyone could read it), and a notice the job says after booking
    comes after both events for every listener, so it is not wiped from the screen by a receipt."""
    from companion.daemon.panel import Panel

    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "state"))
    table = new_game(str(tmp_path / "game.sqlite"), "elite", PLAYERS, 7)
    owner = Owner(table, idle_check=0.02).start()
    slow = SlowScreen()
    slow.release.set()
    panel = Panel(slow.screen, owner, "en").start()
    try:
        listener = owner.subscribe(since=table.head_seq)

        def two_and_a_word():
            owner.apply("table", "pay Anna Boris 1")
            owner.apply("table", "pay Boris Vera 1")
            owner.announce("reader_offline")

        owner.call(two_and_a_word)
        items = [listener.get(timeout=5) for _ in range(3)]
        assert [(i.event.seq if i.event else i.notice.code) for i in items] == [2, 3, "reader_offline"]
        assert panel.wait_drawn(3, 5)
        assert slow.titles == []  # the notice came last and is what the screen shows: no receipt drawn
        owner.call(lambda: (owner.apply("table", "pay Anna Boris 1"), owner.apply("table", "pay Boris Vera 1")))
        assert panel.wait_drawn(5, 5)
        assert slow.titles == ["#5"]
    finally:
        panel.stop()
        owner.stop()
