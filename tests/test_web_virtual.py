"""The virtual table's app (web/app.py) through Flask's test client, around a fake of the box's service:
the page names every button and card, the picture is the OLED's 128x64, each press, ROLL and tap reaches
the service as given, bad input is refused in one line and reaches nothing, the frame stream follows the
picture, a failure inside the service is one logged line, and an installed wheel carries the page.
`FakeTable` is shared with the browser tests (tests/test_virtual_table_page.py)."""

import io
import json
import logging
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from web.app import BUTTONS, close_streams, create_app

ROOT = Path(__file__).parent.parent
CARDS = [
    {"uid": "04A1B2C3", "words": "Anna's card", "kind": "player"},
    {"uid": "04B2C3D4E5F607", "words": "seat 2", "kind": "player"},
    {"uid": "0A0B0C0D", "words": "Cinema <deed>", "kind": "plot"},
]


class FakeTable:
    """The service the app drives, recording every call. A short OK draws a new picture (a wider bar),
    as a menu's next screen would; `change()` draws one from outside. `refuse` maps a call's name to the
    exception it raises."""

    def __init__(self, language="en", cards=None):
        self.language = language
        self.calls = []
        self.cards_list = [dict(c) for c in (CARDS if cards is None else cards)]
        self.reader = "ready"
        self.edition = "Monopoly"
        self.game = True
        self.words = "Anna's turn: roll"
        self.refuse = {}
        self.version = 1
        self._changed = threading.Condition()

    def _record(self, *call):
        with self._changed:
            self.calls.append(call)
        if call[0] in self.refuse:
            raise self.refuse[call[0]]

    def change(self):
        with self._changed:
            self.version += 1
            self._changed.notify_all()

    def picture(self, version):
        image = Image.new("1", (128, 64), 0)
        draw = ImageDraw.Draw(image)
        draw.rectangle((0, 0, 127, 63), outline=1)
        draw.rectangle((4, 20, 4 + min(119, 12 * version), 43), fill=1)
        out = io.BytesIO()
        image.save(out, "PNG")
        return out.getvalue()

    def frame(self):
        with self._changed:
            version = self.version
        return version, self.picture(version)

    def wait_frame(self, after, timeout):
        with self._changed:
            self._changed.wait_for(lambda: self.version > after, timeout)
            return self.version

    def press(self, button, long):
        self._record("press", button, long)
        if button not in BUTTONS:
            raise ValueError(f"no button {button}")
        if button == "ok" and not long:
            self.change()

    def roll(self):
        self._record("roll")

    def tap(self, uid):
        self._record("tap", uid)

    def cards(self):
        return [dict(c) for c in self.cards_list]

    def status(self):
        return {"reader": self.reader, "game": self.game, "words": self.words, "edition": self.edition}


@pytest.fixture
def table():
    return FakeTable()


@pytest.fixture
def client(table):
    return create_app(table).test_client()


def one_line_error(response):
    """The refusal's text, checked to be a single line of JSON {"error": ...}."""
    text = response.get_data(as_text=True)
    assert text.count("\n") <= 1 and text.strip(), text
    assert response.mimetype == "application/json", text
    body = json.loads(text)
    assert list(body) == ["error"] and body["error"] and "Traceback" not in body["error"], body
    return body["error"]


# --- the page ---------------------------------------------------------------------------------------


def test_the_page_names_every_button_the_roll_the_cards_and_the_status(client):
    response = client.get("/")
    assert response.status_code == 200 and response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    for button, label in (("up", "UP"), ("down", "DOWN"), ("ok", "OK"), ("back", "BACK")):
        assert f'id="btn-{button}"' in page and f'data-button="{button}"' in page and f">{label}<" in page
        assert f'id="hold-{button}"' in page
    assert page.count('data-long="1"') == 4
    assert 'id="btn-roll"' in page and ">ROLL<" in page
    assert 'class="card" data-uid="04A1B2C3" data-kind="player"' in page and "Anna&#39;s card" in page
    assert 'data-uid="04B2C3D4E5F607"' in page
    assert "Cinema &lt;deed&gt;" in page and "<deed>" not in page  # the service's words are escaped
    assert 'id="oled" src="/frame.png?v=1"' in page
    assert "reader: ready" in page and "Anna&#39;s turn: roll" in page
    assert '<p id="edition">the cards of Monopoly</p>' in page
    assert "Enter = OK, Backspace or Esc = BACK, R = ROLL" in page  # the keys, told on the page


