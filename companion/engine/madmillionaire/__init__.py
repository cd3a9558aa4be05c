"""Mad Millionaire: a free-roaming city, businesses bought or leased, income from publicity stunts."""

from companion.engine.madmillionaire.rules import (
    SALE_FACES,
    SMALL,
    STUNT_DECK,
    MadMillionaireRules,
    next_to,
    road_map,
)

__all__ = ["SALE_FACES", "SMALL", "STUNT_DECK", "MadMillionaireRules", "next_to", "road_map"]
