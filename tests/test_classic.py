"""Millionaire Classic rules (Classic part of ../shared/rules/millionaire-classic-elite-en.txt).

Every test names the rulebook section it checks (the translation's headings:
"Preparing for the game", "Stop at a foreign site", "Surprise" cells, "Tax
office", "Black business", ...). Plot prices, rents and branch costs are read
from the shipped edition file (companion/editions/classic.toml: the layout,
names, prices and branch costs from the two codebases of
shared/notes/board-data.md, the rents and cards placeholders); the rulebook's
own figures (2000, 200, 50, x 2) are written out. Cell indices: leisure1 1,
leisure2 2, movement1 3, leisure3 4, charity 5, food1 6, chance1 8,
inspection 10, movement2 13, tele3 14, black1 15, light1 16, chance2 18,
jackpot 20, movement3 22, white 25, police 30, movement4 32, black2 35,
chance4 37.
"""

import pytest
from helpers import new, play_checked, run, teleporting

from companion.engine.classic import ClassicRules
from companion.engine.state import CHARITY, JACKPOT
from companion.errors import EditionError, RuleViolation


@pytest.fixture(scope="module")
def rules():
    # `land CELL` puts a token anywhere (the rules behind the dice are tested elsewhere)
    return teleporting("classic")


# ----- the edition file ---------------------------------------------------------------------


def test_board_has_eight_industries_of_three_plots_and_two_decks_of_twenty(rules):
    """ "Preparing for the game": 24 PLOT cards in 8 industries of 3; CHANCE 20, MOVEMENT 20."""
    ed = rules.edition
    assert isinstance(rules, ClassicRules)
    assert len(ed.plots) == 24
    assert len(ed.industries) == 8
    assert all(len(ed.industry_plots(i)) == 3 for i in ed.industries)
    assert {d: len(cards) for d, cards in ed.decks.items()} == {"chance": 20, "movement": 20}
    assert ed.supply == {"small": 24, "large": 12}


def test_the_board_is_the_layout_two_codebases_agree_on(rules):
    """The playing field: START in a corner, 8 coloured industries of 3 plots, the CHANCE and
    MOVEMENT cells. The order of the 40 cells is the one two independent codebases agree on
    (shared/notes/board-data.md, section 3; cell 32 is MOVEMENT as in B1), the industries come
    in price order, and B2's prices (50..350) and branch costs (50/100/150/200) are the file's."""
    ed = rules.edition
    special = {c.index: c.deck or c.kind for c in ed.cells if not c.is_plot}
    assert special == {
        0: "start",
        3: "movement",
        5: "charity",
        8: "chance",
        10: "detention",
        13: "movement",
        15: "black_business",
        18: "chance",
        20: "jackpot",
        22: "movement",
        25: "white_business",
        27: "chance",
        30: "go_to_detention",
        32: "movement",
        35: "black_business",
        37: "chance",
    }
    plot_cells = [c for c in ed.cells if c.is_plot]
    order = list(dict.fromkeys(c.industry for c in plot_cells))
    assert [ed.industries[i].name for i in order] == [
        "Индустрия развлечений",
        "Пищевая промышленность",
        "Связь и коммуникации",
        "Лёгкая промышленность",
        "Средства массовой информации",
        "Транспортная отрасль",
        "Тяжёлая промышленность",
        "Добывающая промышленность",
    ]
    assert [c.price for c in plot_cells] == [
        base + step for base in (50, 90, 130, 170, 210, 250, 290, 330) for step in (0, 10, 20)
    ]
    assert [ed.industries[i].build_cost for i in order] == [50, 50, 100, 100, 150, 150, 200, 200]
    assert (ed.cells[6].name, ed.cells[39].name) == ("Шоколадная фабрика", "Нефтяной холдинг")
    named = [*ed.industries.values(), *ed.cells]
    assert all(x.names.get("en") for x in named)  # every name in English too


