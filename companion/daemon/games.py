"""The game on the box: start one, resume it after a power cut, end it, archive it.

One folder (the games folder) holds everything the box keeps:
`current.sqlite` (the game being played, resumed at every boot),
`archive/` (finished games, named by date and edition), `boards/` (the table's own
boards, companion/editions/boards.py), `cards.json` (the card
map) and `daemon.lock` (held by the running daemon; it names the control
socket so `companion do` can hand it commands). The ledgers' anchors stay in
the machine's anchor folder ($COMPANION_STATE_DIR), where the command line
looks for them too.
"""

import errno
import fcntl
import json
import os
import shutil
import time
from pathlib import Path

from companion.errors import RuleViolation, SaidInput
from companion.table.service import Table, new_game, open_game

from .clock import clock_synchronized

CURRENT = "current.sqlite"
ARCHIVE = "archive"
BOARDS = "boards"  # the table's own boards (companion/editions/boards.py): boards/<edition>.toml
LOCK = "daemon.lock"


class Games:
    """The games folder and its current game (the caller owns the Table it returns)."""

    def __init__(self, folder: str | os.PathLike):
        self.folder = Path(folder)
        self.current = self.folder / CURRENT
        # the machine's anchor folder ($COMPANION_STATE_DIR, else the user's state folder), the very
        # one `companion do` and `verify` use: a game written by either is recognised by both
        self.state_dir = None

    def resume(self) -> Table | None:
        """The interrupted (or finished, not yet archived) game, or None if the box holds none.

        A stranger's game (no anchor on this machine, or another game put in current.sqlite's place) comes back
        read-only, its `readonly_reason` set: nothing is booked on it until a person accepts it (`Table.adopt`).
        """
        if not self.current.exists():
            return None
        return open_game(str(self.current), state_dir=self.state_dir)

    def start(self, edition: str, players: list[str], seed: int, options: dict | None = None) -> Table:
        if self.current.exists():
            raise RuleViolation("game_on_box")
        self.folder.mkdir(parents=True, exist_ok=True)
        return new_game(str(self.current), edition, players, seed, options or {}, state_dir=self.state_dir)

    def archive(self, table: Table | None) -> Path:
        """Move the finished current game into archive/ (the table is closed); its new path."""
        if table is None:
            if not self.current.exists():
                raise RuleViolation("no_game_on_box")
            table = open_game(str(self.current), state_dir=self.state_dir)
        if table.state.phase != "over":
            raise RuleViolation("game_not_over")
        edition = table.rules.edition.id
        table.close()
        folder = self.folder / ARCHIVE
        folder.mkdir(parents=True, exist_ok=True)
        # the name sorts by the time of day only when the clock was set from the network; a Pi without one
        # says so in the name rather than pass 1970 (or the last shutdown's time) off as the date
        stamp = time.strftime("%Y-%m-%d-%H%M%S") + ("" if clock_synchronized() else "-clock-unset")
        target = folder / f"{stamp}-{edition}.sqlite"
        n = 1
        while target.exists():
            n += 1
            target = folder / f"{stamp}-{edition}-{n}.sqlite"
        for suffix in ("-wal", "-shm"):
            leftover = Path(str(self.current) + suffix)
            if leftover.exists() and leftover.stat().st_size == 0:
                leftover.unlink()
        os.replace(self.current, target)
        backup = Path(str(self.current) + ".backup")
        if backup.exists():
            shutil.move(str(backup), str(target) + ".backup")
        return target


class DaemonLock:
    """The games folder's lock: held while a daemon owns it; names that daemon's pid and socket."""

    def __init__(self, folder: str | os.PathLike):
        self.path = Path(folder) / LOCK
        self._fd: int | None = None

    def acquire(self, socket_path: str) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            if exc.errno not in (errno.EROFS, errno.EACCES, errno.EPERM):
                raise
            # a read-only card: the game is only shown (nothing can be written by anyone); the lock file, if
            # there, is still taken so two daemons never share the folder, but it cannot name this one
            try:
                fd = os.open(self.path, os.O_RDONLY)
            except FileNotFoundError:
                return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            holder = read_holder(self.path)
            raise SaidInput("games_taken", pid=str(holder.get("pid", "?")), folder=str(self.path.parent)) from None
        self._fd = fd
        try:
            os.ftruncate(fd, 0)
            os.write(fd, json.dumps({"pid": os.getpid(), "socket": socket_path}).encode())
            os.fsync(fd)
        except OSError as exc:
            if exc.errno not in (errno.EROFS, errno.EBADF, errno.EINVAL):
                raise

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def read_holder(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def daemon_holding(ledger_path: str | os.PathLike) -> dict | None:
    """{pid, socket} of the running daemon that owns this ledger file, or None if none does."""
    ledger = Path(ledger_path).resolve()  # a symlink to the box's game is the box's game
    return folder_holder(ledger.parent) if ledger.name == CURRENT else None


def folder_holder(folder: str | os.PathLike) -> dict | None:
    """{pid, socket} of the running daemon that holds this games folder, or None."""
    lock = Path(folder) / LOCK
    try:
        fd = os.open(lock, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return read_holder(lock) or {"pid": "?", "socket": ""}
    finally:
        os.close(fd)
    return None  # a lock file left by a daemon that is gone
