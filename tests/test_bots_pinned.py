"""Every bot's choices pinned by seed: the simulator's strategies (companion/bots/strategies.py and the
edition modules beside it) and the autoplayer the demo, the benchmarks and many tests play with
(companion/bots/autoplay.py, its hints in companion/bots/hints.py). A change to companion/bots/ that
moves a single choice changes a digest here: a refactor must leave them all as they are; a change of
play on purpose says so and updates the digests (print them with `python tests/test_bots_pinned.py`)."""

import hashlib
import sys

import pytest

from companion.bots.autoplay import play
from companion.editions import load_edition, rules_for, shipped
from companion.engine.game import Game
from companion.sim.runner import play_game

MIXES = {
    "balanced": None,
    "mixed": ["cautious", "aggressive", "balanced"],
    "generic": ["generic-balanced", "generic-aggressive", "generic-cautious"],
}
SIM_SEEDS = (1, 2)
AUTOPLAY_SEEDS = (1, 2, 3)


def sim_digest(edition: str, mix: str) -> str:
    """The simulator's records of a few seeded games (every line of each, canonical JSON) as one digest."""
    records = [
        play_game(edition, seed=seed, players=3 if mix == "mixed" else 4, strategies=MIXES[mix], round_cap=150)
        for seed in SIM_SEEDS
    ]
    return hashlib.sha256("\n".join(r.canonical() for r in records).encode()).hexdigest()[:16]


def autoplay_digest(edition: str) -> str:
    """The autoplayer's games (every command, every event's postings) from a few seeds, as one digest."""
    rules = rules_for(load_edition(edition))
    lines = []
    for seed in AUTOPLAY_SEEDS:
        game = Game.start(rules, seed, ["Anna", "Boris", "Vera"])
        play(game.apply, game, seed, max_events=400)
        lines += [f"{e.seq} {e.command} {e.postings}" for e in game.events]
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


SIM = {
    ("classic", "balanced"): "d41719259ddc33ac",
    ("classic", "generic"): "8c8b0dc7fe3c1913",
    ("classic", "mixed"): "6477e5513b68f62b",
    ("deluxe", "balanced"): "4c15581bc3769860",
    ("deluxe", "generic"): "3fbb16eab5662847",
    ("deluxe", "mixed"): "6f4c7105f36e370a",
    ("elite", "balanced"): "91d5efa056d00acc",
    ("elite", "generic"): "4e43cb0d49c91939",
    ("elite", "mixed"): "734f96e8031cf827",
    ("madmillionaire", "balanced"): "31a1abd9d46f6e0d",
    ("madmillionaire", "generic"): "a022bdddba7d3b1f",
    ("madmillionaire", "mixed"): "bb844de95f54b833",
    ("monopoly", "balanced"): "1fcf9240676615c5",
    ("monopoly", "generic"): "d651d187f0d499cb",
    ("monopoly", "mixed"): "213248a95854565e",
}
AUTOPLAY = {
    "classic": "f8ad75b746fb9734",
    "deluxe": "c21a741180911f27",
    "elite": "9db42a73ff22e687",
    "madmillionaire": "f4eefe089332ab1a",
    "monopoly": "5694805948c0b230",
}


@pytest.mark.parametrize("edition", shipped())
@pytest.mark.parametrize("mix", sorted(MIXES))
def test_the_simulators_strategies_choose_as_they_did(edition, mix):
    assert sim_digest(edition, mix) == SIM[edition, mix]


@pytest.mark.parametrize("edition", shipped())
def test_the_autoplayer_chooses_as_it_did(edition):
    assert autoplay_digest(edition) == AUTOPLAY[edition]


if __name__ == "__main__":
    for edition in shipped():
        for mix in sorted(MIXES):
            print(f"    ({edition!r}, {mix!r}): {sim_digest(edition, mix)!r},")
    for edition in shipped():
        print(f"    {edition!r}: {autoplay_digest(edition)!r},")
    sys.exit(0)
