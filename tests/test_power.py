"""SD card and power (issue 25, point 6): the box switched off safely from its buttons (a confirmation, BACK
keeps it on, OK closes the bank and asks logind once), no setting that puts the ledger in RAM, and what a
clock nobody set shows."""

import re
import time
from pathlib import Path

import pytest

from companion.daemon.config import Config, defaults
from companion.daemon.main import Daemon, wait_for
from companion.daemon.runner import Ran
from companion.daemon.views import ListView
from companion.daemon.wiring import POWER_OFF
from companion.hw.buttons import Press

ROOT = Path(__file__).parent.parent


class FakeRunner:
    def __init__(self, answer: Ran | None = None):
        self.lines: list[list[str]] = []
        self.answer = answer or Ran(0, "")

    def __call__(self, argv):
        self.lines.append(list(argv))
        return self.answer


@pytest.fixture
def box(tmp_path):
    values = dict(defaults().values)
    values.update({"games_dir": str(tmp_path / "games"), "virtual_table.port": 0, "phone.port": 0})
    lines: list[str] = []
    daemon = Daemon(Config(values, "(test)"), out=lines.append)
    daemon.runner = FakeRunner()
    daemon.start()
    daemon.lines = lines
    assert daemon.handle({"op": "start", "edition": "elite", "players": ["Anna", "Boris"], "seed": 1})["ok"]
    yield daemon
    daemon.stop()


def press(daemon, name, long=False):
    daemon.owner.call(lambda: daemon.desk.press(Press(name, long=long)))


def top(daemon):
    return daemon.owner.call(lambda: daemon.console.stack[-1] if daemon.console.stack else None)


def open_power_off(daemon):
    """Game… → Power off…, read off the screen as a person does."""
    press(daemon, "ok")  # the table's menu
    for wanted in ("Game", "Power off"):
        view = top(daemon)
        for _ in range(len(view.items) + 1):
            if view.items[view.index].text.startswith(wanted):
                break
            press(daemon, "down")
        else:
            raise AssertionError(f"no {wanted!r} in {[i.text for i in view.items]}")
        press(daemon, "ok")
    return daemon.console.frame


def test_power_off_asks_first_and_back_keeps_the_box_on(box):
    frame = open_power_off(box)
    assert frame.title == "Power off" and "Hold OK: yes" in frame.footer
    assert any("switches off" in line for line in frame.lines)
    press(box, "back")
    assert isinstance(top(box), ListView) and top(box).title.startswith("Game")
    time.sleep(0.2)  # nothing runs behind the screen's back
    assert box.runner.lines == [] and not box.stopped.is_set()


def test_a_short_ok_never_switches_off_only_ok_held_long_does(box):
    """Issue 25: power off is a long press in the box's menu, so one press too many (a child's, a press
    meant for the menu before) leaves the bank open."""
    open_power_off(box)
    press(box, "ok")
    time.sleep(0.2)
    assert box.runner.lines == [] and not box.stopped.is_set()
    assert box.console.frame.title == "Power off"  # still asking


def test_ok_held_closes_the_bank_then_asks_logind_once_and_the_oled_says_unplug_is_safe(box):
    seq = box.owner.table.head_seq
    open_power_off(box)
    press(box, "ok", long=True)
    assert box.done.wait(20)
    assert box.stopped.is_set() and box.runner.lines == [POWER_OFF]
    assert POWER_OFF[:2] == ["busctl", "call"] and "PowerOff" in POWER_OFF
    # the ledger was closed cleanly first: the game opens again with every event
    from companion.table.service import open_game

    assert open_game(str(Path(box.config.games_dir) / "current.sqlite")).head_seq == seq
    assert box.panel is not None and box.panel.screen.device.persist  # the words stay lit after the halt
    box.panel.screen.device.image.convert("L").resize((512, 256)).save(Path(box.config.games_dir).parent / "off.png")
    assert any("bank is closed" in line.lower() for line in box.lines) or box.stopped.is_set()


def test_a_refused_power_off_is_said_and_the_bank_stays_closed(box):
    box.runner.answer = Ran(1, "Call failed: Access denied")
    open_power_off(box)
    press(box, "ok", long=True)
    assert box.done.wait(20)
    assert box.runner.lines == [POWER_OFF]
    assert wait_for(lambda: any("could not switch off (Call failed: Access denied)" in line for line in box.lines))


def test_the_service_keeps_the_ledger_on_the_card_never_in_ram():
    """docs/daemon.md: no tmpfs, overlay or volatile setting reaches /var/lib/companion."""
    unit = (ROOT / "systemd" / "companion.service").read_text()
    install = (ROOT / "systemd" / "install.sh").read_text()
    assert "StateDirectory=companion" in unit
    for risky in ("TemporaryFileSystem", "tmpfs", "overlay", "Volatile", "BindPaths"):
        assert risky.lower() not in unit.lower(), risky
    assert not re.search(r"overlayroot|overlayfs|do_overlayfs|tmpfs|log2ram", install)
    rule = (ROOT / "systemd" / "polkit" / "50-companion.rules").read_text()
    assert "org.freedesktop.login1.power-off" in rule and 'subject.user == "companion"' in rule
    assert "/etc/polkit-1/rules.d/50-companion.rules" in install


# ----- the clock ---------------------------------------------------------------------------------------


def test_the_clock_counts_as_set_only_once_timesyncd_says_so(tmp_path):
    from companion.daemon.clock import clock_synchronized

    timesync = tmp_path / "timesync"
    timesync.mkdir()
    assert not clock_synchronized(timesync)
    (timesync / "synchronized").touch()
    assert clock_synchronized(timesync)


def test_an_unset_clock_is_said_in_the_archived_games_names(tmp_path, monkeypatch):
    from companion.daemon import games as games_module
    from companion.daemon.games import Games

    monkeypatch.setattr(games_module, "clock_synchronized", lambda: False)
    store = Games(tmp_path / "games")
    table = store.start("elite", ["Anna", "Boris"], 1)
    table.submit("end_game")
    path = store.archive(table)
    assert path.name.endswith("-clock-unset-elite.sqlite")
    monkeypatch.setattr(games_module, "clock_synchronized", lambda: True)
    table = store.start("elite", ["Anna", "Boris"], 2)
    table.submit("end_game")
    assert re.fullmatch(r"\d{4}-\d\d-\d\d-\d{6}-elite\.sqlite", store.archive(table).name)


@pytest.mark.parametrize("synced", [True, False])
def test_the_phones_list_of_roles_shows_since_when_only_with_a_set_clock(box, monkeypatch, synced):
    """The banker's list of phones with a role ("the banker since 28.11 09:12"): a time of day only once NTP
    set the clock; before, a dash (the stored time may be 1970 or the last shutdown's)."""
    from companion.daemon.phone import roles

    monkeypatch.setattr(roles, "clock_synchronized", lambda: synced)
    phone = box.phone
    phone.roles.keep_role("token-1", "banker", "", "csrf", phone.game_id())
    (kept,) = phone.roles_kept("en", "token-1")
    assert (re.fullmatch(r"\d\d\.\d\d \d\d:\d\d", kept["since"]) is not None) is synced
    assert synced or kept["since"] == "—"
