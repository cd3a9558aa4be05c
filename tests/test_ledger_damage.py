"""The ledger against damage (companion.ledger.chain, anchor; verify and recover): edited, dropped or forked
files, a lost WAL, copies, strangers' games, deleted anchors and damaged checkpoints are each detected, and
recover continues from the last verified event. Split from test_ledger.py."""

import pytest
from test_ledger import raw

from companion.errors import (
    LedgerDamaged,
    StrangerGame,
)
from companion.ledger import chain, schema
from companion.table.service import new_game, open_game, verify_game


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "game.sqlite")


# ----- tampering: the chain and the anchor outside the file ------------------------------------------


def money_game(db, n=6):
    table = new_game(db, "classic", ["Anna", "Boris"], 1)
    for i in range(n):
        table.submit(f"pay Anna Boris {i + 1}")
    table.close()


def drop_triggers(conn):
    names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")]
    for name in names:
        conn.execute(f"DROP TRIGGER {name}")
    return names


def restore_triggers(conn):
    for version in sorted(schema.MIGRATIONS):
        for statement in schema._statements(schema.MIGRATIONS[version]):
            if statement.startswith("CREATE TRIGGER"):
                conn.execute(statement)


def recompute_chain(conn):
    """What an attacker who read chain.py does after editing rows: every body and hash made right
    again (the postings in each body taken from the postings table)."""
    meta = dict(conn.execute("SELECT key, value FROM meta"))
    prev = chain.genesis(meta)
    for seq, body in conn.execute("SELECT seq, body FROM events ORDER BY seq").fetchall():
        fields = chain.split_body(body)
        legs = conn.execute("SELECT account, amount FROM postings WHERE seq = ? ORDER BY leg", (seq,)).fetchall()
        fields.update(seq=seq, legs=chain.legs_text(legs))
        body = chain.join_body(fields)
        h = chain.link(prev, body)
        conn.execute("UPDATE events SET body = ?, hash = ? WHERE seq = ?", (body, h, seq))
        prev = h


def edit_field(seq, field, value):
    """SQL that rewrites one field of an event's body (the attacker's sqlite3 shell, with Python's help)."""

    def statement(conn):
        (body,) = conn.execute("SELECT body FROM events WHERE seq = ?", (seq,)).fetchone()
        fields = chain.split_body(body)
        fields[field] = value
        conn.execute("UPDATE events SET body = ? WHERE seq = ?", (chain.join_body(fields), seq))

    return statement


def append_payment(conn):
    """A hand-made event 8 paying Anna 500 from Boris, copied from event 7's shape."""
    (body,) = conn.execute("SELECT body FROM events WHERE seq = 7").fetchone()
    fields = chain.split_body(body)
    fields.update(
        request_id="forged",
        seq=8,
        submitted="pay Boris Anna 500",
        command="pay Boris Anna 500",
        legs="Boris:-500;Anna:500",
    )
    conn.execute(
        "INSERT INTO events(seq, request_id, body, hash) VALUES (8, 'forged', ?, 'x')", (chain.join_body(fields),)
    )
    conn.execute("INSERT INTO postings VALUES (8, 0, 'Boris', -500)")
    conn.execute("INSERT INTO postings VALUES (8, 1, 'Anna', 500)")


def attack(db, statements, recompute):
    conn = raw(db)
    drop_triggers(conn)
    for statement in statements:
        if callable(statement):
            statement(conn)
        else:
            conn.execute(statement)
    if recompute:
        recompute_chain(conn)
    restore_triggers(conn)
    conn.close()


TAMPERING = {
    "delete the last events": ["DELETE FROM postings WHERE seq >= 6", "DELETE FROM events WHERE seq >= 6"],
    "append a hand-made payment": [append_payment],
    "rewrite a command with its postings": [
        edit_field(3, "command", "pay Anna Boris 9"),
        edit_field(3, "submitted", "pay Anna Boris 9"),
        edit_field(3, "legs", "Anna:-9;Boris:9"),
        "UPDATE postings SET amount = -9 WHERE seq = 3 AND leg = 0",
        "UPDATE postings SET amount = 9 WHERE seq = 3 AND leg = 1",
    ],
    "edit the stored edition text": [
        "UPDATE meta SET value = replace(value, 'start_cash = ', 'start_cash = 1') WHERE key = 'edition_text'"
    ],
    "change a request id (the indexed copy)": ["UPDATE events SET request_id = 'other' WHERE seq = 4"],
    "change a request id (everywhere)": [
        "UPDATE events SET request_id = 'other' WHERE seq = 4",
        edit_field(4, "request_id", "other"),
    ],
}


@pytest.mark.parametrize("recompute", [False, True], ids=["hashes left", "chain recomputed"])
@pytest.mark.parametrize("case", sorted(TAMPERING))
def test_tampering_is_detected(db, case, recompute):
    money_game(db)
    attack(db, TAMPERING[case], recompute)
    with pytest.raises(LedgerDamaged):
        open_game(db, readonly=True)
    with pytest.raises(LedgerDamaged):
        open_game(db)


