"""Restoring an archive: the manifest and every checksum checked and every ledger's chain verified in a folder
of its own before anything of the box is touched; then staged (a folder and a marker) for the daemon to apply
at its next start, or applied at once when no daemon holds the games folder.

Applying renames the marker first (as Home Assistant deletes its marker first, so a restore that fails never
runs again and cannot boot-loop the box): a power cut during the renames is finished at the next start, at
most once more. What the restore replaces is put aside in `before-restore-<n>/`, never deleted.
"""

import hashlib
import json
import os
import shutil
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import CompanionError, Message, SaidInput
from companion.files.wholefile import write_whole
from companion.ledger.anchor import anchor_path, place_path, write_place
from companion.table.service import verify_game
from companion.words import messages

from . import layout
from .manifest import MAX_FILE, read_manifest

MANIFEST_MAX = 4 * 1024 * 1024
CHUNK = 1 << 16
TRIES = 2  # an apply interrupted (a power cut) is finished at the next start; one that fails twice is dropped


@dataclass
class Staged:
    """A checked restore waiting in the games folder: its manifest and how many games it brings."""

    folder: Path
    manifest: dict[str, Any]

    @property
    def games(self) -> int:
        return len(self.manifest["ledgers"])


def check_and_stage(archive: Path, games_dir: Path, lang: str) -> Staged:
    """Everything checked in a folder of its own (SaidInput `backup_*` naming what is wrong; the box
    untouched), then moved into place as the staged restore with its marker."""
    archive, games_dir = Path(archive), Path(games_dir)
    shown = archive.name
    games_dir.mkdir(parents=True, exist_ok=True)
    work = games_dir / f".restore-checking-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    try:
        manifest = _unpack(archive, shown, work)
        _verify_ledgers(manifest, work, shown, lang)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    staged = games_dir / layout.STAGED
    marker = games_dir / layout.PENDING
    marker.unlink(missing_ok=True)  # a restore staged before is replaced by this one
    shutil.rmtree(staged, ignore_errors=True)
    os.replace(work, staged)
    _write_synced(marker, json.dumps({"archive": shown, "tries": 0}))
    give_to_owner(games_dir, [staged, marker])
    return Staged(staged, manifest)


def _unpack(archive: Path, shown: str, work: Path) -> dict[str, Any]:
    """The archive's files into `work`, each against the manifest's size and SHA-256; its manifest."""
    try:
        zf = zipfile.ZipFile(archive)
    except FileNotFoundError:
        raise SaidInput("backup_no_archive", path=str(archive)) from None
    except (zipfile.BadZipFile, OSError, ValueError):  # cut short, or not a zip at all
        raise SaidInput("backup_not_archive", path=shown) from None
    with zf:
        try:
            info = zf.getinfo(layout.MANIFEST)
        except KeyError:
            raise SaidInput("backup_no_manifest", path=shown) from None
        if info.file_size > MANIFEST_MAX:
            raise SaidInput("backup_manifest_unreadable", path=shown)
        manifest = read_manifest(_member(zf, info, shown), shown)
        files = manifest["files"]
        present = {i.filename: i for i in zf.infolist() if i.filename != layout.MANIFEST}
        for name in sorted(set(present) - set(files)):
            raise SaidInput("backup_file_unlisted", path=shown, file=name[:100])
        for name in sorted(set(files) - set(present)):
            raise SaidInput("backup_file_missing", path=shown, file=name)
        for name, entry in sorted(files.items()):
            if present[name].file_size != entry["size"] or entry["size"] > MAX_FILE:
                raise SaidInput("backup_file_damaged", path=shown, file=name)
            target = work / name
            target.parent.mkdir(parents=True, exist_ok=True)
            digest = _extract(zf, present[name], target, shown)
            if digest != entry["sha256"]:
                raise SaidInput("backup_file_damaged", path=shown, file=name)
    (work / layout.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    return manifest


def _member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, shown: str) -> bytes:
    try:
        return zf.read(info)
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError):
        raise SaidInput("backup_file_damaged", path=shown, file=info.filename) from None


def _extract(zf: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path, shown: str) -> str:
    digest = hashlib.sha256()
    try:
        with zf.open(info) as src, open(target, "wb") as dst:
            for block in iter(lambda: src.read(CHUNK), b""):
                digest.update(block)
                dst.write(block)
    except (zipfile.BadZipFile, zlib.error, EOFError):  # a CRC or a compressed stream that fails its check
        raise SaidInput("backup_file_damaged", path=shown, file=info.filename) from None
    os.chmod(target, 0o600)
    return digest.hexdigest()


def _verify_ledgers(manifest: dict[str, Any], work: Path, shown: str, lang: str) -> None:
    """Every ledger replayed from its first event against its chain and the archive's anchor (`verify_game`),
    and found to be the game and head the manifest names."""
    state = work / "state"
    for name, entry in manifest["ledgers"].items():
        if entry["anchored"]:
            anchor = work / (layout.ANCHORS + entry["game"] + ".anchor")
            if not anchor.is_file():
                raise SaidInput("backup_file_missing", path=shown, file=layout.ANCHORS + entry["game"] + ".anchor")
            target = anchor_path(state, entry["game"])
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(anchor, target)
        path = work / (layout.GAMES + name)
        try:
            table = verify_game(str(path), state_dir=state)
        except CompanionError as exc:
            why = " ".join(messages.render_error(exc, lang).split())
            raise SaidInput("backup_ledger_bad", path=shown, file=name, why=why) from None
        try:
            found = (table.meta["game_id"], table.head_seq, table.head_hash, table.stranger)
        finally:
            table.close()
        if found != (entry["game"], entry.get("events"), entry.get("head"), not entry["anchored"]):
            raise SaidInput("backup_ledger_bad", path=shown, file=name, why=entry["game"][:8])


