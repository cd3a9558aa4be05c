"""The phone page live: server-sent events whose ids are the ledger's numbers. A commit from one phone
reaches another's open stream; a page that slept resumes from its Last-Event-ID and receives every event
it missed, an undo announced with what to put back; a page that saw more than the ledger holds is told to
reset; a new game ends the stream; the box's notices reach the phones; stopping closes every stream."""

import json
import threading
import time

from test_phone_views import ANNA, BORIS, Phone, box, head, play

from web.phone import close_phone_streams

__all__ = ["box"]


def read(response, want, timeout=5.0):
    """Parse the stream until `want(events)` holds: [(kind, id or None, data)]. The stream yields at least
    every SSE_KEEPALIVE (0.2 s here), so each read returns in time."""
    events, buffer, deadline = [], "", time.monotonic() + timeout
    chunks = iter(response.response)
    while time.monotonic() < deadline and not want(events):
        try:
            chunk = next(chunks)
        except StopIteration:
            break
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            fields = dict(
                line.split(": ", 1) for line in block.splitlines() if ": " in line and not line.startswith(":")
            )
            if "event" in fields:
                events.append(
                    (fields["event"], int(fields["id"]) if "id" in fields else None, json.loads(fields["data"]))
                )
    return events


def ledger(events):
    return [(i, d) for kind, i, d in events if kind == "ledger"]


def stream(phone, **headers):
    since = headers.pop("since", None)
    path = "/phone/events" + (f"?since={since}" if since is not None else "")
    return phone.client.get(path, headers=headers, buffered=False)


def test_a_commit_on_one_phone_reaches_anothers_open_stream(box):
    watcher = Phone(box).join()
    anna = Phone(box).join().pair(ANNA)
    response = stream(watcher, since=head(box))
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    booked = anna.act("roll", "3", "4").json
    events = read(response, lambda ev: ledger(ev))
    response.close()
    ((seq, data),) = ledger(events)[:1]
    assert seq == booked["seq"] == data["seq"] and data["lines"][0] == "Anna rolls 3 and 4" and data["actor"] == "Anna"
    assert data["words"] == box.owner.table.head_words("en")  # (how soon: companion bench web measures it)


def test_a_page_that_slept_receives_every_event_it_missed_with_the_undo_announced(box):
    phone = Phone(box).join()
    play(box, "roll 3 4")
    response = stream(phone, since=1)
    seen = read(response, lambda ev: len(ledger(ev)) >= 1)
    response.close()
    last = ledger(seen)[-1][0]
    assert last == 2
    # asleep: a purchase, a mortgage and the banker's undo of the purchase (the mortgage first)
    play(box, "buy", "Anna: mortgage food1")
    banker = Phone(box).banker()
    assert banker.post("/phone/undo", aid="undo-while-asleep", seq="3").json["undone"] == [4, 3]
    woke = stream(phone, **{"Last-Event-ID": str(last)})
    events = read(woke, lambda ev: len(ledger(ev)) >= 4)
    woke.close()
    ids = [i for i, _ in ledger(events)]
    assert ids == [3, 4, 5, 6]
    undo = dict(ledger(events))[6]
    assert undo["reverses"] == 3 and undo["announce"] == undo["lines"]
    assert any(line.startswith("Undone: #3 Anna buys Chocolate factory") for line in undo["announce"])
    assert any(line.startswith("Put back:") for line in undo["announce"])
    assert "announce" not in dict(ledger(events))[3]
    # each event carries the ledger's words at that event, as /api/head says them
    for seq, data in ledger(events):
        assert phone.open(f"/phone/api/head?at={seq}").json["words"] == data["words"]


def test_a_page_that_saw_more_than_the_ledger_holds_is_told_to_reset(box):
    phone = Phone(box).join()
    response = stream(phone, **{"Last-Event-ID": "99"})
    events = read(response, lambda ev: ev)
    response.close()
    assert events[0][0] == "reset" and events[0][2]["seq"] == head(box)


def test_a_malformed_last_event_id_starts_from_the_head(box):
    play(box, "roll 3 4")
    phone = Phone(box).join()
    response = stream(phone, **{"Last-Event-ID": "zz; drop"})
    assert response.status_code == 200
    events = read(response, lambda ev: ev, timeout=0.6)
    response.close()
    assert ledger(events) == []  # nothing replayed, nothing refused


def test_the_box_notices_reach_the_phones(box):
    phone = Phone(box).join()
    response = stream(phone, since=head(box))
    code = Phone(box).join().post("/phone/pair").json["code"]
    events = read(response, lambda ev: any(k == "notice" and code in d["text"] for k, _, d in ev))
    response.close()
    assert any(k == "notice" and d["code"] == "phone_pair_waiting" and code in d["text"] for k, _, d in events)