def test_dropped_triggers_are_detected(db):
    money_game(db)
    conn = raw(db)
    conn.execute("DROP TRIGGER postings_no_update")
    conn.close()
    with pytest.raises(LedgerDamaged, match="postings_no_update"):
        open_game(db, readonly=True)


def test_a_lost_wal_after_a_crash_is_detected(db, tmp_path):
    """Deleting the -wal of a crashed game drops committed events: the anchor still knows them."""
    import os
    import shutil

    money_game(db, 2)
    keep = raw(db)  # holds the -wal open so the commits stay in it
    table = open_game(db)
    for i in range(3):
        table.submit(f"pay Anna Boris {i + 10}")
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    shutil.copy(db, crashed / "game.sqlite")  # the main file as a crash leaves it, without the -wal
    table.close()
    keep.close()
    with pytest.raises(LedgerDamaged, match="went back"):
        open_game(str(crashed / "game.sqlite"))
    assert os.path.exists(db)


def test_a_forked_copy_is_detected(db, tmp_path):
    import shutil

    money_game(db, 2)
    copy = str(tmp_path / "copy.sqlite")
    shutil.copy(db, copy)
    a = open_game(db)
    a.submit("pay Anna Boris 50")
    a.close()
    with pytest.raises(LedgerDamaged, match="went back"):
        open_game(copy)  # writing a different event 4 there would fork the game


def test_without_an_anchor_the_game_is_a_strangers_read_only_until_accepted(db, tmp_path, monkeypatch):
    """A copied file (no anchor on this machine) is shown, never adopted by opening or booking: only adopt()
    (`companion accept`) makes it this machine's own."""
    money_game(db)
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "elsewhere"))
    for readonly in (True, False, False):
        table = open_game(db, readonly=readonly)
        assert table.stranger and table.readonly_reason.code == "stranger_copied"
        assert "has never kept game" in table.readonly_reason
        with pytest.raises(StrangerGame, match="Nothing was booked"):
            table.submit("pay Anna Boris 1")
        table.close()
    table = open_game(db)
    table.adopt()
    assert table.readonly_reason is None and table.submit("pay Anna Boris 1").seq == 8
    table.close()
    table = open_game(db, readonly=True)
    assert not table.stranger and table.readonly_reason is None and not table.warnings
    table.close()


def forge_under_a_new_game_id(conn):
    """The attack of issue 21: a new game id, a payment rewritten (command, postings), the chain recomputed."""
    conn.execute("UPDATE meta SET value = 'f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0' WHERE key = 'game_id'")
    for statement in TAMPERING["rewrite a command with its postings"]:
        statement(conn) if callable(statement) else conn.execute(statement)
    edit_field(3, "notes", '[{"code": "paid", "player": "Anna", "to": "Boris", "amount": 9}]')(conn)


def test_a_forged_ledger_under_a_new_game_id_is_a_strangers_and_never_adopted(db):
    money_game(db)
    attack(db, [forge_under_a_new_game_id], recompute=True)
    for readonly in (True, False):
        table = open_game(db, readonly=readonly)
        assert table.stranger and table.readonly_reason.code == "stranger_replaced"
        assert "now holds game f0f0f0f0" in table.readonly_reason
        with pytest.raises(StrangerGame):
            table.submit("pay Anna Boris 1")
        table.close()
    with pytest.raises(StrangerGame):
        verify_game(db).submit("pay Anna Boris 1")
    conn = raw(db)
    assert conn.execute("SELECT COUNT(*) FROM events").fetchone() == (7,)  # nothing was booked on it
    conn.close()


def test_a_file_copied_to_another_place_is_still_this_machines_game(db, tmp_path):
    """The place record only speaks for its own place: a copy elsewhere is checked by its anchor as before."""
    import shutil

    money_game(db)
    copy = str(tmp_path / "copy.sqlite")
    shutil.copy(db, copy)
    table = open_game(copy)
    assert not table.stranger
    table.close()


def test_an_archived_game_put_in_the_current_games_place_is_a_strangers(db, tmp_path):
    """Another of this machine's own games (its anchor agrees) copied over the file: a stranger at this place."""
    import shutil

    other = str(tmp_path / "other.sqlite")
    money_game(other)
    money_game(db)
    os_remove = __import__("os").remove
    os_remove(db)
    shutil.copy(other, db)
    table = open_game(db)
    assert table.stranger and table.readonly_reason.code == "stranger_replaced"
    table.adopt()
    table.close()
    assert not open_game(db, readonly=True).stranger


def test_a_deleted_anchor_makes_the_game_a_strangers(db, tmp_path):
    from companion.ledger.anchor import anchor_path, default_state_dir

    money_game(db)
    game_id = open_game(db, readonly=True).meta["game_id"]
    anchor_path(default_state_dir(), game_id).unlink()
    table = open_game(db)
    assert table.stranger and table.readonly_reason.code == "stranger_anchor_gone"
    table.close()


def test_a_new_game_is_never_a_strangers(db):
    new_game(db, "classic", ["Anna", "Boris"], 1).close()
    table = open_game(db, readonly=True)
    assert not table.stranger and table.readonly_reason is None
    table.close()


# ----- checkpoints: `verify` checks every one against the state replayed to it ------------------------------


