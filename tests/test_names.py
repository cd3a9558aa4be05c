"""Names per language in an edition file (issue 8, the words of the box): `name_en`, `text_ru` ...
beside a name or a card's text; a screen in that language shows it, another falls back to the
file's own words, and `companion check-edition` counts what falls back."""

import random
import re

import pytest
from helpers import edition_variant

from companion import cli
from companion.engine.game import Game
from companion.words.grammar import LATIN_WORDS
from companion.words.messages import render

# The shipped Elite file names everything in English too: the tests take some names away.
NO_CASINO = ('name = "Казино"\nname_en = "Casino"\n', 'name = "Казино"\n')
NO_FOOD = ('name = "Пищевая промышленность"\nname_en = "Food industry"\n', 'name = "Пищевая промышленность"\n')
NO_EDITION = ('name = "Миллионер-Elite"\nname_en = "Millionaire Elite"\n', 'name = "Миллионер-Elite"\n')
NO_F01 = ('text_en = "The first plot of every industry: rent 3."\n', "")


def test_a_name_shows_in_the_screens_language_and_falls_back_to_the_files():
    """leisure3 has an English name: an English screen says "Nightclub", a Russian one «Ночной клуб»;
    leisure2 has none (taken away) and reads as written in both; the edition likewise."""
    rules = edition_variant("elite", replace=[NO_CASINO, NO_EDITION])
    ed = rules.edition
    assert (
        render("offer", {"player": "Anna", "plot": "leisure3", "price": 70}, "en", ed)
        == "Anna may buy Nightclub for 70"
    )
    assert "«Ночной клуб»" in render("offer", {"player": "Anna", "plot": "leisure3", "price": 70}, "ru", ed)
    assert "Казино" in render("offer", {"player": "Anna", "plot": "leisure2", "price": 60}, "en", ed)
    assert "Миллионер-Elite" in render("game_started", {"edition": "elite", "players": ["Anna"]}, "en", ed)
    shipped = edition_variant("elite").edition
    assert "Millionaire Elite" in render("game_started", {"edition": "elite", "players": ["Anna"]}, "en", shipped)


def test_a_command_may_name_a_plot_in_any_of_its_languages():
    """A table types what its screen shows: `build nightclub` and `build "ночной клуб"` are leisure3."""
    rules = edition_variant("elite")
    g = Game.start(rules, 1, ["Anna", "Boris"])
    state = g.state.copy()
    for pid in ("leisure1", "leisure2", "leisure3"):
        state.owner[pid] = "Anna"
    g.state = state
    g.apply("build nightclub")
    assert g.state.level["leisure3"] == 1
    g.apply('build "кинотеатр"')
    assert g.state.level["leisure1"] == 1


