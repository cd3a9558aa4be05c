"""The Elite board's sourced numbers and the FORTUNE effects on plots, as a table meets them in play.

The figures come from the public calculator named in companion/editions/elite.toml
(../shared/notes/board-data.md §2): printed rent and tax per plot, the RENT TABLE
(x1, x2, x4, x6, x8, x10) and TAX TABLE (x1 .. x6), the central row (rent 30/100/200/500,
tax 10/40/80/100 by central plots owned) and 24 long-term FORTUNE points. Each test
names the rulebook section (millionaire-elite-ru.txt) whose rule the figures feed.
"""

import pytest
from helpers import edition_variant
from helpers import new as new_game

from companion.editions import load_edition, rules_for
from companion.engine.state import BANK
from companion.errors import EditionError

EDITION = load_edition("elite")
RULES = rules_for(EDITION)


def new(rules=RULES):
    return new_game(rules, ("Anna", "Boris"), 1)


def arrange(g, rules=RULES, *, owner=(), level=None, mortgaged=(), boris_at=None, shares=0, wheel=()):
    """Anna owns `owner` (with `level` buildings), holds `shares`; Boris to move from `boris_at`;
    the FORTUNE cards `wheel` lie on the wheel in this order."""
    s = g.state.copy()
    for pid in owner:
        s.owner[pid] = "Anna"
    for pid, n in (level or {}).items():
        s.level[pid] = n
    s.mortgaged = s.mortgaged | set(mortgaged)
    if shares:
        s.holdings[("Anna", "shares")] = shares
    if boris_at is not None:
        s.position["Boris"] = EDITION.cell(boris_at).index
        s.turn = "Boris"
    s.extra["fortune"] = tuple(wheel)
    s.decks["fortune"] = tuple(c for c in s.decks["fortune"] if c not in wheel)
    s.discards["fortune"] = tuple(wheel)
    s.postings, s.notes = [], []
    rules.check_invariants(s)
    g.state = s
    return g


def rent_paid(g, roll):
    """Boris rolls onto Anna's plot: what he pays her."""
    before = g.state.cash("Anna")
    g.apply(roll)
    return g.state.cash("Anna") - before


def circle_tax(g, rules=RULES):
    """Anna's circle tax now (КРУГОВОЙ НАЛОГ), as TAX INSPECTION would charge it."""
    return rules.circle_tax_amount(g.state, "Anna")


# ===== the board: ОПИСАНИЕ ИГРЫ, ОСТАНОВКА НА «ЧУЖОМ» УЧАСТКЕ, КРУГОВОЙ НАЛОГ ==================


def test_eight_industries_of_two_or_three_plots_and_four_central_plots_at_500():
    """ОПИСАНИЕ ИГРЫ: 8 industries of 2-3 plots and the central industry of 4, each 500 (ЦЕНТРАЛЬНАЯ ОТРАСЛЬ)."""
    sizes = {i: len(EDITION.industry_plots(i)) for i in EDITION.industries}
    assert sizes.pop("central") == 4
    assert sorted(sizes.values()) == [2, 2, 3, 3, 3, 3, 3, 3]
    assert {EDITION.plots[p].price for p in EDITION.industry_plots("central")} == {500}
    # the price ladder of the calculator, in board order from START
    ladder = [c.price for c in EDITION.cells if c.is_plot and c.industry != "central"]
    assert ladder == [
        50,
        60,
        70,
        90,
        100,
        130,
        140,
        150,
        170,
        180,
        190,
        210,
        220,
        230,
        250,
        260,
        270,
        290,
        300,
        310,
        340,
        350,
    ]
    # ФИЛИАЛЫ И ПРЕДПРИЯТИЯ: «от 50 до 200»
    assert sorted({i.build_cost for i in EDITION.industries.values() if i.id != "central"}) == [50, 100, 150, 200]


@pytest.mark.parametrize(
    "monopoly, level, rent",
    [
        (False, 0, 60),  # printed rent
        (True, 0, 120),  # monopolist: x2
        (True, 1, 240),  # 1 branch: x4
        (True, 3, 480),  # 3 branches: x8
        (True, 4, 600),  # the enterprise: x10
    ],
)
def test_rent_on_the_oil_holding_by_the_rent_table(monopoly, level, rent):
    """ОСТАНОВКА НА «ЧУЖОМ» УЧАСТКЕ: the printed rent (60) x the ТАБЛИЦА НАЧИСЛЕНИЯ АРЕНДЫ."""
    owned = ("mining1", "mining2") if monopoly else ("mining2",)
    g = arrange(new(), owner=owned, level={p: level for p in owned} if level else None, boris_at="central4")
    assert EDITION.cell("mining2").name == "Нефтяной холдинг"
    assert rent_paid(g, "roll 1 3") == rent  # 35 -> 39


@pytest.mark.parametrize("count, rent", [(1, 30), (2, 100), (3, 200), (4, 500)])
def test_central_rent_by_central_plots_owned(count, rent):
    """ЦЕНТРАЛЬНАЯ ОТРАСЛЬ: rent «написаны в ТАБЛИЦАХ»: 30, 100, 200, 500 by plots owned."""
    owned = ("central3", "central1", "central2", "central4")[:count]
    g = arrange(new(), owner=owned, boris_at="media2")
    assert rent_paid(g, "roll 1 2") == rent  # 22 -> 25 central3


