"""Errors follow the language setting (README: --lang, else $COMPANION_LANG, else the locale):
what the ledger raises (a missing file, a folder, a file that is no ledger, an existing file for
`new`, a damaged event), what `verify` and `recover` print, a failed `expect` and other script
errors, the command line's own usage errors, and what the box's commands and the edition loader
refuse (edition files, --option values, the daemon's configuration, control socket and card map).
Each is triggered for real (files in tmp_path),
and each is one line in the chosen language, with the exit code of docs/exit-codes.md and no
traceback; the English lines are the ones the companion always printed."""

import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import cli_run

from companion.errors import EXIT_BAD_INPUT, EXIT_DAMAGED, EXIT_LEDGER, EXIT_OK, EXIT_STRANGER, EXIT_USAGE
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
    assert (
        said["en"] == f"ledger damaged: {db} is not a companion ledger (not an SQLite database); it was left unchanged"
    )
    assert said["ru"] == f"журнал повреждён: {db} — не журнал игры (это не база данных SQLite); файл не тронут"
    assert db.read_bytes() == before and sorted(os.listdir(tmp_path)) == ["notes.txt"]


def test_another_programs_database_is_not_a_ledger(tmp_path, capsys):
    db = tmp_path / "photos.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE photos (name TEXT)")
    conn.close()
    said = {lang: one_line(*run(capsys, lang, "state", "--db", str(db))[::2], EXIT_DAMAGED) for lang in LANGS}
    assert said["en"].endswith("is not a companion ledger (another program's SQLite database); it was left unchanged")
    assert (
        said["ru"] == f"журнал повреждён: {db} — не журнал игры (база данных SQLite другой программы); файл не тронут"
    )


def test_new_on_an_existing_file_is_refused(tmp_path, capsys):
    db = tmp_path / "game.sqlite"
    new_game(capsys, db)
    said = {
        lang: one_line(*run(capsys, lang, "new", "--db", str(db), "elite", "Vera", "Gleb")[::2], EXIT_LEDGER)
        for lang in LANGS
    }
    assert said["en"] == f"error: {db} already exists: choose another file for a new game"
    assert said["ru"] == f"ошибка: Файл {db} уже существует: для новой игры выберите другой файл"


def damage_event(db, seq):
    """Rewrite one stored event's amount behind the companion's back (the triggers dropped and put back)."""
    conn = sqlite3.connect(db, isolation_level=None)
    triggers = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")]
    for name in triggers:
        conn.execute(f"DROP TRIGGER {name}")
    conn.execute("UPDATE events SET body = replace(body, 'pay Anna Boris 2', 'pay Anna Boris 9') WHERE seq = ?", (seq,))
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
    assert (
        said["en"] == f"ledger damaged: {damaged}: event 3 does not match its hash: the ledger was changed "
        "after it was written; see `companion recover`"
    )
    assert (
        said["ru"] == f"журнал повреждён: {damaged}: событие 3 не сходится со своим хешем: журнал изменили "
        "после записи; см. `companion recover`"
    )


def test_recover_reports_in_the_language(damaged, tmp_path, capsys):
    """What `companion recover` prints: the events carried over, those lost, where the game came from."""
    said = {}
    for lang in LANGS:
        code, out, err = run(capsys, lang, "recover", "--db", str(damaged), "--to", str(tmp_path / f"new-{lang}.db"))
        assert code == EXIT_OK and err == "", err
        said[lang] = out.splitlines()
    en, ru = said["en"], said["ru"]
    assert en[0].startswith(
        f"recovered 2 events from {damaged} into {tmp_path / 'new-en.db'}, a new game (recovered from game "
    )
    assert en[1] == "this machine stored up to event 5; events 3-5 are lost: enter them again"
    assert ru[0].startswith(
        f"Восстановлено 2 события из {damaged} в новую игру {tmp_path / 'new-ru.db'} (исходная игра `"
    )
    assert ru[1] == "На этом устройстве записаны события до 5 включительно; события 3–5 потеряны: введите их заново"
    assert ru[2].startswith("последнее событие: #2 ")
    for line in ru:
        assert not any(word in line for word in ("recovered", "events", "head:", "machine")), line


