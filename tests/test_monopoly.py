"""Monopoly classic rules (../shared/rules/monopoly-classic-en.txt) on the US board.

Every test names the rulebook section it checks; the translation's headings are
"Buying a property", "Stopping on someone else's real estate", "Stop at the
station", "Stop on the field of services", "Passage of the Field Forward",
"Stop on the tax field", "You will be sent to prison if" / "To get out of
prison", "Houses", "Hotels", "Lack of buildings", "Property For Sale",
"Pledge", "Bankruptcy" and "Rules of a shortened game". Amounts are
hand-computed from the US edition's published figures; the rent table below
is typed in from the published title deeds, independently of the edition file.
Board indices: mediterranean 1, baltic 3, income_tax 4, reading_rr 5, oriental 6,
chance1 7, jail 10, electric 12, free_parking 20, water_works 28, go_to_jail 30,
luxury_tax 38, boardwalk 39.
"""

import pytest
from helpers import new, play_checked, run, teleporting

from companion.bots.autoplay import play
from companion.engine.monopoly import MonopolyRules
from companion.engine.state import BANK, POT
from companion.errors import EditionError, RuleViolation
from companion.table.service import new_game, open_game
from companion.words.messages import CATALOGS, LANGUAGES, MONOPOLY, render

# The US title deeds (2008 onward): price, rent with 0-4 houses and a hotel, house cost,
# mortgage value. Hotels cost the same as a house.
US_DEEDS = {
    "mediterranean": (60, [2, 10, 30, 90, 160, 250], 50, 30),
    "baltic": (60, [4, 20, 60, 180, 320, 450], 50, 30),
    "oriental": (100, [6, 30, 90, 270, 400, 550], 50, 50),
    "vermont": (100, [6, 30, 90, 270, 400, 550], 50, 50),
    "connecticut": (120, [8, 40, 100, 300, 450, 600], 50, 60),
    "st_charles": (140, [10, 50, 150, 450, 625, 750], 100, 70),
    "states": (140, [10, 50, 150, 450, 625, 750], 100, 70),
    "virginia": (160, [12, 60, 180, 500, 700, 900], 100, 80),
    "st_james": (180, [14, 70, 200, 550, 750, 950], 100, 90),
    "tennessee": (180, [14, 70, 200, 550, 750, 950], 100, 90),
    "new_york": (200, [16, 80, 220, 600, 800, 1000], 100, 100),
    "kentucky": (220, [18, 90, 250, 700, 875, 1050], 150, 110),
    "indiana": (220, [18, 90, 250, 700, 875, 1050], 150, 110),
    "illinois": (240, [20, 100, 300, 750, 925, 1100], 150, 120),
    "atlantic": (260, [22, 110, 330, 800, 975, 1150], 150, 130),
    "ventnor": (260, [22, 110, 330, 800, 975, 1150], 150, 130),
    "marvin_gardens": (280, [24, 120, 360, 850, 1025, 1200], 150, 140),
    "pacific": (300, [26, 130, 390, 900, 1100, 1275], 200, 150),
    "north_carolina": (300, [26, 130, 390, 900, 1100, 1275], 200, 150),
    "pennsylvania": (320, [28, 150, 450, 1000, 1200, 1400], 200, 160),
    "park_place": (350, [35, 175, 500, 1100, 1300, 1500], 200, 175),
    "boardwalk": (400, [50, 200, 600, 1400, 1700, 2000], 200, 200),
}
US_GROUPS = {
    "brown": ["mediterranean", "baltic"],
    "light_blue": ["oriental", "vermont", "connecticut"],
    "pink": ["st_charles", "states", "virginia"],
    "orange": ["st_james", "tennessee", "new_york"],
    "red": ["kentucky", "indiana", "illinois"],
    "yellow": ["atlantic", "ventnor", "marvin_gardens"],
    "green": ["pacific", "north_carolina", "pennsylvania"],
    "dark_blue": ["park_place", "boardwalk"],
}
US_RAILROADS = ["reading_rr", "pennsylvania_rr", "bo_rr", "short_line"]
US_RAILROAD_RENT = [25, 50, 100, 200]  # by how many one player owns
US_UTILITIES = ["electric", "water_works"]
US_UTILITY_TIMES = [4, 10]  # x the dice, by how many one player owns


@pytest.fixture(scope="module")
def rules():
    # `land CELL` puts a token anywhere (the rules behind the dice are tested elsewhere)
    return teleporting("monopoly")


def give_lots(game, player, *plots):
    """Set up a position: the lots simply belong to the player (no money moves, no event)."""
    for pid in plots:
        state = game.state.copy()
        state.owner[pid] = player
        game.state = state


# ----- the published US figures ---------------------------------------------------------------


