"""Millionaire Elite rule by rule: plots, rent, the central industry, buildings, mortgages, trades, the end.

Against the Russian rulebook (millionaire-elite-ru.txt), section by section; the board,
the shared helpers and how these tests are written: tests/elite_helpers.py.
"""

import pytest
from elite_helpers import (
    EDITION,
    accepted,
    arrange,
    cash,
    codes,
    new,
    play,
    policy_debt,
    refused,
)
from helpers import edition_variant

from companion.engine.state import BANK
from companion.errors import RuleViolation

# ===== ОСТАНОВКА НА «СВОБОДНОМ» УЧАСТКЕ ==================================================


def test_free_plot_bought_at_printed_price():
    """ОСТАНОВКА НА «СВОБОДНОМ» УЧАСТКЕ: pay the bank the printed price, take the plot card."""
    g = new()
    play(g, "roll 1 2")  # START -> leisure3, price 70
    assert g.state.pending.kind == "offer"
    refused(g, "end", "pending_first")
    play(g, "buy")
    assert g.state.owner["leisure3"] == "Anna"
    assert cash(g, "Anna") == 2000 - 70


def test_buying_needs_the_money():
    """ОСТАНОВКА НА «СВОБОДНОМ» УЧАСТКЕ: buying means paying the bank; short of cash, refused."""
    g = new()
    arrange(g, cash={"Anna": 69})  # leisure3 costs 70
    play(g, "roll 1 2")
    refused(g, "buy", "insufficient_funds")


def test_declining_opens_an_auction_at_the_hosts_opening_price():
    """ОСТАНОВКА НА «СВОБОДНОМ» УЧАСТКЕ: a declined plot goes to auction; the host sets the opening price."""
    g = new()
    play(g, "roll 1 2", "decline")  # leisure3 declined
    a = g.state.pending
    assert a.kind == "auction" and a.plot == "leisure3" and a.seller == BANK
    assert a.opening == 35  # auction_opening_percent 50 of 70 until the host says
    refused(g, "bid Boris 34", "bid_too_low")
    play(g, "opening 30")  # the auction host's opening price
    refused(g, "bid Boris 29", "bid_too_low")
    play(g, "bid Boris 30")
    refused(g, "opening 10", "auction_has_bids")


def test_the_decliner_may_bid_and_the_highest_bid_wins():
    """ОСТАНОВКА НА «СВОБОДНОМ» УЧАСТКЕ: anyone bids, including the one who declined; highest wins."""
    g = new()
    play(g, "roll 1 2", "decline")
    play(g, "bid Boris 70", "bid Anna 80", "bid Vera 90")
    refused(g, "bid Boris 90", "bid_too_low")  # a bid must beat the highest
    play(g, "bid Anna 100", "hammer")
    assert g.state.owner["leisure3"] == "Anna"
    assert cash(g, "Anna") == 2000 - 100  # the winning bid goes to the bank
    assert cash(g, "Boris") == 2000 and cash(g, "Vera") == 2000
    assert g.state.pending is None


def test_auction_without_bids_leaves_the_plot_on_the_board():
    """ОСТАНОВКА НА «СВОБОДНОМ» УЧАСТКЕ: no bid, no sale; the plot stays free."""
    g = new()
    play(g, "roll 1 2", "decline", "hammer")
    assert "leisure3" not in g.state.owner
    assert cash(g, "Anna") == 2000
    play(g, "end")


def test_a_bid_needs_the_money():
    """ОСТАНОВКА НА «СВОБОДНОМ» УЧАСТКЕ: a bidder must be able to pay the bid."""
    g = new()
    arrange(g, cash={"Boris": 70})
    play(g, "roll 1 2", "decline")
    refused(g, "bid Boris 71", "insufficient_funds")
    play(g, "bid Boris 70", "hammer")
    assert g.state.owner["leisure3"] == "Boris" and cash(g, "Boris") == 0


