"""Millionaire Elite rule by rule: CHANCE and FORTUNE cards.

Against the Russian rulebook (millionaire-elite-ru.txt), section by section; the board,
the shared helpers and how these tests are written: tests/elite_helpers.py.
"""

import pytest
from elite_helpers import (
    NO_CHANCE_AT_9,
    PLAYERS,
    arrange,
    cash,
    fortune_card,
    new,
    on_fortune,
    play,
    refused,
)
from helpers import edition_variant

from companion.errors import RuleViolation

# ===== ШАНС ===============================================================================


def test_chance_card_goes_to_the_bottom():
    """ШАНС: the card «кладёт ... в низ колоды» after the instruction."""
    g = new()
    play(g, "roll 1 3")  # START -> chance1
    top = g.state.decks["chance"][0]
    play(g, "draw")  # the top card (seed 1: c02, pay 50)
    assert g.state.decks["chance"][-1] == top
    assert len(g.state.decks["chance"]) == 20


def test_chance_personal_payment_and_receipt():
    """ШАНС: a personal instruction for the player who drew it (c01 +100, c02 -50)."""
    g = new()
    play(g, "roll 1 3", "draw c01")
    assert cash(g, "Anna") == 2100 and cash(g, "Boris") == 2000
    play(g, "end")
    play(g, "roll 1 3", "draw c02")
    assert cash(g, "Boris") == 1950


def test_chance_nearest_fortune_tie_is_the_players_choice_behind():
    """ШАНС: nearest ФОРТУНА from chance1 is 10 ahead and 10 behind: the player chooses (behind)."""
    g = new()
    arrange(g, held={("Anna", "shares"): 1})
    play(g, "roll 1 3", "draw c05")
    assert g.state.pending.kind == "choose"
    refused(g, "choose exchange1", "not_an_option")
    play(g, "choose fortune2")  # back to 34: nothing passed
    assert g.state.position["Anna"] == 34
    assert g.state.pending.kind == "draw" and g.state.pending.stage == "fortune"
    assert cash(g, "Anna") == 2000


def test_chance_nearest_fortune_tie_is_the_players_choice_ahead():
    """ШАНС: choosing the cell ahead moves forward, passing TAX INSPECTION (circle tax)."""
    g = new()
    arrange(g, held={("Anna", "shares"): 1})
    play(g, "roll 1 3", "draw c05", "choose fortune1")
    assert g.state.position["Anna"] == 14
    assert cash(g, "Anna") == 2000 - 10


def test_chance_nearest_exchange_gives_an_exchange_visit():
    """ШАНС / ИГРА НА БИРЖЕ: «или согласно указанию карточки ШАНС» the player plays the exchange."""
    g = new()
    play(g, "roll 1 3", "draw c04")  # chance1 -> exchange1 (2 ahead, 8 behind)
    assert g.state.position["Anna"] == 6
    play(g, "exchange 6 1")
    assert g.state.extra["price"] == 110


def test_chance_nearest_chance_behind_passes_no_start():
    """ШАНС: the nearest ШАНС may lie behind, across START; moving back there pays nothing.
    In the shipped cell order (a placeholder) chance2 is 5 cells after chance1, nearer than
    chance3 7 behind; on a board with an EXCHANGE at cell 9 instead, the nearest ШАНС from
    chance1 is chance3, 7 behind (33 ahead)."""
    g = new()
    play(g, "roll 1 3", "draw c06")  # shipped board: forward to chance2 (9)
    assert g.state.position["Anna"] == 9
    g = new(rules=edition_variant("elite", replace=[NO_CHANCE_AT_9]))
    play(g, "roll 1 3", "draw c06")  # 4 -> back to 37, over START
    assert g.state.position["Anna"] == 37
    assert g.state.pending.kind == "draw" and g.state.pending.stage == "chance"
    assert cash(g, "Anna") == 2000


def test_chance_to_start_pays_circle_income():
    """ШАНС / КРУГОВОЙ ДОХОД: a card moving forward to START pays the circle income (card_move_collects)."""
    g = new()
    arrange(g, held={("Anna", "shares"): 2})
    play(g, "roll 1 3", "draw c03")  # around: passes TAX INSPECTION (20), lands START
    assert g.state.position["Anna"] == 0
    assert cash(g, "Anna") == 2000 - 20 + 200 + 40


# ===== ФОРТУНА ============================================================================


def test_fortune_is_collective_and_not_returned():
    """ФОРТУНА: a collective instruction; the card goes to the wheel, not back into the deck."""
    g = new()
    on_fortune(g)
    play(g, "draw f27")  # every player pays 50
    for p in PLAYERS:
        assert cash(g, p) == 1950
    assert "f27" not in g.state.decks["fortune"]
    assert g.state.discards["fortune"] == ("f27",)


def test_fortune_share_price_points_with_floor_at_zero():
    """ФОРТУНА / ИГРА НА БИРЖЕ: a FORTUNE card moves the price; «Ниже нуля ... опуститься не может»."""
    g = new()
    on_fortune(g)
    play(g, "draw f25")  # +3 points
    assert g.state.extra["price"] == 130
    g = new()
    arrange(g, price=20)
    on_fortune(g)
    play(g, "draw f26")  # -3 points (30) from 20
    assert g.state.extra["price"] == 0


