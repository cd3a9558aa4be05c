"""The phone page's service: what web/phone.py (its `PhoneTable` protocol) may see and do on the daemon.

Everything the page shows is read from the writer's latest Snapshot (Owner.snapshot)
and, for past events, through a read-only ledger connection borrowed for the read
(companion/table/history.py), on the page's own thread: a page, an export or a stream
never waits for the writer nor holds it. It is handed back as plain dicts already
in words, in the language asked; everything it does
goes through Owner.submit with the acting player (or the table, for the banker)
and a request id made from the phone's action id, so a retried tap is answered
from the ledger and pays once. The same commands and the same refusals as the
box's buttons and the reader: the engine decides, this only translates.

It also holds what the phones share: the table code (spectators), the pairings
waiting for a player's card on the reader, the seats' PINs the banker set, and
a watcher that closes an auction after a quiet time ("going once, twice").
Refusals are ValueError (bad input or a rule, HTTP 400) or PermissionError
(the wrong role, 403), each one line in the phone's language.
"""

import csv
import hmac
import io
import json
import logging
import math
import re
import secrets
import socket
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from companion.engine.actions import TABLE, Action, OneOf, Span, Terms
from companion.engine.command import Command
from companion.errors import CompanionError, OutcomeUnknown, RuleViolation
from companion.table.history import GameChanged, History, Readers, StoredEvents
from companion.table.view import event_lines, extra_text
from companion.words import messages
from companion.words.head import head_words

from . import menus
from .boardedit import BoardEditor
from .owner import Snapshot, WriterBusy
from .phonekeep import PhoneKeep, new_role_id, now, token_hash, trim
from .screens import event_words
from .taps import dice_needed, end_meaning, jackpot_open

log = logging.getLogger("companion.phone")

PAIR_WAIT_S = 60.0  # a pairing waits this long for a player's card, then it is stale (asking again: no longer)
PAIR_REPEAT_S = 3.0  # one phone asks to pair at most this often (each ask is said on the box's screen)
PAIR_RESERVE_S = 15.0  # a phone in line keeps its turn this long after the time it was told to ask again
PAIR_LINE = 64  # places in the pairing's line (one per address: the IPv4 address or the IPv6 /64)
CODE_LETTERS = "ACDEFHJKLMNPRTUVWXY34679"  # a table code: no 0/O, 1/I, 2/Z, 5/S, 8/B to misread
CODE_LENGTH = 4
# a phone remembers the head it saw as its seq and this many hex digits of its hash: the same in every language
# (the head's words are the phone's language's, so comparing them across a language switch cried "forked")
MARK_LENGTH = 12
PIN_TRIES = 5  # wrong PINs in a row (per seat or banker, per phone's address) before ...
PIN_LOCK_S = 30.0  # ... that address's further tries are refused this long, twice as long each lock after, ...
PIN_LOCK_MAX_S = 900.0  # ... up to this
PIN_FORGET_S = 6 * 3600.0  # an address with no wrong PIN for this long starts afresh (as a right PIN does)
PIN_CLIENTS = 1024  # addresses' lock records kept (the oldest go first)
MAX_WORD = 48  # characters in one word of a command from a phone
MAX_WORDS = 24
LEDGER_PAGE = 100  # events on one page of the ledger view
CACHE_LIMIT = 2000  # converted events and remembered action results kept
READ_CHUNK = 500  # events read from the ledger at a time by a long read (an export, a player's history)
STREAM_CHUNK = 50  # events a reopened stream replays per read
_WORD = re.compile(r"[^\s]{1,%d}" % MAX_WORD)
_VERB = re.compile(r"[a-z_]{1,24}")
BET_ONLY = ("jackpot",)  # verbs a phone sends with their first value alone: the reader's ROLL throws the dice


class Refused(ValueError):
    """A refusal in one line: bad input or the rules said no (HTTP 400, or `status`)."""

    def __init__(self, line: str, status: int = 400):
        super().__init__(" ".join(line.split()))
        self.status = status


class WrongRole(PermissionError):
    """The phone's role may not do this (HTTP 403)."""

    def __init__(self, line: str):
        super().__init__(" ".join(line.split()))
        self.status = 403


def say(code: str, language: str, **params: Any) -> str:
    return messages.render(code, params, language)


@dataclass
class Pairing:
    """A phone waiting for a player's card on the reader."""

    code: str
    started: float
    who: str = ""  # the asking phone's session (web/phone.py): its next ask replaces this one
    state: str = "waiting"  # waiting, bound, stale, cancelled
    player: str = ""
    game: str | None = None
    opened_in: str | None = None  # the game it was asked in: a card of another game binds nothing
    ended: float = 0.0  # when it stopped waiting (bound, cancelled, out of time): the pairing is free since


@dataclass
class _Place:
    """A phone turned away while another paired: its place in line, and when it was told to ask again (its
    turn comes by then at the latest, and is kept PAIR_RESERVE_S after)."""

    client: str
    told: float


@dataclass
class _Lock:
    """One address's wrong tries at one PIN: how many in a row, locked until when, how many locks so far."""

    fails: int = 0
    until: float = 0.0
    locks: int = 0
    last: float = 0.0


@dataclass
class _GameMemo:
    """What the service remembers of one game: its code, the seats' PINs, the phones' lasting roles (kept in the
    games folder: companion/daemon/phonekeep.py), the share price's history."""

    code: str
    pins: dict[str, str] = field(default_factory=dict)
    roles: dict[str, dict[str, Any]] = field(default_factory=dict)  # token hash -> {id, role, player, csrf, since}
    prices: list[tuple[int, int]] = field(default_factory=list)
    scanned: int = 0


class _Seen:
    """The open game as a page reads it, shaped as much like a Table as the views need (rules, state, head,
    game.events): the writer's Snapshot, and the stored events through a read-only connection borrowed on
    first use (`borrow`), never the writer's own."""

    def __init__(self, snapshot: Snapshot, borrow: Callable[[], History]):
        self.snapshot = snapshot
        self.rules = snapshot.rules
        self.state = snapshot.state
        self.head_seq = snapshot.head_seq
        self.head_hash = snapshot.head_hash
        self.game_id = snapshot.game_id
        self._borrow = borrow
        self._history: History | None = None
        self._events: StoredEvents | None = None

    @property
    def history(self) -> History:
        if self._history is None:
            self._history = self._borrow()
        return self._history

    @property
    def game(self) -> "_Seen":  # event_words(rules, game, ...) reads game.events
        return self

    @property
    def events(self) -> StoredEvents:
        if self._events is None:
            self._events = StoredEvents(self.history, self.head_seq)
        return self._events

    def head_words(self, language: str) -> str:
        return head_words(self.head_hash, language)

    def hash_at(self, seq: int) -> str:
        return self.head_hash if seq == self.head_seq else self.history.hash_at(seq)

    def newest_first(self, top: int | None = None) -> Iterator[Any]:
        """The events from `top` (the head) down to the first, read a chunk at a time."""
        upto = self.head_seq if top is None else top
        while upto > 0:
            low = max(0, upto - READ_CHUNK)
            yield from reversed(self.history.events(low, upto))
            upto = low


