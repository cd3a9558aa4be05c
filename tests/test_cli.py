"""The `companion` command line (companion/cli/__init__.py, docs/script-language.md): new, do,
state, history, script, editions, check-edition, languages and exit codes
(docs/exit-codes.md: 0 done, 3 refused by the rules, 4 bad input, 5 no usable ledger, ...)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import cli_run as run

from companion import cli
from companion.editions import load_edition, shipped

ROOT = Path(__file__).resolve().parent.parent
ELITE = load_edition("elite")


def name_of(cell_id, language="en"):
    """A cell's name as an English (or other) screen shows it."""
    return ELITE.cell(cell_id).names.get(language, ELITE.cell(cell_id).name)


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "game.sqlite")


@pytest.fixture
def game(db, capsys):
    """A fresh Elite game of Anna and Boris on disk."""
    assert cli.main(["new", "--db", db, "elite", "Anna", "Boris", "--seed", "7"]) == 0
    capsys.readouterr()
    return db


def test_new_starts_a_game_and_names_the_ledger(db, capsys):
    code, out, err = run(capsys, "new", "--db", db, "elite", "Anna", "Boris", "--seed", "7")
    assert code == 0 and err == ""
    assert "New game of Millionaire Elite: Anna, Boris" in out and f"ledger: {db}" in out
    assert Path(db).stat().st_size > 0


def test_new_refuses_to_overwrite_a_game(game, capsys):
    code, out, err = run(capsys, "new", "--db", game, "elite", "Vera", "Gleb")
    assert code == 5 and "already exists" in err


def test_new_with_a_wrong_player_count_is_refused(db, capsys):
    """Elite takes 2 to 6 players (rulebook: ПОДГОТОВКА К ИГРЕ)."""
    code, out, err = run(capsys, "new", "--db", db, "elite", "Anna")
    assert code == 3 and "2 to 6 players" in err


def test_do_applies_a_command_and_shows_plot_names(game, capsys):
    """Anna rolls 1+2 and lands on leisure3, shown by its name from the edition file."""
    code, out, err = run(capsys, "do", "--db", game, "roll", "1", "2")
    assert code == 0, err
    assert "#2 roll 1 2" in out
    assert "Anna rolls 1 and 2" in out
    assert f"Anna lands on {name_of('leisure3')}" in out
    assert f"Anna may buy {name_of('leisure3')} for 70" in out


def test_do_roll_without_dice_throws_them(game, capsys):
    """The command line stands in for the reader: `do roll` gets two random dice."""
    code, out, err = run(capsys, "do", "--db", game, "roll")
    assert code == 0
    first = out.splitlines()[0].split()
    assert first[:2] == ["#2", "roll"] and len(first) == 4 and all(d in "123456" for d in first[2:])


def test_refused_command_exits_3_with_the_reason(game, capsys):
    code, out, err = run(capsys, "do", "--db", game, "buy")
    assert code == 3
    assert err.strip().splitlines()[-1] == "refused: Nothing is offered for sale now"
    code, out, err = run(capsys, "do", "--db", game, "fly", "away")
    assert code == 3 and "Unknown command 'fly'" in err


def test_state_json_shows_the_table(game, capsys):
    """Anna buys leisure3 for 70: 2000 -> 1930; the JSON view says so."""
    run(capsys, "do", "--db", game, "roll", "1", "2")
    run(capsys, "do", "--db", game, "buy")
    code, out, err = run(capsys, "state", "--db", game, "--json")
    assert code == 0
    data = json.loads(out)
    anna, boris = data["players"]
    assert anna["name"] == "Anna" and anna["cash"] == 1930 and anna["plots"] == ["leisure3"]
    assert anna["position"] == "leisure3" and boris["cash"] == 2000
    assert data["turn"] == "Anna" and data["phase"] == "moved" and data["edition"] == "elite"
    assert data["accounts"]["jackpot"] == 200  # Elite: 200 in the JACKPOT
    code, out, err = run(capsys, "state", "--db", game)
    assert code == 0 and "1930" in out and name_of("leisure3") in out


def test_state_reads_the_ledger_named_by_the_environment(game, capsys, monkeypatch):
    monkeypatch.setenv("COMPANION_DB", game)
    code, out, err = run(capsys, "state", "--json")
    assert code == 0 and json.loads(out)["players"][0]["cash"] == 2000


def test_history_lists_every_event(game, capsys):
    run(capsys, "do", "--db", game, "roll", "1", "2")
    run(capsys, "do", "--db", game, "buy")
    code, out, err = run(capsys, "history", "--db", game)
    assert code == 0
    lines = [line for line in out.splitlines() if line.startswith("#")]
    assert lines == ["#1 new elite 7 Anna Boris", "#2 roll 1 2", "#3 buy"]
    assert f"Anna buys {name_of('leisure3')} for 70" in out
    code, out, err = run(capsys, "history", "--db", game, "--json")
    rows = json.loads(out)
    assert [r["seq"] for r in rows] == [1, 2, 3]
    assert sorted(rows[2]["postings"]) == [["Anna", -70], ["bank", 70]]
    assert all(r["at"] for r in rows)


