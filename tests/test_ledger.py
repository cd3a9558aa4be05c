"""The durable ledger (companion.ledger): append-only, WAL + FULL, versioned schema,
idempotent request ids, exact restarts, clear errors on bad files, and a halt when
the stored postings disagree with the replay (money must never be silently wrong)."""
import random
import sqlite3
from dataclasses import replace

import pytest

from companion.autoplay import next_command
from companion.editions import load_edition
from companion.engine.game import Game
from companion.engine.state import Posting
from companion.errors import InvariantViolation, LedgerError
from companion.ledger import schema
from companion.ledger.store import Ledger, new_game, open_game

PLAYERS = ["Anna", "Boris", "Vera"]


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "game.sqlite")


def played(db, events=40, seed=5):
    """A game on disk with some autoplay events, returned open."""
    table = new_game(db, "elite", PLAYERS, seed)
    rng = random.Random(seed)
    while len(table.game.events) < events and table.state.phase != "over":
        line, _ = next_command(table.game, rng)
        table.submit(line)
    return table


def raw(db):
    return sqlite3.connect(db, isolation_level=None)


# ----- append-only ---------------------------------------------------------------------------

@pytest.mark.parametrize("statement", [
    "UPDATE events SET command = 'roll 6 6' WHERE seq = 2",
    "DELETE FROM events WHERE seq = 2",
    "UPDATE postings SET amount = amount + 1 WHERE seq = 1",
    "DELETE FROM postings WHERE seq = 1",
    "UPDATE requests SET seq = 1",
    "DELETE FROM requests",
    "UPDATE meta SET value = 'x' WHERE key = 'edition_id'",
    "DELETE FROM meta",
])
def test_ledger_rows_cannot_be_changed_or_deleted(db, statement):
    """The ledger is append-only: triggers refuse every UPDATE and DELETE (corrections are
    new events, see docs/undo.md)."""
    table = played(db, 10)
    table.submit("pay Anna Boris 1", request_id="r-1")
    table.close()
    conn = raw(db)
    with pytest.raises(sqlite3.DatabaseError, match="append-only|fixed when the game starts"):
        conn.execute(statement)
    conn.close()
    open_game(db).close()


def test_connection_uses_wal_synchronous_full_and_foreign_keys(db):
    """Durability settings of every ledger connection: WAL journal, synchronous=FULL (2)."""
    table = new_game(db, "elite", PLAYERS, 1)
    conn = table.ledger.conn
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    table.close()
    table = open_game(db)
    assert table.ledger.conn.execute("PRAGMA synchronous").fetchone()[0] == 2
    table.close()


# ----- schema version and migrations ---------------------------------------------------------

