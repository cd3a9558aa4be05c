"""SQLite storage for one game: one transaction per event, WAL + synchronous=FULL, hash-chained.

The ledger stores what the table hands it and checks what it reads back: the
file is ours (by its header, before SQLite touches it), the schema is exactly
ours, every event's hash follows from the one before, and the head agrees with
the anchor kept outside the file. It imports only the engine's records; the
table service (companion/table/service.py) pairs it with the rules.
"""

import errno
import hashlib
import json
import os
import sqlite3
import struct
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import quote

from companion.engine.state import Event, Note, Posting
from companion.errors import DiskFull, LedgerDamaged, LedgerError, OutcomeUnknown, cause_of, check
from companion.ledger import chain, schema
from companion.ledger.anchor import Anchor, AnchorFile, anchor_path, default_state_dir, file_state

SQLITE_MAGIC = b"SQLite format 3\x00"
MEMORY = ":memory:"
# refuse to start a write with less free space than this: an event, its -wal frames, a checkpoint
# and the -shm's growth fit many times over, so "disk full" is said before anything is written
SPACE_RESERVE = 1 << 20
# what a damaged file can make SQLite or the sqlite3 module raise while reading it
DB_ERRORS = (sqlite3.Error, UnicodeDecodeError)


@dataclass(frozen=True)
class EventRow:
    """One stored event with everything the chain covers."""

    event: Event
    actor: str
    request_id: str
    submitted: str
    created_at: str
    state_hash: str | None
    hash: str
    notes_json: str = ""  # the notes exactly as stored (the chain hashes this text)

    def body(self) -> str:
        """The text the chain hashes and the ledger stores (chain.FIELDS, joined)."""
        e = self.event
        return chain.join_body(
            {
                "request_id": self.request_id,
                "seq": e.seq,
                "actor": self.actor,
                "submitted": self.submitted,
                "command": e.command,
                "reverses": e.reverses,
                "notes": self.notes_json or notes_text(e),
                "created_at": self.created_at,
                "state_hash": self.state_hash,
                "legs": legs_of(e),
            }
        )

    def chain_hash(self, prev: str) -> str:
        """This row's hash given the hash before it."""
        return chain.link(prev, self.body())

    @classmethod
    def from_body(cls, seq: int, body: str, hash_: str) -> "EventRow":
        """Decode a stored body; ValueError (and friends) if it is not one, or not event `seq`'s."""
        f = chain.split_body(body)
        if f["seq"] != str(seq):
            raise ValueError(f"the body of event {seq} says it is event {f['seq']}")
        notes = tuple(Note(n.pop("code"), n) for n in json.loads(f["notes"]))
        postings = tuple(
            Posting(account, int(amount))
            for account, _, amount in (leg.rpartition(":") for leg in f["legs"].split(";") if leg)
        )
        reverses = int(f["reverses"]) if f["reverses"] else None
        event = Event(seq, f["command"], postings, notes, reverses, actor=f["actor"])
        return cls(
            event,
            f["actor"],
            f["request_id"],
            f["submitted"],
            f["created_at"],
            f["state_hash"] or None,
            hash_,
            f["notes"],
        )


def now_text() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _disk_full(path: str) -> bool:
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
        or (primary == sqlite3.SQLITE_IOERR and _disk_full(path))
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


