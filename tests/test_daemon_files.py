"""The files under a running daemon (issue 21): the ledger or its anchor deleted, moved or replaced stops the
booking with the reason on every screen and loses no acknowledged booking; the table's warnings reach the
OLED, the banker's phone and the journal, each once; a read-only card shows the game and says why nothing
can be booked."""

import json
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from files.sandbox import mount_namespace_problem, unshare_command
from test_phone_views import Phone, config, text_of

import companion.table.submit as table_module
from companion.daemon.main import Daemon, wait_for
from companion.errors import LedgerError
from companion.ledger.anchor import anchor_path, default_state_dir
from companion.table.service import new_game, open_game
from web.phone import create_phone_app

CHANGES = [
    ("ledger", "delete"),
    ("ledger", "move"),
    ("ledger", "replace"),
    ("anchor", "delete"),
    ("anchor", "move"),
    ("anchor", "replace"),
    ("both", "delete"),
]
SAID = {  # what each change makes the box say (the English words of its message)
    ("ledger", "delete"): "was deleted while the box was running; the box wrote its game",
    ("ledger", "move"): "was moved away or renamed while the box was running",
    ("ledger", "replace"): "was replaced by another file while the box was running",
    ("anchor", "delete"): "was deleted or moved while the box was running; the box wrote it back",
    ("anchor", "move"): "was deleted or moved while the box was running; the box wrote it back",
    ("anchor", "replace"): "was replaced by another file while the box was running",
    ("both", "delete"): "was deleted while the box was running; the box wrote its game",  # the anchor too
}


def start(tmp_path, lines=None, **extra) -> Daemon:
    daemon = Daemon(config(tmp_path, **extra), out=(lines.append if lines is not None else lambda line: None))
    daemon.start()
    daemon.app = create_phone_app(daemon.phone, SSE_POLL=0.05, SSE_KEEPALIVE=0.2, SSE_RETRY_MS=100)
    return daemon


def pay(daemon, n: int) -> dict:
    return daemon.handle({"op": "do", "command": f"pay Anna Boris {n}", "request_id": f"pay-{n}"})


def booked_ids(path) -> set[str]:
    """The request ids stored in a ledger file (read as it stands on disk, checked against the anchor)."""
    table = open_game(str(path), readonly=True)
    try:
        return {row.request_id for row in table.stored_events()}
    finally:
        table.close()


def record_oled(daemon) -> list:
    """Every frame the daemon's OLED draws from now on."""
    frames = []
    screen = daemon.panel.screen
    show = screen.show

    def recording(frame):
        frames.append(frame)
        return show(frame)

    screen.show = recording
    return frames


def oled_text(frames) -> str:
    return " ".join(" ".join(f.lines) for f in list(frames))


def change(daemon, what: str, how: str, tmp_path: Path) -> Path:
    """Delete, move or replace the running game's ledger file or its anchor; the path it was moved to."""
    table = daemon.owner.table
    if what == "both":  # the ledger (with its -wal and -shm) and the anchor: nothing of the game left on disk
        for name in (
            table.ledger.path,
            table.ledger.path + "-wal",
            table.ledger.path + "-shm",
            table.ledger.anchor_file.path,
        ):
            Path(name).unlink()
        return tmp_path
    target = Path(table.ledger.path) if what == "ledger" else Path(table.ledger.anchor_file.path)
    aside = tmp_path / f"aside-{target.name}"
    if how == "delete":
        target.unlink()
    elif how == "move":
        os.rename(target, aside)
    elif what == "ledger":  # an exact copy put in its place (a backup tool restoring, a sync)
        src, dest = sqlite3.connect(target), sqlite3.connect(aside)
        src.backup(dest)
        src.close()
        dest.close()
        os.replace(aside, target)
    else:
        shutil.copyfile(target, aside)
        os.replace(aside, target)
    return aside