def test_monopoly_rent_in_the_file_must_be_double_the_printed_rent(rules):
    """ "Stop at a foreign site": a monopoly doubles the printed rent; the file must agree."""
    rent = list(rules.edition.cell("leisure1").rent)
    wrong = [rent[0], rent[1] + 1, *rent[2:]]
    with pytest.raises(EditionError) as exc:
        teleporting("classic", replace=[(f"rent = {rent}", f"rent = {wrong}")])
    assert "cells[1].rent" in str(exc.value) and f"({2 * rent[0]})" in str(exc.value)


def test_black_business_needs_a_charity_fund_cell():
    """ "Black business": the token goes to the CHARITY FOUNDATION cell, so the board needs one."""
    with pytest.raises(EditionError, match="CHARITY FUND"):
        teleporting("classic", replace=[('id = "charity"\nkind = "charity"', 'id = "charity"\nkind = "free"')])


# ----- setup ----------------------------------------------------------------------------------


def test_setup_gives_2000_each_200_to_the_jackpot_and_an_empty_charity_fund(rules):
    """ "Preparing for the game": 2000 each, 200 into the JACKPOT cashier; the CHARITY FUND exists."""
    s = new(rules, ("Anna", "Boris", "Vera")).state
    assert [s.cash(p) for p in s.players] == [2000, 2000, 2000]
    assert s.cash(JACKPOT) == 200
    assert CHARITY in s.balances and s.cash(CHARITY) == 0


def test_charity_is_not_a_player_name(rules):
    """The CHARITY FUND is a system account: no player may take its name."""
    with pytest.raises(RuleViolation) as exc:
        new(rules, ("Anna", "charity"))
    assert exc.value.code == "bad_player_name"


# ----- rent -----------------------------------------------------------------------------------


def plots(rules, *ids):
    """The cells of the shipped file (their price, rent and build_cost)."""
    return [rules.edition.cell(i) for i in ids]


def test_rent_is_printed_then_doubled_for_a_monopoly(rules):
    """ "Stop at a foreign site": printed rent; doubled when one owner holds the whole industry."""
    p1, p2, p3 = plots(rules, "leisure1", "leisure2", "leisure3")
    g = new(rules)
    run(g, "land leisure1", "buy", "end", "land leisure3", "buy", "end", "land leisure2", "buy", "end")
    s = run(g, "land leisure1")  # Boris passes START (+200), printed rent
    assert s.cash("Boris") == 2000 - p3.price + 200 - p1.rent[0]
    s = run(g, "trade Anna Boris give 200 get leisure3")  # Anna now holds the whole industry
    assert s.cash("Anna") == 2000 - p1.price - p2.price + p1.rent[0] - 200
    run(g, "end", "land white", "end")
    s = run(g, "land leisure2")  # Boris (leisure1 -> leisure2): printed x 2
    assert s.cash("Boris") == 2000 - p3.price + 200 - p1.rent[0] + 200 - 2 * p2.rent[0]
    assert s.cash("Anna") == 2000 - p1.price - p2.price + p1.rent[0] - 200 + 2 * p2.rent[0]


def test_mortgaged_plot_breaks_the_monopoly_and_pays_no_rent(rules):
    """ "Bail rules": no rent on a mortgaged plot; an industry with one is not a monopoly."""
    p1, p2, p3 = plots(rules, "leisure1", "leisure2", "leisure3")
    g = new(rules)
    run(g, "land leisure1", "buy", "end", "land leisure2", "decline", "bid Anna 30", "hammer", "end")
    s = run(g, "land leisure3", "buy", "mortgage leisure1", "end")
    assert s.cash("Anna") == 2000 - p1.price - 30 - p3.price + p1.price // 2
    s = run(g, "land leisure3")  # Boris: the printed rent, not doubled
    assert s.cash("Boris") == 2000 - p3.rent[0]
    run(g, "end", "land jackpot", "end")
    s = run(g, "land leisure1")  # Boris passes START (+200); leisure1 mortgaged: no rent
    assert s.cash("Boris") == 2000 - p3.rent[0] + 200
    assert g.events[-1].notes[-1].code == "no_rent_mortgaged"