# ===== ОСТАНОВКА НА «ЧУЖОМ» УЧАСТКЕ =====================================================


def test_printed_rent_when_the_owner_is_not_a_monopolist():
    """ОСТАНОВКА НА «ЧУЖОМ» УЧАСТКЕ: the printed rent when the owner does not hold the whole industry."""
    g = new()
    arrange(g, owner={"leisure3": "Boris", "leisure1": "Boris"})
    play(g, "roll 1 2")  # Anna lands on leisure3: printed rent 6
    assert cash(g, "Anna") == 2000 - 6
    assert cash(g, "Boris") == 2000 + 6


def test_monopoly_rent_from_the_rent_table():
    """ОСТАНОВКА НА «ЧУЖОМ» УЧАСТКЕ: a monopolist's rent comes from the RENT TABLE (leisure3: 6 x 2 = 12)."""
    g = new()
    arrange(g, owner={"leisure1": "Boris", "leisure2": "Boris", "leisure3": "Boris"})
    play(g, "roll 1 2")
    assert cash(g, "Anna") == 2000 - 12
    assert cash(g, "Boris") == 2000 + 12


@pytest.mark.parametrize("level, rent", [(1, 6 * 4), (2, 6 * 6), (3, 6 * 8), (4, 6 * 10)])
def test_rent_per_building_level(level, rent):
    """ОСТАНОВКА НА «ЧУЖОМ» УЧАСТКЕ / ФИЛИАЛЫ И ПРЕДПРИЯТИЯ: rent by buildings (1-3 branches, enterprise)."""
    g = new()
    levels = {"leisure1": level, "leisure2": level, "leisure3": level}
    arrange(g, owner={"leisure1": "Boris", "leisure2": "Boris", "leisure3": "Boris"}, level=levels)
    play(g, "roll 1 2")  # leisure3 rent list 6, 12, 24, 36, 48, 60
    assert cash(g, "Anna") == 2000 - rent
    assert cash(g, "Boris") == 2000 + rent


def test_no_rent_on_a_mortgaged_plot():
    """ПРАВИЛА ЗАЛОГА: «Арендная плата с игроков, посещающих заложенный участок, не взимается»."""
    g = new()
    arrange(g, owner={"leisure3": "Boris"}, mortgaged={"leisure3"})
    event = play(g, "roll 1 2")
    assert "no_rent_mortgaged" in codes(event)
    assert cash(g, "Anna") == 2000 and cash(g, "Boris") == 2000


def test_a_mortgaged_plot_breaks_the_monopoly_rent():
    """ФИЛИАЛЫ И ПРЕДПРИЯТИЯ: with a mortgaged plot the industry is incomplete: printed rent (6, not 12)."""
    g = new()
    arrange(g, owner={"leisure1": "Boris", "leisure2": "Boris", "leisure3": "Boris"}, mortgaged={"leisure1"})
    play(g, "roll 1 2")
    assert cash(g, "Anna") == 2000 - 6


def test_no_rent_on_ones_own_plot():
    """ОСТАНОВКА НА «ЧУЖОМ» УЧАСТКЕ: rent is paid only on someone else's plot."""
    g = new()
    arrange(g, owner={"leisure3": "Anna"})
    event = play(g, "roll 1 2")
    assert "own_plot" in codes(event)
    assert cash(g, "Anna") == 2000


def test_unpayable_rent_becomes_a_debt_that_blocks_play_until_paid():
    """ОСТАНОВКА НА «ЧУЖОМ» УЧАСТКЕ / ОКОНЧАНИЕ ИГРЫ: rent is owed; selling shares pays it at once."""
    g = new()
    arrange(
        g,
        owner={"leisure1": "Boris", "leisure2": "Boris", "leisure3": "Boris"},
        level={"leisure1": 4, "leisure2": 4, "leisure3": 4},
        cash={"Anna": 40},
        held={("Anna", "shares"): 2},
    )
    play(g, "roll 1 2")  # rent 60 (enterprise: 6 x 10), Anna has 40
    assert g.state.debts[0].amount == 60
    assert cash(g, "Anna") == 40
    refused(g, "end", "debt_first")
    refused(g, "insure Anna green", "debt_first")
    play(g, "sell_shares Anna 2")  # 40 + 200 = 240 >= 60: paid
    assert g.state.debts == ()
    assert cash(g, "Anna") == 240 - 60
    assert cash(g, "Boris") == 2000 + 60
    play(g, "end")


