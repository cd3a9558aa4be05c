"""Who may do what from a phone, on a real daemon: a player's card opens their menu, where choosing "Phone …
is mine" pairs the one waiting phone (a stale pairing: the card means what it always means), a seat PIN where there is no
reader, the banker's table PIN; each player acts only for themselves with the engine's own refusals, a
spectator not at all; a forged CSRF token, another site's page, a replayed or reused action id, malformed
input: one clear line and nothing booked; sessions end with the game."""

import time

import pytest
from test_phone_views import (
    ANNA,
    BANKER_PIN,
    BORIS,
    VERA,
    Phone,
    box,
    cash,
    head,
    pair_by_card,
    play,
    press_button,
    start_box,
    tap_card,
    text_of,
)

from companion.daemon import phone as phone_service
from companion.words import messages

__all__ = ["box"]  # the fixture, shared


def test_a_players_card_pairs_the_waiting_phone_with_that_seat_when_they_choose_it(box):
    """docs/phone.md: the card opens the player's menu with "Phone 417 is mine" first; OK on it binds."""
    phone = Phone(box).join()
    answer = phone.post("/phone/pair")
    code = answer.json["code"]
    assert answer.status_code == 200 and code.isdigit() and len(code) == 3
    assert code in text_of(phone.open("/phone/join"))  # the phone shows the code ...
    notices = []
    sub = box.owner.subscribe(since=head(box))
    tap_card(box, BORIS)
    assert box.console.frame.lines[0] == f"Phone {code} is mine"  # ... and so does Boris's menu, first
    assert phone.role() == "spectator"  # not his phone yet
    press_button(box, "ok")
    while (item := sub.get(timeout=0.5)) is not None:
        if item.notice is not None:
            notices.append(item.notice)
    sub.close()
    me = phone.client.get("/phone/api/me").json
    assert me["role"] == "player" and me["player"] == "Boris"
    assert any(n.code == "phone_paired" and n.params == {"pairing": code, "player": "Boris"} for n in notices)
    assert b'id="nav-act"' in phone.open("/phone/table").data


def test_a_tap_while_a_phone_waits_keeps_its_own_meaning(box):
    """A guest with the table code asks to pair; Anna taps her card to do something of her own: her menu
    opens as always, and leaving it binds nothing (the tap used to hand the guest her seat)."""
    guest = Phone(box).join()
    code = guest.post("/phone/pair").json["code"]
    tap_card(box, ANNA)
    lines = box.console.frame.lines
    assert lines[0] == f"Phone {code} is mine" and len(lines) > 1  # her own actions follow
    press_button(box, "back")
    assert guest.role() == "spectator" and guest.client.get("/phone/api/me").json["pairing"]["state"] == "waiting"
    # chosen once the pairing is gone: one line, nothing bound
    tap_card(box, ANNA)
    guest.post("/phone/pair/cancel")
    sub = box.owner.subscribe(since=head(box))
    press_button(box, "ok")
    said = []
    while (item := sub.get(timeout=0.5)) is not None:
        if item.notice is not None:
            said.append(messages.render(item.notice.code, item.notice.params, "en"))
    sub.close()
    assert guest.role() == "spectator"
    assert said == [f"Phone {code} no longer waits to pair: ask again on the phone"]


def test_the_box_shows_the_waiting_phones_code(box):
    sub = box.owner.subscribe(since=head(box))
    code = Phone(box).join().post("/phone/pair").json["code"]
    item = sub.get(timeout=2)
    while item is not None and (item.notice is None or not item.notice.code.startswith("phone_")):
        item = sub.get(timeout=2)
    sub.close()
    assert item.notice.code == "phone_pair_waiting" and item.notice.params == {"pairing": code}
    from companion.words import messages

    assert code in messages.render(item.notice.code, item.notice.params, "ru")


