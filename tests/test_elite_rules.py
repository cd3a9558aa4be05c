"""Millionaire Elite rule by rule, against the Russian rulebook (millionaire-elite-ru.txt).

Every test names the rulebook section it checks (the Russian heading) and
states the amounts a player would see, computed by hand from the board in
companion/editions/elite.toml. Where the rulebook leaves a choice open, the
tests follow the edition file's [options] (docs/rule-choices.md).

Tests marked xfail(strict=True, reason="BUG: ...") show where the engine
disagrees with the rulebook; they start passing (and so fail as XPASS) once
the engine is fixed, and the marker then goes.

Board (index: id price): 0 start, 1 leisure1 50, 2 leisure2 60, 3 leisure3 70,
4 chance1, 5 central1 500, 6 exchange1, 7 food1 90, 8 food2 100, 9 chance2,
10 inspection, 11 tele1 130, 12 tele2 140, 13 tele3 150, 14 fortune1,
15 central2 500, 16 auction, 17 light1 170, 18 light2 180, 19 light3 190, 20 jackpot,
21 media1 210, 22 media2 220, 23 media3 230, 24 exchange2, 25 central3 500, 26 exemption,
27 transport1 250, 28 transport2 260, 29 transport3 270, 30 police, 31 heavy1 290,
32 heavy2 300, 33 heavy3 310, 34 fortune2, 35 central4 500, 36 exchange3,
37 chance3, 38 mining1 340, 39 mining2 350.

Industries (plots; printed rent / printed tax per plot; branch = enterprise cost):
leisure 1-3 (3; 3, 5, 6 / 3; 50), food 7-8 (2; 8, 10 / 5; 50), tele 11-13 (3; 14, 18, 22 / 8; 100),
light 17-19 (3; 24, 26, 28 / 12; 100), media 21-23 (3; 30, 32, 34 / 15; 150),
transport 27-29 (3; 36, 38, 40 / 20; 150), heavy 31-33 (3; 42, 46, 50 / 25; 200),
mining 38-39 (2; 54, 60 / 30; 200). RENT TABLE: printed x 1 (no monopoly), 2 (monopoly),
4, 6, 8 (1-3 branches), 10 (enterprise); TAX TABLE: printed x 1, 2, 3, 4, 5, 6 on the same
steps. Central plots (5, 15, 25, 35): rent 30 / 100 / 200 / 500 and tax 10 / 40 / 80 / 100
each, by how many central plots the owner holds.
"""

import pytest
from helpers import edition_variant, teleporting
from helpers import new as new_game

from companion.editions import HERE, load_edition, rules_for
from companion.engine.state import BANK, JACKPOT
from companion.errors import RuleViolation
from companion.words.messages import CATALOGS

EDITION = load_edition("elite")
RULES = rules_for(EDITION)
PLAYERS = ("Anna", "Boris", "Vera")
SHIPPED = (HERE / "elite.toml").read_text(encoding="utf-8")


def fortune_card(card_id, text, effects, long_term=False):
    """An (old, new) text replacement for edition_variant: a table's own copy of elite.toml with
    FORTUNE card `card_id` rewritten to `effects` (TOML), for a test that needs an effect the
    shipped deck does not have (its f25-f30 are placeholders)."""
    start = SHIPPED.index(f'id = "{card_id}"\n')
    end = SHIPPED.index("\n\n", start)
    card = f'id = "{card_id}"\ntext = "{text}"\neffects = [{effects}]' + ("\nlong_term = true" if long_term else "")
    return SHIPPED[start:end], card


# a board whose ninth cell is an EXCHANGE, not the shipped (placeholder) order's chance2
NO_CHANCE_AT_9 = (
    'id = "chance2"\nkind = "card"\ndeck = "chance"\nname = "ШАНС"\nname_en = "CHANCE"',
    'id = "exchange4"\nkind = "exchange"\nname = "БИРЖА"\nname_en = "EXCHANGE"',
)


# ----- small helpers ------------------------------------------------------------------


def new(players=PLAYERS, seed=1, rules=None):
    """A fresh Elite game (three players unless told)."""
    return new_game(rules or RULES, players, seed)