def test_russian_messages(game, capsys):
    """--lang ru renders the same events in Russian."""
    code, out, err = run(capsys, "--lang", "ru", "do", "--db", game, "roll", "1", "2")
    assert code == 0 and "Anna: выпало 1 и 2" in out
    code, out, err = run(capsys, "--lang", "ru", "do", "--db", game, "end")
    assert code == 3 and err.strip().splitlines()[-1].startswith("отказ: Сначала завершите")
    assert err.startswith("запрос: ")
    code, out, err = run(capsys, "--lang", "ru", "history", "--db", game)
    assert "Новая игра «Миллионер-Elite»: Anna, Boris" in out


SCRIPT = """\
new elite 7 Anna Boris
roll 1 2          # Anna lands on leisure3
buy
expect cash Anna 1930
expect owner leisure3 Anna
end
"""


def test_script_prints_the_final_state_as_json(tmp_path, capsys):
    path = tmp_path / "game.txt"
    path.write_text(SCRIPT, encoding="utf-8")
    code, out, err = run(capsys, "script", str(path), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["turn"] == "Boris" and data["players"][0]["cash"] == 1930


def test_script_with_a_failed_expectation_names_the_line(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text(SCRIPT.replace("expect cash Anna 1930", "expect cash Anna 1900"), encoding="utf-8")
    code, out, err = run(capsys, "script", str(path))
    assert code == 4
    assert f"{path}:4" in err and "Anna has 1930, expected 1900" in err


def test_script_keeps_its_ledger_when_asked(tmp_path, db, capsys):
    path = tmp_path / "game.txt"
    path.write_text(SCRIPT, encoding="utf-8")
    assert run(capsys, "script", str(path), "--db", db, "-v")[0] == 0
    code, out, err = run(capsys, "history", "--db", db)
    assert "#3 buy" in out and "#4 end" in out


def test_editions_lists_every_shipped_edition(capsys):
    code, out, err = run(capsys, "editions")
    assert code == 0
    listed = [line.split()[0] for line in out.splitlines() if line.strip()]
    assert listed == shipped()


def test_check_edition_accepts_the_shipped_files(capsys):
    from companion.editions import HERE

    for name in shipped():
        code, out, err = run(capsys, "check-edition", str(HERE / f"{name}.toml"))
        assert code == 0 and ": ok (" in out, err


OPTIONS_LINE = ELITE.text.splitlines().index("[options]") + 1

# one breakage per case: (description, replace this, by this, words the error must contain)
BREAKAGES = [
    ("TOML syntax error", "[options]", "[options", ["syntax", f"line {OPTIONS_LINE}"]),
    ("missing key", "start_cash = 2000\n", "", ["edition.start_cash", "is missing"]),
    ("wrong type", "players_min = 2", 'players_min = "two"', ["edition.players_min", "whole number"]),
    (
        "unknown option",
        "undo_window = 50",
        "undo_window = 50\nbank_pays_twice = true",
        ["options.bank_pays_twice", "not an option"],
    ),
    ("option of the wrong type", "undo_window = 50", 'undo_window = "fifty"', ["options.undo_window"]),
    ("unknown cell kind", 'kind = "exchange"', 'kind = "casino"', ["cells[6].kind", "'casino'"]),
    ("unknown rules module", 'rules = "elite"', 'rules = "poker"', ["edition.rules", "poker"]),
]


@pytest.mark.parametrize("what, old, new, words", BREAKAGES, ids=[b[0] for b in BREAKAGES])
def test_check_edition_names_the_file_and_the_key(tmp_path, capsys, what, old, new, words):
    """A broken edition file is reported with the file, the key and the problem; exit 1."""
    assert old in ELITE.text
    path = tmp_path / "broken.toml"
    path.write_text(ELITE.text.replace(old, new, 1), encoding="utf-8")
    code, out, err = run(capsys, "check-edition", str(path))
    assert code == 4 and out == ""
    assert err.startswith(f"error: {path}: ")
    for word in words:
        assert word in err, f"{what}: {word!r} not in {err!r}"


def test_check_edition_of_a_missing_file(tmp_path, capsys):
    code, out, err = run(capsys, "check-edition", str(tmp_path / "nothere.toml"))
    assert code == 4 and "nothere.toml" in err and "cannot be read" in err


def test_state_without_a_game_says_to_start_one(db, capsys):
    code, out, err = run(capsys, "state", "--db", db)
    assert code == 5 and "no game" in err and "companion new" in err


def test_new_works_after_asking_for_the_state_of_a_missing_game(db, capsys):
    run(capsys, "state", "--db", db)
    code, out, err = run(capsys, "new", "--db", db, "elite", "Anna", "Boris")
    assert code == 0, err


def test_console_entry_point_refuses_in_russian_with_exit_3(game):
    """`python -m companion` is the same program: exit code 3 and the reason on stderr."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "--lang", "ru", "do", "--db", game, "buy"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 3
    request, refusal = proc.stderr.strip().splitlines()
    assert request.startswith("запрос: ") and refusal == "отказ: Сейчас ничего не продаётся"
    assert proc.stdout == ""


# ----- a stranger's ledger (issue 21): shown, never adopted silently; accepted only in words ------------------


def test_a_forged_ledger_under_a_new_game_id_is_shown_as_a_strangers_never_booked_on(db, capsys):
    """The attack of issue 21: a new game id, a payment rewritten, the chain recomputed. `state` and `verify`
    used to exit 0 (verify saying the anchor agrees) and `do` adopted the forgery; now they exit 10, say the file
    is a stranger's and book nothing, until `companion accept`."""
    from test_ledger_damage import attack, forge_under_a_new_game_id, money_game

    money_game(db)
    attack(db, [forge_under_a_new_game_id], recompute=True)
    code, out, err = run(capsys, "state", "--db", db)
    assert code == 10 and "Boris" in out
    assert "it now holds game f0f0f0f0" in err and "read-only" in err
    code, out, err = run(capsys, "verify", "--db", db)
    assert code == 10 and "anchor agree" not in out and "this is a stranger's game" in out
    code, out, err = run(capsys, "do", "--db", db, "pay Anna Boris 5")
    assert code == 10 and "Nothing was booked" in err and "#8" not in out
    code, out, err = run(capsys, "history", "--db", db)
    assert code == 10 and "#8" not in out
    code, out, err = run(capsys, "accept", "--db", db)
    assert code == 0 and "accepted: this machine now keeps game f0f0f0f0" in out and "taken as it stands" in out
    code, out, err = run(capsys, "do", "--db", db, "pay Anna Boris 5")
    assert code == 0 and "#8" in out
    code, out, err = run(capsys, "verify", "--db", db)
    assert code == 0 and "this machine's anchor agree" in out and err == ""
    code, out, err = run(capsys, "accept", "--db", db)
    assert code == 0 and "already this machine's own" in out


def test_accept_speaks_russian(db, capsys, tmp_path, monkeypatch):
    from test_ledger_damage import money_game

    money_game(db)
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "another-machine"))
    code, out, err = run(capsys, "--lang", "ru", "accept", "--db", db)
    assert code == 0 and "Принято: игра `" in out and "Это устройство никогда не вело игру" in out


