"""Backups a family carries away (issue 25, docs/backup.md): a played game backed up and restored replays
identically; a damaged archive, one from a newer companion and one whose manifest lies are refused naming
what is wrong, with nothing changed; a backup taken while a game is being written holds ledgers that verify."""

import hashlib
import json
import os
import random
import sqlite3
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from companion.backup import layout
from companion.backup.archive import make_backup
from companion.backup.restore import check_and_stage
from companion.bots.autoplay import next_command
from companion.cli import main
from companion.engine.rulesets import RULES_VERSION
from companion.ledger.schema import VERSION as SCHEMA_VERSION
from companion.table.service import new_game, open_game, verify_game

ROOT = Path(__file__).parent.parent


@pytest.fixture
def box(tmp_path, monkeypatch):
    """A games folder with a finished game in its archive and a game in play, this machine's anchors beside."""
    state = tmp_path / "state"
    monkeypatch.setenv("COMPANION_STATE_DIR", str(state))
    games = tmp_path / "games"
    (games / "archive").mkdir(parents=True)
    config = tmp_path / "companion.toml"
    config.write_text(f'games_dir = "{games}"\n', encoding="utf-8")
    done = new_game(str(games / "archive" / "2026-01-01-elite.sqlite"), "elite", ["Anna", "Boris"], 7, state_dir=state)
    play(done, 7, 120)
    done.submit("end_game")
    done.close()
    table = new_game(str(games / "current.sqlite"), "classic", ["Ann", "Bob", "Vera"], 11, state_dir=state)
    play(table, 11, 60)
    table.close()
    (games / "cards.json").write_text('{"roles": {}}', encoding="utf-8")
    (games / "box.json").write_text('{"muted": true, "banker_pin": "2468"}', encoding="utf-8")
    return {"games": games, "state": state, "config": str(config), "tmp": tmp_path}


def play(table, seed, events):
    rng = random.Random(seed)
    while len(table.game.events) < events and table.state.phase != "over":
        line, _ = next_command(table.game, rng)
        table.submit(line or "end_game")


def history(path, state):
    """Every event as stored (seq, actor, command) and the head hash, replayed from the first event."""
    table = verify_game(str(path), state_dir=state)
    try:
        rows = table.ledger.rows(0, table.head_seq)
        return [(r.event.seq, r.actor, r.event.command) for r in rows], table.head_hash
    finally:
        table.close()


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def the_archive(box):
    return next((box["games"] / "backups").glob("companion-backup-*.zip"))