def test_building_rent_follows_the_level_and_building_needs_a_monopoly(rules):
    """ "Branches and enterprises": only a monopolist builds, evenly; the rent is the level's."""
    (p1,) = plots(rules, "leisure1")
    g = new(rules)
    run(g, "land leisure1", "buy")
    with pytest.raises(RuleViolation) as exc:
        run(g, "build leisure1")
    assert exc.value.code == "need_monopoly"
    run(g, "end", "land leisure2", "decline", "bid Anna 30", "hammer", "end", "land leisure3", "buy")
    run(g, "build leisure1", "build leisure2", "build leisure3", "build leisure1")
    with pytest.raises(RuleViolation) as exc:
        run(g, "build leisure1")
    assert exc.value.code == "build_evenly"
    s = run(g, "end", "land leisure1")  # Boris passes START; leisure1 has two branches
    assert s.cash("Boris") == 2000 + 200 - p1.rent[3]  # [printed, monopoly, 1 branch, 2 branches, ...]
    assert p1.rent[3] not in (p1.rent[0], p1.rent[1], p1.rent[2])


def test_an_enterprise_replaces_the_three_branches(rules):
    """ "Branches and enterprises": three branches on every plot of the industry, then
    enterprises; an enterprise takes the place of its plot's three branches, which go back
    to the bank (the box holds 24 branches and 12 enterprises: only that reading fits)."""
    g = new(rules)
    run(
        g,
        "land leisure1",
        "buy",
        "end",
        "land leisure2",
        "decline",
        "bid Anna 30",
        "hammer",
        "end",
        "land leisure3",
        "buy",
    )
    for _ in range(3):
        run(g, "build leisure1", "build leisure2", "build leisure3")
    assert g.rules.buildings_in_use(g.state) == (9, 0)
    s = run(g, "build leisure1")
    assert g.rules.buildings_in_use(s) == (6, 1) and s.level["leisure1"] == 4


# ----- MOVEMENT and CHANCE ----------------------------------------------------------------------


def test_movement_card_past_start_pays_no_circle_income(rules):
    """ "Surprise" cells: MOVEMENT to the end space; a START cell between pays no circular income."""
    g = new(rules)
    s = run(g, "land movement3", "draw m03")  # movement3 (22) -> food1 (6): round past START
    assert s.position["Anna"] == 6
    assert s.cash("Anna") == 2000
    assert s.pending.kind == "offer"


def test_movement_card_to_start_pays_nothing(rules):
    """ "Surprise" cells: a MOVEMENT card to START does not pay the circular income."""
    g = new(rules)
    s = run(g, "land movement1", "draw m01")
    assert s.position["Anna"] == 0 and s.cash("Anna") == 2000
    assert "no_circle_income" in [n.code for n in g.events[-1].notes]


def test_chance_card_to_start_pays_circle_income(rules):
    """ "Circular income": passing START with a move pays 200; a CHANCE move is such a move (choice)."""
    g = new(rules)
    s = run(g, "land chance1", "draw c03")
    assert s.position["Anna"] == 0 and s.cash("Anna") == 2200


M01 = 'id = "m01"\ntext = "Перейдите на клетку СТАРТ."\neffects = [{ do = "move_to", cell = "start" }]'


def test_a_movement_card_of_any_kind_never_pays_circle_income():
    """ "Surprise" cells, MOVEMENT: "If between these cells there is a START cell, the circular
    income is not paid", whatever kind of move the card makes: an edited deck whose m01 says
    "forward 9" takes Anna from movement4 (32) past START to leisure1 (1) with no 200; the same
    card with movement_collects = true (the control) pays it."""
    forward = [(M01, 'id = "m01"\ntext = "Вперёд на 9 клеток."\neffects = [{ do = "move_steps", steps = 9 }]')]
    for option, paid in ((False, 0), (True, 200)):
        g = new(teleporting("classic", {"movement_collects": option}, replace=forward))
        s = run(g, "land movement4", "draw m01")
        assert s.position["Anna"] == 1 and s.cash("Anna") == 2000 + paid