# ===== ЦЕНТРАЛЬНАЯ ОТРАСЛЬ =================================================================


def test_central_plot_costs_500():
    """ЦЕНТРАЛЬНАЯ ОТРАСЛЬ: «Стоимость любого участка центральной отрасли — 500 фантов»."""
    g = new()
    play(g, "roll 2 3", "buy")  # START -> central1
    assert g.state.owner["central1"] == "Anna"
    assert cash(g, "Anna") == 1500


@pytest.mark.parametrize("count, rent", [(1, 30), (2, 100), (3, 200), (4, 500)])
def test_central_rent_by_how_many_central_plots_the_owner_holds(count, rent):
    """ЦЕНТРАЛЬНАЯ ОТРАСЛЬ: rent from the RENT TABLE by the number of central plots owned."""
    g = new()
    owned = ["central1", "central2", "central3", "central4"][:count]
    arrange(g, owner={pid: "Boris" for pid in owned})
    play(g, "roll 2 3")  # Anna lands on central1
    assert cash(g, "Anna") == 2000 - rent
    assert cash(g, "Boris") == 2000 + rent


def test_nothing_may_be_built_on_the_central_industry():
    """ЦЕНТРАЛЬНАЯ ОТРАСЛЬ: «Постройка филиалов и предприятий ... ЗАПРЕЩАЕТСЯ», even owning all four."""
    g = new()
    arrange(g, owner={f"central{i}": "Anna" for i in range(1, 5)})
    for i in range(1, 5):
        refused(g, f"build central{i}", "not_buildable")


def test_central_plots_taxed_by_count():
    """ЦЕНТРАЛЬНАЯ ОТРАСЛЬ / КРУГОВОЙ НАЛОГ: two central plots pay the TAX TABLE's 40 each."""
    g = new()
    arrange(g, owner={"central1": "Anna", "central2": "Anna"}, position={"Anna": "food2"})
    play(g, "roll 3 3")  # food2 -> fortune1, passing TAX INSPECTION
    assert cash(g, "Anna") == 2000 - 2 * 40


# ===== ФИЛИАЛЫ И ПРЕДПРИЯТИЯ ==============================================================


def leisure_monopoly(**kw):
    g = new()
    arrange(g, owner={"leisure1": "Anna", "leisure2": "Anna", "leisure3": "Anna"}, **kw)
    return g


def test_only_a_monopolist_builds():
    """ФИЛИАЛЫ И ПРЕДПРИЯТИЯ: «Игрок, монопольно владеющий всей отраслью, может строить»."""
    g = new()
    arrange(g, owner={"leisure1": "Anna", "leisure2": "Anna", "leisure3": "Boris"})
    refused(g, "build leisure1", "need_monopoly")
    refused(g, "build food1", "plot_unowned")


def test_build_evenly_branches_then_an_enterprise_at_the_same_price():
    """ФИЛИАЛЫ И ПРЕДПРИЯТИЯ: a branch on every plot, then the second, the third; then enterprises,
    «Стоимость предприятия равна стоимости филиала» (leisure: 50)."""
    g = leisure_monopoly()
    play(g, "build leisure1")
    refused(g, "build leisure1", "build_evenly")
    play(g, "build leisure2", "build leisure3")
    for _ in range(2):
        play(g, "build leisure1", "build leisure2", "build leisure3")
    assert all(g.state.level[p] == 3 for p in ("leisure1", "leisure2", "leisure3"))
    play(g, "build leisure2")  # enterprise on leisure2
    refused(g, "build leisure2", "fully_built")
    play(g, "build leisure1", "build leisure3")
    refused(g, "build leisure1", "fully_built")
    assert cash(g, "Anna") == 2000 - 12 * 50


