"""Millionaire Deluxe rules (../shared/rules/millionaire-deluxe-ru.txt).

Deluxe is Classic (tests/test_classic.py) plus «Шкала личного рейтинга игроков»,
the personal rating scale, and its part of «Победитель игры». Every test names
the rulebook section it checks. Amounts come from companion/editions/deluxe.toml
(the same board as classic.toml; cell indices: movement1 3, charity 5,
chance1 8, inspection 10, black1 15, chance2 18, jackpot 20, white 25,
police 30, black2 35, chance4 37). The shipped scale (placeholder) has 7 steps
with places [4, 4, 3, 3, 2, 2, 1]; tests that need a small scale edit a copy.
"""

import pytest
from helpers import new, play_checked, run, teleporting

from companion.editions import load_edition
from companion.engine.deluxe import DeluxeRules
from companion.engine.state import CHARITY, JACKPOT
from companion.errors import EditionError, RuleViolation

SHIPPED_SCALE = "rating_places = [4, 4, 3, 3, 2, 2, 1]"


@pytest.fixture(scope="module")
def rules():
    # `land CELL` puts a token anywhere (the rules behind the dice are tested elsewhere)
    return teleporting("deluxe")


def scale(places):
    """The shipped Deluxe file with another scale (a table editing its own copy)."""
    return teleporting("deluxe", replace=[(SHIPPED_SCALE, f"rating_places = {places}")])


def step(s, p):
    return s.held(p, "rating")


def codes(game):
    return [n.code for n in game.events[-1].notes]


# ----- the edition file ---------------------------------------------------------------------


def test_deluxe_is_classic_with_a_scale_in_the_data(rules):
    """«Миллионер Делюкс»: 8 industries of 3 plots, CHANCE and MOVEMENT; the scale is edition data."""
    ed = rules.edition
    assert isinstance(rules, DeluxeRules)
    assert len(ed.plots) == 24 and {d: len(c) for d, c in ed.decks.items()} == {"chance": 20, "movement": 20}
    assert ed.extra["rating_places"] == [4, 4, 3, 3, 2, 2, 1]
    flags = {c.favourable for c in ed.cards.values() if c.deck == "chance"}
    assert flags == {True, False, None}


def test_the_board_is_classics():
    """«Миллионер Делюкс»: the board («8 цветных «Отраслей», каждая из которых состоит из 3-х
    участков») is described in Classic's words: the file holds Classic's 40 cells and 8 industries
    (layout, names, prices, branch costs and rents), card for card the same decks."""
    classic, deluxe = load_edition("classic"), load_edition("deluxe")

    def board(ed):
        return (
            [(c.id, c.kind, c.name, c.names, c.industry, c.price, c.rent, c.build_cost, c.deck) for c in ed.cells],
            [(i.id, i.name, i.names, i.build_cost) for i in ed.industries.values()],
            [(c.id, c.deck, c.text, c.effects, c.keep) for c in ed.cards.values()],
        )

    assert board(deluxe) == board(classic)


def test_a_scale_without_places_is_refused():
    """«Шкала личного рейтинга»: every step has a number of places; the file must give them."""
    with pytest.raises(EditionError, match="rating_places"):
        scale([3, 0, 1])


def test_setup_is_classics(rules):
    """«Подготовка к игре»: 2000 each, 200 into the «Джекпот» cash box; every token off the scale."""
    s = new(rules).state
    assert s.cash("Anna") == 2000 and s.cash(JACKPOT) == 200 and s.cash(CHARITY) == 0
    assert step(s, "Anna") == 0 and step(s, "Boris") == 0


# ----- up and down --------------------------------------------------------------------------------


def test_white_business_and_the_fund_move_one_step_up(rules):
    """Шкала: up one step on «Белый» бизнес and on Благотворительный фонд."""
    g = new(rules)
    s = run(g, "land white")
    assert step(s, "Anna") == 1
    s = run(g, "end", "land white", "end", "land charity")
    assert step(s, "Anna") == 2 and step(s, "Boris") == 1


def test_black_business_moves_one_step_down_and_sends_to_the_fund(rules):
    """Шкала: down one step on «Чёрный» бизнес; Classic sends the token to the fund with a fine of 50."""
    g = new(rules)
    run(g, "land white", "end", "land jackpot", "end")
    s = run(g, "land black1")  # white -> black1 (past START: +200)
    assert step(s, "Anna") == 0
    assert s.position["Anna"] == 5 and s.cash("Anna") == 2000 + 200 - 50 and s.cash(CHARITY) == 50
    assert codes(g).count("rating_up") == 0  # sent to the fund: no step up there (choice)


