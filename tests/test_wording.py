"""Issue 22's smaller stumbles in words, as a family reads them on the OLED and the phone, in English and
Russian: plot names never cut in a list, the Board by industry, plural agreement, no label repeating its
unit, the rulebook's cases and names, one colon where one is meant, an undo hint that fits."""

import re
import sys
from pathlib import Path

import pytest

from companion.daemon.console import Console, ListView, NumberView, UndoView
from companion.editions import load_edition
from companion.hw.display import default_fonts, fits, has_glyphs
from companion.table.service import new_game
from companion.words.messages import render

sys.path.insert(0, str(Path(__file__).parent))
from test_console import Desk, Owner  # noqa: E402
from test_phone_views import ANNA, Phone, play, start_box  # noqa: E402

# Anna buys Машина, «Пейджинговая компания», «Телевизионная компания», «Железнодорожное предприятие»;
# Boris buys two short ones between her turns
LONG_NAMES = [
    "roll 2 3",
    "buy",
    "end",
    "roll 1 2",
    "buy",
    "end",
    "roll 3 4",
    "buy",
    "end",
    "roll 1 3",
    "buy",
    "end",
    "roll 5 6",
    "buy",
    "end",
    "roll 1 3",
    "buy",
    "end",
    "roll 1 3",
    "buy",
]
ANNAS = ["central1", "tele2", "media3", "transport1"]


def console_in(language, tmp_path, monkeypatch, players=("Anna", "Boris")):
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "state"))
    table = new_game(":memory:", "elite", list(players), 1)
    desk = Desk(Owner(table), lang=language)
    console = Console(desk.owner, desk)
    console.sync()
    return table, desk, console


def open_line(console, starts):
    view = console.stack[-1]
    for _ in range(len(view.items) + 1):
        if view.items[view.index].text.startswith(starts):
            console.press("ok")
            return console.stack[-1]
        console.press("down")
    raise AssertionError(f"no line {starts!r} in {[i.text for i in view.items]}")


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_list_of_plots_to_mortgage_shows_every_name_whole(language, tmp_path, monkeypatch):
    """The OLED's mortgage list said «Заложить участок: «Пе…» on every line but the chosen one: the title
    says the verb, each line the plot alone, and a line too long is wrapped, never cut."""
    table, desk, console = console_in(language, tmp_path, monkeypatch)
    for line in LONG_NAMES:
        table.submit(line)
    assert sorted(p for p, o in table.state.owner.items() if o == "Anna") == sorted(ANNAS)
    console.player_card("Anna")
    view = open_line(console, "Mortgage" if language == "en" else "Заложить")
    assert isinstance(view, ListView) and len(view.items) == len(ANNAS)
    ed = table.rules.edition
    names = [ed.cell(p).names.get(language, ed.cell(p).name) for p in ANNAS]
    seen = set()
    for _ in ANNAS:
        frame = console.frame
        assert fits(frame) == [], (frame, fits(frame))
        text = " ".join(line.strip() for line in frame.lines)
        seen |= {name for name in names if name in text}
        verb = "Mortgage" if language == "en" else "Заложить"
        assert verb in frame.title and not any(verb in line for line in frame.lines), frame
        console.press("down")
    assert seen == set(names)


@pytest.mark.parametrize("language, heading", [("en", "Central industry"), ("ru", "Центральная отрасль")])
def test_the_phone_board_groups_plots_by_industry_under_its_name(language, heading, tmp_path):
    """The Board listed 26 plots with no industry: now each industry's plots stand under its name as the
    edition names it, the four central plots (apart on the board) together."""
    box = start_box(tmp_path)
    try:
        play(box, "roll 3 4", "buy")
        page = Phone(box, language).join().open("/phone/board").data.decode()
        ed = box.owner.table.rules.edition
        rows = re.findall(
            r'<tr class="group" data-group="(\w+)"><th colspan="3">([^<]+)</th></tr>'
            r'|<tr id="plot-(\w+)"',
            page,
        )
        groups, current = {}, None
        for group, name, plot in rows:
            if group:
                current = group
                groups[group] = (name, [])
            else:
                groups[current][1].append(plot)
        assert groups["central"] == (heading, ["central1", "central2", "central3", "central4"])
        assert sum(len(plots) for _, plots in groups.values()) == len(ed.plots)
        for ref, (name, plots) in groups.items():
            assert all(ed.cell(p).industry == ref for p in plots)
            assert name == ed.industries[ref].names.get(language, ed.industries[ref].name)
    finally:
        box.stop()