def test_a_pairing_over_the_real_reader_and_its_firmware(box):
    """The card put on the simulated reader goes through the firmware, the serial link and the daemon."""
    from companion.daemon.main import wait_for

    assert wait_for(lambda: box.link.state.state == "ready")
    phone = Phone(box).join()
    phone.post("/phone/pair")
    box.sim.place(VERA)
    time.sleep(0.15)
    box.sim.remove()
    assert wait_for(lambda: box.console.frame is not None and "is mine" in box.console.frame.lines[0], 5.0)
    press_button(box, "ok")
    assert wait_for(lambda: phone.role() == "player", 5.0)
    assert phone.client.get("/phone/api/me").json["player"] == "Vera"


def test_two_phones_pair_one_at_a_time(box):
    """The menu's line names the one phone that waits: a second phone asking meanwhile waits its turn."""
    first, second = Phone(box).join(), Phone(box).join()
    assert first.post("/phone/pair").status_code == 200
    busy = second.post("/phone/pair")
    assert busy.status_code == 409 and "Another phone is pairing" in busy.json["error"]
    before = head(box)
    pair_by_card(box, ANNA)
    assert first.role() == "player" and second.role() == "spectator"
    assert head(box) == before
    # then the second's turn
    assert second.post("/phone/pair").status_code == 200
    pair_by_card(box, BORIS)
    assert second.role() == "player" and second.client.get("/phone/api/me").json["player"] == "Boris"


def test_a_stale_pairing_binds_nothing_and_the_card_means_what_it_always_means(box, monkeypatch):
    phone = Phone(box).join()
    phone.post("/phone/pair")
    monkeypatch.setattr(phone_service.pairing, "PAIR_WAIT_S", 0.05)
    time.sleep(0.1)
    tap_card(box, ANNA)
    assert phone.role() == "spectator"
    assert phone.client.get("/phone/api/me").json["pairing"]["state"] == "stale"
    assert "The pairing ran out of time" in text_of(phone.open("/phone/join"))
    assert box.console.stack  # Anna's card opened her menu on the box, as without a phone


def test_a_cancelled_pairing_binds_nothing(box):
    phone = Phone(box).join()
    phone.post("/phone/pair")
    assert phone.post("/phone/pair/cancel").status_code == 200
    tap_card(box, ANNA)
    assert phone.role() == "spectator"


def test_a_seat_pin_the_banker_set_claims_the_seat(box):
    banker = Phone(box).banker()
    assert banker.post("/phone/seat-pin", seat="2", pin="4711").json["player"] == "Boris"
    phone = Phone(box).join()
    wrong = phone.post("/phone/claim", seat="2", pin="1234")
    assert wrong.status_code == 403 and wrong.json == {"error": "Wrong PIN"}
    assert phone.post("/phone/claim", seat="3", pin="4711").status_code == 403  # Vera's seat has no PIN
    assert phone.post("/phone/claim", seat="2", pin="4711").json["player"] == "Boris"
    assert phone.role() == "player"
    assert banker.post("/phone/seat-pin", seat="2", pin="12").status_code == 400  # 4 to 8 digits
    assert banker.post("/phone/seat-pin", seat="9", pin="1234").status_code == 400


def test_wrong_pins_lock_for_a_while(box):
    phone = Phone(box).join()
    for _ in range(phone_service.PIN_TRIES):
        assert phone.post("/phone/banker", pin="0000").json == {"error": "Wrong PIN"}
    locked = phone.post("/phone/banker", pin=BANKER_PIN)  # even the right one, for now
    assert locked.status_code == 403 and "wait" in locked.json["error"]
    assert phone.role() == "spectator"


def test_no_banker_pin_on_the_box_means_no_banker_phone(tmp_path):
    daemon = start_box(tmp_path, **{"phone.banker_pin": ""})
    try:
        phone = Phone(daemon).join()
        answer = phone.post("/phone/banker", pin="")
        assert answer.status_code in (400, 403) and phone.role() == "spectator"
        assert phone.post("/phone/banker", pin="1234").json["error"].startswith("No banker's PIN")
    finally:
        daemon.stop()