def test_every_street_rent_matches_the_published_us_title_deeds(rules):
    """ "Stopping on someone else's real estate" / "Houses" / "Hotels": rent unimproved, doubled
    for a whole unimproved colour group, with 1-4 houses and a hotel, as the engine charges it."""
    ed = rules.edition
    checked = 0
    for group, lots in US_GROUPS.items():
        assert list(ed.industry_plots(group)) == lots
        for pid in lots:
            price, table, house, mortgage = US_DEEDS[pid]
            cell = ed.plots[pid]
            assert (cell.price, cell.build_cost, cell.mortgage) == (price, house, mortgage), pid
            s = rules.new_state(["Anna", "Boris"], 1)
            s.owner[pid] = "Anna"
            assert rules.rent(s, cell) == table[0], pid  # one lot of the group
            for other in lots:
                s.owner[other] = "Anna"
            assert rules.rent(s, cell) == 2 * table[0], pid  # the whole group, unimproved
            for level in range(1, 6):  # 1-4 houses, then the hotel
                for other in lots:
                    s.level[other] = level
                assert rules.rent(s, cell) == table[level], (pid, level)
            checked += 1
    assert checked == 22


def test_railroad_rent_by_count_and_utility_rent_by_dice(rules):
    """ "Stop at the station" (25/50/100/200 by stations owned) and "Stop on the field of
    services" (4x the dice for one utility, 10x for both)."""
    ed = rules.edition
    for n in range(1, 5):
        s = rules.new_state(["Anna", "Boris"], 1)
        for pid in US_RAILROADS[:n]:
            s.owner[pid] = "Anna"
        for pid in US_RAILROADS[:n]:
            assert ed.plots[pid].price == 200 and ed.plots[pid].mortgage == 100
            assert rules.rent(s, ed.plots[pid]) == US_RAILROAD_RENT[n - 1]
    for n in (1, 2):
        s = rules.new_state(["Anna", "Boris"], 1)
        s.last_dice = (3, 5)
        for pid in US_UTILITIES[:n]:
            s.owner[pid] = "Anna"
        for pid in US_UTILITIES[:n]:
            assert ed.plots[pid].price == 150 and ed.plots[pid].mortgage == 75
            assert rules.rent(s, ed.plots[pid]) == US_UTILITY_TIMES[n - 1] * 8


def test_board_taxes_salary_start_cash_box_and_decks(rules):
    """ "Beginning of the game": 1500 each, 32 houses, 12 hotels, 16 Chance and 16 Community
    Chest cards; GO 200; Income Tax 200; Luxury Tax 100 (the current US amount)."""
    ed = rules.edition
    assert isinstance(rules, MonopolyRules)
    assert len(ed.cells) == 40 and len(ed.plots) == 28
    assert ed.start_cash == 1500 and rules.opt["circle_income"] == 200
    assert ed.supply == {"small": 32, "large": 12}
    assert {d: len(cards) for d, cards in ed.decks.items()} == {"chance": 16, "community_chest": 16}
    assert ed.cell("income_tax").params["amount"] == 200 and ed.cell("income_tax").index == 4
    assert ed.cell("luxury_tax").params["amount"] == 100 and ed.cell("luxury_tax").index == 38
    assert ed.cell("jail").index == 10 and ed.cell("go_to_jail").index == 30
    assert sorted(c.id for c in ed.cards.values() if c.keep) == ["cc_jail_free", "ch_jail_free"]


def test_unmortgage_costs_the_mortgage_value_plus_ten_percent_of_it(rules):
    """ "Pledge": the bank pays the printed mortgage value; lifting costs it plus 10%."""
    ed = rules.edition
    assert rules.redeem_price(ed.plots["mediterranean"]) == 33
    assert rules.redeem_price(ed.plots["boardwalk"]) == 220
    assert rules.redeem_price(ed.plots["electric"]) == 83  # 75 + 7.50, rounded up


# ----- the scenario scripts ---------------------------------------------------------------------

# ----- movement, GO, taxes, jail --------------------------------------------------------------


def test_go_salary_when_passing_and_landing(rules):
    """ "Passage of the Field Forward": 200 whenever you stop on or pass GO."""
    g = new(rules)
    run(g, "land boardwalk", "buy", "end", "roll 1 2", "buy", "end")  # Anna 39, Boris 3
    assert g.state.cash("Anna") == 1100
    run(g, "roll 1 1")  # Anna 39 -> 1 (passes GO)
    assert g.state.cash("Anna") == 1300
    run(g, "decline", "hammer", "roll 3 4", "decline", "hammer", "end")  # 1 -> 8 Vermont, declined
    run(g, "land go")  # Boris lands on GO
    assert g.state.cash("Boris") == 1440 + 200