def arrange(
    g,
    *,
    owner=None,
    cash=None,
    level=None,
    mortgaged=(),
    position=None,
    held=None,
    price=None,
    turn=None,
    phase=None,
    detained=None,
    fortune_top=None,
    kept=None,
):
    """Put the table into a position a few turns of play would produce.

    Money comes from or goes to the bank, so the books still balance; the
    engine's own invariants are checked on the result.
    """
    s = g.state.copy()
    for pid, p in (owner or {}).items():
        s.owner[pid] = p
    for p, amount in (cash or {}).items():
        diff = amount - s.cash(p)
        if diff > 0:
            RULES.transfer(s, BANK, p, diff)
        elif diff < 0:
            RULES.transfer(s, p, BANK, -diff)
    for pid, n in (level or {}).items():
        s.level[pid] = n
    s.mortgaged = s.mortgaged | set(mortgaged)
    for p, cell in (position or {}).items():
        s.position[p] = EDITION.cell(cell).index
    for (p, item), n in (held or {}).items():
        s.holdings[(p, item)] = n
    if price is not None:
        s.extra["price"] = price
    if turn is not None:
        s.turn = turn
    if phase is not None:
        s.phase = phase
    for p, tries in (detained or {}).items():
        s.detained[p] = tries
    if fortune_top:
        rest = tuple(c for c in s.decks["fortune"] if c not in fortune_top)
        s.decks["fortune"] = tuple(fortune_top) + rest
    for p, cards in (kept or {}).items():
        s.kept[p] = tuple(cards)
        s.decks["chance"] = tuple(c for c in s.decks["chance"] if c not in cards)
    s.postings, s.notes = [], []
    RULES.check_invariants(s)
    g.state = s
    return g


def play(g, *lines):
    """Apply command lines in order; returns the last event."""
    event = None
    for line in lines:
        event = g.apply(line)
    return event


def codes(event):
    return [n.code for n in event.notes]


def cash(g, account):
    return g.state.cash(account)


def refused(g, line, code):
    """The command is refused with `code`, a documented message code, and nothing changes."""
    before, count = g.state.signature(), len(g.events)
    with pytest.raises(RuleViolation) as info:
        g.apply(line)
    assert info.value.code == code, f"{line}: refused with {info.value.code} {info.value.params}"
    assert g.state.signature() == before
    assert len(g.events) == count
    assert code in CATALOGS["en"] and code in CATALOGS["ru"], f"{code} has no message template"
    return info.value


def accepted(g, line):
    """Try a command; True when accepted (for tests that allow either fix)."""
    try:
        g.apply(line)
    except RuleViolation:
        return False
    return True


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


def on_fortune(g, player="Anna"):
    arrange(g, turn=player, phase="roll", position={player: "tele1"})
    play(g, "roll 1 2")  # 11 -> 14 fortune1


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


def policy_debt(reason):
    g = new(("Anna", "Boris"))
    if reason == "rent":
        arrange(
            g,
            owner={"mining1": "Boris", "mining2": "Boris"},
            level={"mining1": 4, "mining2": 4},
            cash={"Anna": 300},
            held={("Anna", "red"): 1},
            position={"Anna": "exchange3"},
        )
        play(g, "roll 1 2")  # 36 -> 39 mining2: rent 60 x 10 = 600 owed to Boris
    else:
        arrange(
            g,
            owner={p: "Anna" for p in ("heavy1", "heavy2", "heavy3")},
            level={"heavy1": 4, "heavy2": 4, "heavy3": 4},
            cash={"Anna": 100},
            held={("Anna", "red"): 1},
            position={"Anna": "food2"},
        )
        play(g, "roll 3 3")  # circle tax 150 + 150 + 150 = 450 (25 x 6 each)
    return g


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


def test_commands_take_plot_names_and_russian_policy_colours():
    """Issue 8, the words of the box: a table types what it sees: a plot by its name as shown
    («Ночной клуб», any case, in quotes when it has spaces) and a policy colour in Russian (ЗЕЛЁНЫЙ, as
    ПРАВИЛА СТРАХОВАНИЯ names it) as well as by their ids."""
    g = new()
    arrange(g, owner={"leisure1": "Anna", "leisure2": "Anna", "leisure3": "Anna"})
    play(g, 'build "ночной клуб"', "insure Anna ЗЕЛЁНЫЙ", "insure Boris красный")
    assert g.state.level["leisure3"] == 1
    assert g.state.held("Anna", "green") == 1 and g.state.held("Boris", "red") == 1
