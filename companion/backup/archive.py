"""Writing one backup archive: every ledger copied through SQLite's backup API (consistent while the daemon
writes), its anchor made for the copy, the box's small files, the config and the manifest, zipped aside and
renamed into place; the box's archives numbered by a counter and kept to a bound.

Why zip, not tar.gz: a family opens a zip with a tap on any phone or computer (OctoPrint's backups are zips
too); each file carries its own CRC, so damage is pinned to the file it is in, not to "the stream"; the
manifest is read first without unpacking the rest; and Python's zipfile is in the standard library.
"""

import hashlib
import json
import os
import re
import shutil
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.errors import CompanionError, LedgerDamaged
from companion.ledger import chain
from companion.ledger.anchor import Anchor, anchor_path, read_anchor, write_anchor
from companion.table.service import open_game

from . import layout
from .manifest import new_manifest, sha256_of, text_of

PREFIX = "companion-backup-"
_NUMBERED = re.compile(r"companion-backup-(\d{1,9})-.*\.zip")
COUNTER = ".counter"
STAMP = (1980, 1, 1, 0, 0, 0)  # every member's date: the archive never depends on the clock


@dataclass
class Made:
    """A written archive: its path, its number and manifest, and what was left out (name -> error code)."""

    path: Path
    counter: int
    manifest: dict[str, Any]
    left_out: dict[str, str] = field(default_factory=dict)


def numbered(folder: Path) -> list[tuple[int, Path]]:
    """The box's archives in `folder`, oldest first (by their counter, never by a date)."""
    found = []
    for path in folder.glob(PREFIX + "*.zip") if folder.is_dir() else ():
        match = _NUMBERED.fullmatch(path.name)
        if match:
            found.append((int(match.group(1)), path))
    return sorted(found)