@pytest.mark.parametrize(
    "language, one, many",
    [
        ("en", "First undoes #3, which depends on it", "First undoes #4 and #3, which depend on it"),
        (
            "ru",
            "Сначала отменяется событие #3, зависящее от него",
            "Сначала отменяются события #4 и #3, зависящие от него",
        ),
    ],
)
def test_undo_names_what_depends_on_it_in_agreement_with_how_many(language, one, many, tmp_path, monkeypatch):
    """ "First undoes #19, which depend on it" read wrong for one event: one event, one verb form."""
    table, desk, console = console_in(language, tmp_path, monkeypatch)
    table.submit("roll 3 4")
    table.submit("buy")
    console.sync()
    console.press("back", long=True)
    console.press("down")  # #2, the roll: the purchase #3 depends on it
    assert isinstance(console.stack[-1], UndoView)
    assert one in " ".join(console.frame.lines)
    table.submit("mortgage food1", actor="Anna")
    console.close()
    console.sync()
    console.press("back", long=True)
    console.press("down")
    console.press("down")  # #2 again: the mortgage #4 and the purchase #3 stand on it
    assert many in " ".join(console.frame.lines)


def test_the_phones_undo_page_says_one_event_depends_in_the_singular(tmp_path):
    box = start_box(tmp_path)
    try:
        play(box, "roll 3 4", "buy")
        for language, said in (
            ("en", "Undone first, as it depends on this one: #3"),
            ("ru", "Сначала отменяется событие, зависящее от него: #3"),
        ):
            phone = Phone(box, language).banker()
            text = " ".join(re.sub(r"<[^>]+>", " ", phone.open("/phone/undo?seq=2").data.decode()).split())
            assert said in text
    finally:
        box.stop()


@pytest.mark.parametrize("language, unit", [("en", "share"), ("ru", "акци")])
def test_the_share_picker_does_not_repeat_its_unit(language, unit, tmp_path, monkeypatch):
    """ "Buy shares: shares" above the number: the picker asks how many, once."""
    table, desk, console = console_in(language, tmp_path, monkeypatch)
    console.player_card("Anna")
    view = open_line(console, "Buy shares" if language == "en" else "Покупать акции")
    assert isinstance(view, NumberView)
    title = console.frame.title
    assert title.lower().count(unit) == 1, title
    assert "title" not in fits(console.frame), title  # the question is read whole


def test_a_russian_draw_names_the_deck_in_the_genitive_as_the_rulebook():
    """«возьмите карточку ФОРТУНА» read wrong: the rulebook's «карточки ФОРТУНЫ», «карточки ШАНСА»;
    a Monopoly deck stays named in quotes («Шанс»)."""
    elite = load_edition("elite")
    assert render("draw_card", {"player": "Anna", "deck": "fortune"}, "ru", elite) == "Anna: возьмите карточку ФОРТУНЫ"
    assert render("draw_card", {"player": "Anna", "deck": "chance"}, "ru", elite) == "Anna: возьмите карточку ШАНСА"
    assert render("draw_card", {"player": "Anna", "deck": "fortune"}, "en", elite) == "Anna: draw a FORTUNE card"
    monopoly = load_edition("monopoly")
    assert render("draw_card", {"player": "Anna", "deck": "chance"}, "ru", monopoly) == "Anna: возьмите карточку «Шанс»"


