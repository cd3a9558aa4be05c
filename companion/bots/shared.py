"""What the autoplayer's hints and the simulator's strategies both know about play, in one place.

The dice a bot throws, which insurance policy answers a claim, and which lot completes a group:
the hints (companion/bots/hints.py and the edition modules) and the strategies (strategies.py)
read these instead of spelling them out each their own way.
"""

from __future__ import annotations

import random

from companion.engine.board import Edition
from companion.engine.state import State

# an Elite claim is covered by any policy held: the bots spend ORANGE first, since RED also cancels
# an unbearable rent or tax and is worth keeping for that
CLAIM_POLICIES = ("orange", "red")


def dice(rng: random.Random, n: int) -> str:
    """`n` dice thrown, as the words of a command ("3 5")."""
    return " ".join(str(rng.randint(1, 6)) for _ in range(n))


def claim_policy(s: State, player: str) -> str:
    """The policy colour `player` answers a claim with: the first of CLAIM_POLICIES held, else the last."""
    return next((colour for colour in CLAIM_POLICIES if s.held(player, colour)), CLAIM_POLICIES[-1])


def lot_to_complete(edition: Edition, s: State, me: str, industry_id: str) -> str | None:
    """The one lot of the group that another player holds while `me` holds all the rest, else None:
    the lot worth a deal (offered for twice its price by the hints, at the temper's factor by a strategy)."""
    missing = [pid for pid in edition.industry_plots(industry_id) if s.owner.get(pid) != me]
    if len(missing) == 1 and s.owner.get(missing[0]) is not None:
        return missing[0]
    return None