def test_verify_speaks_the_language_and_warns_in_it(tmp_path, capsys, monkeypatch):
    """A game opened on a machine that holds no anchor for it: checked, shown as a stranger's, in Russian
    (exit 10: nothing on this machine vouches for it, so "agree" is not said)."""
    db = tmp_path / "game.sqlite"
    new_game(capsys, db)
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "another-machine"))
    code, out, err = run(capsys, "ru", "verify", "--db", str(db))
    assert code == EXIT_STRANGER and out.startswith(
        "проверено: событий переиграно с начала — 1; цепочка хешей и контрольные точки сходятся, но это чужая игра"
    )
    assert err.startswith("внимание: Это устройство никогда не вело игру `") and "только для чтения" in err
    assert "якорь этого устройства" not in out
    code, out, err = run(capsys, "en", "verify", "--db", str(db))
    assert code == EXIT_STRANGER and "agree, but this is a stranger's game" in out and "anchor agree" not in out
    assert err.startswith("warning: this machine has never kept game ") and "`companion accept`" in err


# ----- scripts ------------------------------------------------------------------------------------------


def test_a_failed_expect_names_the_line_in_the_language(tmp_path, capsys):
    script = tmp_path / "t.game"
    script.write_text("new classic 1 Anna Boris\npay Anna Boris 100\nexpect cash Boris 1999\n", encoding="utf-8")
    said = {lang: one_line(*run(capsys, lang, "script", str(script))[::2], EXIT_BAD_INPUT) for lang in LANGS}
    assert said["en"] == f"error: {script}:3: `expect cash Boris 1999`: Boris has 2100, expected 1999"
    assert said["ru"] == f"ошибка: {script}:3: `expect cash Boris 1999`: Boris: на счету 2100, а по сценарию 1999"


@pytest.mark.parametrize(
    "line, en, ru",
    [
        ("expect owner 1 Anna", "1 is owned by none, expected Anna", "Владелец участка «1»: нет, а по сценарию Anna"),
        ("expect alive Anna no", "Anna alive: yes, expected no", "Anna: в игре — да, а по сценарию нет"),
        (
            "expect cash Zed 0",
            "no account named Zed (players: Anna, Boris; accounts: bank, jackpot, charity)",
            "Нет счёта Zed (игроки: Anna, Boris; счета: `bank`, `jackpot`, `charity`)",
        ),
        ("expect level 1 x", "'x' is not a whole number", "«x» — не целое число"),
        ("expect frobnicate 1", "unknown expectation 'frobnicate'", "Неизвестная проверка `frobnicate`"),
        ("expect winner Anna", "winner is none, expected Anna", "Победитель: нет, а по сценарию Anna"),
        ("expect refused:not_yours pay Anna Boris 1", "the command was accepted", "Команда принята"),
        ("buy", "refused: Nothing is offered for sale now", "отказ: Сейчас ничего не продаётся"),
        (
            "Anna:",
            "Anna: what? (a command follows the name and colon)",
            "Anna: что сделать? (после имени и двоеточия пишется команда)",
        ),
        ("new classic 1 Anna Boris", "a script plays one game", "В сценарии может быть только одна игра"),
    ],
)
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


