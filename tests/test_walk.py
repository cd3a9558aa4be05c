"""Walking the board with the cards (issue 23, point 1): the walk's state machine, the board file it writes, and
the daemon around it: taps go to the walk and never to the game, ROLL is refused, a restart resumes the walk or
says it was dropped, a walk left alone ends, and a game started on the walked board lands on its cells."""

import json

import pytest
from test_daemon import tap  # a card laid on the simulated reader and lifted

from companion.daemon.cards import Role
from companion.daemon.config import Config, defaults
from companion.daemon.main import Daemon, wait_for
from companion.daemon.walk import WALK_FILE, Walk, kind_key
from companion.editions import load_edition
from companion.errors import SaidInput
from companion.words import messages

ELITE = load_edition("elite")
IDS = [c.id for c in ELITE.cells]
# cells 1..9 walked backwards: cell 7 is «Nightclub» (leisure3), where the shipped board has «Chocolate factory»
NEW_ORDER = [IDS[0], *reversed(IDS[1:10]), *IDS[10:]]
CHANCE = kind_key(ELITE.cell("chance1"))


def shape(edition, ids):
    """A board as a family sees it: each plot by itself, every other cell by what stands there."""
    return [i if edition.cell(i).is_plot else kind_key(edition.cell(i)) for i in ids]


def walk_all(walk, order):
    for cell_id in order[1:]:
        cell = ELITE.cell(cell_id)
        if cell.is_plot:
            walk.plot(cell_id)
        else:
            walk.choose(kind_key(cell))


# ----- the state machine ---------------------------------------------------------------------------------------


def test_a_walk_places_plots_and_asked_cells_in_order_and_ends_complete():
    walk = Walk(ELITE, "elite")
    assert walk.at == 1 and not walk.complete
    walk_all(walk, NEW_ORDER)
    assert walk.complete and walk.at == 40
    assert shape(ELITE, walk.order()) == shape(ELITE, NEW_ORDER)
    with pytest.raises(SaidInput) as refused:
        walk.plot("leisure1")
    assert refused.value.code == "walk_complete"


def test_a_repeated_or_wrong_step_changes_nothing_and_back_undoes_the_last():
    walk = Walk(ELITE, "elite")
    walk.plot("food1")
    version = walk.version
    with pytest.raises(SaidInput) as repeated:
        walk.plot("food1")
    assert repeated.value.code == "walk_repeated" and repeated.value.params["index"] == 1
    with pytest.raises(SaidInput) as wrong:
        walk.plot("chance1")  # a cell, not a plot
    assert wrong.value.code == "walk_not_plot"
    with pytest.raises(SaidInput):
        walk.choose("slot_machine::")
    assert walk.version == version and walk.order() == ["start", "food1"]
    walk.choose(CHANCE)
    assert walk.order() == ["start", "food1", "chance1"]
    assert walk.back().cell == "chance1"
    assert walk.back().cell == "food1"
    with pytest.raises(SaidInput) as nothing:
        walk.back()
    assert nothing.value.code == "walk_nothing_back"


def test_every_kind_is_offered_only_while_cells_of_it_are_left():
    walk = Walk(ELITE, "elite")
    chances = len(walk.kinds_left()[CHANCE])
    for _ in range(chances):
        walk.choose(CHANCE)
    assert CHANCE not in walk.kinds_left()
    with pytest.raises(SaidInput):
        walk.choose(CHANCE)


def test_an_unknown_card_is_asked_for_and_enrolled_only_with_the_board():
    walk = Walk(ELITE, "elite")
    walk.unknown_card("04AABBCCDDEEFF")
    assert walk.pending
    assert walk.back() is None and not walk.pending  # BACK puts the question away first
    walk.unknown_card("04AABBCCDDEEFF")
    walk.name_pending("tele1")
    assert walk.enrolments() == {"04AABBCCDDEEFF": "tele1"} and not walk.pending
    walk.back()
    assert walk.enrolments() == {}


def test_a_walk_kept_as_json_comes_back_the_same_and_a_foreign_one_is_refused():
    walk = Walk(ELITE, "elite")
    walk_all(walk, NEW_ORDER[:12])
    again = Walk.from_json(json.loads(json.dumps(walk.to_json())), ELITE)
    assert again.order() == walk.order() and again.version == walk.version
    data = walk.to_json()
    data["steps"].append(["no_such_cell", ""])
    with pytest.raises(ValueError):
        Walk.from_json(data, ELITE)


def test_every_walk_word_renders_in_english_and_russian():
    for code in messages.WALK["en"]:
        assert code in messages.WALK["ru"], code
    assert set(messages.WALK["ru"]) == set(messages.WALK["en"])


