"""Every game script under tests/scenarios/ (every edition), one test each.

A script plays with explicit dice and checks the table with `expect` lines
whose amounts are computed by hand in a comment beside them
(docs/script-language.md). A failed line names the file and line number.
The Millionaire Elite scripts live in tests/scenarios/elite/ and name the
rulebook sections (millionaire-elite-ru.txt) they play through.
"""
from pathlib import Path

import pytest

from companion.script import run_script

ROOT = Path(__file__).parent / "scenarios"
SCRIPTS = sorted(ROOT.rglob("*.game"))


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.relative_to(ROOT).as_posix() for p in SCRIPTS])
def test_scenario_script(path):
    """The script runs to its end with every expectation met."""
    table = run_script(path.read_text(encoding="utf-8"), str(path))
    assert table.game.events, "the script played no game"


def test_elite_has_at_least_eight_scenarios():
    """Millionaire Elite is covered by at least eight hand-computed scripts."""
    assert len(list((ROOT / "elite").glob("*.game"))) >= 8
