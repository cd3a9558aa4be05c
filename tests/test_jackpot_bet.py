"""The JACKPOT's bet (issue 22): a phone places the bet only and the reader's ROLL throws the three dice, with
no outcome shown before it is booked; a bet chosen on the box outlives a payment booked before the ROLL."""

import re

from test_phone_views import ANNA, BORIS, Phone, box, head, play
from test_roll_choices import boxes, do, roll, said, start, to_jackpot

from companion.daemon.main import wait_for

__all__ = ["box", "boxes"]


def on_the_jackpot(daemon):
    """Anna (of Anna, Boris, Vera) on the JACKPOT, by cells within one roll's reach."""
    for cell in ("exchange1", "inspection"):
        for player in ("Anna", "Boris", "Vera"):
            play(daemon, f"land {cell}", f"{player}: end")
    play(daemon, "Anna: pay_fine", "land jackpot")


def notices(subscription):
    """What the box said (its notices, as the OLED and every phone show them), in English."""
    from companion.words import messages

    out = []
    while (item := subscription.get(timeout=0.5)) is not None:
        if item.notice is not None:
            out.append(messages.render(item.notice.code, item.notice.params, "en"))
    return out


def jackpot_form(page):
    html = page.data.decode()
    found = re.search(r'<form[^>]*data-verb="jackpot">(.*?)</form>', html, re.S)
    assert found, "no JACKPOT form"
    return found.group(1)


def test_a_phone_places_the_jackpot_bet_and_roll_throws_the_dice(box):
    on_the_jackpot(box)
    anna = Phone(box).join().pair(ANNA)
    form = jackpot_form(anna.open("/phone/act"))
    assert "bet" in form and "die" not in form.lower()  # no dice to type: one field, the bet
    assert "ROLL on the reader throws the three dice" in form
    before = head(box)
    typed = anna.act("jackpot", "50", "6", "6", "6", step="preview")  # dice typed by hand: refused, nothing shown
    assert typed.status_code == 400 and "thrown by ROLL" in typed.json["error"]
    assert "preview" not in typed.json and head(box) == before
    said = box.owner.subscribe(since=head(box))
    bet = anna.act("jackpot", "50", step="preview")
    assert bet.status_code == 200 and "preview" not in bet.json
    assert bet.json["lines"] == ["Bet chosen: 50. Now press ROLL on the reader"]
    assert "Anna bets 50 on the JACKPOT: press ROLL to throw the three dice" in notices(said)
    assert not any("win" in line or "lose" in line for line in bet.json["lines"]) and head(box) == before
    assert wait_for(lambda: box.dice == 3)  # the reader throws three dice now
    box._on_roll((1, 2, 3), None)
    assert wait_for(lambda: head(box) == before + 1)
    event = box.owner.table.game.events[-1]
    assert (event.actor, event.command) == ("Anna", "jackpot 50 1 2 3")


def test_the_jackpot_bet_from_a_russian_phone_and_anothers_refused(box):
    on_the_jackpot(box)
    anna = Phone(box, language="ru").join().pair(ANNA)
    assert "БРОСОК на считывателе бросит три кубика" in jackpot_form(anna.open("/phone/act"))
    typed = anna.act("jackpot", "50", "1", "2", "3")
    assert typed.status_code == 400 and "Кубики ДЖЕКПОТА бросает кнопка БРОСОК" in typed.json["error"]
    bet = anna.act("jackpot", "40")
    assert bet.json["lines"] == ["Ставка выбрана: 40. Теперь нажмите БРОСОК на считывателе"]
    boris = Phone(box).join().pair(BORIS)
    before = head(box)
    assert boris.act("jackpot", "20").status_code == 409 and head(box) == before  # not Boris's JACKPOT


def choose_bet(box):
    """Anna's menu, the JACKPOT, OK on the bet the picker starts at: the bet is chosen on the box."""
    box.console.player_card("Anna") if not box.console.stack else None
    menu = box.console.stack[-1]
    item = next(i for i in menu.items if "JACKPOT" in i.text)
    box.owner.call(item.choose)
    box.owner.call(lambda: box.console.press("ok"))
    assert said(box, "press ROLL to throw the three dice")
    assert wait_for(lambda: box.dice == 3)


def test_the_jackpot_bet_outlives_a_payment_booked_before_the_roll(tmp_path, boxes):
    """Issue 22: a payment booked (a phone's, here the socket's) between the bet and ROLL does not make the
    box forget the bet: ROLL still throws the JACKPOT's three dice, not an end of the turn and two dice."""
    box = start(tmp_path, "elite")
    boxes.append(box)
    to_jackpot(box)
    roll(box, 2, 5)  # the JACKPOT is named first and Anna's menu opens
    choose_bet(box)
    do(box, "Boris", "pay Boris Anna 30")  # meanwhile Boris pays Anna from his phone
    assert wait_for(lambda: box.dice == 3)  # the reader still throws three dice
    seq = head(box)
    roll(box, 1, 2, 3)
    assert wait_for(lambda: head(box) == seq + 1)
    event = box.owner.table.game.events[-1]
    assert event.actor == "Anna" and event.command.startswith("jackpot ") and event.command.endswith(" 1 2 3")


def test_the_jackpot_bet_goes_with_the_turn(tmp_path, boxes):
    """A bet chosen and never thrown is forgotten when the JACKPOT is no longer the player's (the turn ended):
    the next ROLL is the next player's, never a JACKPOT."""
    box = start(tmp_path, "elite")
    boxes.append(box)
    to_jackpot(box)
    roll(box, 2, 5)
    choose_bet(box)
    do(box, "Anna", "end")
    assert wait_for(lambda: box.dice != 3)
