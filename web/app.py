"""The virtual table's Flask app: the OLED's picture, the box's four buttons, ROLL and the cards, on one page.

`create_app(table)` is handed the service it drives (anything shaped like
`VirtualTable`) and keeps no globals, so a test builds it around a fake. The
app only translates HTTP into calls on that object:

    GET  /            the page (web/templates/index.html, web/static/)
    GET  /frame.png   the OLED's current picture, 128x64, never cached
    GET  /frames      server-sent events: the picture's version each time it changes
    POST /press       button = up|down|ok|back, long = true|false (JSON or a form)
    POST /roll        the reader's ROLL button
    POST /tap         uid = a card's UID: the card is put on the reader and lifted
    GET  /cards       the enrolled cards, JSON
    GET  /status      the reader, whether a game is on, a short line; JSON

Every refusal is one JSON line, `{"error": "..."}`: 400 for bad input (which
never reaches the service) and for a ValueError the service raises, 403 for a
POST from a page of another site, 405/404/413 as HTTP says; any other
exception is logged and answered 500 in one line.
"""

import logging
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Protocol
from urllib.parse import urlsplit

from flask import Flask, Response, jsonify, render_template, request, url_for
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from web.hosts import host_allowed

log = logging.getLogger("companion.web")

BUTTONS = ("up", "down", "ok", "back")
LONG_PRESS_MS = 800  # the page's hold time for a long press; the box's buttons use the same 0.8 s
EXTENSION = "virtual_table"  # app.extensions[EXTENSION] holds the open frame streams (web.serve stops them)
_UID = re.compile(r"[0-9A-Fa-f:]{1,64}")
_TRUE = {"1", "true", "yes", "on", "long"}
_FALSE = {"", "0", "false", "no", "off", "short"}


class VirtualTable(Protocol):
    """What the page drives: the daemon's simulated box (or a test's fake)."""

    @property
    def language(self) -> str:
        """ "en" or "ru": the page's own few words follow it (read each time: the box's language may change)."""
        ...

    def frame(self) -> tuple[int, bytes]:
        """(version, PNG of the current OLED picture, 1-bit 128x64, unscaled)."""
        ...

    def wait_frame(self, after: int, timeout: float) -> int:
        """Block until the version is past `after` or `timeout` seconds passed; the current version."""
        ...

    def press(self, button: str, long: bool) -> None:
        """A box button, "up", "down", "ok" or "back", short or long; ValueError for an unknown one."""
        ...

    def roll(self) -> None:
        """The reader's ROLL button."""
        ...

    def tap(self, uid: str) -> None:
        """Put the card with this UID on the simulated reader and lift it."""
        ...

    def cards(self) -> list[dict[str, Any]]:
        """[{"uid": "04A1B2C3", "words": "seat 1", "kind": "player"|"plot"|"card"}, ...] in `language`."""
        ...

    def status(self) -> dict[str, Any]:
        """{"reader": "ready"/"offline"/..., "game": bool, "words": "a short line for the page",
        "edition": the name of the game's edition in `language`, "" with no game}."""
        ...


