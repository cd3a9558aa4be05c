"""The durable ledger (companion.ledger) and the table service (companion.table.service): append-only,
WAL + FULL, versioned schema, request ids bound to their command, exact restarts from checkpoints,
a hash chain anchored outside the file, and clear errors for files it must not trust."""

import random
import sqlite3
from dataclasses import replace

import pytest

from companion.bots.autoplay import next_command
from companion.editions import load_edition
from companion.engine.game import Game
from companion.engine.state import Posting
from companion.errors import (
    BadCommand,
    InvariantViolation,
    LedgerDamaged,
    LedgerError,
    RuleViolation,
)
from companion.ledger import schema
from companion.table.service import CHECKPOINT_EVERY, new_game, open_game, verify_game

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


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE events SET body = replace(body, 'roll', 'ROLL') WHERE seq = 2",
        "DELETE FROM events WHERE seq = 2",
        "UPDATE postings SET amount = amount + 1 WHERE seq = 1",
        "DELETE FROM postings WHERE seq = 1",
        "UPDATE checkpoints SET state = '{}'",
        "DELETE FROM resolutions",
        "UPDATE meta SET value = 'x' WHERE key = 'edition_id'",
        "DELETE FROM meta",
    ],
)
def test_ledger_rows_cannot_be_changed_or_deleted(db, statement):
    """The ledger is append-only: triggers refuse every UPDATE and DELETE (corrections are
    new events, see docs/undo.md)."""
    table = played(db, CHECKPOINT_EVERY + 2)
    table.submit("pay Anna Boris 1", request_id="r-1")
    table.submit("pay Anna Boris 1", request_id="r-1")  # a retry leaves a resolution row
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
    events, postings, request ids and hash chain survive and the game replays identically."""
    table = played(db, 30)
    table.submit("pay Anna Boris 5", request_id="before-migration")
    sig, count = table.state.signature(), len(table.game.events)
    table.close()
    later = schema.VERSION + 1
    v3 = "CREATE TABLE notes_index (seq INTEGER NOT NULL REFERENCES events(seq), code TEXT NOT NULL);"
    monkeypatch.setattr(schema, "MIGRATIONS", {**schema.MIGRATIONS, later: v3})
    monkeypatch.setattr(schema, "VERSION", later)
    monkeypatch.setattr(schema, "_expected", None)
    with pytest.raises(LedgerError, match="open it writable once"):
        open_game(db, readonly=True)
    table = open_game(db)
    try:
        conn = table.ledger.conn
        assert conn.execute("PRAGMA user_version").fetchone()[0] == later
        assert conn.execute("SELECT COUNT(*) FROM notes_index").fetchone()[0] == 0
        assert len(table.game.events) == count and table.state.signature() == sig
        again = table.submit("pay Anna Boris 5", request_id="before-migration")
        assert again.seq == count and len(table.game.events) == count
    finally:
        table.close()
    monkeypatch.setattr(schema, "_expected", None)


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
    """close + open_game (from a checkpoint and the events after it): same state signature,
    same player to move, and the game goes on exactly as the uninterrupted one does."""
    table = played(db, 2 * CHECKPOINT_EVERY + 90, seed=8)
    sig, turn, count = table.state.signature(), table.state.turn, len(table.game.events)
    twin = Game.replay(table.rules, table.game.events)  # an uninterrupted copy in memory
    table.close()
    table = open_game(db)
    try:
        assert table.state.signature() == sig and table.state.turn == turn
        assert len(table.game.events) == count and 2 not in table.game.events.cache
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
    with pytest.raises(LedgerError, match="already exists"):
        new_game(db, "elite", PLAYERS, 2)
    table = open_game(db)
    assert len(table.game.events) == 1
    table.close()


def test_event_reaches_memory_only_after_commit(db, monkeypatch):
    """If writing fails (disk full, I/O error) the game in memory does not move on."""
    table = new_game(db, "elite", PLAYERS, 1)
    sig = table.state.signature()

    from companion.ledger import store

    def failing_insert(self, row, checkpoint):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store._Writing, "insert", failing_insert)
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

    def broken(line, actor="table", trusted=False):
        proposal = real(line, actor, trusted)
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
    with pytest.raises(LedgerDamaged, match="not a companion ledger"):
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
        f.write(data[: int(len(data) * fraction)])
    with pytest.raises(LedgerError):
        open_game(db)


def test_an_empty_ledger_says_to_start_a_game(db):
    open(db, "wb").close()
    with pytest.raises(LedgerError, match="no game"):
        open_game(db)


def test_another_programs_sqlite_file_gives_a_ledger_error(db):
    conn = raw(db)
    conn.execute("CREATE TABLE meta (name TEXT, size INTEGER)")
    conn.close()
    before = open(db, "rb").read()
    with pytest.raises(LedgerDamaged, match="not a companion ledger"):
        open_game(db)
    assert open(db, "rb").read() == before  # not switched to WAL, not given a schema


def test_an_empty_file_is_left_empty(db):
    open(db, "wb").close()
    with pytest.raises(LedgerError, match="no game"):
        open_game(db)
    with pytest.raises(LedgerError, match="no game"):
        open_game(db, readonly=True)
    assert open(db, "rb").read() == b""


# ----- request ids are bound to their command (issue: every retry is answered from the ledger) ----


def test_a_request_id_reused_with_another_command_is_refused(db):
    table = new_game(db, "classic", ["Anna", "Boris"], 1)
    table.submit("pay Anna Boris 10", request_id="r-1")
    with pytest.raises(RuleViolation) as err:
        table.submit("pay Anna Boris 100", request_id="r-1")
    assert err.value.code == "request_reused"
    assert table.state.cash("Boris") - table.state.cash("Anna") == 20
    table.close()


def test_a_retry_from_a_table_that_is_behind_gets_the_stored_event(db):
    """The second table opened before the first wrote: it catches up, then answers the retry
    from the ledger instead of booking the payment again."""
    first = new_game(db, "classic", ["Anna", "Boris"], 1)
    behind = open_game(db)
    first.submit("pay Anna Boris 10", request_id="r-1")
    again = behind.submit("pay Anna Boris 10", request_id="r-1")
    assert again.seq == 2 and len(behind.game.events) == 2
    assert behind.state.cash("Boris") - behind.state.cash("Anna") == 20
    nxt = behind.submit("pay Boris Anna 5", request_id="r-2")
    assert nxt.seq == 3
    first.close()
    behind.close()
    assert verify_game(db).head()[0] == 3


def test_a_retried_roll_without_dice_gets_the_stored_dice(db):
    """The id is bound to the command as submitted (`roll`), before the dice are filled."""
    table = new_game(db, "classic", ["Anna", "Boris"], 1)
    first = table.submit("roll", request_id="r-1", rng=random.Random(3))
    again = table.submit("roll", request_id="r-1", rng=random.Random(4))
    assert again == first and first.command.startswith("roll ")
    with pytest.raises(RuleViolation):
        table.submit("roll 1 2", request_id="r-1")
    table.close()


def test_the_actor_is_stored_with_every_event(db):
    """Issue 7, point 1: the actor is stored with the event; the same request from another
    actor is another request, and a player cannot pay from someone else's cash."""
    table = new_game(db, "classic", ["Anna", "Boris"], 1)
    table.submit("pay Anna Boris 10", request_id="r-1")
    table.submit("pay anna Boris 5", request_id="r-2", actor="anna")
    assert [(r.actor, r.event.command) for r in table.stored_events()][1:] == [
        ("table", "pay Anna Boris 10"),
        ("Anna", "pay anna Boris 5"),
    ]
    with pytest.raises(RuleViolation, match="for_yourself"):
        table.submit("pay Boris Anna 10", actor="Anna")
    with pytest.raises(RuleViolation, match="request_reused") as err:
        table.submit("pay Anna Boris 10", request_id="r-1", actor="Anna")
    assert (err.value.params["stored"], err.value.params["submitted"]) == (
        "pay Anna Boris 10",
        "Anna: pay Anna Boris 10",
    )  # the same words, another actor: say so
    table.close()
    again = open_game(db)
    assert [e.actor for e in again.game.events] == ["table", "table", "Anna"]
    again.close()


