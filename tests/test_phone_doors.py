"""The phone page's doors against someone on the Wi-Fi (docs/phone.md, threat model): idle TCP connections by
the hundred, with no table code, never lock a new phone or the banker out (each address may hold only a few
connections that have not shown the table code, and those must ask at once); two spectators taking turns
never hold the pairing for ever, and the banker can always clear it."""

import http.client
import json
import re
import socket
import time
import urllib.parse

import pytest
from test_phone_guards import at, clock
from test_phone_views import ANNA, BANKER_PIN, Phone, box, config, free_port, pair_by_card

from companion.daemon import phone as phone_service
from companion.daemon.main import Daemon, wait_for
from companion.words import messages
from web import serve

__all__ = ["box", "clock"]

WAIT = 30.0  # seconds a request may take on a loaded machine: generous, never a timing assertion


class WebPhone:
    """A phone's browser over real HTTP from one address: its cookie and CSRF token, a keep-alive connection."""

    def __init__(self, port: int, address: str):
        self.port, self.address = port, address
        self.cookie = ""
        self.csrf = ""
        self.conn = self.connect()

    def connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=WAIT, source_address=(self.address, 0))

    def request(self, method: str, path: str, body: dict | None = None, fresh: bool = False) -> tuple[int, bytes]:
        conn = self.connect() if fresh else self.conn
        headers = {"Cookie": self.cookie} if self.cookie else {}
        data = None
        if body is not None:
            data = urllib.parse.urlencode({"csrf": self.csrf, **body})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=data, headers=headers)
            answer = conn.getresponse()
            content = answer.read()
        finally:
            if fresh:
                conn.close()
        found = re.search(r"companion_phone=([^;]+)", answer.getheader("Set-Cookie") or "")
        if found:
            self.cookie = f"companion_phone={found.group(1)}"
        csrf = re.search(rb'data-csrf="([^"]+)"', content)
        if csrf:
            self.csrf = csrf.group(1).decode()
        return answer.status, content


def idle_connections(port: int, address: str, count: int) -> list[socket.socket]:
    """`count` TCP connections from `address` that never send a byte."""
    out = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=WAIT, source_address=(address, 0))
        out.append(s)
    return out


def still_open(sockets: list[socket.socket]) -> int:
    """How many of these the server has not closed (a closed one reads as the end at once)."""
    count = 0
    for s in sockets:
        s.setblocking(False)
        try:
            count += s.recv(1) != b""
        except BlockingIOError:
            count += 1
        except OSError:
            pass
    return count


@pytest.fixture
def served(tmp_path):
    """The daemon's own phone page server on loopback (waitress, as on the box)."""
    daemon = Daemon(
        config(tmp_path, **{"phone.host": "127.0.0.1", "phone.port": free_port()}), out=lambda line: None
    ).start()
    try:
        assert daemon.phone_server is not None
        assert daemon.handle({"op": "start", "edition": "elite", "players": ["Anna", "Boris"], "seed": 1})["ok"]
        yield daemon
    finally:
        daemon.stop()


def test_hundreds_of_idle_connections_never_lock_a_new_phone_or_the_banker_out(served):
    port = served.phone_server.port
    banker = WebPhone(port, "127.0.0.4")
    assert banker.request("GET", "/phone/")[0] == 200
    assert banker.request("POST", "/phone/join", {"code": served.phone.table_code()})[0] == 200
    assert banker.request("POST", "/phone/banker", {"pin": BANKER_PIN})[0] == 200
    flood = {address: idle_connections(port, address, 110) for address in ("127.0.0.1", "127.0.0.2")}
    try:
        # a new phone, on the very address of one flood: it loads the page and joins with the table code
        phone = WebPhone(port, "127.0.0.1")
        status, page = phone.request("GET", "/phone/")
        assert status == 200 and b'id="join-form"' in page
        assert phone.request("POST", "/phone/join", {"code": served.phone.table_code()})[0] == 200
        assert json.loads(phone.request("GET", "/phone/api/me")[1])["role"] == "spectator"
        # the banker's POST on a new connection is answered (a seat's PIN set)
        status, answer = banker.request("POST", "/phone/seat-pin", {"seat": "1", "pin": "1357"}, fresh=True)
        assert status == 200 and json.loads(answer)["ok"] is True
        # each address keeps only a few connections that have not shown the table code, and those go soon
        assert all(still_open(s) <= serve.PER_ADDRESS for s in flood.values())
        assert wait_for(lambda: sum(still_open(s) for s in flood.values()) == 0, WAIT)
        # while the banker's connection (a session that showed the table code) keeps the ordinary timeout
        status, answer = banker.request("POST", "/phone/seat-pin", {"seat": "2", "pin": "2468"})
        assert status == 200 and json.loads(answer)["ok"] is True
    finally:
        for sockets in flood.values():
            for s in sockets:
                s.close()


