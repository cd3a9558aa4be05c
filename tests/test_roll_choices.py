"""ROLL never skips a decision the rules give (issue 22): a held player whose turn comes is offered the fine
or a card first, ROLL during a choice says what it waits for, the JACKPOT is thrown by ROLL with no outcome
shown before it is booked, and a card that stands for nothing says why."""

import pytest

from companion.daemon.config import Config, defaults
from companion.daemon.main import Daemon, wait_for


def config(tmp_path):
    values = dict(defaults().values)
    values.update({"games_dir": str(tmp_path / "games"), "virtual_table.port": 0})
    return Config(values, "(test)")


def start(tmp_path, edition, lang="en"):
    lines: list[str] = []
    daemon = Daemon(config(tmp_path), out=lines.append).start()
    daemon.lines = lines
    daemon.lang = lang
    assert daemon.handle({"op": "start", "edition": edition, "players": ["Anna", "Boris"], "seed": 1})["ok"]
    assert wait_for(lambda: daemon.link.state.state == "ready")
    return daemon


@pytest.fixture
def boxes():
    opened = []
    yield opened
    for daemon in opened:
        daemon.stop()


def do(daemon, actor, command):
    answer = daemon.handle({"op": "do", "actor": actor, "command": command})
    assert answer["ok"], answer


def head(daemon):
    return daemon.owner.table.head_seq


def said(daemon, words, timeout=10.0):
    return wait_for(lambda: any(words in line for line in daemon.lines), timeout)


def to_jackpot(daemon, double=False):
    """Anna's token on the JACKPOT by cells within one roll's reach (the EXCHANGE, the INSPECTION)."""
    for cell in ("exchange1", "inspection"):
        for player in ("Anna", "Boris"):
            do(daemon, "table", f"land {cell}")
            do(daemon, player, "end")
    do(daemon, "Anna", "pay_fine")
    do(daemon, "table", "land jackpot double" if double else "land jackpot")


def roll(daemon, *dice):
    """The reader's ROLL line, as the link hands it over; waits until the writer has answered it."""
    before = len(daemon.lines)
    daemon._on_roll(tuple(dice), None)
    daemon.owner.call(lambda: None)  # the posted roll ran (the writer takes jobs in order)
    return before


def test_a_held_player_whose_turn_comes_is_offered_the_fine_before_the_dice(tmp_path, boxes):
    box = start(tmp_path, "monopoly")
    boxes.append(box)
    for cell in ("jail", "free_parking"):  # round the board by cells in reach of one roll
        for player in ("Anna", "Boris"):
            do(box, "table", f"land {cell}")
            do(box, player, "end")
    do(box, "table", "land go_to_jail")  # Anna goes to jail
    do(box, "Anna", "end")
    do(box, "table", "land go_to_jail")  # and so does Boris
    seq = head(box)
    roll(box, 3, 4)  # ends Boris's turn: Anna's comes, and she may pay first
    assert head(box) == seq + 1 and box.owner.table.game.events[-1].command == "end"
    assert box.owner.table.state.turn == "Anna" and "Anna" in box.owner.table.state.detained
    assert said(box, "Anna is in Jail: the fine (50) or a card in the menu")
    top = box.console.stack[-1]
    assert getattr(top, "player", None) == "Anna"  # her menu is open: pay the fine is in it
    assert any("fine" in item.text.lower() for item in top.items)
    roll(box, 3, 4)  # a second ROLL: she rolls for a double
    assert wait_for(lambda: head(box) == seq + 2)
    event = box.owner.table.game.events[-1]
    assert (event.actor, event.command) == ("Anna", "roll 3 4")


def test_roll_during_a_choice_says_what_it_waits_for_and_reaches_the_box(tmp_path, boxes):
    box = start(tmp_path, "elite", "ru")
    boxes.append(box)
    do(box, "table", "land leisure2")  # a plot on offer: buy or decline
    assert box.owner.table.state.pending is not None
    assert wait_for(lambda: box.dice > 0)  # the reader's ROLL still reaches the box (0 would only buzz)
    seq = head(box)
    roll(box, 2, 5)
    assert head(box) == seq
    assert said(box, "БРОСОК подождёт: сначала")