# ----- nothing stored that cannot be replayed ------------------------------------------------------


@pytest.mark.parametrize("seed", [-5, 2**64, True])
def test_a_seed_outside_64_bits_is_refused_and_nothing_is_written(db, seed):
    with pytest.raises(BadCommand):
        new_game(db, "classic", ["Anna", "Boris"], seed)
    import os

    assert not os.path.exists(db)


def test_the_largest_seed_replays(db):
    new_game(db, "classic", ["Anna", "Boris"], 2**64 - 1).close()
    assert verify_game(db).head()[0] == 1


def test_a_game_written_under_other_rules_that_no_longer_replays_is_refused_naming_the_version(db, monkeypatch):
    table = played(db, 30)
    table.close()
    from companion.table import opening as table_module

    monkeypatch.setattr(table_module, "RULES_VERSION", 99)
    # the stored game replays identically under "version 99": it opens
    assert open_game(db).head()[0] == 30
    real = Game.propose

    def different(self, line, actor="table", trusted=False):
        proposal = real(self, line, actor, trusted)
        if proposal.event.seq == 7:
            return replace(proposal, event=replace(proposal.event, notes=()))
        return proposal

    monkeypatch.setattr(Game, "propose", different)
    from companion.engine.rulesets import RULES_VERSION  # the version that wrote the game

    with pytest.raises(LedgerError, match=f"rules version {RULES_VERSION}.*rules version 99"):
        open_game(db)


# ----- opening from checkpoints ----------------------------------------------------------------------


def test_opening_from_a_checkpoint_gives_the_same_game_and_undo_window_as_a_full_replay(db):
    table = played(db, 3 * CHECKPOINT_EVERY + 97, seed=11)
    for seq in (len(table.game.events) - 3, len(table.game.events) - 20):
        try:
            table.submit(f"undo {seq}")
        except RuleViolation:
            pass
    table.close()
    quick = open_game(db)
    full = verify_game(db)
    assert quick.ledger.conn.execute("SELECT COUNT(*) FROM checkpoints").fetchone()[0] >= 3
    assert 2 not in quick.game.events.cache  # rebuilt from a checkpoint, not from event 1
    assert quick.state.signature() == full.state.signature()
    assert sorted(quick.game.after) == sorted(full.game.after)
    assert quick.game.reversed == full.game.reversed
    n = len(full.game.events)
    for seq in range(n - 60, n + 1):
        outcomes = []
        for t in (quick, full):
            try:
                outcomes.append(t.game.propose(f"undo {seq}").event)
            except RuleViolation as exc:
                outcomes.append(exc.code)
        assert outcomes[0] == outcomes[1], seq
    quick.close()
    full.close()
