"""What every route of the phone page uses: the request's session, role and language, the checks of its
fields, and the page's template with its banner (`Kit`, one per blueprint, handed to each route group)."""

import functools
import json
import math
import re
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from flask import Response, g, jsonify, redirect, render_template, request, url_for

from companion.words.phone import WORDS
from web.hosts import guesser

from .state import ACTORS, COOKIE, TABLE, VIEWERS, PhoneState, Refused, Session, TooMany
from .svg import price_chart

_AID = re.compile(r"[A-Za-z0-9-]{8,64}")


class Kit:
    """The request helpers over one PhoneState and its service; each reads flask's `g` and `request`."""

    def __init__(self, state: PhoneState):
        self.state = state
        self.service = state.service

    def lang(self) -> str:
        session = g.get("phone_session")
        if session is not None and session.lang in WORDS:
            return str(session.lang)
        chosen = self.service.box_language()  # the box's language, once chosen there, is every phone's default
        if chosen in WORDS:
            return chosen
        best = request.accept_languages.best_match(list(WORDS))
        return best or (self.service.language if self.service.language in WORDS else "en")

    def w(self) -> Mapping[str, str]:
        return WORDS[self.lang()]

    def say(self, key: str, **params: Any) -> str:
        return self.w()[key].format(**params)

    def role(self) -> str:
        session = g.get("phone_session")
        return session.role if session is not None else "visitor"

    def need(self, *roles: str) -> Session:
        session = g.get("phone_session")
        if session is None:
            raise Refused(self.say("err_session"), 403)
        if session.role not in roles:
            wanted = "banker" if roles == ("banker",) else "player" if "spectator" not in roles else "spectator"
            raise Refused(self.say("err_role", role=self.say("err_role_" + wanted)), 403)
        return session

    def viewer(self) -> Session:
        return self.need(*VIEWERS)

    def actor(self) -> str:
        session = self.need(*ACTORS)
        return TABLE if session.role == "banker" else session.player

    def heavy(self) -> None:
        """An expensive read: refused (429) when this client asks faster than its share (ReadLimit)."""
        wait = self.state.reads.take(request.remote_addr or "")
        if wait > 0:
            raise TooMany(self.say("err_too_many", seconds=math.ceil(wait)), math.ceil(wait))

    def client(self) -> str:
        """Who guesses a PIN: the phone's address (a new session is free to make, an address is not). An
        IPv6 phone may take any address of its /64 at will, so the /64 is one guesser; an IPv4 address
        written as IPv6 (::ffff:a.b.c.d) is that IPv4 address."""
        return guesser(request.remote_addr or "")

    def fields(self) -> Mapping[str, Any]:
        if request.is_json:
            data = _json_body()
            if not isinstance(data, dict):
                raise Refused(self.say("err_body"))
            return data
        if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
            form = request.form
            out: dict[str, Any] = {k: form.get(k) for k in form}
            for many in ("arg", "give", "get", "player"):
                if many in form:
                    out["args" if many == "arg" else many] = form.getlist(many)
            return out
        if request.get_data():
            raise Refused(self.say("err_body"))
        return {}

    def text(self, data: Mapping[str, Any], key: str, limit: int = 64, allow_empty: bool = False) -> str:
        value = data.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if (
            not isinstance(value, str)
            or len(value) > limit
            or not value.isprintable()
            or (not allow_empty and not value.strip())
        ):
            raise Refused(self.say("err_field", field=key))
        return value.strip()

    def number(self, data: Mapping[str, Any], key: str, low: int = 1, high: int = 1_000_000) -> int:
        value = data.get(key)
        if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit() and len(value) < 10:
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise Refused(self.say("err_field", field=key))
        return value

    def aid(self, data: Mapping[str, Any]) -> str:
        value = data.get("aid")
        if not isinstance(value, str) or not _AID.fullmatch(value):
            raise Refused(self.say("err_aid"))
        return value

    def done(self, **data: Any) -> Response:
        return jsonify(ok=True, **data)

    def page(self, template: str, **data: Any) -> Any:
        session = g.phone_session
        language = self.lang()
        head = data.pop("head", None) or self.service.head(language)
        banner = {"readonly": "", "warnings": []}
        if session is None or session.role == "visitor":  # nothing of the game before the table code
            head = {"game": None, "seq": 0, "words": "", "visitor": True}
        else:  # why nothing can be booked (everyone), the table's warnings (the banker)
            banner = self.service.banner(language, session.role)
        return render_template(
            f"phone/{template}",
            w=self.w(),
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

    def shown_to(self, *roles: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
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

    def promote(self, session: Session) -> None:
        """The role rises: a new session token, sent as the cookie with this answer, and the role kept."""
        old = session.token
        self.state.renew(session, request.cookies.get(COOKIE))
        g.phone_new = True
        self.keep(session, old)

    def keep(self, session: Session, old: str = "") -> None:
        """The session's role, kept in the games folder under its token's hash (a visitor's: dropped)."""
        self.service.keep_role(
            session.token, session.role, session.player, session.csrf, session.game, old if old != session.token else ""
        )

    def bind(self, session: Session, player: str, game: Any) -> None:
        session.role, session.player, session.game = "player", player, game
        session.pairing = ""
        self.promote(session)


def json_text(text: str) -> Any:
    """A field holding JSON (the board editor's form), or None when it is not JSON."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def csrf_field() -> Any:
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
