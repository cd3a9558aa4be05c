"""The box's menus as a family meets them: a player's card, two cards to pay, one press for a choice
the table waits for, undo with what depends on it, a new game from the buttons alone, words only."""

import os
import re
import sys
from pathlib import Path

import pytest

from companion.daemon import menus
from companion.daemon.console import NAMES, Console, ListView, NumberView, TextView, UndoView
from companion.daemon.screens import money
from companion.editions import load_edition, rules_for, shipped
from companion.engine.command import Command
from companion.hw.display import fits, wrap
from companion.table.service import new_game

sys.path.insert(0, str(Path(__file__).parent))
from candidates import samples  # noqa: E402


class Owner:
    def __init__(self, table):
        self.table = table


class Desk:
    """The daemon's part, booking on a real in-memory ledger."""

    def __init__(self, owner, lang="en"):
        self.owner, self.lang, self.muted = owner, lang, False
        self.booked, self.started, self.paired = [], [], []

    def book(self, actor, command):
        self.booked.append(self.owner.table.submit(command, actor=actor))
        return True

    def undo_chain(self, order):
        for seq in order:
            self.book("table", Command("undo", (str(seq),)))

    def new_game(self, edition, players, options):
        self.started.append((edition, players, options))

    def end_game(self):
        self.book("table", Command("end_game"))

    def archive_game(self):
        pass

    def enrol_wait(self, kind, ref):
        self.started.append(("enrol", kind, ref))

    def set_muted(self, muted):
        self.muted = muted

    def phone_url(self):
        return "http://192.168.178.23:8080/phone/#code=K7QX2M"  # the address phones reach (issue 25)

    def phone_name_address(self):
        return "companion.local:8080"

    def has_address(self):
        return True

    def hotspot_qr(self):
        return "", "", ""

    def power_off(self):
        self.powered_off = getattr(self, "powered_off", 0) + 1

    def table_code(self):
        return "K7QX2M"

    pairing = ""  # the code of a phone waiting to pair (the daemon's phone service)

    def pairing_code(self):
        return self.pairing

    def pair_phone(self, code, player):
        self.paired.append((code, player))
        self.pairing = ""

    def head_words(self):
        return self.owner.table.head_words(self.lang)

    def editions(self):
        return [(e, load_edition(e).names.get(self.lang, load_edition(e).name)) for e in sorted(shipped())]

    def edition_rules(self, edition):
        return rules_for(load_edition(edition))

    jackpot = None

    def jackpot_ready(self, player, bet):
        self.jackpot = (player, bet)

    # issue 22: the table set up from the box
    banker_pin = ""

    def has_banker_pin(self):
        return bool(self.banker_pin)

    def set_banker_pin(self, pin):
        self.banker_pin = pin

    def set_language(self, lang):
        self.lang = lang

    def player_count(self):
        return 4

    def player_names(self, count):
        return list(NAMES[self.lang][:count])


@pytest.fixture
def box(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "state"))
    table = new_game(":memory:", "elite", ["Anna", "Boris"], 1)
    owner = Owner(table)
    desk = Desk(owner)
    console = Console(owner, desk)
    console.sync()
    return table, desk, console


def shown(console):
    """The lines on the screen now, title first."""
    frame = console.frame
    return [frame.title, *frame.lines] if frame else []


def choose(console, text):
    """Move to the line that starts with `text` (reading the screen as a person does) and press OK."""
    view = console.stack[-1]
    for _ in range(len(view.items) + 1):
        if view.items[view.index].text.startswith(text):
            console.press("ok")
            return
        console.press("down")
    raise AssertionError(f"no line {text!r} in {[i.text for i in view.items]}")


def test_a_players_card_shows_their_balance_and_what_they_may_do(box):
    table, desk, console = box
    console.player_card("Anna")
    assert console.frame.title == f"Anna: {money(table.state.cash('Anna'))}"
    items = [i.text for i in console.stack[-1].items]
    assert "Propose a trade: Boris…" in items and "Pay: Boris…" in items
    assert not any("_" in text or "None" in text for text in items)


