"""The simulator's bot strategies: each seat picks only from the actions Rules.legal lists for it.

A strategy is a small class: it is handed the state, its seat and the actions that are
its own now (plus the table's auction hammer and shortage auction, which a bot may ask
the table to use), and returns one of them with every free value filled within the
bounds the action gives (an amount, a bid, a trade's items, dice). It never applies a
command and never sees a refusal: the runner applies what it returns, once.

Families: `GenericStrategy` (any edition: buy with a cash reserve, build on whole groups,
bid up to a value, mortgage and sell before going bankrupt, offer and accept fair trades),
`MillionaireStrategy` (+ the JACKPOT), `EliteStrategy` (+ shares by price and dividend,
the EXCHANGE, insurance when exposed, buildings weighed by the rent the players left would pay
against the circle tax they add, swaps), `MonopolyStrategy` (+ rent rolls, mortgaged deeds,
shortage auctions) and `MadMillionaireStrategy`, each in its edition's module beside that edition's
autoplayer hints (companion/bots/generic.py, millionaire.py, elite.py, monopoly.py, madmillionaire.py).
The character (how much cash to keep, how high to bid) is a `Temper` (temper.py): balanced, cautious
or aggressive; seats can mix them. This module names the family each edition plays and builds a seat's
strategy from its name (`strategy`).
"""

from __future__ import annotations

import random

from companion.bots.elite import EliteStrategy
from companion.bots.generic import GenericStrategy
from companion.bots.madmillionaire import MadMillionaireStrategy
from companion.bots.millionaire import MillionaireStrategy
from companion.bots.monopoly import MonopolyStrategy
from companion.bots.picking import first_progress
from companion.bots.temper import TEMPERS, Temper

FAMILIES = {
    "elite": EliteStrategy,
    "classic": MillionaireStrategy,
    "deluxe": MillionaireStrategy,
    "monopoly": MonopolyStrategy,
    "madmillionaire": MadMillionaireStrategy,
}
NAMES = tuple(TEMPERS) + tuple(f"generic-{t}" for t in TEMPERS)


def strategy(rules, name: str, rng: random.Random) -> GenericStrategy:
    """The strategy called `name` for this rules module: a temper (balanced, cautious,
    aggressive) played by the edition family's class, or `generic-TEMPER` (the shared rules only)."""
    generic = name.startswith("generic-")
    temper = TEMPERS.get(name.removeprefix("generic-"))
    if temper is None:
        raise ValueError(name)
    cls = GenericStrategy if generic else FAMILIES.get(rules.edition.rules, GenericStrategy)
    bot = cls(rules, temper, rng)
    bot.name = name
    return bot


__all__ = ["FAMILIES", "NAMES", "TEMPERS", "GenericStrategy", "Temper", "first_progress", "strategy"]
