"""Game state and the records the engine emits: postings, notes and events."""

from dataclasses import dataclass, field
from typing import Any

BANK = "bank"
JACKPOT = "jackpot"
CHARITY = "charity"
POT = "pot"
SYSTEM_ACCOUNTS = (BANK, JACKPOT, CHARITY, POT)


@dataclass(frozen=True)
class Posting:
    """One leg of an event: money into (+) or out of (-) one account."""

    account: str
    amount: int


@dataclass(frozen=True)
class Note:
    """What happened, as a message code with parameters (rendered at the edge)."""

    code: str
    params: dict[str, Any] = field(default_factory=dict, compare=True, hash=False)

    def as_json(self) -> dict[str, Any]:
        return {"code": self.code, **self.params}


@dataclass(frozen=True)
class Debt:
    """Money a player owes but cannot pay yet; settled as soon as cash allows."""

    debtor: str
    creditor: str
    amount: int
    reason: str
    claim: str = ""  # non-empty: held until the debtor says whether a policy covers it


@dataclass(frozen=True)
class Offer:
    """A trade one player proposed and the other has not answered yet (docs/actors.md)."""

    number: int  # how the table and the phones name it: `accept 3`
    proposer: str
    other: str
    terms: tuple[str, ...]  # the trade's `give ... get ...` words, canonical
    stamp: tuple[Any, ...]  # both sides' holdings when proposed: any change lapses the offer


@dataclass(frozen=True)
class Pending:
    """A decision the table must take before play goes on."""

    kind: str  # offer, auction, draw, choose, ... (editions add more)
    player: str | None = None
    plot: str | None = None
    seller: str | None = None
    opening: int = 0
    bidder: str | None = None
    bid: int = 0
    options: tuple[int, ...] = ()
    stage: str = ""
    count: int = 0


@dataclass(frozen=True)
class Event:
    """One accepted command: its text, its postings (summing to zero), its notes, and who issued it."""

    seq: int
    command: str
    postings: tuple[Posting, ...]
    notes: tuple[Note, ...]
    reverses: int | None = None
    actor: str = "table"  # TABLE, or the player who issued it (companion.engine.actions)


class State:
    """The whole table at one moment.

    Every field holds immutable values (ints, strings, tuples, frozensets) or
    dicts of them, so `copy()` (a shallow copy of each dict) gives an
    independent state. The engine copies once per command and only ever
    mutates its own fresh copy; a state handed out is never changed again.
    """

    # holdings: (player, item) -> count, for countable things an edition hands
    # out (shares, insurance policies, SOLD signs, rating steps ...)
    DICTS = (
        "balances",
        "position",
        "owner",
        "level",
        "holdings",
        "decks",
        "discards",
        "kept",
        "flags",
        "detained",
        "skip",
        "extra",
    )
    SCALARS = (
        "players",
        "alive",
        "turn",
        "phase",
        "pending",
        "debts",
        "doubles",
        "again",
        "mortgaged",
        "winner",
        "turns",
        "rng",
        "last_dice",
    )
    # the fields, typed for the checkers (the values live in the slots below)
    balances: dict[str, int]
    position: dict[str, int]
    owner: dict[str, str]
    level: dict[str, int]
    holdings: dict[tuple[str, str], int]
    decks: dict[str, tuple[str, ...]]
    discards: dict[str, tuple[str, ...]]
    kept: dict[str, tuple[str, ...]]
    flags: dict[str, frozenset[str]]
    detained: dict[str, int]
    skip: dict[str, int]
    extra: dict[str, Any]
    players: tuple[str, ...]
    alive: tuple[str, ...]
    turn: str
    phase: str
    pending: Any
    debts: tuple[Debt, ...]
    doubles: int
    again: bool
    mortgaged: frozenset[str]
    winner: str | None
    turns: int
    rng: int
    last_dice: tuple[int, ...]
    postings: list[Posting]
    notes: list[Note]
    command: str | None

    # postings, notes and command are the output of the last command, not state:
    # command is that command's canonical line when it differs from the input
    # (`draw` names the card it drew, so a replay deals the same card).
    # memo: facts derived from this state's board (who owns a whole group, buildings in use ...)
    # and shared with every state with the same board (Rules.board_bucket), set only while
    # Rules.legal reads the state, which nothing changes meanwhile; None otherwise, so a state
    # being changed (a command's fresh copy) never reads a stale fact.
    __slots__ = DICTS + SCALARS + ("postings", "notes", "command", "memo")
    memo: dict[Any, Any] | None

    def __init__(self) -> None:
        for name in self.DICTS:
            setattr(self, name, {})
        self.players = ()
        self.alive = ()
        self.turn = None  # type: ignore[assignment]  # the first player, once new_state knows them
        self.phase = "setup"
        self.pending = None
        self.debts = ()
        self.doubles = 0
        self.again = False
        self.mortgaged = frozenset()
        self.winner = None
        self.turns = 0
        self.rng = 0
        self.last_dice = ()
        self.postings = []
        self.notes = []
        self.command = None
        self.memo = None

    def copy(self) -> "State":
        # written out field by field (DICTS, then SCALARS): every command makes one copy, and
        # the loop over names with getattr/setattr cost as much again
        new = State.__new__(State)
        new.balances = self.balances.copy()
        new.position = self.position.copy()
        new.owner = self.owner.copy()
        new.level = self.level.copy()
        new.holdings = self.holdings.copy()
        new.decks = self.decks.copy()
        new.discards = self.discards.copy()
        new.kept = self.kept.copy()
        new.flags = self.flags.copy()
        new.detained = self.detained.copy()
        new.skip = self.skip.copy()
        new.extra = self.extra.copy()
        new.players = self.players
        new.alive = self.alive
        new.turn = self.turn
        new.phase = self.phase
        new.pending = self.pending
        new.debts = self.debts
        new.doubles = self.doubles
        new.again = self.again
        new.mortgaged = self.mortgaged
        new.winner = self.winner
        new.turns = self.turns
        new.rng = self.rng
        new.last_dice = self.last_dice
        new.postings = []
        new.notes = []
        new.command = None
        new.memo = None
        return new

    def cash(self, account: str) -> int:
        return self.balances.get(account, 0)

    def held(self, player: str, item: str) -> int:
        return self.holdings.get((player, item), 0)

    def plots_of(self, player: str) -> list[str]:
        memo = self.memo
        if memo is not None:
            key = ("plots_of", player)
            found = memo.get(key)
            if found is None:
                found = memo[key] = sorted(p for p, o in self.owner.items() if o == player)
            return list(found)
        return sorted(p for p, o in self.owner.items() if o == player)

    def signature(self) -> str:
        """Everything that matters, as plain data: two states with equal signatures are equal."""
        out: dict[str, Any] = {}
        for name in self.__slots__:
            if name in ("postings", "notes", "command", "memo"):
                continue
            value = getattr(self, name)
            if isinstance(value, dict):
                value = sorted(value.items())
            elif isinstance(value, frozenset):
                value = sorted(value)
            out[name] = value
        return repr(out)