def test_the_page_links_the_phone_page_when_the_box_serves_it_beside(table):
    from flask import Blueprint

    alone = create_app(table).test_client().get("/").get_data(as_text=True)
    assert 'id="phone-link"' not in alone  # no phone page served: no dead link
    app = create_app(table)
    phone = Blueprint("phone", __name__)
    phone.add_url_rule("/", "index", lambda: "the phone page")
    app.register_blueprint(phone, url_prefix="/phone")
    page = app.test_client().get("/").get_data(as_text=True)
    assert '<a id="phone-link" href="/phone/"' in page and "what every player sees on their phone" in page


def test_the_cards_are_grouped_players_first_then_plots_then_deck_cards():
    cards = [
        {"uid": "04000001", "words": "the card “Go to START”", "kind": "card"},
        {"uid": "04000002", "words": "plot Cinema", "kind": "plot"},
        {"uid": "04000003", "words": "Boris", "kind": "player"},
        {"uid": "04000004", "words": "a spare", "kind": "spare"},
        {"uid": "04000005", "words": "Anna", "kind": "player"},
    ]
    page = create_app(FakeTable(cards=cards)).test_client().get("/").get_data(as_text=True)
    headings = [
        page.index(h)
        for h in (
            'Players <span class="count">(2)</span>',
            'Plots <span class="count">(1)',
            'Deck cards <span class="count">(1)',
            'Other cards <span class="count">(1)',
        )
    ]
    assert headings == sorted(headings)
    assert page.index('data-uid="04000003"') < page.index('data-uid="04000005"') < headings[1]  # as the box listed


def test_the_page_speaks_the_tables_language(table):
    table.language = "ru"
    page = create_app(table).test_client().get("/").get_data(as_text=True)
    assert '<html lang="ru">' in page
    assert ">ВВЕРХ<" in page and ">НАЗАД<" in page and "Виртуальный стол" in page
    assert "Enter = ОК" in page


def test_the_page_with_no_cards_says_how_to_enrol_one():
    page = create_app(FakeTable(cards=[])).test_client().get("/").get_data(as_text=True)
    assert "No cards enrolled yet" in page and "companion cards enrol player 1" in page
    assert 'class="card"' not in page


def test_the_pages_script_and_style_are_served_and_the_whole_page_is_small(client):
    page = client.get("/")
    total = len(page.data)
    for path in ("/static/table.js", "/static/table.css"):
        assert path in page.get_data(as_text=True)
        response = client.get(path)
        assert response.status_code == 200, path
        total += len(response.data)
    assert total < 100_000


def test_the_frame_is_the_oleds_128x64_picture_and_is_never_cached(client, table):
    response = client.get("/frame.png")
    assert response.status_code == 200 and response.mimetype == "image/png"
    assert "no-store" in response.headers["Cache-Control"]
    assert response.headers["X-Frame-Version"] == "1"
    image = Image.open(io.BytesIO(response.data))
    assert image.size == (128, 64) and image.mode == "1"
    table.change()
    again = client.get("/frame.png?v=2")
    assert again.headers["X-Frame-Version"] == "2" and again.data != response.data


