"""The phone page attacked from inside the threat model (plain HTTP on the home Wi-Fi, docs/phone.md): a
player at the table with a laptop on the same network. A JSON body nested too deep is bad input, not a
failure; a role that rises gets a new session token (a token planted or read before stays a visitor's); an
action id from an earlier game books in the new one; one client opening streams by the dozen ends its own,
never the banker's; markup in a refused request comes back as JSON
(the page shows it as text), never as a page."""

import io
import secrets
import threading
import time

from test_phone_live import ledger, read, stream
from test_phone_views import ANNA, BANKER_PIN, Phone, box, cash, head, start_box, tap_card

__all__ = ["box"]

COOKIE = "companion_phone"


def failures(phone):
    return phone.client.get("/phone/api/health").json["failures"]


def token(phone):
    cookie = phone.client.get_cookie(COOKIE, path="/phone")
    return cookie.value if cookie is not None else None


def test_a_json_body_nested_too_deep_is_one_clear_line_not_a_failure(box):
    phone = Phone(box).join()
    deep = "[" * 5000 + "]" * 5000
    # the token in the header (the body is only ever parsed for the action) and in the body itself
    answer = phone.client.post(
        "/phone/act", data=deep, content_type="application/json", headers={"X-CSRF-Token": phone.csrf}
    )
    assert answer.status_code == 400 and answer.json["error"]
    body = '{"csrf": "%s", "aid": "deep-aid-1", "verb": "pay", "args": %s}' % (phone.csrf, deep[:8000])
    answer = phone.client.post("/phone/act", data=body, content_type="application/json")
    assert answer.status_code in (400, 403) and answer.json["error"]
    assert failures(phone) == 0  # nothing unexpected: no traceback in the log, no 500


def test_a_session_token_planted_on_a_phone_stays_a_visitors_when_the_role_rises(box):
    laptop = Phone(box)
    planted = token(laptop)
    victim = Phone(box)
    victim.client.set_cookie(COOKIE, planted, path="/phone")  # fixation: the laptop's token on the banker's phone
    victim.open("/phone/join")
    assert victim.post("/phone/join", code=box.phone.table_code()).status_code == 200
    assert token(victim) != planted
    assert victim.post("/phone/banker", pin=BANKER_PIN).status_code == 200
    assert victim.role() == "banker"
    # the laptop, still holding the planted token, is nobody: it can neither read the game nor undo
    assert laptop.client.get("/phone/api/me").json["role"] == "visitor"
    before = head(box)
    assert laptop.post("/phone/undo", aid=secrets.token_hex(8), seq="1").status_code == 403
    assert head(box) == before
    # the banker's page keeps working with its new cookie and the CSRF token it has
    assert victim.post("/phone/lang", lang="ru").status_code == 200


def test_a_phone_paired_by_a_card_or_a_seat_pin_gets_a_new_token(box):
    anna = Phone(box).join()
    seen = token(anna)
    anna.pair(ANNA)
    assert token(anna) != seen and anna.role() == "player"
    banker = Phone(box).banker()
    assert banker.post("/phone/seat-pin", seat="2", pin="1357").status_code == 200
    boris = Phone(box).join()
    seen = token(boris)
    assert boris.post("/phone/claim", seat="2", pin="1357").status_code == 200
    assert token(boris) != seen and boris.role() == "player"


def test_an_action_id_from_an_earlier_game_books_in_the_new_one(box):
    banker, anna = Phone(box).banker(), Phone(box).join().pair(ANNA)
    aid = "same-aid-every-game"
    assert anna.act("pay", "Anna", "Boris", "150", aid=aid).status_code == 200
    assert banker.post("/phone/game/end", aid="end-game-1").status_code == 200
    assert banker.post("/phone/game/archive", aid="archive-game-1").status_code == 200
    started = banker.post("/phone/game/start", aid="start-game-2", edition="elite", players="Anna\nBoris\nVera")
    assert started.status_code == 200, started.json
    anna = Phone(box).join().pair(ANNA)  # the card still names seat 1
    before, paid = head(box), cash(box, "Boris")
    again = anna.act("pay", "Anna", "Boris", "150", aid=aid)
    assert again.status_code == 200, again.json
    assert not again.json.get("replayed") and head(box) == before + 1  # booked in this game, not game 1's answer
    assert cash(box, "Boris") == paid + 150


def test_one_client_opening_streams_by_the_dozen_ends_its_own_never_the_bankers(tmp_path):
    daemon = start_box(tmp_path)
    try:
        from web.phone import create_phone_app

        daemon.app = create_phone_app(daemon.phone, SSE_POLL=0.05, SSE_KEEPALIVE=0.2, SSE_RETRY_MS=100, MAX_STREAMS=4)
        banker = Phone(daemon).banker()
        banker.client.environ_base["REMOTE_ADDR"] = "192.168.1.10"
        anna = Phone(daemon).join().pair(ANNA)
        anna.client.environ_base["REMOTE_ADDR"] = "192.168.1.11"
        laptop = Phone(daemon).join()
        laptop.client.environ_base["REMOTE_ADDR"] = "192.168.1.66"
        watching = stream(banker, since=head(daemon))
        read(watching, lambda ev: True, timeout=0.3)  # the stream is open (its first chunk sent)
        floods = []
        for _ in range(10):
            flood = stream(laptop, since=head(daemon))
            read(flood, lambda ev: True, timeout=0.3)
            floods.append(flood)
        assert daemon.app.test_client().get("/phone/api/health").json["streams"] <= 4  # asked on the box itself
        assert anna.act("roll", "3", "4").status_code == 200
        events = read(watching, lambda ev: ledger(ev), timeout=3.0)
        assert [seq for seq, _ in ledger(events)] == [head(daemon)]  # the banker's page is still live
        for response in [watching, *floods]:
            response.close()
    finally:
        daemon.stop()