def test_a_player_acts_for_themselves_and_sees_only_their_actions(box):
    anna = Phone(box).join().pair(ANNA)
    page = anna.open("/phone/act").data.decode()
    assert "Roll the dice" in page and "Boris:" not in page  # her own menu, no one else's
    done = anna.act("roll", "3", "4")
    assert done.status_code == 200 and done.json["lines"][0] == "Anna rolls 3 and 4"
    event = box.owner.table.game.events[-1]
    assert event.actor == "Anna" and event.command == "roll 3 4"
    assert anna.act("buy").status_code == 200
    assert box.owner.table.state.owner["food1"] == "Anna"


def test_a_player_acting_for_another_is_refused_as_the_buttons_refuse(box):
    anna = Phone(box).join().pair(ANNA)
    before, boris = head(box), cash(box, "Boris")
    answer = anna.act("pay", "Boris", "Anna", "100")  # Boris paying Anna, from Anna's phone
    assert answer.status_code == 409 and "\n" not in answer.json["error"]
    assert "Boris" in answer.json["error"]
    assert head(box) == before and cash(box, "Boris") == boris
    assert anna.act("roll", "3", "4").status_code == 200
    boris_phone = Phone(box).join().pair(BORIS)
    refused = boris_phone.act("buy")  # Anna's decision
    assert refused.status_code == 409 and head(box) == before + 1


def test_a_spectator_and_a_visitor_cannot_act(box):
    spectator, visitor = Phone(box).join(), Phone(box)
    before = head(box)
    for phone, status in ((spectator, 403), (visitor, 403)):
        answer = phone.act("roll", "3", "4")
        assert answer.status_code == status and "player" in answer.json["error"]
        assert phone.post("/phone/undo", aid="abcdefgh", seq="1").status_code == 403
        assert phone.post("/phone/game/end", aid="abcdefgh").status_code == 403
        assert phone.post("/phone/seat-pin", seat="1", pin="1234").status_code == 403
    anna = Phone(box).join().pair(ANNA)
    assert anna.post("/phone/undo", aid="abcdefgh", seq="1").status_code == 403  # a player is not the banker
    assert anna.post("/phone/game/end", aid="abcdefgh").status_code == 403
    assert head(box) == before


def test_a_forged_or_missing_csrf_token_and_another_sites_page_are_refused(box):
    anna = Phone(box).join().pair(ANNA)
    before = head(box)
    forged = anna.act("roll", "3", "4", csrf="forged-token")
    assert forged.status_code == 403 and forged.json["error"] == "refused: the page is out of date (reload it)"
    missing = anna.client.post("/phone/act", data={"aid": "abcdefgh1", "verb": "roll", "arg": ["3", "4"]})
    assert missing.status_code == 403
    other = Phone(box).join()  # another phone's own, valid token is not Anna's
    assert anna.act("roll", "3", "4", csrf=other.csrf).status_code == 403
    cross = anna.post(
        "/phone/act", aid="abcdefgh2", verb="roll", arg=["3", "4"], headers={"Origin": "http://evil.example"}
    )
    assert cross.status_code == 403 and "another site" in cross.json["error"]
    assert head(box) == before
    header = anna.client.post(
        "/phone/act", json={"aid": "abcdefgh3", "verb": "roll", "args": ["3", "4"]}, headers={"X-CSRF-Token": anna.csrf}
    )
    assert header.status_code == 200 and head(box) == before + 1