def test_cards_and_status_are_json_of_what_the_service_says(client, table):
    assert client.get("/cards").get_json() == CARDS
    table.cards_list.append({"uid": "04FFFFFF", "words": "seat 3", "kind": "player"})
    assert client.get("/cards").get_json()[-1] == {"uid": "04FFFFFF", "words": "seat 3", "kind": "player"}
    table.reader = "offline"
    assert client.get("/status").get_json() == {
        "reader": "offline",
        "game": True,
        "words": "Anna's turn: roll",
        "edition": "Monopoly",
        "reader_words": "offline",
        "edition_words": "the cards of Monopoly",
    }


def test_the_russian_page_says_the_reader_state_in_russian():
    """Issue 22: «считыватель: ready» on the Russian page; every state the reader link has is in words."""
    table = FakeTable(language="ru")
    table.edition = "Монополия"
    client = create_app(table).test_client()
    page = client.get("/").get_data(as_text=True)
    assert "считыватель: готов" in page and ">ready<" not in page and ": ready" not in page
    assert "карты игры «Монополия»" in page
    for state, words in (
        ("searching", "ищем"),
        ("connecting", "подключается"),
        ("ready", "готов"),
        ("offline", "не на связи"),
        ("refused", "не та прошивка"),
    ):
        table.reader = state
        assert client.get("/status").get_json()["reader_words"] == words


# --- presses, ROLL and taps -------------------------------------------------------------------------


def test_presses_roll_and_taps_reach_the_service_as_given(client, table):
    assert client.post("/press", json={"button": "up"}).status_code == 204
    assert client.post("/press", json={"button": "ok", "long": True}).status_code == 204
    assert client.post("/press", data={"button": "back", "long": "1"}).status_code == 204  # a form
    assert client.post("/press", data={"button": "DOWN", "long": "false"}).status_code == 204
    assert client.post("/roll").status_code == 204
    assert client.post("/roll", json={}).status_code == 204
    assert client.post("/tap", json={"uid": "04A1B2C3"}).status_code == 204
    assert client.post("/tap", data={"uid": " 04b2c3d4e5f607 "}).status_code == 204
    assert table.calls == [
        ("press", "up", False),
        ("press", "ok", True),
        ("press", "back", True),
        ("press", "down", False),
        ("roll",),
        ("roll",),
        ("tap", "04A1B2C3"),
        ("tap", "04b2c3d4e5f607"),
    ]


BAD = [
    ("/press", {"json": {"button": "left"}}, 400, "unknown button 'left': one of up, down, ok, back"),
    ("/press", {"json": {"button": ""}}, 400, "which button?"),
    ("/press", {"json": {}}, 400, "which button?"),
    ("/press", {"json": {"button": 3}}, 400, "unknown button 3"),
    ("/press", {"json": {"button": "ok", "long": "maybe"}}, 400, "long must be true or false, not 'maybe'"),
    ("/press", {"json": {"button": "ok", "long": 7}}, 400, "long must be true or false"),
    ("/press", {"data": "{not json", "content_type": "application/json"}, 400, "the body is not a JSON object"),
    ("/press", {"json": ["ok"]}, 400, "the body is not a JSON object"),
    ("/press", {"data": "button=ok", "content_type": "text/plain"}, 400, "send the fields as JSON or as a form"),
    ("/press", {"json": {"button": "ok", "pad": "x" * 10_000}}, 413, "the request is too large"),
    ("/roll", {"data": b"\x00\xff" * 10, "content_type": "application/octet-stream"}, 400, "as JSON or as a form"),
    ("/roll", {"data": "x" * 100_000, "content_type": "text/plain"}, 413, "the request is too large"),
    ("/tap", {"json": {"uid": ""}}, 400, "which card?"),
    ("/tap", {"json": {"uid": "   "}}, 400, "which card?"),
    ("/tap", {"data": {}}, 400, "which card?"),
    ("/tap", {"json": {"uid": "not a uid!"}}, 400, "'not a uid!' is not a card UID"),
    ("/tap", {"json": {"uid": ["04A1B2C3"]}}, 400, "is not a card UID"),
    ("/tap", {"json": {"uid": "0" * 65}}, 400, "is not a card UID"),
]


