"""SQLite storage for one game: one transaction per event, WAL + synchronous=FULL, hash-chained.

The ledger stores what the table hands it and checks what it reads back: the
file is ours (by its header, before SQLite touches it), the schema is exactly
ours, every event's hash follows from the one before, and the head agrees with
the anchor kept outside the file. It imports only the engine's records; the
table service (companion/table/service.py) pairs it with the rules.
"""

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from companion.errors import DiskFull, LedgerError, OutcomeUnknown, cause_of, check
from companion.ledger import chain, schema
from companion.ledger.anchor import Anchor, AnchorFile, anchor_path, default_state_dir
from companion.ledger.files import DB_ERRORS, MEMORY, SQLITE_MAGIC, LedgerFile, disk_full, read_header, sqlite_failure
from companion.ledger.reads import LedgerReads
from companion.ledger.row import EventRow, legs_of, notes_text, now_text

# refuse to start a write with less free space than this: an event, its -wal frames, a checkpoint
# and the -shm's growth fit many times over, so "disk full" is said before anything is written
SPACE_RESERVE = 1 << 20
# with this much more free than the reserve, the look is trusted for SPACE_TRUSTED_S: a statvfs on every
# write cost a tap about 0.05 ms here, and no event comes near 64 MiB; a disk filled faster than that by
# someone else is still caught, by SQLite's own failure to write (Table.submit says DiskFull then)
SPACE_MARGIN = 64 << 20
SPACE_TRUSTED_S = 1.0


