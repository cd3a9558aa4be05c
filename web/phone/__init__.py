"""The phone page: the live ledger in every player's hand, a Flask blueprint around the service it is handed.

`create_phone_app(service)` builds an app serving it at /phone/ (and / redirects
there); `register_phone(app, service)` adds it to another app (the virtual
table's, with simulated hardware). The service is anything shaped like
`PhoneTable` (companion/daemon/phone/ on the daemon); the app keeps no globals.
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

The rooms: blueprint.py (the app, the session checks before every route, the error answers),
kit.py (the request helpers every route uses), state.py (sessions, streams, read limits),
protocol.py (PhoneTable), and one module per route group: pages.py, stream.py, joining.py,
actions.py, banker.py; svg.py draws the QR code and the price chart.
"""

from .banker import BOARD_BODY
from .blueprint import DEFAULTS, close_phone_streams, create_phone_app, joined_cookie, register_phone
from .protocol import PhoneTable
from .state import (
    ACTORS,
    COOKIE,
    EXTENSION,
    KEEP_SECONDS,
    ROLES,
    TABLE,
    VIEWERS,
    PhoneState,
    PhoneStreams,
    ReadLimit,
    Refused,
    Session,
    TooMany,
    token_hash,
)
from .svg import price_chart, qr_svg

__all__ = [
    "ACTORS",
    "BOARD_BODY",
    "COOKIE",
    "DEFAULTS",
    "EXTENSION",
    "KEEP_SECONDS",
    "ROLES",
    "TABLE",
    "VIEWERS",
    "PhoneState",
    "PhoneStreams",
    "PhoneTable",
    "ReadLimit",
    "Refused",
    "Session",
    "TooMany",
    "close_phone_streams",
    "create_phone_app",
    "joined_cookie",
    "price_chart",
    "qr_svg",
    "register_phone",
    "token_hash",
]
