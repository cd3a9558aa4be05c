"""Number pickers that help (issue 22): they start at a round amount of their step (or what is owed), UP and
DOWN go from round number to round number, and the step's size is on the screen, said anew when a hold
changes it."""

import sys
from pathlib import Path

import pytest

from companion.daemon.console import NumberView
from companion.engine.actions import Span
from companion.table.service import new_game

sys.path.insert(0, str(Path(__file__).parent))
from console_driver import console_over, shown_number, shown_step  # noqa: E402


def pay_picker(lang="en"):
    table = new_game(":memory:", "elite", ["Anna", "Boris"], 1)
    console, _ = console_over(table, lang)
    console.player_card("Anna")
    console.player_card("Boris")  # a second player's card: Anna pays Boris
    view = console.stack[-1]
    assert isinstance(view, NumberView)
    return console, view


def test_pay_starts_at_a_round_amount_and_steps_between_round_amounts():
    console, view = pay_picker()
    frame = view.frame()
    step = shown_step(frame)
    assert step > 1 and shown_number(frame) % step == 0  # not 1, whose next steps were 51, 101 ...
    console.press("up")
    console.press("up")
    assert shown_number(view.frame()) % step == 0
    console.press("down")
    assert shown_number(view.frame()) == 2 * step


@pytest.mark.parametrize("lang, said", [("en", "Step now ±"), ("ru", "Теперь шаг ±")])
def test_a_hold_that_changes_the_step_says_so(lang, said):
    console, view = pay_picker(lang)
    step = shown_step(view.frame())
    console.press("up", long=True)
    lines = " ".join(view.frame().lines)
    assert said in lines and shown_step(view.frame()) == step * 10
    console.press("up")
    assert said not in " ".join(view.frame().lines)  # said once, then the step line as ever
    assert shown_step(view.frame()) == step * 10


def test_a_picker_from_an_unround_value_steps_to_round_ones():
    view = NumberView("Shares", Span(1, 40), lambda v: None, value=5)
    assert shown_step(view.frame()) == 1
    view.press(None, "down", False)
    assert view.value == 4  # a step of one is one: five shares become four, never three
    wide = NumberView("Bid", Span(10, 2000), lambda v: None)
    assert wide.value == 50 and shown_step(wide.frame()) == 50
    wide.value = 66
    wide.press(None, "up", False)
    assert wide.value == 100
    wide.press(None, "down", False)
    wide.press(None, "down", False)
    assert wide.value == 10  # the low bound holds