class PhoneService:
    """web.phone.PhoneTable over a running Daemon."""

    def __init__(self, daemon: Any, clock: Callable[[], float] = time.monotonic):
        self.daemon = daemon
        self.owner = daemon.owner
        self.language = daemon.lang
        self.clock = clock
        self._lock = threading.Lock()  # pairings, PIN locks, results, codes (never held while calling the owner)
        self._convert_lock = threading.Lock()  # one stream converts an event at a time (the writer never takes it)
        self._pairings: dict[str, Pairing] = {}
        self._pair_asked: OrderedDict[str, float] = OrderedDict()  # a phone's session -> when it last asked
        self._pair_line: OrderedDict[str, _Place] = OrderedDict()  # the phones (sessions) turned away, first first
        self._pair_free_since = 0.0  # when the last pairing stopped waiting (the first in line's turn starts)
        self._locks: OrderedDict[tuple[str, str], _Lock] = OrderedDict()
        self._hosts: frozenset[str] | None = None
        self._results: OrderedDict[tuple[str | None, str, str], tuple[str, dict]] = OrderedDict()
        self._games: dict[str | None, _GameMemo] = {}
        games_dir = getattr(daemon.config, "games_dir", None)
        self._keep = PhoneKeep(games_dir if isinstance(games_dir, Path) else None)
        self._keep_lock = threading.Lock()  # one write of a game's kept record at a time
        self._converted: OrderedDict[tuple, tuple[Any, dict]] = OrderedDict()
        self._table_key: tuple[Any, str] | None = None  # (the Table object, its game id)
        self._readers = Readers()  # read-only ledger connections for the pages (never the writer's)
        self._price_lock = threading.Lock()  # the share price's history, scanned by one page at a time
        self._export_lock = threading.Lock()  # one export is built at a time; the next reuses what it made
        # language -> (game, events, each as CSV and as JSON text): an event's words never change
        self._exports: dict[str, tuple[str, list[dict], list[str], list[str]]] = {}
        self._export_texts: dict[str, tuple[str, int, dict]] = {}  # language -> (game, head, the last export)
        self._stop = threading.Event()
        self._auction: dict[str, Any] = {}
        self._watcher = threading.Thread(target=self._watch_auctions, name="companion-auctioneer", daemon=True)

    # ----- life ------------------------------------------------------------------------------

    @property
    def quiet_seconds(self) -> float:
        return float(self.daemon.config["phone.auction_quiet_seconds"])

    def start(self) -> "PhoneService":
        self._watcher.start()
        # the box's names looked up now, off the first request's path (a name lookup may wait for DNS)
        threading.Thread(target=self.allowed_hosts, name="companion-phone-names", daemon=True).start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._watcher.is_alive():
            self._watcher.join(2.0)
        self._readers.close()

    def phone_url(self) -> str:
        return str(self.daemon.phone_base_url())

    def allowed_hosts(self) -> frozenset[str]:
        """The names a phone may reach the page under (its Host header; any IP address is also fine, in
        web/phone.py): localhost, this machine's name (also .local, and its full name), the host of
        phone.url and of phone.host, and the names in phone.allowed_hosts. Worked out once: a name lookup
        may be slow and every request asks."""
        if self._hosts is None:
            name = socket.gethostname()
            names = {"localhost", name, name + ".local", socket.getfqdn(name)}
            url_host = urlsplit(str(self.daemon.config["phone.url"])).hostname
            names.add(url_host or "")
            names.add(str(self.daemon.config["phone.host"]))
            names.add(str(self.daemon.config["virtual_table.host"]))  # the phone pages beside the virtual table
            names.update(str(self.daemon.config["phone.allowed_hosts"]).split(","))
            self._hosts = frozenset(n.strip().rstrip(".").lower() for n in names if n.strip().rstrip("."))
        return self._hosts

    # ----- the game and its code ------------------------------------------------------------------

    def _game_id(self, table: Any) -> str | None:
        """A short id of the open game: the first 12 hex digits of its first event's hash (writer thread, or
        what a page reads)."""
        if table is None:
            return None
        if isinstance(table, _Seen):
            return table.game_id
        key = self._table_key
        if key is not None and key[0] is table:
            return key[1]
        rows = table.ledger.rows(0, 1)
        gid = rows[0].hash[:12] if rows else "0"
        self._table_key = (table, gid)
        return gid

    def _memo(self, gid: str | None) -> _GameMemo:
        """The game's memo: read from the games folder the first time (the same table code, seats' PINs and
        lasting roles after a restart), or made afresh and written there."""
        with self._lock:
            memo = self._games.get(gid)
            if memo is not None:
                return memo
        kept = self._keep.load(gid)
        code = kept.get("code")
        if not (isinstance(code, str) and len(code) == CODE_LENGTH and all(c in CODE_LETTERS for c in code)):
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
        pins, roles = kept.get("pins"), kept.get("roles")
        pins = pins if isinstance(pins, dict) else {}
        roles = roles if isinstance(roles, dict) else {}
        made = _GameMemo(
            code,
            pins={str(k): str(v) for k, v in pins.items() if str(v).isdigit()},
            roles={
                str(h): dict(r)
                for h, r in roles.items()
                if isinstance(r, dict) and r.get("role") in ("spectator", "player", "banker")
            },
        )
        with self._lock:
            memo = self._games.setdefault(gid, made)
        if memo is made and not kept:
            self._save(gid)
        return memo

    def _save(self, gid: str | None) -> None:
        """The game's table code, seats' PINs and lasting roles, written to the games folder."""
        with self._keep_lock:
            with self._lock:
                memo = self._games.get(gid)
                if memo is None:
                    return
                data = {
                    "code": memo.code,
                    "pins": dict(memo.pins),
                    "roles": {h: dict(r) for h, r in memo.roles.items()},
                }
            self._keep.save(gid, data)

    # ----- lasting roles: a phone's role outlives its browser and the box's restart ----------------------

    def keep_role(self, token: str, role: str, player: str, csrf: str, game: str | None, old_token: str = "") -> None:
        """A phone's role, kept for `game` under its token's hash (the old token's is dropped): a restart, or
        the browser closed and opened, finds it again (find_role). A visitor keeps nothing."""
        if game is None:
            return
        memo = self._memo(game)
        with self._lock:
            if old_token:
                memo.roles.pop(token_hash(old_token), None)
            if role in ("spectator", "player", "banker"):
                before = memo.roles.get(token_hash(token), {})
                memo.roles[token_hash(token)] = {
                    "id": before.get("id") or new_role_id(),
                    "role": role,
                    "player": player,
                    "csrf": csrf,
                    "since": before.get("since") or now(),
                }
                trim(memo.roles)
            else:
                memo.roles.pop(token_hash(token), None)
        self._save(game)

    def find_role(self, token: str) -> dict | None:
        """The lasting role a phone's token holds in the open game: {role, player, csrf, game}, or None."""
        gid = self.game_id()
        if gid is None or not token:
            return None
        memo = self._memo(gid)
        with self._lock:
            found = memo.roles.get(token_hash(token))
            if found is None:
                return None
            return {
                "role": found["role"],
                "player": str(found.get("player", "")),
                "csrf": str(found.get("csrf", "")),
                "game": gid,
            }

    def roles_kept(self, language: str, token: str = "") -> list[dict]:
        """The open game's lasting roles for the banker's Roles page, banker first, then players, then the
        spectators, each joined-first: {id, role, player, since (day and time, the box's), mine (the phone
        holding `token`: the banker's own)}."""
        gid = self.game_id()
        if gid is None:
            return []
        memo = self._memo(gid)
        order = {"banker": 0, "player": 1, "spectator": 2}
        mine = token_hash(token) if token else ""
        with self._lock:
            rows = sorted(
                memo.roles.items(), key=lambda hr: (order.get(hr[1]["role"], 3), float(hr[1].get("since", 0)))
            )
            return [
                {
                    "id": r["id"],
                    "role": r["role"],
                    "player": str(r.get("player", "")),
                    "mine": h == mine,
                    "since": time.strftime("%d.%m %H:%M", time.localtime(float(r.get("since", 0)))),
                }
                for h, r in rows
            ]

    def revoke_role(self, rid: str) -> str:
        """The banker revokes a lasting role by its id: the token hash it was kept under ("" if none)."""
        gid = self.game_id()
        if gid is None:
            return ""
        memo = self._memo(gid)
        with self._lock:
            found = next((h for h, r in memo.roles.items() if hmac.compare_digest(str(r.get("id", "")), rid)), "")
            if found:
                del memo.roles[found]
        if found:
            self._save(gid)
        return found

    def game_id(self) -> str | None:
        return self.owner.snapshot.game_id  # every page asks: the snapshot answers, never the writer thread

    def table_code(self) -> str:
        return self._memo(self.game_id()).code

    def check_code(self, code: str) -> bool:
        wanted = self.table_code()
        given = "".join(str(code).split()).upper()[:16]
        return hmac.compare_digest(given.encode(), wanted.encode())

    # ----- reading (each on the page's own thread) ---------------------------------------------------

    def _read(self, work: Callable[[Any], Any]) -> Any:
        """`work(seen)` on this thread: a _Seen of the writer's latest snapshot (None when no game is open),
        whose past events come from a read-only connection borrowed when first asked for and given back
        after. A new game put in place meanwhile (the file holds another) is read again, once."""
        for attempt in (1, 2):
            snapshot = self.owner.snapshot
            if not snapshot.open:
                return work(None)
            if snapshot.memory:  # an in-memory ledger (tests): only the writer's connection can read it

                def on_writer() -> Any:
                    table, now = self.owner.table, self.owner.snapshot
                    return work(_Seen(now, lambda: History.beside(table.ledger, now.first_hash)))

                return self.owner.call(on_writer)
            with ExitStack() as stack:

                def borrow(snapshot: Snapshot = snapshot) -> History:
                    return stack.enter_context(self._readers.borrow(snapshot.path, snapshot.first_hash))

                try:
                    return work(_Seen(snapshot, borrow))
                except GameChanged as exc:
                    if attempt == 2:  # the file holds another game than the writer's: say so, in one line
                        raise Refused(self._error(exc, self.language), 409) from None
        raise AssertionError("unreachable")

    def _on_writer(self, work: Callable[[Any], Any]) -> Any:
        """`work(table)` on the writer thread: only the banker's undo pages, which try undos on a fork of the
        game (its states after the last events live with the writer); short, and never a spectator's."""
        return self.owner.call(lambda: work(self.owner.table))

    def _head(self, table: Any, language: str) -> dict:
        if table is None:
            return {
                "game": None,
                "seq": 0,
                "words": "",
                "turn": "",
                "waiting": "",
                "over": False,
                "edition": "",
                "players": [],
            }
        rules, s = table.rules, table.state
        waiting = menus.waiting_about(rules, s, language)
        who = s.pending.player if s.pending is not None and s.pending.player else ""
        # after "Waiting for:" a dash, not a second colon: "Waiting for: Anna — roll the dice" (issue 22)
        verbs = messages.VERBS.get(language, messages.VERBS["en"])
        if waiting and who:
            waiting = f"{who} — {waiting}"
        elif not waiting and s.phase != "over" and s.turn in s.players:  # the ordinary turn: dice, or its end
            if dice_needed(rules, s):
                waiting = f"{s.turn} — {verbs['roll']}"
            elif end_meaning(rules, s) is not None:
                waiting = f"{s.turn} — {verbs['end']}"
            else:  # a move of the turn's player's own choosing (build, trade, shares...) before the end
                waiting = messages.render("turn", {"player": s.turn}, language, rules.edition)
        ed = rules.edition
        return {
            "game": self._game_id(table),
            "seq": table.head_seq,
            "words": table.head_words(language),
            "mark": str(table.head_hash)[:MARK_LENGTH] if table.head_seq else "",
            "turn": s.turn if s.phase != "over" else "",
            "waiting": waiting,
            "over": s.phase == "over",
            "edition": ed.names.get(language, ed.name),
            "players": list(s.players),
            "winner": messages.joined(s.winner.split(","), language) if s.winner else "",
        }

    def head(self, language: str) -> dict:
        """Whose turn, what the table waits for, the ledger's head (seq and words), the game's id."""
        return self._read(lambda table: self._head(table, language))

    def banner(self, language: str, role: str) -> dict:
        """What a page says above everything, read without the writer thread (two attributes of the table):
        "readonly", why nothing can be booked (every role), and "warnings", the table's warnings (the
        banker's role only), each once, in the page's language."""
        table = self.owner.table
        if table is None:
            return {"readonly": "", "warnings": []}
        reason = table.readonly_reason
        edition = table.rules.edition
        readonly = messages.render("table_stopped_booking", {"error": reason}, language, edition) if reason else ""
        warnings = [messages.render(w.code, w.params, language, edition) for w in list(table.warnings)]
        return {"readonly": readonly, "warnings": list(dict.fromkeys(warnings)) if role == "banker" else []}

    def head_at(self, seq: int, language: str) -> dict:
        """The ledger's words at event `seq` (a phone checks the head it remembers is still there)."""

        def look(table: Any) -> dict:
            if table is None or not 1 <= seq <= table.head_seq:
                return {"seq": seq, "words": "", "mark": "", "present": False}
            digest = table.hash_at(seq)
            return {"seq": seq, "words": head_words(digest, language), "mark": digest[:MARK_LENGTH], "present": True}

        return self._read(look)

    def table_view(self, language: str) -> dict:
        """Every balance and net worth, the share price and its history, the jackpot and charity, the
        FORTUNE card in force, the policies and until when, the open offers and debts."""

        def look(table: Any) -> dict:
            out: dict[str, Any] = {
                "head": self._head(table, language),
                "players": [],
                "accounts": [],
                "extra": [],
                "offers": [],
                "debts": [],
                "price": None,
                "prices": [],
                "policies": [],
            }
            if table is None:
                return out
            rules, s, ed = table.rules, table.state, table.rules.edition
            for seat, p in enumerate(s.players, 1):
                out["players"].append(
                    {
                        "seat": seat,
                        "name": p,
                        "cash": s.cash(p),
                        "worth": rules.wealth(s, p),
                        "alive": p in s.alive,
                        "turn": p == s.turn and s.phase != "over",
                        "holdings": [
                            messages.holding_words(k, v, language)
                            for (q, k), v in sorted(s.holdings.items())
                            if q == p and v and k not in messages.POLICIES
                        ],
                        "where": messages.where_words(ed, ed.cells[s.position[p]].id, language),
                    }
                )
            for account, value in sorted(s.balances.items()):
                if account not in s.players and account != "bank":
                    out["accounts"].append(
                        {"name": messages.party(account, language), "amount": value, "account": account}
                    )
            for key, value in sorted(s.extra.items()):
                if key in ("offers", "offer_count", "price"):
                    continue
                text = extra_text(rules, key, value, language)
                if text:
                    out["extra"].append(text)
            if "price" in s.extra:
                out["price"] = s.extra["price"]
                out["prices"] = self._price_history(table)
            short = getattr(_rules_module(rules), "SHORT_TERM", ())
            for (p, item), n in sorted(s.holdings.items()):
                if item in messages.POLICIES and n:
                    until = "until_start" if item in short else "until_used"
                    out["policies"].append(
                        {"player": p, "words": messages.holding_words(item, n, language), "until": until}
                    )
            for o in rules.offers(s):
                out["offers"].append(menus.arg_words(rules, s, "accept", str(o.number), language))
            for d in s.debts:
                out["debts"].append(
                    messages.render(
                        "debt_first", {"player": d.debtor, "creditor": d.creditor, "amount": d.amount}, language, ed
                    )
                )
            return out

        return self._read(look)

    def _price_history(self, table: Any) -> list[tuple[int, int]]:
        """(event, price) from the start: each share_price note; scanned once, then only new events."""
        memo = self._memo(self._game_id(table))
        with self._price_lock:
            if memo.scanned > table.head_seq:  # a page holding an older snapshot: what it saw then
                return [(seq, price) for seq, price in memo.prices if seq <= table.head_seq]
            if not memo.prices:
                start = table.rules.opt.get("share_start_price")
                memo.prices = [(1, int(start))] if isinstance(start, int) else []
                memo.scanned = 1
            if memo.scanned < table.head_seq:
                for event in table.game.events[memo.scanned :]:
                    for note in event.notes:
                        if note.code == "share_price" and isinstance(note.params.get("new"), int):
                            memo.prices.append((event.seq, note.params["new"]))
                memo.scanned = table.head_seq
            return list(memo.prices)

    def player_view(self, seat: int, language: str) -> dict:
        """One player: cash, worth, shares, plots with buildings and mortgages, policies, their history."""

        def look(table: Any) -> dict:
            if table is None or not 1 <= seat <= len(table.state.players):
                raise Refused(say("phone_no_seat", language, seat=seat), 404)
            rules, s, ed = table.rules, table.state, table.rules.edition
            p = s.players[seat - 1]
            plots = [
                self._plot(rules, s, pid, language) for pid in sorted(s.plots_of(p), key=lambda i: ed.cell(i).index)
            ]
            history = []
            for event in table.newest_first():
                if (
                    event.actor == p
                    or any(post.account == p for post in event.postings)
                    or any(note.params.get("player") == p for note in event.notes)
                ):
                    amount = sum(post.amount for post in event.postings if post.account == p)
                    history.append(
                        {"seq": event.seq, "lines": event_words(rules, table.game, event, language), "amount": amount}
                    )
                    if len(history) >= LEDGER_PAGE:
                        break
            return {
                "head": self._head(table, language),
                "seat": seat,
                "name": p,
                "cash": s.cash(p),
                "worth": rules.wealth(s, p),
                "alive": p in s.alive,
                "where": messages.where_words(ed, ed.cells[s.position[p]].id, language),
                "holdings": [
                    messages.holding_words(k, v, language) for (q, k), v in sorted(s.holdings.items()) if q == p and v
                ],
                "cards": [messages.card_text(ed, c, language) for c in s.kept.get(p, ())],
                "plots": plots,
                "history": history,
            }

        return self._read(look)

    def _plot(self, rules: Any, s: Any, pid: str, language: str) -> dict:
        ed = rules.edition
        cell = ed.cell(pid)
        owner = s.owner.get(pid)
        level = s.level.get(pid, 0)
        rent = None
        if owner is not None and pid not in s.mortgaged:
            try:
                rent = rules.rent(s, cell)
            except (CompanionError, KeyError, IndexError, TypeError):  # a cell whose rent the dice decide, say
                rent = None
        return {
            "id": pid,
            "name": messages.cell_name(ed, pid, language),
            "owner": owner or "",
            "price": getattr(cell, "price", None),
            "rent": rent,
            "mortgaged": pid in s.mortgaged,
            "buildings": messages.buildings_words(level, ed, language) if level else "",
            "industry": messages.industry_name(ed, cell.industry, language) if getattr(cell, "industry", None) else "",
        }

    def board_view(self, language: str) -> dict:
        """Every plot in board order: owner, buildings, current rent, mortgaged or not; and the same plots
        by their industry (a colour group on a Monopoly board), named as the edition names it."""

        def look(table: Any) -> dict:
            if table is None:
                return {"head": self._head(table, language), "plots": []}
            rules, s, ed = table.rules, table.state, table.rules.edition
            plots = [self._plot(rules, s, c.id, language) for c in ed.cells if c.id in ed.plots]
            return {"head": self._head(table, language), "plots": plots, "groups": board_groups(ed, plots)}

        return self._read(look)

    def ledger_view(self, language: str, before: int | None = None) -> dict:
        """Every event, newest first, a page at a time; an undo against what it reverses and vice versa."""

        def look(table: Any) -> dict:
            if table is None:
                return {"head": self._head(table, language), "events": [], "older": None}
            game = table.game
            top = table.head_seq if before is None else max(0, min(before - 1, table.head_seq))
            low = max(0, top - LEDGER_PAGE)
            reversed_by = {}
            for event in game.events[low:]:
                if event.reverses is not None:
                    reversed_by[event.reverses] = event.seq
            out = [
                self._event(table, event, language, reversed_by.get(event.seq))
                for event in reversed(game.events[low:top])
            ]
            return {"head": self._head(table, language), "events": out, "older": low + 1 if low > 0 else None}

        return self._read(look)

    def _event(self, table: Any, event: Any, language: str, reversed_by: int | None = None) -> dict:
        rules = table.rules
        actor = "" if event.actor == TABLE else event.actor
        return {
            "seq": event.seq,
            "actor": actor,
            "lines": event_words(rules, table.game, event, language),
            "postings": [
                {
                    "account": messages.party(p.account, language)
                    if p.account not in table.state.players
                    else p.account,
                    "amount": p.amount,
                }
                for p in event.postings
            ],
            "reverses": event.reverses,
            "reversed_by": reversed_by,
            "command": event.command,
        }

    def summary(self, language: str) -> dict:
        """The end-of-game summary: the winner, everyone's wealth and cash, the ledger's head."""
        view = self.table_view(language)

        def look(table: Any) -> dict:
            if table is None:
                return {}
            first = table.game.events[0]
            return {"events": table.head_seq, "start": event_lines(table.rules, first, language)}

        view.update(self._read(look))
        view["ranking"] = sorted(view["players"], key=lambda p: (-p["worth"], p["seat"]))
        return view

    def export(self, language: str) -> dict:
        """The whole ledger as plain data, as JSON text ("json") and as CSV text ("csv"). Built once per game
        and language and then only extended by the events booked since (an event's words never change), one
        export at a time: eight phones asking at once make one export, and the writer never waits for any."""

        def look(table: Any) -> dict:
            head = self._head(table, language)
            if table is None:
                return {"head": head, "events": [], "csv": _csv_text([]), "json": _json_text(head, [])}
            with self._export_lock:
                made = self._export_texts.get(language)
                if made is not None and made[:2] == (table.snapshot.first_hash, table.head_seq):
                    return dict(made[2])  # the phones refreshing at the same head share one export
                game, events, rows, texts = self._exports.get(language, ("", [], [], []))
                if game != table.snapshot.first_hash:
                    events, rows, texts = [], [], []
                while len(events) < table.head_seq:
                    for event in table.history.events(len(events), min(table.head_seq, len(events) + READ_CHUNK)):
                        converted = self._event(table, event, language)
                        events.append(converted)
                        rows.append(_csv_row(converted))
                        texts.append(json.dumps(converted, ensure_ascii=False, separators=(",", ":")))
                self._exports[language] = (table.snapshot.first_hash, events, rows, texts)
                n = table.head_seq
                out = {
                    "head": head,
                    "events": events[:n],
                    "csv": _csv_text(rows[:n]),
                    "json": _json_text(head, texts[:n]),
                }
                self._export_texts[language] = (table.snapshot.first_hash, n, out)
                return dict(out)

        return self._read(look)

    # ----- acting ---------------------------------------------------------------------------------

    def actions(self, actor: str, language: str) -> list[dict]:
        """What `actor` (a player, or TABLE for the banker) may do now, grouped as the box's menus group
        it, every line a catalogue phrase, every free value a slot the page turns into a field."""

        def look(table: Any) -> list[dict]:
            if table is None:
                return []
            rules, s = table.rules, table.state
            acts = rules.legal(s) if actor == TABLE else menus.player_actions(rules, s, actor)
            out = []
            for group in menus.groups(acts):
                out.append(
                    {
                        "title": group.text(rules, s, language, party=actor == TABLE),
                        "verb": group.verb,
                        "party": group.party,
                        "actions": [self._action(rules, s, a, language, actor) for a in group.actions],
                    }
                )
            return out

        return self._read(look)

    def _action(self, rules: Any, s: Any, action: Action, language: str, actor: str) -> dict:
        slots: list[dict] = []
        hint = ""
        for i, slot in enumerate(action.args):
            if action.verb in BET_ONLY and i > 0:
                # the JACKPOT's dice are the reader's ROLL's (issue 22): the phone places the bet alone
                hint = say("phone_jackpot_hint", language)
                break
            if isinstance(slot, str):
                slots.append({"kind": "fixed", "word": slot})
            elif isinstance(slot, Span):
                slots.append(
                    {
                        "kind": "number",
                        "low": slot.low,
                        "high": slot.high,
                        "title": menus.slot_title(action, i, language),
                        "step": 1,
                    }
                )
            elif isinstance(slot, OneOf):
                slots.append(
                    {
                        "kind": "choice",
                        "title": menus.slot_title(action, i, language),
                        "options": [{"text": t, "word": w} for t, w in menus.choices(rules, s, action, i, language)],
                    }
                )
            elif isinstance(slot, Terms):
                ed = rules.edition
                slots.append(
                    {
                        "kind": "trade",
                        "give": [
                            {"text": messages.thing_name(ed, w, language), "word": w}
                            for w in menus.trade_items(slot.give)
                        ],
                        "get": [
                            {"text": messages.thing_name(ed, w, language), "word": w}
                            for w in menus.trade_items(slot.get)
                        ],
                        "give_cash": [slot.give.cash.low, slot.give.cash.high] if slot.give.cash else None,
                        "get_cash": [slot.get.cash.low, slot.get.cash.high] if slot.get.cash else None,
                    }
                )
        return {
            "text": menus.action_words(rules, s, action, language, party=actor == TABLE),
            "verb": action.verb,
            "slots": slots,
            "hint": hint,
        }

    def _remembered(
        self, who: str, action_id: str, fingerprint: str, language: str, work: Callable[[], dict], per_game: bool = True
    ) -> dict:
        """Do `work` once per (game, who, action id): a replay gets the first result; another request under
        the same id is refused. Per game: an id from an earlier game (a player of the same name) is not
        answered with that game's result, nothing booked; starting and archiving change the game, so
        they are remembered across games (per_game=False) to be answered as the first time."""
        key = (self.game_id() if per_game else "", who, action_id)
        with self._lock:
            found = self._results.get(key)
        if found is not None:
            if found[0] != fingerprint:
                raise Refused(say("phone_action_reused", language))
            return {**found[1], "replayed": True}
        result = work()
        with self._lock:
            self._results[key] = (fingerprint, result)
            while len(self._results) > CACHE_LIMIT:
                self._results.popitem(last=False)
        return result

    def act(self, actor: str, fields: dict, action_id: str, language: str) -> dict:
        """Book one command for `actor` from the page's fields (verb, args; a trade's give/get and cash).
        The same id again pays once and answers as the first time. The page's forms send step=preview:
        a money action is then answered with what it would book ("preview"), nothing booked, and booked
        by the next tap, which sends back the previewed command as `confirm` (changed fields: a new preview)."""
        command = self.command_from(fields, language)
        if command.verb in BET_ONLY:
            return self._remembered(
                actor, action_id, command.text(), language, lambda: self.jackpot_bet(actor, command, language)
            )
        if (
            fields.get("step") == "preview"
            and command.verb not in menus.ONE_PRESS
            and fields.get("confirm") != command.text()
        ):
            return self.preview(actor, command, language)
        request_id = f"phone:{actor}:{action_id}"[:100]

        def work() -> dict:
            return self._submit(actor, command, request_id, language)

        return self._remembered(actor, action_id, command.text(), language, work)

    def jackpot_bet(self, actor: str, command: Command, language: str) -> dict:
        """The JACKPOT's bet from a phone (`jackpot BET`), handed to the box as its menu hands it: the reader's
        ROLL then throws the three dice and books the play. Nothing is booked here and nothing of the outcome
        is shown (a preview would let a player back out and pick other dice); dice typed on a phone are
        refused, as the rulebook has the player throw them."""
        if len(command.args) != 1:
            raise Refused(say("phone_jackpot_dice", language))

        def work(table: Any) -> dict:
            if table is None:
                raise Refused(say("menu_nothing", language), 409)
            player = jackpot_open(table.rules, table.state) or table.state.turn
            if actor not in (TABLE, player):  # another's JACKPOT: the rules' own words say whose it is
                player = actor
            # the bet checked as the rules check it, with dice the throw will replace (only the refusal is read)
            try:
                seen = menus.preview(table, player, Command("jackpot", (command.args[0], "1", "1", "1")), language)
            except CompanionError as exc:  # a bet that is no number: the rules' own line
                raise Refused(self._error(exc, language), 409) from None
            if seen.refused:
                raise Refused(seen.refused, 409)
            bet = int(command.args[0])
            self.daemon.jackpot_ready(player, bet)
            # the box says "Anna bets 50 ... press ROLL" to every screen; this phone is told what to do next
            return {"lines": [say("phone_jackpot_placed", language, bet=bet)]}

        return self._on_writer(work)

    def preview(self, actor: str, command: Command, language: str) -> dict:
        """What `command` would book, in the event's own lines, computed on a side copy by the writer (as
        the box's confirmation and the undo pages are); a command the rules refuse is refused now."""

        def look(table: Any) -> dict:
            if table is None:
                raise Refused(say("menu_nothing", language), 409)
            seen = menus.preview(table, actor, command, language)
            if seen.refused:
                raise Refused(seen.refused, 409)
            return {
                "preview": True,
                "lines": list(seen.lines) or [menus.verb_words(command.verb, language)],
                "confirm": command.text(),
            }

        return self._on_writer(look)

    def command_from(self, fields: dict, language: str) -> Command:
        verb = fields.get("verb")
        if not isinstance(verb, str) or not _VERB.fullmatch(verb):
            raise Refused(say("phone_bad_verb", language))
        words = fields.get("args") or []
        if isinstance(words, str):
            words = [words]
        if not isinstance(words, list) or len(words) > MAX_WORDS:
            raise Refused(say("phone_bad_args", language))
        words = [w.strip() if isinstance(w, str) else w for w in words]
        if any(not isinstance(w, str) or not _WORD.fullmatch(w) for w in words):
            raise Refused(say("phone_bad_args", language))
        if verb == "trade":
            give, get = _word_list(fields.get("give"), language), _word_list(fields.get("get"), language)
            give_cash, get_cash = _amount(fields.get("give_cash"), language), _amount(fields.get("get_cash"), language)
            words += list(menus.trade_words(give, give_cash, get, get_cash))
        if len(words) > MAX_WORDS:
            raise Refused(say("phone_bad_args", language))
        try:  # the command's own checks: a control character, a stray quote, a line too long
            return Command(verb, tuple(words))
        except CompanionError as exc:
            raise Refused(self._error(exc, language)) from None

    def _submit(self, actor: str, command: Command, request_id: str, language: str) -> dict:
        try:
            event = self.owner.submit(actor, command, request_id)
        except OutcomeUnknown as exc:  # the writer was late: the page keeps its action id, so a retry pays once
            log.warning("phone: the outcome of %s is unknown: %s", request_id, exc)
            raise Refused(say("phone_unknown", language), 503) from None
        except WriterBusy as exc:  # withdrawn before the writer took it: nothing was done
            raise Refused(self._error(exc, language), 503) from None
        except RuleViolation as exc:
            raise Refused(self._error(exc, language), 409) from None
        except CompanionError as exc:
            raise Refused(self._error(exc, language), 409) from None
        return self._read(
            lambda table: {
                "seq": event.seq,
                "lines": event_words(table.rules, table.game, event, language),
                "head": self._head(table, language),
            }
        )

    def _error(self, exc: CompanionError, language: str) -> str:
        table = self.owner.table
        return messages.render_error(exc, language, table.rules.edition if table is not None else None)

    # ----- issue 23: walking the board with the cards (companion/daemon/walkdesk.py) ------------------------

    def walk_view(self, language: str) -> dict:
        """The board walk in the phone's words, read on the page's thread (the walk's own lock, never the writer)."""
        return self.daemon.walking.view(language)

    def walk_brief(self, language: str) -> dict:
        return self.daemon.walking.brief(language)

    def walk_do(self, op: str, fields: dict, language: str) -> dict:
        """One step of the walk from the banker's phone, on the writer thread like a tap; a refusal is one line
        in the phone's language (the walk moved on under another phone: said so, nothing changed)."""
        walking = self.daemon.walking
        version = fields.get("version")
        version = int(version) if isinstance(version, str) and version.lstrip("-").isdigit() else None

        def work() -> Any:
            if op == "start":
                return walking.start(str(fields.get("base", "")))
            if op == "cell":
                return walking.cell(str(fields.get("key", "")), version)
            if op == "name":
                return walking.name_card(str(fields.get("plot", "")), version)
            if op == "back":
                return walking.back(version)
            if op == "leave":
                return walking.leave()
            if op == "save":
                return walking.save(version)
            raise Refused(say("walk_none", language))

        try:
            done = self.owner.call(work)
        except CompanionError as exc:
            raise Refused(self._error(exc, language), 409) from None
        view = walking.view(language)
        if done is False:  # refused, said on the box too: the phone gets the same line in its language
            raise Refused(view.get("said") or say("walk_none", language), 409)
        if op == "save":
            return {"lines": [say("walk_saved", language, name=done["names"].get(language) or done["names"][""])]}
        return {"lines": [view["said"]] if view.get("said") else [], "walk": view}

    def undo_list(self, language: str) -> dict:
        """The events an undo may still reach, newest first, each in one line."""

        def look(table: Any) -> dict:
            if table is None:
                return {"head": self._head(table, language), "events": []}
            seqs = menus.undoable(table.game)[:50]
            return {
                "head": self._head(table, language),
                "events": [{"seq": seq, "text": menus.event_summary(table, seq, language)} for seq in seqs],
            }

        return self._on_writer(look)

    def undo_preview(self, seq: int, language: str) -> dict:
        """What undoing `seq` takes: the events undone first, what each undo books, or why not."""

        def look(table: Any) -> dict:
            if table is None or not 1 <= seq <= table.head_seq:
                raise Refused(say("phone_no_event", language, seq=seq), 404)
            plan = menus.undo_plan(table, seq, language)
            return {
                "seq": seq,
                "order": list(plan.order),
                "lines": list(plan.lines),
                "refused": plan.refused,
                "text": menus.event_summary(table, seq, language),
            }

        return self._on_writer(look)

    def undo(self, seq: int, action_id: str, language: str) -> dict:
        """The banker's undo: the events that depend on `seq` first, newest first, then `seq` itself."""

        def work() -> dict:
            plan = self.undo_preview(seq, language)
            if plan["refused"]:
                raise Refused(plan["refused"], 409)
            booked: list[dict] = []
            for i, target in enumerate(plan["order"]):
                booked.append(
                    self._submit(TABLE, Command("undo", (str(target),)), f"phone:undo:{action_id}:{i}"[:100], language)
                )
            return {
                "undone": plan["order"],
                "lines": [line for b in booked for line in b["lines"]],
                "seq": booked[-1]["seq"] if booked else 0,
            }

        return self._remembered(TABLE, action_id, f"undo {seq}", language, work)

    # ----- the game's life (the banker) ---------------------------------------------------------------

    def editions(self, language: str) -> list[dict]:
        return [{"id": e, "name": n} for e, n in self.daemon.editions(language)]

    # ----- the table's own board (issue 23; companion/daemon/boardedit.py, companion/editions/boards.py) ----------
    # Not the game's: nothing here goes through the writer; the store keeps its own lock and versions.

    def _board_editor(self) -> BoardEditor:
        return BoardEditor(self.daemon.boards)

    def our_boards(self, language: str) -> list[dict]:
        return self._board_editor().bases(language)

    def our_board(self, base: str, language: str) -> dict:
        return self._board_editor().view(base, language)

    def our_board_save(
        self, base: str, version: int, values: dict, effects: dict, confirm: list, language: str
    ) -> dict:
        return self._board_editor().save(base, version, values, effects, confirm, language)

    def our_board_import(self, raw: bytes, version: int, share: bool, base: str, language: str) -> dict:
        return self._board_editor().import_file(raw, version, language, share, base)

    def our_board_export(self, base: str, language: str) -> tuple[str, bytes]:
        return self._board_editor().export(base, language)

    def our_board_share(self, base: str, language: str) -> dict:
        return self._board_editor().share(base, language)

    def start_game(
        self, edition: str, players: list[str], action_id: str, language: str, replace: bool = False
    ) -> dict:
        """A new game named on the banker's phone. replace: the game on the box, if any, ends (everyone's
        wealth counted) and is kept in the archive first (the form's tick says so), as the box's New game."""
        named = {e["id"]: e["name"] for e in self.editions(language)}
        if edition not in named:
            raise Refused(say("phone_bad_edition", language))
        names = [" ".join(p.split()) for p in players if isinstance(p, str) and p.strip()]
        if (
            not 2 <= len(names) <= 8
            or any(len(n) > 20 or not n.isprintable() for n in names)
            or len(set(names)) != len(names)
        ):
            raise Refused(say("phone_bad_players", language))

        def work() -> dict:
            seed = secrets.randbelow(2**32)
            start = self.daemon._replace_game if replace else self.daemon._start_game
            try:
                started = self.owner.call(lambda: start(edition, names, seed, {}, language))
            except CompanionError as exc:
                raise Refused(self._error(exc, language), 409) from None
            except OSError as exc:  # the old game could not be moved into the archive
                raise Refused(exc.strerror or str(exc), 409) from None
            lines = [say("game_started", language, edition=named[edition], players=", ".join(names))]
            if started.get("placeholders"):  # issue 23: a board not checked against the box says so
                lines.append(
                    say("board_unconfirmed", language, placeholder=started["placeholders"], total=started["items"])
                )
            return {"lines": lines, "game": self.game_id()}

        return self._remembered(TABLE, action_id, f"start {edition} {' '.join(names)}", language, work, per_game=False)

    def end_game(self, action_id: str, language: str) -> dict:
        def work() -> dict:
            return self._submit(TABLE, Command("end_game"), f"phone:end:{action_id}"[:100], language)

        return self._remembered(TABLE, action_id, "end_game", language, work)

    def archive_game(self, action_id: str, language: str) -> dict:
        def work() -> dict:
            try:
                self.owner.call(self.daemon._archive_game)
            except CompanionError as exc:
                raise Refused(self._error(exc, language), 409) from None
            except OSError as exc:
                raise Refused(exc.strerror or str(exc), 409) from None
            return {"lines": [say("game_kept", language)]}  # no file path: a family needs none

        return self._remembered(TABLE, action_id, "archive", language, work, per_game=False)

    # issue 22: the table set up from the banker's phone (the first banker's PIN comes from the box)

    def release_ledger(self) -> Any:
        """While the game moves into the archive (a with block): no page's read connection open on its file."""
        return self._readers.closed_while(wait=5.0)

    def new_game_form(self) -> dict:
        """What the new-game form starts with: eight names (the last game's, then the box's stock names) and
        how many play (the last game's count, else four)."""
        return {"names": list(self.daemon.player_names(8)), "count": self.daemon.player_count()}

    def box_language(self) -> str:
        """The language chosen at the box or by the banker ("": none chosen; phones go by the browser's)."""
        return str(self.daemon.settings.language)

    def set_banker_pin(self, pin: str, language: str) -> dict:
        """The banker changes the banker's PIN (kept by the box like one set with its buttons)."""
        pin = pin.strip() if isinstance(pin, str) else ""
        if not (pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 8):
            raise Refused(say("phone_bad_pin", language))
        self.owner.call(lambda: self.daemon.set_banker_pin(pin))
        return {"lines": [say("banker_pin_set", language)]}

    def set_box_language(self, lang: str, language: str) -> dict:
        """The banker sets the box's language (the OLED's, and the phones' that chose none)."""
        self.owner.call(lambda: self.daemon.set_language(lang))
        return {"lines": [say("language_set", lang)]}

    # ----- roles: the banker's PIN, the seats' PINs, pairing by the reader ----------------------------

    def _try_pin(
        self, key: str, client: str, given: Any, wanted: str, language: str, locked_notice: Callable[[int], None]
    ) -> None:
        """Nothing if `given` is `wanted`; WrongRole otherwise. The tries are counted per PIN and per client
        (the phone's address), so a stranger's guesses lock out the stranger, not the banker's phone: after
        PIN_TRIES wrong in a row that address waits PIN_LOCK_S, twice as long at each lock after (up to
        PIN_LOCK_MAX_S); a right PIN starts it afresh. A try is counted before it is compared, under the
        lock: requests sent all at once get no more than PIN_TRIES tries between them. Every phone is told
        when a lock starts, so the table sees someone is guessing."""
        now = self.clock()
        with self._lock:
            lock = self._locks.pop((key, client), None) or _Lock()
            self._locks[(key, client)] = lock  # the newest last: the oldest go first beyond PIN_CLIENTS
            while len(self._locks) > PIN_CLIENTS:
                self._locks.popitem(last=False)
            if lock.until > now:
                raise WrongRole(say("phone_pin_locked", language, seconds=math.ceil(lock.until - now)))
            if now - lock.last > PIN_FORGET_S:
                lock.fails, lock.locks = 0, 0
            lock.fails += 1
            lock.last = now
            locked_for = 0
            if lock.fails >= PIN_TRIES:
                locked_for = int(min(PIN_LOCK_S * 2**lock.locks, PIN_LOCK_MAX_S))
                lock.fails, lock.until, lock.locks = 0, now + locked_for, lock.locks + 1
        if isinstance(given, str) and hmac.compare_digest(given.strip().encode(), wanted.encode()):
            with self._lock:
                self._locks.pop((key, client), None)
            return
        if locked_for:
            locked_notice(locked_for)
        raise WrongRole(say("phone_wrong_pin", language))

    def check_banker(self, pin: str, language: str, client: str = "") -> None:
        """Nothing if `pin` is the table's PIN (phone.banker_pin); WrongRole otherwise. `client`: the
        phone's address, whose wrong tries lock out only that address."""
        wanted = self.daemon.banker_pin  # set at the box (Game… → Banker's PIN), else phone.banker_pin
        if not wanted:
            raise WrongRole(say("phone_no_banker_pin", language))
        self._try_pin(
            "banker",
            client,
            pin,
            wanted,
            language,
            lambda seconds: self.owner.announce("phone_banker_pin_locked", seconds=seconds),
        )

    def set_seat_pin(self, seat: int, pin: str, language: str) -> dict:
        """The banker sets (or, with an empty PIN, clears) a seat's PIN for a table without a reader."""
        head = self.head(language)
        if not 1 <= seat <= len(head["players"]):
            raise Refused(say("phone_no_seat", language, seat=seat))
        pin = pin.strip() if isinstance(pin, str) else ""
        if pin and not (pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 8):
            raise Refused(say("phone_bad_pin", language))
        memo = self._memo(head["game"])
        with self._lock:
            if pin:
                memo.pins[str(seat)] = pin
            else:
                memo.pins.pop(str(seat), None)
        self._save(head["game"])  # a seat's PIN outlives a restart, as the roles do
        player = head["players"][seat - 1]
        # said back, so the banker sees the PIN took (or was removed)
        line = say("phone_pin_set" if pin else "phone_pin_cleared", language, player=player)
        return {"seat": seat, "player": player, "set": bool(pin), "lines": [line]}

    def claim_seat(self, seat: int, pin: str, language: str, client: str = "") -> dict:
        """A player claims their seat with the PIN the banker set: {"player", "game"}; WrongRole otherwise
        (`client` as for check_banker)."""
        head = self.head(language)
        if not 1 <= seat <= len(head["players"]):
            raise Refused(say("phone_no_seat", language, seat=seat))
        memo = self._memo(head["game"])
        player = head["players"][seat - 1]
        wanted = memo.pins.get(str(seat), "")
        if not wanted:
            raise WrongRole(say("phone_no_seat_pin", language, player=player))
        self._try_pin(
            f"seat:{head['game']}:{seat}",
            client,
            pin,
            wanted,
            language,
            lambda seconds: self.owner.announce("phone_seat_pin_locked", player=player, seconds=seconds),
        )
        return {"player": head["players"][seat - 1], "game": head["game"]}

    def pair_start(self, language: str, who: str = "", client: str = "") -> dict:
        """A phone starts waiting for its player's card: {"pairing": a secret id, "code": what the OLED shows}.
        One phone waits at a time (a tap binds exactly one). `who` is the asking phone's session, `client` its
        address (web.hosts.guesser: an IPv4 address, an IPv6 /64). Its new ask replaces its old one (the same
        code, and the same 60 s: asking again never holds the pairing longer). Another phone asking meanwhile
        is refused (409) and told when to ask again; it gets a place in line (one per address; the phone
        pairing has none until its pairing ends) and, asked again by then, its turn: a phone with k addresses
        ahead of it pairs within PAIR_WAIT_S + k * (PAIR_WAIT_S + PAIR_RESERVE_S), however the others take
        turns (docs/phone.md). A phone asks again at most every PAIR_REPEAT_S (429)."""
        gid = self.game_id()
        if gid is None:
            raise Refused(say("no_game_open", language), 409)
        now = self.clock()
        with self._lock:
            self._expire(now, gid)
            asked = self._pair_asked.get(who) if who else None
            if asked is not None and now - asked < PAIR_REPEAT_S:
                raise Refused(say("phone_pair_repeat", language, seconds=math.ceil(PAIR_REPEAT_S - (now - asked))), 429)
            waiting = [(pid, p) for pid, p in self._pairings.items() if p.state == "waiting"]
            mine = next(((pid, p) for pid, p in waiting if who and p.who == who), None)
            others = [p for _, p in waiting if not (who and p.who == who)]
            if others:  # busy: the phone takes its place in line and is told when its turn comes at the latest
                raise Refused(
                    say(
                        "phone_pair_busy",
                        language,
                        seconds=self._wait_in_line(now, who, client, others[0].started + PAIR_WAIT_S),
                    ),
                    409,
                )
            turn = self._turn(now) if mine is None else None
            if turn is not None and turn[0] != who:  # free, but it is the turn of a phone in line
                raise Refused(
                    say("phone_pair_busy", language, seconds=self._wait_in_line(now, who, client, turn[1])), 409
                )
            self._pair_line.pop(who, None)
            if who:  # an ask that got through (each is said on the box's screen): the next not before long
                self._pair_asked.pop(who, None)
                self._pair_asked[who] = now
                while len(self._pair_asked) > 512:
                    self._pair_asked.popitem(last=False)
            if mine is not None:
                pid, pairing = mine
                code = pairing.code
            else:
                # never a code a recent pairing had: a player who opened their menu on "Phone 417 is mine"
                # before that pairing ended must not bind a newer phone that drew the same code by OK
                taken = {p.code for p in self._pairings.values()}
                code = next(c for c in (f"{secrets.randbelow(900) + 100}" for _ in range(1000)) if c not in taken)
                pid = secrets.token_urlsafe(18)
                self._pairings[pid] = Pairing(code, now, who=who, opened_in=gid)
                while len(self._pairings) > 64:  # the oldest go first (a page that never came back)
                    self._pairings.pop(next(iter(self._pairings)))
        self.owner.announce("phone_pair_waiting", pairing=code)
        return {"pairing": pid, "code": code}

    def _turn(self, now: float) -> tuple[str, float] | None:
        """While no phone pairs: the first in line whose turn it is (its session) and until when it is kept,
        dropping those whose turn passed unused. None when the line is empty (anyone may ask). Under _lock."""
        start = self._pair_free_since
        while self._pair_line:
            who, place = next(iter(self._pair_line.items()))
            ends = max(start, place.told) + PAIR_RESERVE_S
            if now <= ends:
                return who, ends
            self._pair_line.popitem(last=False)  # did not come back: the next one's turn starts now
            start = self._pair_free_since = ends
        return None

    def _wait_in_line(self, now: float, who: str, client: str, busy_until: float) -> int:
        """Seconds until this phone should ask again: its place in line (taken now if its address has none)
        says when its turn comes at the latest; a phone without a place (its address has one already, or it
        gave no session) is told when the pairing or turn now under way ends. Under _lock."""
        place = self._pair_line.get(who) if who else None
        if (
            place is None
            and who
            and len(self._pair_line) < PAIR_LINE
            and all(p.client != client for p in self._pair_line.values())
        ):
            last = next(reversed(self._pair_line.values()), None)
            told = max(busy_until, last.told + PAIR_RESERVE_S + PAIR_WAIT_S if last is not None else now)
            place = self._pair_line[who] = _Place(client, told)
        return max(1, math.ceil((place.told if place is not None else busy_until) - now))

    def pair_status(self, pid: str) -> dict:
        gid = self.game_id()
        with self._lock:
            self._expire(self.clock(), gid)
            p = self._pairings.get(pid)
            if p is None:
                return {"state": "unknown"}
            return {"state": p.state, "code": p.code, "player": p.player, "game": p.game}

    def pair_cancel(self, pid: str) -> None:
        with self._lock:
            p = self._pairings.get(pid)
            if p is not None and p.state == "waiting":
                self._end(p, "cancelled", self.clock())

    def pair_clear(self) -> str:
        """The banker ends the pairing under way and empties the line: the next phone to ask pairs. The code
        that waited, "" when none did (said on the box's screen either way)."""
        now = self.clock()
        with self._lock:
            code = ""
            for p in self._pairings.values():
                if p.state == "waiting":
                    code = p.code
                    self._end(p, "cancelled", now)
            self._pair_line.clear()
        if code:
            self.owner.announce("phone_pair_cleared", pairing=code)
        else:
            self.owner.announce("phone_pair_line_cleared")
        return code

    def _end(self, p: Pairing, state: str, when: float) -> None:
        """A waiting pairing stops waiting: the pairing is free since `when` (the first in line's turn)."""
        p.state, p.ended = state, when
        self._pair_free_since = max(self._pair_free_since, when)

    def _expire(self, now: float, gid: str | None) -> None:
        """Pairings out of time, or asked in another game than the open one (that phone joins again), are
        stale: none of them is offered, binds, or keeps another phone waiting."""
        for p in self._pairings.values():
            if p.state == "waiting" and now - p.started > PAIR_WAIT_S:
                self._end(p, "stale", p.started + PAIR_WAIT_S)
            elif p.state == "waiting" and p.opened_in != gid:
                self._end(p, "stale", now)

    def waiting_code(self) -> str:
        """The code of the one phone waiting to pair in this game, "" when none (writer thread). A player's
        card opens their menu as always; this code is its first item, and only choosing it binds the phone:
        a tap meant for something else never hands a seat to whoever was waiting (docs/phone.md)."""
        gid = self._game_id(self.owner.table)
        with self._lock:
            self._expire(self.clock(), gid)
            waiting = [p for p in self._pairings.values() if p.state == "waiting"]  # one at most (pair_start)
        return waiting[0].code if waiting else ""

    def pair_with(self, code: str, player: str) -> bool:
        """The player chose "Phone CODE is mine" in their card's menu (writer thread): binds that phone to
        them. False (and said) when it no longer waits: expired, cancelled, or another phone's code by now."""
        table = self.owner.table
        gid = self._game_id(table)
        if table is None or player not in table.state.players:
            return False
        with self._lock:
            self._expire(self.clock(), gid)
            pairing = next((p for p in self._pairings.values() if p.state == "waiting" and p.code == code), None)
            if pairing is not None:
                self._end(pairing, "bound", self.clock())
                pairing.player, pairing.game = player, gid
        if pairing is None:
            self.daemon._refuse("phone_pair_gone", pairing=code)
            return False
        self.daemon._booked()
        self.owner.announce("phone_paired", pairing=code, player=player)
        return True

    # ----- the live stream ------------------------------------------------------------------------------

    def stream(self, since: int, language: str) -> "PhoneStream":
        """Every event after `since` (replayed first), then each as it commits, with notices between; an
        event of another game (a new one at the same path) ends it with {"kind": "game"}. Opening one asks
        nothing of the writer thread: it follows the writer's snapshot, and the events it replays are read
        through a borrowed read-only connection, a chunk at a time as the page takes them."""
        subscription, snapshot = self.owner.follow()
        return PhoneStream(self, subscription, language, snapshot, since)

    def _convert(self, item: Any, language: str, gid: str | None) -> dict | None:
        if item.notice is not None:
            if item.notice.code == "table_warning":  # the banker's banner says it; spectators are not alarmed
                return None
            rules = self.owner.snapshot.rules
            edition = rules.edition if rules is not None else None
            return {
                "kind": "notice",
                "text": messages.render(item.notice.code, item.notice.params, language, edition),
                "code": item.notice.code,
            }
        event = item.event
        if event is None:
            return None
        return self._convert_events([event], language, gid)[0]

    def _convert_events(self, events: list[Any], language: str, gid: str | None) -> list[dict]:
        """Each event as a stream item; {"kind": "game"} for one the open game does not hold (a new game at
        the same path, or the stream's game archived)."""
        if self.owner.snapshot.game_id != gid:
            return [{"kind": "game"}]
        with self._convert_lock:  # 50 pages wait for the first to convert it, then read it from the cache
            return [self._converted_event((gid, event.seq, language), event, language) for event in events]

    def _converted_event(self, key: tuple, event: Any, language: str) -> dict:
        with self._lock:
            found = self._converted.get(key)
        if found is not None and found[0].command == event.command:
            return found[1]

        def look(table: Any) -> dict:
            if table is None or table.game_id != key[0] or not 1 <= event.seq <= table.head_seq:
                return {"kind": "game"}  # not this table's event: the game changed under the stream
            lines = event_words(table.rules, table.game, event, language)
            out = {
                "kind": "event",
                "id": event.seq,
                "game": table.game_id,
                "seq": event.seq,
                "words": head_words(table.hash_at(event.seq), language),
                "mark": table.hash_at(event.seq)[:MARK_LENGTH],
                "actor": "" if event.actor == TABLE else event.actor,
                "lines": lines,
                "reverses": event.reverses,
            }
            if event.reverses is not None:  # a correction: announced on every phone, with what to put back
                out["announce"] = lines
            return out

        converted = self._read(look)
        if converted["kind"] == "event":
            with self._lock:
                self._converted[key] = (event, converted)
                while len(self._converted) > CACHE_LIMIT:
                    self._converted.popitem(last=False)
        return converted

    def _stored_events(self, gid: str | None, after: int, upto: int) -> list[Any]:
        """Events (after, upto] of the game `gid` as stored; [] when the open game is another."""

        def look(table: Any) -> list[Any]:
            if table is None or table.game_id != gid:
                return []
            return table.history.events(after, min(upto, table.head_seq))

        return list(self._read(look))

    # ----- the auctioneer ---------------------------------------------------------------------------------

    def _watch_auctions(self) -> None:
        """The auctioneer's thread. It asks the writer thread only after each new event (is an auction
        open?) and to hammer: a job every round would keep the writer from ever being idle, and an idle
        writer is the one that looks for other processes' writes (Owner._look_for_other_writers)."""
        while not self._stop.wait(0.2):
            if self.quiet_seconds <= 0:
                continue
            try:
                self._auction_round()
            except Exception:  # the owner stopping, a busy ledger: look again next round
                log.debug("the auctioneer could not look", exc_info=True)

    def _auction_round(self) -> None:
        """An auction quiet for phone.auction_quiet_seconds is hammered down, "going once" and "going
        twice" said at a third and two thirds of that time (the quiet starts again with every event).
        The clock runs only once the auction has started: its first bid, or the host setting the opening
        price (`opening`); until then it waits for the phones however long it takes (issue 22: a plot
        was hammered "no bids" before any phone was ready), and the host may still close it by hand."""
        table = self.owner.table
        key = (table, table.head_seq if table is not None else 0)
        state = self._auction
        if state.get("key") != key:  # something happened: is an auction open now, and has it started?

            def look() -> tuple[str, str, bool] | None:
                now = self.owner.table
                if now is None or self.owner.halted or not now.rules.legal(now.state, TABLE, verbs=("hammer",)):
                    return None
                pending = now.state.pending
                last = now.game.events[-1].command.split()[:1] if now.game.events else []
                started = getattr(pending, "bidder", None) is not None or last == ["opening"]
                # an id: each screen names it; the kind and plot tell this auction from the next one
                return getattr(pending, "plot", None) or "", getattr(pending, "kind", ""), started

            seen = self.owner.call(look, timeout=5.0) if table is not None else None
            plot, kind, started = seen if seen is not None else ("", "", False)
            same = (
                state.get("open")
                and state.get("table") is table
                and (state.get("plot"), state.get("kind")) == (plot, kind)
            )
            self._auction = {
                "key": key,
                "since": self.clock(),
                "said": 0,
                "open": seen is not None,
                "plot": plot,
                "kind": kind,
                "table": table,
                "started": seen is not None and (started or bool(same and state.get("started"))),
            }
            return
        if not state["open"] or not state["started"]:
            return
        quiet, said, q = self.clock() - state["since"], state["said"], self.quiet_seconds
        if quiet >= q and said < 3:
            state["said"] = 3
            seq = key[1]

            def hammer() -> None:
                if self.owner.table is table and table.head_seq == seq:  # still the same quiet auction
                    self.owner.apply(TABLE, Command("hammer"), f"phone:hammer:{self._game_id(table)}:{seq}")

            try:
                self.owner.call(hammer, timeout=5.0)
            except CompanionError as exc:
                log.warning("the auctioneer's hammer was refused: %s", exc)
                state["since"], state["said"] = self.clock(), 0  # try again after another quiet time
        elif quiet >= 2 * q / 3 and said < 2:
            state["said"] = 2
            self.owner.announce("auction_going_twice", plot=state["plot"])
        elif quiet >= q / 3 and said < 1:
            state["said"] = 1
            self.owner.announce("auction_going_once", plot=state["plot"])


