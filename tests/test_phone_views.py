"""The phone page's views through Flask's test client, on a real daemon with simulated hardware: a visitor
sees only the join form, the table code makes a spectator, and every view shows what the ledger holds (the
turn and what the table waits for, balances and net worth, the share price and its chart, the board, the
ledger newest first with corrections against what they reverse, a player's history), in English or
Russian, each page under 100 KB; the ledger exports as CSV and JSON; the summary names the winner.
`Phone`, `box` and `config` are shared with the other tests/test_phone_*.py files."""

import csv
import io
import json
import re
import secrets

import pytest

from companion.daemon.config import Config, defaults
from companion.daemon.main import Daemon, wait_for
from companion.hw.buttons import Press
from web.phone import create_phone_app

ANNA, BORIS, VERA = "0A000001", "0A000002", "0A000003"
BANKER_PIN = "2468"


def config(tmp_path, **extra):
    values = dict(defaults().values)
    values.update(
        {
            "games_dir": str(tmp_path / "games"),
            "virtual_table.port": 0,
            "phone.port": 0,
            "phone.banker_pin": BANKER_PIN,
            "phone.auction_quiet_seconds": 0.0,
            **extra,
        }
    )
    return Config(values, "(test)")


def start_box(tmp_path, **extra):
    daemon = Daemon(config(tmp_path, **extra), out=lambda line: None).start()
    assert daemon.handle({"op": "start", "edition": "elite", "players": ["Anna", "Boris", "Vera"], "seed": 1})["ok"]
    for uid, seat in ((ANNA, "1"), (BORIS, "2"), (VERA, "3")):
        assert daemon.handle({"op": "enrol", "kind": "player", "ref": seat, "uid": uid})["ok"]
    daemon.app = create_phone_app(daemon.phone, SSE_POLL=0.05, SSE_KEEPALIVE=0.2, SSE_RETRY_MS=100)
    return daemon


@pytest.fixture
def box(tmp_path):
    daemon = start_box(tmp_path)
    yield daemon
    daemon.stop()


def free_port():
    """A loopback port that was free a moment ago."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def head(daemon):
    return daemon.owner.table.head_seq


def cash(daemon, player):
    return daemon.owner.call(lambda: daemon.owner.table.state.cash(player))


def tap_card(daemon, uid):
    """A card on the reader, as the link hands it to the daemon (on the writer thread)."""
    daemon.owner.call(lambda: daemon._tap(uid))


def press_button(daemon, name, long=False):
    """A button on the box, as the buttons adapter hands it to the daemon (on the writer thread)."""
    daemon.owner.call(lambda: daemon._press(Press(name, long)))


def pair_by_card(daemon, uid):
    """A player card tapped while a phone waits, then OK on "Phone … is mine", the first line of the menu."""
    tap_card(daemon, uid)
    press_button(daemon, "ok")


class Phone:
    """One phone's browser: its cookie jar, the CSRF token its pages carry, and a fresh action id per tap."""

    def __init__(self, daemon, language="en"):
        self.daemon = daemon
        self.client = daemon.app.test_client()
        self.language = language
        self.csrf = ""
        self.open("/phone/")

    def open(self, path, **kw):
        headers = {"Accept-Language": self.language, **kw.pop("headers", {})}
        response = self.client.get(path, headers=headers, **kw)
        found = re.search(rb'data-csrf="([^"]*)"', response.data)
        if found and found.group(1):
            self.csrf = found.group(1).decode()
        return response

    def post(self, path, csrf=None, headers=None, **fields):
        data = {"csrf": self.csrf if csrf is None else csrf, **fields}
        return self.client.post(path, data=data, headers={"Accept-Language": self.language, **(headers or {})})

    def act(self, verb, *args, aid=None, **fields):
        return self.post("/phone/act", aid=aid or secrets.token_hex(8), verb=verb, arg=list(args), **fields)

    def join(self):
        response = self.post("/phone/join", code=self.daemon.phone.table_code())
        assert response.status_code == 200, response.json
        return self

    def banker(self):
        """The table code (the banker's PIN form is for those at the table), then the banker's PIN."""
        if self.role() == "visitor":
            self.join()
        response = self.post("/phone/banker", pin=BANKER_PIN)
        assert response.status_code == 200, response.json
        return self

    def pair(self, uid):
        response = self.post("/phone/pair")
        assert response.status_code == 200, response.json
        pair_by_card(self.daemon, uid)
        assert self.client.get("/phone/api/me").json["role"] == "player"
        return self

    def role(self):
        return self.client.get("/phone/api/me").json["role"]


