"""Who issues a command, at the edges (docs/actors.md): `companion do --as PLAYER`, `companion state
--legal [--as PLAYER]`, script lines that begin with `NAME:` (companion.engine.command.split_actor),
and the table taking a parsed Command (one parse per line)."""

import json
from pathlib import Path

import pytest
from helpers import cli_run as run

from companion import cli
from companion.bench import engine as bench
from companion.editions import shipped
from companion.engine.command import Command, split_actor
from companion.errors import BadCommand, RuleViolation
from companion.table.script import ScriptError, run_script
from companion.table.service import open_game


@pytest.fixture
def game(tmp_path, capsys):
    """A fresh Elite game of Anna and Boris on disk: Anna's turn."""
    db = str(tmp_path / "game.sqlite")
    assert cli.main(["new", "--db", db, "elite", "Anna", "Boris", "--seed", "7"]) == 0
    capsys.readouterr()
    return db


def events(capsys, db):
    code, out, err = run(capsys, "history", "--db", db)
    assert code == 0, err
    return [line for line in out.splitlines() if line.startswith("#")]


# ----- companion do --as ------------------------------------------------------------------------


def test_do_as_the_player_on_turn_is_booked_as_theirs(game, capsys):
    code, out, err = run(capsys, "do", "--db", game, "--as", "anna", "roll", "1", "2")  # any case
    assert code == 0, err
    assert out.splitlines()[0] == "#2 Anna: roll 1 2"
    rows = json.loads(run(capsys, "history", "--db", game, "--json")[1])
    assert [r["actor"] for r in rows] == ["table", "Anna"]


def test_do_as_another_player_is_refused_naming_who_may(game, capsys):
    code, out, err = run(capsys, "do", "--db", game, "--as", "Boris", "roll", "1", "2")
    assert code == 3 and out == ""
    assert err.strip().splitlines()[-1] == "refused: Only Anna may roll the dice now, not Boris"
    code, out, err = run(capsys, "--lang", "ru", "do", "--db", game, "--as", "Boris", "roll", "1", "2")
    assert code == 3
    assert err.strip().splitlines()[-1] == "отказ: Сейчас бросить кубики может только Anna, а не Boris"
    assert events(capsys, game) == ["#1 new elite 7 Anna Boris"]  # nothing was booked


def test_do_as_a_player_of_a_table_only_command_is_refused(game, capsys):
    code, out, err = run(capsys, "do", "--db", game, "--as", "Anna", "land", "leisure3")
    assert code == 3
    assert (
        err.strip().splitlines()[-1] == "refused: Only the banker (the table) may say where the token landed, not Anna"
    )


def test_do_as_an_unknown_name_is_bad_input_and_writes_nothing(game, capsys):
    code, out, err = run(capsys, "do", "--db", game, "--as", "Zed", "roll", "1", "2")
    assert code == 4 and out == ""
    assert err.strip().splitlines() == ["error: --as: No player called 'Zed' at this table (Anna, Boris)"]
    assert events(capsys, game) == ["#1 new elite 7 Anna Boris"]


def test_do_takes_the_actor_as_a_line_prefix_too(game, capsys):
    code, out, err = run(capsys, "do", "--db", game, "Anna:", "roll", "1", "2")
    assert code == 0, err
    assert out.startswith("#2 Anna: roll 1 2")
    code, out, err = run(capsys, "do", "--db", game, "--as", "Boris", "Anna:", "buy")
    assert code == 4 and "two different actors" in err
    code, out, err = run(capsys, "do", "--db", game, "Zed:", "buy")
    assert (
        code == 4 and err.strip().splitlines()[-1] == "error: Zed: No player called 'Zed' at this table (Anna, Boris)"
    )
    code, out, err = run(capsys, "do", "--db", game, "--as", "table", "buy")
    assert code == 0, err
    assert events(capsys, game)[1:] == ["#2 Anna: roll 1 2", "#3 buy"]


def test_do_retry_with_the_same_request_id_and_actor_is_answered_from_the_ledger(game, capsys):
    argv = ["do", "--db", game, "--request-id", "r1", "--as", "Anna", "roll", "1", "2"]
    assert run(capsys, *argv)[0] == 0
    code, out, err = run(capsys, *argv)
    assert code == 0 and out.startswith("#2 Anna: roll 1 2")
    code, out, err = run(capsys, "do", "--db", game, "--request-id", "r1", "roll", "1", "2")  # as the table
    assert code == 3
    assert len(events(capsys, game)) == 2


# ----- companion state --legal ------------------------------------------------------------------