def test_long_term_fortune_card_in_force_until_the_next_fortune_card():
    """ФОРТУНА: a long-term card holds «до того момента, пока из колоды не будет вытянута следующая карточка»."""
    g = new()
    arrange(g, held={("Anna", "shares"): 5, ("Boris", "shares"): 5})
    on_fortune(g)
    play(g, "draw f23", "end")  # dividends 50% now
    arrange(g, turn="Boris", phase="roll", position={"Boris": "exchange3"})
    play(g, "roll 1 3")  # Boris lands on START: 200 + 50% of 500
    assert cash(g, "Boris") == 2000 + 200 + 250
    play(g, "end")
    on_fortune(g, "Vera")
    play(g, "draw f28")  # the next FORTUNE card (+50 each) ends f23
    assert cash(g, "Boris") == 2450 + 50
    play(g, "end")
    arrange(g, turn="Anna", phase="roll", position={"Anna": "exchange3"})
    play(g, "roll 1 3")  # back to 20%: 200 + 100
    assert cash(g, "Anna") == 2000 + 50 + 300


def test_long_term_circle_income_card():
    """ФОРТУНА / КРУГОВОЙ ДОХОД: «Если в этот момент игры не действуют особые указания карточек ФОРТУНЫ».
    The shipped deck has no circle income card: f20 is rewritten as the old placeholder's
    «circle income 300 until the next FORTUNE card»."""
    g = new(
        rules=edition_variant(
            "elite",
            replace=[
                fortune_card(
                    "f20",
                    "Круговой доход 300 до следующей карточки ФОРТУНЫ.",
                    '{ do = "circle_income", amount = 300 }',
                    long_term=True,
                )
            ],
        )
    )
    on_fortune(g)
    play(g, "draw f20", "end")  # circle income 300 now
    arrange(g, turn="Boris", phase="roll", position={"Boris": "exchange3"})
    play(g, "roll 1 3")
    assert cash(g, "Boris") == 2300


def test_two_fortune_cards_on_the_wheel_first_drawn_wins():
    """ФОРТУНА: with two cards on the wheel (a CHANCE card) «предпочтение отдаётся карточке, вытянутой первой»."""
    g = new()
    arrange(g, position={"Anna": "heavy3"}, held={("Anna", "shares"): 5}, fortune_top=("f30", "f23"))
    play(g, "roll 2 2", "draw c14")  # 33 -> 37 chance3: two FORTUNE cards to draw
    assert g.state.pending.kind == "draw" and g.state.pending.count == 2
    event = play(g, "draw")  # Anna's draw: the deck's next two
    assert event.command == "draw f30 f23"  # stored naming the cards
    assert g.state.extra["fortune"] == ("f30", "f23")
    play(g, "roll 1 2")  # the double's second move: 37 -> START
    assert cash(g, "Anna") == 2000 + 200 + 50  # 10% (f30), not 50% (f23), of 500


# ----- the FORTUNE cards a CHANCE card puts on the wheel (ШАНС, ФОРТУНА) ------------------------


def test_the_table_names_the_two_fortune_cards_a_chance_card_puts_on_the_wheel():
    """ШАНС c14 «Выложите на КОЛЕСО ФОРТУНЫ две карточки ФОРТУНЫ»: like every draw, the table may
    name the two physical cards it turned (`draw f23 f30`, in the order turned); the player's
    own `draw` takes the deck's next two; naming one card, the same card twice or a card not in
    the deck is refused, and a player may not name them (the table's)."""
    g = new()
    arrange(g, position={"Anna": "heavy3"}, held={("Anna", "shares"): 5}, fortune_top=("f30", "f23"))
    play(g, "roll 2 2", "draw c14")  # 33 -> 37 chance3
    refused(g, "draw f23", "usage")
    refused(g, "draw f23 f23", "usage")
    with pytest.raises(RuleViolation) as err:
        g.apply("draw f23 f30", "Anna")
    assert err.value.code == "table_only"
    listed = [a.text() for a in g.rules.legal(g.state) if a.verb == "draw"]
    assert listed[0] == "draw" and len(listed) == 2 and listed[1].count("|") > 10
    play(g, "draw f23 f30")
    assert g.state.extra["fortune"] == ("f23", "f30")  # f23 first: its 50% dividend is in force
    play(g, "roll 1 2")  # the double's second move: 37 -> START
    assert cash(g, "Anna") == 2000 + 200 + 250  # 50% (f23) of 500


def test_two_fortune_cards_when_the_deck_holds_one_the_second_comes_from_the_turned_discards():
    """ШАНС c14 «Выложите на КОЛЕСО ФОРТУНЫ две карточки ФОРТУНЫ» with one card left in the deck:
    the first is the deck's last, the second the top of the discards turned over. The table may
    name the two so, and the stored `draw f30 f23` replays (CI's crash test found a game that
    would not open: its second card was checked against the deck before the first was drawn)."""

    def one_left():
        g = new()
        arrange(g, position={"Anna": "heavy3"}, held={("Anna", "shares"): 5}, fortune_top=("f30", "f23"))
        s = g.state.copy()
        s.discards["fortune"] = s.decks["fortune"][1:]  # the wheel used every card but f30
        s.decks["fortune"] = ("f30",)
        g.state = s
        play(g, "roll 2 2", "draw c14")  # 33 -> 37 chance3: two FORTUNE cards to draw
        return g

    g = one_left()
    event = play(g, "draw")  # the player's own draw: the deck's last, then the discards'
    assert event.command == "draw f30 f23"
    named = one_left()
    play(named, "draw f30 f23")  # the table names them (as a replay does)
    assert named.state.signature() == g.state.signature()
    assert named.state.extra["fortune"] == ("f30", "f23")
    refused(one_left(), "draw f23 f30", "card_not_in_deck")  # f23 is not in the deck before f30 is turned
