"""Backups on the box (issue 25, docs/backup.md): one is made at each game's end and the oldest go beyond
backup.keep; a USB stick that is not there is one line; a restore staged while the daemon holds the game is
put in place at its next start (and a broken one is dropped, never a boot loop); the phone's download is the
banker's alone, without the PINs."""

import io
import json
import zipfile

import pytest
from test_phone_views import ANNA, BANKER_PIN, Phone, start_box

from companion.backup import layout
from companion.cli import main
from companion.daemon.main import Daemon, wait_for
from companion.table.service import verify_game

__all__ = ["start_box"]


@pytest.fixture
def state(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "state"))
    return tmp_path / "state"


def end_and_keep(daemon):
    assert daemon.handle({"op": "end"})["ok"]
    assert daemon.handle({"op": "archive"})["ok"]
    assert daemon.life.wait_for_backup(120)


def backups(daemon):
    return sorted(p.name for p in (daemon.config.games_dir / layout.BACKUPS).glob("companion-backup-*.zip"))


def test_a_backup_is_made_at_each_games_end_and_only_backup_keep_are_kept(tmp_path, state):
    lines = []
    box = start_box(tmp_path, **{"backup.keep": 2, "backup.usb": str(tmp_path / "no-stick")})
    box.out = lines.append  # what the box says, as the journal gets it
    try:
        for n in range(3):
            end_and_keep(box)
            if n < 2:
                assert box.handle({"op": "start", "edition": "classic", "players": ["Ann", "Bob"], "seed": n})["ok"]
        kept = backups(box)
        assert [name[len("companion-backup-") :][:4] for name in kept] == ["0002", "0003"]  # the first is gone
        with zipfile.ZipFile(box.config.games_dir / layout.BACKUPS / kept[-1]) as zf:
            manifest = json.loads(zf.read("manifest.json"))
        assert len(manifest["ledgers"]) == 3 and manifest["pins"] == "kept"
        assert wait_for(lambda: sum("Backup made: companion-backup-" in line for line in lines) == 3)
        # the stick is not there: one line each time, and the game still ended and was kept
        assert wait_for(lambda: sum(f"No USB stick at {tmp_path / 'no-stick'}" in line for line in lines) == 3)
    finally:
        box.stop()


def test_a_restore_staged_while_the_daemon_runs_is_applied_at_its_next_start(tmp_path, state, capsys):
    box = start_box(tmp_path)
    games = box.config.games_dir
    try:
        first = box.owner.table.meta["game_id"]
        end_and_keep(box)
        archive = games / layout.BACKUPS / backups(box)[-1]
        assert box.handle({"op": "start", "edition": "classic", "players": ["Ann", "Bob"], "seed": 5})["ok"]
        second = box.owner.table.meta["game_id"]
        config = tmp_path / "companion.toml"
        config.write_text(f'games_dir = "{games}"\n', encoding="utf-8")
        assert main(["restore", "--config", str(config), str(archive)]) == 0
        assert "it is put in place when the box's daemon next starts" in capsys.readouterr().out
        assert box.owner.table.meta["game_id"] == second  # nothing changed under the running daemon
        assert (games / layout.PENDING).exists()
    finally:
        box.stop()
    lines = []
    again = Daemon(box.config, out=lines.append).start()
    try:
        assert again.owner.table is None  # the backup was taken with no game on the box, only the archive
        assert not (games / layout.PENDING).exists() and not (games / layout.STAGED).exists()
        kept = sorted((games / "archive").glob("*.sqlite"))
        assert len(kept) == 1 and verify_game(str(kept[0])).meta["game_id"] == first
        assert (games / "before-restore-1" / "current.sqlite").exists()  # the game it replaced, put aside
        assert wait_for(lambda: any("is restored" in line for line in lines))
    finally:
        again.stop()


def test_a_staged_restore_that_cannot_be_applied_is_said_and_dropped_never_a_boot_loop(tmp_path, state):
    box = start_box(tmp_path)
    box.stop()
    games = box.config.games_dir
    (games / layout.PENDING).write_text('{"archive": "x.zip", "tries": 0}', encoding="utf-8")
    (games / layout.STAGED).mkdir()  # no manifest: the apply fails
    lines = []
    again = Daemon(box.config, out=lines.append).start()
    try:
        assert again.owner.table is not None  # the box started with its own game
        assert wait_for(lambda: any("The restore could not be put in place" in line for line in lines))
        assert not (games / layout.PENDING).exists() and not (games / layout.APPLYING).exists()
    finally:
        again.stop()


def test_the_phone_download_is_the_bankers_alone_and_carries_no_pin(tmp_path, state):
    box = start_box(tmp_path)
    try:
        visitor, spectator, anna = Phone(box), Phone(box).join(), Phone(box).join().pair(ANNA)
        for phone in (spectator, anna):
            refused = phone.open("/phone/backup")
            assert refused.status_code == 403 and refused.json == {"error": "refused: this needs the banker's phone"}
        assert visitor.open("/phone/backup").status_code == 403
        banker = Phone(box).banker()
        assert banker.post("/phone/seat-pin", seat="2", pin="4711").status_code == 200
        assert b'id="backup-download"' in banker.open("/phone/game").data
        assert b'id="backup-download"' not in spectator.open("/phone/game").data
        got = banker.open("/phone/backup")
        assert got.status_code == 200 and got.mimetype == "application/zip"
        assert "companion-backup-" in got.headers["Content-Disposition"]
        with zipfile.ZipFile(io.BytesIO(got.data)) as zf:
            manifest = json.loads(zf.read("manifest.json"))
            assert manifest["pins"] == "removed" and "games/current.sqlite" in manifest["files"]
            phones = [n for n in zf.namelist() if n.startswith("games/phones/")]
            assert phones and all(json.loads(zf.read(n))["pins"] == {} for n in phones)
            assert BANKER_PIN.encode() not in zf.read("games/box.json") if "games/box.json" in zf.namelist() else True
        assert not list(box.config.games_dir.glob(".download-*"))  # nothing of it left on the box
    finally:
        box.stop()