def text_of(response):
    """The page's words, tags stripped (what a person reads)."""
    return " ".join(re.sub(r"<[^>]+>", " ", response.data.decode()).split())


def play(daemon, *lines):
    for line in lines:
        actor, _, command = line.rpartition(": ")
        daemon.owner.submit(actor or "table", command)


def test_a_visitor_sees_only_the_join_form(box):
    phone = Phone(box)
    page = phone.open("/phone/")
    assert page.status_code == 200 and b'id="join-form"' in page.data and b'id="players"' not in page.data
    for path in ("/phone/table", "/phone/board", "/phone/ledger", "/phone/player/1", "/phone/summary"):
        assert phone.open(path).status_code == 303, path
    for path in (
        "/phone/api/state",
        "/phone/export.csv",
        "/phone/export.json",
        "/phone/events",
        "/phone/api/head?at=1",
    ):
        answer = phone.open(path)
        assert answer.status_code == 403 and "table code" in answer.json["error"], path
    assert "Anna" not in text_of(page)


def test_the_table_code_makes_a_spectator_and_a_wrong_code_does_not(box):
    phone = Phone(box)
    wrong = phone.post("/phone/join", code="ZZZZ" if box.phone.table_code() != "ZZZZ" else "YYYY")
    assert wrong.status_code == 403 and wrong.json == {"error": "Wrong table code"}
    assert phone.role() == "visitor"
    phone.post("/phone/join", code=" " + box.phone.table_code().lower() + " ")  # as typed on a phone
    assert phone.role() == "spectator"


def test_the_table_view_shows_turn_waiting_balances_price_and_head(box):
    play(box, "roll 3 4", "decline")  # Anna lands on the Chocolate factory and declines: an auction
    phone = Phone(box).join()
    page = phone.open("/phone/table")
    words = text_of(page)
    table = box.owner.table
    assert "Turn: Anna" in words and "Waiting for:" in words and "auction" in words.lower()
    for seat, name in enumerate(("Anna", "Boris", "Vera"), 1):
        row = re.search(rf'<tr id="player-{seat}"[^>]*data-cash="(\d+)"', page.data.decode())
        assert row and int(row.group(1)) == table.state.cash(name)
    assert table.head_words("en") in words and f'<span id="head-seq">{table.head_seq}</span>' in page.data.decode()
    assert f"Share price: {table.state.extra['price']}" in words
    assert b'<svg class="chart" id="price-chart"' in page.data
    assert box.phone.table_code() in words and b"<svg" in page.data.split(b'class="qr"')[1][:200]


def test_the_share_price_chart_follows_the_price(box):
    """Bots play 150 events; the chart's points are the start price and every share_price note, and the
    SVG steps through each of them."""
    import random

    from companion.bots.autoplay import next_command

    phone = Phone(box).join()
    phone.open("/phone/table")  # the history is scanned once, then only the new events
    rng = random.Random(5)
    for _ in range(150):
        line, _ = box.owner.call(lambda: next_command(box.owner.table.game, rng))
        box.owner.submit("table", line)
    events = box.owner.table.game.events
    wanted = [[1, box.owner.table.rules.opt["share_start_price"]]] + [
        [e.seq, n.params["new"]] for e in events for n in e.notes if n.code == "share_price"
    ]
    assert len(wanted) > 3  # the price did move in this game
    view = phone.open("/phone/api/state").json
    assert view["prices"] == wanted and view["price"] == wanted[-1][1] == box.owner.table.state.extra["price"]
    svg = re.search(rb'<svg class="chart".*?</svg>', phone.open("/phone/table").data).group(0).decode()
    points = re.search(r'points="([^"]+)"', svg).group(1).split()
    assert len(points) == 1 + 2 * (len(wanted) - 1)
    assert f">{max(p for _, p in wanted)}<" in svg and f">{min(p for _, p in wanted)}<" in svg


