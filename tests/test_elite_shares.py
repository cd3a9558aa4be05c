"""Millionaire Elite rule by rule: shares, the EXCHANGE, circle income and the circle tax.

Against the Russian rulebook (millionaire-elite-ru.txt), section by section; the board,
the shared helpers and how these tests are written: tests/elite_helpers.py.
"""

import pytest
from elite_helpers import (
    arrange,
    cash,
    codes,
    new,
    play,
    refused,
)

# ===== АКЦИИ: КУПЛЯ-ПРОДАЖА ==============================================================


def test_shares_bought_before_the_game_at_100():
    """АКЦИИ / КУПЛЯ-ПРОДАЖА: anyone may buy before the game; first price 100."""
    g = new()
    play(g, "buy_shares Vera 3", "buy_shares Anna 1")
    assert g.state.held("Vera", "shares") == 3 and cash(g, "Vera") == 1700
    assert g.state.held("Anna", "shares") == 1 and cash(g, "Anna") == 1900


def test_no_share_purchase_outside_the_windows():
    """АКЦИИ / КУПЛЯ-ПРОДАЖА: after the game starts, shares are bought only on START or the EXCHANGE."""
    g = new()
    play(g, "roll 1 2", "decline", "hammer")  # the game has started
    refused(g, "buy_shares Anna 1", "no_share_window")
    refused(g, "buy_shares Boris 1", "no_share_window")
    play(g, "end")
    refused(g, "buy_shares Boris 1", "no_share_window")


def test_shares_bought_on_passing_start_until_the_turn_ends():
    """АКЦИИ / КУПЛЯ-ПРОДАЖА: «проходя через клетку СТАРТ» the passing player may buy shares."""
    g = new()
    arrange(g, position={"Anna": "exchange3"}, phase="roll")
    play(g, "roll 3 4")  # 36 -> 3 (leisure3), passing START: +200
    assert cash(g, "Anna") == 2200
    play(g, "buy_shares Anna 2")
    assert cash(g, "Anna") == 2000 and g.state.held("Anna", "shares") == 2
    refused(g, "buy_shares Boris 1", "no_share_window")  # only the player who passed
    play(g, "decline", "hammer", "end")
    refused(g, "buy_shares Anna 1", "no_share_window")  # the window closed with the turn


def test_passing_start_onto_the_exchange_keeps_both_exchange_trades():
    """АКЦИИ / КУПЛЯ-ПРОДАЖА: shares are bought «проходя через клетку СТАРТ ..., а также при попадании на
    клетку БИРЖА»; ИГРА НА БИРЖЕ: the two trades are those made «Находясь на БИРЖЕ»."""
    g = new()
    arrange(g, position={"Anna": "mining1"}, phase="roll")
    play(g, "roll 3 5")  # 38 -> 6 exchange1, passing START: +200
    play(g, "buy_shares Anna 1")  # the purchase on passing START
    play(g, "buy_shares Anna 1")  # the trade before the exchange roll
    play(g, "exchange 2 1")  # up 10: 110
    play(g, "sell_shares Anna 1")  # the trade after
    refused(g, "buy_shares Anna 1", "exchange_trade_used")
    assert cash(g, "Anna") == 2000 + 200 - 100 - 100 + 110


def test_shares_sold_to_the_bank_only_before_ones_own_move():
    """АКЦИИ / КУПЛЯ-ПРОДАЖА: sell «в любой момент игры перед очередным своим ходом»."""
    g = new()
    arrange(g, held={("Anna", "shares"): 3, ("Boris", "shares"): 2}, price=120, phase="roll")
    play(g, "sell_shares Anna 1")  # before her own roll: 120
    assert cash(g, "Anna") == 2120
    play(g, "roll 1 2")  # Anna is moving now
    refused(g, "sell_shares Anna 1", "before_own_turn_only")
    play(g, "sell_shares Boris 2")  # not Boris's move: 2 x 120
    assert cash(g, "Boris") == 2240 and g.state.held("Boris", "shares") == 0
    play(g, "decline", "hammer", "end")
    play(g, "sell_shares Anna 1")  # Boris's turn: Anna may sell again
    assert cash(g, "Anna") == 2240
    refused(g, "sell_shares Anna 5", "not_enough_shares")


