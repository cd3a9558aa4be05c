"""The daemon end to end on simulated hardware: the real firmware behind a pty, taps and rolls booked
in the ledger, the command line handed to the daemon, the game's life on the box, systemd's view of
it (READY, watchdog, a clean SIGTERM), and the cable pulled mid-game."""

import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from companion.daemon.config import Config, defaults
from companion.daemon.main import Daemon, wait_for
from companion.hw.protocol import FIRMWARE_VERSION
from companion.table.service import open_game

ANNA, BORIS, STRANGER = "0A000001", "0A000002", "DEADBEEF"


def config(tmp_path, **extra):
    values = dict(defaults().values)
    values.update({"games_dir": str(tmp_path / "games"), "virtual_table.port": 0, **extra})
    return Config(values, "(test)")


@pytest.fixture
def box(tmp_path):
    lines = []
    daemon = Daemon(config(tmp_path), out=lines.append).start()
    daemon.lines = lines
    assert daemon.handle({"op": "start", "edition": "elite", "players": ["Anna", "Boris"], "seed": 1})["ok"]
    for uid, seat in ((ANNA, "1"), (BORIS, "2")):
        assert daemon.handle({"op": "enrol", "kind": "player", "ref": seat, "uid": uid})["ok"]
    assert wait_for(lambda: daemon.link.state.state == "ready")
    yield daemon
    daemon.stop()


def head(daemon):
    return daemon.owner.table.head_seq


def tap(daemon, uid):
    daemon.sim.place(uid)
    time.sleep(0.15)
    daemon.sim.remove()
    time.sleep(0.35)  # four empty scans before the reader counts the card lifted


def said(daemon, words, timeout=5.0):
    return wait_for(lambda: any(words in line for line in daemon.lines), timeout)


def test_roll_and_plot_card_become_ledger_events(box):
    """ROLL on the reader is the turn's roll with the reader's dice; the plot's card buys it after OK on the
    confirmation it shows (issue 22)."""
    box.sim.press_roll()
    assert wait_for(lambda: head(box) == 2)
    event = box.owner.table.game.events[1]
    assert event.actor == "Anna" and event.command.startswith("roll ")
    plot = box.owner.table.state.pending.plot
    uid = "04A10000000001"
    assert box.handle({"op": "enrol", "kind": "plot", "ref": plot, "uid": uid})["ok"]
    tap(box, uid)
    assert wait_for(lambda: box.console.frame is not None and box.console.frame.title == "Book this?")
    assert head(box) == 2
    box.owner.call(lambda: box.console.press("ok"))
    assert wait_for(lambda: head(box) == 3)
    assert box.owner.table.game.events[2].command == "buy"
    assert box.owner.table.state.owner[plot] == "Anna"


def test_an_unknown_card_is_refused_with_the_reason_and_the_reader_buzzes_no(box):
    tap(box, STRANGER)
    assert said(box, f"Card {STRANGER} is not one of this box's cards")
    assert head(box) == 1
    assert wait_for(lambda: any(who == "pi" and times == 3 for _, times, who in pi_beeps(box)))


def pi_beeps(daemon):
    return [(start, 3 if ms >= 100 else 1, who) for start, ms, who in daemon.sim.firmware.beeps]


def test_a_lost_card_replaced_mid_game_and_the_old_one_refused(box):
    box.sim.press_roll()
    assert wait_for(lambda: head(box) == 2)
    answer = box.handle({"op": "enrol", "kind": "player", "ref": "1"})  # the next card tapped is Anna's
    assert answer["ok"] and answer["waiting"]
    tap(box, "0A0000AA")
    assert said(box, "Card 0A0000AA is now player 1; card 0A000001 no longer counts")
    tap(box, ANNA)
    assert said(box, "Card 0A000001 was replaced by another card")
    box.handle({"op": "do", "command": "decline"})
    before = head(box)
    while box.owner.table.state.pending is not None and box.owner.table.state.phase != "over":
        legal = {a.verb for a in box.owner.table.rules.legal(box.owner.table.state)}
        if "hammer" not in legal:
            break
        box.handle({"op": "do", "command": "hammer"})
    tap(box, "0A0000AA")
    assert wait_for(lambda: box.owner.table.game.events[-1].command == "end" or head(box) > before)