def listing(folder):
    """Every file under the folder with its bytes: what "nothing changed" compares."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_played_game_backed_up_and_restored_replays_identically(box, capsys):
    games, state = box["games"], box["state"]
    before = {name: history(games / name, state) for name in ("current.sqlite", "archive/2026-01-01-elite.sqlite")}
    code, said = run(capsys, "backup", "--config", box["config"])
    assert code == 0 and "Backup written:" in said and "(2 games)" in said
    archive = the_archive(box)
    with zipfile.ZipFile(archive) as zf:
        names = set(zf.namelist())
        manifest = json.loads(zf.read("manifest.json"))
    assert {
        "games/current.sqlite",
        "games/archive/2026-01-01-elite.sqlite",
        "games/cards.json",
        "games/box.json",
    } <= names
    assert "config/companion.toml" in names and manifest["rules_version"] == RULES_VERSION
    assert manifest["schema_version"] == SCHEMA_VERSION and manifest["pins"] == "kept"
    assert all(len(e["sha256"]) == 64 for e in manifest["files"].values())
    # the evening goes on after the backup: more events, the card map changed
    table = open_game(str(games / "current.sqlite"), state_dir=state)
    play(table, 12, 90)
    table.close()
    (games / "cards.json").write_text('{"roles": {"AA": 1}}', encoding="utf-8")
    assert history(games / "current.sqlite", state) != before["current.sqlite"]

    code, said = run(capsys, "restore", "--config", box["config"], str(archive))
    assert code == 0 and "is restored; what it replaced is kept in before-restore-1" in said
    for name, (events, head) in before.items():
        assert history(games / name, state) == (events, head)
    assert (games / "cards.json").read_text(encoding="utf-8") == '{"roles": {}}'
    assert (games / "before-restore-1" / "cards.json").read_text(encoding="utf-8") == '{"roles": {"AA": 1}}'
    restored = open_game(str(games / "current.sqlite"), state_dir=state)
    try:  # this machine's own game again, booked on where the backup left it
        assert not restored.stranger and restored.readonly_reason is None
        assert restored.head_seq == len(before["current.sqlite"][0])
        play(restored, 13, restored.head_seq + 1)
    finally:
        restored.close()
    assert not (games / layout.STAGED).exists() and not (games / layout.PENDING).exists()


def rewritten(archive, target, change):
    """A copy of the archive with its members changed by change(dict name -> bytes)."""
    with zipfile.ZipFile(archive) as zf:
        members = {name: zf.read(name) for name in zf.namelist()}
    change(members)
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, raw in members.items():
            zf.writestr(name, raw)
    return target


def flipped(archive, target):
    """One byte flipped in the middle of the current game's compressed bytes."""
    raw = bytearray(archive.read_bytes())
    with zipfile.ZipFile(archive) as zf:
        info = zf.getinfo("games/current.sqlite")
    header = raw[info.header_offset : info.header_offset + 30]
    start = info.header_offset + 30 + int.from_bytes(header[26:28], "little") + int.from_bytes(header[28:30], "little")
    raw[start + info.compress_size // 2] ^= 0x5A
    target.write_bytes(bytes(raw))
    return target


def truncated(archive, target):
    """The archive cut short, as a download broken off or a stick pulled out mid-copy leaves it."""
    target.write_bytes(archive.read_bytes()[:-300])
    return target


def manifest_changed(edit):
    def change(members):
        data = json.loads(members["manifest.json"])
        edit(data)
        members["manifest.json"] = json.dumps(data).encode()

    return change


def drop_entry(data):
    del data["files"]["games/cards.json"]


@pytest.mark.parametrize(
    "damage, words",
    [
        (flipped, "games/current.sqlite is damaged (its size or checksum differs from the manifest's)"),
        (truncated, "is not a companion backup, or it is cut short"),
        (lambda a, t: rewritten(a, t, manifest_changed(drop_entry)), "games/cards.json is not in its manifest"),
        (
            lambda a, t: rewritten(a, t, lambda m: m.pop("games/box.json")),
            "games/box.json, named in its manifest, is missing",
        ),
        (lambda a, t: rewritten(a, t, lambda m: m.pop("manifest.json")), "has no `manifest.json`"),
        (
            lambda a, t: rewritten(a, t, lambda m: m.update({"games/box.json": b'{"banker_pin": "0000"}'})),
            "games/box.json is damaged",
        ),
    ],
    ids=["flipped-byte", "truncated", "unlisted-file", "missing-file", "no-manifest", "changed-file"],
)
def test_a_damaged_archive_is_refused_naming_what_is_wrong_and_nothing_changes(box, capsys, damage, words):
    assert run(capsys, "backup", "--config", box["config"])[0] == 0
    bad = damage(the_archive(box), box["tmp"] / "bad.zip")
    kept = listing(box["games"])
    code, said = run(capsys, "restore", "--config", box["config"], str(bad))
    assert code == 4 and words in said and "nothing was changed" in said, said
    assert len(said.strip().splitlines()) == 1 and "Traceback" not in said
    assert listing(box["games"]) == kept  # nothing staged, nothing left of the check


@pytest.mark.parametrize(
    "edit, words",
    [
        (lambda d: d.update(companion="99.0.0"), "was made by companion 99.0.0, newer than this one"),
        (lambda d: d.update(rules_version=RULES_VERSION + 1), f"rules version {RULES_VERSION + 1}"),
        (lambda d: d.update(schema_version=SCHEMA_VERSION + 1), f"ledgers of format {SCHEMA_VERSION + 1}"),
    ],
    ids=["companion", "rules", "schema"],
)
def test_an_archive_from_a_newer_version_is_refused_in_one_line(box, capsys, edit, words):
    assert run(capsys, "backup", "--config", box["config"])[0] == 0
    newer = rewritten(the_archive(box), box["tmp"] / "newer.zip", manifest_changed(edit))
    kept = listing(box["games"])
    code, said = run(capsys, "restore", "--config", box["config"], str(newer))
    assert code == 4 and words in said and "update the box first" in said, said
    assert listing(box["games"]) == kept
    code, said = run(capsys, "--lang", "ru", "restore", "--config", box["config"], str(newer))
    assert code == 4 and "сначала обновите коробку" in said


def test_a_ledger_whose_chain_was_rewritten_is_refused_before_anything_is_touched(box, capsys, tmp_path):
    """The checksums agree (the manifest rewritten too), but the game's own chain does not: verify_game says so."""
    assert run(capsys, "backup", "--config", box["config"])[0] == 0

    def forge(members):
        path = tmp_path / "forged.sqlite"
        path.write_bytes(members["games/current.sqlite"])
        with sqlite3.connect(path) as db:  # an edit in a sqlite3 shell: the append-only triggers dropped first
            for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
                db.execute(f"DROP TRIGGER {name}")
            db.execute("UPDATE events SET body = body || ' ' WHERE seq = 2")
        members["games/current.sqlite"] = path.read_bytes()
        data = json.loads(members["manifest.json"])
        raw = members["games/current.sqlite"]
        data["files"]["games/current.sqlite"] = {"size": len(raw), "sha256": hashlib.sha256(raw).hexdigest()}
        members["manifest.json"] = json.dumps(data).encode()

    forged = rewritten(the_archive(box), tmp_path / "forged.zip", forge)
    kept = listing(box["games"])
    code, said = run(capsys, "restore", "--config", box["config"], str(forged))
    assert code == 4 and "the game current.sqlite does not verify" in said, said
    assert listing(box["games"]) == kept


def test_a_backup_taken_while_a_game_is_being_written_holds_ledgers_that_verify(box, tmp_path):
    """Another process books event after event (fsync each) while three backups are taken: every archive's
    ledgers replay against their chain and anchor, and each holds what was committed when it was copied."""
    games, state = box["games"], box["state"]
    writer = subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "crash_child.py"), str(games / "current.sqlite"), "5"],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "COMPANION_STATE_DIR": str(state)},
    )
    try:
        assert writer.stdout is not None and writer.stdout.readline().startswith("ready")
        for _ in range(5):  # the writer is under way
            writer.stdout.readline()
        heads = []
        for n in range(3):
            made = make_backup(games, state, tmp_path / "out")
            assert made.left_out == {}
            heads.append(made.manifest["ledgers"]["current.sqlite"]["events"])
            staged = check_and_stage(made.path, tmp_path / f"check-{n}", "en")  # every chain replayed
            assert staged.games == 2
            writer.stdout.readline()
    finally:
        writer.kill()
        writer.wait()
    assert heads[0] > 60 and heads == sorted(heads)