@pytest.mark.parametrize("steps, cell", [(3, 0), (5, 2)])
def test_card_move_collects_false_holds_for_a_forward_card(steps, cell):
    """Circular income, card moves: with card_move_collects = false no card move pays it: CHANCE
    "forward N" from chance4 onto START (3) or past it to leisure2 (5) leaves Anna's cash as it
    was; with the option true (the control) the same card pays 200."""
    forward = [
        ('effects = [{ do = "move_steps", steps = 3 }]', f'effects = [{{ do = "move_steps", steps = {steps} }}]')
    ]
    for option, paid in ((False, 0), (True, 200)):
        g = new(teleporting("classic", {"card_move_collects": option}, replace=forward))
        s = run(g, "land chance4", "draw c10")
        assert s.position["Anna"] == cell and s.cash("Anna") == 2000 + paid


def test_a_card_the_player_cannot_carry_out_now_stays_with_them(rules):
    """ "Surprise" cells, CHANCE: "If the player cannot this moment follow the instruction, then
    the card remains with him until he completes the task": Anna, with 10, draws the fine of 50;
    she keeps the card, owes no debt and the table goes on (her turn ends); when 100 comes to
    her the fine is paid by itself and the card goes back under the deck."""
    g = new(rules)
    run(g, "pay Anna Boris 1990")
    s = run(g, "land chance1", "draw c02")
    assert s.kept["Anna"] == ("c02",) and "c02" not in s.decks["chance"]
    assert not s.debts and s.cash("Anna") == 10
    assert "card_kept_until_paid" in [n.code for n in g.events[-1].notes]
    run(g, "end")  # nothing holds the table up
    s = run(g, "pay Boris Anna 100")
    assert s.cash("Anna") == 10 + 100 - 50 and "Anna" not in s.kept
    assert s.decks["chance"][-1] == "c02"
    assert [n.code for n in g.events[-1].notes][-2:] == ["card_carried_out", "card_paid"]


def test_with_the_option_off_an_unpayable_card_is_a_debt():
    """unpayable_card_kept = false (the choice before the rulebook's reading): the fine is owed."""
    g = new(teleporting("classic", {"unpayable_card_kept": False}))
    run(g, "pay Anna Boris 1990", "land chance1")
    s = run(g, "draw c02")
    assert s.debts and s.debts[0].amount == 50 and "Anna" not in s.kept


def test_movement_card_to_white_business_takes_the_fund(rules):
    """ "Charitable foundation, white business": reached by a MOVEMENT card, the player takes the fund."""
    g = new(rules)
    run(g, "land black1", "end")  # Anna puts 50 into the fund
    s = run(g, "land movement1", "draw m10")  # Boris: MOVEMENT to white
    assert s.position["Boris"] == 25
    assert s.cash("Boris") == 2050 and s.cash(CHARITY) == 0


def test_chance_card_goes_to_the_bottom_and_a_kept_card_frees_from_inspection(rules):
    """CHANCE: the card goes under the deck; one that cannot be used now is kept until needed."""
    g = new(rules)
    s = run(g, "land chance1", "draw c01")
    assert s.decks["chance"][-1] == "c01" and s.cash("Anna") == 2100
    run(g, "end", "land white", "end")
    s = run(g, "land chance2", "draw c05")
    assert s.kept["Anna"] == ("c05",) and "c05" not in s.decks["chance"]
    run(g, "end", "land jackpot", "end")
    s = run(g, "land inspection")  # Anna (18 -> 10) passes START, is held
    assert "Anna" in s.detained
    run(g, "end", "land white", "end")
    s = run(g, "use_card c05")
    assert "Anna" not in s.detained and s.decks["chance"][-1] == "c05"


# ----- CHARITY FUND, white and black business ----------------------------------------------------


def test_black_business_sends_to_the_fund_with_a_fine_of_50(rules):
    """ "Black business": go to the CHARITY FOUNDATION cell and pay 50 into the fund."""
    g = new(rules)
    s = run(g, "land black1")
    assert s.position["Anna"] == rules.edition.cell("charity").index == 5
    assert s.cash("Anna") == 1950 and s.cash(CHARITY) == 50


def test_sent_by_black_business_the_player_does_not_collect_the_fund(rules):
    """ "Black business" (choice): sent to the fund to pay, not to collect what is in it."""
    g = new(rules)
    run(g, "land black1", "end")
    s = run(g, "land black2")  # Boris: the fund already holds Anna's 50
    assert s.cash("Boris") == 1950 and s.cash(CHARITY) == 100