@pytest.mark.parametrize("path, request_args, status, words", BAD, ids=[f"{b[0]}-{b[3][:24]}" for b in BAD])
def test_bad_input_is_refused_in_one_line_and_reaches_nothing(client, table, path, request_args, status, words):
    response = client.post(path, **request_args)
    assert response.status_code == status
    assert words in one_line_error(response)
    assert table.calls == []


@pytest.mark.parametrize("path", ["/press", "/roll", "/tap"])
def test_get_on_an_action_is_405_in_one_line(client, table, path):
    response = client.get(path)
    assert response.status_code == 405 and "POST" in response.headers["Allow"]
    assert one_line_error(response) == "GET is not allowed here"
    assert table.calls == []


def test_an_unknown_address_is_404_in_one_line(client):
    response = client.get("/admin")
    assert response.status_code == 404 and one_line_error(response) == "nothing here: /admin"


def test_a_page_of_another_site_may_not_press_the_buttons(client, table):
    response = client.post("/press", data={"button": "ok"}, headers={"Origin": "http://evil.example"})
    assert response.status_code == 403 and "another site" in one_line_error(response)
    response = client.post("/roll", headers={"Origin": "null"})
    assert response.status_code == 403
    assert client.post("/roll", headers={"Origin": "http://localhost"}).status_code == 204  # the page itself
    assert table.calls == [("roll",)]


def test_a_rebound_name_gets_one_line_not_the_table(client, table):
    """DNS rebinding: a site whose name now points at 127.0.0.1 is the page's own origin to the
    browser, so Origin alone passes; its Host header still names that site, and is refused."""
    for path, method in (("/", client.get), ("/roll", client.post)):
        response = method(path, headers={"Host": "evil.example:8000"})
        assert response.status_code == 400
        assert one_line_error(response) == "refused: the virtual table is not served under the name 'evil.example:8000'"
    assert table.calls == []
    for host in ("127.0.0.1:8000", "localhost", "[::1]:8000"):
        assert client.post("/roll", headers={"Host": host}).status_code == 204
    # a name of the table's own, given in its configuration
    named = create_app(table, ALLOWED_HOSTS=("Companion.lan",)).test_client()
    assert named.post("/roll", headers={"Host": "companion.lan:8000"}).status_code == 204


def test_refusals_speak_the_tables_language(table):
    table.language = "ru"
    response = create_app(table).test_client().post("/press", json={"button": "left"})
    assert one_line_error(response) == "нет такой кнопки 'left': есть up, down, ok, back"


def test_a_valueerror_from_the_service_is_a_400_with_its_words(client, table):
    table.refuse["tap"] = ValueError("not one of this box's cards:\nenrol it first")
    response = client.post("/tap", json={"uid": "DEADBEEF"})
    assert response.status_code == 400
    assert one_line_error(response) == "not one of this box's cards: enrol it first"
    assert table.calls == [("tap", "DEADBEEF")]


@pytest.mark.parametrize(
    "path, call, request_args",
    [
        ("/press", "press", {"json": {"button": "ok"}}),
        ("/roll", "roll", {}),
        ("/tap", "tap", {"json": {"uid": "04A1B2C3"}}),
    ],
)
def test_a_failure_inside_the_service_is_a_logged_500_in_one_line(client, table, caplog, path, call, request_args):
    table.refuse[call] = RuntimeError("the writer thread is gone")
    with caplog.at_level(logging.ERROR, logger="companion.web"):
        response = client.post(path, **request_args)
    assert response.status_code == 500
    assert one_line_error(response) == "the box failed to do that (RuntimeError); its log says more"
    assert "the writer thread is gone" in caplog.text and f"POST {path} failed" in caplog.text