@pytest.mark.parametrize("what,how", CHANGES)
def test_a_ledger_or_anchor_changed_under_the_daemon_stops_booking_and_loses_nothing(tmp_path, what, how, caplog):
    caplog.set_level(logging.WARNING)
    daemon = start(tmp_path)
    try:
        assert daemon.handle({"op": "start", "edition": "classic", "players": ["Anna", "Boris"], "seed": 1})["ok"]
        oled = record_oled(daemon)
        acknowledged = {f"pay-{n}" for n in range(1, 4) if pay(daemon, n)["ok"]}
        assert len(acknowledged) == 3
        path = Path(daemon.owner.table.ledger.path)
        aside = change(daemon, what, how, tmp_path)
        # noticed by the idle look (a quarter second), never by a write first
        assert wait_for(lambda: daemon.owner.table.readonly_reason is not None, 30)
        reason = daemon.owner.table.readonly_reason
        assert SAID[(what, how)] in reason
        refused = [pay(daemon, n) for n in range(4, 8)]
        assert all(not answer["ok"] and answer["exit"] == 5 for answer in refused), refused
        assert all(
            answer["message"].startswith("Nothing was booked: ") and reason in answer["message"] for answer in refused
        )
        assert daemon.owner.table.head_seq == 4
        # every screen: the OLED, the journal, every phone
        assert wait_for(lambda: "Nothing can be booked" in oled_text(oled), 30)
        assert wait_for(lambda: any("Nothing can be booked" in r.getMessage() for r in caplog.records), 30)
        spectator = Phone(daemon).join()
        assert "Nothing can be booked" in text_of(spectator.open("/phone/table"))
        # the reader's ROLL too: refused in words on the box's screen (not "the bank is halted")
        assert wait_for(lambda: daemon.link.state.state == "ready", 30)
        daemon.sim.press_roll()
        assert wait_for(lambda: "Nothing was booked" in oled_text(oled), 30)
        assert "halted" not in oled_text(oled)
        assert daemon.owner.table.head_seq == 4
        saved = reason.params.get("saved")
    finally:
        daemon.stop()
    if what == "ledger" and how == "move":
        assert booked_ids(aside) >= acknowledged  # the moved file is whole where it went ...
        os.rename(aside, path)  # ... and put back as the message says
    if what == "ledger" and how == "replace":
        assert booked_ids(saved) >= acknowledged  # the box's own game, saved beside the newcomer
    again = start(tmp_path)
    try:
        table = again.owner.table
        assert table is not None and table.readonly_reason is None
        assert {row.request_id for row in table.stored_events()} >= acknowledged
        assert table.head_seq == 4  # nothing after the change was booked
        assert pay(again, 9)["ok"]  # the restarted box books again
    finally:
        again.stop()


@pytest.mark.parametrize("how", ["delete", "replace"])
def test_a_write_looks_at_the_file_before_its_commit(tmp_path, how):
    """The look inside the write itself (no idle look in between): the booking is refused and rolled back,
    and what the file on disk holds afterwards is exactly what was acknowledged."""
    path = tmp_path / "game.sqlite"
    table = new_game(str(path), "classic", ["Anna", "Boris"], 1)
    first = "new-" + table.meta["game_id"]
    acknowledged = {table.submit("pay Anna Boris 5", request_id="r1").seq}
    if how == "delete":
        path.unlink()
    else:
        copy = tmp_path / "copy.sqlite"
        src, dest = sqlite3.connect(path), sqlite3.connect(copy)
        src.backup(dest)
        src.close()
        dest.close()
        os.replace(copy, path)
    with pytest.raises(LedgerError) as refused:
        table.submit("pay Anna Boris 6", request_id="r2")
    assert refused.value.code == "table_read_only"
    assert str(refused.value).startswith("Nothing was booked: ")
    with pytest.raises(LedgerError):  # and every later one
        table.submit("pay Anna Boris 7", request_id="r3")
    table.close()
    assert booked_ids(path) == {first, "r1"}
    assert acknowledged == {2}