def test_the_command_line_is_handed_to_the_running_daemon(box, tmp_path):
    path = box.owner.table.ledger.path
    done = subprocess.run(
        [sys.executable, "-m", "companion", "do", "--db", path, "Anna:", "roll", "3", "4"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "#2 Anna: roll 3 4" in done.stdout and "Anna rolls 3 and 4" in done.stdout
    assert said(box, "#2    Anna: roll 3 4")  # the daemon published it like a tap
    refused = subprocess.run(
        [sys.executable, "-m", "companion", "do", "--db", path, "Boris:", "roll", "3", "4"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 3 and refused.stderr.count("\n") <= 2 and "refused" in refused.stderr


def test_a_silent_daemon_is_named_in_one_line(tmp_path):
    games = tmp_path / "games"
    cfg = config(tmp_path, **{"control.socket": str(tmp_path / "nobody.sock")})
    daemon = Daemon(cfg, out=lambda line: None).start()
    try:
        daemon.handle({"op": "start", "edition": "elite", "players": ["Anna", "Boris"], "seed": 1})
        daemon.control.stop()  # alive, holding the game, but not answering
        done = subprocess.run(
            [sys.executable, "-m", "companion", "do", "--db", str(games / "current.sqlite"), "roll"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 5
        last = done.stderr.strip().splitlines()[-1]
        assert f"pid {os.getpid()}" in last and "did not answer" in last
    finally:
        daemon.control = None
        daemon.stop()


def test_the_games_life_end_archive_and_a_new_game_and_resume_after_a_restart(tmp_path):
    cfg = config(tmp_path)
    daemon = Daemon(cfg, out=lambda line: None).start()
    try:
        daemon.handle({"op": "start", "edition": "monopoly", "players": ["Anna", "Boris"], "seed": 3})
        assert daemon.handle({"op": "do", "command": "pay Anna Boris 5"})["ok"]
        again = daemon.handle({"op": "start", "edition": "elite", "players": ["X", "Y"], "seed": 3})
        assert not again["ok"] and "already on the box" in again["message"]
        early = daemon.handle({"op": "archive"})
        assert not early["ok"] and "not over" in early["message"]
    finally:
        daemon.stop()
    lines = []
    daemon = Daemon(cfg, out=lines.append).start()  # a power cut and a boot: the game comes back
    try:
        assert daemon.owner.table.head_seq == 2
        assert wait_for(lambda: any("Game resumed at #2" in line for line in lines))
        assert daemon.handle({"op": "end"})["ok"]
        archived = daemon.handle({"op": "archive"})
        assert archived["ok"] and os.path.exists(archived["path"])
        assert not (tmp_path / "games" / "current.sqlite").exists()
        assert daemon.handle({"op": "start", "edition": "elite", "players": ["X", "Y"], "seed": 3})["ok"]
    finally:
        daemon.stop()
    assert open_game(archived["path"]).state.phase == "over"


def test_malformed_requests_get_one_line_and_change_nothing(box):
    for request in (
        {"op": "fly"},
        {"op": "do"},
        {"op": "do", "command": 5},
        {"op": "do", "command": "roll", "actor": "Zed"},
        {"op": "start", "edition": "elite", "players": "Anna"},
        {"op": "enrol", "kind": "plot", "ref": "nowhere"},
        {"op": "sim", "action": "explode"},
    ):
        answer = box.handle(request)
        assert answer["ok"] is False and "\n" not in answer["message"] and answer["message"], request
    assert head(box) == 1


def test_the_cable_pulled_and_plugged_in_again_mid_game_loses_and_doubles_nothing(box):
    box.sim.press_roll()
    assert wait_for(lambda: head(box) == 2)
    box.handle({"op": "do", "command": "decline"})
    n = head(box)
    box.sim.unplug()
    assert said(box, "Reader offline")
    box.sim.replug()
    assert wait_for(lambda: box.link.state.state == "ready")
    assert box.link.counts["reconnects"] >= 1
    assert box.handle({"op": "do", "command": "pay Anna Boris 1"})["ok"]
    assert head(box) == n + 1  # nothing came in twice from the reader while it was away


class NotifySocket:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.sock.settimeout(0.2)
        self.got = []

    def wait_for(self, message, timeout=20.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                self.got.extend(self.sock.recv(4096).decode().splitlines())
            except TimeoutError:
                pass
            if any(m.startswith(message) for m in self.got):
                return True
        return False


def test_started_as_systemd_would_ready_watchdog_and_a_clean_sigterm(tmp_path):
    """Type=notify: READY once the game and the socket are up; WATCHDOG=1 while the writer answers;
    SIGTERM: STOPPING, the ledger closed with every event, exit 0."""
    notify = NotifySocket(tmp_path / "notify")
    conf = tmp_path / "companion.toml"
    conf.write_text(f'games_dir = "{tmp_path / "games"}"\n[virtual_table]\nport = 0\n', encoding="utf-8")
    env = {**os.environ, "NOTIFY_SOCKET": str(tmp_path / "notify"), "WATCHDOG_USEC": "400000"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--config", str(conf)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert notify.wait_for("READY=1"), notify.got
        assert notify.wait_for("WATCHDOG=1"), notify.got
        started = subprocess.run(
            [
                sys.executable,
                "-m",
                "companion",
                "game",
                "start",
                "--config",
                str(conf),
                "elite",
                "Anna",
                "Boris",
                "--seed",
                "5",
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert started.returncode == 0, started.stderr
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "companion",
                "do",
                "--db",
                str(tmp_path / "games" / "current.sqlite"),
                "roll",
                "2",
                "3",
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert notify.wait_for("STOPPING=1")
    assert "The bank is closed" in out and "#2    roll 2 3" in out
    assert open_game(str(tmp_path / "games" / "current.sqlite")).head_seq == 2


def test_the_watchdog_goes_quiet_when_the_writer_hangs(tmp_path, monkeypatch):
    notify = NotifySocket(tmp_path / "notify")
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "notify"))
    monkeypatch.setenv("WATCHDOG_USEC", "200000")
    daemon = Daemon(config(tmp_path, **{"daemon.watchdog_probe_seconds": 0.1}), out=lambda line: None).start()
    release = __import__("threading").Event()
    try:
        assert notify.wait_for("WATCHDOG=1")
        daemon.owner.post(lambda: release.wait(10))
        assert notify.wait_for("STATUS=writer not answering")
        notify.got = []
        time.sleep(0.5)
        notify.wait_for("nothing", timeout=0.3)
        assert "WATCHDOG=1" not in notify.got
    finally:
        release.set()
        daemon.stop()


def test_game_status_and_cards_through_the_running_daemon_speak_words(tmp_path):
    from companion.daemon.config import load_config

    conf = tmp_path / "companion.toml"
    conf.write_text(
        f'games_dir = "{tmp_path / "games"}"\nlanguage = "ru"\n[virtual_table]\nport = 0\n', encoding="utf-8"
    )
    daemon = Daemon(load_config(conf), out=lambda line: None).start()
    try:

        def cli(*words):
            return subprocess.run(
                [sys.executable, "-m", "companion", *words, "--config", str(conf)],
                capture_output=True,
                text=True,
                timeout=60,
            )

        none = cli("game", "status", "--lang", "ru")
        assert none.returncode == 0 and "На коробке нет игры" in none.stdout and "None" not in none.stdout
        assert cli("game", "start", "elite", "Анна", "Борис", "--seed", "2").returncode == 0
        assert wait_for(lambda: daemon.link.state.state == "ready")
        status = cli("game", "status", "--lang", "ru")
        assert (
            "current.sqlite (#1)" in status.stdout
            and f"Считыватель готов (прошивка {FIRMWARE_VERSION})" in status.stdout
        )
        assert "None" not in status.stdout
        enrolled = cli("cards", "enrol", "plot", "leisure1", "--uid", "04a1b2c3", "--lang", "ru")
        assert enrolled.returncode == 0, enrolled.stderr
        assert enrolled.stdout.strip() == "Карта 04A1B2C3 теперь: участок «Кинотеатр»"
        listed = cli("cards", "list", "--lang", "ru")
        assert "04A1B2C3" in listed.stdout
        typo = cli("cards", "enrol", "plot", "leisure99", "--uid", "04a1b2c4")
        assert typo.returncode == 4 and typo.stderr.count("\n") == 1 and "leisure99" in typo.stderr
    finally:
        daemon.stop()


def test_a_command_typed_while_the_daemon_was_stopped_is_the_boxs_own_game_at_the_next_start(tmp_path):
    """`companion do` on the box's game with no daemon running writes to the same ledger and anchors
    the daemon reads: the next start resumes it, never calling it damaged."""
    cfg = config(tmp_path)
    daemon = Daemon(cfg, out=lambda line: None).start()
    daemon.handle({"op": "start", "edition": "elite", "players": ["Anna", "Boris"], "seed": 1})
    daemon.stop()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion",
            "do",
            "--db",
            str(tmp_path / "games" / "current.sqlite"),
            "pay",
            "Anna",
            "Boris",
            "5",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    daemon = Daemon(cfg, out=lambda line: None).start()
    try:
        assert daemon.owner.table.head_seq == 2
    finally:
        daemon.stop()


def test_two_daemons_never_share_a_control_socket(tmp_path):
    sock = str(tmp_path / "one.sock")
    first = Daemon(config(tmp_path / "a", **{"control.socket": sock}), out=lambda line: None).start()
    try:
        with pytest.raises(Exception, match="already listens"):
            Daemon(config(tmp_path / "b", **{"control.socket": sock}), out=lambda line: None).start()
        assert first.handle({"op": "status"})["ok"]
        assert os.path.exists(sock)
    finally:
        first.stop()


def test_a_command_meant_for_another_game_is_not_booked_here(box, tmp_path):
    answer = box.handle({"op": "do", "command": "pay Anna Boris 5", "game": str(tmp_path / "other.sqlite")})
    assert not answer["ok"] and "nothing was booked" in answer["message"]
    assert head(box) == 1


def test_an_enrolment_never_takes_a_card_that_already_has_a_role(box):
    assert box.handle({"op": "enrol", "kind": "player", "ref": "3"})["waiting"]
    tap(box, ANNA)
    assert said(box, "Card 0A000001 is already player 1")
    assert box.cards.role(ANNA).ref == "1"
    tap(box, "0A0000CC")
    assert said(box, "Card 0A0000CC is now player 3")


def test_a_seat_no_table_has_is_refused_before_anyone_taps(box):
    for seat in ("0", "9", "zz"):
        answer = box.handle({"op": "enrol", "kind": "player", "ref": seat})
        assert not answer["ok"] and "seat from 1 to 8" in answer["message"]
    assert box.enrolling is None


def test_an_archive_that_cannot_be_written_is_one_line_and_the_game_stays(tmp_path):
    daemon = Daemon(config(tmp_path), out=lambda line: None).start()
    try:
        daemon.handle({"op": "start", "edition": "elite", "players": ["Anna", "Boris"], "seed": 1})
        assert daemon.handle({"op": "end"})["ok"]
        (tmp_path / "games" / "archive").write_text("a file where the folder should be")
        answer = daemon.handle({"op": "archive"})
        assert not answer["ok"] and "\n" not in answer["message"]
        assert daemon.owner.table is not None and daemon.owner.table.state.phase == "over"
        (tmp_path / "games" / "archive").unlink()
        assert daemon.handle({"op": "archive"})["ok"]
    finally:
        daemon.stop()


def test_the_control_socket_answers_hostile_lines_with_one_line(box):
    from companion.daemon.control import ask

    path = box.config.socket_path
    deep = "[" * 100_000 + "]" * 100_000
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.connect(str(path))
        s.sendall(deep.encode()[:60_000] + b"\n")
        assert b"not a JSON request" in s.recv(4096)
    assert ask(path, {"op": "status"})["ok"]


def test_sound_off_is_kept_across_a_restart_and_a_damaged_setting_is_said(tmp_path):
    """A table that turned the box's beeps off does not hear them again after the plug was pulled;
    a settings file that cannot be read leaves the sound on and says so on the screen."""
    lines = []
    daemon = Daemon(config(tmp_path), out=lines.append).start()
    try:
        daemon.owner.call(lambda: daemon.set_muted(True))
        assert wait_for(lambda: any("Sound off" in line for line in lines))
    finally:
        daemon.stop()
    again = Daemon(config(tmp_path), out=lines.append).start()
    try:
        assert again.muted
        assert again.owner.call(again._footer) != ""  # the idle pages say the sound is off
    finally:
        again.stop()
    (tmp_path / "games" / "box.json").write_text("{not json", encoding="utf-8")
    lines.clear()
    damaged = Daemon(config(tmp_path), out=lines.append).start()
    try:
        assert not damaged.muted
        assert wait_for(lambda: any("could not be read: sound is on again" in line for line in lines))
        assert not any("Traceback" in line for line in lines)
    finally:
        damaged.stop()


def test_a_forged_game_on_the_box_is_shown_read_only_until_a_person_accepts_it(tmp_path):
    """Issue 21: the box's game forged under a new game id (chain recomputed) was adopted by the next booking.
    Now the daemon resumes it as a stranger's game: nothing is booked (exit 10) until `companion accept`,
    which the daemon does on its own table (its control op "accept")."""
    from test_ledger_damage import attack, forge_under_a_new_game_id

    cfg = config(tmp_path)
    daemon = Daemon(cfg, out=lambda line: None).start()
    daemon.handle({"op": "start", "edition": "classic", "players": ["Anna", "Boris"], "seed": 1})
    for i in range(6):
        assert daemon.handle({"op": "do", "command": f"pay Anna Boris {i + 1}"})["ok"]
    daemon.stop()
    current = str(tmp_path / "games" / "current.sqlite")
    attack(current, [forge_under_a_new_game_id], recompute=True)
    lines = []
    daemon = Daemon(cfg, out=lines.append).start()
    try:
        table = daemon.owner.table
        assert table.stranger and table.readonly_reason.code == "stranger_replaced"
        refused = daemon.handle({"op": "do", "command": "pay Anna Boris 7"})
        assert not refused["ok"] and refused["exit"] == 10 and "Nothing was booked" in refused["message"]
        done = subprocess.run(
            [sys.executable, "-m", "companion", "do", "--db", current, "pay", "Anna", "Boris", "7"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 10 and "Nothing was booked" in done.stderr
        assert head(daemon) == 7
        accepted = subprocess.run(
            [sys.executable, "-m", "companion", "accept", "--db", current], capture_output=True, text=True, timeout=60
        )
        assert accepted.returncode == 0, accepted.stderr
        assert "accepted: this machine now keeps game f0f0f0f0" in accepted.stdout
        assert wait_for(lambda: any("Game f0f0f0f0 accepted as the box's own at #7" in line for line in lines))
        assert daemon.handle({"op": "do", "command": "pay Anna Boris 7"})["ok"] and head(daemon) == 8
        again = daemon.handle({"op": "accept"})
        assert again["ok"] and "already this machine's own" in again["message"]
    finally:
        daemon.stop()
    daemon = Daemon(cfg, out=lambda line: None).start()  # accepted for good: the next boot resumes it as its own
    try:
        assert not daemon.owner.table.stranger and head(daemon) == 8
    finally:
        daemon.stop()