def test_income_tax_and_luxury_tax(rules):
    """ "Stop on the tax field": pay the amount into the bank (200 and 100)."""
    g = new(rules)
    run(g, "roll 1 3", "end", "land luxury_tax")
    assert g.state.cash("Anna") == 1300
    assert g.state.cash("Boris") == 1400


def test_third_failed_try_pays_fifty_and_moves_by_that_throw(rules):
    """ "To get out of prison": after three missed throws you pay 50 and move by the throw."""
    g = new(rules)
    run(g, "land go_to_jail", "end", "land jail", "end")
    for _ in range(2):
        run(g, "roll 1 2", "end", "land free_parking", "end")
    assert g.state.detained["Anna"] == 2
    run(g, "roll 1 2")  # third miss: pay 50, move 3 -> States Avenue (13)
    assert "Anna" not in g.state.detained
    assert g.state.cash("Anna") == 1450
    assert rules.edition.cells[g.state.position["Anna"]].id == "states"


def test_three_doubles_send_to_jail_without_moving(rules):
    """ "Same number of points on both cubes": the third double in a row goes to prison."""
    g = new(rules)
    run(g, "roll 1 1", "draw cc_tax_refund", "roll 2 2", "decline", "hammer", "roll 3 3")
    s = g.state
    assert rules.edition.cells[s.position["Anna"]].id == "jail" and "Anna" in s.detained
    assert s.cash("Anna") == 1520
    with pytest.raises(RuleViolation) as exc:
        g.apply("roll 1 2")  # the move ends there
    assert exc.value.code == "already_rolled"


def test_get_out_of_jail_free_card_is_kept_sold_and_used(rules):
    """ "Stop on the Chance and Treasury field": the card is kept until needed, or sold."""
    g = new(rules)
    run(g, "roll 3 4", "draw ch_jail_free", "end")
    assert g.state.kept["Anna"] == ("ch_jail_free",)
    run(g, "land go_to_jail", "end")
    run(g, "trade Anna Boris give ch_jail_free get 25")
    assert g.state.kept == {"Boris": ("ch_jail_free",)}
    assert (g.state.cash("Anna"), g.state.cash("Boris")) == (1525, 1475)
    run(g, "roll 1 2", "end", "use_card ch_jail_free")
    assert "Boris" not in g.state.detained
    assert g.state.kept == {} and g.state.decks["chance"][-1] == "ch_jail_free"


def test_the_card_is_traded_together_with_lots_and_cash(rules):
    """ "Property For Sale": a trade may combine lots, money and a prison release card."""
    g = new(rules)
    run(g, "roll 3 4", "draw ch_jail_free", "end", "roll 1 2", "buy", "end")
    run(g, "trade Anna Boris give ch_jail_free 40 get baltic")
    s = g.state
    assert s.owner["baltic"] == "Anna" and s.kept == {"Boris": ("ch_jail_free",)}
    assert (s.cash("Anna"), s.cash("Boris")) == (1460, 1480)


# ----- rent ------------------------------------------------------------------------------------


def test_a_mortgaged_lot_stops_double_rent_on_its_group(rules):
    """ "Stopping on someone else's real estate": double rent on an unimproved lot of a whole
    group, but "if the owner of the entire color group has at least one site ... laid, it cannot
    charge you a double rent" (monopoly_broken_by_mortgage = true); the US rules' reading is the
    option set to false."""
    g = new(rules)
    give_lots(g, "Anna", "mediterranean", "baltic")
    run(g, "mortgage mediterranean", "roll 1 3", "end", "roll 1 2")  # Boris lands on Baltic
    assert g.state.cash("Boris") == 1500 - 4
    us_rules = teleporting("monopoly", {"monopoly_broken_by_mortgage": False})
    g = new(us_rules)
    give_lots(g, "Anna", "mediterranean", "baltic")
    run(g, "mortgage mediterranean", "roll 1 3", "end", "roll 1 2")
    assert g.state.cash("Boris") == 1500 - 8


def test_double_rent_on_the_unimproved_lot_while_the_other_has_houses(rules):
    """ "Houses": the whole group with a house on only one lot still doubles the bare lot's rent."""
    g = new(rules)
    give_lots(g, "Anna", "mediterranean", "baltic")
    run(g, "build mediterranean", "roll 1 3", "end", "roll 1 2")
    assert g.state.cash("Boris") == 1500 - 8


def test_mortgaged_lot_collects_no_rent(rules):
    """ "Pledge": no rent is charged on a mortgaged lot."""
    g = new(rules)
    give_lots(g, "Anna", "baltic")
    run(g, "mortgage baltic", "roll 1 3", "end", "roll 1 2")
    assert g.state.cash("Boris") == 1500


