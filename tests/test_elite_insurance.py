"""Millionaire Elite rule by rule: the AUCTION cell and insurance (whose policies cancel auctions and payments).

Against the Russian rulebook (millionaire-elite-ru.txt), section by section, and the rules
found in review; the board, the shared helpers and how these tests are written:
tests/elite_helpers.py.
"""

import pytest
from elite_helpers import (
    PLAYERS,
    accepted,
    arrange,
    cash,
    codes,
    fortune_card,
    new,
    on_fortune,
    play,
    policy_debt,
    refused,
)
from helpers import edition_variant

from companion.engine.state import BANK

# ===== ПРАВИЛА АУКЦИОНА ===================================================================


def on_auction(players=PLAYERS, rules=None, **kw):
    g = new(players, rules=rules)
    arrange(g, position={"Anna": "inspection"}, **kw)
    play(g, "roll 2 4")  # 10 -> 16 AUCTION
    assert g.state.pending.kind == "auction_roll"
    return g


@pytest.mark.parametrize("side", [5, 6])
def test_auction_side_5_or_6_cancels(side):
    """ПРАВИЛА АУКЦИОНА: «Если выпадает 5 или 6, аукцион отменяется»."""
    g = on_auction()
    event = play(g, f"auction_roll {side} 2 2")
    assert "auction_cancelled" in codes(event)
    assert g.state.pending is None


@pytest.mark.parametrize(
    "dice, plot",
    [
        ("1 2 1", "food1"),
        ("1 4 3", "food1"),
        ("1 6 4", "food2"),
        ("1 2 6", "food2"),  # side 1, even: clockwise,
        # a double industry: 1-3 / 4-6
        ("1 1 2", "leisure1"),
        ("1 3 3", "leisure2"),
        ("1 5 5", "leisure3"),  # side 1, odd: counter-clockwise,
        # a triple industry: 1-2 / 3-4 / 5-6
        ("2 2 1", "light1"),
        ("2 4 4", "light2"),
        ("2 6 6", "light3"),
        ("2 1 1", "tele1"),
        ("2 3 4", "tele2"),
        ("2 5 6", "tele3"),
        ("3 2 2", "transport1"),
        ("3 1 5", "media3"),
        ("4 6 1", "mining1"),
        ("4 2 3", "mining1"),
        ("4 4 4", "mining2"),  # side 4, even: the double mining
        ("4 1 2", "heavy1"),
        ("4 3 3", "heavy2"),
        ("4 5 6", "heavy3"),
    ],
)
def test_auction_three_rolls_choose_the_plot(dice, plot):
    """ПРАВИЛА АУКЦИОНА: side 1-4, even = clockwise of the central plot / odd = counter-clockwise,
    then the plot (double industry 1-3 / 4-6; triple 1-2 / 3-4 / 5-6)."""
    g = on_auction()
    play(g, f"auction_roll {dice}")
    a = g.state.pending
    assert a.kind == "auction" and a.plot == plot and a.seller == BANK


def test_auction_of_an_owned_plot_the_highest_bidder_takes_it():
    """ПРАВИЛА АУКЦИОНА: «Игрок, назначивший самую высокую цену, забирает участок» (the owner is paid)."""
    g = on_auction(owner={"light2": "Boris"})
    play(g, "auction_roll 2 2 4")
    assert g.state.pending.seller == "Boris"
    play(g, "opening 10", "bid Vera 10", "bid Anna 150", "hammer")
    assert g.state.owner["light2"] == "Anna"
    assert cash(g, "Anna") == 1850 and cash(g, "Boris") == 2150


@pytest.mark.parametrize(
    "setup, reason",
    [
        (dict(owner={"light2": "Boris"}, mortgaged={"light2"}), "mortgaged"),
        (
            dict(
                owner={"light1": "Boris", "light2": "Boris", "light3": "Boris"},
                level={"light1": 1, "light2": 1, "light3": 1},
            ),
            "built",
        ),
        (dict(owner={"light2": "Boris"}, held={("Boris", "green"): 1}), "insured"),
    ],
)
def test_plots_never_auctioned(setup, reason):
    """ПРАВИЛА АУКЦИОНА: «не могут быть выставлены заложенные участки, участки, застрахованные от аукциона,
    и участки, на которых есть хотя бы одна постройка»."""
    g = on_auction(**setup)
    event = play(g, "auction_roll 2 2 4")
    assert "auction_cancelled" in codes(event)
    assert [n.params["reason"] for n in event.notes if n.code == "auction_cancelled"] == [reason]
    assert g.state.pending is None and g.state.owner["light2"] == "Boris"


