"""`companion bench sim`: the rows it prints, the peer's rounds counted like ours, clear refusals."""

import textwrap

from companion.bench import sim as bench_sim
from companion.cli import main as cli_main

# A stand-in with the peer's shape (gamescomputersplay/monopoly: settings.SimulationSettings.n_moves,
# monopoly.core.game.monopoly_game calling _check_end_conditions before each pass over the players).
# Here the second player goes bankrupt during pass 2, so the game has played 2 rounds when the check
# before pass 3 ends it; an "All Rich" stop (everyone has more than 5000 from the start) must not.
FAKE_GAME = """
from settings import SimulationSettings

class P:
    is_bankrupt = False
    money = 10**6

def _check_end_conditions(players, log, game_number, turn_n):
    alive = [p for p in players if not p.is_bankrupt]
    return len(alive) < 2 or all(p.money > 5000 for p in alive)

def monopoly_game(pair):
    players = [P(), P()]
    for turn_n in range(1, SimulationSettings.n_moves + 1):
        if _check_end_conditions(players, None, pair[0], turn_n):
            break
        if turn_n == 2:
            players[1].is_bankrupt = True
"""


def fake_peer(tmp_path):
    root = tmp_path / "peer"
    (root / "monopoly" / "core").mkdir(parents=True)
    (root / "settings.py").write_text("class SimulationSettings:\n    n_moves = 1000\n")
    (root / "monopoly" / "__init__.py").write_text("")
    (root / "monopoly" / "core" / "__init__.py").write_text("")
    (root / "monopoly" / "log_settings.py").write_text(
        textwrap.dedent("""
        class LogSettings:
            KEEP_GAME_LOG = True
            BANKRUPTCIES_PATH = None
    """)
    )
    (root / "monopoly" / "core" / "game.py").write_text(FAKE_GAME)
    return str(root)


def test_rows_for_each_invariant_setting_the_peer_and_the_ratios(tmp_path):
    lines = []
    results = bench_sim.main(
        games=1,
        editions=["monopoly"],
        repeats=1,
        round_cap=3,
        peer=fake_peer(tmp_path),
        baseline=bench_sim.REPO,
        out=lines.append,
    )
    text = "\n".join(lines)
    assert [line.split()[:3] for line in lines[2:7]] == [
        ["ours", "monopoly", "on"],
        ["ours", "monopoly", "off"],
        ["apply", "only", "monopoly"],
        ["baseline", "monopoly", "off"],
        ["peer:", "gcp", "monopoly"],
    ]
    ours = results[("ours", "monopoly", False)]
    assert ours.games_s > 0 and 1 <= ours.rounds_game <= 3  # our games stop at the cap too
    # the ceiling row replays the very games the bots played (same rounds), their commands alone
    floor = results[("floor", "monopoly", False)]
    assert floor.rounds_game == ours.rounds_game and floor.events_s > 0
    assert "of its ceiling" in text
    assert results[("peer", "monopoly", False)].rounds_game == 2  # no All Rich stop; rounds as played
    assert "against the baseline" in text and "against the peer's" in text


def test_every_edition_by_default(tmp_path):
    lines = []
    bench_sim.main(games=1, repeats=1, round_cap=1, out=lines.append)
    rows = {tuple(line.split()[:3]) for line in lines[2:]}
    for edition in ("classic", "deluxe", "elite", "madmillionaire", "monopoly"):
        assert ("ours", edition, "on") in rows and ("ours", edition, "off") in rows


def test_a_missing_peer_is_one_line(tmp_path, capsys):
    code = cli_main(["bench", "sim", "--games", "1", "--peer", str(tmp_path / "nowhere")])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert err.startswith("usage: no gamescomputersplay/monopoly at") and "\n" not in err


def test_a_state_copy_is_independent_in_every_field():
    """The engine's one copy per command (State.copy, written out field by field for speed) must
    carry every field and share no dict: a command changing its copy leaves the state before alone,
    so undo and replay can go back to it."""
    from companion.engine.state import State

    s = State()
    for name in State.DICTS:
        getattr(s, name)["key"] = name
    for name in State.SCALARS:
        setattr(s, name, f"value of {name}")
    c = s.copy()
    for name in State.DICTS:
        getattr(c, name)["key"] = "changed"
        assert getattr(s, name) == {"key": name}
    assert all(getattr(c, name) == f"value of {name}" for name in State.SCALARS)
    assert c.signature() != s.signature()