def test_a_phone_waiting_to_pair_is_bound_only_when_the_cards_player_chooses_it(box):
    """docs/phone.md: a player card tapped while a phone waits opens that player's menu as always (a tap
    to pay or to act is never swallowed); the phone is theirs only if they choose its line, first."""
    table, desk, console = box
    desk.pairing = "417"
    console.player_card("Anna")
    items = [i.text for i in console.stack[-1].items]
    assert items[0] == "Phone 417 is mine" and "Pay: Boris…" in items  # the menu as always, the phone first
    console.press("back")
    assert desk.paired == []  # a tap and a look: nothing bound
    console.player_card("Boris")
    console.press("ok")
    assert desk.paired == [("417", "Boris")]
    desk.pairing = ""
    console.player_card("Anna")
    assert "Phone 417 is mine" not in [i.text for i in console.stack[-1].items]


def test_two_player_cards_pay_the_second_from_the_first_after_a_confirmation(box):
    """Rulebook (Elite, «Расчёты между игроками»): players pay each other; nobody types the amount into a
    calculator: the buttons step it and the screen shows the payment before it is booked."""
    table, desk, console = box
    console.player_card("Anna")
    console.player_card("Boris")
    assert isinstance(console.stack[-1], NumberView)
    # a round amount of the step to start from (issue 22: 1 with a step of 50 went 51, 101 ...)
    assert console.frame.title == "Pay: Anna → Boris" and console.frame.big == "50"
    console.press("up", long=True)  # the step ten times coarser
    console.press("up")
    console.press("down", long=True)  # and finer again
    console.press("up")
    amount = console.stack[-1].value
    console.press("ok")
    assert console.frame.title == "Book this?" and console.frame.lines == (f"Anna pays Boris {amount}",)
    assert desk.booked == []  # nothing before OK
    console.press("ok")
    event = desk.booked[-1]
    assert (event.actor, event.command) == ("Anna", f"pay Anna Boris {amount}")
    assert console.frame is None or console.frame.title != "Book this?"


def test_back_leaves_a_confirmation_without_booking(box):
    table, desk, console = box
    console.player_card("Anna")
    console.player_card("Boris")
    console.press("ok")
    console.press("back")
    console.press("back")
    assert desk.booked == [] and table.head_seq == 1


def test_the_plot_on_offer_comes_up_by_itself_named_with_its_price_and_ok_shows_the_purchase_first(box):
    """Rulebook (Elite, «Покупка участка»): the player on an unowned plot may buy it at its price. Issue 22:
    the line names the plot and its price, and OK shows what will be booked before a second OK books it."""
    table, desk, console = box
    table.submit("roll 3 4")
    console.sync()
    assert console.stack and console.stack[-1].by_itself
    words = " ".join(" ".join(console.frame.lines).split())
    assert console.frame.title == "Anna" and "Anna: Buy the plot, Chocolate factory for 90" in words
    console.press("ok")
    assert desk.booked == [] and isinstance(console.stack[-1], TextView)
    assert "Anna buys Chocolate factory for 90" in " ".join(" ".join(console.frame.lines).split())
    console.press("ok")
    assert desk.booked[-1].command == "buy" and table.state.pending is None


def test_declining_the_plot_on_offer_stays_one_press_and_the_auction_shows_its_leading_bid(box):
    """A decline moves no money: one press. The auction it opens shows its lead on the OLED, live."""
    table, desk, console = box
    table.submit("roll 3 4")
    console.sync()
    choose(console, "Anna: Decline")
    assert desk.booked[-1].command == "decline"
    console.sync()
    words = " ".join(" ".join(console.frame.lines).split())
    assert "no bids yet" in words, console.frame
    table.submit("bid Boris 120")
    console.sync()
    words = " ".join(" ".join(console.frame.lines).split())
    assert "leading bid: Boris, 120" in words, console.frame


def test_undo_shows_what_it_reverses_and_undoes_what_depends_on_it_first(box):
    """docs/undo.md: a later event that depends on the one undone is undone first, newest first."""
    table, desk, console = box
    table.submit("roll 3 4")
    table.submit("buy")
    console.sync()
    console.press("back", long=True)
    assert isinstance(console.stack[-1], UndoView)
    assert console.frame.title.startswith("Undo #3?")
    console.press("down")  # the roll, which the purchase depends on
    text = " ".join(console.frame.lines)
    assert console.frame.title.startswith("Undo #2?")
    assert "First undoes #3" in text and "Put back" in " ".join(
        line for seq in (3, 2) for line in menus.undo_plan(table, 2, "en").lines
    )
    console.press("ok")
    assert [e.command for e in desk.booked] == ["undo 3", "undo 2"]
    assert table.state.position["Anna"] == 0 and table.state.cash("Anna") == 2000


