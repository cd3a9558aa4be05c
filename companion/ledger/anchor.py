"""The chain's head kept outside the ledger file: (sequence, head, previous head), synced.

The writer records the event it is about to commit *before* COMMIT, inside
the ledger's write lock (synced: an "intent"), and marks it done after COMMIT
returns (not synced: losing that mark only costs the fork check for one
event). So the ledger holds either exactly the anchored event, or the one
before it while the anchored one is still an intent (a write in flight or one
that failed). Anything else means the ledger went back (events deleted, the
-wal lost, an older copy), gained events this companion never wrote, or was
rewritten with a recomputed chain. The file has two fixed-size
slots written alternately (by sequence parity), each with a CRC, so a torn
write leaves the other slot readable. Beside the anchors, a place record per
ledger file names the game this machine keeps there (Place).
"""

import hashlib
import json
import os
import zlib
from dataclasses import dataclass
from pathlib import Path

SLOT = 256
MAGIC = "companion-anchor/1"


@dataclass(frozen=True)
class Anchor:
    seq: int
    head: str
    prev: str
    done: bool = False  # False: an intent written before COMMIT; True: COMMIT returned


def default_state_dir() -> Path:
    """Where this machine keeps anchors: $COMPANION_STATE_DIR, else $XDG_STATE_HOME/companion."""
    if os.environ.get("COMPANION_STATE_DIR"):
        return Path(os.environ["COMPANION_STATE_DIR"])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "companion"


def anchor_path(state_dir: Path, game_id: str) -> Path:
    return Path(state_dir) / "anchors" / f"{game_id}.anchor"


def _slot_text(anchor: Anchor) -> bytes:
    body = f"{MAGIC} {anchor.seq} {anchor.head} {anchor.prev} {'done' if anchor.done else 'intent'}"
    line = f"{body} {zlib.crc32(body.encode()):08x}\n".encode()
    return line.ljust(SLOT, b" ")


def _parse_slot(raw: bytes) -> Anchor | None:
    try:
        words = raw.decode("ascii").split()
    except UnicodeDecodeError:
        return None
    if len(words) != 6 or words[0] != MAGIC or words[4] not in ("intent", "done"):
        return None
    body = " ".join(words[:5])
    if f"{zlib.crc32(body.encode()):08x}" != words[5] or not words[1].isdigit():
        return None
    return Anchor(int(words[1]), words[2], words[3], words[4] == "done")


def read_anchor(path: Path) -> Anchor | None:
    """The newest intact slot, or None when the file is missing or holds no intact slot."""
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        return None
    slots = [_parse_slot(raw[i : i + SLOT]) for i in (0, SLOT)]
    good = [a for a in slots if a is not None]
    return max(good, key=lambda a: a.seq) if good else None


class AnchorFile:
    """One game's anchor file, kept open once seen (two syscalls per event, not six; and the open file
    is what `file_state` compares the path with: an anchor deleted or replaced under a writer is noticed)."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.fd: int | None = None
        self.writable = False  # the fd was opened for writing (a read-only card opens it for reading)

    def _hold(self) -> None:
        """Open the file if it is there (for writing if it may be written), and keep it open."""
        if self.fd is not None:
            return
        try:
            self.fd, self.writable = os.open(self.path, os.O_RDWR), True
        except FileNotFoundError:
            return
        except OSError:  # a read-only card or file: it is still read, and watched
            try:
                self.fd, self.writable = os.open(self.path, os.O_RDONLY), False
            except OSError:
                return

    def read(self) -> Anchor | None:
        self._hold()
        if self.fd is None:
            return read_anchor(self.path)
        raw = os.pread(self.fd, 2 * SLOT, 0)
        good = [a for a in (_parse_slot(raw[i : i + SLOT]) for i in (0, SLOT)) if a is not None]
        return max(good, key=lambda a: a.seq) if good else None

    def write(self, anchor: Anchor, sync: bool = True) -> None:
        if self.fd is not None and not self.writable:
            self.close()  # opened on a read-only look: write_anchor says why it cannot be written now
        if self.fd is None:
            write_anchor(self.path, anchor, sync)  # creates the file and syncs its folder
            self.fd, self.writable = os.open(self.path, os.O_RDWR), True
            return
        os.pwrite(self.fd, _slot_text(anchor), (anchor.seq % 2) * SLOT)
        if sync:
            os.fdatasync(self.fd)

    def file_state(self) -> str:
        """ "same" while the path names the file held open (or none was ever seen); else "deleted" (the held
        file has no name left), "moved" (it lives on under another name) or "replaced" (another file has
        the name). Two stat calls: cheap enough for every write."""
        if self.fd is None:
            return "same"
        return file_state(self.fd, self.path)

    def put_back(self) -> bool:
        """Write the held anchor back under its name after it was deleted or moved away (synced, the folder
        too); False when something else has the name by now or the disk refuses."""
        if self.fd is None:
            return False
        try:
            raw = os.pread(self.fd, 2 * SLOT, 0)
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except OSError:
            return False
        try:
            os.write(fd, raw)
            os.fsync(fd)
        except OSError:
            return False
        finally:
            os.close(fd)
        try:
            dfd = os.open(self.path.parent, os.O_RDONLY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)
        except OSError:
            pass
        return True

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def file_state(fd: int, path: str | os.PathLike[str]) -> str:
    """How the file open as `fd` stands to `path`: "same", "deleted", "moved" or "replaced"
    (compared by st_dev and st_ino; a path that cannot be looked at counts as gone)."""
    held = os.fstat(fd)
    try:
        now = os.stat(path)
    except OSError:
        return "moved" if held.st_nlink else "deleted"
    if (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino):
        return "same"
    return "replaced"


def write_anchor(path: Path, anchor: Anchor, sync: bool = True) -> None:
    """Write the anchor into its slot (and sync it); OSError if the disk refuses."""
    path = Path(path)
    created = not path.exists()
    if created:
        path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        os.pwrite(fd, _slot_text(anchor), (anchor.seq % 2) * SLOT)
        if sync:
            os.fdatasync(fd)
    finally:
        os.close(fd)
    if created:
        # the new file's name must survive a power cut too
        dfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


# ----- the place a ledger lives: which game this machine last kept there --------------------------


@dataclass(frozen=True)
class Place:
    """The game this machine keeps in one ledger file (by its resolved path): so a file at the same place
    given another game id, or another game's file copied there, is a stranger's, not a new game."""

    path: str
    game_id: str
    first: str  # the hash of event 1: two games never share it


def place_path(state_dir: Path, ledger_path: str) -> Path:
    real = os.path.realpath(ledger_path)
    return Path(state_dir) / "places" / f"{hashlib.sha256(real.encode()).hexdigest()[:32]}.place"


def read_place(state_dir: Path, ledger_path: str) -> Place | None:
    """The game this machine kept at ledger_path, or None (never recorded, or a record not readable)."""
    try:
        data = json.loads(place_path(state_dir, ledger_path).read_text(encoding="utf-8"))
        place = Place(str(data["path"]), str(data["game_id"]), str(data["first"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return place if place.path == os.path.realpath(ledger_path) else None


def write_place(state_dir: Path, ledger_path: str, game_id: str, first: str) -> None:
    """Record (synced, written aside and renamed) that this machine keeps game_id at ledger_path; OSError."""
    path = place_path(state_dir, ledger_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"path": os.path.realpath(ledger_path), "game_id": game_id, "first": first})
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.pwrite(fd, text.encode(), 0)  # pwrite, as SQLite and the anchor write (tests/test_faults.py counts them)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    dfd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)
