"""Millionaire Elite rule by rule: setup, the turn, TAX INSPECTION and TAX POLICE, the JACKPOT.

Against the Russian rulebook (millionaire-elite-ru.txt), section by section, with the
table's own dice (`land CELL`) and refusals in general; the board, the shared helpers and
how these tests are written: tests/elite_helpers.py.
"""

import pytest
from elite_helpers import (
    PLAYERS,
    accepted,
    arrange,
    cash,
    codes,
    new,
    play,
    refused,
)
from helpers import teleporting

from companion.engine.state import JACKPOT
from companion.errors import RuleViolation

# ===== ПОДГОТОВКА К ИГРЕ =================================================================


def test_setup_gives_2000_each_and_200_into_the_jackpot():
    """ПОДГОТОВКА К ИГРЕ: 2000 фантов each; the banker puts 200 into the JACKPOT cash box."""
    g = new()
    for p in PLAYERS:
        assert cash(g, p) == 2000
        assert g.state.position[p] == 0
    assert cash(g, JACKPOT) == 200
    assert g.state.extra["price"] == 100  # АКЦИИ: first price 100
    assert g.state.turn == "Anna"


@pytest.mark.parametrize("players, ok", [(1, False), (2, True), (6, True), (7, False)])
def test_two_to_six_players(players, ok):
    """ОПИСАНИЕ ИГРЫ: «В игре могут участвовать от 2-х до 6-ти игроков»."""
    names = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zhenya"][:players]
    if ok:
        assert new(tuple(names)).state.players == tuple(names)
    else:
        with pytest.raises(RuleViolation) as info:
            new(tuple(names))
        assert info.value.code == "player_count"


# ===== ХОД ИГРЫ ===========================================================================


def test_double_gives_another_move():
    """ХОД ИГРЫ: a double gives another move; the turn cannot end before it."""
    g = new()
    play(g, "roll 1 1", "buy")  # START -> leisure2, bought for 60
    refused(g, "end", "roll_again")
    play(g, "roll 2 3")  # leisure2 -> food1 (offer)
    assert g.state.position["Anna"] == 7
    play(g, "decline", "hammer")
    refused(g, "roll 1 2", "already_rolled")
    play(g, "end")
    assert g.state.turn == "Boris"


def test_three_doubles_send_to_tax_inspection():
    """ХОД ИГРЫ: three doubles in a row send the player to НАЛОГОВАЯ ИНСПЕКЦИЯ (no third move)."""
    g = new()
    arrange(g, held={("Anna", "shares"): 2})
    play(g, "roll 3 3")  # START -> exchange1 (6)
    play(g, "roll 5 5")  # 6 -> 16 AUCTION, passing TAX INSPECTION: tax 2 x 10
    play(g, "auction_roll 6 1 1")  # 6: the auction is cancelled
    assert cash(g, "Anna") == 1980
    event = play(g, "roll 2 2")  # third double: straight to TAX INSPECTION
    assert "three_doubles" in codes(event)
    assert g.state.position["Anna"] == 10
    assert "Anna" in g.state.detained
    # sent there: circle tax again (circle_tax_when_sent), no circle income
    assert cash(g, "Anna") == 1960
    refused(g, "roll 1 2", "already_rolled")
    play(g, "end")


# ----- a landing the dice can only make as a double (ХОД ИГРЫ) ----------------------------------------


def test_land_two_or_twelve_cells_away_is_a_double():
    """ХОД ИГРЫ: «Если очередным ходом игрок выбрасывает на кубиках дубль, то он делает ещё один
    ход». A table throwing its own dice and reporting `land tele2` (12 cells from START: only
    6+6) or `land leisure2` (2 cells: only 1+1) has thrown a double, said or not: Anna moves again,
    and it counts towards three doubles; 7 cells (food1) is no double."""
    g = new()
    play(g, "land tele2", "decline", "hammer")
    assert g.state.again and g.state.doubles == 1
    play(g, "land media2", "decline", "hammer")  # 12 -> 22 (10 cells, said as no double): the turn can end
    assert not g.state.again
    g2 = new()
    play(g2, "land food1", "decline", "hammer")
    assert not g2.state.again and g2.state.doubles == 0


def test_a_held_player_landing_two_cells_on_leaves_by_the_double():
    """НАЛОГОВАЯ ИНСПЕКЦИЯ: leaving «выкинув на кубиках дубль»: a held player reported two cells
    on (tele2, only 1+1) has thrown a double and leaves; one three cells on (tele3) has not and
    is refused (the token stays until a double, the fine or the third try)."""
    g = new()
    arrange(g, position={"Anna": "inspection"}, detained={"Anna": 0})
    refused(g, "land tele3", "detained_stays")
    play(g, "land tele2")
    assert "Anna" not in g.state.detained and g.state.position["Anna"] == 12


