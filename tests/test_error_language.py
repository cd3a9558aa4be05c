"""Errors follow the language setting (README: --lang, else $COMPANION_LANG, else the locale):
what the ledger raises (a missing file, a folder, a file that is no ledger, an existing file for
`new`, a damaged event), what `verify` and `recover` print, a failed `expect` and other script
errors, and the command line's own usage errors. Each is triggered for real (files in tmp_path),
and each is one line in the chosen language, with the exit code of docs/exit-codes.md and no
traceback; the English lines are the ones the companion always printed."""
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import cli_run

from companion.errors import EXIT_BAD_INPUT, EXIT_DAMAGED, EXIT_LEDGER, EXIT_OK, EXIT_USAGE
from companion.ledger import schema

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("en", "ru")


def one_line(code, err, expected_code):
    """The error's only line, checked: the exit code, one line, no traceback."""
    lines = err.strip().splitlines()
    assert code == expected_code, err
    assert len(lines) == 1, err
    assert "Traceback" not in err and "usage: companion" not in err
    return lines[0]


def run(capsys, lang, *argv):
    return cli_run(capsys, "--lang", lang, *argv)


def new_game(capsys, db, *players):
    assert cli_run(capsys, "new", "--db", str(db), "classic", *(players or ("Anna", "Boris")), "--seed", "1")[0] == 0


# ----- the ledger --------------------------------------------------------------------------------------

def test_a_missing_file_holds_no_game(tmp_path, capsys):
    db = tmp_path / "none.sqlite"
    said = {lang: one_line(*run(capsys, lang, "state", "--db", str(db))[::2], EXIT_LEDGER) for lang in LANGS}
    assert said["en"] == f"error: {db} holds no game yet (start one with `companion new`)"
    assert said["ru"] == f"ошибка: В файле {db} ещё нет игры (начните её командой `companion new`)"
    assert not db.exists()


def test_a_folder_is_not_a_ledger(tmp_path, capsys):
    said = {lang: one_line(*run(capsys, lang, "history", "--db", str(tmp_path))[::2], EXIT_LEDGER) for lang in LANGS}
    assert said["en"] == f"error: {tmp_path} is a folder, not a game ledger"
    assert said["ru"] == f"ошибка: {tmp_path} — это папка, а не журнал игры"


def test_a_text_file_is_not_a_ledger_and_stays_as_it_was(tmp_path, capsys):
    db = tmp_path / "notes.txt"
    db.write_text("Anna 2000\nBoris 2000\n" * 20, encoding="utf-8")
    before = db.read_bytes()
    said = {lang: one_line(*run(capsys, lang, "do", "--db", str(db), "roll")[::2], EXIT_DAMAGED) for lang in LANGS}
    assert said["en"] == f"ledger damaged: {db} is not a companion ledger (not an SQLite database); " \
                         "it was left unchanged"
    assert said["ru"] == f"журнал повреждён: {db} — не журнал игры (это не база данных SQLite); файл не тронут"
    assert db.read_bytes() == before and sorted(os.listdir(tmp_path)) == ["notes.txt"]


def test_another_programs_database_is_not_a_ledger(tmp_path, capsys):
    db = tmp_path / "photos.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE photos (name TEXT)")
    conn.close()
    said = {lang: one_line(*run(capsys, lang, "state", "--db", str(db))[::2], EXIT_DAMAGED) for lang in LANGS}
    assert said["en"].endswith("is not a companion ledger (another program's SQLite database); it was left unchanged")
    assert said["ru"] == f"журнал повреждён: {db} — не журнал игры (база данных SQLite другой программы); " \
                         "файл не тронут"


def test_new_on_an_existing_file_is_refused(tmp_path, capsys):
    db = tmp_path / "game.sqlite"
    new_game(capsys, db)
    said = {lang: one_line(*run(capsys, lang, "new", "--db", str(db), "elite", "Vera", "Gleb")[::2], EXIT_LEDGER)
            for lang in LANGS}
    assert said["en"] == f"error: {db} already exists: choose another file for a new game"
    assert said["ru"] == f"ошибка: Файл {db} уже существует: для новой игры выберите другой файл"


