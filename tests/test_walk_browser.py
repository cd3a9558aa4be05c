"""Walking the board with the cards in Debian's chromium (issue 23, point 1): the real daemon on simulated hardware
serves the virtual table and, beside it, the phone page. The banker's phone starts the walk of the Elite board;
plot cards are tapped on the virtual table (through the simulated reader's firmware) in a changed order, the cells
between plots are chosen on the phone; the board is saved, a game is started on it from the phone, and ROLL, with
the simulated reader's dice, lands on the re-ordered cell and books that plot's rent. In Russian with a wrong tap,
a repeated tap and BACK; with two banker phones. Screenshots of the OLED and the phone are kept (path printed)."""

import itertools
import socket
import sys
from pathlib import Path

import pytest

from companion.daemon.cards import Role
from companion.daemon.config import Config, defaults
from companion.daemon.main import Daemon, wait_for
from companion.daemon.walk import kind_key
from companion.editions import load_edition

sys.path.insert(0, str(Path(__file__).parent))
from browser import ARGS, CHROMIUM, chromium, require_chromium  # noqa: E402

BANKER_PIN = "2468"
ELITE = load_edition("elite")
IDS = [c.id for c in ELITE.cells]
NEW_ORDER = [IDS[0], *reversed(IDS[1:10]), *IDS[10:]]  # cell 7 is «Nightclub» (leisure3), not «Chocolate factory»
PLOT_UID = {p: f"04A1{i:010X}" for i, p in enumerate(ELITE.plots)}
ANNA_CARD = "0A000001"
WAIT_MS = 10000


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    where = tmp_path_factory.mktemp("walk-shots")
    yield where
    print(f"\nboard walk screenshots: {where}")


def start_box(tmp_path, lang):
    values = dict(defaults().values)
    values.update(
        {
            "games_dir": str(tmp_path / "games"),
            "virtual_table.port": free_port(),
            "phone.port": 0,
            "phone.banker_pin": BANKER_PIN,
            "language": lang,
        }
    )
    daemon = Daemon(Config(values, "(test)"), out=lambda line: None).start()
    for plot, uid in PLOT_UID.items():
        daemon.cards.enrol(uid, Role("plot", plot, "elite"))
    daemon.cards.enrol(ANNA_CARD, Role("player", "1"))
    daemon.cards.save()
    assert wait_for(lambda: daemon.link.state.state == "ready", 10.0)
    return daemon


@pytest.fixture
def box_en(tmp_path):
    daemon = start_box(tmp_path, "en")
    yield daemon
    daemon.stop()


@pytest.fixture
def box_ru(tmp_path):
    daemon = start_box(tmp_path, "ru")
    yield daemon
    daemon.stop()


class Table:
    """The virtual table's page: a card tapped by its UID, ROLL."""

    def __init__(self, context, box):
        self.box = box
        self.page = context.new_page()
        self.page.goto(box.virtual.url)
        self.page.wait_for_selector("#oled")

    def tap(self, uid):
        self.page.fill("#tap-uid", uid)
        self.page.click("#btn-tap")

    def roll(self):
        self.page.click("#btn-roll")


class Phone:
    """A banker's phone on the phone page beside the virtual table."""

    def __init__(self, context, box):
        self.box = box
        self.root = box.virtual.url + "phone/"
        self.page = context.new_page()
        self.page.goto(self.root + "#code=" + box.phone.table_code())
        self.page.wait_for_function("document.body.dataset.role === 'spectator'", timeout=WAIT_MS)
        self.page.goto(self.root + "join")
        self.page.click("#banker summary")
        self.page.fill("#banker-form input[name=pin]", BANKER_PIN)
        self.page.click("#banker-form button")
        self.page.wait_for_function("document.body.dataset.role === 'banker'", timeout=WAIT_MS)

    def walk_page(self):
        self.page.goto(self.root + "walk")
        self.page.wait_for_selector("#walk")

    def seen(self, version):
        """The page shows the walk at this version (its own poll brought it)."""
        self.page.wait_for_selector(f'#walk[data-version="{version}"]', timeout=WAIT_MS)


def walk_at(box):
    walk = box.walking.walk
    return walk.at if walk is not None else None


def step(box, table, phone, cell_id):
    """One cell of the board as the family walks it: a plot's card on the reader, else the phone's answer."""
    at = walk_at(box)
    cell = ELITE.cell(cell_id)
    if cell.is_plot:
        table.tap(PLOT_UID[cell_id])
    else:
        phone.seen(box.walking.walk.version)
        phone.page.click(f'#walk-cell button[data-key="{kind_key(cell)}"]')
    assert wait_for(lambda: walk_at(box) == at + 1, 10.0), f"cell {at}: {cell_id} was not placed"


