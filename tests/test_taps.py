"""What a tap or a ROLL does: only ever a command the rules allow now, otherwise a reason a person can read."""

import random

from companion.bots.autoplay import next_command
from companion.daemon.cards import Role
from companion.daemon.taps import dice_needed, end_meaning, roll_meaning, tap_meaning
from companion.engine.command import Command
from companion.table.service import new_game
from companion.words.messages import render


def elite(tmp_path, monkeypatch, players=("Anna", "Boris")):
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "state"))
    return new_game(":memory:", "elite", list(players), 1)


def test_roll_gives_the_turns_player_their_roll_with_the_readers_dice(tmp_path, monkeypatch):
    table = elite(tmp_path, monkeypatch)
    assert dice_needed(table.rules, table.state) == 2
    meaning = roll_meaning(table.rules, table.state, (3, 4))
    assert (meaning.actor, meaning.command) == ("Anna", Command("roll", ("3", "4")))


def test_roll_with_the_wrong_number_of_dice_or_when_nothing_needs_dice_is_refused(tmp_path, monkeypatch):
    table = elite(tmp_path, monkeypatch)
    assert roll_meaning(table.rules, table.state, (3,)).refusal == "roll_wrong_count"
    table.submit("roll 3 4")  # Anna lands on a plot for sale: a decision, not dice, is awaited
    assert dice_needed(table.rules, table.state) == 0
    assert roll_meaning(table.rules, table.state, (1, 2)).refusal == "roll_not_now"
    assert render("roll_not_now", {}, "ru") == "Сейчас кубики не нужны"


def test_the_plot_card_of_the_plot_on_offer_buys_it_for_the_player_deciding(tmp_path, monkeypatch):
    table = elite(tmp_path, monkeypatch)
    table.submit("roll 3 4")
    plot = table.state.pending.plot
    meaning = tap_meaning(table.rules, table.state, Role("plot", plot, "elite"))
    assert (meaning.actor, meaning.command) == ("Anna", Command("buy")) and meaning.confirm  # OK books it
    other = next(p for p in table.rules.edition.plots if p != plot)
    refusal = tap_meaning(table.rules, table.state, Role("plot", other, "elite"))
    assert refusal.refusal == "nothing_for_plot"
    shown = render(refusal.refusal, refusal.params, "en", table.rules.edition)
    assert shown == f"{table.rules.edition.plots[other].names['en']}: this card does nothing now"


def test_a_players_card_opens_that_players_menu_whatever_the_moment(tmp_path, monkeypatch):
    table = elite(tmp_path, monkeypatch)
    anna, boris = Role("player", "1"), Role("player", "2")
    assert tap_meaning(table.rules, table.state, anna).menu_for == "Anna"
    table.submit("roll 3 4")
    assert tap_meaning(table.rules, table.state, boris).menu_for == "Boris"
    assert tap_meaning(table.rules, table.state, boris).command is None  # a card alone books nothing


def test_roll_ends_the_turn_of_a_player_who_has_moved_and_only_then(tmp_path, monkeypatch):
    table = elite(tmp_path, monkeypatch)
    assert end_meaning(table.rules, table.state) is None  # Anna has not rolled yet
    table.submit("roll 3 4")
    assert end_meaning(table.rules, table.state) is None  # the plot on offer is decided first
    table.submit("buy")
    meaning = end_meaning(table.rules, table.state)
    assert meaning is not None and (meaning.actor, meaning.command) == ("Anna", Command("end"))


def test_with_the_tables_own_dice_a_plot_card_says_where_the_token_landed_after_a_confirmation(tmp_path, monkeypatch):
    """Rulebooks: the token moves by the throw; a table throwing its own dice reports the landing."""
    table = elite(tmp_path, monkeypatch)
    cell = table.rules.legal(table.state, verbs=("land",))[0].args[0].words[0]
    meaning = tap_meaning(table.rules, table.state, Role("plot", cell, "elite"))
    assert meaning.confirm and (meaning.actor, meaning.command) == ("table", Command("land", (cell,)))


def test_cards_of_another_box_or_an_empty_seat_are_refused_with_the_reason(tmp_path, monkeypatch):
    table = elite(tmp_path, monkeypatch)
    assert tap_meaning(table.rules, table.state, Role("plot", "p01", "monopoly")).refusal == "card_other_edition"
    meaning = tap_meaning(table.rules, table.state, Role("player", "5"))
    assert meaning.refusal == "no_such_seat"
    assert render(meaning.refusal, meaning.params, "en") == "This is player 5's card; this game has 2 players"


def test_the_reader_is_told_how_many_dice_the_game_needs_now(tmp_path, monkeypatch):
    """Mad Millionaire moves by one die, Elite's auctions roll three: ROLL gives what the rules ask."""
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "state"))
    mad = new_game(":memory:", "madmillionaire", ["Anna", "Boris"], 1)
    rng = random.Random(1)
    while dice_needed(mad.rules, mad.state) == 0:  # the businesses are claimed first, then play rolls
        mad.submit(next_command(mad.game, rng)[0])
    assert dice_needed(mad.rules, mad.state) == 1
    assert roll_meaning(mad.rules, mad.state, (5,)).command == Command("roll", ("5",))
    elite = new_game(":memory:", "elite", ["Anna", "Boris"], 3)
    # tests/scenarios/elite/02: Boris reaches the AUCTION cell (ПРАВИЛА АУКЦИОНА: three dice pick the plot)
    for line in (
        "roll 1 2",
        "buy",
        "end",
        "roll 1 1",
        "buy",
        "roll 3 5",
        "end",
        "roll 4 5",
        "decline",
        "hammer",
        "end",
        "pay_fine",
        "roll 2 4",
    ):
        elite.submit(line)
    assert elite.state.pending.kind == "auction_roll"
    assert dice_needed(elite.rules, elite.state) == 3
    meaning = roll_meaning(elite.rules, elite.state, (1, 1, 2))
    assert (meaning.actor, meaning.command) == ("Boris", Command("auction_roll", ("1", "1", "2")))
