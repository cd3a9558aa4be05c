"""The ledger's file: opening it checked (header, schema version, read-only cases), holding it to notice
it deleted or replaced, putting it back, and copying it (backups); SQLite's failures said as LedgerErrors."""

import errno
import os
import sqlite3
import struct
from pathlib import Path
from urllib.parse import quote

from companion.errors import DiskFull, LedgerDamaged, LedgerError, cause_of
from companion.ledger import schema
from companion.ledger.anchor import AnchorFile, file_state

SQLITE_MAGIC = b"SQLite format 3\x00"
MEMORY = ":memory:"
# what a damaged file can make SQLite or the sqlite3 module raise while reading it
DB_ERRORS = (sqlite3.Error, UnicodeDecodeError)


def disk_full(path: str) -> bool:
    try:
        st = os.statvfs(os.path.dirname(os.path.abspath(path)) or ".")
    except OSError:
        return False
    return st.f_bavail == 0 or st.f_favail == 0


def sqlite_failure(exc: Exception, path: str, doing: str) -> LedgerError:
    """A LedgerError that says what SQLite's (or the OS's) error means for this file.

    doing: what failed, a code the message says in words: open, create, read or write.
    """
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if isinstance(exc, UnicodeDecodeError) or "Could not decode to UTF-8" in str(exc):
        return LedgerDamaged("ledger_not_utf8", path=path)
    if (
        primary == sqlite3.SQLITE_FULL
        or getattr(exc, "errno", None) == errno.ENOSPC
        or (primary == sqlite3.SQLITE_IOERR and disk_full(path))
    ):
        return DiskFull("ledger_disk_full", path=path, doing=doing)
    if primary in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
        return LedgerDamaged("ledger_damaged_file", path=path, detail=str(exc), cause=cause_of(exc))
    if primary == sqlite3.SQLITE_BUSY:
        return LedgerError("ledger_busy", path=path)
    if primary == sqlite3.SQLITE_READONLY:
        return LedgerError("ledger_read_only", path=path, doing=doing)
    if primary == sqlite3.SQLITE_CANTOPEN:
        return LedgerError("ledger_cannot_open", path=path, doing=doing)
    return LedgerError("ledger_failed", path=path, doing=doing, detail=str(exc), cause=cause_of(exc))


def read_header(path: str) -> tuple[int, int] | None:
    """(application_id, user_version) from the file's first 100 bytes, read without SQLite.

    None for an empty file; LedgerDamaged for anything that is not an SQLite file.
    """
    p = Path(path)
    if p.is_dir():
        raise LedgerError("ledger_folder", path=path)
    try:
        with open(p, "rb") as f:
            head = f.read(100)
    except FileNotFoundError:
        raise LedgerError("ledger_no_game", path=path) from None
    except OSError as exc:
        raise LedgerError("ledger_unreadable", path=path, detail=exc.strerror, cause=cause_of(exc)) from None
    if not head:
        return None
    if len(head) < 100 or not head.startswith(SQLITE_MAGIC):
        raise LedgerDamaged("ledger_not_sqlite", path=path)
    (user_version,) = struct.unpack(">I", head[60:64])
    (app_id,) = struct.unpack(">I", head[68:72])
    return app_id, user_version


