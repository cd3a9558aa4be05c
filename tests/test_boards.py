"""The table's own boards (companion/editions/boards.py): marks, saves with versions, export and import."""

import os
import subprocess
import sys
import tomllib

import pytest

from companion.editions import HERE, boards, load_edition, shipped
from companion.editions.boards import BoardConflict, BoardStore
from companion.errors import BadInput, EditionError
from companion.words import messages


@pytest.fixture
def store(tmp_path):
    return BoardStore(tmp_path / "boards")


def say(exc, lang="en"):
    return messages.render_error(exc, lang)


@pytest.mark.parametrize("name", shipped())
def test_shipped_files_keep_loading_and_dump_back_the_same(name):
    data = tomllib.loads((HERE / f"{name}.toml").read_text(encoding="utf-8"))
    assert tomllib.loads(boards.dump_toml(data)) == data
    load_edition(name)


def test_unmarked_items_are_placeholders_where_board_sources_says():
    elite = boards.marks(load_edition("elite"))
    assert elite["cells.leisure1"] == "placeholder"  # the order of the 40 cells
    assert elite["cells.leisure1.price"] == "sourced"  # the calculator's prices
    assert elite["decks.chance.c01"] == "placeholder"
    assert elite["decks.fortune.f25"] == "placeholder" and elite["decks.fortune.f01"] == "sourced"
    assert elite["slot"] == "placeholder"
    classic = boards.marks(load_edition("classic"))
    assert classic["cells.leisure1.rent"] == "placeholder" and classic["cells.leisure1.price"] == "sourced"
    assert set(boards.marks(load_edition("madmillionaire")).values()) == {"placeholder"}
    assert "placeholder" not in boards.marks(load_edition("monopoly")).values()


def test_a_fresh_board_is_the_shipped_one_named_ours(store):
    board = store.load("elite")
    assert board.version == 0 and not store.path("elite").exists()
    assert board.edition.names["en"] == "Millionaire Elite — our box"
    assert board.edition.names["ru"] == "Миллионер-Elite — наша коробка"
    assert board.edition.id == "elite"  # plot cards enrolled for Elite work on the table's board
    assert boards.describe(board.edition) == boards.describe(load_edition("elite"))


def test_edit_saves_whole_marks_confirmed_and_counts_go_down(store):
    before = boards.counts(store.load("elite").edition)
    board = store.edit(
        "elite", 0, {"cells.leisure1.rent": [10, 20, 30, 40, 50, 60]}, confirm=["cells.leisure1", "decks.chance.c01"]
    )
    assert board.version == 1
    kept = store.load("elite")
    assert kept.version == 1 and kept.edition.plots["leisure1"].rent == (10, 20, 30, 40, 50, 60)
    after = boards.counts(kept.edition)
    assert after.confirmed == 3 and after.placeholder == before.placeholder - 2
    assert boards.marks(kept.edition)["cells.leisure1.rent"] == "confirmed"
    # the shipped file is untouched
    assert load_edition("elite").plots["leisure1"].rent != (10, 20, 30, 40, 50, 60)
    assert [i.ref for i in store.list()] == ["our-elite"]
    assert store.edition_path("our-elite") == store.path("elite")
    assert load_edition(store.edition_path("our-elite")).plots["leisure1"].rent[0] == 10


def test_a_mistake_is_refused_naming_the_key_and_nothing_is_written(store):
    with pytest.raises(EditionError) as caught:
        store.edit("elite", 0, {"cells.leisure1.rent": [10, 20]})
    assert "cells[1].rent" in str(caught.value) and "\n" not in str(caught.value)
    with pytest.raises(EditionError):
        store.edit("elite", 0, {"cells.leisure1.price": -5})
    assert not store.path("elite").exists()
    with pytest.raises(BadInput) as locked:
        store.edit("elite", 0, {"edition.start_cash": 1})
    assert "rulebook" in say(locked.value) and "правилами" in say(locked.value, "ru")
    with pytest.raises(BadInput):
        store.edit("elite", 0, {"cells.nosuch.price": 1})


def test_the_later_of_two_phones_is_told_what_changed(store):
    store.edit("elite", 0, {"cells.leisure1.price": 70})  # phone A, from version 0
    with pytest.raises(BoardConflict) as caught:  # phone B, also from version 0
        store.edit("elite", 0, {"cells.food1.price": 91})
    assert caught.value.version == 1 and caught.value.changed == ["cells.leisure1.price"]
    assert "cells.leisure1.price" in say(caught.value) and "Другой телефон" in say(caught.value, "ru")
    kept = store.load("elite").edition
    assert kept.plots["leisure1"].price == 70 and kept.plots["food1"].price != 91  # nothing of B's half-saved
    store.edit("elite", 1, {"cells.food1.price": 91})  # B, having looked again
    store.edit("elite", 2, {"cells.food2.price": 95})
    with pytest.raises(BoardConflict) as again:  # from version 1: both later saves are named
        store.edit("elite", 1, {"cells.tele1.price": 99})
    assert again.value.changed == ["cells.food1.price", "cells.food2.price"]