def test_state_legal_for_the_table_marks_whose_each_action_is(game, capsys):
    code, out, err = run(capsys, "state", "--db", game, "--legal")
    assert code == 0, err
    lines = out.splitlines()
    start = lines.index("what may be done now (by whom):")
    listed = [line.split(None, 1) for line in lines[start + 1 :]]
    assert listed and all(mark.startswith("[") and mark.endswith("]") for mark, _ in listed)
    assert ["[Anna]", "roll 1..6 1..6"] in listed
    assert any(mark == "[table]" and what.startswith("land ") for mark, what in listed)
    assert not any(mark == "[Boris]" and what.startswith("roll") for mark, what in listed)


def test_state_legal_as_a_player_lists_only_theirs(game, capsys):
    code, out, err = run(capsys, "state", "--db", game, "--legal", "--as", "boris")
    assert code == 0, err
    lines = out.splitlines()
    start = lines.index("what Boris may do now:")
    boris = [line.strip() for line in lines[start + 1 :]]
    assert boris and not any(line.startswith(("[", "roll", "land", "end")) for line in boris)
    assert any(line.startswith("pay Boris Anna ") for line in boris)
    assert not any(" Anna Boris" in line for line in boris)  # never an action naming Anna first
    code, out, err = run(capsys, "state", "--db", game, "--as", "Anna")  # --as alone implies --legal
    anna = [line.strip() for line in out.splitlines()[out.splitlines().index("what Anna may do now:") + 1 :]]
    assert "roll 1..6 1..6" in anna and not any(" Boris Anna" in line for line in anna)


def test_state_legal_as_json(game, capsys):
    code, out, err = run(capsys, "state", "--db", game, "--json", "--legal", "--as", "Anna")
    assert code == 0, err
    legal = json.loads(out)["legal"]
    assert legal["actor"] == "Anna" and legal["actions"]
    assert {a["party"] for a in legal["actions"]} == {"Anna"}
    assert {"party": "Anna", "verb": "roll", "pattern": "roll 1..6 1..6"} in legal["actions"]


def test_state_legal_as_an_unknown_name(game, capsys):
    code, out, err = run(capsys, "state", "--db", game, "--legal", "--as", "Zed")
    assert code == 4 and err.startswith("error: --as: No player called 'Zed'")


# ----- scripts: NAME: lines ---------------------------------------------------------------------

TRADE = """\
new elite 7 Anna Boris
Anna: roll 1 2                                # START -> leisure3, price 70
Anna: buy
Anna: trade Anna Boris give leisure3 get 150      # an offer: nothing moves yet
expect owner leisure3 Anna
expect refused:not_yours Anna: accept 4       # only Boris answers it (offer 4: event #4 made it)
expect refused:table_only Boris: end_game      # the table calls time
Boris: accept 4
expect owner leisure3 Boris
expect cash Anna 2080
expect cash Boris 1850
"""


def test_script_offer_and_acceptance_show_in_history_and_state(tmp_path, capsys):
    path, db = tmp_path / "trade.game", str(tmp_path / "trade.sqlite")
    path.write_text(TRADE, encoding="utf-8")
    code, out, err = run(capsys, "script", str(path), "--db", db, "-v")
    assert code == 0, err
    assert "#4 Anna: trade Anna Boris give leisure3 get 150" in out and "#5 Boris: accept 4" in out
    code, out, err = run(capsys, "history", "--db", db)
    assert "#4 Anna: trade Anna Boris give leisure3 get 150" in out
    assert "Trade offer 4: Anna offers Boris Nightclub for 150" in out
    assert "#5 Boris: accept 4" in out and "Boris accepts trade offer 4 from Anna" in out
    data = json.loads(run(capsys, "state", "--db", db, "--json")[1])
    anna, boris = data["players"]
    assert anna["plots"] == [] and boris["plots"] == ["leisure3"]
    assert (anna["cash"], boris["cash"]) == (2080, 1850)


def test_a_table_trade_in_a_script_happens_at_once():
    """The table (a line without NAME:) records a trade the players agreed: no offer, no answer."""
    table = run_script(
        "new elite 7 Anna Boris\nroll 1 2\nbuy\ntrade Anna Boris give leisure3 get 150\n"
        "expect owner leisure3 Boris\nexpect cash Anna 2080\n"
    )
    try:
        assert [e.actor for e in table.game.events] == ["table"] * 4
    finally:
        table.close()