@pytest.mark.parametrize(
    "argv, en, ru",
    [
        (
            ["foo"],
            "usage: unknown command 'foo' (choose from new, do, state, history, verify, accept, recover, "
            "script, editions, check-edition, demo, run, game, cards, backup, restore, doctor, firmware, bench, sim); see `companion --help`",
            "ошибка в командной строке: Неизвестная команда `foo` (есть: `new`, `do`, `state`, `history`, `verify`, "
            "`accept`, `recover`, `script`, `editions`, `check-edition`, `demo`, `run`, `game`, `cards`, `backup`, `restore`, `doctor`, `firmware`, `bench`, `sim`); справка: `companion --help`",
        ),
        (
            ["state", "/x.db"],
            "usage: unrecognized arguments: /x.db; see `companion state --help`",
            "ошибка в командной строке: Лишние аргументы: `/x.db`; справка: `companion state --help`",
        ),
        (
            ["new", "elite"],
            "usage: the following arguments are required: players; see `companion new --help`",
            "ошибка в командной строке: Обязательно укажите: `players`; справка: `companion new --help`",
        ),
        (
            ["new", "--seed", "x", "elite", "A", "B"],
            "usage: argument --seed: invalid int value: 'x'; see `companion new --help`",
            "ошибка в командной строке: `--seed`: нужно целое число, а не `x`; справка: `companion new --help`",
        ),
        (
            ["do", "roll", "--db"],
            "usage: argument --db: expected one argument; see `companion do --help`",
            "ошибка в командной строке: После `--db` нужно значение; справка: `companion do --help`",
        ),
        (
            ["bench", "disk"],
            "usage: argument what: invalid choice: 'disk' (choose from ledger, engine, open, link, table, sim, web, daemon); "
            "see `companion bench --help`",
            "ошибка в командной строке: `what`: недопустимое значение `disk` (можно: `ledger`, `engine`, `open`, `link`, `table`, `sim`, `web`, `daemon`); "
            "справка: `companion bench --help`",
        ),
        (
            [],
            "usage: a command is required (choose from new, do, state, history, verify, accept, recover, script, "
            "editions, check-edition, demo, run, game, cards, backup, restore, doctor, firmware, bench, sim); see `companion --help`",
            "ошибка в командной строке: Не указана команда (есть: `new`, `do`, `state`, `history`, `verify`, "
            "`accept`, `recover`, `script`, `editions`, `check-edition`, `demo`, `run`, `game`, `cards`, `backup`, `restore`, `doctor`, `firmware`, `bench`, `sim`); справка: `companion --help`",
        ),
    ],
)
def test_usage_errors_are_one_line_in_the_language(capsys, argv, en, ru):
    assert one_line(*cli_run(capsys, "--lang", "en", *argv)[::2], EXIT_USAGE) == en
    assert one_line(*cli_run(capsys, *argv, "--lang", "ru")[::2], EXIT_USAGE) == ru


def test_usage_errors_follow_the_environment_too(capsys, monkeypatch):
    """Without --lang (or with a --lang argparse refuses) the environment's language says the error."""
    monkeypatch.setenv("COMPANION_LANG", "ru")
    line = one_line(*cli_run(capsys, "state", "/x.db")[::2], EXIT_USAGE)
    assert line == "ошибка в командной строке: Лишние аргументы: `/x.db`; справка: `companion state --help`"
    line = one_line(*cli_run(capsys, "--lang", "de", "state")[::2], EXIT_USAGE)
    assert (
        line == "ошибка в командной строке: `--lang`: недопустимое значение `de` (можно: `en`, `ru`); "
        "справка: `companion --help`"
    )
    line = one_line(*cli_run(capsys, "--lang=en", "state", "/x.db")[::2], EXIT_USAGE)
    assert line == "usage: unrecognized arguments: /x.db; see `companion state --help`"