def test_tax_inspection_moves_one_step_down(rules):
    """Шкала: down one step on Налоговая инспекция (landing there)."""
    g = new(rules)
    run(g, "land white", "end", "land jackpot", "end")
    s = run(g, "land inspection")
    assert step(s, "Anna") == 0 and "Anna" in s.detained


def test_sent_to_tax_inspection_also_moves_down(rules):
    """Шкала (choice rating_down_when_sent): TAX POLICE sends the token onto Налоговая инспекция."""
    g = new(rules)
    run(g, "land white", "end", "land jackpot", "end")
    s = run(g, "land police")
    assert step(s, "Anna") == 0 and s.position["Anna"] == 10


def test_sent_to_tax_inspection_need_not_count():
    """Шкала, option rating_down_when_sent = false: only landing on the cell moves the token down."""
    rules = teleporting("deluxe", {"rating_down_when_sent": False})
    g = new(rules)
    run(g, "land white", "end", "land jackpot", "end")
    s = run(g, "land police")
    assert step(s, "Anna") == 1


def test_the_token_never_goes_below_the_yellow_line(rules):
    """Шкала: tokens start on the yellow line beside the scale; there is nothing below it."""
    g = new(rules)
    s = run(g, "land black1")
    assert step(s, "Anna") == 0 and "rating_bottom" in codes(g)


def test_favourable_and_unfavourable_chance_cards(rules):
    """Шкала: up on a favourable CHANCE instruction, down on an unfavourable one."""
    g = new(rules)
    s = run(g, "land chance1", "draw c01")  # lottery +100: favourable
    assert step(s, "Anna") == 1 and s.cash("Anna") == 2100
    run(g, "end", "land white", "end")
    s = run(g, "land chance2", "draw c02")  # fine 50: unfavourable
    assert step(s, "Anna") == 0 and s.cash("Anna") == 2050


def test_a_kept_favourable_card_counts_when_drawn(rules):
    """Шкала: the card that frees from TAX INSPECTION is favourable though kept for later."""
    g = new(rules)
    s = run(g, "land chance1", "draw c05")
    assert s.kept["Anna"] == ("c05",) and step(s, "Anna") == 1


def test_a_card_moving_onto_a_rated_cell_counts_once(rules):
    """Шкала (data choice): "go to TAX INSPECTION" carries no flag; the cell moves the token once."""
    g = new(rules)
    run(g, "land white", "end", "land jackpot", "end", "land charity", "end", "land white", "end")
    assert step(g.state, "Anna") == 2
    s = run(g, "land chance4", "draw c04")  # charity -> chance4 -> TAX INSPECTION
    assert step(s, "Anna") == 1 and "Anna" in s.detained


def test_movement_card_onto_white_business_moves_up(rules):
    """Шкала: a MOVEMENT card onto «Белый» бизнес is a landing there (Classic: no income past START)."""
    g = new(rules)
    s = run(g, "land movement4", "draw m10")  # movement4 (32) -> white (25): past START
    assert s.position["Anna"] == 25
    assert step(s, "Anna") == 1 and s.cash("Anna") == 2000


# ----- places on a step -----------------------------------------------------------------------------


def test_a_full_step_keeps_the_token_where_it_is():
    """Шкала: «Если все клетки ступени ... заняты фишками других игроков, игрок оставляет фишку на месте»."""
    rules = scale([1, 1, 1])
    g = new(rules)
    run(g, "land white", "end")  # Anna takes the only place on step 1
    s = run(g, "land white")
    assert step(s, "Boris") == 0 and "rating_blocked" in codes(g)
    run(g, "end", "land charity", "end")  # Anna climbs to step 2; step 1 is free again
    s = run(g, "land charity")
    assert step(s, "Boris") == 1
    run(g, "end")
    s = run(g, "land black2")  # Anna would step down onto Boris's place
    assert step(s, "Anna") == 2 and "rating_blocked" in codes(g)