# ----- the daemon ---------------------------------------------------------------------------------------------

PLOT_UID = {p: f"04A1{i:010X}" for i, p in enumerate(ELITE.plots)}
ANNA = "0A000001"


def config(tmp_path):
    values = dict(defaults().values)
    values.update({"games_dir": str(tmp_path / "games"), "virtual_table.port": 0, "phone.port": 0})
    return Config(values, "(test)")


def start(tmp_path, lines):
    daemon = Daemon(config(tmp_path), out=lines.append).start()
    assert wait_for(lambda: daemon.link.state.state == "ready")
    return daemon


@pytest.fixture
def box(tmp_path):
    lines: list[str] = []
    daemon = start(tmp_path, lines)
    for plot, uid in PLOT_UID.items():
        daemon.cards.enrol(uid, Role("plot", plot, "elite"))
    daemon.cards.enrol(ANNA, Role("player", "1"))
    daemon.cards.save()
    daemon.lines = lines
    yield daemon
    daemon.stop()


def said(daemon, words, timeout=10.0):
    return wait_for(lambda: any(words in line for line in daemon.lines), timeout)


def test_while_a_walk_is_on_plot_cards_go_to_the_walk_and_nothing_is_booked(box):
    assert box.handle({"op": "start", "edition": "elite", "players": ["Anna", "Boris"], "seed": 1})["ok"]
    box.owner.call(lambda: box.walking.start("elite"))
    tap(box, PLOT_UID["food1"])
    assert wait_for(lambda: box.walking.walk.order() == ["start", "food1"])
    tap(box, PLOT_UID["food1"])  # repeated: said at once, nothing changes
    assert said(box, "is already cell 1: nothing changed")
    tap(box, ANNA)  # a player's card during the walk: wrong, said, not her menu
    assert said(box, "not a plot card: nothing changed")
    box.sim.press_roll()
    assert said(box, "the reader's dice count for nothing")
    assert box.owner.table.head_seq == 1  # nothing was booked to the game
    assert box.walking.walk.order() == ["start", "food1"]
    box.owner.call(box.walking.leave)
    box.sim.press_roll()  # the reader is the game's again
    assert wait_for(lambda: box.owner.table.head_seq == 2)


def test_a_restart_mid_walk_resumes_it_and_a_damaged_one_is_said_dropped(tmp_path):
    lines: list[str] = []
    daemon = start(tmp_path, lines)
    try:
        daemon.owner.call(lambda: daemon.walking.start("elite"))
        daemon.owner.call(lambda: daemon.walking.cell(CHANCE))
    finally:
        daemon.stop()
    lines.clear()
    daemon = start(tmp_path, lines)
    try:
        assert daemon.walking.walk is not None and daemon.walking.walk.order() == ["start", "chance1"]
        assert any("The board walk goes on at cell 2 of 40" in line for line in lines)
    finally:
        daemon.stop()
    (tmp_path / "games" / WALK_FILE).write_text('{"version": 1, "base": "elite", "steps": [["nowhere", ""]]}')
    lines.clear()
    daemon = start(tmp_path, lines)
    try:
        assert daemon.walking.walk is None
        assert wait_for(lambda: any("it was dropped, nothing was saved or booked" in line for line in lines))
        assert not (tmp_path / "games" / WALK_FILE).exists()
        # the reader's ROLL resent after the restart (meant for the walk) books nothing; the next one counts
        assert daemon.handle({"op": "start", "edition": "elite", "players": ["Anna", "Boris"], "seed": 1})["ok"]
        daemon.sim.press_roll()
        assert wait_for(lambda: any("this did nothing" in line for line in lines))
        assert daemon.owner.table.head_seq == 1
        daemon.sim.press_roll()
        assert wait_for(lambda: daemon.owner.table.head_seq == 2)
    finally:
        daemon.stop()


def test_a_walk_left_alone_ends_the_next_tap_is_refused_and_the_one_after_goes_to_the_game(box):
    assert box.handle({"op": "start", "edition": "elite", "players": ["Anna", "Boris"], "seed": 1})["ok"]
    box.owner.call(lambda: box.walking.start("elite"))
    box.walking.touched -= 10_000  # as if nobody touched it for hours
    box.sim.press_roll()
    assert said(box, "nothing happened for 15 minutes")
    assert box.walking.walk is None and box.owner.table.head_seq == 1
    box.sim.press_roll()
    assert wait_for(lambda: box.owner.table.head_seq == 2)


