"""Shared fixtures: an edition's rules, a fresh in-memory game, script running."""
import pytest

from companion.editions import load_edition, rules_for
from companion.engine.game import Game
from companion.script import run_script


@pytest.fixture
def elite():
    return rules_for(load_edition("elite"))


def start(rules, players=("Anna", "Boris", "Vera"), seed=1):
    return Game.start(rules, seed, list(players))


def script(text):
    """Run a game script (in memory) and return the Table."""
    return run_script(text, "<test>")
