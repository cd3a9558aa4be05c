"""End to end over a pty, two processes: the firmware's own main loop (firmware/main.py over a fake chip)
on one side, the daemon with `hardware = "real"` on the other. Taps and rolls become ledger events;
noise, an unplugged cable and a tap made while it was out book nothing spurious and lose nothing."""

import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.daemon.config import Config, defaults
from companion.daemon.main import Daemon, wait_for

HERE = Path(__file__).parent
ANNA, BORIS = "0A000001", "04A2241AB31C90"  # a Classic card and an NTAG sticker


class Board:
    def __init__(self, folder):
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE / "firmware_on_pty.py"), str(folder)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        first = self.proc.stdout.readline().split()
        assert first[0] == "ready", first
        self.path = first[1]

    def do(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        assert self.proc.stdout.readline().strip() == "ok"

    def tap(self, uid):
        self.do(f"place {uid}")
        time.sleep(0.15)
        self.do("remove")
        time.sleep(0.35)

    def close(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait(10)


@pytest.fixture
def table(tmp_path):
    board = Board(tmp_path)
    values = dict(defaults().values)
    values.update(
        {
            "games_dir": str(tmp_path / "games"),
            "hardware": "real",
            "reader.port": board.path,
            "reader.retry_seconds": 0.05,
        }
    )
    lines = []
    daemon = Daemon(Config(values, "(test)"), out=lines.append).start()
    daemon.lines = lines
    assert daemon.sim is None  # real hardware: nothing simulated on the daemon's side
    assert daemon.handle({"op": "start", "edition": "elite", "players": ["Anna", "Boris"], "seed": 1})["ok"]
    for uid, seat in ((ANNA, "1"), (BORIS, "2")):
        assert daemon.handle({"op": "enrol", "kind": "player", "ref": seat, "uid": uid})["ok"]
    assert wait_for(lambda: daemon.link.state.state == "ready", timeout=15), daemon.link.state
    yield board, daemon
    daemon.stop()
    board.close()


def events(daemon):
    return [(e.actor, e.command) for e in daemon.owner.table.game.events[1:]]


def test_taps_and_rolls_from_the_firmware_become_ledger_events(table):
    board, daemon = table
    board.do("dice 3 4")
    board.do("press")
    assert wait_for(lambda: len(events(daemon)) == 1)
    assert events(daemon)[0] == ("Anna", "roll 3 4")
    plot = daemon.owner.table.state.pending.plot
    daemon.handle({"op": "enrol", "kind": "plot", "ref": plot, "uid": "04C40000000007"})
    board.tap("04C40000000007")  # the purchase is shown on the OLED first (issue 22): OK books it
    assert wait_for(lambda: daemon.console.frame is not None and daemon.console.frame.title == "Book this?")
    assert len(events(daemon)) == 1
    daemon.owner.call(lambda: daemon.console.press("ok"))
    assert wait_for(lambda: events(daemon)[-1] == ("Anna", "buy"))
    board.tap(ANNA)  # her card opens her menu on the OLED and books nothing by itself
    assert wait_for(lambda: daemon.console.frame is not None and daemon.console.frame.title.startswith("Anna"))
    assert len(events(daemon)) == 2
    board.do("dice 1 2")
    board.do("press")  # the next ROLL ends Anna's turn and rolls for Boris
    assert wait_for(lambda: events(daemon)[-2:] == [("Anna", "end"), ("Boris", "roll 1 2")])
    assert len(events(daemon)) == 4


def test_noise_on_the_line_books_nothing_and_the_next_tap_counts(table):
    board, daemon = table
    board.do("noise 100000")
    board.do("press")
    assert wait_for(lambda: len(events(daemon)) == 1, timeout=60)
    time.sleep(0.5)
    assert len(events(daemon)) == 1
    assert daemon.link.counts["bad_frames"] > 50_000


def test_a_tap_made_while_the_cable_is_out_is_booked_once_when_it_comes_back(table):
    board, daemon = table
    board.do("dice 3 4")
    board.do("press")
    assert wait_for(lambda: len(events(daemon)) == 1)
    board.do("unplug")
    assert wait_for(lambda: daemon.link.state.state != "ready")
    plot = daemon.owner.table.state.pending.plot
    daemon.handle({"op": "enrol", "kind": "plot", "ref": plot, "uid": "04C40000000009"})
    board.tap("04C40000000009")  # the reader queues it: nobody acknowledges
    time.sleep(0.3)
    assert len(events(daemon)) == 1
    board.do("replug")  # the tap arrives: its purchase is shown once, and OK books it once
    assert wait_for(lambda: daemon.console.frame is not None and daemon.console.frame.title == "Book this?", timeout=15)
    time.sleep(1.5)  # resends of the tap, if any, come within this
    assert len(events(daemon)) == 1
    assert daemon.owner.call(lambda: sum(1 for view in daemon.console.stack if getattr(view, "books", None))) == 1
    daemon.owner.call(lambda: daemon.console.press("ok"))
    assert wait_for(lambda: events(daemon)[-1] == ("Anna", "buy"))
    assert [c for _, c in events(daemon)].count("buy") == 1


def test_without_the_reader_real_hardware_says_which_part_and_never_simulates(tmp_path):
    values = dict(defaults().values)
    values.update(
        {"games_dir": str(tmp_path / "games"), "hardware": "real", "reader.port": str(tmp_path / "no-such-reader")}
    )
    lines = []
    daemon = Daemon(Config(values, "(test)"), out=lines.append).start()
    try:
        assert daemon.sim is None
        assert wait_for(lambda: any(f"Reader: not found ({tmp_path / 'no-such-reader'})" in line for line in lines))
    finally:
        daemon.stop()