def test_building_needs_the_money():
    """ФИЛИАЛЫ И ПРЕДПРИЯТИЯ: buildings are bought from the bank."""
    g = leisure_monopoly(cash={"Anna": 49})
    refused(g, "build leisure1", "insufficient_funds")


def test_buildings_sold_evenly_at_half_price():
    """ФИЛИАЛЫ И ПРЕДПРИЯТИЯ: removed evenly, one from each plot, «за половину от их номинальной цены»."""
    g = leisure_monopoly(level={"leisure1": 2, "leisure2": 2, "leisure3": 1})
    refused(g, "sell_building leisure3", "sell_evenly")
    play(g, "sell_building leisure1")
    assert cash(g, "Anna") == 2025
    refused(g, "sell_building leisure1", "sell_evenly")
    play(g, "sell_building leisure2", "sell_building leisure1", "sell_building leisure2", "sell_building leisure3")
    assert cash(g, "Anna") == 2000 + 5 * 25
    refused(g, "sell_building leisure1", "no_building")


def test_an_enterprise_sells_back_at_half_price():
    """ФИЛИАЛЫ И ПРЕДПРИЯТИЯ: an enterprise (heavy industry: 200) sells for 100."""
    g = new()
    arrange(g, owner={p: "Anna" for p in ("heavy1", "heavy2", "heavy3")}, level={"heavy1": 4, "heavy2": 4, "heavy3": 3})
    refused(g, "sell_building heavy3", "sell_evenly")
    play(g, "sell_building heavy1")
    assert g.state.level["heavy1"] == 3 and cash(g, "Anna") == 2100


def test_a_mortgaged_plot_stops_building_in_the_industry():
    """ФИЛИАЛЫ И ПРЕДПРИЯТИЯ: «застройка незаложенных участков данной отрасли запрещается»."""
    g = leisure_monopoly(mortgaged={"leisure3"})
    refused(g, "build leisure1", "need_monopoly")
    play(g, "redeem leisure3", "build leisure1")  # redeemed (35 + 7): building again (50)
    assert cash(g, "Anna") == 2000 - 42 - 50


def test_the_box_holds_24_branches():
    """КОМПЛЕКТАЦИЯ ИГРЫ: 24 branches; the 25th cannot be built."""
    g = new()
    plots = (
        "leisure1",
        "leisure2",
        "leisure3",
        "food1",
        "food2",
        "light1",
        "light2",
        "light3",
        "tele1",
        "tele2",
        "tele3",
    )
    arrange(
        g,
        owner={p: "Anna" for p in plots},
        cash={"Anna": 5000},
        level={
            "leisure1": 3,
            "leisure2": 3,
            "leisure3": 3,
            "food1": 3,
            "food2": 3,
            "light1": 1,
            "light2": 1,
            "light3": 1,
            "tele1": 2,
            "tele2": 2,
            "tele3": 1,
        },
    )  # 9 + 6 + 3 + 5 = 23 branches on the board
    play(g, "build tele3")  # the 24th (tele: 100)
    refused(g, "build tele1", "supply_out")
    play(g, "build leisure1")  # an enterprise (50) needs no branch from the box
    assert g.state.level["leisure1"] == 4
    play(g, "sell_building tele1", "build tele1")  # a branch back in the box (+50), out again (100)
    assert cash(g, "Anna") == 5000 - 100 - 50 + 50 - 100


