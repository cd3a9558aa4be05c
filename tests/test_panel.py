"""The OLED's thread: a receipt after each event (a new one cuts the old short), the box's notices,
the idle carousel of balances, slow dimming when nothing happens, and waking on the next event."""

import threading
import time

import pytest

from companion.daemon.owner import Owner
from companion.daemon.panel import DIM_AFTER_S, PAGE_SECONDS, Panel
from companion.hw.display import Frame, Screen, open_device
from companion.table.service import new_game


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


@pytest.fixture
def panel():
    table = new_game(":memory:", "elite", ["Anna", "Boris"], 1)
    owner = Owner(table).start()
    clock = Clock()
    screen = Screen(open_device("dummy"))
    p = Panel(screen, owner, "ru", clock=clock).start(thread=False)
    yield p, owner, clock
    p.stop()
    owner.stop()


def settle(p, clock, seconds=0.0):
    clock.now += seconds
    for _ in range(3):
        p.step(wait=0.05)


def test_an_event_shows_its_receipt_then_the_carousel_returns(panel):
    p, owner, clock = panel
    settle(p, clock)
    assert p.frame.big == "2\u202f000"  # idle: Anna's balance
    owner.submit("table", "roll 3 4")
    settle(p, clock)
    assert p.frame.title == "#2" and any("выпало 3 и 4" in line for line in p.frame.lines)
    settle(p, clock, PAGE_SECONDS * 3)
    settle(p, clock, PAGE_SECONDS * 3)
    assert p.frame.title != "#2"


def test_a_new_event_interrupts_the_receipt_showing(panel):
    p, owner, clock = panel
    owner.submit("table", "roll 3 4")
    settle(p, clock)
    owner.submit("table", "buy")
    settle(p, clock)
    assert p.frame.title == "#3"


def test_a_notice_is_shown_in_words(panel):
    p, owner, clock = panel
    owner.announce("reader_offline")
    settle(p, clock)
    assert " ".join(p.frame.lines) == "Считыватель не отвечает: проверьте кабель"


def test_idle_dims_slowly_and_the_next_event_wakes_it(panel):
    p, owner, clock = panel
    settle(p, clock)
    settle(p, clock, DIM_AFTER_S + 1)
    dimmed = p.screen.contrast
    settle(p, clock, 60)
    assert p.screen.contrast < dimmed < 255
    owner.submit("table", "roll 3 4")
    settle(p, clock)
    assert p.screen.contrast == 255


def test_the_screen_is_pushed_only_when_the_picture_changes(panel):
    p, owner, clock = panel
    settle(p, clock)
    draws = p.screen.draws
    for _ in range(5):
        p.step(wait=0.01)  # nothing new, no page due
    assert p.screen.draws == draws


def test_a_button_pressed_or_an_event_wakes_the_screen_at_once_not_at_its_next_look(panel):
    """The console's screen changing (a button pressed) and a booking both end the thread's wait: a family
    pressing DOWN through a menu sees each step drawn at once, not at the end of the panel's pause."""
    p, owner, clock = panel
    settle(p, clock)

    class Console:
        frame = Frame(title="Menu", lines=("> Pay",))
        version = 1

    p.console = Console()
    for wake, title in ((p.poke, "Menu"), (lambda: owner.submit("table", "roll 3 4"), "#2")):
        step = threading.Thread(target=p.step, kwargs={"wait": 60.0})
        started = time.monotonic()
        step.start()
        time.sleep(0.05)
        wake()
        step.join(30.0)
        assert not step.is_alive() and time.monotonic() - started < 30.0  # it would have waited 60 s
        assert p.frame.title == title