def save_and_play(box, table, phone, players, shots, lang, correct=False):
    """Save the walked board, (correct) correct Nightclub's rent and a CHANCE card on the board editor, start a
    game on it from the phone, and roll 3 + 4 twice with the reader: the re-ordered cell books its rent."""
    phone.seen(box.walking.walk.version)
    phone.page.screenshot(path=str(shots / f"{lang}-phone-3-complete.png"), full_page=True)
    table.page.screenshot(path=str(shots / f"{lang}-table-3-complete.png"))
    phone.page.click("#walk-save-go")
    assert wait_for(lambda: box.walking.walk is None, 10.0)
    rent = ELITE.cell("leisure3").rent
    if correct:  # the deeds read off the box: Nightclub's first rent and a CHANCE card corrected on the phone
        rent = (rent[0] + 3,) + tuple(rent[1:])
        phone.page.goto(phone.root + "our-board?base=elite")
        phone.page.wait_for_selector("#board-form")
        phone.page.fill('#cell-leisure3 input[data-path="cells.leisure3.rent"]', ", ".join(map(str, rent)))
        phone.page.fill('#card-c01 textarea[data-path="decks.chance.c01.text"]', "Our CHANCE card")
        phone.page.select_option("#card-c01 .effect-do", "receive")
        phone.page.fill("#card-c01 .effect-param[data-key=amount]", "75")
        with phone.page.expect_response(lambda r: r.url.endswith("/phone/our-board/save")) as answer:
            phone.page.click("#board-save")
        assert answer.value.status == 200
        assert wait_for(lambda: box.boards.load("elite").edition.plots["leisure3"].rent == rent, 10.0)
    phone.page.goto(phone.root + "game")
    phone.page.select_option("#start-edition", "our-elite")
    phone.page.select_option("#start-count", str(len(players)))
    for n, name in enumerate(players, 1):
        phone.page.fill(f"#player-{n}", name)
    phone.page.click("#start-go")
    assert wait_for(lambda: box.owner.table is not None, 10.0)
    game = box.owner.table
    assert game.rules.edition.cells[7].id == "leisure3"
    if correct:
        assert game.rules.edition.cards["c01"].effects == ({"do": "receive", "amount": 75},)
    faces = itertools.cycle([2, 3])  # the reader's random bytes: dice 3 and 4, every roll
    box.sim.firmware.reader.random_bytes = lambda n: bytes(next(faces) for _ in range(n))
    table.roll()
    assert wait_for(
        lambda: game.state.pending is not None and getattr(game.state.pending, "plot", "") == "leisure3", 10.0
    )
    table.tap(PLOT_UID["leisure3"])  # Anna buys the plot her token stands on (her card's plot)...
    assert wait_for(lambda: box.console.stack and getattr(box.console.stack[-1], "books", None), 10.0)  # ...shown
    table.page.click("#btn-ok")  # and OK books it (issue 22)
    assert wait_for(lambda: game.state.owner.get("leisure3") == players[0], 10.0)
    before = game.state.cash(players[1])
    table.roll()  # Anna's turn ends, Boris throws 3 + 4: the same re-ordered cell, her rent
    assert wait_for(lambda: game.state.cash(players[1]) == before - rent[0], 10.0)  # the corrected rent, if corrected
    assert game.state.pending is None and game.state.owner["leisure3"] == players[0]
    table.page.screenshot(path=str(shots / f"{lang}-table-4-rent.png"))


def test_the_banker_walks_the_elite_board_saves_it_and_a_roll_books_the_reordered_plots_rent(box_en, shots):
    box = box_en
    with chromium() as context:
        phone = Phone(context, box)
        table = Table(context, box)
        phone.walk_page()
        phone.page.select_option("select[name=base]", "elite")
        phone.page.click("#walk-go")
        assert wait_for(lambda: walk_at(box) == 1, 10.0)
        phone.seen(box.walking.walk.version)
        for cell_id in NEW_ORDER[1:8]:
            step(box, table, phone, cell_id)
        phone.seen(box.walking.walk.version)
        assert phone.page.inner_text("#walk-at") == "Cell 8 of 40"
        assert "Cell 7: Nightclub" in phone.page.inner_text("#walk-said")
        assert "Nightclub" in " ".join(box.console.frame.lines)  # the OLED says the last cell too
        phone.page.screenshot(path=str(shots / "en-phone-1-walking.png"), full_page=True)
        table.page.screenshot(path=str(shots / "en-table-1-walking.png"))
        for cell_id in NEW_ORDER[8:]:
            step(box, table, phone, cell_id)
        save_and_play(box, table, phone, ["Anna", "Boris"], shots, "en", correct=True)