def test_an_undo_the_engine_refuses_says_why_and_ok_does_nothing(box):
    table, desk, console = box
    console.press("back", long=True)
    assert console.frame.lines == tuple(wrap("Nothing to undo"))
    console.press("ok")
    assert desk.booked == []


def test_a_new_game_with_the_buttons_alone(tmp_path, monkeypatch):
    owner = Owner(None)
    desk = Desk(owner, "ru")
    console = Console(owner, desk)
    console.press("ok")  # the table's menu
    choose(console, "Игра")
    choose(console, "Новая игра")
    choose(console, "Монополия")  # which game (the English board has Russian names: name_ru)
    console.press("down")
    console.press("ok")  # one player fewer than offered
    choose(console, "Варианты правил")  # the options, folded under one line
    choose(console, "Копилка")  # a house rule: the FREE PARKING pot (a yes/no, flipped by OK)
    console.press("back")
    choose(console, "Начать игру")
    ((edition, players, options),) = desk.started
    assert edition == "monopoly" and players == ["Аня", "Борис", "Вера"] and options == {"free_parking_pot": True}


def test_sound_off_and_on_from_the_game_menu(box):
    table, desk, console = box
    console.press("ok")
    choose(console, "Game")
    choose(console, "Sound off")
    assert desk.muted
    choose(console, "Sound on")
    assert not desk.muted


def test_the_ledger_words_are_on_the_screen(box):
    table, desk, console = box
    console.press("ok")
    choose(console, "Game")
    choose(console, "Ledger words")
    assert isinstance(console.stack[-1], TextView) and table.head_words("en") in " ".join(console.frame.lines)


def test_an_event_from_elsewhere_closes_a_menu_built_on_the_old_state(box):
    table, desk, console = box
    console.player_card("Anna")
    table.submit("roll 3 4")  # booked meanwhile from a phone or the command line
    console.sync()
    assert console.stack[-1].by_itself  # the old menu is gone; the new choice is up


@pytest.mark.parametrize("edition", sorted(shipped()))
@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_menu_line_is_words_and_whole_on_the_screen_when_chosen(edition, language, tmp_path, monkeypatch):
    """Every line of every player's and the table's menu in sampled moments of real games: no id, no
    underscore, no None, and the chosen line drawn whole (wrapped, never cut) within 128x64."""
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "state"))
    rules = rules_for(load_edition(edition))
    ids = set(rules.edition.plots) | set(rules.edition.cards) | {c.id for c in rules.edition.cells}
    ids = {i for i in ids if re.search(r"\d|_", i)}  # "auction" is a cell's id and an English word too
    for sample in samples(edition)[:12]:
        table = new_game(":memory:", edition, list(sample.players), sample.seed)
        table.game.state = sample.state  # the menus read the state alone
        owner = Owner(table)
        console = Console(owner, Desk(owner, language))
        views = [console.table_menu()] + [console.player_menu(p) for p in sample.state.players]
        for view in views:
            assert isinstance(view, ListView)
            for i, item in enumerate(view.items):
                words = set(re.findall(r"[\w-]+", item.text))
                assert not words & ids and "_" not in item.text and "None" not in item.text, (sample.where(), item.text)
                view.index = i
                frame = view.frame()
                chosen = frame.lines[frame.selected :]
                whole = " ".join(part.strip() for part in chosen)
                assert item.text.replace(" ", "") in whole.replace(" ", ""), (sample.where(), item.text, frame)
                assert not [cut for cut in fits(frame) if cut in (f"lines[{frame.selected}]", "title")], (
                    sample.where(),
                    frame,
                )


def test_the_phone_page_menu_shows_its_address_as_a_qr_code_that_fits(box):
    table, desk, console = box
    console.press("ok")
    choose(console, "Game")
    choose(console, "Phone page")
    frame = console.frame
    assert frame.qr == desk.phone_url() and "qr" not in fits(frame)
    # a phone whose camera cannot read the screen types the code instead
    assert "Code: K7QX2M" in frame.lines and fits(frame) == []


def test_undo_after_a_power_cut_reaches_the_events_before_it(tmp_path, monkeypatch):
    """docs/undo.md: the undo window is rebuilt from the ledger when the box starts again."""
    from companion.table.service import open_game

    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "state"))
    path = str(tmp_path / "game.sqlite")
    table = new_game(path, "elite", ["Anna", "Boris"], 1)
    table.submit("roll 3 4")
    table.submit("buy")
    table.close()  # the plug is pulled; the ledger is all that is left
    table = open_game(path)
    owner = Owner(table)
    desk = Desk(owner)
    console = Console(owner, desk)
    console.press("back", long=True)
    assert console.frame.title.startswith("Undo #3?")
    console.press("ok")
    assert desk.booked[-1].command == "undo 3" and table.state.pending is not None
    table.close()


