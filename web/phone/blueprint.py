"""The phone page's app and blueprint: the request's session and its checks before every route, the
answers to errors, and the route groups (pages, stream, joining, actions, banker) added in one place."""

import logging
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Flask, Response, g, jsonify, redirect, request, url_for
from werkzeug.exceptions import HTTPException, MethodNotAllowed
from werkzeug.http import parse_cookie

from companion.words.phone import WORDS
from web.hosts import host_allowed

from .actions import add_actions
from .banker import BOARD_BODY, add_banker
from .joining import add_joining
from .kit import Kit, csrf_field
from .pages import add_pages
from .protocol import PhoneTable
from .state import COOKIE, EXTENSION, KEEP_SECONDS, PhoneState, Refused, TooMany
from .stream import add_stream

log = logging.getLogger("companion.web.phone")

WEB_ROOT = str(Path(__file__).absolute().parent.parent)  # web/: its templates/ and static/

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
    app = Flask("web.phone", root_path=WEB_ROOT)  # the name and folders of web/phone.py before the package
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
    # the templates and static files are web/'s (web/templates/phone/, web/static/), as before the package
    bp = Blueprint(
        "phone",
        __name__,
        root_path=WEB_ROOT,
        template_folder="templates",
        static_folder="static",
        static_url_path="/static",
    )
    service = state.service
    kit = Kit(state)

    # ----- the request's session, role and language -----------------------------------------------
    @bp.before_request
    def load_session() -> Any:
        g.phone_session = None
        if not host_allowed(request.host, service.allowed_hosts()):
            # DNS rebinding: another site's name now pointing at the box passes the Origin==Host check below,
            # so the name itself must be the box's (or an address, which cannot be rebound)
            raise Refused(kit.say("err_host", host=request.host[:80]), 400)
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
                raise Refused(kit.say("err_cross"), 403)
            if request.content_length is not None and request.content_length > request.max_content_length:
                raise Refused(kit.say("err_large"), 413)
            if session is None:
                raise Refused(kit.say("err_session"), 403)
            token = request.headers.get("X-CSRF-Token") or csrf_field()
            if not isinstance(token, str) or not secrets.compare_digest(token.encode(), session.csrf.encode()):
                raise Refused(kit.say("err_csrf"), 403)
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

    # ----- the routes, by concern -----------------------------------------------------------------------

    add_pages(bp, kit)
    add_stream(bp, kit)
    add_joining(bp, kit)
    add_actions(bp, kit)
    add_banker(bp, kit)

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
            line = kit.say("err_method", value=request.method)
        elif code == 404:
            line = kit.say("err_missing", value=request.path[:80])
        elif code == 413:
            line = kit.say("err_large")
        else:
            line = kit.say("err_http", value=" ".join(str(error.description or error.name).split()))
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
            return jsonify(error=kit.say("err_busy")), 503
        if code in ("owner_late", "owner_late_work"):
            return jsonify(error=kit.say("err_unknown")), 503
        state.failed()
        log.exception("phone: %s %s failed", request.method, request.path)
        return jsonify(error=kit.say("err_failed", value=type(error).__name__)), 500

    return bp