WORDS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "title": "Virtual table",
        "phone": "The phone page: what every player sees on their phone",
        "screen": "the box's screen",
        "box": "The box",
        "up": "UP",
        "down": "DOWN",
        "ok": "OK",
        "back": "BACK",
        "roll": "ROLL",
        "hold": "hold",
        "roll_title": "the reader's ROLL button: the reader throws the dice",
        "hold_title": "a long press, as if the button were held",
        "reader": "The reader",
        "reader_is": "reader:",
        "cards": "Cards: click one to tap it on the reader",
        "no_cards": "No cards enrolled yet (companion cards enrol player 1, then tap a new card below).",
        "other_card": "Another card's UID",
        "find_card": "find a card",
        "kind_player": "Players",
        "kind_plot": "Plots",
        "kind_card": "Deck cards",
        "kind_other": "Other cards",
        "tap": "tap",
        "new_card": "a new card",
        "shortcuts": "Keys: ↑ and ↓ = UP and DOWN, Enter = OK, Backspace or Esc = BACK, R = ROLL. "
        "Hold a button or a key for 0.8 s, shift-click it, or use “hold” for a long press.",
        "gone": "the box is not answering",
        "long_done": "long press",
        "err_no_button": "which button? send button = up, down, ok or back",
        "err_button": "unknown button {value}: one of up, down, ok, back",
        "err_long": "long must be true or false, not {value}",
        "err_no_uid": "which card? send uid = the card's UID",
        "err_uid": "{value} is not a card UID (hex digits)",
        "err_body": "send the fields as JSON or as a form",
        "err_json": "the body is not a JSON object",
        "err_large": "the request is too large",
        "err_method": "{value} is not allowed here",
        "err_missing": "nothing here: {value}",
        "err_cross": "refused: a page of another site may not use the virtual table",
        "err_host": "refused: the virtual table is not served under the name {value}",
        "err_failed": "the box failed to do that ({value}); its log says more",
        "err_http": "refused: {value}",
        # issue 22: the reader's state in words (companion/hw/reader.py LinkState), never its code
        "reader_searching": "looking for it",
        "reader_connecting": "connecting",
        "reader_ready": "ready",
        "reader_offline": "offline",
        "reader_refused": "wrong firmware",
        "reader_none": "none",
        "edition_cards": "the cards of {value}",
    },
    "ru": {
        "title": "Виртуальный стол",
        "phone": "Страница для телефонов: что каждый игрок видит у себя",
        "screen": "экран коробки",
        "box": "Коробка",
        "up": "ВВЕРХ",
        "down": "ВНИЗ",
        "ok": "ОК",
        "back": "НАЗАД",
        "roll": "БРОСОК",
        "hold": "долго",
        "roll_title": "кнопка БРОСОК на считывателе: считыватель бросает кубики",
        "hold_title": "долгое нажатие, как если бы кнопку держали",
        "reader": "Считыватель",
        "reader_is": "считыватель:",
        "cards": "Карты: щёлкните карту, чтобы приложить её к считывателю",
        "no_cards": "Карт пока нет (companion cards enrol player 1, затем приложите новую карту ниже).",
        "other_card": "UID другой карты",
        "find_card": "найти карту",
        "kind_player": "Игроки",
        "kind_plot": "Участки",
        "kind_card": "Карточки колод",
        "kind_other": "Другие карты",
        "tap": "приложить",
        "new_card": "новая карта",
        "shortcuts": "Клавиши: ↑ и ↓ = ВВЕРХ и ВНИЗ, Enter = ОК, Backspace или Esc = НАЗАД, R = БРОСОК. "
        "Для долгого нажатия держите кнопку или клавишу 0,8 с, щёлкните с Shift или нажмите «долго».",
        "gone": "коробка не отвечает",
        "long_done": "долгое нажатие",
        "err_no_button": "какая кнопка? укажите button = up, down, ok или back",
        "err_button": "нет такой кнопки {value}: есть up, down, ok, back",
        "err_long": "long должно быть true или false, а не {value}",
        "err_no_uid": "какая карта? укажите uid = UID карты",
        "err_uid": "{value} — не UID карты (шестнадцатеричные цифры)",
        "err_body": "пришлите поля в JSON или как форму",
        "err_json": "тело запроса — не объект JSON",
        "err_large": "запрос слишком велик",
        "err_method": "{value} здесь не разрешён",
        "err_missing": "здесь ничего нет: {value}",
        "err_cross": "отказано: страница другого сайта не может управлять виртуальным столом",
        "err_host": "отказано: виртуальный стол не открывается под именем {value}",
        "err_failed": "коробка не смогла это сделать ({value}); подробности в её журнале",
        "err_http": "отказано: {value}",
        # issue 22: the reader's state in words (companion/hw/reader.py LinkState), never its code
        "reader_searching": "ищем",
        "reader_connecting": "подключается",
        "reader_ready": "готов",
        "reader_offline": "не на связи",
        "reader_refused": "не та прошивка",
        "reader_none": "нет",
        "edition_cards": "карты игры «{value}»",
    },
}


class Refused(Exception):
    """Bad input, answered with `status` and one line; the service is never called."""

    def __init__(self, line: str, status: int = 400):
        super().__init__(line)
        self.line = line
        self.status = status


class Streams:
    """The open /frames streams. Each waits on the service in short slices and ends once its flag is set:
    when the server stops (`close_all`) or when more than `limit` streams are open (the oldest goes: most
    likely a page that was closed, since a stream only notices a gone page when it next writes; a live
    page's EventSource reconnects by itself)."""

    def __init__(self, limit: int):
        self.limit = limit
        self.closing = threading.Event()
        self._lock = threading.Lock()
        self._open: list[threading.Event] = []

    def open(self) -> threading.Event:
        flag = threading.Event()
        with self._lock:
            if self.closing.is_set():
                flag.set()
            self._open.append(flag)
            while len(self._open) > self.limit:
                self._open.pop(0).set()
        return flag

    def done(self, flag: threading.Event) -> None:
        with self._lock:
            if flag in self._open:
                self._open.remove(flag)

    def count(self) -> int:
        with self._lock:
            return len(self._open)

    def close_all(self) -> None:
        with self._lock:
            self.closing.set()
            for flag in self._open:
                flag.set()


