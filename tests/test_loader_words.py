"""Every refusal of the edition loader is said in words in Russian and English (issue 23, point 2).

A shipped edition is damaged one way per kind of mistake and loaded; the refusal must be a coded
EditionProblem whose Russian line leaks no English problem words (only the file's own words: keys,
ids, values, lists of what is allowed), and whose English line is what the loader always said.
"""

import ast
import copy
import re
import tomllib
from pathlib import Path

import pytest
from test_phone_views import Phone, start_box

from companion.editions import HERE, edition_from_data
from companion.errors import EditionError, EditionProblem
from companion.words import messages

ENGINE = Path(__file__).resolve().parent.parent / "companion" / "engine"
DEL = object()


def data_of(edition: str) -> dict:
    with open(HERE / f"{edition}.toml", "rb") as f:
        return tomllib.load(f)


def put(data: dict, path: str, value) -> None:
    """Set (or with DEL remove) the value at a dotted path; numbers index lists."""
    *head, last = [int(p) if p.isdigit() else p for p in path.split(".")]
    for step in head:
        data = data[step]
    if value is DEL:
        del data[last]
    else:
        data[last] = value


def deal_min(d):
    d["options"]["start_deal"] = 10
    d["edition"]["start_cash"] = 100


# (edition, {path: value}): one mistake each, the code the loader says it with
DAMAGES = [
    ("elite", {"edition.players_min": "two"}, "edition_whole"),
    ("elite", {"cells.1.price": -5}, "edition_range"),
    ("elite", {"cells.1.rent": "many"}, "edition_kind_list"),
    ("madmillionaire", {"options.face_up": [2, 2, 2, 3, 4, "x"]}, "edition_whole"),
    ("elite", {"cells.1.name": 7}, "edition_kind_text"),
    ("madmillionaire", {"extra.streets.0.name": 5}, "edition_text"),
    ("elite", {"cells.1.name": "  "}, "edition_empty"),
    ("elite", {"cells.1.id": "a b"}, "edition_ref"),
    ("elite", {"options.undo_window": "fifty"}, "edition_option_whole"),
    ("elite", {"options.bank_pays_twice": True}, "edition_unknown_option"),
    ("elite", {"buildings": 5}, "edition_kind_table"),
    ("elite", {"cells.1": 5}, "edition_table"),
    ("elite", {"edition.start_cash": DEL}, "edition_missing"),
    ("elite", {"cells.1.industry": 5}, "edition_kind_text"),
    ("elite", {"decks.chance.0.effects": "x"}, "edition_kind_list"),
    ("elite", {"cells.1.colour": "red"}, "edition_unknown_key"),
    ("elite", {"box": {"base": "Elite!"}}, "edition_box_base"),
    ("elite", {"box": {"confirmed": ["cells..x!"]}}, "edition_box_mark"),
    ("elite", {"edition.id": "Elite Box"}, "edition_id"),
    ("elite", {"edition.language": "russian!"}, "edition_language"),
    ("elite", {"edition.players_min": 6, "edition.players_max": 3}, "edition_players"),
    ("elite", {"supply.gold": 5}, "edition_supply"),
    ("elite", {"cells.2.id": "leisure1"}, "edition_twice"),
    ("elite", {"cells.1.kind": "casino"}, "edition_cell_kind"),
    ("elite", {"cells.1.industry": "moon"}, "edition_no_industry"),
    ("elite", {"cells.1.rent": [4, 8]}, "edition_rent_count"),
    ("elite", {"cells.1.tax": [4, 8]}, "edition_tax_count"),
    ("elite", {"cells.1.mortgage": 500}, "edition_mortgage"),
    ("elite", {"cells.0.industry": "leisure"}, "edition_industry_plots"),
    ("elite", {"cells.0.kind": "free"}, "edition_first_start"),
    ("elite", {"decks.chance": []}, "edition_deck_empty"),
    ("elite", {"decks.chance.0.effects": ["receive"]}, "edition_effect_table"),
    ("elite", {"decks.chance.0.effects": [{"do": "fly_to_moon"}]}, "edition_effect"),
    ("elite", {"decks.chance.0.effects": [{"do": "receive"}]}, "edition_effect_needs"),
    ("elite", {"decks.chance.0.effects": [{"do": "receive", "amount": 5, "colour": 1}]}, "edition_effect_arg"),
    ("elite", {"decks.chance.0.effects": [{"do": "move_to", "cell": "moon"}]}, "edition_move_to"),
    ("elite", {"decks.chance.0.effects": [{"do": "receive", "amount": 5, "from": "moon"}]}, "edition_account"),
    ("elite", {"cells.0.deck": "chance"}, "edition_deck_only_card"),
    ("elite", {"cells.1.extra_key": 5}, "edition_unknown_key"),
    ("elite", {"extra": {"nonsense": 1}}, "edition_extra_none"),
    ("elite", {"options.central_industry": "moon"}, "edition_not_industry"),
    ("elite", {"options.central_industry": "leisure"}, "edition_side_central"),
    (
        "elite",
        {"decks.fortune.0.effects.0.plots": DEL, "decks.fortune.0.effects.0.industry": "moon"},
        "edition_not_industry",
    ),
    ("elite", {"decks.fortune.0.effects": [{"do": "receive", "amount": 5}]}, "edition_fortune_effect"),
    ("elite", {"decks.fortune.0.effects.0.plots": "fourth"}, "edition_ordinal"),
    ("elite", {"decks.fortune.0.effects.0.industry": "leisure"}, "edition_plot_selector"),
    ("elite", {"slot.reels": [["a"]]}, "edition_reels"),
    ("elite", {"slot.wins": 5}, "edition_wins"),
    ("elite", {"slot.wins.0": 5}, "edition_win_table"),
    ("elite", {"slot.wins.0.combo": ["a"]}, "edition_combo"),
    ("elite", {"slot.wins.0.amount": 5}, "edition_win_kind"),
    ("elite", {"slot.wins.0.jackpot": False}, "edition_win_jackpot"),
    ("elite", {"slot.colour": 1}, "edition_unknown_key_of"),
    ("monopoly", {"slot": {"reels": []}}, "edition_no_slot"),
    ("monopoly", {"buildings.large_returns_small": False}, "edition_hotel"),
    ("monopoly", {"options.hotel_after_houses": 9}, "edition_hotel_after"),
    ("classic", {"options.movement_deck": "moves"}, "edition_movement_deck"),
    ("classic", {"cells.1.rent": [5, 11, 25, 60, 125, 175]}, "edition_monopoly_rent"),
    ("deluxe", {"extra.rating_places": "x"}, "edition_rating_places"),
    ("madmillionaire", {"options.sale_faces": ["half"]}, "edition_sale_faces"),
    ("madmillionaire", {"extra.lease": 5}, "edition_lease_table"),
    ("madmillionaire", {"extra.lease.park": 5}, "edition_lease_plot"),
    ("madmillionaire", {"extra.lease.a1": 10**9}, "edition_lease_dear"),
    ("madmillionaire", {"extra.rows": 5}, "edition_rows"),
    ("madmillionaire", {"extra.rows.0": ["a1"]}, "edition_row_short"),
    ("madmillionaire", {"extra.rows.0": ["a1", "park"]}, "edition_row_plot"),
    ("madmillionaire", {"extra.rows.0": ["a1", "a1"]}, "edition_row_self"),
    ("madmillionaire", {"extra.streets": 5}, "edition_streets"),
    ("madmillionaire", {"extra.streets.0.cells": ["home"]}, "edition_street_short"),
    ("madmillionaire", {"extra.streets.0.colour": "red"}, "edition_unknown_key_of"),
    ("madmillionaire", {"extra.streets.0.cells": ["home", "moon"]}, "edition_not_cell"),
    ("madmillionaire", {"extra.streets.0.one_way": "yes"}, "edition_bool"),
    ("madmillionaire", {"decks.stunt.0.effects.0.cell": "start"}, "edition_landmark"),
    ("madmillionaire", {"decks.stunt.0.effects": [{"do": "stunt", "cell": "park"}] * 2}, "edition_stunt_effect"),
]