def test_all_12_enterprises_can_be_built():
    """КОМПЛЕКТАЦИЯ ИГРЫ: 24 branches and 12 enterprises in the box; a board using all 12 enterprises
    must be reachable (it is when an enterprise replaces the three branches under it)."""
    g = new()
    industries = ("leisure", "tele", "light", "media")  # 12 plots of triple industries
    plots = [p for p in EDITION.plots if EDITION.plots[p].industry in industries]
    arrange(g, owner={p: "Anna" for p in plots}, cash={"Anna": 20000})
    for industry in industries:  # one industry at a time, evenly, up to enterprises
        for _level in range(4):
            for p in EDITION.industry_plots(industry):
                accepted(g, f"build {p}")
    assert sum(1 for p in plots if g.state.level.get(p) == 4) == 12


def test_the_box_holds_12_enterprises():
    """КОМПЛЕКТАЦИЯ ИГРЫ: the enterprise supply is enforced (shown with a box of 1 enterprise)."""
    rules = edition_variant("elite", replace=[("large = 12", "large = 1")])
    g = new(("Anna", "Boris"), rules=rules)
    s = g.state.copy()
    for p in ("leisure1", "leisure2", "leisure3"):
        s.owner[p], s.level[p] = "Anna", 3
    g.state = s
    g.apply("build leisure1")
    with pytest.raises(RuleViolation) as info:
        g.apply("build leisure2")
    assert info.value.code == "supply_out"


# ===== ПРАВИЛА ЗАЛОГА =====================================================================


def test_mortgage_pays_half_the_value_after_the_buildings_are_sold():
    """ПРАВИЛА ЗАЛОГА: sell the plot's buildings first; «БАНК выплачивает владельцу половину стоимости»."""
    g = leisure_monopoly(level={"leisure1": 1, "leisure2": 1, "leisure3": 1})
    refused(g, "mortgage leisure3", "sell_buildings_first")
    play(g, "sell_building leisure3", "mortgage leisure3")
    assert cash(g, "Anna") == 2000 + 25 + 35  # half of the branch's 50, half of the plot's 70
    assert "leisure3" in g.state.mortgaged
    refused(g, "mortgage leisure3", "already_mortgaged")
    refused(g, "mortgage food1", "plot_unowned")


@pytest.mark.parametrize("plot, cost", [("leisure3", 35 + 7), ("mining2", 175 + 35), ("central1", 250 + 50)])
def test_redeem_for_half_the_value_plus_10_percent(plot, cost):
    """ПРАВИЛА ЗАЛОГА: «вернуть в БАНК половину стоимости участка плюс 10 % от его первоначальной стоимости»."""
    g = new()
    arrange(g, owner={plot: "Anna"}, mortgaged={plot})
    play(g, f"redeem {plot}")
    assert cash(g, "Anna") == 2000 - cost
    assert plot not in g.state.mortgaged
    refused(g, f"redeem {plot}", "not_mortgaged")


def test_redeem_only_before_ones_own_move():
    """ПРАВИЛА ЗАЛОГА: «В любой момент игры, но только перед своим ходом»."""
    g = new()
    arrange(g, owner={"food1": "Anna", "food2": "Anna"}, mortgaged={"food1", "food2"}, phase="roll")
    play(g, "redeem food1")  # before her roll: 45 + 9 (price 90)
    play(g, "roll 1 2", "decline", "hammer")
    refused(g, "redeem food2", "before_own_turn_only")
    play(g, "end")
    play(g, "redeem food2")  # during Boris's turn: 50 + 10 (price 100)
    assert cash(g, "Anna") == 2000 - 54 - 60


def test_redeem_needs_the_money():
    """ПРАВИЛА ЗАЛОГА: the redemption is paid to the bank."""
    g = new()
    arrange(g, owner={"leisure3": "Anna"}, mortgaged={"leisure3"}, cash={"Anna": 41})  # redeeming costs 35 + 7
    refused(g, "redeem leisure3", "insufficient_funds")


# ===== ТОРГОВЛЯ СОБСТВЕННОСТЬЮ ============================================================


