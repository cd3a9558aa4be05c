"""Phone reads never hold the writer (issue 21, point 5): an export or a stream's replay stopped in the
middle of its read leaves the writer free to book a ROLL; the expensive reads are limited per client, an
IPv6 phone counted by its /64 as for PIN guesses, with a 429 in the phone's language; and the client
holding the most streams, counted by /64, loses its own when there are too many."""

import threading

import pytest
from test_phone_live import ledger, read, stream
from test_phone_views import ANNA, Phone, box, head, start_box

from companion.daemon.phone import reading as phone_service
from web.phone import create_phone_app

__all__ = ["box"]

WAIT_S = 20.0  # generous: a loaded CI machine; the old code never books while the read is held


class Gate:
    """Stops the phone's reading in the middle (inside the words of an event) until opened."""

    def __init__(self, monkeypatch):
        self.entered = threading.Event()
        self.opened = threading.Event()
        words = phone_service.event_words

        def held(*args, **kwargs):
            self.entered.set()
            self.opened.wait(WAIT_S * 2)
            return words(*args, **kwargs)

        monkeypatch.setattr(phone_service, "event_words", held)


def roll_books(daemon, line="roll 3 4", actor="Anna") -> bool:
    """A ROLL handed to the writer from another thread (as the reader's is): booked within WAIT_S?"""
    before = head(daemon)
    booked = threading.Event()

    def roll():
        daemon.owner.submit(actor, line)
        booked.set()

    threading.Thread(target=roll, daemon=True).start()
    return booked.wait(WAIT_S) and head(daemon) == before + 1


@pytest.mark.parametrize("path", ["/phone/export.json", "/phone/export.csv", "/phone/ledger"])
def test_a_roll_books_while_a_phones_read_is_held_in_the_middle(box, monkeypatch, path):
    spectators = [Phone(box).join() for _ in range(3)]
    gate = Gate(monkeypatch)
    answers = []
    readers = [threading.Thread(target=lambda p=p: answers.append(p.open(path)), daemon=True) for p in spectators]
    for t in readers:
        t.start()
    try:
        assert gate.entered.wait(WAIT_S)  # a read is in progress, stopped inside
        assert roll_books(box)  # the writer books anyway
    finally:
        gate.opened.set()
        for t in readers:
            t.join(WAIT_S)
    assert [a.status_code for a in answers] == [200, 200, 200]


def test_a_roll_books_while_a_reopened_stream_replays_what_it_missed(box, monkeypatch):
    phone = Phone(box).join()
    for _ in range(3):
        box.owner.submit("Anna", "pay Anna Boris 10")
    gate = Gate(monkeypatch)
    response = stream(phone, since=head(box) - 3)
    got = []
    reader = threading.Thread(
        target=lambda: got.extend(read(response, lambda ev: len(ledger(ev)) >= 4, timeout=WAIT_S * 2)), daemon=True
    )
    reader.start()
    try:
        assert gate.entered.wait(WAIT_S)  # the stream is replaying, stopped inside an event's words
        assert roll_books(box)
    finally:
        gate.opened.set()
        reader.join(WAIT_S * 2)
        response.close()
    seqs = [seq for seq, _ in ledger(got)]
    assert seqs == list(range(seqs[0], seqs[0] + 4)) and seqs[-1] == head(box)  # each once, in order, the ROLL last


def at(phone, address):
    phone.client.environ_base["REMOTE_ADDR"] = address
    return phone


def test_expensive_reads_are_limited_per_ipv4_address_and_per_ipv6_slash_64(tmp_path):
    daemon = start_box(tmp_path)
    try:
        daemon.app = create_phone_app(daemon.phone, READ_BURST=3, READ_PER_S=0.001)
        first = at(Phone(daemon).join(), "2001:db8:1:2::10")
        for _ in range(3):
            assert first.open("/phone/export.json").status_code == 200
        refused = first.open("/phone/export.csv")
        assert refused.status_code == 429 and "too many requests" in refused.json["error"]
        assert int(refused.headers["Retry-After"]) >= 1
        # another address of the same /64 is the same phone; a page that reads nothing heavy still opens
        same = at(Phone(daemon, "ru").join(), "2001:db8:1:2::beef")
        answer = same.open("/phone/summary")
        assert answer.status_code == 429 and "слишком много запросов" in answer.json["error"]
        assert same.open("/phone/table").status_code == 200
        assert stream(same, since=head(daemon)).status_code == 429  # opening a stream counts too
        # another /64, an IPv4 address, and the box itself are not held back by that phone
        assert at(Phone(daemon).join(), "2001:db8:1:3::10").open("/phone/export.json").status_code == 200
        v4 = at(Phone(daemon).join(), "192.168.1.20")
        assert [v4.open("/phone/ledger").status_code for _ in range(4)] == [200, 200, 200, 429]
        assert at(Phone(daemon).join(), "::ffff:192.168.1.20").open("/phone/ledger").status_code == 429
        local = Phone(daemon).join()  # 127.0.0.1: a script on the box
        assert all(local.open("/phone/export.json").status_code == 200 for _ in range(5))
    finally:
        daemon.stop()


def test_a_client_opening_streams_from_many_addresses_of_its_slash_64_ends_its_own(tmp_path):
    daemon = start_box(tmp_path)
    try:
        daemon.app = create_phone_app(daemon.phone, SSE_POLL=0.05, SSE_KEEPALIVE=0.2, SSE_RETRY_MS=100, MAX_STREAMS=4)
        banker = at(Phone(daemon).banker(), "2001:db8:aa:1::1")
        laptop = Phone(daemon).join()
        watching = stream(banker, since=head(daemon))
        read(watching, lambda ev: True, timeout=0.3)  # the stream is open (its first chunk sent)
        floods = []
        for i in range(10):  # each from another address of the laptop's /64
            flood = stream(at(laptop, f"2001:db8:bb:1::{i + 1:x}"), since=head(daemon))
            read(flood, lambda ev: True, timeout=0.3)
            floods.append(flood)
        assert daemon.app.test_client().get("/phone/api/health").json["streams"] <= 4
        assert roll_books(daemon)
        events = read(watching, lambda ev: ledger(ev), timeout=WAIT_S)
        assert [seq for seq, _ in ledger(events)] == [head(daemon)]  # the banker's page is still live
        for response in [watching, *floods]:
            response.close()
    finally:
        daemon.stop()


def test_reads_come_from_the_snapshot_and_a_connection_of_their_own_never_the_writer(box, monkeypatch):
    phone = Phone(box).join().pair(ANNA)
    box.owner.submit("Anna", "pay Anna Boris 10")
    calls = []
    real = box.owner.call
    monkeypatch.setattr(box.owner, "call", lambda work, *a, **kw: calls.append(work) or real(work, *a, **kw))
    for path in (
        "/phone/table",
        "/phone/board",
        "/phone/ledger",
        "/phone/player/1",
        "/phone/summary",
        "/phone/export.json",
        "/phone/export.csv",
        "/phone/act",
        "/phone/api/state",
        f"/phone/api/head?at={head(box)}",
    ):
        assert phone.open(path).status_code == 200, path
    response = stream(phone, since=1)
    assert len(ledger(read(response, lambda ev: len(ledger(ev)) >= head(box) - 1))) == head(box) - 1
    response.close()
    assert calls == []