def test_the_board_shows_every_plot_its_owner_rent_and_mortgage(box):
    play(box, "roll 3 4", "buy", "Anna: mortgage food1")
    phone = Phone(box).join()
    page = phone.open("/phone/board").data.decode()
    rows = re.findall(r'<tr id="plot-(\w+)" data-plot="\w+" data-owner="(\w*)" data-mortgaged="(\d)"', page)
    table = box.owner.table
    assert len(rows) == len(table.rules.edition.plots)
    owned = {pid: (owner, m) for pid, owner, m in rows if owner}
    assert owned == {"food1": ("Anna", "1")}
    assert "Chocolate factory" in page


def test_the_ledger_is_newest_first_and_an_undo_stands_against_what_it_reverses(box):
    play(box, "roll 3 4", "buy", "undo 3")
    phone = Phone(box).join()
    page = phone.open("/phone/ledger").data.decode()
    seqs = [int(s) for s in re.findall(r'<li id="event-(\d+)"', page)]
    assert seqs == [4, 3, 2, 1]
    assert re.search(r'id="event-4"[^>]*class="correction".*?reverses #3', page, re.S)
    assert re.search(r'id="event-3"[^>]*class=" reversed".*?reversed by #4', page, re.S)
    assert "Put back: the deed of Chocolate factory" in page or "Put back" in page


def test_a_players_page_shows_their_plots_holdings_and_history(box):
    play(box, "roll 3 4", "buy")
    phone = Phone(box).join()
    page = phone.open("/phone/player/1")
    words = text_of(page)
    assert "Anna" in words and "Chocolate factory" in words and f"Cash: {cash(box, 'Anna')}" in words
    history = re.findall(rb'<li data-seq="(\d+)">', page.data)
    assert [int(s) for s in history] == [3, 2, 1]  # her purchase, her roll, her starting cash
    assert b"-90" in page.data  # what the plot cost her
    assert phone.open("/phone/player/9").status_code == 404


def test_pages_follow_the_phones_language_and_the_switch(box):
    play(box, "roll 3 4")
    phone = Phone(box, language="ru-RU,ru;q=0.9").join()
    page = text_of(phone.open("/phone/table"))
    assert "Ход: Anna" in page and box.owner.table.head_words("ru") in page
    assert "Шоколадная фабрика" in text_of(phone.open("/phone/board"))
    assert phone.post("/phone/lang", lang="en").status_code == 200
    assert "Turn: Anna" in text_of(phone.open("/phone/table"))
    assert phone.post("/phone/lang", lang="de").status_code == 400


def test_every_view_stays_under_100_kb_after_a_long_game(box):
    import random

    from companion.bots.autoplay import next_command

    rng = random.Random(5)
    for _ in range(300):
        line, _ = box.owner.call(lambda: next_command(box.owner.table.game, rng))
        if line is None:
            break
        box.owner.submit("table", line)
    phone = Phone(box).banker()
    for path in (
        "/phone/table",
        "/phone/board",
        "/phone/ledger",
        "/phone/player/1",
        "/phone/act",
        "/phone/undo",
        "/phone/summary",
        "/phone/game",
    ):
        page = phone.open(path)
        assert page.status_code == 200, path
        words = text_of(page)  # words only: never a Python object or an empty value shown to a person
        assert "built-in method" not in words and " None " not in f" {words} " and "{" not in words, path
        size = (
            len(page.data)
            + len(phone.open("/phone/static/phone.css").data)
            + len(phone.open("/phone/static/phone.js").data)
        )
        assert size < 100_000, (path, size)


def test_the_ledger_exports_as_csv_and_json(box):
    play(box, "roll 3 4", "buy", "Anna: pay Anna Boris 25")
    phone = Phone(box).join()
    data = phone.open("/phone/export.json")
    assert data.headers["Content-Disposition"].startswith("attachment")
    body = json.loads(data.data)
    assert [e["seq"] for e in body["events"]] == [1, 2, 3, 4] and body["head"]["words"] == box.owner.table.head_words()
    assert body["events"][3]["actor"] == "Anna" and {"account": "Boris", "amount": 25} in body["events"][3]["postings"]
    rows = list(csv.reader(io.StringIO(phone.open("/phone/export.csv").data.decode())))
    assert rows[0][:3] == ["seq", "actor", "command"] and len(rows) == 5
    assert rows[4][1:3] == ["Anna", "pay Anna Boris 25"] and "Anna pays Boris 25" in rows[4][5]