@pytest.mark.parametrize(
    "levels, tax",
    [
        ({}, 60 + 60),  # monopolist, no buildings: printed 30 x2 each
        ({"mining1": 1}, 90 + 60),  # a branch on the coal syndicate: x3
        ({"mining1": 4, "mining2": 4}, 180 + 180),  # enterprises: x6
    ],
)
def test_circle_tax_of_the_mining_monopoly_by_the_tax_table(levels, tax):
    """КРУГОВОЙ НАЛОГ: the printed tax (30 each) x the ТАБЛИЦА НАЧИСЛЕНИЯ НАЛОГОВ."""
    g = arrange(new(), owner=("mining1", "mining2"), level=levels)
    assert circle_tax(g) == tax


def test_central_tax_per_plot_by_plots_owned_and_the_per_owner_option():
    """ЦЕНТРАЛЬНАЯ ОТРАСЛЬ: «налог с владельцев этих участков» from the TAX TABLE; per plot by default,
    once per owner with central_tax = "per_owner" (docs/rule-choices.md)."""
    four = ("central1", "central2", "central3", "central4")
    assert circle_tax(arrange(new(), owner=four)) == 4 * 100
    assert circle_tax(arrange(new(), owner=four[:2])) == 2 * 40
    # a mortgaged central plot pays no tax and no longer counts: 3 taxed plots at 80
    assert circle_tax(arrange(new(), owner=four, mortgaged=("central1",))) == 3 * 80
    once = edition_variant("elite", {"central_tax": "per_owner"})
    assert circle_tax(arrange(new(once), once, owner=four), once) == 100
    assert circle_tax(arrange(new(once), once, owner=four + ("leisure1",)), once) == 100 + 3


# ===== ФОРТУНА: long-term points on plots and shares ======================================


def test_fortune_sets_the_rent_of_every_third_plot_whatever_the_buildings():
    """ФОРТУНА (долговременные инструкции): «third plots: rent 10» holds until the next card,
    whatever the monopoly and buildings (fortune_sets = "value")."""
    g = arrange(
        new(),
        owner=("light1", "light2", "light3"),
        level={"light1": 4, "light2": 4, "light3": 4},
        boris_at="light1",
        wheel=("f03",),
    )
    assert EDITION.cards["f03"].effects == ({"do": "set_rent", "plots": "third", "amount": 10},)
    assert rent_paid(g, "roll 1 1") == 10  # 17 -> 19, an enterprise: 10, not 280
    g = arrange(new(), owner=("light1", "light2", "light3"), boris_at="tele3", wheel=("f03",))
    assert rent_paid(g, "roll 3 1") == 2 * 24  # 13 -> 17, the first plot: the table's 48


def test_fortune_rent_with_the_printed_reading_keeps_the_rent_table():
    """ФОРТУНА: with fortune_sets = "printed" the card's 10 replaces the printed rent and the
    ТАБЛИЦА НАЧИСЛЕНИЯ АРЕНДЫ still multiplies it (the enterprise: x10)."""
    printed = edition_variant("elite", {"fortune_sets": "printed"})
    g = arrange(
        new(printed),
        printed,
        owner=("light1", "light2", "light3"),
        level={"light1": 4, "light2": 4, "light3": 4},
        boris_at="light1",
        wheel=("f03",),
    )
    assert rent_paid(g, "roll 1 1") == 100


def test_fortune_industry_rent_and_central_rent():
    """ФОРТУНА: «Food industry: rent 50» on every food plot; «central plots take no rent»."""
    g = arrange(new(), owner=("food2",), boris_at="exchange1", wheel=("f08",))
    assert rent_paid(g, "roll 1 1") == 50  # 6 -> 8 brewery: 50, not 10
    g = arrange(new(), owner=("central1",), boris_at="start", wheel=("f11",))
    before = g.state.cash("Boris")
    g.apply("roll 1 4")  # 0 -> 5 central1
    assert g.state.cash("Boris") == before


@pytest.mark.parametrize("card", ["f07", "f08", "f12", "f17", "f03", "f16"])
def test_a_fortune_card_on_an_industry_or_an_ordinal_leaves_the_central_plots_alone(card):
    """ФОРТУНА / ЦЕНТРАЛЬНАЯ ОТРАСЛЬ: «heavy industry: rent 10» or «third plots: rent 10» names no
    central plot: one central plot still takes the TABLE's 30 and pays its 10 tax."""
    g = arrange(new(), owner=("central1",), boris_at="start", wheel=(card,))
    assert circle_tax(g) == 10
    assert rent_paid(g, "roll 1 4") == 30  # 0 -> 5 central1