def test_utility_reached_by_a_card_needs_a_fresh_throw(rules):
    """ "Stop on the field of services": sent there by a card, you throw the dice to price it."""
    g = new(rules)
    give_lots(g, "Boris", "electric")
    run(g, "roll 3 4", "draw ch_utility")
    assert g.state.pending.kind == "rent_roll" and g.state.pending.count == 10
    with pytest.raises(RuleViolation):
        g.apply("end")
    run(g, "rent_roll 6 5")
    assert (g.state.cash("Anna"), g.state.cash("Boris")) == (1390, 1610)


def test_utility_rent_after_a_card_move_uses_the_last_throw_when_the_option_is_off():
    """card_utility_roll: a card moving you onto a utility asks for a fresh throw (the rulebook);
    off, the throw that brought you to the card square prices it. A card's own 10x always
    asks for the throw, and so does a landing reported without dice (`land`)."""
    to_electric = (
        'effects = [{ do = "move_to", cell = "st_charles" }]',
        'effects = [{ do = "move_to", cell = "electric" }]',
    )
    for flag, expected in ((True, None), (False, 4 * 7)):
        r = teleporting("monopoly", {"card_utility_roll": flag}, replace=[to_electric])
        g = new(r)
        give_lots(g, "Boris", "electric")
        run(g, "roll 3 4", "draw ch_st_charles")
        if expected is None:
            assert g.state.pending.kind == "rent_roll" and g.state.pending.count == 4
        else:
            assert g.state.pending is None and g.state.cash("Boris") == 1500 + expected
        g = new(r)
        give_lots(g, "Boris", "electric")
        run(g, "roll 3 4", "draw ch_utility")
        assert g.state.pending.kind == "rent_roll" and g.state.pending.count == 10
        g = new(r)
        give_lots(g, "Boris", "electric")
        run(g, "land electric")
        assert g.state.pending.kind == "rent_roll" and g.state.pending.count == 4


# ----- houses, hotels, the box -------------------------------------------------------------------


def test_houses_evenly_four_then_a_hotel_that_returns_them(rules):
    """ "Houses"/"Hotels": evenly, at most four, then a hotel; its four houses go back."""
    g = new(rules)
    give_lots(g, "Anna", "park_place", "boardwalk")
    run(g, "pay Boris Anna 1000")
    for _ in range(4):
        run(g, "build park_place", "build boardwalk")
    assert rules.buildings_in_use(g.state) == (8, 0)
    run(g, "build park_place")
    assert rules.buildings_in_use(g.state) == (4, 1)
    assert g.state.cash("Anna") == 2500 - 9 * 200
    with pytest.raises(RuleViolation) as exc:
        g.apply("build park_place")
    assert exc.value.code == "fully_built"


def test_no_building_on_a_group_with_a_mortgaged_lot(rules):
    """ "Pledge"/"Houses": "It is impossible to build houses if at least one plot of this color
    group is laid", although the double rent still holds."""
    g = new(rules)
    give_lots(g, "Anna", "mediterranean", "baltic")
    run(g, "mortgage baltic")
    with pytest.raises(RuleViolation) as exc:
        g.apply("build mediterranean")
    assert exc.value.code == "group_mortgaged"


def test_mortgage_needs_the_whole_group_unbuilt(rules):
    """ "Pledge": first sell the buildings of the colour group, then mortgage."""
    g = new(rules)
    give_lots(g, "Anna", "oriental", "vermont", "connecticut")
    run(g, "build oriental")
    with pytest.raises(RuleViolation) as exc:
        g.apply("mortgage vermont")
    assert exc.value.code == "sell_buildings_first"
    run(g, "sell_building oriental", "mortgage vermont")
    assert g.state.cash("Anna") == 1500 - 50 + 25 + 50


def test_the_box_holds_32_houses(rules):
    """ "Lack of buildings": no more houses than the box holds (one builder: no auction)."""
    g = new(rules)
    lots = [
        "pacific",
        "north_carolina",
        "pennsylvania",
        "park_place",
        "boardwalk",
        "atlantic",
        "ventnor",
        "marvin_gardens",
    ]
    give_lots(g, "Anna", *lots)
    run(g, "pay Boris Anna 1000")
    s = g.state.copy()
    s.balances["Anna"] += 10000
    s.balances[BANK] -= 10000
    g.state = s
    for _ in range(4):
        for pid in lots:
            run(g, f"build {pid}")
    assert rules.buildings_in_use(g.state) == (32, 0)
    give_lots(g, "Anna", "mediterranean", "baltic")
    with pytest.raises(RuleViolation) as exc:
        g.apply("build mediterranean")
    assert exc.value.code == "supply_out"
    run(g, "build park_place")  # a hotel frees four houses
    run(g, "build mediterranean")
    assert rules.buildings_in_use(g.state) == (29, 1)


def small_box_two_builders():
    """Six houses in the box; Anna owns the browns, Boris the light blues."""
    r = teleporting("monopoly", replace=[("small = 32 ", "small = 6 ")])
    g = new(r)
    give_lots(g, "Anna", "mediterranean", "baltic")
    give_lots(g, "Boris", "oriental", "vermont", "connecticut")
    return r, g