def test_the_jackpot_is_thrown_by_roll_after_the_bet_and_never_previewed(tmp_path, boxes):
    box = start(tmp_path, "elite")
    boxes.append(box)
    to_jackpot(box)
    seq = head(box)
    roll(box, 2, 5)  # the JACKPOT is open: ROLL names it first instead of ending the turn
    assert head(box) == seq and said(box, "Anna may play the JACKPOT")
    # the bet is chosen in Anna's menu: no dice are typed, no win or loss is shown
    menu = box.console.stack[-1]
    item = next(i for i in menu.items if "JACKPOT" in i.text)
    box.owner.call(item.choose)
    number = box.console.stack[-1]
    assert "JACKPOT" in number.title
    box.owner.call(lambda: box.console.press("ok"))
    assert said(box, "press ROLL to throw the three dice")
    assert not box.console.stack or "die" not in box.console.stack[-1].frame().title.lower()
    assert wait_for(lambda: box.dice == 3)  # the reader throws three dice now
    roll(box, 1, 2, 3)
    assert wait_for(lambda: head(box) == seq + 1)
    event = box.owner.table.game.events[-1]
    assert event.actor == "Anna" and event.command.startswith("jackpot ") and event.command.endswith(" 1 2 3")
    assert said(box, "cherry, cherry, lemon")  # the symbols the three dice show on the slot machine


def test_a_second_roll_goes_on_without_the_jackpot(tmp_path, boxes):
    box = start(tmp_path, "elite")
    boxes.append(box)
    to_jackpot(box)
    seq = head(box)
    roll(box, 2, 5)
    assert head(box) == seq
    roll(box, 2, 5)  # the table said no to the JACKPOT: the turn ends (Boris, held, may pay first)
    assert wait_for(lambda: head(box) == seq + 1)
    assert box.owner.table.game.events[-1].command == "end" and box.owner.table.state.turn == "Boris"
    assert said(box, "Boris is in TAX INSPECTION")


def test_a_card_that_cannot_be_drawn_says_why(tmp_path, boxes):
    box = start(tmp_path, "elite", "en")
    boxes.append(box)
    uid = "0C000001"
    card = next(c for c in box.owner.table.rules.edition.cards)
    assert box.handle({"op": "enrol", "kind": "card", "ref": card, "uid": uid})["ok"]
    box._on_tap(uid, None)
    box.owner.call(lambda: None)
    assert said(box, "this card cannot be drawn now: no token waits for a card")


@pytest.mark.parametrize("lang, said_dice", [("en", "Anna rolls 4 and 3"), ("ru", "Anna: выпало 4 и 3")])
def test_the_exchange_and_auction_receipts_say_the_dice(lang, said_dice):
    from companion.engine.command import parse_command
    from companion.table.service import new_game
    from companion.table.view import event_lines

    table = new_game(":memory:", "elite", ["Anna", "Boris"], 1)
    table.submit(parse_command("land exchange1"), actor="table")
    event = table.submit(parse_command("exchange 4 3"), actor="Anna")
    assert event_lines(table.rules, event, lang)[0] == said_dice
    for line in ("end", "land exchange1", "end"):
        table.submit(parse_command(line), actor=table.state.turn if line == "end" else "table")
    table.submit(parse_command("land auction"), actor="table")
    event = table.submit(parse_command("auction_roll 1 2 3"), actor="Anna")
    words = {"en": "Anna rolls 1, 2 and 3", "ru": "Anna: выпало 1, 2 и 3"}[lang]
    assert event_lines(table.rules, event, lang)[0] == words


def test_roll_after_a_double_on_the_jackpot_names_it_before_rolling_again(tmp_path, boxes):
    box = start(tmp_path, "elite")
    boxes.append(box)
    to_jackpot(box, double=True)
    seq = head(box)
    roll(box, 2, 5)  # a double lets Anna roll again, but the JACKPOT is hers first
    assert head(box) == seq and said(box, "Anna may play the JACKPOT")
    roll(box, 2, 5)  # again: she rolls on without it
    assert wait_for(lambda: head(box) == seq + 1)
    assert (box.owner.table.game.events[-1].actor, box.owner.table.game.events[-1].command) == ("Anna", "roll 2 5")
