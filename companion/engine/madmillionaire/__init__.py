"""Mad Millionaire: a free-roaming city, businesses bought or leased, income from publicity stunts.

MadMillionaireRules (madmillionaire/rules.py) is assembled from one module per part of the
rulebook; the package exports what the single module madmillionaire.py did.
"""

from companion.engine.madmillionaire.base import SALE_FACES, SMALL, STUNT_DECK
from companion.engine.madmillionaire.moves import road_map
from companion.engine.madmillionaire.rules import MadMillionaireRules
from companion.engine.madmillionaire.stunts import next_to

__all__ = ["SALE_FACES", "SMALL", "STUNT_DECK", "MadMillionaireRules", "next_to", "road_map"]