def test_white_business_and_the_fund_cell_take_all_the_money_in_the_fund(rules):
    """ "Charitable foundation, white business": the player takes all the money in the fund."""
    g = new(rules)
    run(g, "land black1", "end", "land black1", "end")
    assert g.state.cash(CHARITY) == 100
    s = run(g, "land white")
    assert s.cash("Anna") == 1950 + 100 and s.cash(CHARITY) == 0
    run(g, "end", "land black2", "end")  # Boris puts 50 more in
    run(g, "land jackpot", "end", "land charity")  # Boris: from the fund round to the fund
    assert g.state.cash("Boris") == 1950 - 50 + 200 + 50 and g.state.cash(CHARITY) == 0


def test_black_business_may_count_as_landing_on_the_fund():
    """ "Black business", option black_business_lands_on_fund = true: pay 50, then collect the fund."""
    rules = teleporting("classic", {"black_business_lands_on_fund": True})
    g = new(rules)
    run(g, "land black1", "end")  # Anna pays 50 and takes the fund's 50 back
    assert g.state.cash("Anna") == 2000 and g.state.cash(CHARITY) == 0


def test_a_black_business_fine_beyond_cash_is_owed_to_the_fund(rules):
    """ "Black business" / "Game over": an unpaid fine is a debt to the fund; bankruptcy pays what there is."""
    g = new(rules)
    run(g, "pay Anna Boris 1970")
    s = run(g, "land black1")
    assert s.debts[0].creditor == CHARITY and s.debts[0].amount == 50
    s = run(g, "bankrupt Anna")
    assert s.cash(CHARITY) == 30 and s.cash("Anna") == 0
    assert s.winner == "Boris"


# ----- TAX INSPECTION and TAX POLICE -------------------------------------------------------------


def test_landing_on_tax_inspection_holds_until_fine_or_double(rules):
    """ "Tax office": leave by paying 50 or by a double in one of the next three moves."""
    g = new(rules)
    s = run(g, "roll 4 6")
    assert "Anna" in s.detained
    run(g, "end", "land white", "end")
    s = run(g, "roll 3 3")  # a double frees and moves 6
    assert "Anna" not in s.detained and s.position["Anna"] == 16
    assert not s.again  # the freeing double gives no extra move


def test_after_three_misses_the_fine_is_the_only_way_out(rules):
    """ "Tax office": after the third miss, only the fine of 50; the next roll collects it."""
    g = new(rules)
    run(g, "roll 4 6", "end", "land white", "end")
    for dice, boris in (("1 2", "jackpot"), ("2 3", "white"), ("3 4", "jackpot")):
        run(g, f"roll {dice}", "end", f"land {boris}", "end")
    assert g.state.detained["Anna"] == 3
    s = run(g, "roll 1 3")  # pays 50 and moves 4
    assert s.cash("Anna") == 1950 and s.position["Anna"] == 14 and "Anna" not in s.detained


def test_pay_fine_before_rolling(rules):
    """ "Tax office": the fine of 50 lets the player out before the roll."""
    g = new(rules)
    run(g, "roll 4 6", "end", "land white", "end")
    s = run(g, "pay_fine")
    assert s.cash("Anna") == 1950 and "Anna" not in s.detained


def test_tax_police_sends_to_inspection_without_circle_income(rules):
    """ "Tax police": sent to the TAX OFFICE, no circular income is paid."""
    g = new(rules)
    run(g, "land police", "end", "land white", "end", "pay_fine", "land jackpot", "end")
    run(g, "land jackpot", "end")
    s = run(g, "land police")  # Anna: 20 -> 30 -> inspection (10)
    assert s.position["Anna"] == 10 and "Anna" in s.detained
    assert s.cash("Anna") == 1950  # the earlier fine only; no income


def test_three_doubles_go_to_tax_inspection(rules):
    """ "Game progress": three doubles in a row send the player to the TAX OFFICE."""
    g = new(rules)
    run(g, "roll 6 6", "buy", "roll 4 4")
    s = run(g, "roll 3 3")
    assert s.position["Anna"] == 10 and "Anna" in s.detained and not s.again


