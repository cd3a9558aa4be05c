"""Names per language in an edition file (issue 8, the words of the box): `name_en`, `text_ru` ...
beside a name or a card's text; a screen in that language shows it, another falls back to the
file's own words, and `companion check-edition` counts what falls back."""
from helpers import edition_variant

from companion import cli
from companion.engine.game import Game
from companion.messages import render

# The shipped Elite file names everything in English too: the tests take some names away.
NO_CASINO = ('name = "Казино"\nname_en = "Casino"\n', 'name = "Казино"\n')
NO_FOOD = ('name = "Пищевая промышленность"\nname_en = "Food industry"\n', 'name = "Пищевая промышленность"\n')
NO_EDITION = ('name = "Миллионер Elite"\nname_en = "Millionaire Elite"\n', 'name = "Миллионер Elite"\n')
NO_F01 = ('text_en = "The first plot of every industry: rent 3."\n', '')


def test_a_name_shows_in_the_screens_language_and_falls_back_to_the_files():
    """leisure3 has an English name: an English screen says "Nightclub", a Russian one «Ночной клуб»;
    leisure2 has none (taken away) and reads as written in both; the edition likewise."""
    rules = edition_variant("elite", replace=[NO_CASINO, NO_EDITION])
    ed = rules.edition
    assert render("offer", {"player": "Anna", "plot": "leisure3", "price": 70}, "en", ed) == \
        "Anna may buy Nightclub for 70"
    assert "«Ночной клуб»" in render("offer", {"player": "Anna", "plot": "leisure3", "price": 70}, "ru", ed)
    assert "Казино" in render("offer", {"player": "Anna", "plot": "leisure2", "price": 60}, "en", ed)
    assert "Миллионер Elite" in render("game_started", {"edition": "elite", "players": ["Anna"]}, "en", ed)
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
    assert lines[1] == ("  in en, shown as the file writes them (no name_en / text_en): "
                        "1 of 40 cells, 1 of 9 industries, 1 of 50 cards")