class LedgerFile:
    """The file half of `Ledger` (companion/ledger/store.py): connecting, holding, settling, copying."""

    path: str
    readonly: bool
    memory: bool
    conn: sqlite3.Connection
    _held: int | None
    _anchor: AnchorFile | None

    def _hold(self) -> None:
        """Hold the file at the path open beside SQLite's connection (a descriptor of our own): `file_state`
        compares it with whatever has the name now."""
        self._release()
        if not self.memory:
            try:
                self._held = os.open(self.path, os.O_RDONLY)
            except OSError:
                self._held = None

    def _release(self) -> None:
        if self._held is not None:
            os.close(self._held)
            self._held = None

    def file_state(self) -> str:
        """ "same" while the path names the file this ledger opened; else "deleted", "moved" or "replaced"
        (anchor.file_state). SQLite itself would go on committing into a file that has no name any more."""
        if self._held is None:
            return "same"
        return file_state(self._held, self.path)

    def anchor_state(self) -> str:
        """The same question for the anchor file (once it was seen)."""
        file = self._anchor
        return file.file_state() if file is not None else "same"

    def settle(self) -> bool:
        """Move everything in the -wal into the file this connection holds and empty the -wal (a checkpoint):
        True when it could. A file moved away under its -wal is then whole wherever it went."""
        try:
            busy: int = self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
        except sqlite3.Error:
            return False
        return busy == 0

    def put_back(self) -> None:
        """After the file was deleted under this connection: write the game this connection still reads
        back under its name, in WAL mode and synced (OSError or sqlite3.Error if that cannot be done;
        FileExistsError when another file took the name meanwhile, which is never overwritten)."""
        if not self.settle():  # the -wal left under the name must hold nothing for the file put back
            raise sqlite3.OperationalError("the -wal could not be emptied into the file")
        tmp = self.path + ".putback"
        self._synced_copy(tmp, "WAL")
        try:
            os.link(tmp, self.path)  # never over a file that took the name meanwhile
        finally:
            os.remove(tmp)
        dfd = os.open(os.path.dirname(os.path.abspath(self.path)), os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)

    def _open(self) -> sqlite3.Connection:
        self._hold()
        try:
            return self._connect_checked()
        except BaseException:
            self._release()
            raise

    def _connect_checked(self) -> sqlite3.Connection:
        header = read_header(self.path)
        if header is None:
            raise LedgerError("ledger_no_game", path=self.path)
        if header[0] != schema.APPLICATION_ID:
            # look closer without changing a byte: immutable opens no -wal or -shm
            conn = self._connect(immutable=True)
            try:
                schema.check_version(conn, self.path)
            except DB_ERRORS:
                raise LedgerDamaged("ledger_foreign_file", path=self.path) from None
            finally:
                conn.close()
        conn = self._connect(readonly=self.readonly, immutable=self.readonly and self._cannot_change())
        try:
            found = schema.check_version(conn, self.path)
            if found < schema.VERSION:
                if self.readonly:
                    raise LedgerError("ledger_old_schema", path=self.path, found=found, version=schema.VERSION)
                schema.upgrade(conn, found)
        except DB_ERRORS as exc:
            conn.close()
            raise sqlite_failure(exc, self.path, "open") from None
        except BaseException:
            conn.close()
            raise
        return conn

    def _connect(self, readonly: bool = False, immutable: bool = False) -> sqlite3.Connection:
        uri = "file:" + quote(os.path.abspath(self.path))
        if immutable:
            uri += "?mode=ro&immutable=1"
        elif readonly:
            uri += "?mode=ro"
        try:
            conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA busy_timeout=10000")
            if not (readonly or immutable):
                # set on every connection; the file itself was put in WAL mode when it was created
                conn.execute("PRAGMA synchronous=FULL")
                conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        except DB_ERRORS as exc:
            if readonly and not immutable and self._wal_is_empty():
                # a read-only folder cannot hold the -shm file; with no -wal to recover,
                # nothing can change under us, so read the file as it stands
                return self._connect(immutable=True)
            if readonly and not immutable:
                raise LedgerError("ledger_wal_needs_write", path=self.path) from None
            raise sqlite_failure(exc, self.path, "open") from None
        return conn

    def _cannot_change(self) -> bool:
        """True when nobody here can write the file and no -wal waits: read it as it stands.

        (A read-only connection would otherwise create -wal and -shm files with
        the file's own read-only mode, which refuse its owner's writes later.)
        """
        if os.access(self.path, os.W_OK):
            return False
        if not self._wal_is_empty():
            raise LedgerError("ledger_wal_needs_write", path=self.path)
        return True

    def _wal_is_empty(self) -> bool:
        wal = Path(self.path + "-wal")
        try:
            return wal.stat().st_size == 0
        except FileNotFoundError:
            return True

    def _synced_copy(self, tmp: str, journal_mode: str, source: sqlite3.Connection | None = None) -> None:
        """This game copied into a fresh file `tmp` with SQLite's backup API (leftovers of an earlier try
        removed first), in `journal_mode`, and synced: the first half of a backup and of a put-back.
        source: the connection read from (default: this ledger's own)."""
        for leftover in (tmp, tmp + "-wal", tmp + "-shm", tmp + "-journal"):
            if os.path.exists(leftover):
                os.remove(leftover)
        dest = sqlite3.connect(tmp)
        try:
            (source or self.conn).backup(dest)
            dest.execute(f"PRAGMA journal_mode={journal_mode}")
        finally:
            dest.close()
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def backup(self, target: str, own_connection: bool = False) -> None:
        """A consistent copy with SQLite's backup API: written aside, synced, then renamed. own_connection:
        read through a read-only connection of the calling thread's own (a thread beside the writer's: WAL
        lets it read a consistent moment while the writer goes on)."""
        tmp = target + ".tmp"
        if own_connection:
            source = self._connect(readonly=True)
            try:
                if self.file_state() != "same":  # the path names another file now: not this game to copy
                    raise OSError(f"{self.path} is no longer the file this game was opened from")
                self._synced_copy(tmp, "DELETE", source)
            finally:
                source.close()
        else:
            self._synced_copy(tmp, "DELETE")
        os.replace(tmp, target)
        dfd = os.open(os.path.dirname(os.path.abspath(target)), os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