def test_a_replayed_action_id_pays_once_and_answers_as_the_first_time(box):
    anna = Phone(box).join().pair(ANNA)
    boris = cash(box, "Boris")
    first = anna.act("pay", "Anna", "Boris", "100", aid="tap-0001-double")
    again = anna.act("pay", "Anna", "Boris", "100", aid="tap-0001-double")
    assert first.status_code == again.status_code == 200
    assert again.json["seq"] == first.json["seq"] and again.json["lines"] == first.json["lines"]
    assert cash(box, "Boris") == boris + 100
    reused = anna.act("pay", "Anna", "Boris", "200", aid="tap-0001-double")  # another action under that id
    assert reused.status_code == 400 and "already used" in reused.json["error"]
    assert sum(1 for e in box.owner.table.game.events if e.command.startswith("pay Anna Boris")) == 1


def test_a_retry_after_the_cache_is_gone_is_still_answered_from_the_ledger(box):
    anna = Phone(box).join().pair(ANNA)
    first = anna.act("pay", "Anna", "Boris", "100", aid="tap-0002-retry")
    box.phone.acting._results.clear()  # the daemon forgot (the request id in the ledger has not)
    again = anna.act("pay", "Anna", "Boris", "100", aid="tap-0002-retry")
    assert again.json["seq"] == first.json["seq"]
    assert sum(1 for e in box.owner.table.game.events if e.command == "pay Anna Boris 100") == 1


@pytest.mark.parametrize(
    "fields, words",
    [
        ({"verb": "roll", "arg": ["3", "4"]}, "aid"),  # no action id
        ({"aid": "short", "verb": "roll"}, "aid"),  # too short
        ({"aid": "abcdefgh", "verb": "ROLL; drop"}, "Which action"),  # not a verb
        ({"aid": "abcdefgh", "verb": "roll", "arg": ["3 4"]}, "malformed"),  # a word with a space
        ({"aid": "abcdefgh", "verb": "roll", "arg": ["x" * 100]}, "malformed"),
        ({"aid": "abcdefgh", "verb": "trade", "arg": ["Anna", "Boris"], "give_cash": "-5"}, "amount"),
    ],
)
def test_malformed_actions_get_one_clear_line_and_book_nothing(box, fields, words):
    anna = Phone(box).join().pair(ANNA)
    before = head(box)
    answer = anna.post("/phone/act", **fields)
    assert answer.status_code == 400 and words in answer.json["error"] and "\n" not in answer.json["error"]
    assert head(box) == before


def test_a_body_that_is_neither_form_nor_json_is_refused(box):
    anna = Phone(box).join().pair(ANNA)
    answer = anna.client.post(
        "/phone/act",
        data=b"\x00\xff garbage",
        content_type="application/octet-stream",
        headers={"X-CSRF-Token": anna.csrf},
    )
    assert answer.status_code == 400 and answer.json["error"] == "send the fields as a form or a JSON object"
    answer = anna.client.post(
        "/phone/act", data="[1, 2", content_type="application/json", headers={"X-CSRF-Token": anna.csrf}
    )
    assert answer.status_code in (400, 403)


def test_a_trade_proposed_on_one_phone_is_accepted_on_the_other(box):
    play(box, "roll 3 4", "buy")  # Anna owns the Chocolate factory
    anna, boris = Phone(box).join().pair(ANNA), Phone(box).join().pair(BORIS)
    form = text_of(anna.open("/phone/act"))
    assert "You give Chocolate factory" in form and "You get" in form and "built-in" not in form
    proposed = anna.act("trade", "Anna", "Boris", give=["food1"], get_cash="150")
    assert proposed.status_code == 200, proposed.json
    number = box.owner.table.game.events[-1].seq
    assert f"#{number} (Anna gives Boris Chocolate factory for 150)" in boris.open("/phone/act").data.decode()
    assert anna.act("accept", str(number)).status_code == 409  # not hers to accept
    accepted = boris.act("accept", str(number))
    assert accepted.status_code == 200, accepted.json
    assert box.owner.table.state.owner["food1"] == "Boris"