@pytest.mark.parametrize("meanwhile", ["trade", "mortgage", "build"])
def test_the_plot_under_the_hammer_stays_as_it_was(meanwhile):
    """ПРАВИЛА АУКЦИОНА: a plot is auctioned only unmortgaged and unbuilt, and only its owner is paid;
    ПРАВИЛА ЗАЛОГА: a mortgaged plot «не может быть ни продан»; ТОРГОВЛЯ СОБСТВЕННОСТЬЮ: nor a built one."""
    g = on_auction(owner={"light1": "Boris", "light2": "Boris", "light3": "Boris"})
    play(g, "auction_roll 2 2 4", "bid Anna 150")  # light2 under the hammer
    command = {"trade": "trade Boris Vera give light2 get 10", "mortgage": "mortgage light2", "build": "build light1"}[
        meanwhile
    ]
    if accepted(g, command) and meanwhile == "build":
        accepted(g, "build light2")
    holder = g.state.owner["light2"]
    holder_cash = cash(g, holder)
    accepted(g, "hammer")
    if g.state.owner.get("light2") == "Anna":
        # sold: it must have been sold as an auctionable plot, by its holder
        assert "light2" not in g.state.mortgaged
        assert not g.state.level.get("light2")
        assert cash(g, holder) == holder_cash + 150


def test_green_policy_covers_every_auction_while_held():
    """ПРАВИЛА СТРАХОВАНИЯ: «полис страхует игрока от всех этих аукционов» (green, not used up)."""
    g = on_auction(owner={"light2": "Boris"}, held={("Boris", "green"): 1})
    play(g, "auction_roll 2 2 4")
    assert g.state.held("Boris", "green") == 1
    play(g, "end")
    arrange(g, turn="Anna", phase="roll", position={"Anna": "inspection"})
    play(g, "roll 2 4", "auction_roll 2 6 3")  # light2 again
    assert g.state.pending is None and g.state.held("Boris", "green") == 1


def test_orange_policy_is_used_up_by_an_auction_when_the_holder_says_so():
    """ПРАВИЛА СТРАХОВАНИЯ: a long-term policy holds «до наступления страхового случая, то есть того
    момента, когда игрок сочтёт нужным использовать свой страховой полис» (long_term_policies = "ask")."""
    g = on_auction(owner={"light2": "Boris"}, held={("Boris", "orange"): 1})
    event = play(g, "auction_roll 2 2 4")
    assert "policy_question" in codes(event) and g.state.pending.kind == "claim"
    refused(g, "end", "pending_first")
    event = play(g, "use_policy Boris orange")
    assert "policy_used" in codes(event) and "auction_cancelled" in codes(event)
    assert g.state.held("Boris", "orange") == 0 and g.state.owner["light2"] == "Boris"
    assert g.state.pending is None


def test_orange_policy_kept_lets_the_auction_run():
    """ПРАВИЛА СТРАХОВАНИЯ: the holder may keep the policy for a later case; the auction goes ahead."""
    g = on_auction(owner={"light2": "Boris"}, held={("Boris", "orange"): 1})
    play(g, "auction_roll 2 2 4", "skip_policy Boris")
    assert g.state.pending.kind == "auction" and g.state.pending.seller == "Boris"
    play(g, "bid Vera 200", "hammer")
    assert g.state.owner["light2"] == "Vera" and g.state.held("Boris", "orange") == 1


def test_orange_policy_used_automatically_with_the_auto_option():
    """ПРАВИЛА СТРАХОВАНИЯ with long_term_policies = "auto": used the first time it would cover."""
    g = on_auction(
        owner={"light2": "Boris"},
        held={("Boris", "orange"): 1},
        rules=edition_variant("elite", {"long_term_policies": "auto"}),
    )
    event = play(g, "auction_roll 2 2 4")
    assert "policy_used" in codes(event)
    assert g.state.held("Boris", "orange") == 0 and g.state.owner["light2"] == "Boris"


# ===== ПРАВИЛА СТРАХОВАНИЯ ================================================================


