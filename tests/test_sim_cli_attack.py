"""`companion sim` and `companion bench sim` as a tired table member mistypes them: every bad
argument is one line in the chosen language (English or Russian) with the exit code of
docs/exit-codes.md, found before any game is played (no study thrown away), never a traceback;
--json stays valid JSON; Ctrl-C in a run of several processes leaves one line and no worker behind."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import cli_run

from companion.errors import EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("en", "ru")
CYRILLIC = set("абвгдеёжзийклмнопрстуфхцчшщъыьэюя")


def one_line(result, expected_code):
    code, out, err = result
    lines = err.strip().splitlines()
    assert code == expected_code, err
    assert len(lines) == 1, err
    assert "Traceback" not in err and out == ""
    return lines[0]


def said(capsys, *argv, code=EXIT_BAD_INPUT):
    """The one line in each language, with its exit code."""
    return {lang: one_line(cli_run(capsys, "--lang", lang, *argv), code) for lang in LANGS}


def russian(line: str) -> bool:
    """The line after its label is worded in Russian (not an English sentence under a Russian label)."""
    words = line.split(":", 1)[1]
    return sum(c in CYRILLIC for c in words.lower()) >= 12


@pytest.fixture
def no_games(monkeypatch):
    """Fails the test if any game is played: a bad argument must be caught before the study runs."""
    import companion.cli.sim as command

    def play(*_a, **_k):
        raise AssertionError("games were played before the bad argument was found")

    monkeypatch.setattr(command, "play", play)


def test_an_unknown_edition_is_said_in_the_chosen_language(capsys, no_games):
    line = said(capsys, "sim", "monopolly", "--games", "2")
    assert "monopolly" in line["en"] and "monopoly" in line["en"]
    assert line["ru"].startswith("ошибка:") and "monopolly" in line["ru"] and russian(line["ru"])


@pytest.mark.parametrize("flag", ["--option", "--compare"])
def test_an_unknown_option_key_names_the_flag_not_the_edition_file(capsys, no_games, flag):
    line = said(capsys, "sim", "monopoly", "--games", "2", flag, "free_parkng_pot=true")
    for lang in LANGS:
        assert flag in line[lang] and "free_parkng_pot" in line[lang]
        assert "free_parking_pot" in line[lang]  # the close match is offered
        assert ".toml" not in line[lang]  # the table typed it, no file holds it
    assert russian(line["ru"])


def test_a_russian_key_is_an_unknown_option_said_in_russian(capsys, no_games):
    line = said(capsys, "sim", "monopoly", "--games", "2", "--option", "парковка=да")
    assert "парковка" in line["ru"] and russian(line["ru"]) and ".toml" not in line["ru"]
    assert "'" not in line["ru"].split("парковка")[0][-2:]  # the key as typed, not a repr


def test_a_bad_option_value_is_said_with_the_flag(capsys, no_games):
    line = said(capsys, "sim", "monopoly", "--games", "2", "--option", "free_parking_pot=maybe")
    for lang in LANGS:
        assert "--option" in line[lang] and "maybe" in line[lang] and ".toml" not in line[lang]
    assert russian(line["ru"])


def test_compare_without_equals_names_compare(capsys, no_games):
    line = said(capsys, "sim", "monopoly", "--games", "2", "--compare", "free_parking_pot")
    assert line["en"].startswith("error: --compare ") and "--option" not in line["en"]
    assert line["ru"].startswith("ошибка: --compare ")


def test_compare_of_one_game_is_refused_before_playing(capsys, no_games):
    """One pair gives no interval (it was printed as [-inf .. inf] and --json wrote Infinity)."""
    line = said(capsys, "sim", "monopoly", "--games", "1", "--compare", "free_parking_pot=true")
    assert "--compare" in line["en"] and "2" in line["en"]
    assert russian(line["ru"])


def test_compare_json_is_valid_strict_json(capsys):
    code, out, err = cli_run(
        capsys, "sim", "monopoly", "--games", "2", "--round-cap", "30", "--compare", "free_parking_pot=true", "--json"
    )
    assert code == EXIT_OK, err
    data = json.loads(out, parse_constant=lambda c: pytest.fail(f"{c} in --json output"))
    assert set(data) == {"summary", "compare"}
    assert data["compare"]["measures"]["rounds"]["pairs"] == 2


def test_more_strategies_than_seats_is_refused(capsys, no_games):
    """A strategy named but given to no seat would silently not play."""
    line = said(
        capsys, "sim", "monopoly", "--games", "2", "--players", "2", "--strategy", "balanced", "cautious", "aggressive"
    )
    assert "aggressive" in line["en"] or "3" in line["en"]
    assert russian(line["ru"])


def test_charts_into_an_existing_file_is_found_before_the_games(capsys, tmp_path, no_games):
    target = tmp_path / "notes.txt"
    target.write_text("keep me\n", encoding="utf-8")
    line = said(capsys, "sim", "monopoly", "--games", "2", "--charts", str(target))
    assert str(target) in line["en"] and line["ru"].startswith("ошибка:")
    assert target.read_text(encoding="utf-8") == "keep me\n"


def test_many_more_jobs_than_games_start_no_more_processes_than_games(monkeypatch):
    import multiprocessing

    from companion.sim.runner import Study, play_many

    sizes = []
    real = multiprocessing.get_context

    class Spy:
        def __init__(self):
            self.ctx = real()

        def Pool(self, n, *a, **k):  # noqa: N802 (multiprocessing's name)
            sizes.append(n)
            return self.ctx.Pool(n, *a, **k)

    monkeypatch.setattr(multiprocessing, "get_context", lambda *a: Spy())
    records = play_many(Study("monopoly", games=2, round_cap=10), jobs=100)
    assert [r.seed for r in records] == [1, 2] and sizes == [2]


def test_ctrl_c_during_a_run_of_two_jobs_is_one_line_and_leaves_no_worker():
    env = {**os.environ, "COMPANION_LANG": "en"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "sim", "monopoly", "--games", "5000", "--jobs", "2"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,
    )
    kids: list[str] = []
    try:
        deadline = time.monotonic() + 90  # generous: a loaded 2-core CI machine
        while len(kids) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
            kids = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
        assert len(kids) == 2, "the two workers never started"
        time.sleep(0.5)  # mid-game
        os.killpg(proc.pid, signal.SIGINT)  # a terminal's Ctrl-C reaches the whole group
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    text = err.decode()
    assert proc.returncode == 130, text
    assert text.strip() == "interrupted", text  # no worker's traceback, no "Process ForkPoolWorker"
    assert out == b""  # no partial summary passed off as the study
    time.sleep(0.5)
    assert not [k for k in kids if Path(f"/proc/{k}").exists()], "a worker outlived the command"


def test_the_same_study_twice_and_with_two_jobs_prints_the_same_json(capsys):
    runs = [
        cli_run(capsys, "sim", "monopoly", "--games", "4", "--seed", "5", "--round-cap", "60", "--json", "--jobs", jobs)
        for jobs in ("1", "1", "2")
    ]
    assert all(code == EXIT_OK for code, _, _ in runs)
    assert runs[0][1] == runs[1][1] == runs[2][1]


# ----- bench sim -----------------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [["--games", "0"], ["--games", "-3"], ["--repeats", "0"]])
def test_bench_sim_refuses_nothing_to_measure(capsys, argv):
    """--games 0 was a ZeroDivisionError (exit 70); -3 printed negative games/s as a result."""
    line = said(
        capsys, "bench", "sim", "--edition", "monopoly", "--games", "1", "--repeats", "1", *argv, code=EXIT_USAGE
    )
    assert argv[0] in line["en"] and argv[1] in line["en"]
    assert russian("x:" + line["ru"])
    # labelled as every other command line mistake is (exit 2)
    assert line["en"].startswith("usage: ") and line["ru"].startswith("ошибка в командной строке: ")


def test_bench_sim_bad_peer_and_edition_in_russian(capsys, tmp_path):
    afile = tmp_path / "peer.txt"
    afile.write_text("", encoding="utf-8")
    for peer in (tmp_path / "nowhere", afile, tmp_path):
        line = said(capsys, "bench", "sim", "--games", "1", "--peer", str(peer), code=EXIT_USAGE)
        assert str(peer) in line["ru"] and russian("x:" + line["ru"])
    line = said(capsys, "bench", "sim", "--games", "1", "--edition", "monopolly", code=EXIT_USAGE)
    assert "monopolly" in line["ru"] and russian("x:" + line["ru"])


@pytest.mark.parametrize(
    "argv",
    [["web", "--pages", "0"], ["web", "--peer", "/tmp"], ["table", "--edition", "elite"], ["table", "--peer", "/tmp"]],
)
def test_bench_web_and_table_say_what_they_would_ignore(capsys, argv):
    """--pages 0 was measured as one page, and a sim-only --peer or --edition was dropped without a word."""
    line = said(capsys, "bench", *argv, code=EXIT_USAGE)
    assert argv[1] in line["en"] and russian("x:" + line["ru"])
    assert line["en"].startswith("usage: ")