def test_share_price_never_below_zero_and_the_bank_stops_selling_at_zero():
    """ИГРА НА БИРЖЕ: price floor 0; at 0 «БАНК прекращает продажу акций»; holders hand shares back."""
    g = new()
    arrange(g, position={"Anna": "start"}, price=30, held={("Boris", "shares"): 4})
    play(g, "roll 3 3")  # START -> exchange1
    play(g, "exchange 1 6")  # odd: down 6 points = 60 from 30: floor 0
    assert g.state.extra["price"] == 0
    refused(g, "buy_shares Anna 1", "bank_not_selling")
    refused(g, "commission Boris 1 0", "bank_not_selling")
    play(g, "sell_shares Boris 4")  # handed back for nothing
    assert g.state.held("Boris", "shares") == 0 and cash(g, "Boris") == 2000


def test_the_bank_does_not_sell_at_zero_even_before_the_game():
    """ИГРА НА БИРЖЕ: at price 0 the bank sells no shares, whatever the window."""
    g = new()
    arrange(g, price=0)
    refused(g, "buy_shares Anna 1", "bank_not_selling")


def test_the_box_holds_48_shares():
    """КОМПЛЕКТАЦИЯ ИГРЫ: 48 shares; the bank cannot sell the 49th."""
    g = new()
    arrange(g, cash={"Anna": 5000})
    play(g, "buy_shares Anna 48")
    assert cash(g, "Anna") == 5000 - 4800
    refused(g, "buy_shares Boris 1", "supply_out")
    play(g, "sell_shares Anna 1", "buy_shares Boris 1")  # one back in the box, one out again
    assert g.state.held("Boris", "shares") == 1


# ===== ИГРА НА БИРЖЕ ======================================================================


@pytest.mark.parametrize(
    "first, second, price",
    [
        (2, 1, 110),
        (4, 6, 160),
        (6, 3, 130),  # even: up by second x 10
        (1, 1, 90),
        (3, 6, 40),
        (5, 2, 80),  # odd: down
    ],
)
def test_exchange_first_die_even_up_odd_down_second_die_points_of_10(first, second, price):
    """ИГРА НА БИРЖЕ: first roll even = up, odd = down; second roll 1-6 points, a point is 10."""
    g = new()
    play(g, "roll 3 3")  # START -> exchange1
    event = play(g, f"exchange {first} {second}")
    assert g.state.extra["price"] == price
    assert "share_price" in codes(event)


def test_only_the_player_on_the_exchange_plays_it_once():
    """ИГРА НА БИРЖЕ: the player who landed on БИРЖА rolls twice, once per visit."""
    g = new()
    refused(g, "exchange 2 2", "not_on_exchange")
    play(g, "roll 1 2", "decline", "hammer")  # leisure3: not the exchange
    refused(g, "exchange 2 2", "not_on_exchange")
    play(g, "end", "roll 3 3")  # Boris: START -> exchange1
    play(g, "exchange 2 2")
    refused(g, "exchange 2 2", "exchange_played")
    play(g, "roll 1 2")  # his double's second move ends the visit
    refused(g, "buy_shares Boris 1", "no_share_window")


def test_two_trades_on_the_exchange_one_before_one_after():
    """ИГРА НА БИРЖЕ: «не более двух операций купли-продажи акций — одну до, а другую после»."""
    g = new()
    arrange(g, phase="roll", held={("Anna", "shares"): 1})
    play(g, "roll 3 3")  # START -> exchange1
    play(g, "buy_shares Anna 2")  # the trade before: 200
    refused(g, "buy_shares Anna 1", "exchange_trade_used")
    refused(g, "sell_shares Anna 1", "exchange_trade_used")
    play(g, "exchange 4 5")  # up 50: 150
    play(g, "sell_shares Anna 3")  # the trade after: 3 x 150
    refused(g, "sell_shares Anna 1", "not_enough_shares")
    refused(g, "buy_shares Anna 1", "exchange_trade_used")
    assert cash(g, "Anna") == 2000 - 200 + 450