def damage_event(db, seq):
    """Rewrite one stored event's amount behind the companion's back (the triggers dropped and put back)."""
    conn = sqlite3.connect(db, isolation_level=None)
    triggers = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")]
    for name in triggers:
        conn.execute(f"DROP TRIGGER {name}")
    conn.execute("UPDATE events SET body = replace(body, 'pay Anna Boris 2', 'pay Anna Boris 9') WHERE seq = ?",
                 (seq,))
    for statement in schema._statements(schema.MIGRATIONS[2]):
        if statement.startswith("CREATE TRIGGER"):
            conn.execute(statement)
    conn.close()


@pytest.fixture
def damaged(tmp_path, capsys):
    """A game of 5 events whose event 3 was changed after it was written."""
    db = tmp_path / "game.sqlite"
    new_game(capsys, db)
    for amount in (1, 2, 3, 4):
        assert cli_run(capsys, "do", "--db", str(db), "pay", "Anna", "Boris", str(amount))[0] == 0
    damage_event(db, 3)
    return db


def test_a_damaged_event_is_named_by_verify(damaged, capsys):
    said = {lang: one_line(*run(capsys, lang, "verify", "--db", str(damaged))[::2], EXIT_DAMAGED) for lang in LANGS}
    assert said["en"] == f"ledger damaged: {damaged}: event 3 does not match its hash: the ledger was changed " \
                         "after it was written; see `companion recover`"
    assert said["ru"] == f"журнал повреждён: {damaged}: событие 3 не сходится со своим хешем: журнал изменили " \
                         "после записи; см. `companion recover`"


def test_recover_reports_in_the_language(damaged, tmp_path, capsys):
    """What `companion recover` prints: the events carried over, those lost, where the game came from."""
    said = {}
    for lang in LANGS:
        code, out, err = run(capsys, lang, "recover", "--db", str(damaged), "--to", str(tmp_path / f"new-{lang}.db"))
        assert code == EXIT_OK and err == "", err
        said[lang] = out.splitlines()
    en, ru = said["en"], said["ru"]
    assert en[0].startswith(f"recovered 2 events from {damaged} into {tmp_path / 'new-en.db'}, a new game "
                            f"(recovered from game ")
    assert en[1] == "this machine stored up to event 5; events 3-5 are lost: enter them again"
    assert ru[0].startswith(f"Восстановлено 2 события из {damaged} в новую игру {tmp_path / 'new-ru.db'} "
                            "(исходная игра `")
    assert ru[1] == "На этом устройстве записаны события до 5 включительно; события 3–5 потеряны: введите их заново"
    assert ru[2].startswith("последнее событие: #2 ")
    for line in ru:
        assert not any(word in line for word in ("recovered", "events", "head:", "machine")), line


def test_verify_speaks_the_language_and_warns_in_it(tmp_path, capsys, monkeypatch):
    """A game opened on a machine that holds no anchor for it: verified, with a warning, in Russian."""
    db = tmp_path / "game.sqlite"
    new_game(capsys, db)
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "another-machine"))
    code, out, err = run(capsys, "ru", "verify", "--db", str(db))
    assert code == EXIT_OK and out.startswith("проверено: событий переиграно с начала — 1")
    assert err.strip() == "внимание: На этом устройстве нет якоря этой игры: укороченный или переписанный " \
                          "в другом месте журнал не заметить; сверьте слова последнего события"
    code, out, err = run(capsys, "en", "verify", "--db", str(db))
    assert err.strip() == "warning: this machine holds no anchor for this game: a ledger cut short or rewritten " \
                          "elsewhere could not be noticed; compare the head words"


# ----- scripts ------------------------------------------------------------------------------------------