def test_a_bankrupt_players_token_leaves_the_scale():
    """«Победитель игры»: a bankrupt player leaves the game, and his token frees its place."""
    rules = scale([1, 1, 1])
    g = new(rules, ("Anna", "Boris", "Vera"))
    run(g, "land transport1", "buy", "end", "land white", "end", "land jackpot", "end")
    s = run(g, "land white")  # Anna: Boris holds the only place on step 1
    assert step(s, "Anna") == 0 and step(s, "Boris") == 1
    run(g, "end", "pay Boris Anna 2000")
    s = run(g, "land transport1")  # Boris owes the printed rent with nothing in hand
    assert s.debts and s.debts[0].debtor == "Boris"
    assert s.debts[0].amount == rules.edition.cell("transport1").rent[0]
    run(g, "bankrupt Boris")
    assert "Boris" not in g.state.alive and step(g.state, "Boris") == 0
    s = run(g, "land white")  # Vera takes the freed place
    assert step(s, "Vera") == 1


# ----- the end ---------------------------------------------------------------------------------------


def test_reaching_the_top_of_the_scale_wins():
    """«Победитель игры»: the game goes on «до тех пор, когда один из игроков не достигнет вершины шкалы»."""
    rules = scale([2, 1])
    g = new(rules, ("Anna", "Boris", "Vera"))
    run(g, "land white", "end", "land jackpot", "end", "land jackpot", "end")
    s = run(g, "land charity")
    assert step(s, "Anna") == 2 and s.winner == "Anna" and s.phase == "over"
    assert "rating_top" in codes(g)
    with pytest.raises(RuleViolation) as exc:
        run(g, "end")
    assert exc.value.code == "game_over"


def test_the_top_need_not_end_the_game():
    """«Победитель игры», option rating_top_wins = false: play on for bankruptcy or the clock."""
    rules = teleporting("deluxe", {"rating_top_wins": False}, replace=[(SHIPPED_SCALE, "rating_places = [2, 1]")])
    g = new(rules)
    run(g, "land white", "end", "land jackpot", "end", "land charity", "end", "land jackpot", "end")
    s = run(g, "land white")
    assert step(s, "Anna") == 2 and s.phase != "over"


def test_timed_game_adds_the_agreed_sum_per_step(rules):
    """«Победитель игры»: on time, tokens on the scale add the agreed sum (100 a step by default)."""
    g = new(rules)
    run(g, "land white", "end", "land jackpot", "end", "land charity", "end")  # Anna passes START
    run(g, "end_game")
    wealth = [n for n in g.events[-1].notes if n.code == "wealth_count"][0].params["wealth"]
    assert wealth == {"Anna": 2000 + 200 + 2 * 100, "Boris": 2000}
    assert g.state.winner == "Anna"


def test_timed_game_step_worth_is_an_option():
    """«Победитель игры»: «оговоренную правилами сумму» is the table's choice (rating_step_value)."""
    rules = teleporting("deluxe", {"rating_step_value": 250})
    g = new(rules)
    run(g, "land white", "end", "end_game")
    wealth = [n for n in g.events[-1].notes if n.code == "wealth_count"][0].params["wealth"]
    assert wealth == {"Anna": 2250, "Boris": 2000}


# ----- scenario scripts ----------------------------------------------------------------------------

# ----- seeded autoplay -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5, 6, 7])
def test_seeded_autoplay_games_run_to_the_end_with_balanced_books(rules, seed):
    """Whole games (every rulebook section at once): zero-sum postings, no negative cash, replay."""
    players = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor"][: 2 + seed % 5]
    game = play_checked(rules, seed, players)  # ends with a winner, books and replay checked
    places = rules.edition.extra["rating_places"]
    for k, room in enumerate(places, 1):
        assert sum(1 for p in game.state.alive if step(game.state, p) == k) <= room


def test_three_doubles_move_again_and_do_not_detain():
    """«Как ходят игроки в «Миллионер Делюкс»»: a double gives another move, and the text has no
    three-doubles rule, so the third double moves the token on (three_doubles_detain = false);
    the option set to true (the control) sends it to TAX INSPECTION as in Classic."""
    for option, held in ((False, False), (True, True)):
        g = new(teleporting("deluxe", {"three_doubles_detain": option}))
        run(g, "roll 6 6", "buy", "roll 4 4")
        s = run(g, "roll 3 3")
        assert ("Anna" in s.detained) is held
        assert s.position["Anna"] == (10 if held else 26)
