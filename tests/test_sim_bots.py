"""The Elite bot weighs a building's circle tax against the rent it brings (КРУГОВОЙ НАЛОГ,
ФИЛИАЛЫ И ПРЕДПРИЯТИЯ): it builds where the others' stops pay for the tax, keeps the next circle
tax in cash when it builds, and so sells far fewer buildings back to pay that tax than the
shared-rules bot, which builds whenever it has the cash. Short of cash, it offers a spare lot
(with cash on top) for the lot that completes a group (ТОРГОВЛЯ СОБСТВЕННОСТЬЮ: any unbuilt plots
and money), and in debt it sells back the building that earns least for what it fetches first."""

import random

from companion.bots.strategies import strategy
from companion.editions import load_edition, rules_for
from companion.engine.actions import TABLE, Action
from companion.engine.command import parse_command, split_actor
from companion.engine.game import Game
from companion.engine.state import BANK, Debt
from companion.sim.runner import SETTLE_VERBS, Study, play_many

RULES = rules_for(load_edition("elite"))


def table(players: list[str], groups: list[str], cash: int):
    """A game's state with Anna holding these industries whole, unbuilt, and `cash` in hand."""
    s = Game.start(RULES, 1, players).state.copy()
    for ind in groups:
        for pid in RULES.edition.industry_plots(ind):
            s.owner[pid] = "Anna"
    s.balances["Anna"] = cash
    return s.copy()


def builds(s, pid: str):
    bot = strategy(RULES, "balanced", random.Random(1))
    return bot.build_choice(s, "Anna", [Action("build", (pid,), "Anna")])


def test_builds_where_the_others_stops_pay_for_the_tax():
    # four at the table: a branch on Mining adds 108 rent a stop (three players may stop) and 30
    # tax a lap, and pays its 200 back: built
    s = table(["Anna", "Boris", "Vera", "Gleb"], ["mining"], 2000)
    assert builds(s, "mining1") is not None
    # two left: a branch on Entertainment adds 6 rent a stop of the one other player and 3 tax a
    # lap: it costs more in tax than it brings, and the other is not drained by it: not built
    s = table(["Anna", "Boris"], ["leisure"], 2000)
    assert builds(s, "leisure1") is None


def test_keeps_the_next_circle_tax_in_cash_when_it_builds():
    # Mining pays, but 600 in hand less a 200 branch would not cover the reserve (240) and the
    # next circle tax (270 for two whole groups, 30 more with the branch)
    s = table(["Anna", "Boris", "Vera", "Gleb"], ["mining", "heavy"], 600)
    assert RULES.circle_tax_amount(s, "Anna") == 270
    assert builds(s, "mining1") is None
    # with 800 in hand both are covered: built
    assert builds(table(["Anna", "Boris", "Vera", "Gleb"], ["mining", "heavy"], 800), "mining1") is not None


def circle_tax_sales(strategies: tuple[str, ...]) -> tuple[int, int]:
    """(buildings put up, buildings sold back while a circle tax was owed) over eight seeded games."""
    put_up = sold = 0
    for record in play_many(Study("elite", games=8, seed=1, round_cap=300, strategies=strategies)):
        _, seed, players = Game.parse_start(record.lines[0])
        game = Game.start(RULES, seed, players)
        for line in record.lines[1:]:
            name, text = split_actor(line)
            cmd = parse_command(text)
            if cmd.verb == "build":
                put_up += 1
            elif cmd.verb == "sell_building" and any(d.reason == "circle_tax" for d in game.state.debts):
                sold += 1
            game.apply(cmd, TABLE if name is None else name)
    return put_up, sold


def test_sells_far_fewer_buildings_back_to_pay_the_circle_tax():
    elite_built, elite_sold = circle_tax_sales(("balanced",))
    shared_built, shared_sold = circle_tax_sales(("generic-balanced",))
    assert elite_built > 100 and shared_built > 100  # both build
    assert 2 * elite_sold <= shared_sold


def test_offers_a_spare_lot_and_cash_for_the_lot_that_completes_its_group():
    # Anna holds two heavy-industry plots and a lone Shoe factory, Boris the Steelworks (310); with
    # 600 in hand she cannot pay twice its price and keep her reserve, so she offers the Shoe
    # factory and cash on top; Boris takes it (worth 1.4 times what he gives, at his values)
    game = Game.start(RULES, 1, ["Anna", "Boris", "Vera", "Gleb"])
    s = game.state.copy()
    s.owner.update({"heavy1": "Anna", "heavy2": "Anna", "light1": "Anna", "heavy3": "Boris"})
    RULES.transfer(s, "Anna", BANK, 1400)
    game.state = s.copy()
    anna, boris = strategy(RULES, "balanced", random.Random(1)), strategy(RULES, "balanced", random.Random(2))
    trades = [a for a in RULES.legal(game.state, TABLE, {"trade"}) if a.party == "Anna"]
    _, offer = anna.deal(game.state, "Anna", trades)
    assert offer.text() == "trade Anna Boris give light1 265 get heavy3"
    game.apply(offer, "Anna")
    answers = [a for a in RULES.legal(game.state, TABLE, {"accept", "reject"}) if a.party == "Boris"]
    _, answer = boris.answer(game.state, "Boris", RULES.offers(game.state)[0], answers)
    game.apply(answer, "Boris")
    assert [game.state.owner[pid] for pid in ("heavy1", "heavy2", "heavy3", "light1")] == ["Anna"] * 3 + ["Boris"]
    assert game.state.cash("Anna") == 600 - 265


def test_in_debt_sells_the_building_that_earns_least_first():
    # Anna owes a circle tax she cannot pay: one branch on each Entertainment plot (a branch there
    # adds 6 to 12 a stop), two on each Mining plot (108 and 120): she sells an Entertainment
    # branch back, not a Mining one (the highest level, as the shared-rules bot would)
    s = table(["Anna", "Boris", "Vera", "Gleb"], ["leisure", "mining"], 0)
    s.level.update({"leisure1": 1, "leisure2": 1, "leisure3": 1, "mining1": 2, "mining2": 2})
    s.debts = (Debt("Anna", BANK, 20, "circle_tax"),)
    bot = strategy(RULES, "balanced", random.Random(1))
    acts = [a for a in RULES.legal(s, TABLE, SETTLE_VERBS) if a.party == "Anna"]
    assert any(a.verb == "sell_building" and a.args[0] == "mining1" for a in acts)
    _, cmd = bot.settle(s, "Anna", acts)
    assert cmd.verb == "sell_building" and cmd.args[0].startswith("leisure")
