"""The reference games in docs/transcripts/ (issue 8, the words of the box): each transcript is what
`companion script -v --lang LANG` prints for its game script today, so any change of words shows
up here as a diff to read, and `make transcripts` writes the new text once it has been read."""

from pathlib import Path

import pytest

from companion import cli

HERE = Path(__file__).parent.parent / "docs" / "transcripts"


@pytest.mark.parametrize("name, language", [("elite-ru", "ru"), ("monopoly-en", "en")])
def test_the_transcript_is_what_the_game_script_prints(name, language, capsys):
    """A whole Elite game in Russian and a whole Monopoly game in English, word for word."""
    code = cli.main(["script", "-v", "--lang", language, str(HERE / f"{name}.game")])
    out = capsys.readouterr().out
    assert code == 0
    expected = (HERE / f"{name}.txt").read_text(encoding="utf-8")
    assert out == expected, f"docs/transcripts/{name}.txt differs: read the change, then `make transcripts`"


def test_the_russian_transcript_has_no_latin_outside_the_command_lines():
    """Every line a player reads (the notes and the state, not the `#N command` lines) is Russian:
    only the edition's brand name (Elite) is written in Latin letters."""
    text = (HERE / "elite-ru.txt").read_text(encoding="utf-8")
    read = [line for line in text.splitlines() if not line.startswith("#")]
    latin = [line for line in read if any("a" <= ch.lower() <= "z" for ch in line.replace("Elite", ""))]
    assert latin == []