def test_a_backup_without_pins_carries_no_pin(box):
    phones = box["games"] / "phones"
    phones.mkdir()
    (phones / "abc123.json").write_text(json.dumps({"code": "1234", "pins": {"1": "4711"}, "roles": {}}))
    made = make_backup(box["games"], box["state"], box["tmp"] / "out", pins=False)
    with zipfile.ZipFile(made.path) as zf:
        assert json.loads(zf.read("games/box.json"))["banker_pin"] == ""
        assert json.loads(zf.read("games/phones/abc123.json"))["pins"] == {}
        assert json.loads(zf.read("manifest.json"))["pins"] == "removed"
        assert b"4711" not in b"".join(zf.read(n) for n in zf.namelist() if not n.endswith(".sqlite"))


def test_an_archive_restores_refused_for_a_missing_file_and_says_so_in_russian(box, capsys):
    code, said = run(capsys, "--lang", "ru", "restore", "--config", box["config"], str(box["tmp"] / "nowhere.zip"))
    assert code == 4 and "такого файла нет" in said


def test_a_copy_onto_the_usb_stick_and_a_stick_that_refuses_writes(box, tmp_path, monkeypatch):
    import errno
    import shutil

    from companion.backup import keeper

    made = make_backup(box["games"], box["state"], tmp_path / "out")
    stick = tmp_path / "stick"
    stick.mkdir()
    assert keeper.copy_to_usb(made.path, stick, 3).code == "backup_usb_missing"  # a folder, not a mounted stick
    monkeypatch.setattr(keeper.os.path, "ismount", lambda path: Path(path) == stick)
    line = keeper.copy_to_usb(made.path, stick, 3)
    assert line.code == "backup_usb_copied"
    assert (stick / keeper.USB_FOLDER / made.path.name).read_bytes() == made.path.read_bytes()

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(shutil, "copyfile", read_only)
    line = keeper.copy_to_usb(made.path, stick, 3)
    assert line.code == "backup_usb_read_only"
    from companion.words import messages

    text = messages.render(line.code, line.params, "en")
    assert text.startswith(f"The USB stick at {stick} cannot be written") and "stays on the box only" in text
    assert not list((stick / keeper.USB_FOLDER).glob(".*.tmp"))


@pytest.mark.skipif(os.geteuid() != 0, reason="only root hands files to another user")
def test_a_restore_run_with_sudo_leaves_the_files_to_the_boxs_user(box, capsys):
    """`sudo companion restore` on the Pi: a ledger left root's (mode 0600) could not be opened by the daemon."""
    games, state = box["games"], box["state"]
    assert run(capsys, "backup", "--config", box["config"])[0] == 0
    os.chown(games, 4321, 4321)
    os.chown(state, 4321, 4321)
    code, said = run(capsys, "restore", "--config", box["config"], str(the_archive(box)))
    assert code == 0, said
    game = json.loads(zipfile.ZipFile(the_archive(box)).read("manifest.json"))["ledgers"]["current.sqlite"]["game"]
    for path in (
        games / "current.sqlite",
        games / "archive",
        games / "cards.json",
        state / "anchors" / f"{game}.anchor",
    ):
        assert path.stat().st_uid == 4321, path
