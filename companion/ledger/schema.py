"""The ledger's schema and its migrations, versioned with PRAGMA user_version.

Migrations only ever add: a new version is a new entry at the end of
MIGRATIONS, applied in one transaction. Nothing here drops or rewrites data.
"""
from companion.errors import LedgerError

MIGRATIONS = [
    # version 1: meta, events, postings; append-only by trigger
    """
    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE events (
        seq        INTEGER PRIMARY KEY,
        command    TEXT NOT NULL,
        reverses   INTEGER REFERENCES events(seq),
        notes      TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    -- client request ids (the reader's boot+seq, a web form's token) make a
    -- retried command idempotent; only commands that carry one write a row here
    CREATE TABLE requests (
        request_id TEXT PRIMARY KEY,
        seq        INTEGER NOT NULL REFERENCES events(seq)
    ) WITHOUT ROWID;
    CREATE TABLE postings (
        seq     INTEGER NOT NULL REFERENCES events(seq),
        leg     INTEGER NOT NULL,
        account TEXT NOT NULL,
        amount  INTEGER NOT NULL,
        PRIMARY KEY (seq, leg)
    );
    CREATE TRIGGER events_no_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
    CREATE TRIGGER events_no_delete BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
    CREATE TRIGGER postings_no_update BEFORE UPDATE ON postings
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
    CREATE TRIGGER postings_no_delete BEFORE DELETE ON postings
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
    CREATE TRIGGER requests_no_update BEFORE UPDATE ON requests
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
    CREATE TRIGGER requests_no_delete BEFORE DELETE ON requests
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
    CREATE TRIGGER meta_no_update BEFORE UPDATE ON meta
        BEGIN SELECT RAISE(ABORT, 'game settings are fixed when the game starts'); END;
    CREATE TRIGGER meta_no_delete BEFORE DELETE ON meta
        BEGIN SELECT RAISE(ABORT, 'game settings are fixed when the game starts'); END;
    """,
]

VERSION = len(MIGRATIONS)


def migrate(conn):
    """Bring a connection's database up to VERSION; returns the version found."""
    found = conn.execute("PRAGMA user_version").fetchone()[0]
    if found > VERSION:
        raise LedgerError(f"the ledger was written by a newer companion (schema {found}, this one knows {VERSION})")
    if found == 0 and conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]:
        # tables but no schema version: another program's database, never ours to change
        raise LedgerError("this SQLite file belongs to another program (it has tables but no companion schema)")
    for version in range(found, VERSION):
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in _statements(MIGRATIONS[version]):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {version + 1}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return found


def _statements(script):
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