def test_building_goes_ahead_while_the_bank_has_houses(rules):
    """ "Lack of buildings" is about the last houses two players want, not about everything
    anyone could ever build: with 32 houses in the bank and four whole groups owned, an
    ordinary first house is built at once (no auction is forced) though all could ever want 44."""
    g = new(rules, ("Anna", "Boris", "Vera"))
    give_lots(g, "Anna", "mediterranean", "baltic")
    give_lots(g, "Boris", "oriental", "vermont", "connecticut")
    give_lots(g, "Vera", "st_charles", "states", "virginia", "st_james", "tennessee", "new_york")
    run(g, "build mediterranean")  # they could put up 8 + 12 + 24 = 44 > 32
    assert g.state.level["mediterranean"] == 1 and g.state.cash("Anna") == 1500 - 50


def test_the_table_auctions_the_last_houses_from_the_deeds_price(rules):
    """ "Lack of buildings": the table says someone else wants the last houses (`house_auction
    PLOT`, the lot its owner wants to build on); the auction opens at the house price on that
    lot's deed (Oriental: 50; Park Place would be 200, never the cheapest deed's); while it runs
    nobody builds that kind directly; the winner places the house and pays the bid."""
    r, g = small_box_two_builders()
    run(g, "house_auction oriental")
    assert g.state.pending.kind == "house_auction" and g.state.pending.opening == 50
    with pytest.raises(RuleViolation) as exc:
        g.apply("build mediterranean")
    assert exc.value.code == "building_at_auction"
    with pytest.raises(RuleViolation):
        g.apply("roll 1 2")
    run(g, "bid Anna 50", "bid Boris 60", "bid Anna 75", "hammer")
    assert g.state.pending.kind == "place_building" and g.state.pending.player == "Anna"
    with pytest.raises(RuleViolation) as exc:
        g.apply("build oriental")
    assert exc.value.code == "place_won_building"
    run(g, "build baltic")
    assert g.state.level["baltic"] == 1
    assert g.state.cash("Anna") == 1500 - 75 and g.state.cash("Boris") == 1500
    assert g.state.pending is None


def test_a_shortage_auction_needs_another_builder_and_only_builders_bid(rules):
    """ "Lack of buildings": two or more players must want the houses: with one builder alone the
    table's `house_auction` is refused (no_rival_builder) and building is direct; a player with
    no lot where the house could go may not bid (cannot_place)."""
    r = teleporting("monopoly", replace=[("small = 32 ", "small = 6 ")])
    g = new(r)
    give_lots(g, "Anna", "mediterranean", "baltic", "oriental", "vermont", "connecticut")
    with pytest.raises(RuleViolation) as exc:
        g.apply("house_auction mediterranean")
    assert exc.value.code == "no_rival_builder"
    run(g, "build mediterranean")
    g3 = new(r, players=("Anna", "Boris", "Vera"))
    give_lots(g3, "Anna", "mediterranean", "baltic")
    give_lots(g3, "Boris", "oriental", "vermont", "connecticut")
    run(g3, "house_auction mediterranean")
    with pytest.raises(RuleViolation) as exc:
        g3.apply("bid Vera 60")
    assert exc.value.code == "cannot_place"


def test_shortage_auction_without_bids_and_declining_the_won_house(rules):
    """ "Lack of buildings": no bids leaves the house in the bank; a winner may decline it."""
    r, g = small_box_two_builders()
    run(g, "house_auction oriental", "hammer")
    assert g.state.pending is None
    run(g, "house_auction oriental", "bid Boris 55", "hammer", "decline")
    assert g.state.pending is None and g.state.cash("Boris") == 1500
    assert r.buildings_in_use(g.state) == (0, 0)


def test_shortage_auction_can_be_switched_off():
    """building_shortage_auction = false: no shortage auctions; plain building while the box lasts."""
    r = teleporting("monopoly", {"building_shortage_auction": False}, replace=[("small = 32 ", "small = 6 ")])
    g = new(r)
    give_lots(g, "Anna", "mediterranean", "baltic")
    give_lots(g, "Boris", "oriental", "vermont", "connecticut")
    with pytest.raises(RuleViolation) as exc:
        g.apply("house_auction oriental")
    assert exc.value.code == "no_shortage_auctions"
    run(g, "build mediterranean")
    assert g.state.level["mediterranean"] == 1


