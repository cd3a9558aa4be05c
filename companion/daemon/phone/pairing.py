"""Pairing a phone with a player's card: the phone waits with a code the box shows, and the player
choosing "Phone CODE is mine" in their card's menu binds it. One phone pairs at a time; the others wait
in a fair line (docs/phone.md has the bound on the wait)."""

import math
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..owner import Owner
from .common import Refused, say
from .reading import Reading

PAIR_WAIT_S = 60.0  # a pairing waits this long for a player's card, then it is stale (asking again: no longer)
PAIR_REPEAT_S = 3.0  # one phone asks to pair at most this often (each ask is said on the box's screen)
PAIR_RESERVE_S = 15.0  # a phone in line keeps its turn this long after the time it was told to ask again
PAIR_LINE = 64  # places in the pairing's line (one per address: the IPv4 address or the IPv6 /64)


@dataclass
class Pairing:
    """A phone waiting for a player's card on the reader."""

    code: str
    started: float
    who: str = ""  # the asking phone's session (web/phone/): its next ask replaces this one
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


class CardPairing:
    """The pairings asked for, the line of phones turned away, and binding one to a player's card. The
    daemon is handed in for its screen: a code gone is said there (`_refuse`), a pairing booked (`_booked`)."""

    def __init__(self, daemon: Any, owner: Owner, reading: Reading, clock: Callable[[], float]):
        self.daemon = daemon
        self.owner = owner
        self.reading = reading
        self.clock = clock
        self._lock = threading.Lock()  # the pairings and the line (never held while calling the owner)
        self._pairings: dict[str, Pairing] = {}
        self._pair_asked: OrderedDict[str, float] = OrderedDict()  # a phone's session -> when it last asked
        self._pair_line: OrderedDict[str, _Place] = OrderedDict()  # the phones (sessions) turned away, first first
        self._pair_free_since = 0.0  # when the last pairing stopped waiting (the first in line's turn starts)

    def pair_start(self, language: str, who: str = "", client: str = "") -> dict[str, Any]:
        """A phone starts waiting for its player's card: {"pairing": a secret id, "code": what the OLED shows}.
        One phone waits at a time (a tap binds exactly one). `who` is the asking phone's session, `client` its
        address (web.hosts.guesser: an IPv4 address, an IPv6 /64). Its new ask replaces its old one (the same
        code, and the same 60 s: asking again never holds the pairing longer). Another phone asking meanwhile
        is refused (409) and told when to ask again; it gets a place in line (one per address; the phone
        pairing has none until its pairing ends) and, asked again by then, its turn: a phone with k addresses
        ahead of it pairs within PAIR_WAIT_S + k * (PAIR_WAIT_S + PAIR_RESERVE_S), however the others take
        turns (docs/phone.md). A phone asks again at most every PAIR_REPEAT_S (429)."""
        gid = self.reading.game_id()
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

    def pair_status(self, pid: str) -> dict[str, Any]:
        gid = self.reading.game_id()
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
        gid = self.reading.table_game_id(self.owner.table)
        with self._lock:
            self._expire(self.clock(), gid)
            waiting = [p for p in self._pairings.values() if p.state == "waiting"]  # one at most (pair_start)
        return waiting[0].code if waiting else ""

    def pair_with(self, code: str, player: str) -> bool:
        """The player chose "Phone CODE is mine" in their card's menu (writer thread): binds that phone to
        them. False (and said) when it no longer waits: expired, cancelled, or another phone's code by now."""
        table = self.owner.table
        gid = self.reading.table_game_id(table)
        if table is None or player not in table.state.players:
            return False
        with self._lock:
            self._expire(self.clock(), gid)
            pairing = next((p for p in self._pairings.values() if p.state == "waiting" and p.code == code), None)
            if pairing is not None:
                self._end(pairing, "bound", self.clock())
                pairing.player, pairing.game = player, gid
        if pairing is None:
            self.daemon.reading.refuse("phone_pair_gone", pairing=code)
            return False
        self.daemon.reading.booked()
        self.owner.announce("phone_paired", pairing=code, player=player)
        return True