@pytest.mark.parametrize("colour, price", [("green", 100), ("blue", 200), ("orange", 300), ("red", 500)])
def test_policy_prices(colour, price):
    """ПРАВИЛА СТРАХОВАНИЯ: green 100, blue 200, orange 300, red 500."""
    g = new()
    play(g, f"insure Boris {colour}")
    assert cash(g, "Boris") == 2000 - price and g.state.held("Boris", colour) == 1


def test_unknown_policy_colour_is_refused():
    """ПРАВИЛА СТРАХОВАНИЯ: «Всего различаются 4 разновидности страховых полисов»."""
    g = new()
    refused(g, "insure Boris purple", "unknown_policy")


def test_short_term_policies_expire_on_passing_start_long_term_stay():
    """ПРАВИЛА СТРАХОВАНИЯ: short-term «При прохождении СТАРТА они должны быть возвращены в БАНК»."""
    g = new()
    play(g, "insure Anna green", "insure Anna blue", "insure Anna orange", "insure Anna red")
    arrange(g, position={"Anna": "mining1"})
    event = play(g, "roll 1 3")  # passing START
    assert "policy_expired" in codes(event)
    assert g.state.held("Anna", "green") == 0 and g.state.held("Anna", "blue") == 0
    assert g.state.held("Anna", "orange") == 1 and g.state.held("Anna", "red") == 1


def test_the_box_holds_12_policies_of_each_colour():
    """КОМПЛЕКТАЦИЯ ИГРЫ: 12 policies of each colour; an expired one goes back to the box."""
    g = new()
    for _ in range(12):
        play(g, "insure Boris green")
    refused(g, "insure Vera green", "supply_out")
    play(g, "insure Vera blue")
    arrange(g, turn="Boris", position={"Boris": "mining1"})
    play(g, "roll 1 3")  # Boris passes START: 12 green back to the bank
    play(g, "insure Vera green")


def fortune_with_policies(card, rules=None, **kw):
    g = new(rules=rules)
    arrange(
        g,
        held={
            ("Anna", "shares"): 4,
            ("Boris", "shares"): 4,
            ("Vera", "shares"): 4,
            ("Anna", "blue"): 1,
            ("Boris", "orange"): 1,
        },
        **kw,
    )
    on_fortune(g)
    play(g, f"draw {card}")
    return g


def test_blue_covers_one_adverse_point_of_a_fortune_card():
    """ПРАВИЛА СТРАХОВАНИЯ: blue covers a FORTUNE card's adverse point, «страхует только от одного» of two."""
    g = fortune_with_policies("f29")  # 10 per share (40) and 30 more
    assert cash(g, "Anna") == 2000 - 30  # blue covered one point, not both
    assert g.state.held("Anna", "blue") == 1  # short-term: not used up
    assert cash(g, "Vera") == 2000 - 40 - 30  # uninsured


def test_orange_covers_both_adverse_points_and_is_used_up():
    """ПРАВИЛА СТРАХОВАНИЯ: orange «страхует его от обоих!»; used, it goes back to the bank."""
    g = fortune_with_policies("f29")  # 10 per share (40) and 30 more
    assert [d.amount for d in g.state.debts if d.debtor == "Boris"] == [40, 30]
    refused(g, "end", "debt_first")  # the insurance director asks Boris first
    play(g, "use_policy Boris orange")
    assert cash(g, "Boris") == 2000 and g.state.debts == ()
    assert g.state.held("Boris", "orange") == 0


def test_orange_kept_means_paying_the_card():
    """ПРАВИЛА СТРАХОВАНИЯ: the holder decides which case is the insured one; keeping it, he pays."""
    g = fortune_with_policies("f29")  # 10 per share (40) and 30 more
    play(g, "skip_policy Boris")
    assert cash(g, "Boris") == 2000 - 40 - 30 and g.state.debts == ()
    assert g.state.held("Boris", "orange") == 1


def test_orange_used_automatically_on_a_fortune_card_with_the_auto_option():
    """ПРАВИЛА СТРАХОВАНИЯ with long_term_policies = "auto"."""
    g = fortune_with_policies("f29", rules=edition_variant("elite", {"long_term_policies": "auto"}))
    assert cash(g, "Boris") == 2000 and g.state.held("Boris", "orange") == 0


