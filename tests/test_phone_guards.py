"""The phone page's guards against someone on the home Wi-Fi (docs/phone.md, threat model): the banker's
PIN needs the table code first and a stranger's wrong PINs lock out only the stranger's phone, longer each
time; a page asked for under a name that is not the box's (DNS rebinding) is refused in one line; the
health figures are the banker's (or the box's own); one phone cannot hold the pairing by asking again and
again, and a second phone is told when to try; every page a role may not see sends it to join."""

import socket

import pytest
from test_phone_views import ANNA, BANKER_PIN, BORIS, Phone, box, head, pair_by_card, start_box

from companion.daemon import phone as phone_service

__all__ = ["box"]


class Clock:
    """The service's clock, moved by the test: lock-outs and pairings wait seconds, not the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(box, monkeypatch):
    fake = Clock()
    monkeypatch.setattr(box.phone, "clock", fake)
    return fake


def at(phone, address):
    """The phone's requests come from this address on the Wi-Fi."""
    phone.client.environ_base["REMOTE_ADDR"] = address
    return phone


def banker_try(phone, pin):
    return phone.post("/phone/banker", pin=pin)


# ----- 1. the banker's PIN: the table code first, and a stranger locks out only themselves -----------------


def test_a_visitor_without_the_table_code_may_not_try_the_bankers_pin(box):
    visitor = Phone(box)
    assert b'id="banker-form"' not in visitor.open("/phone/join").data
    answer = banker_try(visitor, BANKER_PIN)  # even the right PIN
    assert answer.status_code == 403 and "table code" in answer.json["error"]
    assert visitor.role() == "visitor"
    joined = Phone(box).join()
    assert b'id="banker-form"' in joined.open("/phone/join").data
    assert banker_try(joined, BANKER_PIN).status_code == 200 and joined.role() == "banker"


def test_a_strangers_wrong_pins_lock_out_the_stranger_not_the_real_banker(box, clock):
    laptop = at(Phone(box).join(), "192.168.1.66")
    for _ in range(phone_service.PIN_TRIES):
        assert banker_try(laptop, "0000").json == {"error": "Wrong PIN"}
    locked = banker_try(laptop, BANKER_PIN)
    assert locked.status_code == 403 and locked.json["error"] == "Too many wrong PINs: wait 30 s"
    banker = at(Phone(box).join(), "192.168.1.10")  # the banker's own phone, at the same moment
    assert banker_try(banker, BANKER_PIN).status_code == 200 and banker.role() == "banker"
    assert laptop.role() == "spectator"


def test_each_lock_out_of_the_same_phone_lasts_twice_as_long_and_the_right_pin_starts_afresh(box, clock):
    laptop = at(Phone(box).join(), "192.168.1.66")
    waits = []
    for _ in range(4):
        for _ in range(phone_service.PIN_TRIES):
            assert banker_try(laptop, "0000").json == {"error": "Wrong PIN"}
        waits.append(banker_try(laptop, "0000").json["error"])
        clock.now += 2 * phone_service.PIN_LOCK_MAX_S  # whatever the lock was, it is over
    assert waits == [f"Too many wrong PINs: wait {s} s" for s in (30, 60, 120, 240)]
    assert banker_try(laptop, BANKER_PIN).status_code == 200  # the right PIN once the lock is over ...
    for _ in range(phone_service.PIN_TRIES):
        banker_try(laptop, "0000")
    assert banker_try(laptop, "0000").json["error"] == "Too many wrong PINs: wait 30 s"  # ... starts afresh


def test_the_longest_lock_out_is_capped(box, clock):
    laptop = at(Phone(box).join(), "192.168.1.66")
    for _ in range(12):
        for _ in range(phone_service.PIN_TRIES):
            banker_try(laptop, "0000")
        last = banker_try(laptop, "0000").json["error"]
        clock.now += 2 * phone_service.PIN_LOCK_MAX_S
    assert last == f"Too many wrong PINs: wait {int(phone_service.PIN_LOCK_MAX_S)} s"


def test_a_seat_pin_guessed_from_one_phone_does_not_lock_the_player_out(box, clock):
    banker = Phone(box).banker()
    assert banker.post("/phone/seat-pin", seat="2", pin="4711").status_code == 200
    laptop = at(Phone(box).join(), "192.168.1.66")
    for _ in range(phone_service.PIN_TRIES):
        assert laptop.post("/phone/claim", seat="2", pin="1234").status_code == 403
    assert "wait 30 s" in laptop.post("/phone/claim", seat="2", pin="4711").json["error"]
    boris = at(Phone(box).join(), "192.168.1.12")
    assert boris.post("/phone/claim", seat="2", pin="4711").json["player"] == "Boris"