class Ledger:
    """One game's SQLite file. Use `Ledger.create` for a new game, `Ledger(path)` to open one."""

    def __init__(
        self, path, *, readonly: bool = False, state_dir: Path | None = None, _conn: sqlite3.Connection | None = None
    ):
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

    # ----- opening ------------------------------------------------------------------

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
            busy = self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
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

    @classmethod
    def create(cls, path, meta: dict, first: EventRow, *, state_dir: Path | None = None) -> "Ledger":
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
    def reading(self):
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
    def writing(self):
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
                cause="disk_full" if _disk_full(self.path) else cause_of(exc),
            )
            code = getattr(exc, "sqlite_errorcode", 0) or 0
            # SQLITE_FULL comes only from a write of the -wal that ran out of space, and the commit
            # frame is the last one written: a fresh look can then tell "not stored" for sure
            unknown.write_failed = (code & 0xFF) == sqlite3.SQLITE_FULL
            raise unknown from None

    def check_space(self) -> None:
        """DiskFull, before anything is written, when the ledger's disk is (nearly) full."""
        if self.memory:
            return
        try:
            st = os.statvfs(os.path.dirname(os.path.abspath(self.path)) or ".")
        except OSError:
            return
        free = st.f_bavail * st.f_frsize
        if free < SPACE_RESERVE:
            raise DiskFull("ledger_no_space", path=self.path, free=free // 1024)

    # ----- reading (inside `reading()` or `writing()`) -------------------------------------

    def meta(self) -> dict:
        return dict(self.conn.execute("SELECT key, value FROM meta"))

    @property
    def game_id(self) -> str:
        if self._game_id is None:
            row = self.conn.execute("SELECT value FROM meta WHERE key = 'game_id'").fetchone()
            if row is None:
                raise LedgerDamaged("ledger_no_settings", path=self.path)
            self._game_id = row[0]
        return self._game_id

    def check_schema(self) -> None:
        found = schema.schema_rows(self.conn)
        if found != schema.expected_schema():
            missing = sorted(set(schema.expected_schema()) - set(found))
            extra = sorted(set(found) - set(schema.expected_schema()))
            entry, name = (missing or extra)[0][:2]
            raise LedgerDamaged(
                "ledger_schema_missing" if missing else "ledger_schema_added", path=self.path, entry=entry, name=name
            )

    def last_seq(self) -> int:
        return self.conn.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0]

    def rows(self, after: int = 0, upto: int | None = None) -> list[EventRow]:
        """Stored events with seq in (after, upto], in order, decoded from their bodies."""
        upto = self.last_seq() if upto is None else upto
        out = []
        for seq, body, hash_ in self.conn.execute(
            "SELECT seq, body, hash FROM events WHERE seq > ? AND seq <= ? ORDER BY seq", (after, upto)
        ):
            try:
                out.append(EventRow.from_body(seq, body, hash_))
            except (ValueError, KeyError, TypeError, AttributeError):
                raise LedgerDamaged("ledger_event_damaged", path=self.path, seq=seq) from None
        return out

    def check_postings(self) -> None:
        """The postings table says, event by event, what the chain says; LedgerDamaged if not.

        Opening reads postings from the event bodies (covered by the chain) and
        compares the table's sums per account with the replayed balances; this
        full check runs in `companion verify`.
        """
        table: dict[int, list] = {}
        for seq, account, amount in self.conn.execute("SELECT seq, account, amount FROM postings ORDER BY seq, leg"):
            table.setdefault(seq, []).append((account, amount))
        for seq, body in self.conn.execute("SELECT seq, body FROM events ORDER BY seq"):
            if body.rpartition(chain.SEP)[2] != chain.legs_text(table.pop(seq, [])):
                raise LedgerDamaged("ledger_postings_changed", path=self.path, seq=seq)
        if table:
            raise LedgerDamaged("ledger_postings_orphaned", path=self.path, seq=min(table))

    def verify_chain(self, meta: dict, postings: bool = False) -> dict:
        """Recompute every hash from the settings on; LedgerDamaged at the first that differs.

        postings: also check the postings table event by event (check_postings).
        Returns {"count", "head", "prev", "reversed"} for the whole stored chain,
        where "reversed" maps each undone event to the undo that reversed it.
        """
        conn = self.conn
        count, first, last = conn.execute("SELECT COUNT(*), MIN(seq), MAX(seq) FROM events").fetchone()
        if not count:
            raise LedgerError("ledger_no_game", path=self.path)
        if first != 1 or last != count:
            raise LedgerDamaged("ledger_events_missing", path=self.path, count=count, first=first, last=last)
        if postings:
            self.check_postings()
        prev = before = chain.genesis(meta)
        sep, reversed_ = chain.SEP, {}
        sha256 = hashlib.sha256
        # the hot loop of every open: chain.link inlined, the request id copy checked by prefix
        for seq, request_id, body, stored in conn.execute(
            "SELECT seq, request_id, body, hash FROM events ORDER BY seq"
        ):
            if (
                not (isinstance(body, str) and isinstance(request_id, str) and body.startswith(request_id + sep))
                or sha256((prev + sep + body).encode()).hexdigest() != stored
            ):
                raise LedgerDamaged("ledger_hash_mismatch", path=self.path, seq=seq)
            if "\x1fundo " in body:
                fields = body.split(sep, 6)
                if fields[4].startswith("undo ") and fields[5]:
                    reversed_[int(fields[5])] = seq
            before, prev = prev, stored
        return {"count": count, "head": prev, "prev": before, "reversed": reversed_}

    def request(self, request_id: str):
        """(seq, actor, submitted) of a stored request id, or None."""
        found = self.conn.execute("SELECT seq, body FROM events WHERE request_id = ?", (request_id,)).fetchone()
        if found is None:
            return None
        try:
            fields = chain.split_body(found[1])
        except (ValueError, AttributeError):
            fields = {}
        if fields.get("request_id") != request_id or fields.get("seq") != str(found[0]):
            raise LedgerDamaged("ledger_request_changed", path=self.path, seq=found[0])
        return found[0], fields["actor"], fields["submitted"]

    def checkpoint(self, at_most: int):
        """(seq, state text, state hash) of the newest checkpoint at or before at_most, or None."""
        found = self.conn.execute(
            "SELECT c.seq, c.state, e.body FROM checkpoints c JOIN events e USING (seq) "
            "WHERE c.seq <= ? ORDER BY c.seq DESC LIMIT 1",
            (at_most,),
        ).fetchone()
        if found is None:
            return None
        try:
            state_hash = chain.split_body(found[2])["state_hash"]
        except (ValueError, AttributeError):
            state_hash = ""
        return found[0], found[1], state_hash

    def hash_at(self, seq: int) -> str | None:
        """The stored hash of event seq (the chain's), or None if there is no such event."""
        found = self.conn.execute("SELECT hash FROM events WHERE seq = ?", (seq,)).fetchone()
        return found[0] if found else None

    def checkpoints(self):
        """(seq, state text) of every stored checkpoint, in order (for `companion verify`)."""
        return self.conn.execute("SELECT seq, state FROM checkpoints ORDER BY seq")

    def balances(self) -> dict:
        return dict(self.conn.execute("SELECT account, SUM(amount) FROM postings GROUP BY account"))

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

    def record_resolution(self, request_id: str, seq: int, stored: bool, command: str) -> None:
        """Write (and so sync) a note of what a later look found; OutcomeUnknown if the sync fails."""
        with self.writing() as w:
            w.record_resolution(request_id, seq, stored, command)

    def _synced_copy(self, tmp: str, journal_mode: str) -> None:
        """This game copied into a fresh file `tmp` with SQLite's backup API (leftovers of an earlier try
        removed first), in `journal_mode`, and synced: the first half of a backup and of a put-back."""
        for leftover in (tmp, tmp + "-wal", tmp + "-shm", tmp + "-journal"):
            if os.path.exists(leftover):
                os.remove(leftover)
        dest = sqlite3.connect(tmp)
        try:
            self.conn.backup(dest)
            dest.execute(f"PRAGMA journal_mode={journal_mode}")
        finally:
            dest.close()
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def backup(self, target: str) -> None:
        """A consistent copy with SQLite's backup API: written aside, synced, then renamed."""
        tmp = target + ".tmp"
        self._synced_copy(tmp, "DELETE")
        os.replace(tmp, target)
        dfd = os.open(os.path.dirname(os.path.abspath(target)), os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


class _Writing:
    """What may be done inside `Ledger.writing()`."""

    def __init__(self, ledger: Ledger):
        self.ledger = ledger
        self.conn = ledger.conn
        self.pending: tuple | None = None  # (seq, request id, command) being committed

    def record_resolution(self, request_id: str, seq: int, stored: bool, command: str) -> None:
        """Note what a look at the ledger found for a request; its COMMIT syncs the answer."""
        self.pending = (seq, request_id, command)
        self.conn.execute(
            "INSERT INTO resolutions(request_id, seq, stored, at) VALUES (?,?,?,?)",
            (request_id, seq, int(stored), now_text()),
        )

    def add_meta(self, meta: dict) -> None:
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


def legs_of(event: Event) -> str:
    return chain.legs_text((p.account, p.amount) for p in event.postings)


def notes_text(event: Event) -> str:
    return json.dumps([n.as_json() for n in event.notes], ensure_ascii=False)


__all__ = ["Ledger", "EventRow", "sqlite_failure", "now_text", "notes_text"]