def next_counter(folder: Path) -> int:
    try:
        kept = int((folder / COUNTER).read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        kept = 0
    return max([kept] + [n for n, _ in numbered(folder)]) + 1


def prune(folder: Path, keep: int) -> list[Path]:
    """Remove the oldest archives beyond `keep` (by counter); the removed paths."""
    found = numbered(folder)
    gone = [path for _, path in found[: max(0, len(found) - keep)]]
    for path in gone:
        path.unlink(missing_ok=True)
    return gone


def make_backup(
    games_dir: Path,
    state_dir: Path,
    target: Path,
    config_path: str | None = None,
    pins: bool = True,
) -> Made:
    """Write one archive of the box into `target` (a folder); OSError when it cannot be written (nothing
    half-written is left). pins=False: the banker's and the seats' PINs are not in it (a phone's download)."""
    games_dir, target = Path(games_dir), Path(target)
    target.mkdir(parents=True, exist_ok=True)
    counter = next_counter(target)
    work = target / f".making-{counter}-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    manifest = new_manifest(counter, time.strftime("%Y-%m-%dT%H:%M"), pins)
    members: list[tuple[str, Path | bytes]] = []
    game = ""
    try:
        for name in layout.ledgers_in(games_dir):
            copy = work / "games" / name
            try:
                manifest["ledgers"][name] = _copy_ledger(games_dir / name, copy, state_dir, work / "state")
            except CompanionError as exc:  # a damaged ledger is said, and the rest is still kept
                manifest["left_out"][name] = str(getattr(exc, "code", None) or type(exc).__name__)
                continue
            members.append((layout.GAMES + name, copy))
            entry = manifest["ledgers"][name]
            if entry["anchored"]:
                members.append((layout.ANCHORS + entry["game"] + ".anchor", anchor_path(work / "state", entry["game"])))
            if name == layout.CURRENT:
                game = entry["game"]
        for name in layout.small_files_in(games_dir):
            try:
                raw = (games_dir / name).read_bytes()
            except FileNotFoundError:  # removed while we looked (a walk left): it is not part of the box now
                continue
            members.append((layout.GAMES + name, raw if pins else _without_pins(name, raw)))
        if config_path and Path(config_path).is_file():
            members.append((layout.CONFIG, Path(config_path).read_bytes()))
        for name, content in members:
            size = content.stat().st_size if isinstance(content, Path) else len(content)
            digest = sha256_of(content) if isinstance(content, Path) else _sha(content)
            manifest["files"][name] = {"size": size, "sha256": digest}
        final = target / f"{PREFIX}{counter:04d}-{game[:8] or 'box'}-{manifest['clock'].replace(':', '')}.zip"
        _write_zip(work / "archive.zip", manifest, members)
        os.replace(work / "archive.zip", final)
        _sync_folder(target)
        try:
            (target / COUNTER).write_text(str(counter), encoding="ascii")
        except OSError:
            pass  # the names still carry the counter
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return Made(final, counter, manifest, dict(manifest["left_out"]))


def _copy_ledger(source: Path, copy: Path, state_dir: Path, copy_state: Path) -> dict[str, Any]:
    """The ledger copied with SQLite's backup API (one read transaction: a consistent copy while the daemon
    writes), checked against this machine's anchor, and given an anchor of its own at the copy's head."""
    copy.parent.mkdir(parents=True, exist_ok=True)
    live = open_game(str(source), readonly=True, state_dir=state_dir)
    try:
        gid = live.meta["game_id"]
        anchored = not live.stranger  # a stranger's game stays a stranger's: no anchor is made for it
        before = read_anchor(anchor_path(state_dir, gid)) if anchored else None
        live.ledger.backup(str(copy))
    finally:
        live.close()
    table = open_game(str(copy), readonly=True, state_dir=copy_state)
    try:
        n, head = table.head_seq, table.head_hash
        prev = table.ledger.hash_at(n - 1) if n > 1 else chain.genesis(table.meta)
        first = table.ledger.hash_at(1) or ""
        if before is not None and not _holds(table, before, n, head):
            raise LedgerDamaged(
                "backup_copy_behind", path=str(source)
            )  # never: the copy was taken after the anchor was read
    finally:
        table.close()
    if anchored:
        write_anchor(anchor_path(copy_state, gid), Anchor(n, head, prev or "", done=True))
    return {"game": gid, "events": n, "head": head, "first": first, "anchored": anchored}


def _holds(table: Any, anchor: Anchor, n: int, head: str) -> bool:
    """The copy holds the event the box's anchor named (or, while that was an intent, the one before it)."""
    if anchor.seq <= n:
        return table.ledger.hash_at(anchor.seq) == anchor.head
    return anchor.seq == n + 1 and not anchor.done and anchor.prev == head


def _without_pins(name: str, raw: bytes) -> bytes:
    """box.json without the banker's PIN, a game's phone file without the seats' PINs (what a phone downloads)."""
    top = name.split("/")[0]
    if name != layout.BOX_FILE and top != layout.PHONES:
        return raw
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return b"{}"  # a damaged file the box itself would not read: nothing of it is carried
    if isinstance(data, dict):
        if name == layout.BOX_FILE:
            data["banker_pin"] = ""
        else:
            data["pins"] = {}
    return json.dumps(data, ensure_ascii=False, sort_keys=True).encode("utf-8")


def _sha(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def _write_zip(path: Path, manifest: dict[str, Any], members: list[tuple[str, Path | bytes]]) -> None:
    """The manifest first (read before anything else), then each member; synced before it is renamed."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, content in [(layout.MANIFEST, text_of(manifest).encode("utf-8")), *members]:
            info = zipfile.ZipInfo(name, date_time=STAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o600 << 16  # the box's files hold PINs and the card map: the owner's only
            if isinstance(content, Path):
                with open(content, "rb") as src, zf.open(info, "w", force_zip64=True) as dst:
                    shutil.copyfileobj(src, dst, 1 << 16)
            else:
                zf.writestr(info, content)
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
