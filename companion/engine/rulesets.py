"""Which rules module an edition file's `rules = "..."` names."""
from companion.engine.classic import ClassicRules
from companion.engine.deluxe import DeluxeRules
from companion.engine.elite import EliteRules
from companion.engine.madmillionaire import MadMillionaireRules
from companion.engine.monopoly import MonopolyRules

RULESETS = {
    "elite": EliteRules,
    "madmillionaire": MadMillionaireRules,
    "classic": ClassicRules,
    "deluxe": DeluxeRules,
    "monopoly": MonopolyRules,
}