def test_a_connection_sending_its_request_a_byte_at_a_time_is_let_go(served):
    """Slowloris: a request that never completes holds no connection beyond the short wait of a visitor."""
    port = served.phone_server.port
    slow = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
    try:
        ended = False
        deadline = time.monotonic() + WAIT
        for byte in b"GET /phone/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 10_000:
            try:
                slow.sendall(bytes([byte]))
            except OSError:
                ended = True
                break
            if still_open([slow]) == 0 or time.monotonic() > deadline:
                ended = still_open([slow]) == 0
                break
            slow.setblocking(True)
            slow.settimeout(WAIT)
            time.sleep(0.5)
        assert ended
    finally:
        slow.close()


# ----- the pairing: two spectators taking turns never keep a player out ---------------------------------------


def seconds_told(answer) -> int:
    assert answer.status_code == 409, answer.json
    return int(re.search(r"try again in (\d+) s", answer.json["error"]).group(1))


def test_two_spectators_taking_turns_never_keep_a_player_from_pairing(box, clock):
    """Each of the two asks the moment the other's pairing ends (and again every 3 s); Anna, turned away once,
    asks again when she was told, and pairs: one address was ahead of her, so within 60 s + 75 s."""
    mallory, trudy = at(Phone(box).join(), "192.168.1.66"), at(Phone(box).join(), "192.168.1.67")
    anna = at(Phone(box).join(), "192.168.1.10")
    assert mallory.post("/phone/pair").status_code == 200
    clock.now += 1
    assert trudy.post("/phone/pair").status_code == 409  # first in line
    clock.now += 1
    told = seconds_told(anna.post("/phone/pair"))
    bound = phone_service.PAIR_WAIT_S + 1 * (phone_service.PAIR_WAIT_S + phone_service.PAIR_RESERVE_S)
    assert told <= bound
    turn = clock.now + told
    while clock.now < turn:
        clock.now = min(turn, clock.now + 1)
        for phone in (mallory, trudy):
            phone.post("/phone/pair")  # 200 when theirs, 409 or 429 otherwise
    answer = anna.post("/phone/pair")
    assert answer.status_code == 200, answer.json
    pair_by_card(box, ANNA)
    assert anna.role() == "player" and mallory.role() == trudy.role() == "spectator"


def test_a_phone_that_just_paired_asks_again_behind_those_in_line(box, clock):
    """Consecutive holds do not chain: a phone whose pairing ended waits behind every phone turned away."""
    hog, anna = at(Phone(box).join(), "192.168.1.66"), at(Phone(box).join(), "192.168.1.10")
    assert hog.post("/phone/pair").status_code == 200
    clock.now += 5
    seconds_told(anna.post("/phone/pair"))
    assert hog.post("/phone/pair/cancel").status_code == 200
    clock.now += 4
    assert hog.post("/phone/pair").status_code == 409  # Anna's turn, though her told time is 51 s away
    clock.now += 5
    assert anna.post("/phone/pair").status_code == 200


def test_the_banker_can_always_end_the_pairing_and_its_line(box, clock):
    mallory, trudy = at(Phone(box).join(), "192.168.1.66"), at(Phone(box).join(), "192.168.1.67")
    banker, anna = at(Phone(box).join().banker(), "192.168.1.2"), at(Phone(box).join(), "192.168.1.10")
    assert mallory.post("/phone/pair").status_code == 200
    assert trudy.post("/phone/pair").status_code == 409
    assert b'id="pair-clear"' in banker.open("/phone/join").data
    assert b'id="pair-clear"' not in trudy.open("/phone/join").data
    refused = trudy.post("/phone/pair/clear")
    assert refused.status_code == 403  # only the banker
    code = mallory.client.get("/phone/api/me").json["pairing"]["code"]
    screen = box.owner.subscribe(since=box.owner.table.head_seq)
    cleared = banker.post("/phone/pair/clear")
    assert cleared.status_code == 200 and cleared.json["code"] == code
    assert box.owner.call(box.phone.waiting_code) == ""
    said = []
    while not said or said[-1].notice is None or said[-1].notice.code != "phone_pair_cleared":
        said.append(screen.get(timeout=WAIT))
        assert said[-1] is not None, "the box's screen was not told"
    assert (
        messages.render("phone_pair_cleared", said[-1].notice.params, "en")
        == f"The banker ended phone {code}'s pairing and emptied the line: the next phone to ask pairs"
    )
    screen.close()
    assert anna.post("/phone/pair").status_code == 200  # the next phone to ask, not the one that was in line
