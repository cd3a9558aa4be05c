"""Shared helpers of the Millionaire Elite rule tests (tests/test_elite_*.py) and the board they use.

The tests check Millionaire Elite rule by rule against the Russian rulebook
(millionaire-elite-ru.txt), one file per group of its sections. Every test names the rulebook section it checks (the Russian heading) and
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
from helpers import new as new_game

from companion.editions import HERE, load_edition, rules_for
from companion.engine.state import BANK
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


def on_fortune(g, player="Anna"):
    arrange(g, turn=player, phase="roll", position={player: "tele1"})
    play(g, "roll 1 2")  # 11 -> 14 fortune1


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
