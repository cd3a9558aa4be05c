"""What the OLED shows: every event of a game, in every edition and both languages, with six players
of the longest names the rules allow, fits 128x64 whole (wrapped and paged, never cut); the idle
carousel shows each player's balance in big digits."""

import random

import pytest

from companion.bots.autoplay import next_command
from companion.daemon.screens import IDLE_SECONDS, idle_frames, money, notice_frames, player_frame, receipt_frames
from companion.editions import shipped
from companion.engine.core import MAX_NAME
from companion.hw.display import fits, wrap
from companion.table.service import new_game
from companion.words.messages import BOX

LONG = {
    "en": ["Maximilianus" + "W" * (MAX_NAME - 12), "Bartholomew-Jones", "Wilhelmina", "Ann", "Bo", "Quentin"],
    "ru": ["Ш" * MAX_NAME, "Константинопольская", "Александра", "Ёж", "Щукин", "Жозефина"],
}


def test_money_is_grouped_by_thousands():
    shown = (money(13750), money(200), money(-1250), money(1000000))
    # a thin no-break space: wrapping never separates 13 from 750
    assert shown == ("13\u202f750", "200", "-1\u202f250", "1\u202f000\u202f000")
    assert wrap("Anna pays " + money(13750)) and all(
        "\u202f" not in line or "13\u202f750" in line for line in wrap("x " * 60 + money(13750))
    )


@pytest.mark.parametrize("edition", sorted(shipped()))
@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_event_of_a_game_fits_the_screen_whole(edition, language):
    players = LONG[language][:6]
    table = new_game(":memory:", edition, players[: _max_players(edition)], 5)
    rng = random.Random(5)
    for _ in range(80):
        line, _ = next_command(table.game, rng)
        if line is None:
            break
        event = table.submit(line)
        for frame in receipt_frames(table.rules, table.state, event, language):
            assert fits(frame) == [], (event.command, frame)
        for frame in idle_frames(table.rules, table.state, language):
            assert fits(frame) == [], (event.command, frame)


def _max_players(edition):
    from companion.editions import load_edition

    return min(6, load_edition(edition).players_max)


def test_the_idle_carousel_shows_each_balance_whose_turn_and_the_table():
    """Six players and the table's page come round within 13.5 s; all six balances are on the first page
    (issue 22: they took 10.5 s, one big-digit page each), then each in big digits."""
    table = new_game(":memory:", "elite", ["Anna", "Boris", "Vera", "Gleb", "Dana", "Egor"], 1)
    frames = idle_frames(table.rules, table.state, "ru")
    assert frames[0].lines == (
        "▶ Anna: " + money(2000),
        *(f"{name}: {money(2000)}" for name in ["Boris", "Vera", "Gleb", "Dana", "Egor"]),
    )
    assert (frames[1].title, frames[1].big) == ("▶ Anna", money(2000))
    assert [f.title for f in frames[2:7]] == ["Boris", "Vera", "Gleb", "Dana", "Egor"]
    table_page = " ".join(frames[7].lines)
    assert "курс акций: 100" in table_page and "Ход: Anna" in table_page
    assert len(frames) * IDLE_SECONDS <= 13.5


def test_three_players_need_no_summary_page():
    table = new_game(":memory:", "elite", ["Anna", "Boris", "Vera"], 1)
    frames = idle_frames(table.rules, table.state, "en")
    assert [f.title for f in frames[:3]] == ["▶ Anna", "Boris", "Vera"]


def test_a_name_too_long_for_the_title_goes_whole_under_the_digits():
    frame = player_frame("Ш" * MAX_NAME, 13750, True)
    assert (
        frame.big == money(13750)
        and "".join(frame.lines).replace(" ", "") == "▶" + "Ш" * MAX_NAME
        and fits(frame) == []
    )


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_line_the_box_says_fits(language):
    samples = {
        "uid": "04AABBCCDD1122",
        "role": "участок «Автомобильный завод»",
        "lost": "0A0B0C0D",
        "seat": 8,
        "count": 6,
        "info": "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6614103e7000000-if00",
        "ours": "1",
        "player": LONG[language][0],
        "plot": "Автомобильный завод",
        "card": "f03",
        "why": "the balances do not sum to zero after event 1234",
        "folder": "/var/lib/companion",
        "path": "/var/lib/companion/archive/2026-11-23-101500-elite.sqlite",
        "pid": 4242,
        "socket": "/run/companion/companion.sock",
    }
    from companion.words.messages import render

    for code in BOX[language]:
        for frame in notice_frames(render(code, samples, language)):
            assert fits(frame) == [], (code, frame)