def test_a_copied_file_that_does_not_replay_is_ledger_damaged_not_a_halt(db, capsys, tmp_path, monkeypatch):
    """The old answer was exit 9, "BANK HALTED (a bug)"; the file is what is wrong: exit 6, "ledger damaged"."""
    from test_ledger_damage import attack, edit_field, money_game

    money_game(db)
    attack(
        db,
        [
            edit_field(3, "legs", "Anna:-9;Boris:9"),
            "UPDATE postings SET amount = -9 WHERE seq = 3 AND leg = 0",
            "UPDATE postings SET amount = 9 WHERE seq = 3 AND leg = 1",
        ],
        recompute=True,
    )
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "another-machine"))
    for command in ("state", "verify", "do"):
        code, out, err = run(capsys, command, "--db", db, *(["pay Anna Boris 1"] if command == "do" else []))
        assert code == 6 and err.startswith("ledger damaged: ") and "event 3 does not replay" in err, (command, err)
        assert "HALTED" not in err


def test_verify_names_a_damaged_checkpoint_opening_does_not_use_yet(db, capsys):
    from test_ledger_damage import attack, checkpoint_game

    checkpoint_game(db)
    attack(
        db, ["UPDATE checkpoints SET state = replace(state, '\"Anna\"', '\"Anne\"') WHERE seq = 90"], recompute=False
    )
    assert run(capsys, "state", "--db", db)[0] == 0
    code, out, err = run(capsys, "verify", "--db", db)
    assert code == 6 and "the checkpoint at event 90 does not match its hash" in err and "verified" not in out


def test_verify_counts_one_event_in_the_singular(game, capsys):
    """A game just started holds one event: "verified: 1 event", not "1 events" (and two are "2 events")."""
    code, out, _ = run(capsys, "verify", "--db", game)
    assert code == 0 and "verified: 1 event replayed" in out, out
    run(capsys, "do", "--db", game, "roll 1 2")
    code, out, _ = run(capsys, "verify", "--db", game)
    assert "verified: 2 events replayed" in out or "verified: 3 events replayed" in out, out