def test_the_phone_says_whose_it_is_with_one_colon_and_the_nav_is_not_the_turn(tmp_path):
    """«Этот телефон: играет: Anna» had two colons; the nav's «Ход» led to the actions while «Ход: Anna»
    says whose turn it is."""
    box = start_box(tmp_path)
    try:
        phone = Phone(box, "ru").join().pair(ANNA)
        page = phone.open("/phone/table").data.decode()
        text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
        assert "Этот телефон: игрок Anna" in text
        role = re.search(r'<span id="role"[^>]*>([^<]*)</span>', page).group(1)
        assert role == "игрок Anna" and ":" not in role
        nav = re.search(r'<a id="nav-act"[^>]*>([^<]+)</a>', page).group(1)
        assert nav == "Действия"
        assert "Ход: Anna" in text  # the turn keeps its word
        assert "Ждём: Anna — бросить кубики" in text  # a dash after «Ждём:», not a second colon
        english = " ".join(
            re.sub(r"<[^>]+>", " ", Phone(box, "en").join().pair(ANNA).open("/phone/table").data.decode()).split()
        )
        assert "This phone: playing as Anna" in english
    finally:
        box.stop()


def test_the_elite_edition_is_named_as_the_russian_rulebook_names_it():
    """«Миллионер Elite» was no name the box has: the rulebook writes «Миллионер-Elite»."""
    elite = load_edition("elite")
    assert elite.name == "Миллионер-Elite"
    assert render("game_started", {"edition": "elite", "players": ["Anna"]}, "ru", elite).startswith(
        "Новая игра «Миллионер-Elite»"
    )


def test_vperyod_is_spelled_with_yo_everywhere_and_the_screen_draws_it():
    """ВПЕРЕД and ВПЕРЁД were mixed: one spelling, ВПЕРЁД, in every catalogue and edition, and the OLED's
    font has the letter."""
    root = Path(__file__).parent.parent
    files = [
        *root.glob("companion/**/*.py"),
        *root.glob("companion/**/*.toml"),
        *root.glob("web/**/*.py"),
        *root.glob("web/templates/**/*.html"),
        *root.glob("web/static/*.js"),
    ]
    for path in files:
        assert not re.search("ВПЕРЕД|Вперед|вперед", path.read_text(encoding="utf-8")), path
    monopoly = load_edition("monopoly")
    assert monopoly.cell("go").names["ru"] == "ВПЕРЁД"
    fonts = default_fonts()
    assert has_glyphs(fonts.text, "ВПЕРЁД ещё") == [] and has_glyphs(fonts.big, "Ёё") == []


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_undo_hint_fits_the_screen(language, tmp_path, monkeypatch):
    """The Russian hint under an undo was cut to «▲▼ — д…»."""
    table, desk, console = console_in(language, tmp_path, monkeypatch)
    table.submit("roll 3 4")
    console.sync()
    console.press("back", long=True)
    frame = console.frame
    assert isinstance(console.stack[-1], UndoView) and frame.footer
    assert "footer" not in fits(frame), frame.footer
    assert "▲▼" in frame.footer and "OK" in frame.footer


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize(
    "verb, what",
    [
        ("buy_shares", "shares"),
        ("sell_shares", "shares"),
        ("commission", "shares"),
        ("commission", "fee"),
        ("opening", "amount"),
        ("jackpot", "bet"),
        ("pay", "amount"),
        ("bid", "amount"),
    ],
)
def test_every_number_pickers_title_is_read_whole(verb, what, language):
    """A picker's title is one line in the inverse band: «Покупать акции через маклера: маклеру» was cut
    (and said the broker twice); each reads whole, its unit said once."""
    from companion.daemon import menus
    from companion.engine.actions import Action, Span

    action = Action(verb, ("Anna", Span(1, 20, what)), "Anna")
    title = menus.picker_title(action, 1, language)
    assert "title" not in fits(NumberView(title, Span(1, 20, what), lambda v: None, lang=language).frame()), title
    assert not re.search(r"(\w{4,}).*\b\1", title.lower()), title  # no word said twice
