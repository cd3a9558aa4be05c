"""Who a phone is at the table: the table code (spectators), the seats' PINs and the banker's PIN, and
the roles phones keep across a closed browser and the box's restart (kept in the games folder by
companion/daemon/phonekeep.py). Pairing by a player's card is next door (pairing.py)."""

import hmac
import math
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..clock import clock_synchronized
from ..owner import Owner
from ..phonekeep import PhoneKeep, new_role_id, now, token_hash, trim
from .common import Refused, WrongRole, say
from .reading import Reading

CODE_LETTERS = "ACDEFHJKLMNPRTUVWXY34679"  # a table code: no 0/O, 1/I, 2/Z, 5/S, 8/B to misread
CODE_LENGTH = 4
PIN_TRIES = 5  # wrong PINs in a row (per seat or banker, per phone's address) before ...
PIN_LOCK_S = 30.0  # ... that address's further tries are refused this long, twice as long each lock after, ...
PIN_LOCK_MAX_S = 900.0  # ... up to this
PIN_FORGET_S = 6 * 3600.0  # an address with no wrong PIN for this long starts afresh (as a right PIN does)
PIN_CLIENTS = 1024  # addresses' lock records kept (the oldest go first)


@dataclass
class _Lock:
    """One address's wrong tries at one PIN: how many in a row, locked until when, how many locks so far."""

    fails: int = 0
    until: float = 0.0
    locks: int = 0
    last: float = 0.0


@dataclass
class GameMemo:
    """What the service remembers of one game: its code, the seats' PINs, the phones' lasting roles (kept in the
    games folder: companion/daemon/phonekeep.py), the share price's history."""

    code: str
    pins: dict[str, str] = field(default_factory=dict)
    roles: dict[str, dict[str, Any]] = field(default_factory=dict)  # token hash -> {id, role, player, csrf, since}
    prices: list[tuple[int, int]] = field(default_factory=list)
    scanned: int = 0


class TableRoles:
    """Each game's memo (its code, the seats' PINs, the lasting roles) and the PIN checks, with their locks
    against guessing. `banker_pin` gives the banker's PIN as set now (the box's, else the config's)."""

    def __init__(
        self,
        owner: Owner,
        reading: Reading,
        keep: PhoneKeep,
        banker_pin: Callable[[], str],
        clock: Callable[[], float],
    ):
        self.owner = owner
        self.reading = reading
        self.clock = clock
        self._banker_pin = banker_pin
        self._lock = threading.Lock()  # the memos and the PIN locks (never held while calling the owner)
        self._keep = keep
        self._keep_lock = threading.Lock()  # one write of a game's kept record at a time
        self._games: dict[str | None, GameMemo] = {}
        self._locks: OrderedDict[tuple[str, str], _Lock] = OrderedDict()

    def memo(self, gid: str | None) -> GameMemo:
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
        made = GameMemo(
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
            self.save(gid)
        return memo

    def save(self, gid: str | None) -> None:
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
        memo = self.memo(game)
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
        self.save(game)

    def find_role(self, token: str) -> dict[str, Any] | None:
        """The lasting role a phone's token holds in the open game: {role, player, csrf, game}, or None."""
        gid = self.reading.game_id()
        if gid is None or not token:
            return None
        memo = self.memo(gid)
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

    def roles_kept(self, language: str, token: str = "") -> list[dict[str, Any]]:
        """The open game's lasting roles for the banker's Roles page, banker first, then players, then the
        spectators, each joined-first: {id, role, player, since (day and time, the box's), mine (the phone
        holding `token`: the banker's own)}."""
        gid = self.reading.game_id()
        if gid is None:
            return []
        memo = self.memo(gid)
        order = {"banker": 0, "player": 1, "spectator": 2}
        mine = token_hash(token) if token else ""
        synced = clock_synchronized()
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
                    # a Pi without network has no clock to trust (companion/daemon/clock.py): no time of day then
                    "since": time.strftime("%d.%m %H:%M", time.localtime(float(r.get("since", 0)))) if synced else "—",
                }
                for h, r in rows
            ]

    def revoke_role(self, rid: str) -> str:
        """The banker revokes a lasting role by its id: the token hash it was kept under ("" if none)."""
        gid = self.reading.game_id()
        if gid is None:
            return ""
        memo = self.memo(gid)
        with self._lock:
            found = next((h for h, r in memo.roles.items() if hmac.compare_digest(str(r.get("id", "")), rid)), "")
            if found:
                del memo.roles[found]
        if found:
            self.save(gid)
        return found

    def table_code(self) -> str:
        return self.memo(self.reading.game_id()).code

    def check_code(self, code: str) -> bool:
        wanted = self.table_code()
        given = "".join(str(code).split()).upper()[:16]
        return hmac.compare_digest(given.encode(), wanted.encode())

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
        wanted = self._banker_pin()  # set at the box (Game… → Banker's PIN), else phone.banker_pin
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

    def set_seat_pin(self, seat: int, pin: str, language: str) -> dict[str, Any]:
        """The banker sets (or, with an empty PIN, clears) a seat's PIN for a table without a reader."""
        head = self.reading.current_head(language)
        if not 1 <= seat <= len(head["players"]):
            raise Refused(say("phone_no_seat", language, seat=seat))
        pin = pin.strip() if isinstance(pin, str) else ""
        if pin and not (pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 8):
            raise Refused(say("phone_bad_pin", language))
        memo = self.memo(head["game"])
        with self._lock:
            if pin:
                memo.pins[str(seat)] = pin
            else:
                memo.pins.pop(str(seat), None)
        self.save(head["game"])  # a seat's PIN outlives a restart, as the roles do
        player = head["players"][seat - 1]
        # said back, so the banker sees the PIN took (or was removed)
        line = say("phone_pin_set" if pin else "phone_pin_cleared", language, player=player)
        return {"seat": seat, "player": player, "set": bool(pin), "lines": [line]}

    def claim_seat(self, seat: int, pin: str, language: str, client: str = "") -> dict[str, Any]:
        """A player claims their seat with the PIN the banker set: {"player", "game"}; WrongRole otherwise
        (`client` as for check_banker)."""
        head = self.reading.current_head(language)
        if not 1 <= seat <= len(head["players"]):
            raise Refused(say("phone_no_seat", language, seat=seat))
        memo = self.memo(head["game"])
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
