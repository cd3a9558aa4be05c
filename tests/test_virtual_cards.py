"""The virtual table's cards follow the game's edition (issue 22): after a new game of another edition it
shows that edition's plots and deck cards, named as the edition names them in the box's language, never an
id, and the demo enrols a full set for every edition. The real daemon on simulated hardware, in-process."""

import re

import pytest

from companion.daemon.cards import CardMap
from companion.daemon.config import Config, defaults
from companion.daemon.demo import demo_cards
from companion.daemon.main import Daemon, wait_for
from companion.daemon.virtual import VirtualTableService
from companion.editions import load_edition, shipped
from companion.words.messages import card_text, cell_name

PLAYERS = ["Anna", "Boris", "Vera", "Gleb", "Dana", "Egor"]


@pytest.fixture(params=["en", "ru"])
def box(request, tmp_path):
    values = dict(defaults().values)
    values.update({"games_dir": str(tmp_path / "games"), "virtual_table.port": 0, "language": request.param})
    daemon = Daemon(Config(values, "(test)"), out=lambda line: None).start()
    daemon.cards = CardMap(tmp_path / "games" / "cards.json", demo_cards(load_edition("elite")))
    daemon.cards.save()
    yield daemon
    daemon.stop()


def start(daemon, edition, players):
    answer = daemon.handle({"op": "start", "edition": edition, "players": players, "seed": 7})
    assert answer["ok"], answer
    assert wait_for(lambda: daemon.owner.table is not None and daemon.owner.table.rules.edition.id == edition)


def new_game(daemon, edition, players):
    """End, archive and start another game, as the Game menu does."""
    assert daemon.handle({"op": "end"})["ok"]
    assert daemon.handle({"op": "archive"})["ok"]
    start(daemon, edition, players)


def shown(daemon):
    return VirtualTableService(daemon).cards()


def expected(edition_id, language):
    edition = load_edition(edition_id)
    return (
        {cell_name(edition, plot, language) for plot in edition.plots},
        [card_text(edition, card, language) for card in edition.cards],
    )


def check_edition(cards, edition_id, language, players):
    plots, texts = expected(edition_id, language)
    assert [c["words"] for c in cards if c["kind"] == "player"] == players
    assert {c["words"] for c in cards if c["kind"] == "plot"} == plots
    deck = [c["words"] for c in cards if c["kind"] == "card"]
    assert len(deck) == len(texts) and all(any(words.endswith(text) for words in deck) for text in texts)
    ids = set(load_edition(edition_id).plots) | set(load_edition(edition_id).cards)
    for card in cards:
        assert card["words"] not in ids and not re.fullmatch(r"(plot|card|участок|карточка) \S+", card["words"])


def test_a_new_game_of_another_edition_shows_its_cards_named_in_the_box_language(box):
    language = box.lang
    start(box, "elite", PLAYERS[:4])
    cards = shown(box)
    check_edition(cards, "elite", language, PLAYERS[:4])
    elite_plots = {c["words"] for c in cards if c["kind"] == "plot"}
    assert {"en": "Car", "ru": "Машина"}[language] in elite_plots and "central1" not in elite_plots

    new_game(box, "monopoly", PLAYERS)
    cards = shown(box)
    check_edition(cards, "monopoly", language, PLAYERS)
    assert not elite_plots & {c["words"] for c in cards if c["kind"] == "plot"}  # no Elite card left
    assert {"en": "Atlantic Avenue", "ru": "Атлантик-авеню"}[language] in {c["words"] for c in cards}
    status = VirtualTableService(box).status()
    assert status["edition"] == load_edition("monopoly").names.get(language, load_edition("monopoly").name)


def test_the_demo_enrols_a_full_set_for_every_edition():
    cards = demo_cards(load_edition("elite"))
    assert len(set(cards)) == len(cards)
    seats = {int(r.ref) for r in cards.values() if r.kind == "player"}
    for name in shipped():
        edition = load_edition(name)
        assert set(range(1, edition.players_max + 1)) <= seats, name
        assert {r.ref for r in cards.values() if r.kind == "plot" and r.edition == edition.id} == set(edition.plots)
        assert {r.ref for r in cards.values() if r.kind == "card" and r.edition == edition.id} == set(edition.cards)


def test_the_page_shows_the_new_edition_cards_by_itself_in_russian(tmp_path):
    """In Debian's chromium: an Elite game, then a new Monopoly game; the open page shows Monopoly's plots
    by their Russian names with no reload, and says the reader's state in Russian."""
    import socket
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from browser import chromium

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    values = dict(defaults().values)
    values.update({"games_dir": str(tmp_path / "games"), "virtual_table.port": port, "language": "ru"})
    daemon = Daemon(Config(values, "(test)"), out=lambda line: None).start()
    try:
        daemon.cards = CardMap(tmp_path / "games" / "cards.json", demo_cards(load_edition("elite")))
        daemon.cards.save()
        assert wait_for(lambda: daemon.link.state.state == "ready", timeout=20)
        start(daemon, "elite", PLAYERS[:4])
        with chromium(viewport={"width": 1300, "height": 1000}) as context:
            page = context.new_page()
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_selector(".card[data-kind=plot]:text-is('Машина')", timeout=20000)
            page.wait_for_function("document.getElementById('reader').textContent.includes('готов')", timeout=20000)
            assert "ready" not in page.inner_text("#status")
            new_game(daemon, "monopoly", PLAYERS)
            page.wait_for_selector(".card[data-kind=plot]:text-is('Атлантик-авеню')", timeout=30000)
            page.screenshot(path=str(tmp_path / "monopoly-ru.png"), full_page=True)
            print("screenshot:", tmp_path / "monopoly-ru.png")
            chips = page.locator(".card").all_inner_texts()
            assert "Машина" not in chips and not any("«" in chip and "»" in chip for chip in chips), chips
            assert page.locator(".card[data-kind=player]").all_inner_texts() == PLAYERS
            assert "Монополия" in page.inner_text("#edition")
    finally:
        daemon.stop()