class Ledger(LedgerFile, LedgerReads):
    """One game's SQLite file. Use `Ledger.create` for a new game, `Ledger(path)` to open one.

    Opening, holding and copying the file are LedgerFile's (files.py), the queries LedgerReads' (reads.py);
    here: creating, the transactions, the anchor and the recovery of an unknown outcome."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        readonly: bool = False,
        state_dir: str | os.PathLike[str] | None = None,
        _conn: sqlite3.Connection | None = None,
    ) -> None:
        self.path = str(path)
        self.readonly = readonly
        self.state_dir = Path(state_dir) if state_dir else default_state_dir()
        self.memory = self.path == MEMORY
        self._held: int | None = None  # the file SQLite opened, held open to notice it deleted or replaced
        self.conn = _conn if _conn is not None else self._open()
        if _conn is not None:
            self._hold()
        self._game_id: str | None = None
        self._anchor: AnchorFile | None = None
        self._roomy_until = 0.0  # time.monotonic() until which the last look at the free space stands

    # ----- opening ------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        path: str | os.PathLike[str],
        meta: dict[str, str],
        first: EventRow,
        *,
        state_dir: str | os.PathLike[str] | None = None,
    ) -> "Ledger":
        """A new ledger file holding the settings and the first event, or LedgerError."""
        path = str(path)
        memory = path == MEMORY
        if not memory:
            p = Path(path)
            if p.is_dir():
                raise LedgerError("ledger_folder", path=path)
            if p.exists() and p.stat().st_size:
                raise LedgerError("ledger_exists", path=path)
            for suffix in ("-wal", "-shm", "-journal"):
                if Path(path + suffix).exists():
                    raise LedgerError("ledger_leftover", path=path, suffix=suffix)
        try:
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA busy_timeout=10000")
            # the schema and the header marks go to the main file through a rollback journal,
            # so the application id is on disk before anyone can see the file as a ledger
            schema.create(conn)
            if not memory:
                mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                check(mode == "wal", f"SQLite refused WAL mode ({mode})")
        except sqlite3.Error as exc:
            raise sqlite_failure(exc, path, "create") from None
        ledger = cls(path, state_dir=state_dir, _conn=conn)
        try:
            with ledger.writing() as w:
                w.add_meta(meta)
                w.insert(first, None)
                ledger.set_anchor(Anchor(first.event.seq, first.hash, chain.genesis(meta)))
        except BaseException:
            ledger.close()
            raise
        try:
            ledger.set_anchor(Anchor(first.event.seq, first.hash, chain.genesis(meta), done=True), sync=False)
        except OSError:
            pass  # the intent already names event 1: only the fork check of event 1 is lost
        return ledger

    def close(self) -> None:
        self._release()
        if self._anchor is not None:
            self._anchor.close()
        try:
            self.conn.close()
        except sqlite3.Error:
            pass

    # ----- transactions -----------------------------------------------------------------

    @contextmanager
    def reading(self) -> Iterator["Ledger"]:
        """One consistent snapshot for every read inside the block (WAL read transaction)."""
        conn = self.conn
        try:
            conn.execute("BEGIN")
            conn.execute("SELECT COUNT(*) FROM meta").fetchone()  # the snapshot starts here
        except DB_ERRORS as exc:
            raise sqlite_failure(exc, self.path, "read") from None
        try:
            yield self
        except DB_ERRORS as exc:
            raise sqlite_failure(exc, self.path, "read") from None
        finally:
            if conn.in_transaction:
                try:
                    conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass

    @contextmanager
    def writing(self) -> Iterator["_Writing"]:
        """BEGIN IMMEDIATE ... COMMIT around the block.

        An error before COMMIT rolls back: nothing was written (LedgerError,
        DiskFull). An error at or after COMMIT leaves the outcome unknown
        (OutcomeUnknown): SQLite may have put the event in the -wal file
        without syncing it.
        """
        if self.readonly:
            raise LedgerError("ledger_open_read_only", path=self.path)
        conn = self.conn
        txn = _Writing(self)
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise sqlite_failure(exc, self.path, "write") from None
        try:
            yield txn
        except BaseException as exc:
            if conn.in_transaction:
                try:
                    conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            if isinstance(exc, sqlite3.IntegrityError):
                raise LedgerError("ledger_other_writer", path=self.path, detail=str(exc), cause=cause_of(exc)) from None
            if isinstance(exc, DB_ERRORS):
                raise sqlite_failure(exc, self.path, "write") from None
            if isinstance(exc, OSError):
                raise sqlite_failure(exc, self.path, "write") from None
            raise
        try:
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            seq, request_id, command = txn.pending or (None, None, None)
            unknown = OutcomeUnknown(
                "ledger_event_unknown" if seq else "ledger_write_unknown",
                seq,
                request_id,
                command,
                path=self.path,
                detail=str(exc),
                cause="disk_full" if disk_full(self.path) else cause_of(exc),
            )
            code = getattr(exc, "sqlite_errorcode", 0) or 0
            # SQLITE_FULL comes only from a write of the -wal that ran out of space, and the commit
            # frame is the last one written: a fresh look can then tell "not stored" for sure
            unknown.write_failed = (code & 0xFF) == sqlite3.SQLITE_FULL
            raise unknown from None

    def check_space(self) -> None:
        """DiskFull, before anything is written, when the ledger's disk is (nearly) full."""
        if self.memory or time.monotonic() < self._roomy_until:
            return
        try:
            st = os.statvfs(os.path.dirname(os.path.abspath(self.path)) or ".")
        except OSError:
            return
        free = st.f_bavail * st.f_frsize
        if free < SPACE_RESERVE:
            raise DiskFull("ledger_no_space", path=self.path, free=free // 1024)
        if free >= SPACE_RESERVE + SPACE_MARGIN:
            self._roomy_until = time.monotonic() + SPACE_TRUSTED_S

    # ----- the anchor outside the file ---------------------------------------------------

    @property
    def anchor_file(self) -> AnchorFile | None:
        if self.memory:
            return None
        if self._anchor is None:
            self._anchor = AnchorFile(anchor_path(self.state_dir, self.game_id))
        return self._anchor

    def anchor(self) -> Anchor | None:
        file = self.anchor_file
        return file.read() if file else None

    def set_anchor(self, anchor: Anchor, sync: bool = True) -> None:
        file = self.anchor_file
        if file is not None:
            file.write(anchor, sync)

    # ----- recovery of an unknown outcome, and backups ------------------------------------

    def reopen(self) -> None:
        """A fresh connection: SQLite recovers from the -wal what is really there."""
        self.close()
        self.conn = self._open()

    def record_resolution(self, request_id: str | None, seq: int, stored: bool, command: str) -> None:
        """Write (and so sync) a note of what a later look found; OutcomeUnknown if the sync fails."""
        with self.writing() as w:
            w.record_resolution(request_id, seq, stored, command)


class _Writing:
    """What may be done inside `Ledger.writing()`."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.conn = ledger.conn
        self.pending: tuple[int, str | None, str] | None = None  # (seq, request id, command) being committed

    def record_resolution(self, request_id: str | None, seq: int, stored: bool, command: str) -> None:
        """Note what a look at the ledger found for a request; its COMMIT syncs the answer."""
        self.pending = (seq, request_id, command)
        self.conn.execute(
            "INSERT INTO resolutions(request_id, seq, stored, at) VALUES (?,?,?,?)",
            (request_id, seq, int(stored), now_text()),
        )

    def add_meta(self, meta: dict[str, str]) -> None:
        self.conn.executemany("INSERT INTO meta(key, value) VALUES (?, ?)", sorted(meta.items()))

    def insert(self, row: EventRow, checkpoint_text: str | None) -> None:
        event = row.event
        check(sum(p.amount for p in event.postings) == 0, f"event {event.seq} does not sum to zero")
        check(
            all(chain.SEP not in str(v) for v in (row.request_id, row.actor, row.submitted, event.command)),
            f"event {event.seq} holds the field separator",
        )
        self.conn.execute(
            "INSERT INTO events(seq, request_id, body, hash) VALUES (?,?,?,?)",
            (event.seq, row.request_id, row.body(), row.hash),
        )
        self.conn.executemany(
            "INSERT INTO postings(seq, leg, account, amount) VALUES (?,?,?,?)",
            [(event.seq, i, p.account, p.amount) for i, p in enumerate(event.postings)],
        )
        if checkpoint_text is not None:
            self.conn.execute("INSERT INTO checkpoints(seq, state) VALUES (?, ?)", (event.seq, checkpoint_text))
        # pair assertion: read back what was written, inside the same transaction
        (total,) = self.conn.execute(
            "SELECT COALESCE(SUM(amount), 0) FROM postings WHERE seq = ?", (event.seq,)
        ).fetchone()
        check(total == 0, f"event {event.seq} stored postings do not sum to zero")
        self.pending = (event.seq, row.request_id, event.command)


__all__ = [
    "Ledger",
    "EventRow",
    "MEMORY",
    "SQLITE_MAGIC",
    "read_header",
    "legs_of",
    "sqlite_failure",
    "now_text",
    "notes_text",
]
