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

# The version of the rules every stored game is played under. Raise it whenever a change to the
# engine or a rules module makes some stored command play out differently (other postings, notes
# or refusals); a game written under another version is replayed in full when opened, and refused
# in one line naming the version that wrote it if it no longer replays identically.
RULES_VERSION = 3  # 3: Elite central tax counts only taxed plots; FORTUNE points on plots