def test_markup_in_a_refused_request_comes_back_as_json_never_as_a_page(box):
    phone = Phone(box).join().pair(ANNA)
    for answer in (
        phone.client.get("/phone/%3Cscript%3Ealert(1)%3C/script%3E"),
        phone.act("pay", "</script><b>x", '"><svg onload=1>'),
        phone.act("trade", give=["<b>x</b>"], get=["Ё\u202e"]),
    ):
        assert answer.status_code in (400, 404, 409) and answer.mimetype == "application/json"
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.json["error"]
    assert failures(phone) == 0


def test_pins_sent_all_at_once_get_no_more_tries_than_one_after_another(box, monkeypatch):
    from companion.daemon import phone as phone_service

    real = phone_service.roles.hmac.compare_digest

    def slow(a, b):  # a comparison that takes a while, so the requests overlap as on a busy box
        time.sleep(0.05)
        return real(a, b)

    monkeypatch.setattr(phone_service.roles.hmac, "compare_digest", slow)
    phones = [Phone(box).join() for _ in range(3 * phone_service.PIN_TRIES)]  # all from one address
    start, answers = threading.Barrier(len(phones)), []

    def guess(phone, pin):
        start.wait()
        answers.append(phone.post("/phone/banker", pin=pin).json["error"])

    threads = [threading.Thread(target=guess, args=(p, f"{1000 + i}")) for i, p in enumerate(phones)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert len(answers) == len(phones)
    assert answers.count("Wrong PIN") == phone_service.PIN_TRIES  # the rest were told to wait
    locked = Phone(box).join().post("/phone/banker", pin=BANKER_PIN)  # from that address: locked, even the right one
    assert locked.status_code == 403 and "wait" in locked.json["error"]


def test_every_phone_is_told_when_a_phone_is_locked_out_of_the_bankers_pin(box):
    from companion.daemon import phone as phone_service

    banker = Phone(box, language="ru").join()
    banker.client.environ_base["REMOTE_ADDR"] = "192.168.1.10"
    watching = stream(banker, since=head(box), **{"Accept-Language": "ru"})
    laptop = Phone(box).join()
    laptop.client.environ_base["REMOTE_ADDR"] = "192.168.1.66"
    for _ in range(phone_service.PIN_TRIES):
        assert laptop.post("/phone/banker", pin="0000").status_code == 403
    events = read(watching, lambda ev: any(kind == "notice" and "PIN" in d["text"] for kind, _, d in ev), timeout=3.0)
    watching.close()
    notices = [d["text"] for kind, _, d in events if kind == "notice" and "PIN" in d["text"]]
    assert notices == [
        "Кто-то с телефона раз за разом вводит неверный PIN-код банкира: этому телефону вход закрыт "
        "на 30 с (с других войти можно)"
    ]
    locked = laptop.post("/phone/banker", pin=BANKER_PIN)
    assert locked.status_code == 403 and "wait" in locked.json["error"]
    assert banker.post("/phone/banker", pin=BANKER_PIN).status_code == 200  # the real banker is not locked out


def test_a_flood_of_sessions_that_joined_never_shuts_a_new_phone_out(tmp_path):
    daemon = start_box(tmp_path)
    try:
        from web.phone import create_phone_app

        daemon.app = create_phone_app(daemon.phone, MAX_SESSIONS=8)
        banker, anna = Phone(daemon).banker(), Phone(daemon).join().pair(ANNA)
        laptop = [Phone(daemon).join() for _ in range(20)]  # each with the table code, as anyone at the table
        assert laptop[-1].role() == "spectator"
        newcomer = Phone(daemon)
        assert newcomer.post("/phone/join", code=daemon.phone.table_code()).status_code == 200
        assert newcomer.role() == "spectator"
        assert banker.role() == "banker" and anna.role() == "player"  # and nobody who holds a role lost it
    finally:
        daemon.stop()


def test_a_pairing_asked_in_an_earlier_game_binds_nothing_in_the_new_one(box):
    banker, guest = Phone(box).banker(), Phone(box).join()
    assert guest.post("/phone/pair").status_code == 200  # a guest's phone waits, then the game changes
    assert banker.post("/phone/game/end", aid="end-game-1").status_code == 200
    assert banker.post("/phone/game/archive", aid="archive-game-1").status_code == 200
    started = banker.post("/phone/game/start", aid="start-game-2", edition="elite", players="Anna\nBoris\nVera")
    assert started.status_code == 200, started.json
    tap_card(box, ANNA)  # Anna's card, for the new game
    assert guest.role() == "visitor"  # the guest never read this game's code: not Anna, not a spectator


def test_a_huge_upload_sent_in_chunks_is_refused_as_too_large_inside_the_virtual_tables_app(box):
    from flask import Flask

    from web.phone import register_phone

    app = Flask("virtual-table")  # register_phone into another app, as the virtual table does: its own limits
    register_phone(app, box.phone)
    box.app = app
    phone = Phone(box).join()
    boundary = "x" * 16
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n{phone.csrf}\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="lang"; filename="a.bin"\r\n'
            f"Content-Type: application/octet-stream\r\n\r\n"
        ).encode()
        + b"a" * 2_000_000
        + f"\r\n--{boundary}--\r\n".encode()
    )
    answer = phone.client.post(
        "/phone/lang",
        input_stream=io.BytesIO(body),
        headers={"Transfer-Encoding": "chunked", "Content-Type": f"multipart/form-data; boundary={boundary}"},
        environ_overrides={"wsgi.input_terminated": True},
    )  # as waitress says of a chunked body
    assert answer.status_code == 413 and answer.json["error"] == "the request is too large"
    assert failures(phone) == 0
