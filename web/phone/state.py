"""What the phone page keeps between requests: the sessions and their roles, the open streams, the
expensive reads' buckets per client, and the count of unexpected failures (one PhoneState per app)."""

import hashlib
import ipaddress
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from web.app import Streams
from web.hosts import guesser

from .protocol import PhoneTable

EXTENSION = "phone"  # app.extensions[EXTENSION]: the PhoneState (sessions, streams, failures)
COOKIE = "companion_phone"
# a phone with a role keeps its cookie this long (the box keeps the token's hash, per game, in its games folder):
# the role outlives the browser closed and the box restarted, until the phone leaves or the banker revokes it
KEEP_SECONDS = 180 * 24 * 3600
TABLE = "table"  # the banker acts as the table (companion.engine.actions.TABLE; the web never imports it)
ROLES = ("visitor", "spectator", "player", "banker")
VIEWERS = ("spectator", "player", "banker")  # who joined with the table code (or rose from it)
ACTORS = ("player", "banker")


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
        if loopback(address):
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


def loopback(address: str | None) -> bool:
    try:
        return ipaddress.ip_address(address or "").is_loopback
    except ValueError:
        return False
