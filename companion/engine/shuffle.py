"""A small deterministic shuffle for decks, seeded by the game's start command.

The engine may not import `random`: the seed arrives with the command that
starts the game, and this splitmix64 generator turns it into deck orders, so a
replay of the ledger deals exactly the same cards.
"""

from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T")

MASK = (1 << 64) - 1


def next_value(seed: int) -> tuple[int, int]:
    """One splitmix64 step: returns (value, new_seed)."""
    seed = (seed + 0x9E3779B97F4A7C15) & MASK
    z = seed
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31), seed


def shuffled(items: Iterable[T], seed: int) -> tuple[tuple[T, ...], int]:
    """Fisher-Yates with splitmix64: returns (tuple, new_seed)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        value, seed = next_value(seed)
        j = value % (i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out), seed