def test_a_failure_while_drawing_the_page_is_a_500_in_one_line(client, table, caplog):
    table.status = lambda: 1 / 0
    with caplog.at_level(logging.ERROR, logger="companion.web"):
        response = client.get("/")
    assert response.status_code == 500 and "ZeroDivisionError" in one_line_error(response)
    assert "ZeroDivisionError" in caplog.text


# --- the frame stream -------------------------------------------------------------------------------


def stream(app):
    """The /frames response's chunks as text, one `next()` at a time."""
    response = app.test_client().get("/frames", buffered=False)
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    return (chunk.decode() if isinstance(chunk, bytes) else chunk for chunk in response.response)


def test_the_stream_sends_the_version_now_and_each_new_one_when_the_picture_changes(table):
    events = stream(create_app(table, SSE_POLL=0.05))
    first = next(events)
    assert "retry: " in first and "data: 1\n\n" in first
    threading.Timer(0.3, table.change).start()
    began = time.monotonic()
    assert next(events) == "id: 2\ndata: 2\n\n"
    assert time.monotonic() - began >= 0.25  # it waited for the change, not polled a copy
    table.change()
    table.change()
    assert next(events) == "id: 4\ndata: 4\n\n"  # changes while away come as the latest version


def test_a_quiet_stream_sends_a_keepalive_comment(table):
    events = stream(create_app(table, SSE_POLL=0.05, SSE_KEEPALIVE=0.2))
    next(events)
    assert next(events) == ": keepalive\n\n"


def test_closing_the_app_ends_its_streams_and_refuses_to_hold_new_ones(table):
    app = create_app(table, SSE_POLL=0.05)
    events = stream(app)
    next(events)
    threading.Timer(0.2, close_streams, (app,)).start()
    began = time.monotonic()
    assert list(events) == []
    assert time.monotonic() - began < 2
    assert list(stream(app))[1:] == []  # a late page gets the version and the end


def test_a_fifth_stream_ends_the_oldest(table):
    app = create_app(table, SSE_POLL=0.05, MAX_STREAMS=4)
    streams = [stream(app) for _ in range(5)]
    for events in streams[:4]:
        next(events)
    assert app.extensions["virtual_table"].count() == 4
    next(streams[4])
    assert list(streams[0]) == []  # the oldest, most likely a page long closed
    table.change()
    for events in streams[1:]:
        assert next(events) == "id: 2\ndata: 2\n\n"


def test_a_failing_stream_is_logged_and_ends(table, caplog):
    def broken(after, timeout):
        raise RuntimeError("the panel is gone")

    table.wait_frame = broken
    with caplog.at_level(logging.ERROR, logger="companion.web"):
        assert len(list(stream(create_app(table)))) == 1
    assert "the frame stream failed" in caplog.text and "the panel is gone" in caplog.text


# --- an installed wheel -----------------------------------------------------------------------------


def test_a_built_wheel_carries_the_templates_and_static_files_and_serves_the_page(tmp_path, built_wheel):
    """The wheel pip builds from the project (its sources copied, so the checkout is left alone) holds the
    page's files, and web.app imported from the unpacked wheel, far from the checkout, renders `/`."""
    names = built_wheel.names
    for name in (
        "web/__init__.py",
        "web/app.py",
        "web/serve.py",
        "web/templates/index.html",
        "web/static/table.js",
        "web/static/table.css",
    ):
        assert name in names, name

    site = built_wheel.site
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    check = (
        "import sys, web.app\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "from test_web_virtual import FakeTable\n"
        "client = web.app.create_app(FakeTable()).test_client()\n"
        "page = client.get('/')\n"
        "print(web.app.__file__)\n"
        "print(page.status_code, 'id=\"btn-ok\"' in page.get_data(as_text=True))\n"
        "print(client.get('/static/table.js').status_code, client.get('/static/table.css').status_code)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run(
        [sys.executable, "-c", check, str(Path(__file__).parent)],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    where, page, static = done.stdout.splitlines()
    assert Path(where).is_relative_to(site)
    assert page == "200 True" and static == "200 200"
