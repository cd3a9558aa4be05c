"""Picking from the actions Rules.legal lists: find one, fill its free values, move the game on.

The simulator's strategies (companion/bots/strategies.py and the edition modules) choose with these: an
action found by verb and fixed words, filled within the bounds it gives (dice thrown, an amount clamped)."""

from __future__ import annotations

import random

from companion.engine.actions import TABLE, Action, OneOf, Span
from companion.engine.command import Command

# the verbs that move the game on, in the order a bot with nothing better to do takes them
PROGRESS = (
    "draw",
    "rent_roll",
    "auction_roll",
    "keep_mortgage",
    "skip_policy",
    "reveal",
    "bonus",
    "move",
    "decline",
    "exchange",
    "roll",
    "end",
    "hammer",
)


def fill(action: Action, rng: random.Random, amount: int | None = None) -> Command:
    """One command of `action`: fixed words kept, dice thrown, `amount` (clamped) or the lowest
    number in a span, the first word of a choice. Trades are built by the strategies."""
    words = []
    for slot in action.args:
        if isinstance(slot, str):
            words.append(slot)
        elif isinstance(slot, Span):
            if slot.what == "die":
                value = rng.randint(max(1, slot.low), min(6, slot.high))
            elif amount is not None:
                value = max(slot.low, min(slot.high, amount))
            else:
                value = slot.low
            words.append(str(value))
        elif isinstance(slot, OneOf):
            words.append(slot.words[0])
        else:
            raise ValueError("a trade's terms are chosen by the strategy")
    return Command(action.verb, tuple(words))


def find(actions: list[Action], verb: str, *head: str) -> Action | None:
    """The first action of this verb whose first fixed words are `head`."""
    for a in actions:
        if a.verb == verb and tuple(a.args[: len(head)]) == head:
            return a
    return None


def word(action: Action, i: int = 0) -> str:
    """The action's i-th argument, a fixed word (a plot, a player)."""
    slot = action.args[i]
    assert isinstance(slot, str)
    return slot


def every(actions: list[Action], verb: str) -> list[Action]:
    return [a for a in actions if a.verb == verb]


Choice = tuple[Action, Command]


def first_progress(acts: list[Action], rng: random.Random) -> Choice | None:
    for verb in PROGRESS:
        a = find(acts, verb)
        # the table never names a physical card (a list must not tell the next one)
        if a is not None and not (a.party == TABLE and any(isinstance(x, OneOf) for x in a.args)):
            return a, fill(a, rng)
    return None


def terms_of(words: tuple) -> tuple[list[str], list[str]]:
    """A trade's `give ... get ...` words as (given, got)."""
    give: list[str] = []
    get: list[str] = []
    side = None
    for w in words:
        if w in ("give", "get"):
            side = give if w == "give" else get
        elif side is not None:
            side.append(w)
    return give, get