# ----- 2. DNS rebinding: only the box's own names -------------------------------------------------------------


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:8080", "attacker.localhost.evil.example", "127.0.0.1.nip.io"]
)
def test_a_page_asked_for_under_another_name_is_one_line_never_the_page(box, host):
    phone = Phone(box).join()
    before = head(box)
    for answer in (
        phone.client.get("/phone/", headers={"Host": host}),
        phone.client.get("/phone/api/state", headers={"Host": host}),
        phone.client.get("/phone/static/phone.js", headers={"Host": host}),
        phone.client.post(
            "/phone/act",
            headers={"Host": host, "X-CSRF-Token": phone.csrf},
            json={"aid": "rebound-0001", "verb": "roll", "args": ["3", "4"]},
        ),
    ):
        assert answer.status_code == 400 and answer.mimetype == "application/json"
        assert answer.json["error"].startswith("refused:") and "\n" not in answer.json["error"]
        assert "Anna" not in answer.get_data(as_text=True) and "Set-Cookie" not in answer.headers
    assert head(box) == before
    root = box.app.test_client().get("/", headers={"Host": host})
    assert root.status_code == 400 and "Location" not in root.headers


def test_the_boxs_own_names_and_addresses_and_localhost_are_served(box):
    name = socket.gethostname()
    for host in (
        "localhost",
        "localhost:8080",
        "127.0.0.1:8080",
        "192.168.1.20:8080",
        "[::1]:8080",
        f"{name}:8080",
        f"{name}.local:8080",
        f"{name.upper()}.LOCAL.",
    ):
        answer = box.app.test_client().get("/phone/join", headers={"Host": host})
        assert answer.status_code == 200 and b'id="join-form"' in answer.data, host


def test_names_in_the_config_are_served_too(tmp_path):
    daemon = start_box(
        tmp_path, **{"phone.allowed_hosts": "banker.lan, Table.Home", "phone.url": "http://companion.example.org:8080/"}
    )
    try:
        client = daemon.app.test_client()
        for host in ("banker.lan", "table.home:8080", "companion.example.org:8080"):
            assert client.get("/phone/join", headers={"Host": host}).status_code == 200, host
        assert client.get("/phone/join", headers={"Host": "other.lan"}).status_code == 400
    finally:
        daemon.stop()


# ----- 3. the health figures: the banker's, or the box's own ------------------------------------------------


def test_the_health_figures_are_the_bankers_or_the_boxs_own(box):
    for phone in (
        at(Phone(box), "192.168.1.66"),
        at(Phone(box).join(), "192.168.1.66"),
        at(Phone(box).join().pair(ANNA), "192.168.1.11"),
    ):
        answer = phone.client.get("/phone/api/health")
        assert answer.status_code == 403 and "banker" in answer.json["error"]
    banker = at(Phone(box).banker(), "192.168.1.10")
    assert banker.client.get("/phone/api/health").json == {"failures": 0, "streams": 0}
    local = Phone(box)  # a visitor on the box itself (loopback): a monitoring script
    assert local.client.get("/phone/api/health").json["failures"] == 0


# ----- 4. pairing: one phone at a time, and no phone holds it for ever --------------------------------------


def test_a_second_phone_asking_to_pair_is_told_when_to_try_again(box, clock):
    first, second = Phone(box).join(), Phone(box).join()
    assert first.post("/phone/pair").status_code == 200
    clock.now += 20
    busy = second.post("/phone/pair")
    assert busy.status_code == 409 and busy.json["error"] == "Another phone is pairing: try again in 40 s"
    russian = Phone(box, language="ru").join().post("/phone/pair")
    assert russian.json["error"] == "Сейчас привязывается другой телефон: попробуйте через 40 с"
    pair_by_card(box, ANNA)  # the line names the one that waits
    assert first.role() == "player" and second.role() == "spectator"