def close_streams(app: Flask) -> None:
    """End every open /frames stream of this app and refuse new ones (web.serve calls it on stop)."""
    streams = app.extensions.get(EXTENSION)
    if isinstance(streams, Streams):
        streams.close_all()


def create_app(table: VirtualTable, **config: Any) -> Flask:
    """The virtual table's app around `table`. Keyword arguments override the config below."""
    app = Flask(__name__)
    app.config.update(
        MAX_CONTENT_LENGTH=4096,  # a press or a tap is a few dozen bytes
        MAX_FORM_MEMORY_SIZE=4096,
        SSE_KEEPALIVE=15.0,  # seconds of quiet before a ": keepalive" comment
        SSE_POLL=0.5,  # each stream waits on the service this long at a time, then checks its flag
        SSE_RETRY_MS=1500,  # EventSource's reconnect delay
        MAX_STREAMS=4,  # open /frames streams (each holds a server thread while open)
        ALLOWED_HOSTS=(),  # more names than localhost and this machine's own it is served under
    )
    app.config.update(config)
    streams = Streams(int(app.config["MAX_STREAMS"]))
    app.extensions[EXTENSION] = streams

    def words() -> Mapping[str, str]:
        return WORDS.get(getattr(table, "language", "en"), WORDS["en"])

    def say(key: str, value: object = None, quote: bool = True) -> str:
        return words()[key].format(value=_quoted(value) if quote else _one_line(str(value)))

    def fields() -> Mapping[str, Any]:
        """The request's fields: a JSON object, a form, or none at all (an empty body)."""
        if request.is_json:
            data = request.get_json(silent=True)
            if not isinstance(data, dict):
                raise Refused(say("err_json"))
            return data
        if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
            return request.form
        if request.get_data():
            raise Refused(say("err_body"))
        return {}

    host_names = frozenset(
        {
            "localhost",
            socket.gethostname().lower(),
            socket.gethostname().lower() + ".local",
            *(str(n).strip().rstrip(".").lower() for n in app.config["ALLOWED_HOSTS"]),
        }
    )

    @app.before_request
    def same_site_only() -> Any:
        # A site whose name an attacker rebinds to 127.0.0.1 is the same origin as this page to the
        # browser: only the Host header tells it apart (DNS rebinding). The phone pages check their own.
        if request.blueprint != "phone" and not host_allowed(request.host, host_names):
            raise Refused(say("err_host", request.host), 400)
        # A page of another site may POST a form to a loopback address; browsers name its origin.
        if request.method == "POST":
            origin = request.headers.get("Origin")
            if origin is not None and urlsplit(origin).netloc != request.host:
                raise Refused(say("err_cross"), 403)
            if request.content_length is not None and request.content_length > app.config["MAX_CONTENT_LENGTH"]:
                raise Refused(say("err_large"), 413)
        return None

    def status_words() -> dict[str, Any]:
        """The service's status with the reader's state and the edition said in the page's words."""
        state = dict(table.status())
        w = words()
        reader = str(state.get("reader", ""))
        state["reader_words"] = w.get("reader_" + reader, reader)
        edition = str(state.get("edition") or "")
        state["edition_words"] = w["edition_cards"].format(value=edition) if edition else ""
        return state

    @app.get("/")
    def page() -> Any:
        version, _ = table.frame()
        w = words()
        cards = [_card(c) for c in table.cards()]
        return render_template(
            "index.html",
            w=w,
            lang=table.language if table.language in WORDS else "en",
            version=version,
            buttons=BUTTONS,
            cards=cards,
            groups=_groups(cards, w),
            status=status_words(),
            long_ms=LONG_PRESS_MS,
            page_words={
                k: w[k]
                for k in (
                    "gone",
                    "reader_is",
                    "no_cards",
                    "long_done",
                    "kind_player",
                    "kind_plot",
                    "kind_card",
                    "kind_other",
                )
            },
            # the phone page, when the daemon serves it beside the virtual table (web/phone/)
            phone_url=url_for("phone.index") if "phone" in app.blueprints else "",
        )

    @app.get("/frame.png")
    def frame() -> Response:
        version, png = table.frame()
        response = Response(png, mimetype="image/png")
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Frame-Version"] = str(version)
        return response

    @app.get("/frames")
    def frames() -> Response:
        keepalive, poll = float(app.config["SSE_KEEPALIVE"]), float(app.config["SSE_POLL"])
        retry = int(app.config["SSE_RETRY_MS"])

        def events() -> Iterator[str]:
            flag = streams.open()
            try:
                version, _ = table.frame()
                yield f"retry: {retry}\nid: {version}\ndata: {version}\n\n"
                quiet_since = time.monotonic()
                while not flag.is_set():
                    now = table.wait_frame(version, poll)
                    if flag.is_set():
                        break
                    if now != version:
                        version = now
                        yield f"id: {version}\ndata: {version}\n\n"
                        quiet_since = time.monotonic()
                    elif time.monotonic() - quiet_since >= keepalive:
                        yield ": keepalive\n\n"
                        quiet_since = time.monotonic()
            except Exception:
                log.exception("virtual table: the frame stream failed")
            finally:
                streams.done(flag)

        response = Response(events(), mimetype="text/event-stream")
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Accel-Buffering"] = "no"
        return response

    @app.post("/press")
    def press() -> tuple[str, int]:
        data = fields()
        button = data.get("button")
        if button is None or (isinstance(button, str) and not button.strip()):
            raise Refused(say("err_no_button"))
        if not isinstance(button, str) or button.strip().lower() not in BUTTONS:
            raise Refused(say("err_button", button))
        table.press(button.strip().lower(), _long(data.get("long"), say))
        return "", 204

    @app.post("/roll")
    def roll() -> tuple[str, int]:
        fields()  # an empty body, {} or a form: nothing is needed, but garbage is still refused
        table.roll()
        return "", 204

    @app.post("/tap")
    def tap() -> tuple[str, int]:
        uid = fields().get("uid")
        if uid is None or (isinstance(uid, str) and not uid.strip()):
            raise Refused(say("err_no_uid"))
        if not isinstance(uid, str) or not _UID.fullmatch(uid.strip()):
            raise Refused(say("err_uid", uid))
        table.tap(uid.strip())
        return "", 204

    @app.get("/cards")
    def cards() -> Response:
        return jsonify([_card(c) for c in table.cards()])

    @app.get("/status")
    def status() -> Response:
        response = jsonify(status_words())
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.errorhandler(Refused)
    def refused(error: Refused) -> tuple[Response, int]:
        return jsonify(error=error.line), error.status

    @app.errorhandler(ValueError)
    def service_refused(error: ValueError) -> tuple[Response, int]:
        return jsonify(error=_one_line(str(error)) or say("err_failed", type(error).__name__, quote=False)), 400

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[Response, int]:
        code = error.code or 500
        if code == 405:
            line = say("err_method", request.method, quote=False)
        elif code == 404:
            line = say("err_missing", request.path[:80], quote=False)
        elif code == 413:
            line = say("err_large")
        else:
            line = say("err_http", error.description or error.name, quote=False)
        response = jsonify(error=line)
        if isinstance(error, MethodNotAllowed) and error.valid_methods:
            response.headers["Allow"] = ", ".join(error.valid_methods)
        return response, code

    @app.errorhandler(Exception)
    def failed(error: Exception) -> tuple[Response, int]:
        log.exception("virtual table: %s %s failed", request.method, request.path)
        return jsonify(error=say("err_failed", type(error).__name__, quote=False)), 500

    return app


def _long(value: object, say: Callable[..., str]) -> bool:
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise Refused(say("err_long", value))


def _card(card: Mapping[str, Any]) -> dict[str, str]:
    return {"uid": str(card.get("uid", "")), "words": str(card.get("words", "")), "kind": str(card.get("kind", ""))}


KINDS = ("player", "plot", "card")  # the card groups on the page, in this order; any other kind comes last


def _groups(cards: list[dict[str, str]], words: Mapping[str, str]) -> list[tuple[str, str, list[dict[str, str]]]]:
    """The cards by kind, as the page shows them: (kind, its heading, its cards in the service's order)."""
    kinds = [k for k in KINDS if any(c["kind"] == k for c in cards)]
    kinds += sorted({c["kind"] for c in cards} - set(KINDS))
    return [(k, words.get(f"kind_{k}", words["kind_other"]), [c for c in cards if c["kind"] == k]) for k in kinds]


def _quoted(value: object) -> str:
    text = repr(value)
    return _one_line(text if len(text) <= 40 else text[:40] + "…")


def _one_line(text: str) -> str:
    return " ".join(text.split())
