"""A planted invariant breach in a test edition is caught by the simulator and shrunk to a
1-minimal script that `companion script` runs into the same broken invariant."""

from pathlib import Path

import pytest

from companion.cli import main
from companion.editions import HERE
from companion.engine.monopoly import MonopolyRules
from companion.engine.rulesets import RULESETS
from companion.sim.runner import play_game
from companion.sim.shrink import confirm, shrink
from companion.table.script import ScriptError, run_script

BREACH = "balances do not sum to zero"


class PlantedRules(MonopolyRules):
    """Monopoly with a planted bug: the bank loses a dollar once three buildings stand on the board."""

    def cmd_build(self, s, args):
        super().cmd_build(s, args)
        if sum(s.level.values()) >= 3:
            s.balances["bank"] -= 1  # money gone with no posting: the balances no longer sum to zero


@pytest.fixture
def planted(tmp_path, monkeypatch) -> str:
    """A copy of the shipped Monopoly file naming the planted rules (registered for this test)."""
    monkeypatch.setitem(RULESETS, "planted", PlantedRules)
    text = (HERE / "monopoly.toml").read_text(encoding="utf-8")
    text = text.replace('id = "monopoly"', 'id = "planted"', 1).replace('rules = "monopoly"', 'rules = "planted"', 1)
    assert 'rules = "planted"' in text
    path = tmp_path / "planted.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def ends_in_breach(lines: list[str]) -> bool:
    """Whether `companion script` (run_script) stops at the planted broken invariant."""
    return confirm(lines) is not None and BREACH in confirm(lines)


def test_the_breach_is_caught_and_shrunk_to_a_one_minimal_script(planted):
    record = play_game(planted, seed=5)
    assert record.ended == "invariant"
    assert record.failure is not None and BREACH in record.failure["message"]
    assert record.lines[-1] == record.failure["line"]
    assert ends_in_breach(record.lines)  # the whole game replays into it too

    small = shrink(record.lines, record.failure["message"])
    assert small[0] == record.lines[0]  # the `new` line with edition, seed and players
    assert len(small) < len(record.lines)  # the auction's bids that changed nothing are gone
    assert ends_in_breach(small)
    # 1-minimal: without any one line, the script no longer ends in the breach
    for i in range(1, len(small)):
        assert not ends_in_breach(small[:i] + small[i + 1 :]), f"line {i + 1} ({small[i]}) is not needed"
    # a sequence of the game's own lines, in order
    it = iter(record.lines)
    assert all(line in it for line in small)


def test_the_shrunk_script_runs_with_companion_script(planted, tmp_path, capsys):
    record = play_game(planted, seed=5)
    small = shrink(record.lines, record.failure["message"])
    path = Path(tmp_path / "repro.game")
    path.write_text("\n".join(small) + "\n", encoding="utf-8")
    with pytest.raises(ScriptError):
        run_script(path.read_text(encoding="utf-8"))
    assert main(["script", str(path)]) == 4  # a script that cannot run on: one line, no traceback
    err = capsys.readouterr().err
    assert BREACH in err and "Traceback" not in err


def test_the_command_prints_the_seed_and_the_script(planted, capsys, tmp_path):
    code = main(["--lang", "en", "sim", planted, "--games", "2", "--seed", "5", "--charts", str(tmp_path)])
    out = capsys.readouterr()
    assert code == 9  # a bug halted it (docs/exit-codes.md)
    text = out.out + out.err
    assert "BROKEN INVARIANT in the game of seed 5: " + BREACH in text
    assert "new " + planted + " 5 Anna Boris Vera Gleb" in text
    saved = (tmp_path / "failure-seed-5.game").read_text(encoding="utf-8").splitlines()
    assert saved[0] == "new " + planted + " 5 Anna Boris Vera Gleb" and saved[-1] in text
    assert ends_in_breach(saved)


def test_without_the_checks_the_breach_goes_unseen_and_the_next_game_checks_again(planted):
    assert play_game(planted, seed=5, invariants=False).failure is None
    assert play_game(planted, seed=5).failure is not None


def test_a_clean_game_has_no_failure():
    record = play_game("monopoly", seed=5)
    assert record.failure is None and record.ended in ("finished", "round_cap")