def test_trade_unbuilt_plots_and_money_on_any_terms():
    """ТОРГОВЛЯ СОБСТВЕННОСТЬЮ: unbuilt plots are bought, sold and swapped on the owners' terms."""
    g = new()
    arrange(g, owner={"leisure1": "Anna", "food1": "Boris", "central1": "Boris"})
    play(g, "trade Anna Boris give leisure1 get 150")
    assert g.state.owner["leisure1"] == "Boris" and cash(g, "Anna") == 2150 and cash(g, "Boris") == 1850
    play(g, "trade Anna Boris give 10 get food1 central1")
    assert g.state.owner["food1"] == "Anna" and g.state.owner["central1"] == "Anna"
    assert cash(g, "Anna") == 2140 and cash(g, "Boris") == 1860


def test_built_or_mortgaged_plots_cannot_be_traded():
    """ТОРГОВЛЯ СОБСТВЕННОСТЬЮ: «никакой участок не может быть продан ... если на нём есть хотя бы одна
    постройка»; ПРАВИЛА ЗАЛОГА: a mortgaged plot «не может быть ни продан»."""
    g = new()
    arrange(
        g,
        owner={"leisure1": "Anna", "leisure2": "Anna", "leisure3": "Anna", "food1": "Anna"},
        level={"leisure1": 1, "leisure2": 1, "leisure3": 1},
        mortgaged={"food1"},
    )
    refused(g, "trade Anna Boris give leisure1 get 500", "plot_built")
    refused(g, "trade Anna Boris give food1 get 100", "plot_mortgaged")
    refused(g, "trade Boris Anna give 100 get food1", "plot_mortgaged")


def test_trade_refusals():
    """ТОРГОВЛЯ СОБСТВЕННОСТЬЮ: only one's own plots, money one way, and only money one has."""
    g = new()
    arrange(g, owner={"leisure1": "Anna", "food1": "Boris"})
    refused(g, "trade Anna Boris give food1 get 10", "not_owner")
    refused(g, "trade Anna Boris give leisure1 10 get 10", "trade_cash_both_ways")
    refused(g, "trade Anna Boris give leisure1 get 2001", "insufficient_funds")


# ===== ОКОНЧАНИЕ ИГРЫ =====================================================================


def test_bankruptcy_to_a_player_the_bank_pays_the_rest():
    """ОКОНЧАНИЕ ИГРЫ: the debtor gives all the cash and leaves; «БАНК выплачивает его кредиторам
    оставшуюся часть»; buildings to the bank, plot cards back on the board."""
    g = new()
    arrange(
        g,
        owner={
            "mining1": "Boris",
            "mining2": "Boris",
            "leisure1": "Anna",
            "leisure2": "Anna",
            "leisure3": "Anna",
            "food1": "Anna",
        },
        level={"mining1": 4, "mining2": 4, "leisure1": 1, "leisure2": 1, "leisure3": 1},
        mortgaged={"food1"},
        cash={"Anna": 200},
        position={"Anna": "transport2"},
        held={("Anna", "shares"): 2, ("Anna", "orange"): 1},
        kept={"Anna": ("c08",)},
    )
    play(g, "roll 5 6")  # transport2 -> mining2: rent 60 x 10 = 600 to Boris
    # Anna could raise 200 cash + 75 (3 branches at 25) + 90 (mortgages 25 + 30 + 35)
    # + 200 (shares) = 565 < 600
    refused(g, "bankrupt Boris", "not_in_debt")
    play(g, "bankrupt Anna")
    assert "Anna" not in g.state.alive
    assert cash(g, "Anna") == 0
    assert cash(g, "Boris") == 2000 + 600  # 200 from Anna, 400 from the bank
    for p in ("leisure1", "leisure2", "leisure3", "food1"):
        assert p not in g.state.owner and not g.state.level.get(p)
    assert "food1" not in g.state.mortgaged
    assert g.state.held("Anna", "shares") == 0 and g.state.held("Anna", "orange") == 0
    assert g.state.decks["chance"][-1] == "c08"
    assert g.state.turn == "Boris"  # the turn passes on