def test_the_banker_undoes_with_what_depends_on_it_first(box):
    play(box, "roll 3 4", "buy", "Anna: mortgage food1")
    banker = Phone(box).banker()
    preview = banker.open("/phone/undo?seq=3").data.decode()
    assert "Undone first" in preview and "#4" in preview and "Put back" in preview
    done = banker.post("/phone/undo", aid="undo-0003-abc", seq="3")
    assert done.status_code == 200 and done.json["undone"] == [4, 3]
    assert "food1" not in box.owner.table.state.owner
    again = banker.post("/phone/undo", aid="undo-0003-abc", seq="3")
    assert again.json["undone"] == [4, 3] and head(box) == 6  # the replay books nothing more
    refused = banker.post("/phone/undo", aid="undo-0001-abc", seq="1")
    assert refused.status_code == 409


def test_the_banker_ends_archives_and_starts_a_game_and_every_other_session_ends(box):
    banker, anna, watcher = Phone(box).banker(), Phone(box).join().pair(ANNA), Phone(box).join()
    assert banker.post("/phone/game/archive", aid="archive-1").status_code == 409  # not over yet
    assert banker.post("/phone/game/end", aid="end-game-1").status_code == 200
    assert anna.act("roll", "3", "4").status_code == 409  # the game is over: the rules refuse
    assert banker.post("/phone/game/archive", aid="archive-2").status_code == 200
    assert anna.role() == watcher.role() == "visitor"  # sessions end with the game
    started = banker.post("/phone/game/start", aid="start-game-1", edition="classic", players="Ann\nBob\n")
    assert started.status_code == 200, started.json
    # issue 23: the shipped Classic board is not checked against a box, and the start says so once
    assert started.json["lines"] == [
        "New game of Millionaire Classic: Ann, Bob",
        "This board is not checked against your box: 66 of 153 items are placeholders (Game > Our board)",
    ]
    assert banker.role() == "banker" and list(box.owner.table.state.players) == ["Ann", "Bob"]
    assert anna.act("roll", "3", "4").status_code == 403
    assert banker.post("/phone/game/start", aid="start-game-2", edition="classic", players="Solo").status_code == 400
    assert banker.post("/phone/game/start", aid="start-game-3", edition="chess", players="A\nB").status_code == 400


def test_bids_from_two_phones_and_the_host_closes_the_auction(box):
    play(box, "roll 3 4", "decline")
    anna, boris = Phone(box).join().pair(ANNA), Phone(box).join().pair(BORIS)
    assert "Bid" in boris.open("/phone/act").data.decode()
    assert boris.act("bid", "Boris", "100").status_code == 200
    assert anna.act("bid", "Anna", "90").status_code == 409  # below the last bid
    assert anna.act("bid", "Anna", "120").status_code == 200
    banker = Phone(box).banker()
    assert banker.act("hammer").status_code == 200
    assert box.owner.table.state.owner["food1"] == "Anna"


def test_the_box_closes_a_quiet_auction_going_once_twice(tmp_path):
    daemon = start_box(tmp_path, **{"phone.auction_quiet_seconds": 0.9})
    try:
        play(daemon, "roll 3 4", "decline")
        sub = daemon.owner.subscribe(since=head(daemon))
        boris = Phone(daemon).join().pair(BORIS)
        assert boris.act("bid", "Boris", "100").status_code == 200
        said, deadline = [], time.monotonic() + 10
        while time.monotonic() < deadline and daemon.owner.table.state.owner.get("food1") is None:
            item = sub.get(timeout=0.2)
            if item is not None and item.notice is not None:
                said.append(item.notice.code)
        sub.close()
        assert daemon.owner.table.state.owner.get("food1") == "Boris"
        assert daemon.owner.table.game.events[-1].command == "hammer" or any(
            e.command == "hammer" for e in daemon.owner.table.game.events
        )
        assert said.index("auction_going_once") < said.index("auction_going_twice")
    finally:
        daemon.stop()


