"""One language setting for the command line: --lang before or after the subcommand, the environment and
the locale, labels and script refusals following it, and a real process reading the locale. Split from
test_words.py."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion import cli
from companion.table.script import ScriptError, run_script
from companion.words.grammar import language_from_env

ROOT = Path(__file__).resolve().parent.parent

# ----- one language setting ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "env, expected",
    [
        ({}, "en"),
        ({"COMPANION_LANG": "ru"}, "ru"),
        ({"COMPANION_LANG": "en", "LANG": "ru_RU.UTF-8"}, "en"),
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LC_ALL": "en_GB.UTF-8", "LANG": "ru_RU.UTF-8"}, "en"),
        ({"LC_MESSAGES": "ru_RU.UTF-8", "LANG": "en_US.UTF-8"}, "ru"),
        ({"LC_ALL": "", "LC_MESSAGES": "", "LANG": "ru_UA"}, "ru"),
        ({"COMPANION_LANG": "de", "LANG": "ru_RU.UTF-8"}, "ru"),  # an unknown choice: the locale decides
        ({"COMPANION_LANG": "ru_RU.UTF-8"}, "ru"),
    ],
)
def test_language_from_the_environment(env, expected):
    assert language_from_env(env) == expected


@pytest.fixture
def no_language(monkeypatch):
    for var in ("COMPANION_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    return monkeypatch


def run(capsys, *argv):
    code = cli.main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def game(tmp_path, capsys):
    db = str(tmp_path / "game.sqlite")
    assert cli.main(["--lang", "en", "new", "--db", db, "elite", "Anna", "Boris", "--seed", "7"]) == 0
    capsys.readouterr()
    return db


def test_lang_before_or_after_the_subcommand(game, capsys, no_language):
    """--lang works before the subcommand, after it, and after the command's own words."""
    for argv in (
        ["--lang", "ru", "do", "--db", game, "buy"],
        ["do", "--lang", "ru", "--db", game, "buy"],
        ["do", "--db", game, "buy", "--lang", "ru"],
    ):
        code, out, err = run(capsys, *argv)
        assert code == 3 and err.splitlines()[-1] == "отказ: Сейчас ничего не продаётся", argv
    code, out, err = run(capsys, "do", "--db", game, "buy", "--lang", "en")
    assert err.splitlines()[-1] == "refused: Nothing is offered for sale now"


def test_lang_beats_the_environment_which_beats_the_locale(game, capsys, no_language):
    no_language.setenv("LANG", "ru_RU.UTF-8")
    code, out, err = run(capsys, "do", "--db", game, "buy")
    assert err.splitlines()[-1] == "отказ: Сейчас ничего не продаётся"
    no_language.setenv("COMPANION_LANG", "en")
    code, out, err = run(capsys, "do", "--db", game, "buy")
    assert err.splitlines()[-1] == "refused: Nothing is offered for sale now"
    code, out, err = run(capsys, "do", "--db", game, "buy", "--lang", "ru")
    assert err.splitlines()[-1] == "отказ: Сейчас ничего не продаётся"
    no_language.setenv("COMPANION_LANG", "ru")
    no_language.setenv("LANG", "en_US.UTF-8")
    code, out, err = run(capsys, "state", "--db", game)
    assert "касса «Джекпот»: 200" in out and "последнее событие: #1" in out


def test_every_subcommand_takes_lang(no_language):
    """Each subcommand accepts --lang after its name (the parent parser's option is shared)."""
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "cmd")
    minimal = {
        "new": ["elite", "A", "B"],
        "do": ["roll"],
        "recover": ["--to", "x"],
        "script": ["-"],
        "check-edition": ["x"],
        "bench": ["engine"],
        "game": ["status"],
        "cards": ["list"],
        "sim": ["elite"],
        "restore": ["backup.zip"],
        "firmware": ["install"],
    }
    for name in sub.choices:
        args = parser.parse_args([name, "--lang", "ru", *minimal.get(name, [])])
        assert args.lang == "ru", name
        args = parser.parse_args(["--lang", "ru", name, *minimal.get(name, [])])
        assert args.lang == "ru", name


def test_labels_follow_the_language(game, capsys, no_language):
    code, out, err = run(capsys, "--lang", "ru", "state", "--db", game)
    assert code == 0 and "касса «Джекпот»: 200" in out and "JACKPOT cash box" not in out and "head:" not in out
    code, out, err = run(capsys, "--lang", "ru", "editions")
    assert "игроков: 2–6" in out and "players" not in out
    code, out, err = run(capsys, "--lang", "ru", "do", "--db", str(Path(game).with_name("none.sqlite")), "roll")
    assert code == 5 and err.startswith("ошибка: ")


def test_script_refusals_follow_the_language(no_language):
    script = "new elite 7 Anna Boris\nbuy\n"
    with pytest.raises(ScriptError) as caught:
        run_script(script, "t.game", language="ru")
    assert "отказ: Сейчас ничего не продаётся" in str(caught.value)
    with pytest.raises(ScriptError) as caught:
        run_script(script, "t.game")
    assert "refused: Nothing is offered for sale now" in str(caught.value)


def test_the_locale_reaches_a_real_process(game):
    """`python -m companion` with a Russian locale and no --lang or $COMPANION_LANG speaks Russian."""
    env = {k: v for k, v in os.environ.items() if k not in ("COMPANION_LANG", "LC_ALL", "LC_MESSAGES", "LANG")}
    env["LANG"] = "ru_RU.UTF-8"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "do", "--db", game, "buy"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 3 and proc.stderr.strip().splitlines()[-1] == "отказ: Сейчас ничего не продаётся"