def broken(edition: str, changes: dict) -> EditionError:
    data = copy.deepcopy(data_of(edition))
    for path, value in changes.items():
        put(data, path, value)
    with pytest.raises(EditionError) as caught:
        edition_from_data(data, "broken.toml", "")
    return caught.value


def leaked_english(line: str, params: dict) -> list[str]:
    """Latin words of a Russian line that are not the file's own (its keys, ids, values and lists)."""
    for value in sorted((str(v) for v in params.values()), key=len, reverse=True):
        line = line.replace(value, " ")
    line = re.sub(r"`[^`]*`", " ", line)
    return re.findall(r"[A-Za-z]{2,}", line)


@pytest.mark.parametrize("edition, changes, code", DAMAGES, ids=[f"{d[2]}-{d[0]}" for d in DAMAGES])
def test_each_mistake_is_said_in_russian_and_english(edition, changes, code):
    exc = broken(edition, changes)
    assert isinstance(exc, EditionProblem) and exc.code == code, f"{exc!r}: {exc}"
    assert str(exc).startswith(f"broken.toml: {exc.key}: ") and exc.problem in str(exc)
    ru = messages.render_error(exc, "ru")
    assert "\n" not in ru and ru != str(exc)
    assert not leaked_english(ru, exc.params), ru


