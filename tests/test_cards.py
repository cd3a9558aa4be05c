"""The card map: a card tagged once is the same player, plot or deck card in every later game; a lost
card is replaced mid-game and the old one then refused with that reason."""

import json

import pytest

from companion.daemon.cards import CardMap, Role, normal_uid
from companion.errors import BadInput


def test_uids_are_read_as_the_reader_sends_them():
    assert normal_uid("04:a1:b2:c3") == "04A1B2C3"
    assert normal_uid("04AABBCCDD1122") == "04AABBCCDD1122"
    for bad in ("", "04A1B2", "04A1B2C3X", "ZZZZZZZZ", "04 A1 B2 C3"):
        with pytest.raises(BadInput):
            normal_uid(bad)


def test_the_map_is_kept_for_the_next_game(tmp_path):
    cards = CardMap(tmp_path / "cards.json")
    cards.enrol("04A1B2C3", Role("player", "1"))
    cards.enrol("04AABBCCDD1122", Role("plot", "p01", "elite"))
    cards.save()
    again = CardMap.load(tmp_path / "cards.json")
    assert again.role("04A1B2C3") == Role("player", "1")
    assert again.role("04AABBCCDD1122") == Role("plot", "p01", "elite")


def test_a_lost_card_is_replaced_and_the_old_one_no_longer_counts(tmp_path):
    cards = CardMap(tmp_path / "cards.json")
    cards.enrol("04A1B2C3", Role("player", "2"))
    lost = cards.enrol("0A0B0C0D", Role("player", "2"))
    assert lost == "04A1B2C3"
    assert cards.role("04A1B2C3") is None and cards.replaced["04A1B2C3"] == "0A0B0C0D"
    assert cards.role("0A0B0C0D") == Role("player", "2")
    cards.save()
    assert CardMap.load(tmp_path / "cards.json").replaced == {"04A1B2C3": "0A0B0C0D"}


def test_a_seat_must_exist(tmp_path):
    cards = CardMap(tmp_path / "cards.json")
    with pytest.raises(BadInput, match="seat from 1 to 8"):
        cards.enrol("04A1B2C3", Role("player", "0"))
    with pytest.raises(BadInput):
        cards.enrol("04A1B2C3", Role("player", "Anna"))


@pytest.mark.parametrize(
    "text",
    [
        "{",
        "[]",
        '{"cards": {"XYZ": {"kind": "player", "ref": "1"}}}',
        '{"cards": {"04A1B2C3": {"kind": "dragon", "ref": "1"}}}',
        "\xff",
    ],
)
def test_a_damaged_map_is_one_line_naming_the_file(tmp_path, text):
    path = tmp_path / "cards.json"
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises(BadInput) as err:
        CardMap.load(path)
    assert str(path) in str(err.value) and "\n" not in str(err.value)


def test_saving_leaves_no_temporary_files(tmp_path):
    cards = CardMap(tmp_path / "cards.json")
    cards.enrol("04A1B2C3", Role("player", "1"))
    cards.save()
    cards.save()
    assert [p.name for p in tmp_path.iterdir()] == ["cards.json"]
    assert json.loads((tmp_path / "cards.json").read_text())["version"] == 1
