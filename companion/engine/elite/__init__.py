"""Millionaire Elite: shares and the EXCHANGE, taxes, insurance, the AUCTION cell, FORTUNE cards.

EliteRules (elite/rules.py) is assembled from one module per section of the rulebook;
the package exports what the single module elite.py did.
"""

from companion.engine.elite.auction import side_layout
from companion.engine.elite.base import (
    ELITE_EFFECT_OPTIONAL,
    ELITE_EFFECTS,
    FORTUNE_EFFECTS,
    IN_FORCE,
    ORDINALS,
    PLOT_EFFECTS,
    check_plot_selector,
    first,
    plot_ordinals,
)
from companion.engine.elite.insurance import BLUE_PICKS, EFFECT, POLICIES, POLICY_NAMES, SHORT_TERM, policy_arg
from companion.engine.elite.rules import EliteRules

__all__ = [
    "BLUE_PICKS",
    "EFFECT",
    "ELITE_EFFECTS",
    "ELITE_EFFECT_OPTIONAL",
    "FORTUNE_EFFECTS",
    "IN_FORCE",
    "ORDINALS",
    "PLOT_EFFECTS",
    "POLICIES",
    "POLICY_NAMES",
    "SHORT_TERM",
    "EliteRules",
    "check_plot_selector",
    "first",
    "plot_ordinals",
    "policy_arg",
    "side_layout",
]
