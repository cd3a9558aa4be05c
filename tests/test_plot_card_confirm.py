"""A plot card tapped on the reader books its purchase only after a confirmation (issue 22: every money action
on the box shows what will be booked before it is): the OLED shows the plot and its price, OK books it, BACK
books nothing; the same card tapped again shows the same confirmation, never a second one under it. Rent
stays 0 presses. The real daemon on simulated hardware, in-process."""

import pytest
from test_phone_views import config, head, press_button, tap_card

from companion.daemon.main import Daemon, wait_for

PLOT_UID = "04A10000000001"


@pytest.fixture(params=["en", "ru"])
def box(request, tmp_path):
    daemon = Daemon(config(tmp_path, language=request.param), out=lambda line: None).start()
    assert daemon.handle({"op": "start", "edition": "elite", "players": ["Anna", "Boris"], "seed": 1})["ok"]
    daemon.owner.submit("Anna", "roll 3 4")  # Anna lands on the Chocolate factory, on offer for 90
    plot = daemon.owner.table.state.pending.plot
    assert daemon.handle({"op": "enrol", "kind": "plot", "ref": plot, "uid": PLOT_UID})["ok"]
    yield daemon
    daemon.stop()


def screen(daemon):
    frame = daemon.owner.call(lambda: daemon.console.frame)
    return " ".join([frame.title, *frame.lines, frame.footer]) if frame is not None else ""


WORDS = {
    "en": ("Book this?", "Anna buys Chocolate factory for 90", "OK: yes"),
    "ru": ("Записать?", "Anna покупает участок «Шоколадная фабрика» за 90", "OK — да"),
}


def test_the_plot_card_shows_the_purchase_and_ok_books_it(box):
    seq, cash = head(box), box.owner.table.state.cash("Anna")
    tap_card(box, PLOT_UID)
    shown = screen(box)
    assert all(words in shown for words in WORDS[box.lang]), shown  # the plot and its price, before booking
    assert head(box) == seq and box.owner.table.state.owner.get("food1") is None
    tap_card(box, PLOT_UID)  # the same card again: the same confirmation, still nothing booked
    assert head(box) == seq and sum(1 for v in box.console.stack if WORDS[box.lang][0] in v.frame().title) == 1
    press_button(box, "ok")
    assert wait_for(lambda: head(box) == seq + 1)
    event = box.owner.table.game.events[-1]
    assert (event.actor, event.command) == ("Anna", "buy")
    assert box.owner.table.state.cash("Anna") == cash - 90


def test_back_on_the_plot_cards_confirmation_books_nothing(box):
    seq = head(box)
    tap_card(box, PLOT_UID)
    press_button(box, "back")
    assert head(box) == seq and box.owner.table.state.pending is not None
    assert WORDS[box.lang][0] not in screen(box)
