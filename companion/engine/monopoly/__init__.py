"""Monopoly (classic): houses and hotels, railroads and utilities, jail, shortage auctions, bankruptcy.

MonopolyRules (monopoly/rules.py) is assembled from one module per concern; the package
exports what the single module monopoly.py did.
"""

from companion.engine.monopoly.buildings import KINDS
from companion.engine.monopoly.landings import MONOPOLY_EFFECTS
from companion.engine.monopoly.rules import MonopolyRules

__all__ = ["KINDS", "MONOPOLY_EFFECTS", "MonopolyRules"]