def test_an_anchor_gone_while_the_box_was_off_is_said_on_every_screen(tmp_path, caplog):
    """The start's decision for the box's game whose anchor is gone (docs/reliability.md): never re-anchored
    in silence; shown read-only (a stranger's game until `companion accept`), the reason on the OLED, every
    phone, the journal and in the refusal of a booking."""
    caplog.set_level(logging.WARNING)
    daemon = start(tmp_path)
    assert daemon.handle({"op": "start", "edition": "classic", "players": ["Anna", "Boris"], "seed": 1})["ok"]
    assert pay(daemon, 1)["ok"]
    game_id = daemon.owner.table.meta["game_id"]
    daemon.stop()
    anchor = anchor_path(default_state_dir(), game_id)
    anchor.unlink()
    daemon = start(tmp_path)
    try:
        oled = record_oled(daemon)
        words = "its anchor for it is gone"
        assert wait_for(lambda: any(words in r.getMessage() for r in caplog.records), 30)
        assert sum(words in r.getMessage() for r in caplog.records) == 1  # once
        for phone in (Phone(daemon).banker(), Phone(daemon).join()):
            assert words in text_of(phone.open("/phone/table"))
        refused = pay(daemon, 2)
        assert not refused["ok"] and words in refused["message"]
        daemon.panel.poke()
        assert wait_for(lambda: words in oled_text(oled) or words in daemon_said(daemon), 30)
        assert not anchor.exists()  # not made again behind the family's back
    finally:
        daemon.stop()


def daemon_said(daemon) -> str:
    frame = daemon.panel.frame
    return " ".join(frame.lines).lower() if frame is not None else ""


def test_a_failed_backup_is_said_once_on_every_screen_in_its_language(tmp_path, caplog, monkeypatch):
    caplog.set_level(logging.WARNING)
    monkeypatch.setattr(table_module, "BACKUP_EVERY", 2)
    daemon = start(tmp_path, language="ru")
    try:
        assert daemon.handle({"op": "start", "edition": "classic", "players": ["Anna", "Boris"], "seed": 1})["ok"]
        oled = record_oled(daemon)
        path = daemon.owner.table.ledger.path
        os.mkdir(path + ".backup.tmp")  # the backup's own file cannot be made: every backup fails
        for n in range(1, 6):  # backups due at #2 and #4 and #6: the same failure, said once
            assert pay(daemon, n)["ok"]
        words = "Резервную копию рядом с журналом сделать не удалось"
        assert wait_for(lambda: any(words in r.getMessage() for r in caplog.records), 30)
        assert wait_for(lambda: words in oled_text(oled), 30)
        banker = Phone(daemon, language="ru").banker()
        page = text_of(banker.open("/phone/table"))
        assert page.count(words) == 1
        english = Phone(daemon).banker()
        assert "the backup beside the ledger failed" in text_of(english.open("/phone/table"))
        assert words not in text_of(Phone(daemon, language="ru").join().open("/phone/table"))
        assert pay(daemon, 6)["ok"] and wait_for(lambda: len(daemon.owner.table.warnings) == 1)
        daemon.owner.call(lambda: None)
        assert sum(words in r.getMessage() for r in caplog.records) == 1
    finally:
        daemon.stop()


# ----- a read-only card ---------------------------------------------------------------------------------