def test_export_import_round_trip(store, tmp_path):
    store.edit("classic", 0, {"cells.leisure1.rent": [5, 10, 25, 60, 125, 175]}, confirm=["slot"])
    raw = store.export("classic")
    other = BoardStore(tmp_path / "elsewhere")
    board = other.import_file(raw, 0)
    assert board.version == 1 and board.edition.plots["leisure1"].rent[0] == 5
    assert boards.describe(board.edition) == boards.describe(store.load("classic").edition)
    assert boards.marks(board.edition) == boards.marks(store.load("classic").edition)
    # a shipped file imports too (its marks are board-sources.md's)
    third = BoardStore(tmp_path / "third")
    assert third.import_file((HERE / "deluxe.toml").read_bytes(), 0).edition.rules == "deluxe"


def test_share_text_round_trip(store, tmp_path):
    store.edit("elite", 0, {"decks.chance.c01.text": "Our own card"})
    text = store.share("elite")
    assert text.startswith("MB1:") and "\n" not in text
    other = BoardStore(tmp_path / "elsewhere")
    assert other.import_share("http://box.local/phone/#board=" + text, 0).edition.cards["c01"].text == "Our own card"


@pytest.mark.parametrize(
    "raw",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00garbage",
        b'{"json": "not toml"}',
        b"[edition]\nid = 'x'\n",
        (HERE / "elite.toml").read_bytes()[:5000],
        b"",
        b"[edition]\nid='zzz'\nname='x'\nrules='elite'\nstart_cash=1\n[[cells]]\nid='s'\nkind='start'\nname='S'\n",
    ],
)
def test_a_damaged_or_foreign_file_is_refused_in_one_line(store, raw):
    with pytest.raises(BadInput) as caught:
        store.import_file(raw, 0, "their-board.toml")
    for lang in ("en", "ru"):
        line = say(caught.value, lang)
        assert line and "\n" not in line and "Traceback" not in line
    assert not store.folder.exists() or not list(store.folder.glob("*.toml"))


def test_a_bad_share_text_is_refused(store):
    for text in ("hello", "MB1:!!!", "MB1:" + "A" * 40, "MB1:eJwLSS0uUUhKLUnNS1EoSS0u0cnMTVFIKspPzlcoLsksSgUAhY8KJQ"):
        with pytest.raises(BadInput) as caught:
            store.import_share(text, 0)
        assert "\n" not in say(caught.value, "ru")


def test_nothing_is_saved_half(store, monkeypatch):
    store.edit("elite", 0, {"cells.leisure1.price": 70})
    good = store.path("elite").read_bytes()

    def dies(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", dies)
    with pytest.raises(OSError):
        store.edit("elite", 1, {"cells.leisure1.price": 80})
    assert store.path("elite").read_bytes() == good
    assert [p.name for p in store.folder.iterdir() if p.name.endswith(".tmp")] == []


def test_check_edition_says_how_much_is_still_a_placeholder(store):
    def run(path, lang="en"):
        return subprocess.run(
            [sys.executable, "-m", "companion", "--lang", lang, "check-edition", str(path)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout

    shipped_out = run(HERE / "elite.toml")
    assert "0 of 185 items confirmed; placeholders still: 68" in shipped_out
    store.edit(
        "elite",
        0,
        {"cells.leisure1.rent": [10, 20, 30, 40, 50, 60]},
        confirm=[f"cells.{c.id}" for c in load_edition("elite").cells],
    )
    ours = run(store.path("elite"))
    assert "41 of 185 items confirmed; placeholders still: 28" in ours
    assert "сверено с коробкой: 41 из 185; заглушек ещё: 28" in run(store.path("elite"), "ru")


def test_a_walked_and_checked_board_shares_in_one_qr_code(store, tmp_path):
    """Only what differs from the shipped file travels: a re-ordered Elite board, every cell and card
    confirmed and a third of the rents corrected still fits one QR code, and comes back the same."""
    version, data = store.data("elite")
    cells = data["cells"]
    cells[1], cells[2], cells[4], cells[6] = cells[2], cells[1], cells[6], cells[4]  # the box's order differs
    for cell in cells[::3]:
        if "rent" in cell:
            cell["rent"] = [r + 1 for r in cell["rent"]]
    board = store.save_data("elite", data, version)
    every = [i for i, state in boards.marks(board.edition).items() if state != "confirmed"]
    board = store.edit("elite", board.version, {}, confirm=every)
    text = store.share("elite")
    assert BoardStore.fits_qr(text), len(text)
    other = BoardStore(tmp_path / "elsewhere").import_share(text, 0)
    assert boards.describe(other.edition) == boards.describe(board.edition)
    assert boards.marks(other.edition) == boards.marks(board.edition)
    assert boards.counts(other.edition).placeholder == 0


def test_an_import_over_a_board_changed_meanwhile_is_told_what_changed(store):
    raw = store.export("elite")  # version 0, as shipped
    store.edit("elite", 0, {"cells.leisure1.price": 70})  # another phone saves
    with pytest.raises(BoardConflict) as caught:  # this phone still shows version 0 of Elite
        store.import_file(raw, 0, "board.toml", expect="elite")
    assert caught.value.changed == ["cells.leisure1.price"]
    assert store.import_file(raw, None, "board.toml").version == 2  # loaded on purpose: replaces it