def test_selling_a_hotel_without_houses_in_the_bank_sells_the_group_down(rules):
    """ "Lack of buildings"/"Property For Sale": a hotel cannot be broken into houses the bank
    lacks; all hotels of the group are sold at once and the houses left are spread evenly."""
    r = teleporting("monopoly", replace=[("small = 32 ", "small = 8 ")])
    g = new(r)
    give_lots(g, "Anna", "mediterranean", "baltic")
    for _ in range(4):
        run(g, "build mediterranean", "build baltic")
    run(g, "build mediterranean", "build baltic")  # two hotels; 8 houses back
    give_lots(g, "Anna", "oriental", "vermont")
    give_lots(g, "Anna", "connecticut")
    for _ in range(2):
        run(g, "build oriental", "build vermont", "build connecticut")
    assert r.left(g.state, "house") == 2
    cash = g.state.cash("Anna")
    run(g, "sell_building baltic")  # 2 houses in the bank: 1 per lot
    s = g.state
    assert (s.level.get("mediterranean"), s.level.get("baltic")) == (1, 1)
    assert s.cash("Anna") == cash + 2 * 4 * 25  # four levels off each lot, half of 50 each
    assert r.left(s, "house") == 0


def test_selling_a_hotel_with_houses_in_the_bank_gives_four_houses_back(rules):
    """ "Property For Sale": sell the hotel for half its price and get four houses back."""
    g = new(rules)
    give_lots(g, "Anna", "mediterranean", "baltic")
    for _ in range(4):
        run(g, "build mediterranean", "build baltic")
    run(g, "build mediterranean", "sell_building mediterranean")
    assert g.state.level["mediterranean"] == 4
    assert g.state.cash("Anna") == 1500 - 9 * 50 + 25


def test_repairs_cards_count_houses_and_hotels(rules):
    """Chance "general repairs": 25 a house, 100 a hotel (a hotel is not four houses)."""
    g = new(rules)
    give_lots(g, "Anna", "mediterranean", "baltic")
    for _ in range(4):
        run(g, "build mediterranean", "build baltic")
    run(g, "build mediterranean")
    cash = g.state.cash("Anna")
    run(g, "roll 3 4", "draw ch_repairs")
    assert g.state.cash("Anna") == cash - (4 * 25 + 100)


def test_a_repairs_card_without_buildings_says_there_is_nothing_to_pay(rules):
    """Chance "general repairs" drawn with no houses: nothing is paid, and the screens say so
    (a silent card leaves the table asking whether anything was paid)."""
    g = new(rules)
    cash = g.state.cash("Anna")
    g.apply("roll 3 4")
    event = g.apply("draw ch_repairs")
    assert g.state.cash("Anna") == cash
    assert [n.code for n in event.notes][-1] == "nothing_to_pay"
    assert (
        render("nothing_to_pay", event.notes[-1].params, "en", rules.edition) == "Anna has no buildings: nothing to pay"
    )


def test_mortgaged_lots_of_a_bankrupt_come_to_the_creditor_in_board_order(rules):
    """ "Bankruptcy" and "Pledge": the creditor decides about each mortgaged lot received, one at
    a time in board order (docs/editions/monopoly.md): Mediterranean (cell 1) before Baltic
    (cell 3), though "baltic" comes first by name."""
    g = new(rules, ("Anna", "Boris", "Vera"))
    give_lots(g, "Anna", "baltic", "mediterranean")
    give_lots(g, "Boris", "boardwalk", "park_place")
    s = g.state.copy()
    s.balances["Anna"] -= 1490  # Anna is down to 10
    s.balances["bank"] += 1490
    g.state = s
    run(g, "mortgage mediterranean", "mortgage baltic", "land boardwalk")  # 70 cash, 100 rent
    assert g.state.debts and g.state.debts[0].creditor == "Boris"
    run(g, "bankrupt Anna")
    assert g.state.pending.kind == "mortgage_transfer" and g.state.pending.plot == "mediterranean"
    run(g, "keep_mortgage mediterranean")
    assert g.state.pending.plot == "baltic"


# ----- trades and mortgaged lots ------------------------------------------------------------------


def test_trading_a_mortgaged_lot_interest_at_once_or_redeem_at_once(rules):
    """ "Pledge": a mortgaged lot may be sold; the buyer pays 10% now and again on lifting it, or
    lifts it at once for the mortgage + 10%."""
    g = new(rules)
    give_lots(g, "Anna", "boardwalk", "park_place")
    run(g, "mortgage boardwalk", "mortgage park_place")  # +200 +175
    run(g, "trade Anna Boris give boardwalk park_place get 300")
    assert g.state.pending.kind == "mortgage_transfer" and g.state.pending.plot == "park_place"
    run(g, "keep_mortgage park_place")  # 10% of 175 = 17.5 -> 18
    assert g.state.pending.plot == "boardwalk"
    run(g, "redeem boardwalk")  # 200 + 20
    s = g.state
    assert s.pending is None
    assert "park_place" in s.mortgaged and "boardwalk" not in s.mortgaged
    assert s.cash("Boris") == 1500 - 300 - 18 - 220
    assert s.cash("Anna") == 1500 + 375 + 300


