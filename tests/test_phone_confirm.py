"""Issue 22, points 4 and 5 on the phone: a money action's line names what it books (the plot and its price,
an offer's terms), the page's form shows what will be booked and a second tap books it (a roll or an end of
turn stays one tap); an auction's leading bid is in every phone's header, and the box's quiet clock starts
at the first bid or the host's opening price, never at the decline."""

import re

import pytest
from test_phone_views import ANNA, BORIS, Phone, box, cash, head, play, text_of

from companion.daemon import menus
from companion.engine.actions import Action
from companion.engine.command import Command

__all__ = ["box"]


def act_lines(page):
    """The lines of the Act page a person reads (the hidden confirmation's words left out)."""
    return re.findall(r'<p class="what">([^<]*)</p>', page.data.decode())


def test_buy_and_build_name_the_plot_and_the_price_in_both_languages(box):
    play(box, "roll 3 4")
    anna = Phone(box).join().pair(ANNA)
    assert "Buy the plot: Chocolate factory for 90" in act_lines(anna.open("/phone/act"))
    russian = Phone(box, language="ru").join().pair(ANNA)
    assert "Купить участок: «Шоколадная фабрика» за 90" in act_lines(russian.open("/phone/act"))
    # a build's line (offered once the whole group is Anna's) names its price as the rules set it
    table = box.owner.table
    line = box.owner.call(
        lambda: menus.action_words(table.rules, table.state, Action("build", ("food1",), "Anna"), "en", party=False)
    )
    assert line == f"Build: Chocolate factory for {table.rules.edition.plots['food1'].build_cost}"
    ru = box.owner.call(
        lambda: menus.action_words(table.rules, table.state, Action("build", ("food1",), "Anna"), "ru", party=False)
    )
    assert ru == f"Строить: «Шоколадная фабрика» за {table.rules.edition.plots['food1'].build_cost}"


def test_the_pages_form_shows_what_it_books_and_the_second_tap_books_it(box):
    play(box, "roll 3 4")
    anna = Phone(box).join().pair(ANNA)
    before, money = head(box), cash(box, "Anna")
    first = anna.act("buy", step="preview")
    assert first.status_code == 200 and first.json["preview"] is True
    assert first.json["lines"] == ["Anna buys Chocolate factory for 90"]
    assert head(box) == before and cash(box, "Anna") == money  # nothing booked yet
    second = anna.act("buy", step="preview", confirm=first.json["confirm"])
    assert second.status_code == 200 and "preview" not in second.json
    assert head(box) == before + 1 and cash(box, "Anna") == money - 90


def test_a_payment_changed_after_its_preview_is_previewed_again_not_booked(box):
    anna = Phone(box).join().pair(ANNA)
    before = head(box)
    first = anna.act("pay", "Anna", "Boris", "100", step="preview")
    assert first.json["lines"] == ["Anna pays Boris 100"] and head(box) == before
    changed = anna.act("pay", "Anna", "Boris", "1000", step="preview", confirm=first.json["confirm"])
    assert changed.json["preview"] is True and changed.json["lines"] == ["Anna pays Boris 1000"]
    assert head(box) == before
    refused = anna.act("pay", "Anna", "Boris", "999999", step="preview")
    assert refused.status_code == 409 and head(box) == before  # the rules' refusal, in one line, at once


def test_a_roll_stays_one_tap(box):
    anna = Phone(box).join().pair(ANNA)
    before = head(box)
    assert anna.act("roll", "3", "4", step="preview").status_code == 200
    assert head(box) == before + 1


def test_accepting_an_offer_names_its_terms_in_both_languages(box):
    play(box, "roll 3 4", "buy", "Anna: trade Anna Boris give food1 get 100")
    boris = Phone(box).join().pair(BORIS)
    lines = act_lines(boris.open("/phone/act"))
    assert "Accept the offer: #4 (Anna gives Boris Chocolate factory for 100)" in lines, lines
    assert not any("offer 4 (Anna)" in line for line in lines)
    russian = Phone(box, language="ru").join().pair(BORIS)
    lines = act_lines(russian.open("/phone/act"))
    assert "Принять предложение: № 4 (Anna → Boris: «Шоколадная фабрика» в обмен на 100)" in lines, lines
    assert not any("предложение: предложение" in line for line in lines)
    first = boris.act("accept", "4", step="preview")
    assert first.json["preview"] is True and "Chocolate factory" in " ".join(first.json["lines"])
    assert box.owner.table.state.owner["food1"] == "Anna"  # not yet: the terms are read first
    assert boris.act("accept", "4", step="preview", confirm=first.json["confirm"]).status_code == 200
    assert box.owner.table.state.owner["food1"] == "Boris"


def test_every_phones_header_shows_the_auctions_leading_bid(box):
    play(box, "roll 3 4", "decline")
    watcher, russian = Phone(box).join(), Phone(box, language="ru").join()
    assert "no bids yet (opening price" in text_of(watcher.open("/phone/table"))
    play(box, "bid Boris 120")
    assert "leading bid: Boris, 120" in text_of(watcher.open("/phone/table"))
    assert "высшая ставка: Boris, 120" in text_of(russian.open("/phone/board"))
    live = watcher.open("/phone/table?part=live")  # what a phone's live refresh swaps in after each event
    assert "leading bid: Boris, 120" in text_of(live)


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def auctioneer(box):
    """The box's auctioneer driven by hand on a clock of the test's own (its thread stopped)."""
    service = box.phone
    service.auctioneer._stop.set()
    service.auctioneer._watcher.join(5.0)
    clock = Clock()
    service.clock = clock
    box.config.values["phone.auction_quiet_seconds"] = 30.0

    def after(seconds):
        clock.now += seconds
        for _ in range(3):  # a round notices the event, the next ones count the quiet
            service.auctioneer.round()

    return after


def hammered(box):
    return any(e.command == "hammer" for e in box.owner.table.game.events)


def test_the_quiet_clock_waits_for_the_first_bid_not_the_decline(box, auctioneer):
    play(box, "roll 3 4", "decline")
    auctioneer(0)
    auctioneer(120)  # four quiet times with nobody bidding yet: the phones may still be waking up
    assert not hammered(box) and box.owner.table.state.pending.kind == "auction"
    play(box, "bid Boris 60")
    auctioneer(0)
    auctioneer(31)
    assert hammered(box) and box.owner.table.state.owner["food1"] == "Boris"


def test_the_quiet_clock_starts_when_the_host_sets_the_opening_price(box, auctioneer):
    play(box, "roll 3 4", "decline", "opening 50")
    auctioneer(0)
    auctioneer(31)
    assert hammered(box) and "food1" not in box.owner.table.state.owner  # closed with no bids, as announced


def test_the_host_still_closes_an_auction_nobody_bid_in(box, auctioneer):
    play(box, "roll 3 4", "decline")
    auctioneer(0)
    box.owner.submit("table", Command("hammer"))
    auctioneer(0)
    assert hammered(box) and box.owner.table.state.pending is None