def test_the_summary_names_the_winner_and_ranks_by_wealth(box):
    play(box, "roll 3 4", "buy", "Boris: pay Boris Vera 50", "end_game")
    phone = Phone(box).join()
    page = phone.open("/phone/summary")
    words = text_of(page)
    winner = box.owner.table.state.winner
    assert winner == "Vera" and "Winner: Vera" in words and "Print" in words
    ranked = re.findall(rb'<tr data-name="(\w+)">', page.data)
    table = box.owner.table
    worth = [table.rules.wealth(table.state, p.decode()) for p in ranked]
    assert worth == sorted(worth, reverse=True) and ranked[0].decode() in winner


def test_a_page_part_is_only_its_live_part(box):
    phone = Phone(box).join()
    part = phone.open("/phone/table?part=live")
    assert part.status_code == 200 and part.data.lstrip().startswith(b'<header id="status"')
    assert b"<html" not in part.data and b'id="players"' in part.data


def test_no_game_on_the_box_is_said_on_every_view(tmp_path):
    daemon = Daemon(config(tmp_path), out=lambda line: None).start()
    try:
        daemon.app = create_phone_app(daemon.phone)
        phone = Phone(daemon).join()
        for path in ("/phone/table", "/phone/board", "/phone/ledger", "/phone/summary"):
            page = phone.open(path)
            assert page.status_code == 200 and "No game on the box yet." in text_of(page), path
    finally:
        daemon.stop()


def test_the_daemon_serves_the_phone_page_where_the_config_says(tmp_path):
    import urllib.request

    port = free_port()
    daemon = Daemon(config(tmp_path, **{"phone.host": "127.0.0.1", "phone.port": port}), out=lambda line: None).start()
    try:
        assert daemon.phone_server is not None and daemon.phone_server.threads == 64
        url = daemon.phone_server.url
        assert url == f"http://127.0.0.1:{port}/"
        with urllib.request.urlopen(url) as answer:  # / sends the browser to /phone/
            assert answer.geturl().endswith("/phone/") and b'id="join-form"' in answer.read()
    finally:
        daemon.stop()


def test_the_virtual_table_carries_the_phone_page_at_phone(tmp_path):
    """`make demo` serves the virtual table; the phone page is on the same server at /phone/."""
    import urllib.request

    port = free_port()
    daemon = Daemon(config(tmp_path, **{"virtual_table.port": port}), out=lambda line: None).start()
    try:
        assert daemon.virtual is not None
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/phone/") as answer:
            assert b'id="join-form"' in answer.read()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/status") as answer:
            assert json.loads(answer.read())["game"] is False
    finally:
        daemon.stop()


def test_the_boxs_qr_code_carries_the_phone_page_and_the_table_code(box):
    """The OLED's Game… → Phone page: a scan opens the page and joins as a spectator (the code after #
    never reaches the server)."""
    from companion.hw.display import qr_fits

    url = box.phone_url()
    assert url.endswith("/phone/#code=" + box.phone.table_code()) and ":8080/" in url and qr_fits(url)
    phone = Phone(box)
    code = url.rpartition("#code=")[2]
    assert phone.post("/phone/join", code=code).status_code == 200 and phone.role() == "spectator"