def test_asking_again_from_the_same_phone_replaces_its_request_and_does_not_restart_the_wait(box, clock):
    phone = Phone(box).join()
    code = phone.post("/phone/pair").json["code"]
    again = phone.post("/phone/pair")  # at once: too soon
    assert again.status_code == 429 and again.json["error"] == "Wait 3 s before asking again"
    clock.now += 50
    replaced = phone.post("/phone/pair")
    assert replaced.status_code == 200 and replaced.json["code"] == code
    assert [p.state for p in box.phone.pairing._pairings.values()] == ["waiting"]  # one request, not two
    clock.now += 11  # 61 s after the first ask: asking again did not extend it
    assert phone.client.get("/phone/api/me").json["pairing"]["state"] == "stale"


def test_a_phone_asking_again_and_again_cannot_keep_another_phone_from_pairing(box, clock):
    hog, boris = Phone(box).join(), Phone(box).join()
    assert hog.post("/phone/pair").status_code == 200
    clock.now += 10
    assert boris.post("/phone/pair").status_code == 409  # told to come back in 50 s
    for _ in range(16):  # the hog asks every 3 s, up to 58 s after it first asked
        clock.now += 3
        assert hog.post("/phone/pair").status_code == 200
    clock.now += 3  # past the hog's 60 s: asking again did not extend them
    answer = hog.post("/phone/pair")
    assert answer.status_code == 409 and "Another phone" in answer.json["error"]  # the one turned away goes first
    assert boris.post("/phone/pair").status_code == 200
    pair_by_card(box, BORIS)
    assert boris.role() == "player" and hog.role() == "spectator"


def test_a_phone_turned_away_that_never_comes_back_holds_nothing_for_long(box, clock):
    first, second, third = Phone(box).join(), Phone(box).join(), Phone(box).join()
    first.post("/phone/pair")
    assert second.post("/phone/pair").status_code == 409
    first.post("/phone/pair/cancel")
    assert third.post("/phone/pair").status_code == 409  # the second's turn first ...
    clock.now += phone_service.PAIR_WAIT_S + phone_service.PAIR_RESERVE_S + 1
    assert third.post("/phone/pair").status_code == 200  # ... until it has had its chance


# ----- 5. every page a role may not see sends it to join ----------------------------------------------------

PAGES = {
    "/phone/table": "spectator",
    "/phone/board": "spectator",
    "/phone/ledger": "spectator",
    "/phone/player/1": "spectator",
    "/phone/summary": "spectator",
    "/phone/me": "player",
    "/phone/act": "player",
    "/phone/undo": "banker",
    "/phone/game": "banker",
}
RANK = {"visitor": 0, "spectator": 1, "player": 2, "banker": 3}


def test_every_page_sends_a_role_that_may_not_see_it_to_join_and_shows_it_to_the_rest(box):
    phones = {
        "visitor": Phone(box),
        "spectator": Phone(box).join(),
        "player": Phone(box).join().pair(ANNA),
        "banker": Phone(box).join().banker(),
    }
    for path, lowest in PAGES.items():
        for role, phone in phones.items():
            answer = phone.open(path)
            if RANK[role] >= RANK[lowest]:
                assert answer.status_code == 200, (path, role)
            else:
                assert answer.status_code == 303 and answer.headers["Location"].endswith("/phone/"), (path, role)


def test_pin_guesses_count_by_ipv4_address_and_by_ipv6_slash_64():
    """A phone on IPv6 takes any address of its /64 at will: guessing from a fresh one each time must not
    start its count afresh; an IPv4 address written as IPv6 is the same guesser as itself."""
    from web.hosts import guesser

    assert guesser("2001:db8:1:2::17") == guesser("2001:db8:1:2:ffff::99") == "2001:db8:1:2::/64"
    assert guesser("2001:db8:1:3::17") != guesser("2001:db8:1:2::17")
    assert guesser("::ffff:192.168.1.7") == guesser("192.168.1.7") == "192.168.1.7"
    assert guesser("192.168.1.8") != guesser("192.168.1.7")


def test_a_pairing_asked_in_the_last_game_is_stale_and_keeps_no_phone_waiting(box):
    banker, guest = Phone(box).banker(), Phone(box).join()
    assert guest.post("/phone/pair").status_code == 200
    assert banker.post("/phone/game/end", aid="end-game-1").status_code == 200
    assert banker.post("/phone/game/archive", aid="archive-game-1").status_code == 200
    assert (
        banker.post("/phone/game/start", aid="start-game-2", edition="elite", players="Anna\nBoris").status_code == 200
    )
    other = Phone(box).join()
    assert other.post("/phone/pair").status_code == 200  # not told "another phone is pairing"
    assert box.phone.waiting_code() == other.client.get("/phone/api/me").json["pairing"]["code"]