# ----- applying a staged restore (the daemon at its start, or `companion restore` with no daemon) ---------------


def pending(games_dir: Path) -> bool:
    return (Path(games_dir) / layout.PENDING).exists() or (Path(games_dir) / layout.APPLYING).exists()


def apply_staged(games_dir: Path, state_dir: Path) -> list[Message]:
    """Apply the staged restore, if one waits: the lines to say ([]: none waited). Never raises for the
    restore's own sake: a restore that cannot be applied is said, dropped, and the box starts as it was."""
    games_dir, state_dir = Path(games_dir), Path(state_dir)
    marker, applying = games_dir / layout.PENDING, games_dir / layout.APPLYING
    try:
        if marker.exists():
            os.replace(marker, applying)  # the marker goes first: a failing restore never runs again
        if not applying.exists():
            return []
        try:
            record = json.loads(applying.read_text(encoding="utf-8"))
            tries = int(record.get("tries", 0)) + 1
        except (ValueError, AttributeError, TypeError):
            record, tries = {}, TRIES + 1
        if tries > TRIES:
            applying.unlink()
            return [Message("restore_dropped", path=str(record.get("archive", "?")))]
        _write_synced(applying, json.dumps({**record, "tries": tries}))
        aside = _apply(games_dir, state_dir, games_dir / layout.STAGED)
        applying.unlink()
        archive = str(record.get("archive", "?"))
        return [
            Message("restore_applied_aside", path=archive, folder=aside)
            if aside
            else Message("restore_applied", path=archive)
        ]
    except (OSError, ValueError, KeyError) as exc:
        applying.unlink(missing_ok=True)
        return [Message("restore_failed", detail=str(exc))]


def _apply(games_dir: Path, state_dir: Path, staged: Path) -> str:
    """Each entry of the games folder put aside and the staged one moved in (renames; again after a power
    cut, each step is done only if it is still to do); the anchors and places; the folder put aside."""
    manifest = json.loads((staged / layout.MANIFEST).read_text(encoding="utf-8"))
    aside = _aside_folder(games_dir, staged)
    new = staged / "games"
    brought = {name[len(layout.GAMES) :].split("/")[0] for name in manifest["files"] if name.startswith(layout.GAMES)}
    done = staged / ".done"  # one empty file per entry put in place: a finished step is never done again
    done.mkdir(exist_ok=True)
    for entry in layout.ENTRIES:
        if (done / entry).exists() or (entry in brought and not (new / entry).exists()):
            continue  # done before a power cut (the archive's entry is in place already)
        # the old game's -wal and -shm go with it: a -wal left beside another ledger would be read into it
        extras = [f"{entry}{s}" for s in ("-wal", "-shm", ".backup")] if entry == layout.CURRENT else []
        for name in [entry, *extras]:
            if (games_dir / name).exists():
                aside.mkdir(parents=True, exist_ok=True)
                os.replace(games_dir / name, aside / name)
        if (new / entry).exists():
            os.replace(new / entry, games_dir / entry)
        (done / entry).touch()
    anchors = staged / "state" / "anchors"
    for path in sorted(anchors.glob("*.anchor")) if anchors.is_dir() else ():
        target = anchor_path(state_dir, path.stem)
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.exists():
            (aside / "anchors").mkdir(parents=True, exist_ok=True)
            shutil.copyfile(target, aside / "anchors" / path.name)
        shutil.copyfile(path, str(target) + ".tmp")
        os.replace(str(target) + ".tmp", target)
        give_to_owner(state_dir, [target])
    for name, entry in manifest["ledgers"].items():
        if entry["anchored"]:  # this machine keeps this game here now (a stranger's game stays one)
            write_place(state_dir, str(games_dir / name), entry["game"], entry["first"])
            give_to_owner(state_dir, [place_path(state_dir, str(games_dir / name))])
    give_to_owner(games_dir, [aside])
    shutil.rmtree(staged, ignore_errors=True)
    return aside.name if aside.exists() else ""


def _aside_folder(games_dir: Path, staged: Path) -> Path:
    """before-restore-<n>: the same folder again when an interrupted apply is finished."""
    kept = staged / ".aside"
    if kept.exists():
        return games_dir / kept.read_text(encoding="utf-8").strip()
    n = 1
    while (games_dir / f"{layout.REPLACED}-{n}").exists():
        n += 1
    _write_synced(kept, f"{layout.REPLACED}-{n}")
    return games_dir / f"{layout.REPLACED}-{n}"


def give_to_owner(folder: Path, paths: list[Path]) -> None:
    """Run as root (`sudo companion restore`), hand what was written to the folder's owner (the box's user):
    a ledger left root's, mode 0600, could not be opened by the daemon. Nothing to do for anyone else."""
    if os.geteuid() != 0:
        return
    owner = Path(folder).stat()
    for path in paths:
        if not path.exists():
            continue
        for item in [path, *(path.rglob("*") if path.is_dir() else ())]:
            os.chown(item, owner.st_uid, owner.st_gid, follow_symlinks=False)


def _write_synced(path: Path, text: str) -> None:
    write_whole(path, text)
