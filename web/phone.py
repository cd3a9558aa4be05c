"""The phone page: the live ledger in every player's hand, a Flask blueprint around the service it is handed.

`create_phone_app(service)` builds an app serving it at /phone/ (and / redirects
there); `register_phone(app, service)` adds it to another app (the virtual
table's, with simulated hardware). The service is anything shaped like
`PhoneTable` (companion/daemon/phone.py on the daemon); the app keeps no globals.
docs/phone.md has the URL map, the roles and the threat model:

    GET  /phone/                 join (a visitor) or the table (anyone who joined)
    GET  /phone/table /board /ledger[?before=N] /player/<seat> /me /act /undo[?seq=N] /game /summary
    GET  /phone/export.csv /phone/export.json
    GET  /phone/events           server-sent events: id = the ledger's seq (Last-Event-ID resumes)
    GET  /phone/api/state /api/me /api/head?at=N /api/health    JSON
    POST /phone/join /leave /lang /pair /pair/cancel /pair/clear /claim /banker
    POST /phone/act /undo /seat-pin /game/start /game/end /game/archive

Any page's ?part=live gives only its live part (the page swaps it in after each event).
Every request names the box in its Host (one of its names, or an IP address: no DNS
rebinding), else 400. Every POST needs the session's CSRF token (field `csrf` or
header X-CSRF-Token) and comes from this site; an action carries an id (`aid`) so a
repeat pays once. Every answer to a POST is JSON: {"ok": true, ...} or {"error":
"one line"} with 400 (bad input), 403 (role, CSRF, session), 404, 409 (the rules
refused, another phone is pairing), 429 (asked to pair again too soon) or 500 (an
unexpected failure: logged and counted in `failures`, /phone/api/health: the
banker's or loopback's).
"""

import functools
import hashlib
import ipaddress
import json
import logging
import math
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import urlsplit

from flask import Blueprint, Flask, Response, g, jsonify, redirect, render_template, request, url_for
from markupsafe import Markup, escape
from werkzeug.exceptions import HTTPException, MethodNotAllowed
from werkzeug.http import parse_cookie

from companion.words.phone import WORDS
from web.app import Streams
from web.hosts import guesser, host_allowed

log = logging.getLogger("companion.web.phone")

EXTENSION = "phone"  # app.extensions[EXTENSION]: the PhoneState (sessions, streams, failures)
COOKIE = "companion_phone"
# a phone with a role keeps its cookie this long (the box keeps the token's hash, per game, in its games folder):
# the role outlives the browser closed and the box restarted, until the phone leaves or the banker revokes it
KEEP_SECONDS = 180 * 24 * 3600
TABLE = "table"  # the banker acts as the table (companion.engine.actions.TABLE; the web never imports it)
ROLES = ("visitor", "spectator", "player", "banker")
VIEWERS = ("spectator", "player", "banker")  # who joined with the table code (or rose from it)
ACTORS = ("player", "banker")
_AID = re.compile(r"[A-Za-z0-9-]{8,64}")


class PhoneTable(Protocol):
    """What the phone page reads and does: the daemon's PhoneService (or a test's)."""

    language: str

    def game_id(self) -> str | None: ...
    def table_code(self) -> str: ...
    def check_code(self, code: str) -> bool: ...
    def phone_url(self) -> str: ...
    def allowed_hosts(self) -> frozenset[str]: ...
    def head(self, language: str) -> dict: ...
    def head_at(self, seq: int, language: str) -> dict: ...
    def banner(self, language: str, role: str) -> dict: ...
    def table_view(self, language: str) -> dict: ...
    def player_view(self, seat: int, language: str) -> dict: ...
    def board_view(self, language: str) -> dict: ...
    def ledger_view(self, language: str, before: int | None = None) -> dict: ...
    def summary(self, language: str) -> dict: ...
    def export(self, language: str) -> dict: ...
    def actions(self, actor: str, language: str) -> list[dict]: ...
    def act(self, actor: str, fields: dict, action_id: str, language: str) -> dict: ...
    def undo_list(self, language: str) -> dict: ...
    def undo_preview(self, seq: int, language: str) -> dict: ...
    def undo(self, seq: int, action_id: str, language: str) -> dict: ...
    def editions(self, language: str) -> list[dict]: ...
    def start_game(
        self, edition: str, players: list[str], action_id: str, language: str, replace: bool = False
    ) -> dict: ...
    def our_boards(self, language: str) -> list[dict]: ...
    def our_board(self, base: str, language: str) -> dict: ...
    def our_board_save(
        self, base: str, version: int, values: dict, effects: dict, confirm: list, language: str
    ) -> dict: ...
    def our_board_import(self, raw: bytes, version: int, share: bool, base: str, language: str) -> dict: ...
    def our_board_export(self, base: str, language: str) -> tuple[str, bytes]: ...
    def our_board_share(self, base: str, language: str) -> dict: ...
    def end_game(self, action_id: str, language: str) -> dict: ...
    def archive_game(self, action_id: str, language: str) -> dict: ...
    def check_banker(self, pin: str, language: str, client: str = "") -> None: ...
    def set_seat_pin(self, seat: int, pin: str, language: str) -> dict: ...
    def claim_seat(self, seat: int, pin: str, language: str, client: str = "") -> dict: ...
    def pair_start(self, language: str, who: str = "", client: str = "") -> dict: ...
    def pair_status(self, pid: str) -> dict: ...
    def pair_cancel(self, pid: str) -> None: ...
    def pair_clear(self) -> str: ...
    def stream(self, since: int, language: str) -> Any: ...
    def keep_role(
        self, token: str, role: str, player: str, csrf: str, game: str | None, old_token: str = ""
    ) -> None: ...
    def find_role(self, token: str) -> dict | None: ...
    def roles_kept(self, language: str, token: str = "") -> list[dict]: ...
    def revoke_role(self, rid: str) -> str: ...
    # issue 22: the table set up from the banker's phone
    def new_game_form(self) -> dict: ...
    def box_language(self) -> str: ...
    def set_banker_pin(self, pin: str, language: str) -> dict: ...
    def set_box_language(self, lang: str, language: str) -> dict: ...
    def walk_view(self, language: str) -> dict: ...
    def walk_brief(self, language: str) -> dict: ...
    def walk_do(self, op: str, fields: dict, language: str) -> dict: ...