def test_blue_covers_a_one_point_card_each_time():
    """ПРАВИЛА СТРАХОВАНИЯ: blue covers «любого неблагоприятного действия карточки ФОРТУНА» while held.
    The shipped deck has one one-point payment card (f27); the second, f28, is rewritten as the
    old placeholder's «every player pays 75»."""
    rules = edition_variant(
        "elite",
        replace=[
            fortune_card(
                "f28", "Штраф за загрязнение среды: каждый платит 75.", '{ do = "each_player_pays", amount = 75 }'
            )
        ],
    )
    g = fortune_with_policies("f27", rules=rules)  # every player pays 50
    play(g, "use_policy Boris orange")
    assert cash(g, "Anna") == 2000 and cash(g, "Boris") == 2000 and cash(g, "Vera") == 2000 - 50
    play(g, "end")
    on_fortune(g, "Boris")
    play(g, "draw f28")  # every player pays 75
    assert cash(g, "Anna") == 2000 and cash(g, "Boris") == 2000 - 75 and cash(g, "Vera") == 2000 - 50 - 75


@pytest.mark.parametrize("reason, amount", [("rent", 600), ("tax", 450)])
def test_red_policy_covers_one_unbearable_rent_or_tax(reason, amount):
    """ПРАВИЛА СТРАХОВАНИЯ: red covers «одной любой неприятности — непосильной аренды или налога»."""
    g = policy_debt(reason)
    assert g.state.debts[0].amount == amount
    refused(g, "use_policy Anna green", "policy_not_for_debt")
    refused(g, "use_policy Anna orange", "no_policy")
    refused(g, "use_policy Boris red", "no_policy")
    cash_before, boris_before = cash(g, "Anna"), cash(g, "Boris")
    event = play(g, "use_policy Anna red")
    assert "policy_used" in codes(event)
    assert g.state.debts == () and g.state.held("Anna", "red") == 0
    assert cash(g, "Anna") == cash_before
    if reason == "rent":  # the insurer pays the owner (red_policy_pays_owner)
        assert cash(g, "Boris") == boris_before + amount
    refused(g, "use_policy Anna red", "no_policy")


def test_red_policy_only_for_a_rent_or_tax_owed():
    """ПРАВИЛА СТРАХОВАНИЯ: the holder chooses the insured case: an unbearable rent or tax."""
    g = new()
    play(g, "insure Anna red")
    refused(g, "use_policy Anna red", "nothing_to_cover")


# ----- the BLUE policy's pick (ПРАВИЛА СТРАХОВАНИЯ) ----------------------------------------------


def test_the_blue_policy_covers_the_point_its_holder_picks():
    """ПРАВИЛА СТРАХОВАНИЯ: with both points of a FORTUNE card adverse, BLUE «страхует только от
    одного», the one its holder picks: the dearer for them. f29 charges 10 a share and 30 more;
    Anna (BLUE, 1 share) is covered for the 30 and pays 10; Boris (BLUE, 5 shares) for the 50
    and pays 30; Vera (no policy, no shares) pays 30."""
    g = new()
    arrange(
        g,
        held={("Anna", "blue"): 1, ("Anna", "shares"): 1, ("Boris", "blue"): 1, ("Boris", "shares"): 5},
        fortune_top=("f29",),
    )
    on_fortune(g)
    play(g, "draw f29")
    assert (cash(g, "Anna"), cash(g, "Boris"), cash(g, "Vera")) == (2000 - 10, 2000 - 30, 2000 - 30)


# ===== found in review: each a rule a table would notice ====================================


@pytest.mark.parametrize("action", ["trade Boris Vera give light2 get 100", "mortgage light2"])
def test_a_plot_waiting_on_the_policy_question_stays_as_it_is(action):
    """ПРАВИЛА АУКЦИОНА / ПРАВИЛА ЗАЛОГА: while its owner decides whether an ORANGE policy
    covers the auction, the plot can be neither sold, mortgaged nor built on."""
    g = on_auction(owner={"light2": "Boris"}, held={("Boris", "orange"): 1})
    play(g, "auction_roll 2 2 4")
    refused(g, action, "plot_under_auction")