def test_no_trading_a_lot_whose_group_has_buildings(rules):
    """ "Property For Sale": sell the group's buildings to the bank before selling any lot of it."""
    g = new(rules)
    give_lots(g, "Anna", "mediterranean", "baltic")
    run(g, "build baltic")
    with pytest.raises(RuleViolation) as exc:
        g.apply("trade Anna Boris give mediterranean get 100")
    assert exc.value.code == "group_built"


def test_mortgaged_lots_cannot_be_traded_when_the_option_forbids_it():
    """trade_mortgaged = false follows the first article ("You can not sell the laid real estate")."""
    r = teleporting("monopoly", {"trade_mortgaged": False})
    g = new(r)
    give_lots(g, "Anna", "baltic")
    run(g, "mortgage baltic")
    with pytest.raises(RuleViolation) as exc:
        g.apply("trade Anna Boris give baltic get 10")
    assert exc.value.code == "plot_mortgaged"


# ----- bankruptcy ----------------------------------------------------------------------------------


def test_bankrupt_to_the_bank_returns_lots_when_the_option_says_so():
    """ "Bankruptcy" (first article): the lots go back to the bank for free sale, no auction."""
    r = teleporting("monopoly", {"bankrupt_to_bank": "return"})
    g = new(r, players=("Anna", "Boris", "Vera"))
    give_lots(g, "Anna", "baltic")
    run(g, "mortgage baltic", "pay Anna Boris 1500", "land luxury_tax", "bankrupt Anna")
    s = g.state
    assert "baltic" not in s.owner and "baltic" not in s.mortgaged
    assert s.pending is None and s.turn == "Boris"


def test_bankrupt_to_a_player_with_several_debts_pays_the_first_creditor(rules):
    """ "Bankruptcy": the creditor of the payment that broke the player takes everything; later
    debts lapse (documented choice)."""
    g = new(rules, players=("Anna", "Boris", "Vera"))
    run(g, "pay Anna Boris 1480", "roll 3 4", "draw ch_chairman")  # 50 to Boris, 50 to Vera
    s = g.state
    assert [(d.creditor, d.amount) for d in s.debts] == [("Boris", 50), ("Vera", 50)]
    run(g, "bankrupt Anna")
    s = g.state
    assert s.cash("Boris") == 1500 + 1480 + 20 and s.cash("Vera") == 1500
    assert any(n.code == "debt_lapsed" for n in g.events[-1].notes)


# ----- the short game ---------------------------------------------------------------------------------


def test_short_game_hotel_after_three_houses():
    """ "Rules of a shortened game", 2: three houses on each lot before a hotel; the rent stays
    the deed's (hotel rent), and selling the hotel gives three houses back."""
    r = teleporting("monopoly", {"hotel_after_houses": 3})
    g = new(r)
    give_lots(g, "Anna", "mediterranean", "baltic")
    for _ in range(3):
        run(g, "build mediterranean", "build baltic")
    run(g, "build mediterranean")
    s = g.state
    assert s.level["mediterranean"] == 4 and r.buildings_in_use(s) == (3, 1)
    assert r.rent(s, r.edition.plots["mediterranean"]) == 250
    assert r.rent(s, r.edition.plots["baltic"]) == 180
    run(g, "sell_building mediterranean")
    assert r.buildings_in_use(g.state) == (6, 0)


def test_short_game_deals_two_deeds_each_and_ends_at_the_second_bankruptcy():
    """ "Rules of a shortened game", 1 and 3: two deeds dealt and paid for; the game ends at the
    second bankruptcy and the richest remaining player wins (cash, lots at price, mortgaged
    lots at half, buildings at cost)."""
    r = teleporting("monopoly", {"start_deal": 2, "end_at_bankruptcy": 2})
    g = new(r, players=("Anna", "Boris", "Vera", "Gleb"))
    s = g.state
    assert all(len(s.plots_of(p)) == 2 for p in s.players)
    assert all(s.cash(p) == 1500 - sum(r.edition.plots[pid].price for pid in s.plots_of(p)) for p in s.players)
    for loser in ("Anna", "Boris"):  # each gives Vera everything: then nothing can pay a tax
        run(g, f"trade {loser} Vera give {' '.join(g.state.plots_of(loser))}")
        run(g, f"pay {loser} Vera {g.state.cash(loser)}")
    run(g, "land luxury_tax", "bankrupt Anna")
    assert g.state.phase != "over"
    run(g, "land luxury_tax", "bankrupt Boris")
    s = g.state
    assert s.phase == "over" and s.alive == ("Vera", "Gleb")
    wealth = {p: r.wealth(s, p) for p in s.alive}
    assert s.winner == max(wealth, key=wealth.get)
    expected = s.cash("Vera") + sum(r.edition.plots[pid].price for pid in s.plots_of("Vera"))
    assert wealth["Vera"] == expected