class PhoneStream:
    """One page's live stream: `get` gives the next item as a dict (None when nothing came in time). The
    events the page missed (after `since`, up to the snapshot it opened on) come first, read a chunk at a
    time; then what the subscription brings, each event once and in order."""

    def __init__(self, service: PhoneService, subscription: Any, language: str, snapshot: Snapshot, since: int = 0):
        self.service = service
        self.subscription = subscription
        self.language = language
        self.game = snapshot.game_id  # the game the page shows: another's event ends the stream
        self.sent = since  # the last event given
        self.replay_to = snapshot.head_seq  # the events up to here are read from the ledger, not subscribed
        self._ready: deque[dict] = deque()

    def get(self, timeout: float) -> dict | None:
        if self._ready:
            return self._ready.popleft()
        if self.sent < self.replay_to:
            events = self.service._stored_events(self.game, self.sent, min(self.replay_to, self.sent + STREAM_CHUNK))
            if not events:
                return {"kind": "game"}
            return self._give(self.service._convert_events(events, self.language, self.game))
        if self.subscription.dropped:
            return {"kind": "game"}  # fell too far behind: the page reloads and resumes
        deadline = time.monotonic() + timeout
        while True:
            item = self.subscription.get(timeout=max(0.0, deadline - time.monotonic()))
            if item is not None and item.event is not None and item.event.seq <= self.sent:
                continue  # replayed from the ledger already (it committed while the stream opened)
            break
        converted = self.service._convert(item, self.language, self.game) if item is not None else None
        if (converted is None or converted["kind"] == "notice") and self.service.game_id() != self.game:
            return {"kind": "game"}  # archived, or a new game started (its first event is never published)
        if converted is not None and converted["kind"] == "event":
            self.sent = max(self.sent, converted["seq"])
        return converted

    def _give(self, items: list[dict]) -> dict:
        for item in items:
            if item["kind"] == "event":
                self.sent = max(self.sent, item["seq"])
            self._ready.append(item)
            if item["kind"] != "event":
                break
        return self._ready.popleft()

    def close(self) -> None:
        self.subscription.close()