CHILD = r"""
import json, os, subprocess, sys
from pathlib import Path
sys.path.insert(0, sys.argv[2])
from companion.daemon.config import Config, defaults
from companion.daemon.main import Daemon, wait_for
spec = json.loads(sys.argv[1])
place = Path(spec["place"])
for cmd in (["mount", "--bind", str(place), str(place)], ["mount", "-o", "remount,ro,bind", str(place)],
            ["mount", "-t", "tmpfs", "tmpfs", str(place / "games" / "sim")]):
    subprocess.run(cmd, check=True)
values = dict(defaults().values)
values.update({"games_dir": str(place / "games"), "virtual_table.port": 0, "phone.port": 0,
               "phone.banker_pin": "2468", "control.socket": spec["socket"], "language": spec["lang"]})
out = {}
daemon = Daemon(Config(values, "(test)"), out=lambda line: None).start()
try:
    table = daemon.owner.table
    out["seq"] = table.head_seq
    out["reason"] = table.readonly_reason.code
    out["do"] = daemon.handle({"op": "do", "command": "pay Anna Boris 5", "request_id": "ro-1"})
    out["state"] = daemon.handle({"op": "state"})["ok"]
    out["banner"] = daemon.phone.banner(spec["lang"], "spectator")["readonly"]
    daemon.panel.poke()
    out["oled"] = wait_for(lambda: daemon.panel.frame is not None and spec["oled"] in " ".join(daemon.panel.frame.lines), 30)
    out["seq_after"] = daemon.owner.table.head_seq
finally:
    daemon.stop()
print(json.dumps(out))
"""


@pytest.mark.parametrize("lang,oled", [("en", "Nothing can be booked"), ("ru", "Записать ничего нельзя")])
def test_a_read_only_card_shows_the_game_and_says_why_nothing_can_be_booked(tmp_path, monkeypatch, lang, oled):
    problem = mount_namespace_problem()
    if problem:
        pytest.skip(f"cannot mount in a private namespace here: {problem}")
    place = tmp_path / "card"
    state = place / "state"
    monkeypatch.setenv("COMPANION_STATE_DIR", str(state))
    daemon = start(place)  # games in place/games, anchors in place/state: the whole card
    assert daemon.handle({"op": "start", "edition": "classic", "players": ["Anna", "Boris"], "seed": 1})["ok"]
    assert pay(daemon, 1)["ok"]
    daemon.stop()
    (place / "games" / "sim").mkdir(exist_ok=True)
    spec = {"place": str(place), "socket": str(tmp_path / "box.sock"), "lang": lang, "oled": oled}
    env = dict(os.environ, COMPANION_STATE_DIR=str(state))
    done = subprocess.run(
        unshare_command() + [sys.executable, "-c", CHILD, json.dumps(spec), str(Path(__file__).parent.parent)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["seq"] == 2 and out["seq_after"] == 2
    assert out["reason"] == "table_card_read_only"
    assert not out["do"]["ok"] and out["do"]["exit"] == 5
    assert out["do"]["message"].startswith("Ничего не записано" if lang == "ru" else "Nothing was booked")
    assert out["state"] is True
    assert oled in out["banner"]
    assert out["oled"] is True


@pytest.mark.parametrize("lang,said", [("en", "Nothing can be booked: "), ("ru", "Записать ничего нельзя: ")])
def test_the_status_says_nothing_can_be_booked_when_the_anchor_went_under_the_daemon(tmp_path, lang, said):
    """Found by attacking the running box: with the anchor deleted every booking was refused, but
    `companion game status` (the control socket's status) said only the ledger and the reader."""
    daemon = start(tmp_path)
    try:
        assert daemon.handle({"op": "start", "edition": "classic", "players": ["Anna", "Boris"], "seed": 1})["ok"]
        assert daemon.handle({"op": "status"})["stopped"] is None
        change(daemon, "anchor", "delete", tmp_path)
        assert wait_for(lambda: daemon.owner.table.readonly_reason is not None, 30)
        status = daemon.handle({"op": "status", "lang": lang})
        assert status["ok"] and status["stopped"].startswith(said), status
        assert ("was deleted or moved" in status["stopped"]) == (lang == "en")  # the reason too in the asker's language
        conf = tmp_path / "companion.toml"
        conf.write_text(
            f'games_dir = "{tmp_path / "games"}"\n[virtual_table]\nport = 0\n[phone]\nport = 0\n', encoding="utf-8"
        )
        shown = subprocess.run(
            [sys.executable, "-m", "companion", "game", "status", "--lang", lang, "--config", str(conf)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert shown.returncode == 0 and said in shown.stdout, shown
    finally:
        daemon.stop()