# ===== НАЛОГОВАЯ ИНСПЕКЦИЯ ================================================================


def two_players_with_anna_held():
    """Anna landed on TAX INSPECTION last turn; Boris owns leisure3 and moves START -> leisure3 each turn."""
    g = new(("Anna", "Boris"))
    arrange(g, owner={"leisure3": "Boris"})
    play(g, "roll 4 6", "end")  # Anna lands on inspection: held
    boris_turn(g)
    return g


def boris_turn(g):
    arrange(g, position={"Boris": "start"})
    play(g, "roll 1 2", "end")


def test_landing_on_tax_inspection_holds_the_player():
    """НАЛОГОВАЯ ИНСПЕКЦИЯ: «попал на клетку» (inspection_landing_detains): a roll without a double stays."""
    g = two_players_with_anna_held()
    event = play(g, "roll 1 2")
    assert "still_detained" in codes(event)
    assert g.state.position["Anna"] == 10


def test_landing_on_tax_inspection_with_a_double_ends_the_move():
    """НАЛОГОВАЯ ИНСПЕКЦИЯ / ХОД ИГРЫ: held on landing, the double gives no further move."""
    g = new()
    play(g, "roll 5 5")  # START -> 10
    assert "Anna" in g.state.detained
    refused(g, "roll 1 2", "already_rolled")
    play(g, "end")


def test_leave_tax_inspection_by_paying_50_before_rolling():
    """НАЛОГОВАЯ ИНСПЕКЦИЯ: leave by paying the fine of 50."""
    g = two_players_with_anna_held()
    play(g, "pay_fine")
    assert cash(g, "Anna") == 1950 and "Anna" not in g.state.detained
    play(g, "roll 1 2")  # moves 10 -> 13 (tele3)
    assert g.state.position["Anna"] == 13
    refused(g, "pay_fine", "not_detained")


def test_the_fine_is_paid_before_rolling():
    """НАЛОГОВАЯ ИНСПЕКЦИЯ: the fine is the way out before a roll, not after it."""
    g = two_players_with_anna_held()
    play(g, "roll 1 2")
    refused(g, "pay_fine", "before_roll_only")


@pytest.mark.parametrize("misses", [0, 1, 2])
def test_a_double_within_three_turns_releases(misses):
    """НАЛОГОВАЯ ИНСПЕКЦИЯ: «выкинув на кубиках дубль в один из трёх последующих ходов»; no fine."""
    g = two_players_with_anna_held()
    for _ in range(misses):
        play(g, "roll 1 2", "end")
        boris_turn(g)
    event = play(g, "roll 2 2")  # 10 -> 14 fortune1
    assert "released_by_double" in codes(event)
    assert g.state.position["Anna"] == 14
    assert cash(g, "Anna") == 2000
    play(g, "draw f30")
    refused(g, "roll 1 2", "already_rolled")  # the releasing double gives no extra move


def test_after_the_third_miss_the_fine_is_taken_on_the_next_roll():
    """НАЛОГОВАЯ ИНСПЕКЦИЯ: after three misses «только одним путём: заплатив штраф 50 фантов»."""
    g = two_players_with_anna_held()
    for _ in range(3):
        play(g, "roll 1 2", "end")
        boris_turn(g)
    assert g.state.detained["Anna"] == 3
    event = play(g, "roll 2 2")  # even a double now costs the fine
    assert "fine_paid" in codes(event)
    assert cash(g, "Anna") == 1950
    assert g.state.position["Anna"] == 14 and "Anna" not in g.state.detained
    play(g, "draw f30", "end")


def test_kept_chance_card_releases_and_goes_to_the_bottom():
    """ШАНС: a card that cannot be used at once is kept until it can; used, it goes to the bottom."""
    g = new(("Anna", "Boris"))
    arrange(g, owner={"leisure3": "Boris"})
    event = play(g, "roll 1 3", "draw c08")  # START -> chance1: keep the release card
    assert "card_kept" in codes(event)
    assert g.state.kept["Anna"] == ("c08",) and "c08" not in g.state.decks["chance"]
    play(g, "end")
    boris_turn(g)
    arrange(g, position={"Anna": "food1"})
    play(g, "roll 1 2", "end")  # 7 -> 10: held
    boris_turn(g)
    play(g, "use_card c08")
    assert "Anna" not in g.state.detained and "Anna" not in g.state.kept
    assert g.state.decks["chance"][-1] == "c08"
    assert cash(g, "Anna") == 2000
    refused(g, "use_card c08", "card_not_held")