def test_a_new_game_ends_the_stream_and_the_page_reloads(box):
    banker = Phone(box).banker()
    watcher = Phone(box).join()
    play(box, "Anna: pay Anna Boris 10")
    response = stream(watcher, since=head(box))
    assert banker.post("/phone/game/end", aid="end-live-1").status_code == 200
    events = read(response, lambda ev: ledger(ev))
    assert ledger(events)[0][0] == 3 and events[-1][0] == "ledger"
    banker.post("/phone/game/archive", aid="archive-live-1")
    started = banker.post("/phone/game/start", aid="start-live-1", edition="elite", players="Ann\nBob")
    assert started.status_code == 200  # the new game is at the same path, its events numbered from 1 again
    events = read(response, lambda ev: any(k == "game" for k, _, _ in ev))
    response.close()
    assert events[-1][0] == "game" and not [i for i, d in ledger(events) if d["game"] != ledger(events)[0][1]["game"]]
    assert watcher.role() == "visitor"
    assert stream(watcher).status_code == 403
    fresh = stream(banker, since=0)  # the banker who started it follows the new game from its start
    new = read(fresh, lambda ev: ledger(ev))
    fresh.close()
    assert (
        ledger(new)[0][0] == 1
        and ledger(new)[0][1]["game"] == box.phone.game_id()
        and "Ann" in ledger(new)[0][1]["lines"][0]
    )


def test_a_visitor_gets_no_stream(box):
    answer = Phone(box).client.get("/phone/events")
    assert answer.status_code == 403
    assert Phone(box).open("/phone/events").status_code == 403


def test_stopping_the_server_ends_every_open_stream(box):
    phones = [Phone(box).join() for _ in range(3)]
    responses = [stream(p, since=head(box)) for p in phones]
    done = []

    def drain(response):
        for _ in response.response:
            pass
        done.append(response)

    threads = [threading.Thread(target=drain, args=(r,), daemon=True) for r in responses]
    for t in threads:
        t.start()
    time.sleep(0.3)
    assert box.app.extensions["phone"].streams.count() == 3
    close_phone_streams(box.app)
    for t in threads:
        t.join(3)
    assert len(done) == 3 and box.app.extensions["phone"].streams.count() == 0


def test_players_pages_update_from_the_stream_of_a_payment(box):
    """What the browser test will do with two phones, here through the test client: Anna pays Boris, and
    Boris's open stream carries the payment; his page then shows his new cash."""
    anna, boris = Phone(box).join().pair(ANNA), Phone(box).join().pair(BORIS)
    response = stream(boris, since=head(box))
    before = int(boris.open("/phone/api/state").json["players"][1]["cash"])
    assert anna.act("pay", "Anna", "Boris", "150").status_code == 200
    events = read(response, lambda ev: ledger(ev))
    response.close()
    assert "Anna pays Boris 150" in ledger(events)[0][1]["lines"][0]
    assert int(boris.open("/phone/api/state").json["players"][1]["cash"]) == before + 150
    assert b'data-cash="%d"' % (before + 150) in boris.open("/phone/table?part=live").data


def test_through_waitress_a_commit_reaches_an_open_page(tmp_path):
    """The daemon's own server (waitress on loopback), a real socket: join, open the stream, book an
    event, read it off the wire; then resume with Last-Event-ID over a new connection."""
    import http.client
    import re

    from test_phone_views import free_port, start_box

    port = free_port()
    daemon = start_box(tmp_path, **{"phone.host": "127.0.0.1", "phone.port": port})
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", "/phone/")
        page = conn.getresponse()
        cookie = page.getheader("Set-Cookie").split(";")[0]
        csrf = re.search(r'data-csrf="([^"]+)"', page.read().decode()).group(1)
        body = f"csrf={csrf}&code={daemon.phone.table_code()}"
        conn.request(
            "POST",
            "/phone/join",
            body=body,
            headers={"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"},
        )
        joined = conn.getresponse()
        assert joined.read() == b'{"ok":true,"role":"spectator"}\n'
        cookie = joined.getheader("Set-Cookie").split(";")[0]  # a new token with the role (no session fixation)

        def open_stream(**headers):
            sse = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            sse.request("GET", "/phone/events", headers={"Cookie": cookie, **headers})
            answer = sse.getresponse()
            assert answer.status == 200 and answer.getheader("Content-Type").startswith("text/event-stream")
            return sse, answer

        def next_event(answer):
            block = []
            while True:
                line = answer.fp.readline().decode().rstrip("\n")
                if not line and block:
                    fields = dict(x.split(": ", 1) for x in block if ": " in x and not x.startswith(":"))
                    if "event" in fields:
                        return fields
                    block = []
                elif line:
                    block.append(line)

        sse, answer = open_stream()
        daemon.owner.submit("Anna", "pay Anna Boris 25")
        fields = next_event(answer)  # the socket's 5 s timeout bounds the wait
        sse.close()
        assert fields["event"] == "ledger" and fields["id"] == "2" and "Anna pays Boris 25" in fields["data"]
        daemon.owner.submit("Boris", "pay Boris Anna 5")  # while the page sleeps
        sse, answer = open_stream(**{"Last-Event-ID": "2"})
        fields = next_event(answer)
        sse.close()
        assert fields["id"] == "3" and "Boris pays Anna 5" in fields["data"]
    finally:
        daemon.stop()
