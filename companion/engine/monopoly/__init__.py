"""Monopoly (classic): houses and hotels, railroads and utilities, jail, shortage auctions, bankruptcy."""

from companion.engine.monopoly.rules import KINDS, MONOPOLY_EFFECTS, MonopolyRules

__all__ = ["KINDS", "MONOPOLY_EFFECTS", "MonopolyRules"]
