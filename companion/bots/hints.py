"""The seeded autoplayer's hints: candidate commands worth trying now, per edition and generic.

Each edition's hints live in its own module beside its simulator strategy (companion/bots/elite.py,
millionaire.py, monopoly.py, madmillionaire.py; the generic ones in generic.py); this module picks them."""

from companion.bots.elite import elite_candidates
from companion.bots.generic import generic_candidates
from companion.bots.madmillionaire import madmillionaire_candidates
from companion.bots.millionaire import classic_candidates
from companion.bots.monopoly import monopoly_candidates
from companion.engine.classic import ClassicRules
from companion.engine.elite import EliteRules
from companion.engine.madmillionaire import MadMillionaireRules
from companion.engine.monopoly import MonopolyRules


def edition_candidates(rules, s, rng):
    """Edition-specific commands worth trying now, most useful first.

    The autoplayer (companion.bots.autoplay) tries these before the generic moves;
    `rng` is a random.Random it owns, so the engine stays pure.
    """
    if isinstance(rules, ClassicRules):  # Deluxe too
        return classic_candidates(rules, s, rng)
    if isinstance(rules, EliteRules):
        return elite_candidates(rules, s, rng)
    if isinstance(rules, MonopolyRules):
        return monopoly_candidates(rules, s, rng)
    if isinstance(rules, MadMillionaireRules):
        return madmillionaire_candidates(rules, s, rng)
    return []


__all__ = ["edition_candidates", "generic_candidates"]