def test_no_trade_before_the_roll_does_not_give_two_after():
    """ИГРА НА БИРЖЕ: the trades are one before and one after, not two after."""
    g = new()
    arrange(g, phase="roll")
    play(g, "roll 3 3", "exchange 2 1", "buy_shares Anna 1")  # price 110
    refused(g, "buy_shares Anna 1", "exchange_trade_used")
    assert cash(g, "Anna") == 2000 - 110


def test_others_buy_through_the_player_on_the_exchange_once_each_for_a_commission():
    """ИГРА НА БИРЖЕ: others buy through the player on БИРЖА for an agreed commission, once each."""
    g = new()
    arrange(g, phase="roll")
    refused(g, "commission Boris 1 10", "nobody_on_exchange")
    play(g, "roll 3 3")  # Anna on exchange1
    play(g, "commission Boris 2 15")  # Boris pays Anna 15 and the bank 2 x 100
    assert cash(g, "Boris") == 2000 - 15 - 200 and cash(g, "Anna") == 2015
    assert g.state.held("Boris", "shares") == 2
    refused(g, "commission Boris 1 15", "commission_used")
    refused(g, "commission Anna 1 0", "commission_self")
    play(g, "exchange 2 3")  # up 30: 130
    refused(g, "commission Boris 1 15", "commission_used")  # before OR after, not both
    play(g, "commission Vera 1 5")  # Vera's one purchase, after the roll
    assert cash(g, "Vera") == 2000 - 5 - 130 and cash(g, "Anna") == 2020
    # commissions are not Anna's own trades: she still has both
    play(g, "buy_shares Anna 1")
    assert g.state.held("Anna", "shares") == 1


def test_the_exchange_visit_ends_with_the_turn():
    """ИГРА НА БИРЖЕ: the trades belong to this visit only."""
    g = new()
    arrange(g, phase="roll")
    play(g, "roll 1 5", "end")  # Anna on exchange1, then Boris's turn
    refused(g, "buy_shares Anna 1", "no_share_window")
    refused(g, "exchange 2 2", "not_on_exchange")
    refused(g, "commission Vera 1 5", "nobody_on_exchange")


def test_the_price_holds_until_the_next_exchange_landing():
    """ИГРА НА БИРЖЕ: «Новый курс акций держится до тех пор, пока на клетку БИРЖА не попадёт другой игрок»."""
    g = new()
    play(g, "roll 1 5", "exchange 2 4", "end")  # Anna: 140
    play(g, "roll 1 5")  # Boris on exchange1 too
    assert g.state.extra["price"] == 140
    play(g, "exchange 5 3")  # down 30
    assert g.state.extra["price"] == 110


# ===== КРУГОВОЙ ДОХОД =====================================================================


def test_circle_income_200_plus_20_percent_of_the_shares_value():
    """КРУГОВОЙ ДОХОД: 200 plus 20% of the current value of the shares held (3 x 130 -> 78)."""
    g = new()
    arrange(g, position={"Anna": "exchange3"}, held={("Anna", "shares"): 3}, price=130)
    event = play(g, "roll 1 3")  # 36 -> START (landing counts)
    assert "circle_income" in codes(event)
    assert cash(g, "Anna") == 2000 + 200 + 78


def test_circle_income_on_passing_start():
    """КРУГОВОЙ ДОХОД: paid «каждый раз, когда игрок очередным ходом проходит клетку СТАРТ»."""
    g = new()
    arrange(g, position={"Anna": "mining1"}, held={("Anna", "shares"): 1})
    play(g, "roll 1 3")  # 38 -> 2 (leisure2): 200 + 20
    assert cash(g, "Anna") == 2220


def test_dividends_round_down():
    """КРУГОВОЙ ДОХОД: 20% of 1 x 95 = 19 (rounded down to whole fanty)."""
    g = new()
    arrange(g, position={"Anna": "exchange3"}, held={("Anna", "shares"): 1}, price=95)
    play(g, "roll 1 3")
    assert cash(g, "Anna") == 2000 + 200 + 19


# ===== КРУГОВОЙ НАЛОГ =====================================================================


