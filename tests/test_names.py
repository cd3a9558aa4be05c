"""Names per language in an edition file (issue 8, the words of the box): `name_en`, `text_ru` ...
beside a name or a card's text; a screen in that language shows it, another falls back to the
file's own words, and `companion check-edition` counts what falls back."""
from helpers import edition_variant

from companion import cli
from companion.engine.game import Game
from companion.messages import render

OIL3 = ('id = "oil3"\nkind = "plot"\nname = "НПЗ"', 'id = "oil3"\nkind = "plot"\nname = "НПЗ"\nname_en = "Oil refinery"')
OIL = ('name = "Нефть и газ"', 'name = "Нефть и газ"\nname_en = "Oil and gas"')
EDITION = ('name = "Миллионер Elite"', 'name = "Миллионер Elite"\nname_en = "Millionaire Elite"')


def test_a_name_shows_in_the_screens_language_and_falls_back_to_the_files():
    """oil3 has an English name: an English screen says "Oil refinery", a Russian one «НПЗ»;
    oil2 has none and reads as written in both; the edition and the industry likewise."""
    rules = edition_variant("elite", replace=[OIL3, OIL, EDITION])
    ed = rules.edition
    assert render("offer", {"player": "Anna", "plot": "oil3", "price": 120}, "en", ed) == \
        "Anna may buy Oil refinery for 120"
    assert "«НПЗ»" in render("offer", {"player": "Anna", "plot": "oil3", "price": 120}, "ru", ed)
    assert ed.cell("oil2").name in render("offer", {"player": "Anna", "plot": "oil2", "price": 100}, "en", ed)
    assert "Millionaire Elite" in render("game_started", {"edition": "elite", "players": ["Anna"]}, "en", ed)


def test_a_command_may_name_a_plot_in_any_of_its_languages():
    """A table types what its screen shows: `build "oil refinery"` is oil3."""
    rules = edition_variant("elite", replace=[OIL3])
    g = Game.start(rules, 1, ["Anna", "Boris"])
    state = g.state.copy()
    for pid in ("oil1", "oil2", "oil3"):
        state.owner[pid] = "Anna"
    g.state = state
    g.apply('build "oil refinery"')
    assert g.state.level["oil3"] == 1


def test_check_edition_counts_the_names_that_fall_back(tmp_path, capsys):
    """check-edition says, per language, how many cells, industries and cards have no name in it."""
    from companion.editions import HERE
    source = (HERE / "elite.toml").read_text(encoding="utf-8")
    for old, new in (OIL3, OIL):
        source = source.replace(old, new, 1)
    path = tmp_path / "elite-en.toml"
    path.write_text(source, encoding="utf-8")
    assert cli.main(["check-edition", str(path), "--lang", "en"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == ("  in en, shown as the file writes them (no name_en / text_en): "
                        "39 of 40 cells, 8 of 9 industries, 50 of 50 cards")