class Refused(Exception):
    """The page's own refusal (bad input, the wrong role, a forged token): `status` and one line."""

    def __init__(self, line: str, status: int = 400):
        super().__init__(line)
        self.line = " ".join(line.split())
        self.status = status


@dataclass
class Session:
    """One phone: its role, the game the role belongs to, its CSRF token and language."""

    token: str
    csrf: str
    role: str = "visitor"
    player: str = ""
    game: str | None = None
    lang: str = ""
    pairing: str = ""
    seen: float = 0.0
    sid: str = field(default_factory=lambda: secrets.token_hex(8))  # stays when the token is renewed


def token_hash(token: str) -> str:
    """A phone's token as the box keeps it (companion/daemon/phonekeep.py does the same): its SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


class TooMany(Refused):
    """A client asked for expensive reads faster than its share (HTTP 429, with Retry-After)."""

    def __init__(self, line: str, seconds: int):
        super().__init__(line, 429)
        self.seconds = seconds


class ReadLimit:
    """How often one client may ask for the expensive reads (exports, the summary, ledger and player pages,
    opening a stream): a bucket of `burst` asks that refills at `per_second`. A client is what
    web.hosts.guesser makes of its address (an IPv4 address, an IPv6 /64), as for PIN guesses: a phone
    picks addresses in its /64 at will. The box itself (loopback) is never limited."""

    def __init__(
        self, burst: float, per_second: float, clients: int = 1024, clock: Callable[[], float] = time.monotonic
    ):
        self.burst, self.per_second, self.clients, self.clock = float(burst), float(per_second), clients, clock
        self._lock = threading.Lock()
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # client -> (asks left, when)

    def take(self, address: str) -> float:
        """0 when `address` may read now (one ask taken), else the seconds until it may."""
        if _loopback(address):
            return 0.0
        client, now = guesser(address), self.clock()
        with self._lock:
            left, then = self._buckets.pop(client, (self.burst, now))
            left = min(self.burst, left + (now - then) * self.per_second)
            self._buckets[client] = (left - 1 if left >= 1 else left, now)  # the newest last: the oldest go first
            while len(self._buckets) > self.clients:
                self._buckets.popitem(last=False)
        if left >= 1:
            return 0.0
        return (1 - left) / self.per_second if self.per_second > 0 else 3600.0


class PhoneStreams(Streams):
    """The open /phone/events streams, each held by a client (its address). Beyond the limit the oldest
    stream of the client holding the most goes, not the oldest of all: a laptop at the table opening
    streams by the dozen ends its own, never the banker's or another phone's (each holds one or two)."""

    def __init__(self, limit: int):
        super().__init__(limit)
        self._held: dict[threading.Event, str] = {}

    def open(self, client: str = "") -> threading.Event:
        flag = threading.Event()
        with self._lock:
            if self.closing.is_set():
                flag.set()
            self._open.append(flag)
            self._held[flag] = client
            while len(self._open) > self.limit:
                counts: dict[str, int] = {}
                for f in self._open:
                    counts[self._held.get(f, "")] = counts.get(self._held.get(f, ""), 0) + 1
                most = max(counts.values())
                # the oldest stream of a client holding the most (the list is oldest first)
                victim = next(f for f in self._open if counts[self._held.get(f, "")] == most)
                self._open.remove(victim)
                self._held.pop(victim, None)
                victim.set()
        return flag

    def done(self, flag: threading.Event) -> None:
        with self._lock:
            if flag in self._open:
                self._open.remove(flag)
            self._held.pop(flag, None)


class PhoneState:
    """The sessions (in memory: they end with the game, and with the daemon), the open streams and the
    count of unexpected failures."""

    def __init__(self, service: PhoneTable, config: Mapping[str, Any]):
        self.service = service
        self.config = dict(config)
        self.streams = PhoneStreams(int(self.config["MAX_STREAMS"]))
        self.reads = ReadLimit(float(self.config["READ_BURST"]), float(self.config["READ_PER_S"]))
        self._encoded: dict[str, tuple[str, bytes]] = {}  # an export's kind -> (its text, the text encoded)
        self.failures = 0
        self._lock = threading.Lock()
        self._sessions: OrderedDict[str, Session] = OrderedDict()

    def new_session(self) -> Session:
        session = Session(secrets.token_urlsafe(24), secrets.token_urlsafe(24), seen=time.monotonic())
        with self._lock:
            self._sessions[session.token] = session
            while len(self._sessions) > int(self.config["MAX_SESSIONS"]):
                # the visitor unseen longest goes first (a flood of new pages never evicts a player who
                # joined), then the spectator unseen longest (a flood of sessions that joined with the
                # table code never shuts a new phone out), then whoever is unseen longest; never the new one
                oldest = (
                    next((t for t, s in self._sessions.items() if s.role == "visitor" and s is not session), None)
                    or next((t for t, s in self._sessions.items() if s.role == "spectator"), None)
                    or next(t for t in self._sessions if t != session.token)
                )
                del self._sessions[oldest]
        return session

    def session(self, token: str | None) -> Session | None:
        if not token:
            return None
        with self._lock:
            session = self._sessions.get(token)
            if session is not None:
                self._sessions.move_to_end(token)
                session.seen = time.monotonic()
            return session

    def restore(self, token: str | None) -> Session | None:
        """A phone's lasting role, found in the games folder by its cookie's token (a restart, or a session
        this process dropped): the session again, with its token and CSRF token, so the page in hand keeps
        working. None when the token holds no role in the open game (an unknown token never becomes a
        session: a planted token stays worthless)."""
        if not token:
            return None
        found = self.service.find_role(token)
        if found is None:
            return None
        with self._lock:
            session = self._sessions.get(token)
            if session is None:
                session = Session(token, found["csrf"] or secrets.token_urlsafe(24), seen=time.monotonic())
                self._sessions[token] = session
            session.role, session.player, session.game = found["role"], found["player"], found["game"]
            return session

    def demote(self, hashed: str) -> None:
        """The sessions whose token hashes to `hashed` (a role the banker revoked) are visitors again."""
        with self._lock:
            for session in self._sessions.values():
                if token_hash(session.token) == hashed:
                    session.role, session.player, session.game = "visitor", "", None

    def renew(self, session: Session, seen: str | None) -> Session:
        """A new token for a session whose role rises (the table code, a seat, the banker's PIN): a token
        planted on a phone, or read before, stays a visitor's (no session fixation). The CSRF token stays:
        it is worth nothing without the cookie, and the page in hand keeps working. Only the token the
        request came with is replaced: two requests raising it at once both answer with the one new token."""
        with self._lock:
            if session.token == seen:
                self._sessions.pop(session.token, None)
                session.token = secrets.token_urlsafe(24)
                self._sessions[session.token] = session
        return session

    def encoded(self, kind: str, text: str) -> bytes:
        """`text` as UTF-8, encoded once while the service hands out the same export (the phones refreshing
        at one head share it: encoding megabytes per request kept the processor from the writer)."""
        with self._lock:
            found = self._encoded.get(kind)
        if found is not None and found[0] is text:
            return found[1]
        body = text.encode("utf-8")
        with self._lock:
            self._encoded[kind] = (text, body)
        return body

    def failed(self) -> None:
        with self._lock:
            self.failures += 1

    def joined(self, token: str | None) -> bool:
        """Whether this token is a session that showed the table code (or rose from it), or holds a lasting role
        the box kept (a phone's first connection after a restart); touches nothing."""
        with self._lock:
            session = self._sessions.get(token or "")
            if session is not None and session.role != "visitor":
                return True
        return bool(token) and self.service.find_role(str(token)) is not None


BOARD_BODY = 256 * 1024  # an edition file or a whole board's corrections (the table's own board, issue 23)
DEFAULTS = {
    "MAX_CONTENT_LENGTH": 16 * 1024,
    "MAX_FORM_MEMORY_SIZE": 16 * 1024,
    "MAX_FORM_PARTS": 200,
    "SSE_KEEPALIVE": 15.0,
    "SSE_POLL": 0.5,
    "SSE_RETRY_MS": 1500,
    "MAX_STREAMS": 58,  # every open page holds a server thread for its stream (web.serve sizes the threads)
    "MAX_SESSIONS": 512,
    "READ_BURST": 20,  # expensive reads (exports, summary, ledger and player pages, streams) a client asks at once,
    "READ_PER_S": 1.0,  # ... and then this many a second (ReadLimit)
}


def create_phone_app(service: PhoneTable, **config: Any) -> Flask:
    """An app serving the phone page at /phone/ (and / sends a browser there)."""
    app = Flask(__name__)
    app.config.update(
        MAX_CONTENT_LENGTH=DEFAULTS["MAX_CONTENT_LENGTH"],
        MAX_FORM_MEMORY_SIZE=DEFAULTS["MAX_FORM_MEMORY_SIZE"],
        MAX_FORM_PARTS=DEFAULTS["MAX_FORM_PARTS"],
    )
    register_phone(app, service, **config)

    @app.get("/")
    def root() -> Any:
        if not host_allowed(request.host, service.allowed_hosts()):
            best = request.accept_languages.best_match(list(WORDS)) or "en"
            return jsonify(error=WORDS[best]["err_host"].format(host=request.host[:80])), 400
        return redirect(url_for("phone.index"), 302)

    @app.after_request
    def no_sniffing(response: Response) -> Response:
        # an address outside the blueprint (its 404 echoes the path) is never read as a page either
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[Response, int]:
        code = error.code or 500
        line = (
            f"{request.method} is not allowed here"
            if code == 405
            else f"nothing here: {request.path[:80]}"
            if code == 404
            else f"refused: {error.name}"
        )
        return jsonify(error=line), code

    return app


def register_phone(app: Flask, service: PhoneTable, **config: Any) -> PhoneState:
    """Add the phone page at /phone/ to `app`; its state is app.extensions["phone"]."""
    state = PhoneState(service, {**DEFAULTS, **config})
    app.extensions[EXTENSION] = state
    app.register_blueprint(_blueprint(state), url_prefix="/phone")
    return state


def close_phone_streams(app: Flask) -> None:
    """End every open /phone/events stream of this app and refuse new ones (web.serve calls it on stop)."""
    state = app.extensions.get(EXTENSION)
    if isinstance(state, PhoneState):
        state.streams.close_all()


def joined_cookie(app: Flask, cookie: str) -> bool:
    """Whether a request's Cookie header carries the session of a phone that showed the table code: web.serve
    gives its connection the ordinary timeouts instead of a visitor's short wait (docs/phone.md)."""
    state = app.extensions.get(EXTENSION)
    if not isinstance(state, PhoneState) or COOKIE not in cookie:
        return False
    return state.joined(parse_cookie(cookie).get(COOKIE))


def _blueprint(state: PhoneState) -> Blueprint:
    bp = Blueprint("phone", __name__, template_folder="templates", static_folder="static", static_url_path="/static")
    service = state.service

    # ----- the request's session, role and language -----------------------------------------------

    def lang() -> str:
        session = g.get("phone_session")
        if session is not None and session.lang in WORDS:
            return str(session.lang)
        chosen = service.box_language()  # the box's language, once chosen there, is every phone's default
        if chosen in WORDS:
            return chosen
        best = request.accept_languages.best_match(list(WORDS))
        return best or (service.language if service.language in WORDS else "en")

    def w() -> Mapping[str, str]:
        return WORDS[lang()]

    def say(key: str, **params: Any) -> str:
        return w()[key].format(**params)

    def role() -> str:
        session = g.get("phone_session")
        return session.role if session is not None else "visitor"

    def need(*roles: str) -> Session:
        session = g.get("phone_session")
        if session is None:
            raise Refused(say("err_session"), 403)
        if session.role not in roles:
            wanted = "banker" if roles == ("banker",) else "player" if "spectator" not in roles else "spectator"
            raise Refused(say("err_role", role=say("err_role_" + wanted)), 403)
        return session

    def viewer() -> Session:
        return need(*VIEWERS)

    def actor() -> str:
        session = need(*ACTORS)
        return TABLE if session.role == "banker" else session.player

    def heavy() -> None:
        """An expensive read: refused (429) when this client asks faster than its share (ReadLimit)."""
        wait = state.reads.take(request.remote_addr or "")
        if wait > 0:
            raise TooMany(say("err_too_many", seconds=math.ceil(wait)), math.ceil(wait))

    def client() -> str:
        """Who guesses a PIN: the phone's address (a new session is free to make, an address is not). An
        IPv6 phone may take any address of its /64 at will, so the /64 is one guesser; an IPv4 address
        written as IPv6 (::ffff:a.b.c.d) is that IPv4 address."""
        return guesser(request.remote_addr or "")

    @bp.before_request
    def load_session() -> Any:
        g.phone_session = None
        if not host_allowed(request.host, service.allowed_hosts()):
            # DNS rebinding: another site's name now pointing at the box passes the Origin==Host check below,
            # so the name itself must be the box's (or an address, which cannot be rebound)
            raise Refused(say("err_host", host=request.host[:80]), 400)
        token = request.cookies.get(COOKIE)
        session = state.session(token)
        if session is None or session.role == "visitor":
            # a role that outlived a restart, a closed browser or another game: found by the cookie's token
            session = state.restore(token) or session
        g.phone_session = session
        g.phone_new = False
        if request.method == "POST":
            # the phone's own limits even inside another app (the virtual table's), and for a body sent
            # in chunks with no length: werkzeug stops reading there instead of spooling it to disk
            # a table's board (an edition file, ~40 KB) is the one larger body the banker sends
            large = request.endpoint in ("phone.our_board_import", "phone.our_board_save")
            request.max_content_length = BOARD_BODY if large else int(state.config["MAX_CONTENT_LENGTH"])
            request.max_form_memory_size = BOARD_BODY if large else int(state.config["MAX_FORM_MEMORY_SIZE"])
            request.max_form_parts = int(state.config["MAX_FORM_PARTS"])
            origin = request.headers.get("Origin")
            if origin is not None and urlsplit(origin).netloc != request.host:
                raise Refused(say("err_cross"), 403)
            if request.content_length is not None and request.content_length > request.max_content_length:
                raise Refused(say("err_large"), 413)
            if session is None:
                raise Refused(say("err_session"), 403)
            token = request.headers.get("X-CSRF-Token") or _csrf_field()
            if not isinstance(token, str) or not secrets.compare_digest(token.encode(), session.csrf.encode()):
                raise Refused(say("err_csrf"), 403)
        elif session is None and request.endpoint not in ("phone.events", "phone.static"):
            g.phone_session = state.new_session()
            g.phone_new = True
        session = g.phone_session
        if session is not None and session.role != "visitor" and session.game != service.game_id():
            # sessions end with the game: a new game (or none) takes every role back
            session.role, session.player, session.game = "visitor", "", None
        return None

    @bp.after_request
    def set_cookie(response: Response) -> Response:
        session = g.get("phone_session")
        if session is not None and g.get("phone_new"):
            # a visitor's cookie ends with the browser; a role's lasts (KEEP_SECONDS), as the box keeps the role
            response.set_cookie(
                COOKIE,
                session.token,
                httponly=True,
                samesite="Strict",
                path="/phone",
                max_age=KEEP_SECONDS if session.role != "visitor" else None,
            )
        response.headers.setdefault("Cache-Control", "no-store")
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response

    def fields() -> Mapping[str, Any]:
        if request.is_json:
            data = _json_body()
            if not isinstance(data, dict):
                raise Refused(say("err_body"))
            return data
        if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
            form = request.form
            out: dict[str, Any] = {k: form.get(k) for k in form}
            for many in ("arg", "give", "get", "player"):
                if many in form:
                    out["args" if many == "arg" else many] = form.getlist(many)
            return out
        if request.get_data():
            raise Refused(say("err_body"))
        return {}

    def text(data: Mapping[str, Any], key: str, limit: int = 64, allow_empty: bool = False) -> str:
        value = data.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if (
            not isinstance(value, str)
            or len(value) > limit
            or not value.isprintable()
            or (not allow_empty and not value.strip())
        ):
            raise Refused(say("err_field", field=key))
        return value.strip()

    def number(data: Mapping[str, Any], key: str, low: int = 1, high: int = 1_000_000) -> int:
        value = data.get(key)
        if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit() and len(value) < 10:
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise Refused(say("err_field", field=key))
        return value

    def aid(data: Mapping[str, Any]) -> str:
        value = data.get("aid")
        if not isinstance(value, str) or not _AID.fullmatch(value):
            raise Refused(say("err_aid"))
        return value

    def done(**data: Any) -> Response:
        return jsonify(ok=True, **data)

    # ----- pages ----------------------------------------------------------------------------------

    def page(template: str, **data: Any) -> Any:
        session = g.phone_session
        language = lang()
        head = data.pop("head", None) or service.head(language)
        banner = {"readonly": "", "warnings": []}
        if session is None or session.role == "visitor":  # nothing of the game before the table code
            head = {"game": None, "seq": 0, "words": "", "visitor": True}
        else:  # why nothing can be booked (everyone), the table's warnings (the banker)
            banner = service.banner(language, session.role)
        return render_template(
            f"phone/{template}",
            w=w(),
            lang=language,
            head=head,
            role=session.role if session else "visitor",
            me=session.player if session else "",
            csrf=session.csrf if session else "",
            part=request.args.get("part") == "live",
            fresh_aid=lambda: secrets.token_hex(12),
            svg_chart=price_chart,
            banner=banner,
            **data,
        )

    def shown_to(*roles: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """A page only these roles see: any other is sent to /phone/ (the join page, or the table)."""

        def wrap(view: Callable[..., Any]) -> Callable[..., Any]:
            @functools.wraps(view)
            def checked(*args: Any, **kwargs: Any) -> Any:
                session = g.phone_session
                if session is None or session.role not in roles:
                    return redirect(url_for("phone.index"), 303)
                return view(*args, **kwargs)

            return checked

        return wrap

    @bp.get("/")
    def index() -> Any:
        return join_page() if role() == "visitor" else table()

    @bp.get("/join")
    def join_page() -> Any:
        """The table code, pairing with a player's card, a seat's PIN, the banker's PIN."""
        session = g.phone_session
        pairing = service.pair_status(session.pairing) if session.pairing else {"state": ""}
        if pairing.get("state") == "bound":
            _bind(session, str(pairing["player"]), pairing.get("game"))
        kept = service.roles_kept(lang(), session.token) if session.role == "banker" else []
        return page("join.html", pairing=pairing, kept=kept)

    @bp.get("/table")
    @shown_to(*VIEWERS)
    def table() -> Any:
        view = service.table_view(lang())
        base = service.phone_url().rstrip("/")
        url = (base if base.endswith("/phone") else base + "/phone") + "/#code=" + service.table_code()
        return page("table.html", view=view, head=view["head"], code=service.table_code(), qr=qr_svg(url))

    @bp.get("/board")
    @shown_to(*VIEWERS)
    def board() -> Any:
        view = service.board_view(lang())
        return page("board.html", view=view, head=view["head"])

    @bp.get("/ledger")
    @shown_to(*VIEWERS)
    def ledger() -> Any:
        before = request.args.get("before")
        start = None
        if before is not None:
            start = number({"before": before}, "before", 1, 10**9)
        heavy()
        view = service.ledger_view(lang(), start)
        return page("ledger.html", view=view, head=view["head"])

    @bp.get("/player/<int:seat>")
    @shown_to(*VIEWERS)
    def player(seat: int) -> Any:
        heavy()
        view = service.player_view(seat, lang())
        return page("player.html", view=view, head=view["head"])

    @bp.get("/me")
    @shown_to(*ACTORS)
    def me() -> Any:
        session = g.phone_session
        if session.role == "player":
            head = service.head(lang())
            seat = head["players"].index(session.player) + 1 if session.player in head["players"] else 0
            if seat:
                return player(seat)
        return act()

    @bp.get("/act")
    @shown_to(*ACTORS)
    def act() -> Any:
        return page("act.html", groups=service.actions(actor(), lang()))

    @bp.get("/undo")
    @shown_to("banker")
    def undo_page() -> Any:
        seq = request.args.get("seq")
        plan = service.undo_preview(number({"seq": seq}, "seq", 1, 10**9), lang()) if seq is not None else None
        return page("undo.html", view=service.undo_list(lang()), plan=plan)

    @bp.get("/game")
    @shown_to("banker")
    def game_page() -> Any:
        return page(
            "game.html",
            editions=service.editions(lang()),
            form=service.new_game_form(),
            languages=[(code, WORDS[code]["language_own"]) for code in WORDS],
            box_language=service.box_language() or service.language,
        )

    # issue 23: walking the board with the cards (the banker's; every banker phone sees the one walk)
    @bp.get("/walk")
    @shown_to("banker")
    def walk_page() -> Any:
        return page("walk.html", walk=service.walk_view(lang()))

    @bp.get("/api/walk")
    def api_walk() -> Response:
        need("banker")
        return jsonify(**service.walk_brief(lang()))

    @bp.post("/walk")
    def walk_do() -> Response:
        data = fields()
        need("banker")
        op = text(data, "op", 8)
        if op not in ("start", "cell", "name", "back", "leave", "save"):
            raise Refused(say("err_field", field="op"))
        wanted = {k: text(data, k, 64) for k in ("base", "key", "plot", "version") if data.get(k) not in (None, "")}
        return done(**service.walk_do(op, wanted, lang()))

    @bp.get("/summary")
    @shown_to(*VIEWERS)
    def summary() -> Any:
        heavy()
        view = service.summary(lang())
        return page("summary.html", view=view, head=view["head"])

    @bp.get("/export.json")
    def export_json() -> Response:
        viewer()
        heavy()
        data = service.export(lang())
        data.pop("csv", None)
        text = data.pop("json", None)  # the service's own text, built once per event (docs/phone.md)
        response = Response(
            state.encoded("json", text) if isinstance(text, str) else json.dumps(data, ensure_ascii=False, indent=1),
            mimetype="application/json",
        )
        response.headers["Content-Disposition"] = f'attachment; filename="ledger-{data["head"]["game"]}.json"'
        return response

    @bp.get("/export.csv")
    def export_csv() -> Response:
        viewer()
        heavy()
        data = service.export(lang())
        response = Response(state.encoded("csv", data["csv"]), mimetype="text/csv")
        response.headers["Content-Disposition"] = f'attachment; filename="ledger-{data["head"]["game"]}.csv"'
        return response

    # ----- JSON -------------------------------------------------------------------------------------

    @bp.get("/api/state")
    def api_state() -> Response:
        viewer()
        return jsonify(service.table_view(lang()))

    @bp.get("/api/me")
    def api_me() -> Response:
        session = g.phone_session
        pairing = service.pair_status(session.pairing) if session.pairing else {"state": ""}
        if pairing.get("state") == "bound":
            _bind(session, str(pairing["player"]), pairing.get("game"))
        return jsonify(
            role=session.role,
            player=session.player,
            lang=lang(),
            csrf=session.csrf,
            pairing={"state": pairing.get("state", ""), "code": pairing.get("code", "")},
        )

    @bp.get("/api/head")
    def api_head() -> Response:
        viewer()
        at = number({"at": request.args.get("at")}, "at", 1, 10**9)
        return jsonify(service.head_at(at, lang()))

    @bp.get("/api/health")
    def api_health() -> Response:
        # the banker's, or the box's own (a monitoring script on loopback): how often it failed and how many
        # pages are open is nobody else's business
        if not _loopback(request.remote_addr):
            need("banker")
        return jsonify(failures=state.failures, streams=state.streams.count())

    # ----- the live stream ------------------------------------------------------------------------------

    @bp.get("/events")
    def events() -> Response:
        session = g.phone_session
        if session is None or session.role == "visitor":
            raise Refused(say("err_role", role=say("err_role_spectator")), 403)
        heavy()
        language = lang()
        since = _since(request.headers.get("Last-Event-ID"), request.args.get("since"))
        head = service.head(language)
        keepalive, poll = float(state.config["SSE_KEEPALIVE"]), float(state.config["SSE_POLL"])
        retry = int(state.config["SSE_RETRY_MS"])
        client = guesser(request.remote_addr or "")  # a client holding the most streams loses its oldest: per /64
        reset = since is not None and since > head["seq"]
        start = head["seq"] if since is None or reset else since

        def generate() -> Iterator[str]:
            # subscribed only once the server iterates: a response never sent leaves nothing behind, and the
            # subscription replays every event after `start` itself, so none is lost in between
            flag = state.streams.open(client)
            stream = None
            try:
                stream = service.stream(start, language)
                yield f"retry: {retry}\n\n"
                if reset:  # the page saw events the ledger no longer has
                    yield _sse("reset", {"seq": head["seq"], "words": head["words"]})
                quiet_since = time.monotonic()
                while not flag.is_set():
                    item = stream.get(poll)
                    if flag.is_set():
                        break
                    if item is None:
                        if time.monotonic() - quiet_since >= keepalive:
                            yield ": keepalive\n\n"
                            quiet_since = time.monotonic()
                        continue
                    quiet_since = time.monotonic()
                    kind = item.get("kind")
                    if kind == "event":
                        yield _sse("ledger", item, item["id"])
                    elif kind == "notice":
                        yield _sse("notice", item)
                    elif kind == "game":
                        yield _sse("game", {})
                        break
            except Exception:
                state.failed()
                log.exception("phone: the event stream failed")
            finally:
                if stream is not None:
                    stream.close()
                state.streams.done(flag)

        response = Response(generate(), mimetype="text/event-stream")
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Accel-Buffering"] = "no"
        return response

    # ----- joining and roles --------------------------------------------------------------------------

    def promote(session: Session) -> None:
        """The role rises: a new session token, sent as the cookie with this answer, and the role kept."""
        old = session.token
        state.renew(session, request.cookies.get(COOKIE))
        g.phone_new = True
        keep(session, old)

    def keep(session: Session, old: str = "") -> None:
        """The session's role, kept in the games folder under its token's hash (a visitor's: dropped)."""
        service.keep_role(
            session.token, session.role, session.player, session.csrf, session.game, old if old != session.token else ""
        )

    def _bind(session: Session, player: str, game: Any) -> None:
        session.role, session.player, session.game = "player", player, game
        session.pairing = ""
        promote(session)

    @bp.post("/join")
    def join() -> Response:
        data = fields()
        code = text(data, "code", 16)
        if not service.check_code(code):
            raise Refused(say("err_code"), 403)
        session = g.phone_session
        if session.role == "visitor":
            session.role, session.game = "spectator", service.game_id()
            promote(session)
        return done(role=session.role)

    @bp.post("/leave")
    def leave() -> Response:
        fields()
        session = g.phone_session
        if session.pairing:
            service.pair_cancel(session.pairing)
        service.keep_role(session.token, "visitor", "", "", service.game_id())  # forgotten by the box too
        session.role, session.player, session.game, session.pairing = "visitor", "", None, ""
        return done(role="visitor")

    @bp.post("/lang")
    def set_lang() -> Response:
        value = text(fields(), "lang", 8)
        if value not in WORDS:
            raise Refused(say("err_field", field="lang"))
        g.phone_session.lang = value
        return done(lang=value)

    @bp.post("/pair")
    def pair() -> Response:
        fields()
        # the table code first: only someone at the table (who can read the box's screen) may wait for a card
        session = need(*VIEWERS)
        # this phone's new ask replaces its old one; turned away, it gets a place in line (one per address)
        started = service.pair_start(lang(), session.sid, client())
        session.pairing = started["pairing"]
        return done(code=started["code"])

    @bp.post("/pair/cancel")
    def pair_cancel() -> Response:
        fields()
        session = g.phone_session
        if session.pairing:
            service.pair_cancel(session.pairing)
        session.pairing = ""
        return done()

    @bp.post("/pair/clear")
    def pair_clear() -> Response:
        fields()
        need("banker")  # the banker can always free the pairing from phones holding it in turns
        return done(code=service.pair_clear())

    @bp.post("/claim")
    def claim() -> Response:
        data = fields()
        session = need(*VIEWERS)
        got = service.claim_seat(number(data, "seat", 1, 8), text(data, "pin", 16), lang(), client())
        _bind(session, str(got["player"]), got.get("game"))
        return done(role="player", player=session.player)

    @bp.post("/banker")
    def banker() -> Response:
        data = fields()
        # the table code first: someone merely on the Wi-Fi may not even guess
        session = need(*VIEWERS)
        service.check_banker(text(data, "pin", 32), lang(), client())
        session.role, session.player, session.game = "banker", "", service.game_id()
        promote(session)
        return done(role="banker")

    # ----- acting ---------------------------------------------------------------------------------------

    @bp.post("/act")
    def do_act() -> Response:
        data = fields()
        who = actor()
        return done(**service.act(who, dict(data), aid(data), lang()))

    @bp.post("/undo")
    def do_undo() -> Response:
        data = fields()
        need("banker")
        return done(**service.undo(number(data, "seq", 1, 10**9), aid(data), lang()))

    @bp.post("/seat-pin")
    def seat_pin() -> Response:
        data = fields()
        need("banker")
        return done(**service.set_seat_pin(number(data, "seat", 1, 8), text(data, "pin", 16, allow_empty=True), lang()))

    @bp.post("/game/start")
    def game_start() -> Response:
        data = fields()
        session = need("banker")
        players = data.get("players")
        if isinstance(players, str):
            players = players.splitlines()
        if "player" in data:  # the form's name fields, one a player: the first `count` of them play
            players = data.get("player")
            if not isinstance(players, list) or len(players) > 16:
                raise Refused(say("err_field", field="player"))
            count = number(data, "count", 2, 8)
            stock = service.new_game_form()["names"]  # a name left blank: the one the form offered there
            players = [p if isinstance(p, str) and p.strip() else stock[i] for i, p in enumerate(players[:count])]
            players += stock[len(players) : count]
        if not isinstance(players, list) or len(players) > 16:
            raise Refused(say("err_field", field="players"))
        replace = data.get("replace") in ("1", "on", True)  # the form's tick: end and archive the game on the box
        result = service.start_game(text(data, "edition", 32), players, aid(data), lang(), replace=replace)
        session.game = service.game_id()  # the banker who started it keeps the role in the new game
        keep(session)
        g.phone_new = True  # the lasting cookie again, for the new game's role
        return done(**result)

    @bp.post("/banker-pin")
    def banker_pin() -> Response:
        """The banker changes the banker's PIN (the first one is set at the box: a phone needs it to get here)."""
        data = fields()
        need("banker")
        return done(**service.set_banker_pin(text(data, "pin", 16), lang()))

    @bp.post("/box-language")
    def box_language() -> Response:
        """The banker sets the box's language: the OLED's, and every phone's that has chosen none."""
        data = fields()
        need("banker")
        value = text(data, "lang", 8)
        if value not in WORDS:
            raise Refused(say("err_field", field="lang"))
        return done(**service.set_box_language(value, lang()))

    # ----- the table's own board (issue 23): only the banker sees or changes it --------------------------

    @bp.get("/our-board")
    @shown_to("banker")
    def our_board_page() -> Any:
        base = request.args.get("base", "")
        bases = service.our_boards(lang())
        if not base:
            return page("ourboard.html", bases=bases, view=None)
        return page("ourboard.html", bases=bases, view=service.our_board(base[:32], lang()))

    @bp.get("/api/our-board")
    def our_board_json() -> Response:
        need("banker")
        return jsonify(service.our_board(request.args.get("base", "")[:32], lang()))

    @bp.get("/our-board/export")
    def our_board_export() -> Response:
        need("banker")
        name, raw = service.our_board_export(request.args.get("base", "")[:32], lang())
        response = Response(raw, mimetype="application/toml")
        response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
        return response

    @bp.get("/api/our-board/share")
    def our_board_share() -> Response:
        need("banker")
        return jsonify(service.our_board_share(request.args.get("base", "")[:32], lang()))

    def answered(work: Callable[[], dict]) -> Response | tuple[Response, int]:
        """The editor's answer; a refusal carries what another phone changed (409), never a 500."""
        try:
            return done(**work())
        except ValueError as exc:
            status, extra = getattr(exc, "status", None), getattr(exc, "extra", None)
            if isinstance(status, int) and isinstance(extra, dict):
                return jsonify(error=" ".join(str(exc).split()), **extra), status
            raise

    @bp.post("/our-board/save")
    def our_board_save() -> Any:
        data = fields()
        need("banker")
        base, version = text(data, "base", 32), number(data, "version", 0, 10**9)
        values: dict[str, Any] = {}
        effects: dict[str, list] = {}
        confirm: list[str] = []
        raw_values = data.get("values")
        if isinstance(raw_values, str):  # the form sends its values as one JSON text
            raw_values = _json_text(raw_values)
        if raw_values is not None and not isinstance(raw_values, dict):
            raise Refused(say("err_field", field="values"))
        for key, value in (raw_values or {}).items():
            if not isinstance(value, str):
                raise Refused(say("err_field", field="values"))
            values[key] = value
        raw_effects = data.get("effects")
        if isinstance(raw_effects, str):
            raw_effects = _json_text(raw_effects)
        if raw_effects is not None and not isinstance(raw_effects, dict):
            raise Refused(say("err_field", field="effects"))
        for item, rows in (raw_effects or {}).items():
            if not isinstance(rows, list) or not all(isinstance(r, list) and len(r) == 2 for r in rows):
                raise Refused(say("err_field", field="effects"))
            effects[item] = [tuple(r) for r in rows]
        raw_confirm = data.get("confirm")
        if isinstance(raw_confirm, str):
            raw_confirm = _json_text(raw_confirm)
        if raw_confirm is not None and not (
            isinstance(raw_confirm, list) and all(isinstance(c, str) for c in raw_confirm)
        ):
            raise Refused(say("err_field", field="confirm"))
        confirm = list(raw_confirm or [])
        return answered(lambda: service.our_board_save(base, version, values, effects, confirm, lang()))

    @bp.post("/our-board/import")
    def our_board_import() -> Any:
        data = fields()
        need("banker")
        version = number(data, "version", 0, 10**9)
        upload = request.files.get("file")
        if upload is not None:
            raw, share = upload.read(BOARD_BODY + 1), False
        else:
            given = data.get("text")
            if not isinstance(given, str) or not given.strip():
                raise Refused(say("err_field", field="text"))
            raw, share = given.encode("utf-8", "replace"), given.strip().startswith("MB1:") or "#board=" in given
        given_base = data.get("base")
        base = given_base if isinstance(given_base, str) else ""
        return answered(lambda: service.our_board_import(raw, version, share, base[:32], lang()))

    @bp.post("/game/end")
    def game_end() -> Response:
        data = fields()
        need("banker")
        return done(**service.end_game(aid(data), lang()))

    @bp.post("/game/archive")
    def game_archive() -> Response:
        data = fields()
        session = need("banker")
        result = service.archive_game(aid(data), lang())
        session.game = service.game_id()
        keep(session)
        return done(**result)

    @bp.post("/roles/revoke")
    def revoke() -> Response:
        """The banker revokes a phone's lasting role (the Roles page's list): that phone is a visitor again."""
        data = fields()
        need("banker")
        hashed = service.revoke_role(text(data, "id", 16))
        if not hashed:
            raise Refused(say("err_no_role"), 404)
        state.demote(hashed)
        return done(lines=[say("revoked")])

    # ----- answers: one line, never a traceback -----------------------------------------------------------

    @bp.errorhandler(Refused)
    def refused(error: Refused) -> tuple[Response, int]:
        return jsonify(error=error.line), error.status

    @bp.errorhandler(TooMany)
    def too_many(error: TooMany) -> tuple[Response, int]:
        response = jsonify(error=error.line)
        response.headers["Retry-After"] = str(error.seconds)
        return response, 429

    @bp.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[Response, int]:
        code = error.code or 500
        if code == 405:
            line = say("err_method", value=request.method)
        elif code == 404:
            line = say("err_missing", value=request.path[:80])
        elif code == 413:
            line = say("err_large")
        else:
            line = say("err_http", value=" ".join(str(error.description or error.name).split()))
        response = jsonify(error=line)
        if isinstance(error, MethodNotAllowed) and error.valid_methods:
            response.headers["Allow"] = ", ".join(error.valid_methods)
        return response, code

    @bp.errorhandler(Exception)
    def failed(error: Exception) -> tuple[Response, int]:
        status = getattr(error, "status", None)
        if (
            isinstance(error, (ValueError, PermissionError))
            and isinstance(status, int)
            and (400 <= status < 500 or status == 503)
        ):  # 503: the box's writer was late (an unknown outcome)
            return jsonify(error=" ".join(str(error).split())), status  # the service's refusal: one line
        code = getattr(error, "code", None)  # the box's writer was late (companion/daemon/owner.py): never a 500
        if code == "owner_busy":
            return jsonify(error=say("err_busy")), 503
        if code in ("owner_late", "owner_late_work"):
            return jsonify(error=say("err_unknown")), 503
        state.failed()
        log.exception("phone: %s %s failed", request.method, request.path)
        return jsonify(error=say("err_failed", value=type(error).__name__)), 500

    return bp


def _json_text(text: str) -> Any:
    """A field holding JSON (the board editor's form), or None when it is not JSON."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _loopback(address: str | None) -> bool:
    try:
        return ipaddress.ip_address(address or "").is_loopback
    except ValueError:
        return False


def _csrf_field() -> Any:
    if request.is_json:
        data = _json_body()
        return data.get("csrf") if isinstance(data, dict) else None
    return request.form.get("csrf")


def _json_body() -> Any:
    """The JSON body, or None when it is not JSON. A body nested deeper than the parser's recursion limit
    (16 KB of "[" is enough) raises RecursionError, not ValueError: that is bad input too, not a failure."""
    try:
        return request.get_json(silent=True)
    except RecursionError:
        return None


def _since(header: str | None, query: str | None) -> int | None:
    for value in (header, query):
        if value is not None and value.strip().isascii() and value.strip().isdigit() and len(value.strip()) < 10:
            return int(value.strip())
    return None


def _sse(kind: str, data: Mapping[str, Any], ident: int | None = None) -> str:
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    head = f"id: {ident}\n" if ident is not None else ""
    return f"{head}event: {kind}\ndata: {body}\n\n"


def qr_svg(url: str) -> Markup:
    """The address as a QR code, inline SVG (segno)."""
    return Markup(_qr_text(url))


@functools.lru_cache(maxsize=16)
def _qr_text(url: str) -> str:
    # the same few addresses all game long: encoding one costs more than the rest of the table view
    import segno

    return str(segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff", border=2))


def price_chart(points: list[Any], width: int = 320, height: int = 120) -> Markup:
    """The share price over the game as an inline SVG line (x: the event's number, y: the price)."""
    pts = [(int(s), int(p)) for s, p in points]
    if not pts:
        return Markup("")
    if len(pts) == 1:
        pts = pts + [(pts[0][0] + 1, pts[0][1])]
    x0, x1 = pts[0][0], max(pts[-1][0], pts[0][0] + 1)
    lo, hi = min(p for _, p in pts), max(p for _, p in pts)
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    pad = 18

    def xy(s: int, p: int) -> str:
        x = pad + (s - x0) * (width - 2 * pad) / (x1 - x0)
        y = height - pad - (p - lo) * (height - 2 * pad) / (hi - lo)
        return f"{x:.1f},{y:.1f}"

    # a step line: the price holds until the event that changes it
    steps = [xy(*pts[0])]
    for (_, p), (s2, p2) in zip(pts, pts[1:]):
        steps.append(xy(s2, p))
        steps.append(xy(s2, p2))
    line = " ".join(steps)
    return Markup(
        f'<svg class="chart" id="price-chart" viewBox="0 0 {width} {height}" role="img" '
        f'xmlns="http://www.w3.org/2000/svg"><polyline fill="none" stroke="currentColor" stroke-width="2" '
        f'points="{line}"/><text x="2" y="12" font-size="10">{hi}</text>'
        f'<text x="2" y="{height - 4}" font-size="10">{lo}</text>'
        f'<text x="{width - 40}" y="{height - 4}" font-size="10">#{escape(str(x1))}</text></svg>'
    )