def test_fortune_tax_exemption_double_tax_and_share_tax():
    """ФОРТУНА / КРУГОВОЙ НАЛОГ: a card exempts an industry, doubles a tax, or sets the share tax."""
    media = ("media1", "media2", "media3")
    g = arrange(new(), owner=media + ("mining2",), shares=3, wheel=("f10",))
    assert circle_tax(g) == 30 + 3 * 10  # media exempt; the oil holding 30; shares 10 each
    g = arrange(new(), owner=("mining1", "mining2"), wheel=("f19",))
    assert circle_tax(g) == 2 * (60 + 60)  # the monopoly's tax, doubled
    g = arrange(new(), owner=("leisure1",), shares=3, wheel=("f24",))
    assert circle_tax(g) == 3 + 3 * 50


def test_fortune_dividend_50_percent_at_start():
    """ФОРТУНА / КРУГОВОЙ ДОХОД: «Если ... не действуют особые указания карточек ФОРТУНЫ» 20 %; f23 makes it 50 %."""
    g = arrange(new(), shares=4, wheel=("f23",))
    s = g.state.copy()
    s.position["Anna"] = EDITION.cell("mining2").index
    g.state = s
    before = g.state.cash("Anna")
    g.apply("roll 1 2")  # 39 -> 2, past START
    assert g.state.cash("Anna") - before == 200 + 4 * 100 * 50 // 100


def test_two_cards_on_the_wheel_the_first_drawn_decides_a_plot():
    """ФОРТУНА: two cards on the wheel that contradict: «предпочтение отдаётся карточке, вытянутой первой»."""
    g = arrange(new(), owner=("leisure3",), boris_at="start", wheel=("f14", "f04"))
    assert rent_paid(g, "roll 1 2") == 0  # «third plots: no rent» was drawn first
    g = arrange(new(), owner=("leisure3",), boris_at="start", wheel=("f04", "f14"))
    assert rent_paid(g, "roll 1 2") == 20


def test_the_next_fortune_card_ends_the_one_in_force():
    """ФОРТУНА: a long-term card holds «пока из колоды не будет вытянута следующая карточка»."""
    g = arrange(new(), owner=("food2",), wheel=("f08",))
    s = g.state.copy()
    s.position["Anna"] = EDITION.cell("tele1").index
    s.decks["fortune"] = ("f28",) + tuple(c for c in s.decks["fortune"] if c != "f28")
    g.state = s
    g.apply("roll 1 2")  # 11 -> 14 FORTUNE
    g.apply("draw")  # f28: +50 each, one-off
    assert g.state.extra["fortune"] == ()
    assert RULES.rent(g.state, EDITION.cell("food2")) == 10  # back to the printed rent


def test_insurance_is_not_used_up_by_a_long_term_plot_card():
    """ПРАВИЛА СТРАХОВАНИЯ: a policy covers an adverse FORTUNE point that makes a player pay;
    a card that only changes rents or taxes for later charges nobody when drawn."""
    g = new()
    s = g.state.copy()
    s.position["Anna"] = EDITION.cell("tele1").index
    s.holdings[("Anna", "blue")] = 1
    s.decks["fortune"] = ("f06",) + tuple(c for c in s.decks["fortune"] if c != "f06")
    s.owner["heavy1"] = "Anna"
    RULES.transfer(s, "Anna", BANK, 200)
    s.postings, s.notes = [], []
    g.state = s
    g.apply("roll 1 2")
    event = g.apply("draw")
    assert g.state.held("Anna", "blue") == 1
    assert "policy_covered" not in [n.code for n in event.notes]
    assert circle_tax(g) == 50  # heavy industry: tax 50 while in force


@pytest.mark.parametrize(
    "effect, message",
    [
        ('{ do = "set_rent", amount = 10 }', "names the plots it changes"),
        ('{ do = "set_rent", plots = "third", industry = "food", amount = 10 }', "names the plots it changes"),
        ('{ do = "set_tax", plots = "fourth", amount = 0 }', 'write "first", "second" or "third"'),
        ('{ do = "double_tax", industry = "gold" }', "'gold' is not an industry"),
        ('{ do = "set_rent", plots = "first", amount = -5 }', "amount"),
    ],
)
def test_a_mistyped_fortune_point_is_refused_with_the_place_named(effect, message):
    """Edition files: a table's edit of a FORTUNE point is checked when the file loads."""
    with pytest.raises(EditionError) as info:
        edition_variant(
            "elite", replace=[('effects = [{ do = "set_rent", plots = "first", amount = 3 }]', f"effects = [{effect}]")]
        )
    assert "decks.fortune" in str(info.value)
    assert message in str(info.value)


@pytest.mark.parametrize(
    "effect",
    [
        '{ do = "set_rent", industry = "food", amount = 100 }',
        '{ do = "dividend_percent", percent = 50 }',
        '{ do = "share_tax", amount = 50 }',
    ],
)
def test_a_long_term_point_on_a_chance_card_is_refused(effect):
    """ФОРТУНА: a long-term point holds while its card lies on the WHEEL OF FORTUNE; a CHANCE card
    goes back under its deck, so such a point there would silently do nothing: refused on load."""
    with pytest.raises(EditionError) as info:
        edition_variant("elite", replace=[('effects = [{ do = "receive", amount = 100 }]', f"effects = [{effect}]")])
    assert "decks.chance.c01" in str(info.value) and "only a FORTUNE card may use it" in str(info.value)