@pytest.mark.parametrize(
    "line, words",
    [
        ("Zed: roll 1 2", "No player called 'Zed'"),
        ("Boris: roll 1 2", "refused: Only Anna may roll the dice now, not Boris"),
        (": roll 1 2", "Usage: NAME: COMMAND"),
        ('"Anna": roll 1 2', "Usage: NAME: COMMAND"),
        ("An@na: roll 1 2", "Usage: NAME: COMMAND"),
        ("Anna:", "a command follows the name"),
        ("Anna:   # nothing", "a command follows the name"),
        ("Anna: expect turn Anna", "take no actor"),
        ("Anna: new elite 7 Anna Boris", "take no actor"),
        ("expect refused Zed: roll 1 2", "No player called 'Zed'"),
    ],
)
def test_bad_actor_lines_are_one_script_error(line, words):
    with pytest.raises(ScriptError) as info:
        run_script("new elite 7 Anna Boris\n" + line + "\n", "t.game")
    assert info.value.line_no == 2 and words in info.value.problem, info.value.problem
    assert "\n" not in str(info.value)


# ----- split_actor ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, actor, rest",
    [
        ("roll 3 4", None, "roll 3 4"),
        ("Anna: roll 3 4", "Anna", " roll 3 4"),
        ("  anna:roll 3 4", "anna", "roll 3 4"),
        ("table: land leisure3", "table", " land leisure3"),
        ("Анна_2-b: end", "Анна_2-b", " end"),
        ("roll 3 4 # Anna: her roll", None, "roll 3 4 # Anna: her roll"),
        ("# Anna: a comment", None, "# Anna: a comment"),
        ('"An:na" roll', None, '"An:na" roll'),  # a colon in quotes marks no actor
        ('pay "a:b" Boris 5', None, 'pay "a:b" Boris 5'),
        ("expect refused:not_yours accept 1", None, "expect refused:not_yours accept 1"),
    ],
)
def test_split_actor(text, actor, rest):
    """The name and the command; the command keeps the line's length (the name and colon become
    spaces), so a refusal's position counts from the start of the line as typed."""
    name, command = split_actor(text)
    assert (name, command.lstrip()) == (actor, rest.lstrip()) and len(command) == len(text)


@pytest.mark.parametrize("text", [":", ": roll", '"Anna": roll', "A@: roll", "x" * 201])
def test_split_actor_refuses(text):
    with pytest.raises(BadCommand):
        split_actor(text)


# ----- the table takes a parsed Command ---------------------------------------------------------


def test_submit_takes_a_command_and_binds_the_request_id_to_its_text(game):
    table = open_game(game)
    try:
        event = table.submit(Command("roll", ("1", "2")), request_id="c1", actor="anna")
        assert (event.command, event.actor) == ("roll 1 2", "Anna")
        assert table.submit("roll  1 2 # again", request_id="c1", actor="Anna") == event  # same text
        with pytest.raises(RuleViolation) as info:
            table.submit(Command("buy"), request_id="c1", actor="Anna")
        assert info.value.code == "request_reused"
    finally:
        table.close()


def test_the_documented_offer_script_runs():
    """docs/script-language.md's trade offer example, as written there."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "script-language.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```\n")[1:]]
    example = next(b for b in blocks if b.startswith("new elite 7 Anna Boris\nAnna: roll 1 2"))
    table = run_script(example, "script-language.md")
    try:
        assert [e.actor for e in table.game.events[-2:]] == ["Anna", "Boris"]
        assert table.state.owner["leisure3"] == "Boris"
    finally:
        table.close()


# ----- companion bench engine: legal per edition (figures only, never timed assertions) ----------


def test_bench_lists_legal_for_every_edition(capsys):
    bench.bench_legal(20, 1)
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("legal: median us per call")
    rows = {line.split()[0]: line for line in out[2:]}
    assert set(rows) == set(shipped())
    assert all(row.count(" us") == 3 and row.count("x)") == 2 for row in rows.values())


def test_a_refusal_names_the_plot_as_the_board_does(game, capsys):
    """Issue 8, no ids on a screen: a player building on another's plot (typed by its name in any
    case) is told whose it is with the plot's name, not its id."""
    assert run(capsys, "do", "--db", game, "roll", "1", "2")[0] == 0  # START -> leisure3 (Ночной клуб)
    assert run(capsys, "do", "--db", game, "--as", "Anna", "buy")[0] == 0
    code, _, err = run(capsys, "do", "--db", game, "--as", "Boris", "build", "ночной клуб")
    assert code == 3
    assert err.strip().splitlines()[-1] == "refused: Only Anna, the owner of Nightclub, may build, not Boris"