def test_check_edition_counts_the_names_that_fall_back(tmp_path, capsys):
    """check-edition says, per language, how many cells, industries and cards have no name in it."""
    from companion.editions import HERE

    source = (HERE / "elite.toml").read_text(encoding="utf-8")
    for old, new in (NO_CASINO, NO_FOOD, NO_F01):
        assert old in source
        source = source.replace(old, new, 1)
    path = tmp_path / "elite-en.toml"
    path.write_text(source, encoding="utf-8")
    assert cli.main(["check-edition", str(path), "--lang", "en"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == (
        "  in en, shown as the file writes them (no name_en / text_en): 1 of 40 cells, 1 of 9 industries, 1 of 50 cards"
    )


# ----- the English boards in Russian (Monopoly, Mad Millionaire): name_ru, text_ru beside every name ------

ENGLISH_BOARDS = ("monopoly", "madmillionaire")
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'.&]+")  # two letters or more: a set's letter (A-G) is a label


def visible_names(ed):
    """(what, text as the file writes it, its Russian form or None) for everything a player reads."""
    yield "edition", ed.name, ed.names.get("ru")
    for ind in ed.industries.values():
        yield f"industry {ind.id}", ind.name, ind.names.get("ru")
    for cell in ed.cells:
        yield f"cell {cell.id}", cell.name, cell.names.get("ru")
    for card in ed.cards.values():
        yield f"card {card.id}", card.text, card.texts.get("ru")


@pytest.mark.parametrize("edition", ENGLISH_BOARDS)
def test_every_visible_name_of_an_english_board_has_a_russian_form(edition):
    """The edition's name, every industry (colour group, building set), cell and card text has `name_ru` /
    `text_ru` written in Cyrillic, with no English word left in it (SOLD and the like excepted)."""
    ed = edition_variant(edition).edition
    bad = []
    for what, english, russian in visible_names(ed):
        if not russian or not CYRILLIC.search(russian):
            bad.append(f"{what}: {english!r} has no Russian form")
        elif set(LATIN_WORD.findall(russian)) - set(LATIN_WORDS):
            bad.append(f"{what}: {russian!r} keeps Latin words")
        elif CYRILLIC.search(english):
            bad.append(f"{what}: the English name {english!r} was changed")
    assert not bad, "\n".join(bad)


def test_monopoly_speaks_russian_with_the_names_of_the_russian_box():
    """docs/editions/monopoly.md, Russian names: the Russian Hasbro board's words, the US streets
    transliterated, the decks named by their cells; English unchanged."""
    ed = edition_variant("monopoly").edition
    ru = {c.id: c.names["ru"] for c in ed.cells}
    assert (ru["go"], ru["chance1"], ru["chest2"], ru["free_parking"], ru["go_to_jail"]) == (
        "ВПЕРЁД",
        "Шанс",
        "Общественная казна",
        "Бесплатная стоянка",
        "Отправляйтесь в тюрьму",
    )
    assert (ru["baltic"], ru["st_charles"], ru["marvin_gardens"], ru["boardwalk"]) == (
        "Балтик-авеню",
        "Сент-Чарльз-плейс",
        "Марвин-Гарденс",
        "Бордуок",
    )
    offer = {"player": "Anna", "plot": "baltic", "price": 60}
    assert render("offer", offer, "ru", ed) == "Anna может купить участок «Балтик-авеню» за 60"
    assert render("offer", offer, "en", ed) == "Anna may buy Baltic Avenue for 60"
    assert render("draw_card", {"player": "Anna", "deck": "chance"}, "ru", ed) == "Anna: возьмите карточку «Шанс»"
    assert render("deck_empty", {"deck": "community_chest"}, "ru", ed) == "Колода «Общественная казна» пуста"
    assert render("draw_card", {"player": "Anna", "deck": "chance"}, "en", ed) == "Anna: draw a Chance card"
    assert render("landed", {"player": "Anna", "cell": "go"}, "ru", ed) == "Anna на клетке ВПЕРЁД"
    assert render("need_monopoly", {"player": "Anna", "industry": "dark_blue"}, "ru", ed).endswith(
        "группой «Тёмно-синяя» без заложенных участков"
    )
    # the Millionaire boards keep their capitalised deck, unquoted
    elite = edition_variant("elite").edition
    assert render("draw_card", {"player": "Anna", "deck": "chance"}, "ru", elite) == "Anna: возьмите карточку ШАНСА"


def test_a_russian_table_may_type_a_russian_name():
    """`buy`/`build` take a cell by any of its names: «Балтик-авеню» is baltic."""
    ed = edition_variant("monopoly").edition
    assert ed.cell("балтик-авеню").id == "baltic"
    assert ed.cell("Бордуок").id == "boardwalk"


def autoplayed_script(edition, tmp_path, events=400, seed=5):
    """A seeded autoplay game of the edition written as a game script (the CLI replays it)."""
    from companion.bots.autoplay import next_command

    rules = edition_variant(edition)
    players = ["Anna", "Boris", "Vera"]
    game = Game.start(rules, seed, players)
    rng = random.Random(seed)
    lines = [f"new {edition} {seed} {' '.join(players)}"]
    while game.state.phase != "over" and len(game.events) < events:
        line, _ = next_command(game, rng)
        if line is None:
            break
        game.apply(line)
        lines.append(line)
    path = tmp_path / f"{edition}.game"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, players, rules.edition


@pytest.mark.parametrize("edition", ENGLISH_BOARDS)
def test_a_russian_cli_game_prints_no_latin_board_name(edition, tmp_path, capsys):
    """`companion --lang ru script -v`: every event's words and the final table, with no English board name
    and no Latin word but the players' names; the same game in English keeps the English names."""
    path, players, ed = autoplayed_script(edition, tmp_path)
    assert cli.main(["--lang", "ru", "script", "-v", str(path)]) == 0
    out = capsys.readouterr().out
    shown = [line for line in out.splitlines() if not line.startswith("#")]  # `#12 buy baltic`: the command
    assert len(shown) > 300
    text = re.sub(r"`[^`]*`", " ", "\n".join(shown))  # a command to type
    for name in players:
        text = text.replace(name, " ")
    latin = sorted(set(LATIN_WORD.findall(text)) - set(LATIN_WORDS))
    assert not latin, latin
    english = sorted({n for _, n, _ in visible_names(ed) if len(n) > 3 and n in out})
    assert not english, english
    russian = {c.names["ru"] for c in ed.cells if c.is_plot and f"«{c.names['ru']}»" in out}
    assert len(russian) >= 10
    assert cli.main(["--lang", "en", "script", "-v", str(path)]) == 0
    out_en = capsys.readouterr().out
    assert not CYRILLIC.search(out_en)
    assert {c.name for c in ed.cells if c.is_plot and c.name in out_en} >= {
        c.name for c in ed.cells if c.names["ru"] in russian
    }


@pytest.mark.parametrize("edition", ENGLISH_BOARDS)
def test_the_oled_words_and_the_editions_list_are_russian(edition, capsys):
    """The box's menus name every cell in Russian («Шанс (после «Вермонт-авеню»)» where three share a name);
    `companion --lang ru editions` lists «Монополия», «Безумный миллионер»."""
    from companion.daemon.menus import cell_words

    rules = edition_variant(edition)
    for cell in rules.edition.cells:
        words = cell_words(rules, cell.id, "ru")
        assert CYRILLIC.search(words) and not set(LATIN_WORD.findall(words)) - set(LATIN_WORDS), words
    assert cli.main(["--lang", "ru", "editions"]) == 0
    listed = dict(line.split(None, 1) for line in capsys.readouterr().out.splitlines())
    assert listed[edition].startswith(rules.edition.names["ru"] + " (")
    assert cli.main(["editions"]) == 0
    listed = dict(line.split(None, 1) for line in capsys.readouterr().out.splitlines())
    assert listed[edition].startswith(rules.edition.name + " (")


@pytest.mark.parametrize("edition", ENGLISH_BOARDS)
def test_check_edition_finds_no_russian_name_missing(edition, capsys):
    """check-edition counts no name falling back to English on a Russian screen."""
    from companion.editions import HERE

    assert cli.main(["check-edition", str(HERE / f"{edition}.toml")]) == 0
    # the ok line and the placeholder counts (issue 23), and no line of names shown as the file writes them
    assert not [line for line in capsys.readouterr().out.splitlines() if "name_ru" in line]


def test_the_phone_board_names_monopolys_plots_in_russian(tmp_path):
    """The phone page's board, asked in Russian: «Балтик-авеню» in the group «Коричневая»; in English
    "Baltic Avenue", "Brown"."""
    from test_phone_views import Phone, config

    from companion.daemon.main import Daemon
    from web.phone import create_phone_app

    daemon = Daemon(config(tmp_path), out=lambda line: None).start()
    try:
        assert daemon.handle({"op": "start", "edition": "monopoly", "players": ["Anna", "Boris"], "seed": 1})["ok"]
        daemon.app = create_phone_app(daemon.phone, SSE_POLL=0.05, SSE_KEEPALIVE=0.2, SSE_RETRY_MS=100)
        pages = {}
        for language in ("ru", "en"):
            page = Phone(daemon, language).join().open("/phone/board").data.decode()
            pages[language] = " ".join(re.sub(r"<[^>]+>", " ", page).split())
        groups = {p["id"]: p["industry"] for p in daemon.phone.board_view("ru")["plots"]}
    finally:
        daemon.stop()
    assert "Балтик-авеню" in pages["ru"] and "Бордуок" in pages["ru"] and groups["baltic"] == "Коричневая"
    assert "Baltic" not in pages["ru"] and "Boardwalk" not in pages["ru"]
    assert "Baltic Avenue" in pages["en"] and "Boardwalk" in pages["en"] and "Балтик" not in pages["en"]
