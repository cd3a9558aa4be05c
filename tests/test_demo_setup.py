"""`companion demo` starts what it is asked for (issue 22): `--players 6` seats six (the demo's own list of
names had four), and the cards it enrols are the chosen edition's, a file of the table's own included, also
when a later start resumes that game without naming it again. `companion demo` in its own process."""

import json
import re
from pathlib import Path

from test_phone_lasting import demo_run

from companion.table.service import open_game

SHIPPED = Path(__file__).resolve().parent.parent / "companion" / "editions" / "monopoly.toml"


def players_of(folder):
    table = open_game(folder / "demo-games" / "current.sqlite")
    try:
        return list(table.state.players)
    finally:
        table.close()


def test_the_demo_seats_six_players_when_asked(tmp_path):
    said = demo_run(tmp_path, "--players", "6", "--edition", "monopoly")
    assert any(line.startswith("No game in play, so a new one started") for line in said), said
    assert players_of(tmp_path) == ["Anna", "Boris", "Vera", "Gleb", "Dmitry", "Elena"]
    said = demo_run(tmp_path, "--new", "--players", "8", "--edition", "monopoly")  # Monopoly seats eight
    assert len(players_of(tmp_path)) == 8
    said = demo_run(tmp_path, "--new", "--players", "7")  # Elite seats six: said in one line, no traceback
    assert any("7" in line and "6" in line for line in said) and not any("Traceback" in line for line in said), said


def test_the_demo_enrols_the_chosen_editions_cards_from_a_file_of_ones_own(tmp_path):
    """A Monopoly file edited for the box at hand (as monopoly.toml says to), keeping the id "monopoly": the
    card map holds its cards, not the shipped Monopoly's, and still does when `make demo` resumes it."""
    text = SHIPPED.read_text(encoding="utf-8")
    text = re.sub(r'^id = "cc_inherit"$', 'id = "cc_inherit_uk"', text, count=1, flags=re.M)
    assert 'id = "cc_inherit_uk"' in text
    mine = tmp_path / "my-monopoly.toml"
    mine.write_text(text, encoding="utf-8")

    def monopoly_cards():
        cards = json.loads((tmp_path / "demo-games" / "cards.json").read_text())["cards"]
        return {role["ref"] for role in cards.values() if role.get("edition") == "monopoly" and role["kind"] == "card"}

    said = demo_run(tmp_path, "--new", "--edition", str(mine))
    assert any("Monopoly" in line for line in said), said
    assert "cc_inherit_uk" in monopoly_cards() and "cc_inherit" not in monopoly_cards()
    demo_run(tmp_path)  # `make demo` again: the game in play is resumed, and so are its cards
    assert "cc_inherit_uk" in monopoly_cards() and "cc_inherit" not in monopoly_cards()