def test_a_built_wheel_carries_the_phone_page_and_serves_it(tmp_path, built_wheel):
    """pip's wheel of the project holds the phone page's module, templates and static files, and a daemon
    imported from the unpacked wheel, far from the checkout, serves the page."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).parent.parent
    names = built_wheel.names
    templates = sorted(p.name for p in (root / "web" / "templates" / "phone").glob("*.html"))
    for name in [
        "web/phone/__init__.py",
        "companion/words/phone.py",
        "companion/daemon/phone/__init__.py",
        "web/static/phone.css",
        "web/static/phone.js",
    ] + [f"web/templates/phone/{t}" for t in templates]:
        assert name in names, name
    site = built_wheel.site
    check = (
        "import sys, web.phone\n"
        "from companion.daemon.config import Config, defaults\n"
        "from companion.daemon.main import Daemon\n"
        "values = dict(defaults().values)\n"
        "values.update({'games_dir': sys.argv[1], 'virtual_table.port': 0, 'phone.port': 0, 'hardware': 'real',"
        " 'reader.port': sys.argv[1] + '/no-reader'})  # real: the simulated reader needs the checkout's firmware\n"
        "daemon = Daemon(Config(values, 't'), out=lambda line: None).start()\n"
        "try:\n"
        "    client = web.phone.create_phone_app(daemon.phone).test_client()\n"
        "    page = client.get('/phone/')\n"
        "    print(web.phone.__file__)\n"
        "    print(page.status_code, 'id=\"join-form\"' in page.get_data(as_text=True),"
        " client.get('/phone/static/phone.js').status_code)\n"
        "finally:\n"
        "    daemon.stop()\n"
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run(
        [sys.executable, "-c", check, str(tmp_path / "games")],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    where, answer = done.stdout.splitlines()[-2:]
    assert Path(where).is_relative_to(site) and answer == "200 True 200"


def test_a_taken_port_is_one_line_and_the_box_runs_on(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        lines = []
        daemon = Daemon(config(tmp_path, **{"phone.host": "127.0.0.1", "phone.port": port}), out=lines.append).start()
        try:
            assert daemon.phone_server is None and daemon.phone is not None
            assert wait_for(
                lambda: any(
                    "The phone page could not start: the phone page cannot listen on "
                    f"127.0.0.1 port {port}: the port is already in use" in line
                    for line in lines
                )
            )
        finally:
            daemon.stop()


def test_the_top_of_every_view_says_what_the_table_waits_for(box):
    phone = Phone(box).join()
    for path in ("/phone/table", "/phone/board", "/phone/ledger", "/phone/player/2", "/phone/summary"):
        assert "Turn: Anna Waiting for: Anna — roll the dice" in text_of(phone.open(path)), path
    play(box, "roll 3 4")
    assert "Waiting for: Anna — the decision to buy or decline: Chocolate factory" in text_of(
        phone.open("/phone/board")
    )
    play(box, "decline", "hammer")
    assert "Waiting for: Anna — end the turn" in text_of(phone.open("/phone/table"))
    russian = Phone(box, language="ru").join()
    assert "Ждём: Anna — закончить ход" in text_of(russian.open("/phone/table"))


@pytest.mark.parametrize("edition", ["elite", "classic", "deluxe", "monopoly", "madmillionaire"])
def test_every_view_of_every_edition_in_both_languages_is_words(tmp_path, edition):
    """A game of each edition started from the banker's phone, 120 bot events, an undo: every view and the
    actions of the table and of a player render in English and Russian, in words."""
    import random

    from companion.bots.autoplay import next_command

    daemon = Daemon(config(tmp_path), out=lambda line: None).start()
    try:
        daemon.app = create_phone_app(daemon.phone)
        banker = Phone(daemon).banker()
        started = banker.post("/phone/game/start", aid="start-edition", edition=edition, players="Ann\nBob\nCyd")
        assert started.status_code == 200, started.json
        rng = random.Random(3)
        for _ in range(120):
            line, _ = daemon.owner.call(lambda: next_command(daemon.owner.table.game, rng))
            if line is None:
                break
            daemon.owner.submit("table", line)
        undoable = banker.open("/phone/undo").data.decode()
        seq = re.search(r'<li data-seq="(\d+)">', undoable).group(1)
        assert banker.open(f"/phone/undo?seq={seq}").status_code == 200
        assert banker.post("/phone/undo", aid="undo-edition", seq=seq).status_code in (200, 409)
        daemon.handle({"op": "enrol", "kind": "player", "ref": "2", "uid": BORIS})
        bob = Phone(daemon).join().pair(BORIS)
        for language in ("en", "ru"):
            for phone in (banker, bob):
                phone.post("/phone/lang", lang=language)
                for path in (
                    "/phone/table",
                    "/phone/board",
                    "/phone/ledger",
                    "/phone/player/1",
                    "/phone/player/3",
                    "/phone/act",
                    "/phone/me",
                    "/phone/summary",
                    "/phone/export.csv",
                    "/phone/export.json",
                ):
                    page = phone.open(path)
                    assert page.status_code == 200, (edition, language, path, page.data[:200])
                    if path.startswith("/phone/export"):
                        assert b"built-in method" not in page.data, (edition, path)
                        continue
                    words = text_of(page)
                    assert "built-in method" not in words and " None " not in f" {words} " and "{" not in words, (
                        edition,
                        language,
                        path,
                    )
    finally:
        daemon.stop()
