"""Visible undo (docs/undo.md, companion/engine/game.py): a correcting event with the
negated postings, refused when a later event depends on the undone one, limited to a
window, never of the start or of another undo, and replayed like any event."""

import json

import pytest
from helpers import edition_variant, new, run

from companion import cli
from companion.editions import load_edition, rules_for
from companion.engine.state import Posting
from companion.errors import RuleViolation
from companion.table.service import new_game, open_game

PLAYERS = ["Anna", "Boris", "Vera"]


@pytest.fixture
def rules():
    return rules_for(load_edition("elite"))


def game_of(rules, *lines):
    game = new(rules, PLAYERS)
    run(game, *lines)
    return game


def refused(game, line):
    with pytest.raises(RuleViolation) as err:
        game.propose(line)
    return err.value


def test_undo_adds_a_correcting_event_and_money_returns(rules):
    """Elite: Anna rolls 1+2 onto leisure3 (price 70) and buys: 2000 -> 1930. `undo 3` is
    event 4, reverses event 3 with the opposite postings; Anna has 2000 again, leisure3 is free
    and offered to her again, as before the purchase."""
    game = game_of(rules, "roll 1 2", "buy")
    buy = game.events[2]
    assert game.state.cash("Anna") == 1930 and game.state.owner["leisure3"] == "Anna"
    bank_before = game.state.cash("bank")
    undo = game.apply("undo 3")
    assert (undo.seq, undo.command, undo.reverses) == (4, "undo 3", 3)
    assert undo.postings == tuple(Posting(p.account, -p.amount) for p in buy.postings)
    assert [n.code for n in undo.notes] == ["undone", "put_deed"] and undo.notes[0].params["event"] == 3
    # what to put back on the board: leisure3's deed goes back to the bank
    assert undo.notes[1].params == {"plot": "leisure3", "player": "bank"}
    s = game.state
    assert s.cash("Anna") == 2000 and s.cash("bank") == bank_before - 70
    assert "leisure3" not in s.owner
    assert s.pending.kind == "offer" and s.pending.plot == "leisure3"
    # both events stay in the history; event 3 is marked reversed
    assert [e.command for e in game.events] == [game.events[0].command, "roll 1 2", "buy", "undo 3"]
    assert game.reversed == {3}
    game.apply("buy")
    assert game.state.cash("Anna") == 1930


def test_undo_of_an_independent_earlier_event_keeps_the_later_ones(rules):
    """pay Anna->Boris 100, then pay Vera->Boris 50; undoing the first leaves the second:
    Anna 2000, Boris 2050, Vera 1950."""
    game = game_of(rules, "pay Anna Boris 100", "pay Vera Boris 50")
    game.apply("undo 2")
    s = game.state
    assert (s.cash("Anna"), s.cash("Boris"), s.cash("Vera")) == (2000, 2050, 1950)
    assert game.reversed == {2}


def test_undo_blocked_names_the_dependent_event(rules):
    """Undoing the roll that offered leisure3 would orphan the purchase (event 3): refused with
    undo_blocked naming event 3; undoing the purchase first, then the roll, works."""
    game = game_of(rules, "roll 1 2", "buy")
    err = refused(game, "undo 2")
    assert err.code == "undo_blocked"
    assert err.params["event"] == 2 and err.params["by"] == 3 and err.params["command"] == "buy"
    game.apply("undo 3")
    game.apply("undo 2")
    s = game.state
    assert s.position["Anna"] == 0 and s.phase == "setup" and s.pending is None
    assert s.signature() == new(rules, PLAYERS).state.signature()


def test_undo_blocked_when_later_spending_needs_the_money(rules):
    """Boris pays Anna 1500 (Anna 3500), Anna pays Vera 3000: without the first payment
    Anna could not pay the second, so `undo 2` is blocked by event 3."""
    game = game_of(rules, "pay Boris Anna 1500", "pay Anna Vera 3000")
    err = refused(game, "undo 2")
    assert err.code == "undo_blocked" and err.params["by"] == 3