def test_in_russian_a_wrong_and_a_repeated_tap_change_nothing_and_back_undoes_the_last_step(box_ru, shots):
    box = box_ru
    with chromium(locale="ru-RU", extra_http_headers={"Accept-Language": "ru"}) as context:
        phone = Phone(context, box)
        table = Table(context, box)
        phone.walk_page()
        assert "Обойдите поле" in phone.page.inner_text("h1")
        phone.page.select_option("select[name=base]", "elite")
        phone.page.click("#walk-go")
        assert wait_for(lambda: walk_at(box) == 1, 10.0)
        for cell_id in NEW_ORDER[1:4]:
            step(box, table, phone, cell_id)
        order = list(box.walking.walk.order())
        # a repeated tap: the plot placed at cell 2 again
        table.tap(PLOT_UID[NEW_ORDER[2]])
        assert wait_for(lambda: box.walking.refused and "уже стоит на клетке 2" in box.walking.view("ru")["said"])
        phone.seen(box.walking.walk.version)
        phone.page.wait_for_selector("#walk-said.error", timeout=WAIT_MS)
        assert "уже стоит на клетке 2: ничего не изменилось" in phone.page.inner_text("#walk-said")
        assert "уже стоит" in " ".join(box.console.frame.lines)  # the OLED says it too
        phone.page.screenshot(path=str(shots / "ru-phone-2-repeated.png"), full_page=True)
        table.page.screenshot(path=str(shots / "ru-table-2-repeated.png"))
        # a wrong tap: a player's card is no plot card
        table.tap(ANNA_CARD)
        assert wait_for(lambda: "а не карточка участка" in box.walking.view("ru")["said"])
        assert box.walking.walk.order() == order and box.owner.table is None
        # BACK on the phone takes cell 3 back; then the box's BACK takes cell 2 back
        phone.page.wait_for_selector("#walk-back-go")
        phone.page.click("#walk-back-go")
        assert wait_for(lambda: walk_at(box) == 3, 10.0)
        assert box.walking.walk.order() == order[:3]
        table.page.click("#btn-back")
        assert wait_for(lambda: walk_at(box) == 2, 10.0)
        phone.seen(box.walking.walk.version)
        assert "больше не клетка 2" in phone.page.inner_text("#walk-said")
        for cell_id in NEW_ORDER[2:]:
            step(box, table, phone, cell_id)
        save_and_play(box, table, phone, ["Аня", "Борис"], shots, "ru")
        assert box.walking.store.load("elite").edition.names["ru"] == "Миллионер-Elite — наша коробка"


def test_two_banker_phones_follow_the_one_walk_and_a_stale_answer_is_refused(box_en, shots):
    box = box_en
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            two_bankers(
                box,
                browser.new_context(viewport={"width": 800, "height": 900}),
                browser.new_context(viewport={"width": 800, "height": 900}),
                shots,
            )
        finally:
            browser.close()


def two_bankers(box, first_context, second_context, shots):
    """Two banker phones (each a browser context with its own cookies) and the virtual table."""
    first = Phone(first_context, box)
    second = Phone(second_context, box)
    table = Table(first_context, box)
    first.walk_page()
    second.walk_page()
    first.page.select_option("select[name=base]", "elite")
    first.page.click("#walk-go")
    assert wait_for(lambda: walk_at(box) == 1, 10.0)
    second.seen(box.walking.walk.version)  # the second phone sees the walk by itself
    assert second.page.inner_text("#walk-at") == "Cell 1 of 40"
    step(box, table, first, NEW_ORDER[1])  # CHANCE, answered on the first phone
    second.seen(box.walking.walk.version)
    assert "Cell 1: CHANCE" in second.page.inner_text("#walk-said")
    # an answer from a page that had not seen the step: refused, nothing changes
    stale = box.walking.walk.version - 1
    second.page.evaluate(f"document.querySelector('#walk-cell input[name=version]').value = '{stale}'")
    second.page.click('#walk-cell button[data-key="card:chance:ШАНС"]')
    second.page.wait_for_selector("#result.error", timeout=WAIT_MS)
    assert "moved on" in second.page.inner_text("#result")
    assert len(box.walking.walk.order()) == 2
    second.page.screenshot(path=str(shots / "en-phone-5-second-banker.png"), full_page=True)
    second.page.click("#walk-leave-go")
    assert wait_for(lambda: box.walking.walk is None, 10.0)
    first.page.wait_for_selector("#walk-start", timeout=WAIT_MS)  # the first phone sees it left
