"""Millionaire Classic and Deluxe: the autoplayer's JACKPOT hint and the simulator's `MillionaireStrategy`."""

from __future__ import annotations

from companion.bots.generic import GenericStrategy
from companion.bots.picking import fill, find
from companion.bots.shared import dice


def jackpot_hint(rules, s, rng):
    """Play the JACKPOT half the times one may."""
    if s.extra.get("jackpot") == s.turn and rng.random() < 0.5:
        return [f"jackpot {rng.choice((10, 20, 50))} {dice(rng, 3)}"]
    return []


def classic_candidates(rules, s, rng):
    """Millionaire Classic and Deluxe: only the JACKPOT needs a hint."""
    if s.debts or s.pending is not None:
        return []
    return jackpot_hint(rules, s, rng)


class MillionaireStrategy(GenericStrategy):
    """Millionaire Classic and Deluxe: the JACKPOT now and then, with a small bet."""

    family = "millionaire"

    def extra(self, s, me, acts, done):
        got = super().extra(s, me, acts, done)
        if got is not None:
            return got
        jack = find(acts, "jackpot")
        if jack is not None and "jackpot" not in done:
            done.add("jackpot")
            if s.cash(me) >= 4 * self.reserve and self.rng.random() < 0.3:
                return jack, fill(jack, self.rng)  # the lowest bet
        return None