def test_a_failed_expect_names_the_line_in_the_language(tmp_path, capsys):
    script = tmp_path / "t.game"
    script.write_text("new classic 1 Anna Boris\npay Anna Boris 100\nexpect cash Boris 1999\n", encoding="utf-8")
    said = {lang: one_line(*run(capsys, lang, "script", str(script))[::2], EXIT_BAD_INPUT) for lang in LANGS}
    assert said["en"] == f"error: {script}:3: `expect cash Boris 1999`: Boris has 2100, expected 1999"
    assert said["ru"] == f"ошибка: {script}:3: `expect cash Boris 1999`: Boris: на счету 2100, а по сценарию 1999"


@pytest.mark.parametrize("line, en, ru", [
    ("expect owner 1 Anna", "1 is owned by none, expected Anna", "Владелец участка «1»: нет, а по сценарию Anna"),
    ("expect alive Anna no", "Anna alive: yes, expected no", "Anna: в игре — да, а по сценарию нет"),
    ("expect cash Zed 0", "no account named Zed (players: Anna, Boris; accounts: bank, jackpot, charity)",
     "Нет счёта Zed (игроки: Anna, Boris; счета: `bank`, `jackpot`, `charity`)"),
    ("expect level 1 x", "'x' is not a whole number", "«x» — не целое число"),
    ("expect frobnicate 1", "unknown expectation 'frobnicate'", "Неизвестная проверка `frobnicate`"),
    ("expect winner Anna", "winner is none, expected Anna", "Победитель: нет, а по сценарию Anna"),
    ("expect refused:not_yours pay Anna Boris 1", "the command was accepted", "Команда принята"),
    ("buy", "refused: Nothing is offered for sale now", "отказ: Сейчас ничего не продаётся"),
    ("Anna:", "Anna: what? (a command follows the name and colon)",
     "Anna: что сделать? (после имени и двоеточия пишется команда)"),
    ("new classic 1 Anna Boris", "a script plays one game", "В сценарии может быть только одна игра"),
])
def test_script_problems_in_both_languages(tmp_path, capsys, line, en, ru):
    script = tmp_path / "t.game"
    script.write_text(f"new classic 1 Anna Boris\n{line}\n", encoding="utf-8")
    said = {lang: one_line(*run(capsys, lang, "script", str(script))[::2], EXIT_BAD_INPUT) for lang in LANGS}
    prefix = {"en": "error", "ru": "ошибка"}
    for lang, words in (("en", en), ("ru", ru)):
        assert said[lang].startswith(f"{prefix[lang]}: {script}:2: `"), said[lang]
        assert words in said[lang], said[lang]


def test_a_script_that_cannot_be_read(tmp_path, capsys):
    missing = tmp_path / "none.game"
    said = {lang: one_line(*run(capsys, lang, "script", str(missing))[::2], EXIT_BAD_INPUT) for lang in LANGS}
    assert said["en"] == f"error: {missing}: cannot read the file: No such file or directory"
    assert said["ru"] == f"ошибка: {missing}: Не удаётся прочитать файл: нет такого файла или папки"
    latin1 = tmp_path / "latin1.game"
    latin1.write_bytes("new classic 1 Anna Boris\n# café\n".encode("latin-1"))
    said = {lang: one_line(*run(capsys, lang, "script", str(latin1))[::2], EXIT_BAD_INPUT) for lang in LANGS}
    assert said["en"] == f"error: {latin1}:2: not UTF-8 text: byte 0xe9 at byte offset 30 cannot be read"
    assert said["ru"] == f"ошибка: {latin1}:2: Текст не в кодировке UTF-8: байт `0xe9` по смещению 30 не читается"