# ===== НАЛОГОВАЯ ПОЛИЦИЯ ==================================================================


def test_tax_police_sends_to_tax_inspection_without_circle_income():
    """НАЛОГОВАЯ ПОЛИЦИЯ: off to НАЛОГОВАЯ ИНСПЕКЦИЯ; «Круговой доход при этом не выплачивается»."""
    g = new()
    arrange(g, position={"Anna": "central3"}, held={("Anna", "shares"): 2})
    event = play(g, "roll 2 3")  # 25 -> 30 police -> 10
    assert "circle_income" not in codes(event)
    assert g.state.position["Anna"] == 10
    assert "Anna" in g.state.detained
    assert cash(g, "Anna") == 2000 - 20  # the circle tax of being sent (circle_tax_when_sent)


def test_tax_police_with_a_double_ends_the_move():
    """НАЛОГОВАЯ ПОЛИЦИЯ / ХОД ИГРЫ: sent away, the double gives no further move."""
    g = new()
    arrange(g, position={"Anna": "transport1"})
    play(g, "roll 1 2")  # 27 -> 30
    refused(g, "roll 1 1", "already_rolled")
    g2 = new()
    arrange(g2, position={"Anna": "exemption"})
    play(g2, "roll 2 2")  # 26 -> 30 with a double
    refused(g2, "roll 1 2", "already_rolled")
    play(g2, "end")


# ===== ДЖЕКПОТ ============================================================================


def on_jackpot(players=PLAYERS):
    g = new(players)
    arrange(g, position={"Anna": "inspection"})
    play(g, "roll 4 6")  # 10 -> 20 JACKPOT
    return g


def test_losing_jackpot_bet_stays_in_the_cash_box():
    """ДЖЕКПОТ: «Если игрок проиграл, ставка остаётся в кассе «Джекпот»»."""
    g = on_jackpot()
    event = play(g, "jackpot 50 2 1 1")  # lemon lemon bell
    assert "jackpot_lost" in codes(event)
    assert cash(g, "Anna") == 1950 and cash(g, JACKPOT) == 250


@pytest.mark.parametrize(
    "dice, win",
    [
        ("1 2 1", 2 * 50),  # cherry cherry any: x2
        ("1 2 2", 4 * 50),  # cherry cherry cherry: x4
        ("2 1 3", 6 * 50),  # lemon lemon lemon: x6
        ("3 4 1", 8 * 50),  # bell bell bell: x8
        ("4 3 6", 10 * 50),  # bar bar bar: x10
    ],
)
def test_winning_combination_paid_by_the_bank(dice, win):
    """ДЖЕКПОТ: a winning combination «получает из БАНКА соответствующую сумму», and only a lost
    bet stays in the box («Если игрок проиграл, ставка остаётся в кассе»): the winner has the
    bet back and the box holds its 200 as before."""
    g = on_jackpot()
    event = play(g, f"jackpot 50 {dice}")
    assert codes(event)[-2:] == ["jackpot_won", "jackpot_bet_back"]
    assert cash(g, "Anna") == 2000 + win
    assert cash(g, JACKPOT) == 200


def test_the_jackpot_combination_takes_the_cash_box():
    """ДЖЕКПОТ: the jackpot line (seven seven seven) pays out the whole cash box, bet included."""
    g = on_jackpot()
    play(g, "jackpot 50 6 5 4")
    assert cash(g, "Anna") == 2000 - 50 + 250
    assert cash(g, JACKPOT) == 0


def test_jackpot_only_on_the_cell_once_within_the_bet_limits():
    """ДЖЕКПОТ: only the player who landed there plays, once; bet limits and cash."""
    g = new()
    refused(g, "jackpot 50 1 1 1", "not_on_jackpot")
    g = on_jackpot()
    refused(g, "jackpot 5 1 1 1", "out_of_range")  # jackpot_min_bet 10
    refused(g, "jackpot 600 1 1 1", "out_of_range")  # jackpot_max_bet 500
    arrange(g, cash={"Anna": 40})
    refused(g, "jackpot 50 1 1 1", "insufficient_funds")
    play(g, "jackpot 40 2 1 1")
    refused(g, "jackpot 10 2 1 1", "not_on_jackpot")
    play(g, "end")
    refused(g, "jackpot 10 2 1 1", "not_on_jackpot")


# ===== a table throwing its own dice: `land CELL [double]` =====================================