def board_groups(edition: Any, plots: list[dict]) -> list[dict]:
    """The plots (board_view's, in board order) grouped by industry, the groups in the order their first
    plot lies on the board: Elite's four central plots under one heading, Monopoly's four railroads under
    theirs. A plot of no industry goes in a group of its own with no name."""
    groups: dict[str, dict] = {}
    for plot in plots:
        ref = getattr(edition.cell(plot["id"]), "industry", None) or ""
        group = groups.setdefault(ref, {"id": ref, "name": plot["industry"], "plots": []})
        group["plots"].append(plot)
    return list(groups.values())


def _rules_module(rules: Any) -> Any:
    import sys

    return sys.modules.get(type(rules).__module__)


def _csv_row(event: dict) -> str:
    out = io.StringIO()
    csv.writer(out).writerow(
        [
            event["seq"],
            event["actor"],
            event["command"],
            event["reverses"] or "",
            "; ".join(f"{p['account']} {p['amount']:+d}" for p in event["postings"]),
            " / ".join(event["lines"]),
        ]
    )
    return out.getvalue()


def _json_text(head: dict, events: list[str]) -> str:
    """{"head": ..., "events": [...]}, one event a line (each already JSON text)."""
    return '{"head": %s,\n "events": [\n%s\n]}\n' % (json.dumps(head, ensure_ascii=False), ",\n".join(events))


def _csv_text(rows: list[str]) -> str:
    out = io.StringIO()
    csv.writer(out).writerow(["seq", "actor", "command", "reverses", "postings", "words"])
    return out.getvalue() + "".join(rows)


def _word_list(value: Any, language: str) -> list[str]:
    if value is None or value == "":
        return []
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or len(items) > MAX_WORDS:
        raise Refused(say("phone_bad_args", language))
    out = []
    for w in items:
        if not isinstance(w, str) or not _WORD.fullmatch(w.strip()):
            raise Refused(say("phone_bad_args", language))
        out.append(w.strip())
    return out


def _amount(value: Any, language: str) -> int:
    if value is None or value == "" or value == 0:
        return 0
    text = str(value).strip() if isinstance(value, (str, int)) and not isinstance(value, bool) else None
    if text is None or not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise Refused(say("phone_bad_amount", language))
    return int(text)