# ----- the command line itself ------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, en, ru", [
    (["foo"], "usage: unknown command 'foo' (choose from new, do, state, history, verify, recover, script, "
              "editions, check-edition, demo, run, game, cards, bench, sim); see `companion --help`",
     "ошибка в командной строке: Неизвестная команда `foo` (есть: `new`, `do`, `state`, `history`, `verify`, "
     "`recover`, `script`, `editions`, `check-edition`, `demo`, `run`, `game`, `cards`, `bench`, `sim`); справка: `companion --help`"),
    (["state", "/x.db"], "usage: unrecognized arguments: /x.db; see `companion state --help`",
     "ошибка в командной строке: Лишние аргументы: `/x.db`; справка: `companion state --help`"),
    (["new", "elite"], "usage: the following arguments are required: players; see `companion new --help`",
     "ошибка в командной строке: Обязательно укажите: `players`; справка: `companion new --help`"),
    (["new", "--seed", "x", "elite", "A", "B"],
     "usage: argument --seed: invalid int value: 'x'; see `companion new --help`",
     "ошибка в командной строке: `--seed`: нужно целое число, а не `x`; справка: `companion new --help`"),
    (["do", "roll", "--db"], "usage: argument --db: expected one argument; see `companion do --help`",
     "ошибка в командной строке: После `--db` нужно значение; справка: `companion do --help`"),
    (["bench", "disk"], "usage: argument what: invalid choice: 'disk' (choose from ledger, engine, open, link, table, sim, web); "
                        "see `companion bench --help`",
     "ошибка в командной строке: `what`: недопустимое значение `disk` (можно: `ledger`, `engine`, `open`, `link`, `table`, `sim`, `web`); "
     "справка: `companion bench --help`"),
    ([], "usage: a command is required (choose from new, do, state, history, verify, recover, script, editions, "
         "check-edition, demo, run, game, cards, bench, sim); see `companion --help`",
     "ошибка в командной строке: Не указана команда (есть: `new`, `do`, `state`, `history`, `verify`, "
     "`recover`, `script`, `editions`, `check-edition`, `demo`, `run`, `game`, `cards`, `bench`, `sim`); справка: `companion --help`"),
])
def test_usage_errors_are_one_line_in_the_language(capsys, argv, en, ru):
    assert one_line(*cli_run(capsys, "--lang", "en", *argv)[::2], EXIT_USAGE) == en
    assert one_line(*cli_run(capsys, *argv, "--lang", "ru")[::2], EXIT_USAGE) == ru


def test_usage_errors_follow_the_environment_too(capsys, monkeypatch):
    """Without --lang (or with a --lang argparse refuses) the environment's language says the error."""
    monkeypatch.setenv("COMPANION_LANG", "ru")
    line = one_line(*cli_run(capsys, "state", "/x.db")[::2], EXIT_USAGE)
    assert line == "ошибка в командной строке: Лишние аргументы: `/x.db`; справка: `companion state --help`"
    line = one_line(*cli_run(capsys, "--lang", "de", "state")[::2], EXIT_USAGE)
    assert line == "ошибка в командной строке: `--lang`: недопустимое значение `de` (можно: `en`, `ru`); " \
                   "справка: `companion --help`"
    line = one_line(*cli_run(capsys, "--lang=en", "state", "/x.db")[::2], EXIT_USAGE)
    assert line == "usage: unrecognized arguments: /x.db; see `companion state --help`"


def test_a_real_process_prints_one_russian_line(tmp_path):
    """`python -m companion --lang ru foo` and `... state /x.db`: exit 2, one Russian line, nothing else."""
    env = {k: v for k, v in os.environ.items() if k not in ("COMPANION_LANG", "LC_ALL", "LC_MESSAGES", "LANG")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    for argv, words in ((["foo"], "Неизвестная команда `foo`"), (["state", "/x.db"], "Лишние аргументы: `/x.db`")):
        proc = subprocess.run([sys.executable, "-m", "companion", "--lang", "ru", *argv], capture_output=True,
                              text=True, env=env, cwd=tmp_path, timeout=60)
        assert proc.returncode == EXIT_USAGE and proc.stdout == ""
        assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("ошибка в командной строке: ")
        assert words in proc.stderr and "usage" not in proc.stderr and "error" not in proc.stderr
