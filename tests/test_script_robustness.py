"""Script files of any content (companion/table/script.py): read_script reads bytes (UTF-8, a byte
order mark dropped, "-" for standard input) and run_script ends in success or one ScriptError
line naming the file, the line and the problem. Never a ValueError, KeyError or traceback,
whatever the file holds: bad `expect` arguments, broken lines, random bytes, truncated or
damaged copies of the shipped scenarios (tests/scenarios/**.game)."""

import io
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import CompanionError
from companion.table.script import ScriptError, read_script, run_script

SCENARIOS = sorted((Path(__file__).parent / "scenarios").rglob("*.game"))
GAME = """new elite 7 Anna Boris
roll 1 2                 # Anna: START -> leisure3 (price 70)
buy
expect cash Anna 1930
"""


def script_error(text):
    """The ScriptError the script ends in; its message is one line."""
    with pytest.raises(ScriptError) as info:
        run_script(text, "t.game")
    message = str(info.value)
    assert "\n" not in message and message.startswith("t.game:"), message
    return info.value


# ----- expect lines with bad arguments ----------------------------------------------------------


@pytest.mark.parametrize(
    "line, words",
    [
        ("expect cash Anna abc", "'abc' is not a whole number"),
        ("expect cash Anna １８８０", "not a whole number"),
        ("expect cash Anna 1930.0", "not a whole number"),
        ("expect cash Zed 0", "no account named Zed"),
        ("expect cash", "usage: expect cash ACCOUNT N"),
        ("expect cash Anna 1930 1", "usage: expect cash ACCOUNT N"),
        ("expect level", "usage: expect level PLOT N"),
        ("expect level leisure3 x", "not a whole number"),
        ("expect level nowhere 0", "no plot called nowhere"),
        ("expect level start 0", "no plot called start"),
        ("expect held A", "usage: expect held PLAYER ITEM N"),
        ("expect held Zed shares 0", "no player named Zed"),
        ("expect held Anna shares -1", "not a whole number"),
        ("expect owner nowhere Anna", "no plot called nowhere"),
        ("expect owner leisure3 Zed", "no player named Zed"),
        ("expect position Zed start", "no player named Zed"),
        ("expect position Anna nowhere", "no cell called nowhere"),
        ("expect turn Zed", "no player named Zed"),
        ("expect debt Zed 0", "no player named Zed"),
        ("expect debt Anna 1e3", "not a whole number"),
        ("expect mortgaged nowhere no", "no plot called nowhere"),
        ("expect mortgaged leisure3 maybe", "must be yes or no"),
        ("expect detained Zed no", "no player named Zed"),
        ("expect alive Anna 1", "must be yes or no"),
        ("expect", "expect what?"),
        ("expect refused", "usage: expect refused"),
        ("expect frobnicate 1", "unknown expectation 'frobnicate'"),
    ],
)
def test_bad_expect_arguments_are_a_script_error(line, words):
    exc = script_error(GAME + line + "\n")
    assert exc.line_no == 5 and words in exc.problem, exc.problem


def test_good_expectations_still_pass():
    table = run_script(
        GAME
        + "\n".join(
            [
                "expect cash anna 1930",  # names match case-insensitively
                "expect cash BANK -4130",  # negative: -(2 x 2000 + 200 JACKPOT) + 70
                "expect owner leisure3 ANNA",
                "expect owner 3 Anna",  # a plot by its index
                "expect position Anna leisure3",
                "expect level leisure3 0",
                "expect held Anna shares 0",
                "expect turn Anna",
                "expect debt Boris 0",
                "expect mortgaged leisure3 no",
                "expect alive Boris yes",
                "expect winner none",
                "expect refused:usage pay Anna Boris 1 000",
                'expect refused:unknown_player pay "Anna Maria" Boris 5',
            ]
        )
        + "\n",
        "t.game",
    )
    table.close()


def test_a_failed_expectation_names_file_line_and_difference():
    exc = script_error(GAME + "expect cash Boris 1999\n")
    assert str(exc) == "t.game:5: `expect cash Boris 1999`: Boris has 2000, expected 1999"


# ----- broken lines ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line, words",
    [
        ('pay "Anna Boris 5', "is never closed"),
        ("pay Anna\tBoris 5", "U+0009"),
        ("pay Anna Boris 5\x0c", "U+000C"),  # a form feed does not split the line
        ("roll 1 2 " + "#" * 300, "at most 200"),
        ("pay Anna Boris 1 000", "refused: Usage: pay PLAYER PLAYER AMOUNT"),
        ("pay Anna Boris +5", "must be a number"),
    ],
)
def test_a_broken_line_is_a_script_error_at_its_line(line, words):
    exc = script_error(GAME + line + "\n")
    assert exc.line_no == 5 and words in exc.problem, exc.problem