def test_circle_tax_on_passing_tax_inspection():
    """КРУГОВОЙ НАЛОГ: 10 per share plus the printed tax of each plot (not a monopolist)."""
    g = new()
    arrange(
        g,
        owner={"leisure1": "Anna", "tele3": "Anna", "light2": "Anna"},
        held={("Anna", "shares"): 2},
        position={"Anna": "food2"},
    )
    event = play(g, "roll 3 3")  # 8 -> 14 passing 10
    assert "circle_tax" in codes(event)
    assert cash(g, "Anna") == 2000 - (20 + 3 + 8 + 12)  # 2 shares x 10; leisure1 3, tele3 8, light2 12


def test_circle_tax_on_landing_on_tax_inspection():
    """КРУГОВОЙ НАЛОГ: «вне зависимости от того, миновал он ... или попал непосредственно на эту клетку»."""
    g = new()
    arrange(g, owner={"leisure1": "Anna"}, held={("Anna", "shares"): 2})
    play(g, "roll 4 6")
    assert cash(g, "Anna") == 2000 - (20 + 3)  # 2 shares x 10, leisure1 printed 3


@pytest.mark.parametrize(
    "levels, tax",
    [
        ((0, 0, 0), 6 + 6 + 6),  # monopoly: the TAX TABLE's second step, 3 x 2
        ((1, 1, 1), 9 + 9 + 9),  # 1 branch: 3 x 3
        ((2, 2, 1), 12 + 12 + 9),  # 2 branches: 3 x 4
        ((4, 4, 4), 18 + 18 + 18),  # enterprise: 3 x 6
    ],
)
def test_circle_tax_of_a_monopolist_by_buildings(levels, tax):
    """КРУГОВОЙ НАЛОГ: the real tax comes from the TAX TABLE (monopoly, branches, enterprise)."""
    g = new()
    plots = ("leisure1", "leisure2", "leisure3")
    arrange(
        g,
        owner={p: "Anna" for p in plots},
        level={p: n for p, n in zip(plots, levels) if n},
        position={"Anna": "food2"},
    )
    play(g, "roll 3 3")
    assert cash(g, "Anna") == 2000 - tax


def test_no_circle_tax_on_a_mortgaged_plot_and_the_monopoly_is_broken():
    """КРУГОВОЙ НАЛОГ / ПРАВИЛА ЗАЛОГА: mortgaged leisure1 pays nothing (tax_on_mortgaged = false); the rest the printed 3 + 3."""
    g = new()
    arrange(
        g,
        owner={"leisure1": "Anna", "leisure2": "Anna", "leisure3": "Anna"},
        mortgaged={"leisure1"},
        position={"Anna": "food2"},
    )
    play(g, "roll 3 3")
    assert cash(g, "Anna") == 2000 - (3 + 3)


def test_tax_exemption_cell_skips_one_circle_tax():
    """ОСВОБОЖДЕНИЕ ОТ НАЛОГА: free of circle tax «на один круг (одно прохождение ... ИНСПЕКЦИЯ)»."""
    g = new()
    arrange(g, position={"Anna": "media1"}, held={("Anna", "shares"): 3})
    event = play(g, "roll 2 3")  # 21 -> 26 exemption
    assert "tax_exemption" in codes(event)
    play(g, "end")
    arrange(g, turn="Anna", phase="roll", position={"Anna": "food2"})
    event = play(g, "roll 2 4")  # 8 -> 14, passing TAX INSPECTION: exempt
    assert "tax_exempted" in codes(event)
    assert cash(g, "Anna") == 2000
    play(g, "draw f30", "end")
    arrange(g, turn="Anna", phase="roll", position={"Anna": "food2"})
    play(g, "roll 2 4")  # the next passing is taxed: 3 x 10
    assert cash(g, "Anna") == 2000 - 30


def test_chance_tax_exemption_card():
    """ШАНС / ОСВОБОЖДЕНИЕ ОТ НАЛОГА: the CHANCE card frees one circle tax too."""
    g = new()
    arrange(g, held={("Anna", "shares"): 3})
    play(g, "roll 1 3", "draw c11")  # START -> chance1
    play(g, "end")
    arrange(g, turn="Anna", phase="roll", position={"Anna": "food2"})
    play(g, "roll 3 3")
    assert cash(g, "Anna") == 2000
