"""A simulator bot's character (`Temper`): how much cash it keeps back and how far it bids; three of them."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Temper:
    """A bot's character: cash kept back (a share of the starting cash) and how far it bids."""

    name: str
    reserve: float  # cash kept after a purchase, as a fraction of the starting cash
    bid_factor: float  # bids up to this many times a plot's price (more when it completes a group)
    trade_factor: float  # pays up to this many times the price for the lot that completes a group


TEMPERS = {
    "balanced": Temper("balanced", 0.12, 1.0, 2.0),
    "cautious": Temper("cautious", 0.3, 0.8, 1.5),
    "aggressive": Temper("aggressive", 0.04, 1.3, 2.5),
}