def checkpoint_game(db, n=120):
    """A game past many checkpoints; opening uses only the newest one the undo window allows."""
    table = new_game(db, "classic", ["Anna", "Boris"], 1)
    for i in range(n - 1):
        table.submit(f"pay Anna Boris {i % 7 + 1}")
    table.close()


@pytest.mark.parametrize(
    "damage, code",
    [
        ("UPDATE checkpoints SET state = replace(state, '\"Anna\"', '\"Anne\"') WHERE seq = 90", "hash"),
        (
            "UPDATE checkpoints SET state = substr(state, 1, 40) || char((unicode(substr(state, 41, 1)) | 1) - "
            "(unicode(substr(state, 41, 1)) & 1)) || substr(state, 42) WHERE seq = 90",
            "hash",
        ),  # one bit flipped
        ("DELETE FROM checkpoints WHERE seq = 90", "missing"),
        ("INSERT INTO checkpoints(seq, state) SELECT 91, state FROM checkpoints WHERE seq = 90", "stray"),
    ],
)
def test_verify_checks_every_checkpoint(db, damage, code):
    """A damaged checkpoint that opening does not use yet: `verify` names it (the old verify said "verified",
    and 51 events later every open refused)."""
    checkpoint_game(db)
    attack(db, [damage], recompute=False)
    open_game(db, readonly=True).close()  # opening starts from event 60: not this one
    with pytest.raises(LedgerDamaged, match="checkpoint at event 9[01]") as caught:
        verify_game(db)
    assert caught.value.code == f"table_checkpoint_{code}"


def test_verify_checks_a_checkpoint_against_the_state_replayed_to_it(db, tmp_path, monkeypatch):
    """A checkpoint rewritten with its hash in the chain recomputed (a stranger's file: no anchor to catch it)."""
    checkpoint_game(db)

    def rewrite(conn):
        (text,) = conn.execute("SELECT state FROM checkpoints WHERE seq = 90").fetchone()
        text = text.replace('"Anna"', '"Anne"', 1)
        conn.execute("UPDATE checkpoints SET state = ? WHERE seq = 90", (text,))
        edit_field(90, "state_hash", chain.text_hash(text))(conn)

    attack(db, [rewrite], recompute=True)
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "elsewhere"))
    with pytest.raises(LedgerDamaged, match="checkpoint at event 90 does not match the game replayed") as caught:
        verify_game(db)
    assert caught.value.code == "table_checkpoint_state"


def test_a_chain_valid_file_whose_events_do_not_replay_is_damaged_not_a_halt(db, tmp_path, monkeypatch):
    """Postings rewritten with the chain recomputed, on a machine without its anchor: damaged (exit 6), not a
    broken invariant of this companion (the old open raised InvariantViolation: "BANK HALTED (a bug)")."""
    money_game(db)
    attack(
        db,
        [
            edit_field(3, "legs", "Anna:-9;Boris:9"),
            "UPDATE postings SET amount = -9 WHERE seq = 3 AND leg = 0",
            "UPDATE postings SET amount = 9 WHERE seq = 3 AND leg = 1",
        ],
        recompute=True,
    )
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "elsewhere"))
    for opening in (lambda: open_game(db, readonly=True), lambda: verify_game(db)):
        with pytest.raises(LedgerDamaged, match="event 3 does not replay") as caught:
            opening()
        assert caught.value.code == "table_replay_differs"


def test_recover_continues_from_the_last_verified_event_as_a_new_game(db, tmp_path):
    from companion.table.service import recover_game

    money_game(db)
    attack(db, [edit_field(5, "command", "pay Anna Boris 99")], recompute=False)
    with pytest.raises(LedgerDamaged):
        open_game(db)
    new, report = recover_game(db, str(tmp_path / "recovered.sqlite"))
    assert new.head()[0] == 4 and "recovered 4 events" in report[0]
    assert "recovered_from" in new.meta
    assert new.state.cash("Boris") - new.state.cash("Anna") == 2 * (1 + 2 + 3)
    new.close()
    assert verify_game(str(tmp_path / "recovered.sqlite")).head()[0] == 4


def test_a_backup_every_100_events_lets_recover_survive_a_ruined_file(db, tmp_path):
    from companion.table.service import BACKUP_EVERY, recover_game

    table = new_game(db, "classic", ["Anna", "Boris"], 1)
    for i in range(BACKUP_EVERY + 5):
        table.submit(f"pay {'Anna Boris' if i % 2 else 'Boris Anna'} {i + 1}")
    head = table.head()
    table.close()
    import os

    assert os.path.exists(db + ".backup")
    with open(db, "r+b") as f:  # the main file ruined past its header
        f.truncate(100)
    if os.path.exists(db + "-wal"):
        os.remove(db + "-wal")
    with pytest.raises(LedgerDamaged):
        open_game(db)
    new, report = recover_game(db, str(tmp_path / "again.sqlite"))
    assert new.head()[0] == BACKUP_EVERY and "backup" in report[0]
    assert any(f"{BACKUP_EVERY + 1}-{head[0]} are lost" in line for line in report)
    new.close()