def test_a_flood_of_new_pages_never_takes_a_joined_phones_session(box):
    anna = Phone(box).join().pair(ANNA)
    limit = box.app.extensions["phone"].config["MAX_SESSIONS"]
    for _ in range(limit + 50):
        box.app.test_client().get("/phone/")  # a page with no cookie each time: a new session
    assert anna.role() == "player" and anna.act("roll", "3", "4").status_code == 200


def test_shares_and_insurance_from_a_players_phone_show_on_every_phone(box):
    anna = Phone(box).join().pair(ANNA)
    price = box.owner.table.state.extra["price"]
    before = cash(box, "Anna")
    shares = anna.act("buy_shares", "Anna", "2")
    assert shares.status_code == 200, shares.json
    policy = anna.act("insure", "Anna", "green")
    assert policy.status_code == 200, policy.json
    assert cash(box, "Anna") < before - 2 * price + 1
    watcher = Phone(box).join()
    table = text_of(watcher.open("/phone/table"))
    assert "Anna: 1 GREEN policy (until passing START)" in table and "2 shares" in table
    me = text_of(anna.open("/phone/me"))  # a player's own page
    assert "2 shares" in me and "1 GREEN policy" in me
    russian = Phone(box, language="ru").join()
    assert "до прохождения СТАРТА" in text_of(russian.open("/phone/table"))


def test_the_banker_acts_as_the_table_for_anyone(box):
    banker = Phone(box).banker()
    page = banker.open("/phone/act").data.decode()
    assert "Anna: Roll the dice" in page and "Boris → Anna: payment…" in page and ": Pay:" not in page
    russian = Phone(box, language="ru").banker().open("/phone/act").data.decode()
    assert "Boris → Anna: платёж…" in russian and ": Платить:" not in russian  # names as typed, no case needed
    assert banker.act("roll", "3", "4").status_code == 200
    assert banker.act("buy").status_code == 200
    event = box.owner.table.game.events[-1]
    assert event.actor == "table" and event.command == "buy" and box.owner.table.state.owner["food1"] == "Anna"


def test_leaving_forgets_the_role(box):
    anna = Phone(box).join().pair(ANNA)
    assert anna.post("/phone/leave").json == {"ok": True, "role": "visitor"}
    assert anna.role() == "visitor" and anna.act("roll", "3", "4").status_code == 403
    assert anna.open("/phone/table").status_code == 303


def test_the_auctioneer_leaves_the_writer_idle_to_see_other_processes_writes(tmp_path):
    """With the auctioneer running, a command written to the ledger by another process (`companion do`
    straight on the file) still reaches the daemon's table and every phone."""
    from companion.daemon.main import wait_for
    from companion.table.service import open_game

    daemon = start_box(tmp_path, **{"phone.auction_quiet_seconds": 30.0})
    try:
        before = head(daemon)
        other = open_game(daemon.owner.table.ledger.path)
        try:
            other.submit("pay Anna Boris 5", actor="Anna")
        finally:
            other.close()
        assert wait_for(lambda: head(daemon) == before + 1, 5.0)
        assert "Anna pays Boris 5" in text_of(Phone(daemon).join().open("/phone/ledger"))
    finally:
        daemon.stop()


def test_a_visitor_without_the_table_code_can_neither_pair_nor_claim(box):
    """Someone on the Wi-Fi but not at the table cannot wait for a player's card or try seat PINs."""
    Phone(box).banker().post("/phone/seat-pin", seat="1", pin="4711")
    visitor = Phone(box)
    assert b'id="pair-go"' not in visitor.open("/phone/join").data
    for path, fields in (("/phone/pair", {}), ("/phone/claim", {"seat": "1", "pin": "4711"})):
        answer = visitor.post(path, **fields)
        assert answer.status_code == 403 and "table code" in answer.json["error"]
    tap_card(box, ANNA)
    assert visitor.role() == "visitor" and box.phone.pairing._pairings == {}