def test_land_without_a_double_keeps_a_held_player_in():
    """НАЛОГОВАЯ ИНСПЕКЦИЯ: out only «заплатив штраф 50 фантов или выкинув на кубиках дубль»."""
    g = new()
    arrange(g, position={"Anna": "inspection"}, detained={"Anna": 0}, phase="roll")
    if accepted(g, "land tele3"):  # a throw without a double: a missed try
        assert "Anna" in g.state.detained and g.state.position["Anna"] == 10


def test_land_after_three_misses_collects_the_fine():
    """НАЛОГОВАЯ ИНСПЕКЦИЯ: after the third miss «только одним путём: заплатив штраф 50 фантов»."""
    g = new()
    arrange(g, position={"Anna": "inspection"}, detained={"Anna": 3}, phase="roll")
    if accepted(g, "land tele3 double"):
        assert cash(g, "Anna") == 1950


def test_three_doubles_reported_with_land():
    """ХОД ИГРЫ: «Если выпадают три дубля подряд, игрок должен отправиться в НАЛОГОВУЮ ИНСПЕКЦИЮ»."""
    g = new()
    play(g, "land exchange1 double", "land auction double", "auction_roll 6 1 1")
    if accepted(g, "land jackpot double"):
        assert g.state.position["Anna"] == 10 and "Anna" in g.state.detained


@pytest.mark.parametrize(
    "cell, command, code",
    [
        ("exchange1", "exchange 2 6", "not_on_exchange"),
        ("jackpot", "jackpot 10 2 1 1", "not_on_jackpot"),
    ],
)
def test_moving_on_with_land_ends_the_visit(cell, command, code):
    """ИГРА НА БИРЖЕ: the exchange is played «Находясь на БИРЖЕ»; ДЖЕКПОТ: by «Игрок, попавший на клетку ДЖЕКПОТ»."""
    g = new(rules=teleporting("elite"))
    play(g, f"land {cell} double", "land transport1")  # the double's second move goes on to transport1
    play(g, "decline", "hammer")
    refused(g, command, code)


def test_land_reports_only_distances_two_dice_can_make():
    """ХОД ИГРЫ: two dice move a token 2 to 12 cells, a double an even number of them; a
    mistyped landing is refused instead of paying a lap's income (land_checks_distance)."""
    g = new()
    refused(g, "land leisure1", "not_a_roll")  # 1 cell
    refused(g, "land start", "not_a_roll")  # 40 cells: a whole lap
    refused(g, "land food1 double", "not_a_roll")  # 7 cells is no double
    play(g, "land food1")  # 7 cells
    assert g.state.position["Anna"] == 7


# ===== refusals in general =================================================================


@pytest.mark.parametrize(
    "line, code",
    [
        ("fly", "unknown_command"),
        ("roll 1", "dice_count"),
        ("roll 1 7", "out_of_range"),
        ("buy", "no_offer"),
        ("decline", "no_offer"),
        ("bid Anna 10", "no_auction"),
        ("hammer", "no_auction"),
        ("draw", "no_draw"),
        ("choose leisure1", "no_choice"),
        ("auction_roll 1 2 3", "no_auction_roll"),
        ("end", "roll_first"),
        ("pay_fine", "not_detained"),
        ("build leisure9", "unknown_plot"),
        ("buy_shares Gleb 1", "unknown_player"),
        ("buy_shares Anna x", "not_a_number"),
        ("sell_shares Anna 1", "not_enough_shares"),
        ("use_policy Anna red", "no_policy"),
        ("pay Anna Boris 2001", "insufficient_funds"),
        ("bankrupt Anna", "not_in_debt"),
    ],
)
def test_refused_commands_change_nothing(line, code):
    """ХОД ИГРЫ and every other section: a refused command leaves the table exactly as it was,
    with a documented reason (a message code with English and Russian text)."""
    g = new()
    refused(g, line, code)


# ----- commands in the table's words ---------------------------------------------------------------


def test_commands_take_plot_names_and_russian_policy_colours():
    """Issue 8, the words of the box: a table types what it sees: a plot by its name as shown
    («Ночной клуб», any case, in quotes when it has spaces) and a policy colour in Russian (ЗЕЛЁНЫЙ, as
    ПРАВИЛА СТРАХОВАНИЯ names it) as well as by their ids."""
    g = new()
    arrange(g, owner={"leisure1": "Anna", "leisure2": "Anna", "leisure3": "Anna"})
    play(g, 'build "ночной клуб"', "insure Anna ЗЕЛЁНЫЙ", "insure Boris красный")
    assert g.state.level["leisure3"] == 1
    assert g.state.held("Anna", "green") == 1 and g.state.held("Boris", "red") == 1
