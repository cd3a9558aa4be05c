"""Every game script under tests/scenarios/ (every edition), one test each.

A script plays with explicit dice and checks the table with `expect` lines
whose amounts are computed by hand in a comment beside them
(docs/script-language.md); each names the rulebook sections it plays
through. A failed line names the file and line number. After the script, the
history must replay to the identical state (the ledger's restart path).
"""

from pathlib import Path

import pytest

from companion.engine.game import Game
from companion.table.script import run_script

ROOT = Path(__file__).parent / "scenarios"
SCRIPTS = sorted(ROOT.rglob("*.game"))
# at least this many hand-computed scripts per edition
MINIMUM = {"elite": 8, "classic": 4, "deluxe": 2, "monopoly": 5, "madmillionaire": 5}


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.relative_to(ROOT).as_posix() for p in SCRIPTS])
def test_scenario_script(path):
    """The script runs to its end with every expectation met, and replays identically."""
    table = run_script(path.read_text(encoding="utf-8"), str(path))
    try:
        assert len(table.game.events) > 1, "the script played no game"
        replayed = Game.replay(table.rules, table.game.events)
        assert replayed.state.signature() == table.state.signature()
    finally:
        table.close()


@pytest.mark.parametrize("edition, count", sorted(MINIMUM.items()))
def test_every_edition_has_its_scenarios(edition, count):
    assert len(list((ROOT / edition).glob("*.game"))) >= count