def test_undo_beyond_the_window_is_refused(rules):
    """With undo_window = 3 only the last three events can be undone."""
    small = edition_variant("elite", {"undo_window": 3})  # the rules fixture is Elite's
    game = game_of(small, *["pay Anna Boris 1"] * 6)  # events 2..7
    err = refused(game, "undo 4")
    assert err.code == "too_old_to_undo" and err.params == {"event": 4, "window": 3}
    game.apply("undo 5")
    assert game.state.cash("Anna") == 2000 - 5


@pytest.mark.parametrize(
    "line, code",
    [
        ("undo 1", "cannot_undo_start"),
        ("undo 0", "no_such_event"),
        ("undo 99", "no_such_event"),
        ("undo x", "usage"),
        ("undo", "usage"),
    ],
)
def test_undo_refusals(rules, line, code):
    game = game_of(rules, "pay Anna Boris 10")
    assert refused(game, line).code == code


def test_undo_of_an_undo_and_a_second_undo_are_refused(rules):
    game = game_of(rules, "pay Anna Boris 10", "undo 2")
    assert refused(game, "undo 3").code == "cannot_undo_undo"
    assert refused(game, "undo 2").code == "already_undone"


def test_undo_survives_a_restart(tmp_path):
    """The undo is a stored event: reopening the ledger replays it to the same state, and
    the undone event stays undone."""
    db = str(tmp_path / "undo.sqlite")
    table = new_game(db, "elite", PLAYERS, 1)
    for line in ("roll 1 2", "buy", "undo 3"):
        table.submit(line)
    sig = table.state.signature()
    table.close()
    table = open_game(db)
    try:
        assert table.state.signature() == sig
        assert table.game.reversed == {3}
        assert table.state.cash("Anna") == 2000 and "leisure3" not in table.state.owner
        with pytest.raises(RuleViolation) as err:
            table.submit("undo 3")
        assert err.value.code == "already_undone"
        table.submit("decline")  # the game goes on: leisure3 to auction
        assert table.state.pending.kind == "auction"
    finally:
        table.close()
    reopened = open_game(db)
    assert len(reopened.game.events) == 5
    reopened.close()


def test_history_shows_the_undone_event_and_the_undo(tmp_path, capsys):
    """`companion history` lists both: the purchase marked (undone) and the undo event."""
    db = str(tmp_path / "h.sqlite")
    assert cli.main(["new", "--db", db, "elite", *PLAYERS, "--seed", "1"]) == 0
    for cmd in (["roll", "1", "2"], ["buy"], ["undo", "3"]):
        assert cli.main(["do", "--db", db, *cmd]) == 0
    capsys.readouterr()
    assert cli.main(["history", "--db", db]) == 0
    text = capsys.readouterr().out
    assert "#3 buy (undone)" in text and "#4 undo 3" in text
    assert "Event 3 (buy) reversed" in text
    assert cli.main(["history", "--db", db, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[2]["undone"] is True and rows[3]["reverses"] == 3
    assert rows[3]["postings"] == [[a, -n] for a, n in rows[2]["postings"]]


def test_undo_says_what_to_put_back_on_the_board(rules):
    """Issue 8, undo: the correcting event names what moves on the board, for the OLED and the
    phones: Anna's roll onto leisure3 undone puts her token back on START; a drawn card goes back
    on top of its deck."""
    game = game_of(rules, "roll 1 2")
    undo = game.apply("undo 2")
    assert [(n.code, n.params) for n in undo.notes[1:]] == [("put_token", {"player": "Anna", "cell": "start"})]
    game = game_of(rules, "roll 1 3")  # START -> chance1
    top = game.state.decks["chance"][0]
    game.apply("draw")
    undo = game.apply("undo 3")
    assert ("put_card_on_top", {"deck": "chance", "card": top}) in [(n.code, n.params) for n in undo.notes]