# ----- JACKPOT ------------------------------------------------------------------------------------


def test_jackpot_win_of_the_whole_cash_box(rules):
    """JACKPOT: bet into the cashier, three rolls; the top combination takes the cash box."""
    g = new(rules)
    s = run(g, "land jackpot", "jackpot 50 6 5 4")
    assert s.cash("Anna") == 2000 - 50 + 250 and s.cash(JACKPOT) == 0


def test_jackpot_lost_bet_stays_in_the_cash_box(rules):
    """JACKPOT: "If the player loses, the bet remains in the JACKPOT cashier"."""
    g = new(rules)
    s = run(g, "land jackpot", "jackpot 30 1 1 1")
    assert s.cash("Anna") == 1970 and s.cash(JACKPOT) == 230
    with pytest.raises(RuleViolation) as exc:
        run(g, "jackpot 30 1 1 1")  # once per landing
    assert exc.value.code == "not_on_jackpot"


# ----- redemption, trades, the end --------------------------------------------------------------


def test_redeem_only_before_ones_own_turn(rules):
    """ "Bail rules": redeem only before one's move, for half the price plus 10% of the price."""
    (p1,) = plots(rules, "leisure2")
    g = new(rules)
    run(g, "land leisure2", "buy", "mortgage leisure2")
    with pytest.raises(RuleViolation) as exc:
        run(g, "redeem leisure2")
    assert exc.value.code == "before_own_turn_only"
    run(g, "end")
    s = run(g, "redeem leisure2")  # during Boris's turn: allowed
    assert s.cash("Anna") == 2000 - p1.price + p1.price // 2 - (p1.price // 2 + p1.price // 10)


def test_built_or_mortgaged_plots_cannot_be_traded(rules):
    """ "Property trade": no lot with a building, and no mortgaged lot, may be sold or traded."""
    g = new(rules)
    run(g, "land light1", "buy", "mortgage light1", "end")
    with pytest.raises(RuleViolation) as exc:
        run(g, "trade Anna Boris give light1 get 100")
    assert exc.value.code == "plot_mortgaged"


def test_timed_game_counts_plots_and_buildings_at_purchase_price(rules):
    """ "Game over": a timed game counts plots, branches and enterprises at purchase price."""
    p1, p2, p3 = plots(rules, "leisure1", "leisure2", "leisure3")
    g = new(rules)
    run(g, "land leisure1", "buy", "end", "land leisure2", "decline", "bid Anna 30", "hammer", "end")
    run(g, "land leisure3", "buy", "build leisure1", "end")
    s = run(g, "end_game")
    wealth = [n for n in g.events[-1].notes if n.code == "wealth_count"][0].params["wealth"]
    cash = 2000 - p1.price - 30 - p3.price - p1.build_cost
    assert s.cash("Anna") == cash
    # the plots at their purchase (printed) prices, the one branch at its price
    assert wealth == {"Anna": cash + p1.price + p2.price + p3.price + p1.build_cost, "Boris": 2000}
    assert s.winner == "Anna"


def test_the_millionaire_family_shares_one_jackpot_and_inspection():
    """JACKPOT and "Tax office" are the same paragraphs in every Millionaire rulebook: one code."""
    from companion.engine.elite import EliteRules
    from companion.engine.millionaire import MillionaireRules

    for name in ("cmd_jackpot", "land_jackpot", "land_inspection", "check_redeem_time"):
        assert getattr(ClassicRules, name) is getattr(MillionaireRules, name)
    assert EliteRules.cmd_jackpot is ClassicRules.cmd_jackpot
    assert issubclass(EliteRules, MillionaireRules)


# ----- scenario scripts ----------------------------------------------------------------------------

# ----- seeded autoplay -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_seeded_autoplay_games_run_to_the_end_with_balanced_books(rules, seed):
    """Whole games (every rulebook section at once): zero-sum postings, no negative cash, replay."""
    players = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor"][: 2 + seed % 5]
    game = play_checked(rules, seed, players)  # ends with a winner, books and replay checked
    assert game.state.cash(CHARITY) >= 0 and game.state.cash(JACKPOT) >= 0