def test_new_ledger_carries_the_schema_version_and_the_edition(db):
    table = new_game(db, "elite", PLAYERS, 1)
    table.close()
    conn = raw(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.VERSION >= 1
    meta = dict(conn.execute("SELECT key, value FROM meta"))
    assert meta["edition_id"] == "elite" and meta["edition_text"] == load_edition("elite").text
    conn.close()


def test_migrating_an_existing_ledger_keeps_its_data(db, monkeypatch):
    """A later schema version is applied to an existing file on opening; the game's
    events, postings and request ids survive and the game replays identically."""
    table = played(db, 30)
    table.submit("pay Anna Boris 5", request_id="before-migration")
    sig, count = table.state.signature(), len(table.game.events)
    table.close()
    v2 = "CREATE TABLE notes_index (seq INTEGER NOT NULL REFERENCES events(seq), code TEXT NOT NULL);"
    monkeypatch.setattr(schema, "MIGRATIONS", schema.MIGRATIONS + [v2])
    monkeypatch.setattr(schema, "VERSION", len(schema.MIGRATIONS))
    table = open_game(db)
    try:
        conn = table.ledger.conn
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.VERSION
        assert conn.execute("SELECT COUNT(*) FROM notes_index").fetchone()[0] == 0
        assert len(table.game.events) == count and table.state.signature() == sig
        again = table.submit("pay Anna Boris 5", request_id="before-migration")
        assert again.seq == count and len(table.game.events) == count
    finally:
        table.close()


def test_ledger_from_a_newer_companion_is_refused(db):
    new_game(db, "elite", PLAYERS, 1).close()
    conn = raw(db)
    conn.execute(f"PRAGMA user_version = {schema.VERSION + 1}")
    conn.close()
    with pytest.raises(LedgerError, match="newer"):
        open_game(db)


# ----- request ids ------------------------------------------------------------------------------

def test_same_request_id_twice_writes_one_event(db):
    """A retried command (the reader resending after a lost reply) is stored once."""
    table = new_game(db, "elite", PLAYERS, 1)
    first = table.submit("pay Anna Boris 100", request_id="reader-1-17")
    again = table.submit("pay Anna Boris 100", request_id="reader-1-17")
    assert again.seq == first.seq == 2
    assert len(table.game.events) == 2
    assert table.state.cash("Anna") == 1900 and table.state.cash("Boris") == 2100
    table.close()
    table = open_game(db)
    assert table.submit("pay Anna Boris 100", request_id="reader-1-17").seq == 2
    assert len(table.game.events) == 2 and table.state.cash("Anna") == 1900
    assert table.ledger.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 2
    other = table.submit("pay Anna Boris 100", request_id="reader-1-18")
    assert other.seq == 3 and table.state.cash("Anna") == 1800
    table.close()


def test_retried_roll_with_the_same_request_id_returns_the_stored_event(db):
    """Request ids make a retry idempotent (ledger/store.py): the reader resends `roll 1 2`
    because the reply was lost; the table must answer with event 2, not a refusal."""
    table = new_game(db, "elite", PLAYERS, 1)
    first = table.submit("roll 1 2", request_id="reader-1-1")
    try:
        again = table.submit("roll 1 2", request_id="reader-1-1")
        assert again.seq == first.seq and len(table.game.events) == 2
    finally:
        table.close()


# ----- restarts ----------------------------------------------------------------------------------

def test_restart_resumes_the_game_exactly(db):
    """close + open_game replays every event: same state signature, same player to move,
    and the game goes on exactly as the uninterrupted one does."""
    table = played(db, 60, seed=8)
    sig, turn, count = table.state.signature(), table.state.turn, len(table.game.events)
    twin = Game.replay(table.rules, table.game.events)      # an uninterrupted copy in memory
    table.close()
    table = open_game(db)
    try:
        assert table.state.signature() == sig and table.state.turn == turn
        assert len(table.game.events) == count
        rng = random.Random(99)
        for _ in range(30):
            if table.state.phase == "over":
                break
            line, _ = next_command(table.game, rng)
            table.submit(line)
            twin.apply(line)
            assert table.state.signature() == twin.state.signature()
    finally:
        table.close()


def test_game_keeps_the_edition_it_started_with(tmp_path, db):
    """The ledger stores the edition file's text: editing (or breaking) the file later does
    not change a running game."""
    path = tmp_path / "mine.toml"
    path.write_text(load_edition("elite").text, encoding="utf-8")
    table = new_game(db, str(path), PLAYERS, 3)
    table.submit("roll 1 2")
    sig = table.state.signature()
    table.close()
    path.write_text("this is [not toml", encoding="utf-8")
    table = open_game(db)
    assert table.state.signature() == sig
    table.close()


def test_a_second_game_in_the_same_file_is_refused(db):
    new_game(db, "elite", PLAYERS, 1).close()
    with pytest.raises(LedgerError, match="already holds a game"):
        new_game(db, "elite", PLAYERS, 2)
    table = open_game(db)
    assert len(table.game.events) == 1
    table.close()


def test_event_reaches_memory_only_after_commit(db, monkeypatch):
    """If writing fails (disk full, I/O error) the game in memory does not move on."""
    table = new_game(db, "elite", PLAYERS, 1)
    sig = table.state.signature()

    def failing_insert(self, event, request_id):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(Ledger, "_insert", failing_insert)
    with pytest.raises(LedgerError, match="disk I/O error"):
        table.submit("pay Anna Boris 10")
    assert table.state.signature() == sig and len(table.game.events) == 1
    monkeypatch.undo()
    assert table.submit("pay Anna Boris 10").seq == 2
    table.close()
    table = open_game(db)
    assert len(table.game.events) == 2 and table.state.cash("Anna") == 1990
    table.close()


def test_unbalanced_event_halts_the_bank(db, monkeypatch):
    """A proposal whose postings do not sum to zero is a bug: nothing is written and the
    table refuses every further command."""
    table = new_game(db, "elite", PLAYERS, 1)
    real = table.game.propose

    def broken(line):
        proposal = real(line)
        return replace(proposal, event=replace(proposal.event, postings=(Posting("Anna", 5),)))

    monkeypatch.setattr(table.game, "propose", broken)
    with pytest.raises(InvariantViolation):
        table.submit("pay Anna Boris 10")
    monkeypatch.undo()
    with pytest.raises(InvariantViolation, match="halted"):
        table.submit("pay Anna Boris 10")
    assert table.ledger.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 1
    table.close()


# ----- bad files -----------------------------------------------------------------------------------

def test_random_bytes_are_not_a_ledger(db):
    with open(db, "wb") as f:
        f.write(random.Random(1).randbytes(8192))
    with pytest.raises(LedgerError) as err:
        open_game(db)
    assert db in str(err.value)


def test_a_text_file_is_not_a_ledger(db):
    with open(db, "w") as f:
        f.write("Anna 2000\nBoris 2000\n" * 50)
    with pytest.raises(LedgerError, match="not a usable ledger"):
        open_game(db)


@pytest.mark.parametrize("fraction", [0.1, 0.5, 0.9])
def test_a_truncated_ledger_gives_a_clear_error(db, fraction):
    table = played(db, 80)
    table.close()
    conn = raw(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = open(db, "rb").read()
    with open(db, "wb") as f:
        f.write(data[:int(len(data) * fraction)])
    with pytest.raises((LedgerError, InvariantViolation)):
        open_game(db)


def test_an_empty_ledger_says_to_start_a_game(db):
    open(db, "wb").close()
    with pytest.raises(LedgerError, match="no game"):
        open_game(db)


def test_another_programs_sqlite_file_gives_a_ledger_error(db):
    conn = raw(db)
    conn.execute("CREATE TABLE meta (name TEXT, size INTEGER)")
    conn.close()
    with pytest.raises(LedgerError):
        open_game(db)


# ----- stored postings that disagree with the replay ----------------------------------------------

def tamper(db, *statements):
    conn = raw(db)
    for name in ("events_no_update", "events_no_delete", "postings_no_update", "postings_no_delete"):
        conn.execute(f"DROP TRIGGER {name}")
    for statement in statements:
        conn.execute(statement)
    conn.close()


def money_event(db):
    table = new_game(db, "elite", PLAYERS, 1)
    table.submit("pay Anna Boris 100")
    table.submit("pay Boris Vera 30")
    table.close()


def test_changed_posting_amounts_halt_on_opening(db):
    """Both legs changed (still summing to zero): the replay disagrees, the bank halts."""
    money_event(db)
    tamper(db, "UPDATE postings SET amount = amount * 2 WHERE seq = 2")
    with pytest.raises(InvariantViolation, match="event 2"):
        open_game(db)


def test_extra_postings_halt_on_opening(db):
    money_event(db)
    tamper(db, "INSERT INTO postings(seq, leg, account, amount) VALUES (3, 2, 'bank', -500)",
           "INSERT INTO postings(seq, leg, account, amount) VALUES (3, 3, 'Vera', 500)")
    with pytest.raises(InvariantViolation, match="event 3"):
        open_game(db)


def test_a_gap_in_the_events_halts_on_opening(db):
    money_event(db)
    tamper(db, "DELETE FROM postings WHERE seq = 2", "DELETE FROM events WHERE seq = 2")
    with pytest.raises(InvariantViolation, match="gap"):
        open_game(db)


def test_a_stored_command_the_rules_refuse_halts_on_opening(db):
    money_event(db)
    tamper(db, "UPDATE events SET command = 'pay Anna Boris 999999' WHERE seq = 2")
    with pytest.raises(InvariantViolation, match="event 2"):
        open_game(db)


def test_a_stale_second_writer_gets_a_ledger_error(db):
    """One writer per ledger (ledger/store.py): the stale one must be told clearly."""
    first = new_game(db, "elite", PLAYERS, 1)
    second = open_game(db)
    try:
        first.submit("pay Anna Boris 5")
        with pytest.raises(LedgerError):
            second.submit("pay Anna Boris 7")
    finally:
        first.close()
        second.close()