# ----- house rules, off by default ------------------------------------------------------------------


def test_free_parking_pot_collects_taxes_and_fines():
    """House rule free_parking_pot: taxes, fines and card payments go to a pot on Free Parking."""
    r = teleporting("monopoly", {"free_parking_pot": True})
    g = new(r)
    run(g, "roll 1 3", "end")  # Anna: Income Tax 200 into the pot
    assert g.state.cash(POT) == 200
    run(g, "land free_parking")  # Boris collects it
    assert g.state.cash("Boris") == 1700 and g.state.cash(POT) == 0


def test_free_parking_pot_takes_a_repairs_card_too():
    """House rule free_parking_pot: Chance "general repairs" (25 a house) is paid into the pot."""
    g = new(teleporting("monopoly", {"free_parking_pot": True}))
    give_lots(g, "Anna", "mediterranean", "baltic")
    run(g, "build mediterranean", "build baltic")
    cash = g.state.cash("Anna")
    run(g, "roll 3 4", "draw ch_repairs")
    assert g.state.cash("Anna") == cash - 2 * 25 and g.state.cash(POT) == 2 * 25


def test_house_rules_are_off_by_default(rules):
    """The official rules: no pot, no GO landing bonus, rent collected from jail."""
    assert not rules.opt["free_parking_pot"]
    assert rules.opt["go_landing_bonus"] == 0 and not rules.opt["jail_blocks_rent"]
    g = new(rules)
    run(g, "roll 1 3", "end")
    assert g.state.cash(POT) == 0


def test_go_landing_bonus_and_no_rent_from_jail():
    """House rules go_landing_bonus (landing on GO pays double) and jail_blocks_rent."""
    r = teleporting("monopoly", {"go_landing_bonus": 200, "jail_blocks_rent": True})
    g = new(r)
    give_lots(g, "Anna", "baltic")
    run(g, "land go_to_jail", "end", "roll 1 2")  # Boris on Baltic while Anna is in jail
    assert g.state.cash("Boris") == 1500
    run(g, "end", "roll 1 2", "end", "land go")  # Boris lands on GO: 200 + 200
    assert g.state.cash("Boris") == 1900


# ----- the edition file is checked ------------------------------------------------------------------


@pytest.mark.parametrize(
    "option, value, key",
    [
        ("hotel_after_houses", 5, "options.hotel_after_houses"),
        ("bankrupt_to_bank", "burn", "options.bankrupt_to_bank"),
        ("detention_third_miss", "never", "options.detention_third_miss"),
    ],
)
def test_bad_options_are_reported_with_the_key(option, value, key):
    """An edition file with an impossible option names the key."""
    with pytest.raises(EditionError) as exc:
        teleporting("monopoly", {option: value})
    assert exc.value.key == key


def test_messages_exist_in_every_language():
    """Every code the module emits has an English and a Russian template."""
    for code in MONOPOLY["en"]:
        for lang in LANGUAGES:
            assert code in CATALOGS[lang], (lang, code)


# ----- seeded autoplay games to the end ---------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_autoplay_games_run_to_the_end(rules, seed):
    """Seeded bots play whole games: every event balances, cash never goes negative, the replay
    gives the identical state, and the game ends (by bankruptcies, or the timed count)."""
    players = ("Anna", "Boris", "Vera", "Gleb", "Dina")[: 2 + seed % 4]
    play_checked(rules, seed, players)  # ends with a winner, books, replay and texts checked


@pytest.mark.parametrize(
    "options",
    [
        {"hotel_after_houses": 3, "end_at_bankruptcy": 2, "start_deal": 2},
        {"free_parking_pot": True, "go_landing_bonus": 200, "jail_blocks_rent": True},
        {"bankrupt_to_bank": "return", "building_shortage_auction": False, "card_utility_roll": False},
    ],
    ids=["short_game", "house_rules", "other_choices"],
)
def test_autoplay_variants_run_to_the_end(options):
    """The options' variants also play to the end with balanced events and identical replays."""
    r = teleporting("monopoly", options)
    for seed in (11, 12):
        play_checked(r, seed, ("Anna", "Boris", "Vera", "Gleb"))  # over, balanced, identical replay


def test_autoplay_game_survives_the_ledger(tmp_path):
    """A game on the SQLite ledger reopens by replay to the same state."""
    db = str(tmp_path / "monopoly.sqlite")
    table = new_game(db, "monopoly", ["Anna", "Boris", "Vera"], 5)
    play(table.submit, table.game, 5)
    signature = table.state.signature()
    table.close()
    reopened = open_game(db)
    assert reopened.state.signature() == signature
    reopened.close()