def raised_codes() -> dict[str, list[str]]:
    """Every refusal the engine raises: EditionProblem codes (an f-string's start), and uncoded EditionErrors."""
    found: dict[str, list[str]] = {"coded": [], "uncoded": []}
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                if node.func.id == "EditionError":
                    found["uncoded"].append(f"{path.name}:{node.lineno}")
                elif node.func.id == "EditionProblem":
                    found["coded"].extend(_codes(node.args[0], path.name))
    return found


def _codes(arg, where) -> list[str]:
    if isinstance(arg, ast.Constant):
        return [arg.value]
    if isinstance(arg, ast.IfExp):
        return _codes(arg.body, where) + _codes(arg.orelse, where)
    if isinstance(arg, ast.JoinedStr):  # f"edition_kind_{...}": every code with that start
        start = arg.values[0].value if isinstance(arg.values[0], ast.Constant) else ""
        return [code for code in messages.EN if code.startswith(start)] or [f"{where}: {start}..."]
    return [f"{where}: {ast.dump(arg)}"]


def test_every_loader_refusal_is_coded_and_in_both_languages():
    found = raised_codes()
    assert found["uncoded"] == [], "the loader still says these in English only"
    assert found["coded"]
    missing = [c for c in found["coded"] if c not in messages.EN or c not in messages.RU]
    assert missing == []


def test_the_russian_of_every_loader_code_leaks_no_english():
    """The codes no damage above reaches (cross-checks of the rules modules) are rendered with sample
    values: the Russian keeps only the file's own words."""
    samples = {
        "source": "broken.toml",
        "key": "cells[1]",
        "value": "'x'",
        "known": "a, b",
        "rules": "elite",
        "id": "x",
        "effect": "receive",
        "cell_kind": "plot",
        "ind": "small",
        "deck_id": "stunt",
        "choices": ["a", "b"],
        "default": "1",
    }
    for code in sorted(set(raised_codes()["coded"])):
        params = {
            **samples,
            **{
                k: 2
                for k in (
                    "low",
                    "high",
                    "need",
                    "listed",
                    "price",
                    "count",
                    "factor",
                    "least",
                    "most",
                    "side",
                    "seats",
                    "deeds",
                    "cost",
                    "cash",
                )
            },
        }
        ru = messages.render(code, params, "ru")
        assert not leaked_english(ru, params), f"{code}: {ru}"


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    daemon = start_box(tmp_path_factory.mktemp("loaderwords"))
    yield daemon
    daemon.stop()


def test_a_phone_save_of_a_wrong_value_is_said_in_russian_naming_the_card(box):
    banker = Phone(box, "ru").banker()
    before = box.boards.load("elite").version
    answer = banker.client.post(
        "/phone/our-board/save",
        json={
            "base": "elite",
            "version": before,
            "values": {},
            "effects": {"decks.chance.c01": [["receive", "amount = 5, colour = 1"]]},
            "confirm": [],
        },
        headers={"X-CSRF-Token": banker.csrf, "Accept-Language": "ru"},
    )
    line = answer.json["error"]
    assert answer.status_code == 400 and "\n" not in line
    assert "у действия «receive» такого параметра нет" in line, line
    assert "is not an argument" not in line
    assert "Карточка chance c01 «" in line and "(decks.chance[0].effects[0].colour)" in line, line
    nowhere = banker.client.post(
        "/phone/our-board/save",
        json={
            "base": "elite",
            "version": before,
            "values": {},
            "effects": {"decks.chance.c01": [["move_to", 'cell = "moon"']]},
            "confirm": [],
        },
        headers={"X-CSRF-Token": banker.csrf, "Accept-Language": "ru"},
    )
    line = nowhere.json["error"]
    assert (
        nowhere.status_code == 400
        and "Карточка chance c01 «" in line
        and "ведёт на клетку 'moon', а такой клетки нет" in line
    )
    assert "unknown cell" not in line
    assert box.boards.load("elite").version == before