def test_the_walked_board_is_saved_and_a_game_started_on_it_lands_on_the_reordered_cell(box):
    box.owner.call(lambda: box.walking.start("elite"))
    box.cards.forget(PLOT_UID["tele1"])  # one plot card never enrolled: asked for, enrolled with the board
    box.cards.save()
    for cell_id in NEW_ORDER[1:]:
        cell = ELITE.cell(cell_id)
        if cell.is_plot and cell_id == "tele1":
            tap(box, PLOT_UID["tele1"])
            assert wait_for(lambda: box.walking.walk.pending)
            box.owner.call(lambda: box.walking.name_card("tele1"))
        elif cell.is_plot:
            at = box.walking.walk.at
            tap(box, PLOT_UID[cell_id])
            assert wait_for(lambda a=at: box.walking.walk.at == a + 1), box.lines[-3:]
        else:
            box.owner.call(lambda c=cell: box.walking.cell(kind_key(c)))
    saved = box.owner.call(box.walking.save)
    assert box.walking.walk is None and saved["enrolled"] == 1
    assert box.cards.role(PLOT_UID["tele1"]) == Role("plot", "tele1", "elite")
    assert (saved["ref"], "Millionaire Elite — our box") in box.editions()
    board = box.walking.store.load("elite")
    assert shape(board.edition, [c.id for c in board.edition.cells]) == shape(ELITE, NEW_ORDER)
    assert board.version == saved["version"] == 1
    assert box.handle({"op": "start", "edition": saved["ref"], "players": ["Anna", "Boris"], "seed": 1})["ok"]
    table = box.owner.table
    assert [c.id for c in table.rules.edition.cells][7] == "leisure3"
    box.owner.submit("Anna", "roll 3 4")
    assert table.state.pending.plot == "leisure3"


def test_the_box_alone_walks_a_cell_answers_an_unknown_card_and_backs_out_with_its_buttons(box):
    """Game → Our board on the box: OK lists what may stand on the cell, an unknown card is named from the plots
    left, BACK takes a step back, and BACK on the first cell offers to leave the walk."""
    console = box.console

    def press(name):
        box.owner.call(lambda: console.press(name))

    def frame_text():
        frame = console.frame
        return " ".join([frame.title, *frame.lines]) if frame is not None else ""

    press("ok")
    menu = console.stack[-1]
    game = next(i for i, item in enumerate(menu.items) if item.text.startswith("Game"))
    menu.index = game
    press("ok")
    board = next(i for i, item in enumerate(console.stack[-1].items) if item.text.startswith("Our board"))
    console.stack[-1].index = board
    press("ok")
    walk_list = console.stack[-1]
    walk_list.index = next(i for i, item in enumerate(walk_list.items) if item.text == "Millionaire Elite")
    press("ok")
    assert box.walking.walk is not None and "Board: cell 1/40" in frame_text()
    press("ok")  # what stands on cell 1: the kinds left, CHANCE among them
    kinds = console.stack[-1]
    kinds.index = next(i for i, item in enumerate(kinds.items) if item.text.startswith("CHANCE"))
    press("ok")
    assert box.walking.walk.order() == ["start", "chance1"] and "Cell 1: CHANCE" in frame_text()
    tap(box, "04FFEEDDCCBBAA")  # a card never enrolled: which plot is it?
    assert wait_for(lambda: box.walking.walk.pending)
    box.owner.call(console.refresh)
    press("ok")
    plots = console.stack[-1]
    plots.index = next(i for i, item in enumerate(plots.items) if item.text == "Nightclub")
    press("ok")
    assert box.walking.walk.order() == ["start", "chance1", "leisure3"]
    assert box.cards.role("04FFEEDDCCBBAA") is None  # enrolled only when the board is saved
    press("back")
    press("back")
    assert box.walking.walk.order() == ["start"]
    press("back")  # on the first cell: leave the walk? OK leaves it
    assert "Leave the board walk?" in frame_text()
    press("ok")
    assert box.walking.walk is None and not (box.config.games_dir / WALK_FILE).exists()


def test_cells_of_one_kind_but_other_names_are_asked_apart():
    """Monopoly's Income Tax and Luxury Tax are both tax cells: the walk never places one for the other."""
    monopoly = load_edition("monopoly")
    walk = Walk(monopoly, "monopoly")
    taxes = [key for key in walk.kinds_left() if key.startswith("tax:")]
    assert len(taxes) == 2
    walk.choose(next(k for k in taxes if k.endswith("Luxury Tax")))
    assert monopoly.cell(walk.order()[1]).name == "Luxury Tax"