def test_a_real_process_prints_one_russian_line(tmp_path):
    """`python -m companion --lang ru foo` and `... state /x.db`: exit 2, one Russian line, nothing else."""
    env = {k: v for k, v in os.environ.items() if k not in ("COMPANION_LANG", "LC_ALL", "LC_MESSAGES", "LANG")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    for argv, words in ((["foo"], "Неизвестная команда `foo`"), (["state", "/x.db"], "Лишние аргументы: `/x.db`")):
        proc = subprocess.run(
            [sys.executable, "-m", "companion", "--lang", "ru", *argv],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=60,
        )
        assert proc.returncode == EXIT_USAGE and proc.stdout == ""
        assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("ошибка в командной строке: ")
        assert words in proc.stderr and "usage" not in proc.stderr and "error" not in proc.stderr


# ----- edition files and --option values, the daemon's configuration, control socket and card map ---------
# Each mistake a person can make at the box's command line, made for real: one line in each language, the
# Russian one with no Latin word but the values it names (paths, keys, ids, names: given, or quoted) and the
# names of formats and parts (TOML, UTF-8, JSON, GPIO, Unix).

FORMAT_NAMES = ("TOML", "UTF-8", "JSON", "GPIO", "Unix")


def latin_left(line, *values):
    """The Latin words of a line once its values are taken out: [] when it is all Russian."""
    for value in sorted(map(str, values), key=len, reverse=True):
        line = line.replace(value, " ")
    line = re.sub(r"`[^`]*`|«[^»]*»", " ", line)  # ids in backticks, names in quotes: values too
    for name in FORMAT_NAMES:
        line = line.replace(name, " ")
    return re.findall(r"[A-Za-z]+", line)


def both(capsys, code, *argv):
    """The one error line `companion --lang en|ru ARGV...` prints: {"en": ..., "ru": ...}."""
    return {lang: one_line(*run(capsys, lang, *argv)[::2], code) for lang in LANGS}


def check_russian(line, *values):
    assert line.startswith("ошибка: "), line
    assert latin_left(line, *values) == [], line


def edition_file(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


MONOPOLY = str(ROOT / "companion" / "editions" / "monopoly.toml")


@pytest.mark.parametrize(
    "option, en, ru",
    [
        (
            "nosuch=1",
            f"{MONOPOLY}: options.nosuch: is not an option of the 'monopoly' rules (known: auction_opening_percent, ",
            f"{MONOPOLY}: `options.nosuch`: В правилах «monopoly» такого варианта нет (есть: `auction_opening_percent`, ",
        ),
        (
            "circle_income=abc",
            f"{MONOPOLY}: options.circle_income: 'abc' is not a value",
            f"{MONOPOLY}: `options.circle_income`: 'abc' — не значение (нужно число, `true` или `false` либо список",
        ),
        (
            "circle_income=-5",
            f"{MONOPOLY}: options.circle_income: must be a whole number from 0 to 1000000000, not -5",
            f"{MONOPOLY}: `options.circle_income`: Нужно целое число от 0 до 1000000000, а не -5",
        ),
        (
            "circle_income=1.5",
            f"{MONOPOLY}: options.circle_income: must be a whole number like the default 200, not 1.5",
            f"{MONOPOLY}: `options.circle_income`: Нужно целое число (по умолчанию 200), а не 1.5",
        ),
        (
            "detention_third_miss=later",
            f"{MONOPOLY}: options.detention_third_miss: must be one of pay_next_turn, pay_and_move, not 'later'",
            f"{MONOPOLY}: `options.detention_third_miss`: Допустимые значения: `pay_next_turn`, `pay_and_move`; "
            "'later' не подходит",
        ),
    ],
)
def test_a_mistyped_option_of_new_is_said_in_the_language(tmp_path, capsys, option, en, ru):
    db = tmp_path / "game.sqlite"
    said = both(capsys, EXIT_BAD_INPUT, "new", "--db", str(db), "monopoly", "Anna", "Boris", "--option", option)
    assert said["en"].startswith("error: " + en), said["en"]
    assert said["ru"].startswith("ошибка: " + ru), said["ru"]
    check_russian(said["ru"], MONOPOLY, "'abc'", "'later'")
    assert not db.exists()


def test_an_edition_that_is_not_there(tmp_path, capsys):
    said = both(capsys, EXIT_BAD_INPUT, "new", "--db", str(tmp_path / "g.sqlite"), "monpoly", "Anna", "Boris")
    shipped = "classic, deluxe, elite, madmillionaire, monopoly"
    assert said["en"] == f"error: monpoly: edition: no such edition (shipped: {shipped})"
    assert said["ru"] == f"ошибка: monpoly: Такого издания нет (в комплекте: {shipped})"
    check_russian(said["ru"], "monpoly", shipped)
    missing = tmp_path / "mine.toml"
    said = both(capsys, EXIT_BAD_INPUT, "check-edition", str(missing))
    assert said["en"] == f"error: {missing}: file: cannot be read: No such file or directory"
    assert said["ru"] == f"ошибка: {missing}: Не удаётся прочитать файл: нет такого файла или папки"


@pytest.mark.parametrize(
    "data, en, ru",
    [
        (
            b'[edition]\nname = "caf\xe9"\n',
            "file: is not UTF-8 text: byte 21 (line 2) is 0xe9",
            "Текст не в кодировке UTF-8: байт `0xe9` по смещению 21 (строка 2) не читается",
        ),
        (
            '[edition\nid = "x"\n',
            "syntax: A table's header must end with ] (at line 1, column 9)",
            "Ошибка в записи TOML (строка 1, столбец 9: заголовок таблицы должен кончаться на «]»)",
        ),
        (
            "[edition]\nid = \n",
            "syntax: Invalid value (at line 2, column 6)",
            "Ошибка в записи TOML (строка 2, столбец 6: недопустимое значение)",
        ),
        (
            '[edition]\nid = "x"\nid = "y"\n',
            "syntax: Cannot overwrite a value (at line 3, column 9)",
            "Ошибка в записи TOML (строка 3, столбец 9: значение задано второй раз)",
        ),
        (
            "[edition]\nid = [1, 2",
            "syntax: Unclosed array (at end of document)",
            "Ошибка в записи TOML (в конце файла: список не закрыт скобкой «]»)",
        ),
        (
            "x = " + "[" * 3000 + "]" * 3000 + "\n",
            "syntax: tables or lists nested too deeply",
            "Таблицы или списки вложены слишком глубоко",
        ),
        (
            '[edition]\nid = "mine"\nrules = "chess"\n',
            "edition.rules: must name one of the rules modules: classic, "
            "deluxe, elite, madmillionaire, monopoly (not 'chess')",
            "`edition.rules`: Нужно имя одного из модулей правил: `classic`, `deluxe`, `elite`, `madmillionaire`, "
            "`monopoly` (а не 'chess')",
        ),
    ],
)
def test_an_edition_file_that_cannot_be_read_is_said_in_the_language(tmp_path, capsys, data, en, ru):
    path = edition_file(tmp_path, "mine.toml", data)
    said = both(capsys, EXIT_BAD_INPUT, "check-edition", str(path))
    assert said["en"] == f"error: {path}: {en}"
    assert said["ru"] == f"ошибка: {path}: {ru}"
    check_russian(said["ru"], path, "'chess'")


# the daemon's configuration: read by every box command (`companion game status --config FILE` here)


@pytest.mark.parametrize(
    "text, en, ru",
    [
        (
            'hardwre = "real"\n',
            "unknown key hardwre (known here: hardware, language, games_dir)",
            "Неизвестный параметр `hardwre` (здесь есть: `hardware`, `language`, `games_dir`)",
        ),
        (
            "[screen]\nx = 1\n",
            "unknown section [screen] (known: backup, buttons, control, daemon, display, network, phone, reader, "
            "virtual_table)",
            "Неизвестный раздел [screen] (есть: `backup`, `buttons`, `control`, `daemon`, `display`, `network`, "
            "`phone`, `reader`, `virtual_table`)",
        ),
        (
            'hardware = "virtual"\n',
            "hardware = 'virtual' is not one of 'simulated', 'real'",
            "`hardware` = 'virtual' — такого значения нет (можно: 'simulated', 'real')",
        ),
        ("hardware = 1\n", "hardware must be text in quotes, not 1", "`hardware`: Нужен текст в кавычках, а не 1"),
        (
            '[reader]\nretry_seconds = "x"\n',
            "reader.retry_seconds must be a number, not 'x'",
            "`reader.retry_seconds`: Нужно число, а не 'x'",
        ),
        (
            "[buttons]\nok = 5.0\n",
            "buttons.ok must be a whole number, not 5.0",
            "`buttons.ok`: Нужно целое число, а не 5.0",
        ),
        (
            "[reader]\nretry_seconds = 0\n",
            "reader.retry_seconds = 0.0 is outside 0.05..10.0",
            "`reader.retry_seconds` = 0.0: допустимо от 0.05 до 10.0",
        ),
        (
            "[reader]\nretry_seconds = nan\n",
            "reader.retry_seconds must be a finite number, not nan",
            "`reader.retry_seconds`: Нужно конечное число, а не nan",
        ),
        (
            "[buttons]\nok = 5\nback = 5\n",
            "buttons.ok and buttons.back are both GPIO 5: each button needs its own pin",
            "У `buttons.ok` и `buttons.back` один и тот же вывод GPIO 5: каждой кнопке нужен свой",
        ),
        (
            '[phone]\nbanker_pin = "12\\u000734"\n',
            "phone.banker_pin holds a control character",
            "В `phone.banker_pin` есть управляющий символ",
        ),
        (
            'hardware = "real\n',
            "not valid TOML (Illegal character '\\n' (at line 1, column 17))",
            "Ошибка в записи TOML (строка 1, столбец 17: недопустимый символ `'\\n'`)",
        ),
        (
            "language = \n",
            "not valid TOML (Invalid value (at line 1, column 12))",
            "Ошибка в записи TOML (строка 1, столбец 12: недопустимое значение)",
        ),
        (
            b"language = '\xff'\n",
            "not UTF-8 text: byte 0xff at byte offset 12 cannot be read",
            "Текст не в кодировке UTF-8: байт `0xff` по смещению 12 не читается",
        ),
    ],
)
def test_a_configuration_mistake_is_said_in_the_language(tmp_path, capsys, text, en, ru):
    path = edition_file(tmp_path, "companion.toml", text)
    said = both(capsys, EXIT_BAD_INPUT, "game", "status", "--config", str(path))
    assert said["en"] == f"error: {path}: {en}"
    assert said["ru"] == f"ошибка: {path}: {ru}"
    check_russian(said["ru"], path, "[screen]", "'virtual'", "'simulated', 'real'", "'x'", "nan", "'\\n'")


def test_a_configuration_file_that_is_not_there_or_a_folder(tmp_path, capsys):
    missing = tmp_path / "none.toml"
    said = both(capsys, EXIT_BAD_INPUT, "run", "--config", str(missing))
    assert said["en"] == f"error: {missing}: no such configuration file"
    assert said["ru"] == f"ошибка: {missing}: Такого файла конфигурации нет"
    said = both(capsys, EXIT_BAD_INPUT, "cards", "list", "--config", str(tmp_path))
    assert said["en"] == f"error: {tmp_path}: cannot be read ([Errno 21] Is a directory: '{tmp_path}')"
    assert said["ru"] == f"ошибка: {tmp_path}: Файл конфигурации не читается (это папка)"


# the card map: `companion cards ...` without a daemon, on the games folder


@pytest.fixture
def games(tmp_path, monkeypatch):
    folder = tmp_path / "games"
    monkeypatch.setenv("COMPANION_STATE_DIR", str(folder))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    return folder


@pytest.mark.parametrize(
    "argv, en, ru",
    [
        (
            ["enrol", "player", "1", "--uid", "XYZ"],
            "'XYZ' is not a card UID (8, 14 or 20 hex digits)",
            "«XYZ» — не номер карты (нужно 8, 14 или 20 шестнадцатеричных цифр)",
        ),
        (["forget", "04aabbcc"], "no card 04AABBCC is enrolled", "Карта 04AABBCC не записана"),
        (
            ["enrol", "player", "9", "--uid", "04AABBCC"],
            "a player's card names a seat from 1 to 8, not '9'",
            "Карта игрока — это место за столом с 1 по 8, а не «9»",
        ),
        (
            ["enrol", "player", "1"],
            "without a running daemon there is no reader to tap: give the card's --uid",
            "Демон коробки не запущен, и приложить карту к считывателю нельзя: укажите её номер в `--uid`",
        ),
        (
            ["enrol", "plot", "cinema", "--uid", "04AABBCC"],
            "a plot or deck card needs --edition (no game is open to tell)",
            "Для карты участка или карточки укажите `--edition`: открытой игры нет, и издание из неё не узнать",
        ),
        (
            ["enrol", "plot", "", "--uid", "04AABBCC", "--edition", "classic"],
            "a plot card names its plot",
            "Назовите участок, за который будет эта карта",
        ),
        (
            ["enrol", "plot", "cinema", "--uid", "04AABBCC", "--edition", "elite"],
            "Millionaire Elite has no plot 'cinema' (its plots: central1, central2, central3, central4, food1, food2, "
            "heavy1, heavy2, ...)",
            "В издании «Миллионер-Elite» нет участка «cinema» (его участки: `central1`, `central2`, `central3`, "
            "`central4`, `food1`, `food2`, `heavy1`, `heavy2`, …)",
        ),
        (
            ["enrol", "card", "joker", "--uid", "04AABBCC", "--edition", "elite"],
            "Millionaire Elite has no card 'joker' (",
            "В издании «Миллионер-Elite» нет карточки «joker» (его карточки: `",
        ),
        (
            ["enrol", "plot", "x", "--uid", "04AABBCC", "--edition", "nosuch"],
            "nosuch: edition: no such edition (",
            "nosuch: Такого издания нет (в комплекте: ",
        ),
    ],
)
def test_a_card_mistake_is_said_in_the_language(games, capsys, argv, en, ru):
    said = both(capsys, EXIT_BAD_INPUT, "cards", *argv)
    assert said["en"].startswith("error: " + en), said["en"]
    assert said["ru"].startswith("ошибка: " + ru), said["ru"]
    check_russian(
        said["ru"],
        "XYZ",
        "04AABBCC",
        "cinema",
        "joker",
        "Elite",
        "nosuch",
        "classic, deluxe, elite, madmillionaire, monopoly",
    )
    assert not (games / "cards.json").exists()


@pytest.mark.parametrize(
    "text, en, ru",
    [
        (
            "{\n",
            "the card map cannot be read (Expecting property name enclosed in double quotes: line 2 column 1 (char 2))",
            "Файл записанных карт повреждён: это не JSON (строка 2, столбец 1, символ 2: ожидалось имя в "
            "двойных кавычках)",
        ),
        (
            '{"cards": {"zz": {"kind": "player", "ref": "1"}}}',
            "the card map is damaged ('zz' is not a card UID (8, 14 or 20 hex digits))",
            "Файл записанных карт повреждён («zz» — не номер карты (нужно 8, 14 или 20 шестнадцатеричных цифр))",
        ),
        (
            '{"cards": {"04AABBCC": {"ref": "1"}}}',
            "the card map is damaged ('kind')",
            "Файл записанных карт повреждён (нет ключа «kind»)",
        ),
        (
            '{"cards": {"04AABBCC": {"kind": "player", "ref": "12"}}}',
            "the card map is damaged (a player's card names a seat from 1 to 8, not '12')",
            "Файл записанных карт повреждён (Карта игрока — это место за столом с 1 по 8, а не «12»)",
        ),
    ],
)
def test_a_damaged_card_map_is_said_in_the_language(games, capsys, text, en, ru):
    games.mkdir()
    cards = games / "cards.json"
    cards.write_text(text, encoding="utf-8")
    said = both(capsys, EXIT_BAD_INPUT, "cards", "list")
    assert said["en"] == f"error: {cards}: {en}; move it away to start a new one"
    assert said["ru"] == f"ошибка: {cards}: {ru}; уберите его, чтобы начать новый"
    check_russian(said["ru"], cards, "zz", "kind")
    assert cards.read_text(encoding="utf-8") == text


# the control socket: `companion run` itself, in a process of its own (it starts the simulated reader first)


def daemon_config(tmp_path, socket):
    path = tmp_path / f"box-{len(list(tmp_path.glob('box-*')))}.toml"
    path.write_text(
        f'games_dir = "{path.with_suffix("")}"\n[control]\nsocket = "{socket}"\n'
        "[virtual_table]\nport = 0\n[phone]\nport = 0\n",
        encoding="utf-8",
    )
    return path


def run_box(lang, config, tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("COMPANION_LANG", "LC_ALL", "LC_MESSAGES", "LANG")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["COMPANION_STATE_DIR"] = str(tmp_path / "state")
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "--lang", lang, "run", "--config", str(config)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    return one_line(proc.returncode, proc.stderr, EXIT_BAD_INPUT)


def test_the_control_socket_path_too_long_or_taken(tmp_path):
    from companion.daemon.control import ControlServer

    long = tmp_path / ("x" * 110) / "companion.sock"
    config = daemon_config(tmp_path, long)
    en, ru = run_box("en", config, tmp_path), run_box("ru", config, tmp_path)
    assert (
        en == f"error: control.socket: {long} is longer than a Unix socket's 107 bytes; set a shorter "
        "control.socket in the configuration"
    )
    assert (
        ru == f"ошибка: `control.socket`: путь {long} длиннее 107 байт (предел для сокета Unix); укажите "
        "в конфигурации путь покороче"
    )
    check_russian(ru, long)
    taken = tmp_path / "c.sock"
    server = ControlServer(taken, lambda request: {"ok": True}).start()  # another box's daemon
    try:
        config = daemon_config(tmp_path, taken)
        en, ru = run_box("en", config, tmp_path), run_box("ru", config, tmp_path)
    finally:
        server.stop()
    assert en == f"error: control.socket: another daemon already listens on {taken}"
    assert ru == f"ошибка: `control.socket`: сокет {taken} уже занят другим демоном коробки"
    check_russian(ru, taken)


def test_a_games_folder_another_daemon_owns(tmp_path):
    from companion.daemon.games import DaemonLock

    config = daemon_config(tmp_path, tmp_path / "c.sock")
    folder = config.with_suffix("")
    lock = DaemonLock(folder)
    lock.acquire(str(tmp_path / "other.sock"))  # another box's daemon holds the folder
    try:
        en, ru = run_box("en", config, tmp_path), run_box("ru", config, tmp_path)
    finally:
        lock.release()
    assert en == f"error: another daemon (pid {os.getpid()}) already owns {folder}"
    assert ru == f"ошибка: Папка {folder} уже занята другим демоном коробки (процесс {os.getpid()})"
    check_russian(ru, folder)


def test_every_code_these_modules_raise_is_in_every_catalogue():
    """The codes the box's command line and the edition loader raise (a typo would print the bare code)."""
    import ast

    from companion.words.messages import CATALOGS

    files = [ROOT / "companion" / "daemon" / name for name in ("config.py", "control.py", "cards.py", "games.py")]
    files += [ROOT / "companion" / "cli" / "box.py"]
    files += [ROOT / "companion" / "editions" / "__init__.py", ROOT / "companion" / "words" / "parse.py"]
    codes = set()
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and re.fullmatch(
                    r"(config|socket|cardrole|cardmap|cards|edition|toml|json)_[a-z_]*[a-z]|machine_words|games_taken",
                    node.value,
                )
            ):
                codes.add(node.value)
    # the codes made of a prefix and a word
    from companion.daemon import cards, config
    from companion.editions import OPTION_KINDS

    codes.update(f"config_want_{word}" for word in config.KIND_WORDS.values())
    codes.update(f"edition_option_{word}" for word in OPTION_KINDS.values())
    codes.update(f"cardrole_{how}_{kind}" for kind in cards.KINDS if kind != "player" for how in ("no", "unknown"))
    assert len(codes) > 50
    for lang in LANGS:
        assert sorted(c for c in codes if c not in CATALOGS[lang]) == [], lang


@pytest.mark.parametrize(
    "line, en, ru",
    [
        (
            'undo_window = "many"',
            "must be a whole number like the default 50, not 'many'",
            "Нужно целое число (по умолчанию 50), а не 'many'",
        ),
        (
            "undo_window = -1",
            "must be a whole number from 0 to 1000, not -1",
            "Нужно целое число от 0 до 1000, а не -1",
        ),
    ],
)
def test_an_option_the_edition_file_writes_is_said_in_the_language(tmp_path, capsys, line, en, ru):
    """A table's own copy of an edition whose [options] table holds a value its rules refuse."""
    text = (ROOT / "companion" / "editions" / "classic.toml").read_text(encoding="utf-8")
    assert "\nundo_window = 50\n" in text
    path = edition_file(tmp_path, "ours.toml", text.replace("\nundo_window = 50\n", f"\n{line}\n", 1))
    said = both(capsys, EXIT_BAD_INPUT, "check-edition", str(path))
    assert said["en"] == f"error: {path}: options.undo_window: {en}"
    assert said["ru"] == f"ошибка: {path}: `options.undo_window`: {ru}"
    check_russian(said["ru"], path, "'many'")