def test_an_owner_may_bid_for_his_own_plot_only_what_he_could_pay():
    """ПРАВИЛА АУКЦИОНА: «Игрок, назначивший самую высокую цену, забирает участок» — a bid
    must be money the bidder has, the owner's too."""
    g = on_auction(owner={"light2": "Boris"}, cash={"Boris": 300})
    play(g, "auction_roll 2 2 4", "bid Vera 250")
    refused(g, "bid Boris 99999", "insufficient_funds")
    play(g, "bid Boris 300", "hammer")  # he buys it back: paying himself costs nothing
    assert g.state.owner["light2"] == "Boris" and cash(g, "Boris") == 300


def test_red_policy_covers_the_payment_the_holder_picks():
    """ПРАВИЛА СТРАХОВАНИЯ: «игрок сам вправе выбирать, какой случай считать страховым»:
    owing both the circle tax and a rent, Anna has RED cover the rent."""
    g = new()
    arrange(
        g,
        owner={
            "heavy1": "Anna",
            "heavy2": "Anna",
            "heavy3": "Anna",
            "tele1": "Boris",
            "tele2": "Boris",
            "tele3": "Boris",
        },
        level={"heavy1": 4, "heavy2": 4, "heavy3": 4, "tele1": 4, "tele2": 4, "tele3": 4},
        cash={"Anna": 100},
        held={("Anna", "red"): 1},
        position={"Anna": "chance2"},
    )
    play(g, "roll 1 2")  # 9 -> 12 tele2, passing TAX INSPECTION
    owed = {d.reason: d.amount for d in g.state.debts}
    assert owed == {"circle_tax": 3 * 150, "rent_paid": 180}  # heavy enterprises 25 x 6 each; tele2 18 x 10
    boris = cash(g, "Boris")
    play(g, "use_policy Anna red rent")
    assert [d.reason for d in g.state.debts] == ["circle_tax"]
    assert cash(g, "Boris") == boris + 180  # the insurer pays the owner


def test_orange_policy_covers_the_fortune_card_the_holder_picks():
    """ПРАВИЛА СТРАХОВАНИЯ with two FORTUNE cards on the wheel (ШАНС c14): Boris has ORANGE
    cover the second card, f27 (50 each), and pays the first, f29 (30; nobody holds shares), himself."""
    g = new()
    arrange(g, held={("Boris", "orange"): 1}, turn="Boris", phase="roll", fortune_top=("f29", "f27"))
    play(g, "roll 1 3", "draw c14", "draw")  # START -> chance1; f29 (10 a share and 30), f27 (50 each)
    assert sorted(d.amount for d in g.state.debts if d.debtor == "Boris") == [30, 50]
    play(g, "use_policy Boris orange f27", "skip_policy Boris")
    assert cash(g, "Boris") == 2000 - 30 and g.state.held("Boris", "orange") == 0
    assert cash(g, "Anna") == 2000 - 80 and cash(g, "Vera") == 2000 - 80


def test_a_debtors_cash_cannot_leave_by_trade():
    """ОКОНЧАНИЕ ИГРЫ: a player who cannot pay «отдаёт все имеющиеся у него деньги» to the
    creditors: while owing, cash does not go to another player, by payment or by trade."""
    g = new()
    arrange(g, held={("Anna", "shares"): 19}, cash={"Anna": 100}, position={"Anna": "leisure3"})
    play(g, "roll 3 4")  # 3 -> 10 TAX INSPECTION: 19 x 10 = 190 owed
    assert g.state.debts[0].amount == 190
    refused(g, "pay Anna Vera 100", "debt_first")
    refused(g, "trade Anna Vera give 100", "debt_first")


def test_undo_is_refused_when_a_later_card_draw_depends_on_it():
    """docs/undo.md with ШАНС: a card drawn after a move that another card caused cannot stay
    when that first card is undone; events are stored naming the card drawn."""
    g = new(("Anna", "Boris"), seed=18)
    arrange(g, position={"Anna": "heavy3"})
    play(g, "roll 1 3")  # 33 -> 37 chance3
    first = play(g, "draw")  # the top card: c06, nearest CHANCE -> chance1 (7 on, past START)
    assert first.command == "draw c06"  # the ledger names the physical card
    assert g.state.pending.kind == "draw"  # on chance1, another card to draw
    second = play(g, "draw")  # c04: nearest EXCHANGE from chance1 is exchange1;
    assert second.command == "draw c04"  # drawn on chance3 it would be exchange3
    refused(g, f"undo {first.seq}", "undo_blocked")