def test_bankruptcy_to_the_bank():
    """ОКОНЧАНИЕ ИГРЫ: a CHANCE fine the player cannot pay from everything held: all the cash to
    the bank, then out."""
    g = new(("Anna", "Boris"))
    arrange(g, cash={"Anna": 10})
    play(g, "roll 1 3", "draw c17")  # START -> chance1: pay 100, Anna has 10 and nothing else
    assert g.state.debts[0].amount == 100
    play(g, "bankrupt Anna")
    assert cash(g, "Anna") == 0
    assert not any(o == "Anna" for o in g.state.owner.values())
    assert g.state.winner == "Boris"


def test_last_player_standing_wins():
    """ОКОНЧАНИЕ ИГРЫ: «Игра продолжается до полного банкротства всех игроков, кроме одного»."""
    g = new()
    arrange(
        g,
        owner={"leisure1": "Vera", "leisure2": "Vera", "leisure3": "Vera"},
        level={"leisure1": 4, "leisure2": 4, "leisure3": 4},
        cash={"Anna": 10, "Boris": 10},
    )
    play(g, "roll 1 2", "bankrupt Anna")
    assert g.state.winner is None and g.state.turn == "Boris"
    play(g, "roll 1 2", "bankrupt Boris")
    assert g.state.winner == "Vera"
    refused(g, "roll 1 2", "game_over")


def test_timed_game_counts_wealth_at_purchase_prices():
    """ОКОНЧАНИЕ ИГРЫ: timed game: «участки, филиалы и предприятия переводятся в деньги по цене покупки»."""
    g = new()
    arrange(
        g,
        owner={"leisure1": "Anna", "leisure2": "Anna", "leisure3": "Anna", "central1": "Boris", "food1": "Boris"},
        level={"leisure1": 2, "leisure2": 2, "leisure3": 2},
        mortgaged={"food1"},
        held={("Vera", "shares"): 4},
        price=130,
    )
    event = play(g, "end_game")
    wealth = next(n.params["wealth"] for n in event.notes if n.code == "wealth_count")
    assert wealth["Anna"] == 2000 + 180 + 6 * 50  # plots 50 + 60 + 70, six branches at 50: 2480
    assert wealth["Boris"] == 2000 + 500 + 45  # mortgaged food1: 90 less the 45 received: 2545
    assert wealth["Vera"] == 2000 + 4 * 130  # shares at the current price (wealth_counts_shares): 2520
    assert g.state.winner == "Boris"  # 2545 > 2520 > 2480
    refused(g, "roll 1 2", "game_over")


def test_timed_game_tie_shares_the_win():
    """ОКОНЧАНИЕ ИГРЫ: equal wealth: both are the richest."""
    g = new()
    arrange(g, cash={"Vera": 1000})
    play(g, "end_game")
    assert g.state.winner == "Anna,Boris"


def test_end_game_waits_for_open_decisions():
    """ОКОНЧАНИЕ ИГРЫ: wealth is counted once the table is settled (no offer, auction or debt open)."""
    g = new()
    play(g, "roll 1 2")
    refused(g, "end_game", "pending_first")


# ----- bankrupt only when nothing left can raise the debt (ОКОНЧАНИЕ ИГРЫ) --------------------------------


