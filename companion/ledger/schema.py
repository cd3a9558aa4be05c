"""The ledger's schema, versioned with PRAGMA user_version and marked with PRAGMA application_id.

A new file gets the whole current schema in one transaction. Later versions
only add (new tables, new columns): a new version is a new entry at the end of
MIGRATIONS. Schema 1 files (written before the hash chain) are not migrated:
their rows cannot gain hashes without being rewritten, so `companion recover`
replays them into a new file instead.
"""

import functools
import sqlite3
from collections.abc import Callable

from companion.errors import LedgerDamaged, LedgerError

# "CMPN": tells our ledgers from every other SQLite file without trusting table names
APPLICATION_ID = 0x434D504E
OLDEST_READABLE = 2

_APPEND_ONLY = "".join(
    f"""
    CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table}
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
    CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table}
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;"""
    for table in ("meta", "events", "postings", "checkpoints", "resolutions")
)

MIGRATIONS = {
    # version 2: the first hash-chained schema (version 1 had no chain; see the module doc)
    2: """
    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    -- one row per event: its body holds every field, joined by U+001F, in the order of
    -- companion/ledger/chain.py FIELDS; `hash` chains the body to the event before it;
    -- request_id is the body's first field, copied out for the index that answers retries
    CREATE TABLE events (
        seq        INTEGER PRIMARY KEY,
        request_id TEXT NOT NULL UNIQUE,
        body       TEXT NOT NULL,
        hash       TEXT NOT NULL
    );
    -- the postings again, one row per leg, for sums in SQL (opening compares them with the replay)
    CREATE TABLE postings (
        seq     INTEGER NOT NULL REFERENCES events(seq),
        leg     INTEGER NOT NULL,
        account TEXT NOT NULL,
        amount  INTEGER NOT NULL,
        PRIMARY KEY (seq, leg)
    );
    -- the whole game state after an event, as plain JSON; its hash is in the chain
    CREATE TABLE checkpoints (
        seq   INTEGER PRIMARY KEY REFERENCES events(seq),
        state TEXT NOT NULL
    );
    -- each write whose outcome was unknown, and what a later sync found
    CREATE TABLE resolutions (
        id         INTEGER PRIMARY KEY,
        request_id TEXT NOT NULL,
        seq        INTEGER NOT NULL,
        stored     INTEGER NOT NULL,
        at         TEXT NOT NULL
    );
    """
    + _APPEND_ONLY,
}

VERSION = max(MIGRATIONS)


def create(conn: sqlite3.Connection) -> None:
    """Give an empty database the current schema, in one transaction."""

    def work() -> None:
        if conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]:
            raise LedgerDamaged("ledger_not_empty")
        for version in sorted(MIGRATIONS):
            _apply(conn, version)
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")

    _in_transaction(conn, work)


def _apply(conn: sqlite3.Connection, version: int) -> None:
    for statement in _statements(MIGRATIONS[version]):
        conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {version}")


def _in_transaction(conn: sqlite3.Connection, work: Callable[[], None]) -> None:
    conn.execute("BEGIN IMMEDIATE")
    try:
        work()
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def check_version(conn: sqlite3.Connection, path: str) -> int:
    """Refuse, without changing anything, a file that is not a ledger this companion reads."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    version: int = conn.execute("PRAGMA user_version").fetchone()[0]
    if app_id != APPLICATION_ID:
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if version == 1 and {"meta", "events", "postings"} <= names:
            raise LedgerError("ledger_schema_1", path=path)
        if not names:
            raise LedgerError("ledger_no_game", path=path)
        raise LedgerDamaged("ledger_foreign_database", path=path)
    if version > VERSION:
        raise LedgerError("ledger_newer", path=path, version=version, supported=VERSION)
    if version < OLDEST_READABLE:
        raise LedgerDamaged("ledger_bad_version", path=path, version=version)
    return version


def upgrade(conn: sqlite3.Connection, found: int) -> None:
    """Apply the migrations after `found`, one transaction each; they only ever add."""
    for version in sorted(v for v in MIGRATIONS if v > found):
        _in_transaction(conn, functools.partial(_apply, conn, version))


_expected: list[tuple[str, ...]] | None = None


def expected_schema() -> list[tuple[str, ...]]:
    """The sqlite_master rows a current ledger holds: built once from MIGRATIONS in memory."""
    global _expected
    if _expected is None:
        mem = sqlite3.connect(":memory:", isolation_level=None)
        create(mem)
        _expected = schema_rows(mem)
        mem.close()
    return _expected


def schema_rows(conn: sqlite3.Connection) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = conn.execute(
        "SELECT type, name, tbl_name, COALESCE(sql, '') FROM sqlite_master ORDER BY type, name"
    ).fetchall()
    return rows


def _statements(script: str) -> list[str]:
    """Split a migration into statements, keeping trigger bodies whole."""
    out, current = [], []
    for line in script.strip().splitlines():
        current.append(line)
        joined = "\n".join(current).strip()
        if joined.endswith(";") and joined.count("BEGIN") == joined.count("END;"):
            out.append(joined)
            current = []
    if "\n".join(current).strip():
        out.append("\n".join(current).strip())
    return out