REF = Path(__file__).parent / "display_ref"


def console_screens(box):
    """The box's own screens at a typical moment, as a family sees them (for review and regression)."""
    table, desk, console = box
    table.submit("roll 3 4")
    console.sync()
    yield "console_waiting", console.frame  # the plot on offer, up by itself
    console.press("back")
    console.player_card("Anna")
    yield "console_player", console.frame
    console.player_card("Boris")
    console.press("up")
    yield "console_pay", console.frame
    console.press("ok")
    yield "console_confirm", console.frame
    console.press("back", long=True)
    console.press("down")
    yield "console_undo", console.frame


def test_the_console_screens_match_their_reference_pictures(box):
    """Reference pictures in tests/display_ref/console_*.png (RECORD_DISPLAY=1 records them: look at them)."""
    from PIL import Image

    from companion.hw.display import Screen, open_device

    screen = Screen(open_device("dummy"))
    for name, frame in console_screens(box):
        assert fits(frame) == [], (name, frame)
        screen.show(frame)
        path = REF / f"{name}.png"
        if os.environ.get("RECORD_DISPLAY") == "1":
            screen.image.save(path)
        assert path.exists(), f"no {path}: record it with RECORD_DISPLAY=1 and look at it"
        with Image.open(path) as stored:
            assert stored.convert("1").tobytes() == screen.image.tobytes(), f"{name} differs from {path}"


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_menu_phrase_fits_with_the_longest_names(language):
    """Every phrase of the box's menus, filled with the longest names a game allows, wraps within the
    screen: nothing is cut."""
    from companion.words.messages import MENU, render

    long = "Ш" * 20 if language == "ru" else "Maximilianus" + "W" * 8
    values = {
        "player": long,
        "payer": long,
        "payee": long,
        "a": long,
        "b": long,
        "n": 8,
        "of": 50,
        "seq": 1234,
        "events": "#1230, #1231, #1232, #1233",
        "amount": "1\u202f000\u202f000",
        "step": "10\u202f000",
        "number": 12,
        "what": "Roll for the AUCTION",
        "edition": "Millionaire Deluxe",
        "url": "http://x/",
        "name": long,
        "before": long,
        "letters": "K7QX2M",
    }
    for code in MENU[language]:
        for line in wrap(render(code, values, language)):
            assert fits(TextView(code, [line]).frame()) == [], (code, line)


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("edition", shipped())
def test_every_cell_of_the_landing_list_reads_differently(edition, language):
    """With the table's own dice the landing is picked from a list of cells: four CHANCE cells must not
    read the same, so each of a name shared is also named by the nearest cell before it of its own."""
    from companion.daemon.menus import cell_words

    rules = rules_for(load_edition(edition))
    shown = [cell_words(rules, cell.id, language) for cell in rules.cells]
    assert len(set(shown)) == len(shown), [w for w in shown if shown.count(w) > 1]
    assert all("_" not in w and "None" not in w for w in shown)


@pytest.mark.parametrize(
    "language, pay, mortgage",
    [
        ("en", "Boris → Anna: payment…", "Anna: Mortgage a plot, Chocolate factory"),
        ("ru", "Boris → Anna: платёж…", "Anna: Заложить участок, «Шоколадная фабрика»"),
    ],
)
def test_a_menu_line_with_a_players_name_has_one_colon(language, pay, mortgage):
    """Issue 23: never "Boris: Pay: Anna"; a name is kept as typed, so the line needs no case on it."""
    from companion.engine.actions import Action, Span

    table = new_game(":memory:", "elite", ["Anna", "Boris"], 1)
    paying = Action("pay", ("Boris", "Anna", Span(1, 100, "amount")), party="Boris")
    assert menus.action_words(table.rules, table.state, paying, language) == pay
    pledging = Action("mortgage", ("food1",), party="Anna")
    assert menus.action_words(table.rules, table.state, pledging, language) == mortgage
    # with the title naming the player, the line is as before: "Pay: Anna…"
    assert menus.action_words(table.rules, table.state, paying, language, party=False).count(":") == 1