def test_a_debtor_who_could_still_pay_may_not_go_bankrupt():
    """ОКОНЧАНИЕ ИГРЫ: bankrupt is who owes «больше, чем в состоянии заплатить»: Anna owes a circle
    tax of 450 with 100 in cash but heavy-industry enterprises worth more; `bankrupt Anna` is
    refused (can_still_pay, naming what she could raise) until she has sold and mortgaged
    what she holds; selling buildings settles the tax by itself."""
    g = policy_debt("tax")  # owes 450 circle tax, has 100
    refused(g, "bankrupt Anna", "can_still_pay")
    assert [a for a in g.rules.legal(g.state, "Anna") if a.verb == "bankrupt"] == []
    play(g, "sell_building heavy1", "sell_building heavy2", "sell_building heavy3", "sell_building heavy1")
    assert not g.state.debts and cash(g, "Anna") == 100 + 4 * 100 - 450  # each level at half of 200


@pytest.mark.parametrize(
    ("tele_levels", "in_the_box", "sold_short"),
    [((2, 2, 1), 1, True), ((1, 1, 1), 3, False)],
    ids=["one branch in the box", "three branches in the box"],
)
def test_an_enterprise_is_sold_short_whenever_the_box_holds_fewer_than_its_three_branches(
    tele_levels, in_the_box, sold_short
):
    """ФИЛИАЛЫ И ПРЕДПРИЯТИЯ and the box of 24 branches (docs/rule-choices.md, Buildings): an enterprise
    sold back puts its three branches on the plot, so with one branch in the box the industry's
    enterprises go at once (the short sale); with three the enterprise becomes three branches."""
    g = new()
    arrange(
        g,
        owner={
            **{p: "Anna" for p in ("heavy1", "heavy2", "heavy3")},
            **{p: "Boris" for ind in ("transport", "media", "tele") for p in (f"{ind}1", f"{ind}2", f"{ind}3")},
        },
        level={
            **{p: 4 for p in ("heavy1", "heavy2", "heavy3")},
            **{p: 3 for p in ("transport1", "transport2", "transport3", "media1", "media2", "media3")},
            **dict(zip(("tele1", "tele2", "tele3"), tele_levels, strict=True)),
        },
    )
    assert g.rules.small_left(g.state) == in_the_box
    event = play(g, "sell_building heavy2")
    if sold_short:
        assert codes(event) == ["large_sold_short"]
        # no enterprise is left, and the industry keeps only the one branch the box could give
        assert [g.state.level.get(p, 0) for p in ("heavy1", "heavy2", "heavy3")] == [1, 0, 0]
    else:
        assert codes(event) == ["building_sold"]
        assert g.state.level["heavy2"] == 3 and g.rules.small_left(g.state) == 0


def test_an_enterprise_the_box_cannot_take_back_is_sold_with_its_industry():
    """ПРАВИЛА ЗАЛОГА («продать в БАНК ... все постройки») and the box of 24 branches: when the box
    lacks the three branches an enterprise gives back, the industry's enterprises are sold at
    once and the branches it keeps are spread evenly (as Monopoly's hotels): a debtor is never
    trapped holding an enterprise nobody can take back (docs/rule-choices.md)."""
    g = new()
    # heavy1-3 carry enterprises; every branch of the box (24) stands on transport (9), media (9), tele (6)
    arrange(
        g,
        owner={
            **{p: "Anna" for p in ("heavy1", "heavy2", "heavy3")},
            **{
                p: "Boris"
                for p in (
                    "transport1",
                    "transport2",
                    "transport3",
                    "media1",
                    "media2",
                    "media3",
                    "tele1",
                    "tele2",
                    "tele3",
                )
            },
        },
        level={
            "heavy1": 4,
            "heavy2": 4,
            "heavy3": 4,
            **{p: 3 for p in ("transport1", "transport2", "transport3", "media1", "media2", "media3")},
            **{p: 2 for p in ("tele1", "tele2", "tele3")},
        },
    )
    assert g.rules.small_left(g.state) == 0
    before = cash(g, "Anna")
    event = play(g, "sell_building heavy2")
    assert codes(event) == ["large_sold_short"]
    assert all(not g.state.level.get(p) for p in ("heavy1", "heavy2", "heavy3"))
    assert cash(g, "Anna") == before + 3 * 4 * 100  # twelve levels at half of 200