def test_control_characters_are_shown_escaped_and_long_lines_cut():
    exc = script_error(GAME + "pay Anna\x1b[31m Boris 5\n")
    assert "\x1b" not in str(exc) and "\\x1b" in str(exc)
    exc = script_error(GAME + "x" * 500 + "\n")
    assert len(str(exc)) < 200


def test_line_numbers_count_newlines_only():
    # \r\n ends a line as \n does; a lone \r or a form feed is not a line break (editors agree)
    exc = script_error(GAME.replace("\n", "\r\n") + "expect cash Anna 1\r\n")
    assert exc.line_no == 5


def test_a_script_without_a_game():
    assert "holds no game" in script_error("# nothing\n\n").problem
    assert "must start with" in script_error("roll 1 2\n").problem
    assert "one game" in script_error(GAME + GAME).problem


# ----- read_script --------------------------------------------------------------------------------


def test_read_script_drops_a_byte_order_mark(tmp_path):
    path = tmp_path / "bom.game"
    path.write_bytes(b"\xef\xbb\xbf" + GAME.encode())
    text = read_script(str(path))
    assert text == GAME
    run_script(text, str(path)).close()


def test_read_script_names_the_offset_of_invalid_utf8(tmp_path):
    path = tmp_path / "latin1.game"
    path.write_bytes(b"\xef\xbb\xbf" + GAME.encode() + "expect cash Vera 0 # Vera \u00e9".encode("latin-1"))
    with pytest.raises(ScriptError) as info:
        read_script(str(path))
    offset = 3 + len(GAME.encode()) + len("expect cash Vera 0 # Vera ")
    assert f"byte offset {offset}" in str(info.value) and "0xe9" in str(info.value)
    assert info.value.line_no == 5 and "\n" not in str(info.value)


def test_read_script_reads_standard_input_for_a_dash(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xef\xbb\xbf" + GAME.encode())))
    assert read_script("-") == GAME


@pytest.mark.parametrize(
    "make",
    [
        lambda tmp: str(tmp / "missing.game"),
        lambda tmp: str(tmp),  # a directory
        lambda tmp: str(tmp / "a\x00b"),  # no such name can exist
    ],
)
def test_read_script_turns_a_read_failure_into_one_line(tmp_path, make):
    path = make(tmp_path)
    with pytest.raises(ScriptError) as info:
        read_script(path)
    assert "\n" not in str(info.value) and "cannot read" in str(info.value)


# ----- fuzz: whatever the bytes, success or a ScriptError ------------------------------------------


def run_bytes(data):
    """read_script + run_script on a file holding these bytes: True if it ran, False if refused."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.game"
        path.write_bytes(data)
        try:
            table = run_script(read_script(str(path)), str(path))
        except (ScriptError, CompanionError) as exc:
            assert str(exc) and "Traceback" not in str(exc)
            return False
        table.close()
        return True


FUZZ = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_the_shipped_scenarios_run():
    assert len(SCENARIOS) >= 20 and all(run_bytes(p.read_bytes()) for p in SCENARIOS)


@FUZZ
@given(st.binary(max_size=3000))
def test_random_bytes(data):
    run_bytes(data)


@FUZZ
@given(st.sampled_from(SCENARIOS), st.text(max_size=300))
def test_random_text_after_a_real_game(path, tail):
    run_bytes(path.read_bytes() + tail.encode("utf-8", "surrogatepass"))


@FUZZ
@given(st.sampled_from(SCENARIOS), st.floats(0, 1))
def test_truncated_scenarios(path, where):
    data = path.read_bytes()
    run_bytes(data[: int(len(data) * where)])


@FUZZ
@given(
    st.sampled_from(SCENARIOS),
    st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(1, 255)), min_size=1, max_size=4),
)
def test_scenarios_with_flipped_bytes(path, flips):
    data = bytearray(path.read_bytes())
    for where, mask in flips:
        data[int(len(data) * where)] ^= mask
    run_bytes(bytes(data))


WORDS = st.sampled_from(
    [
        "0",
        "1",
        "6",
        "7",
        "-1",
        "+5",
        "1_000",
        "１",
        '"',
        '"x y"',
        "#",
        "Anna",
        "Boris",
        "bank",
        "none",
        "leisure3",
        "start",
        "double",
        "give",
        "get",
        "expect",
        "new",
        "undo",
        "dice=3",
        "x" * 250,
        "9" * 40,
    ]
)


@FUZZ
@given(
    st.sampled_from(SCENARIOS),
    st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(0, 8), WORDS), min_size=1, max_size=3),
)
def test_scenarios_with_words_added(path, changes):
    lines = path.read_text(encoding="utf-8").split("\n")
    for where, at, word in changes:
        i = int(len(lines) * where)
        words = lines[i].split(" ")
        words.insert(min(at, len(words)), word)
        lines[i] = " ".join(words)
    run_bytes("\n".join(lines).encode("utf-8"))
