"""A game's history: events in order, the state they derive, and visible undo.

An undo is itself an event (`undo N`) whose postings are the negation of event
N's. It is accepted only when every later event replays to exactly the same
postings without N; otherwise it is refused naming the first event that
depends on N (docs/undo.md). The ledger therefore never changes a row.
"""

import copy
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol, overload

from companion.engine.actions import TABLE, issued
from companion.engine.command import Command, parse_command
from companion.engine.core import Rules, parse_line
from companion.engine.state import Event, Note, Posting, State
from companion.errors import BadCommand, InvariantViolation, RuleViolation, check

MAX_SEED = (1 << 64) - 1  # the deck shuffle is splitmix64: a seed is 64 bits


class EventList(Protocol):
    """A game's events in order: a list, or the ledger's log read on demand (table/service.py's EventLog)."""

    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int) -> Event: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Event]: ...
    def __iter__(self) -> Iterator[Event]: ...
    def append(self, event: Event) -> None: ...


@dataclass(frozen=True)
class Proposal:
    """An event computed but not yet accepted (the ledger writes it first)."""

    event: Event
    state: State
    replayed: tuple[tuple[int, State], ...] = ()  # (seq, state) snapshots recomputed by an undo


class Game:
    def __init__(self, rules: Rules, first_event: Event, first_state: State) -> None:
        self.rules = rules
        self.events: EventList = [first_event]
        self.state = first_state
        # state after each active event, for the last undo_window events
        self.after: dict[int, State] = {first_event.seq: first_state}
        self.reversed: set[int] = set()

    @classmethod
    def start(cls, rules: Rules, seed: int, players: Iterable[str]) -> "Game":
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise BadCommand("bad_seed", seed=seed, high=MAX_SEED)
        state = rules.new_state(list(players), seed)
        line = " ".join(["new", rules.edition.id, str(seed), *players])
        event = Event(1, line, tuple(state.postings), tuple(state.notes))
        return cls(rules, event, state)

    @staticmethod
    def parse_start(line: str) -> tuple[str, int, list[str]]:
        verb, args = parse_line(line)
        if verb != "new" or len(args) < 3 or not (args[1].isascii() and args[1].isdigit()):
            raise BadCommand("usage", usage="new EDITION SEED PLAYER...")
        return args[0], int(args[1]), list(args[2:])

    # ----- two-phase apply: propose, then accept once the ledger has it -------------

    def propose(self, line: Command | str, actor: str = TABLE, trusted: bool = False) -> Proposal:
        """The event `line` would make, issued by `actor` (TABLE or a player); nothing changes yet.

        trusted: a stored event replayed (its actor was checked when it was submitted).
        """
        cmd = line if isinstance(line, Command) else parse_command(line)
        if cmd is None:
            raise BadCommand("empty_command")
        if cmd.verb == "undo":
            if actor != TABLE:
                raise RuleViolation("table_only", actor=actor, verb="undo")
            return self.propose_undo(cmd.args)
        if cmd.verb == "new":
            raise RuleViolation("game_already_started")
        new = self.rules.apply(self.state, cmd, actor, trusted, seq=len(self.events) + 1)
        text = new.command or cmd.text()
        event = Event(len(self.events) + 1, text, tuple(new.postings), tuple(new.notes), actor=actor)
        return Proposal(event, new)

    def accept(self, proposal: Proposal) -> Event:
        event = proposal.event
        check(event.seq == len(self.events) + 1, "proposal is stale")
        self.events.append(event)
        self.state = proposal.state
        if event.reverses is not None:
            self.reversed.add(event.reverses)
            self.after.pop(event.reverses, None)
            self.after.update(proposal.replayed)
        else:
            self.after[event.seq] = proposal.state
        # keep the states after the last window + 1 events (the oldest go first)
        extra = len(self.after) - (self.rules.opt["undo_window"] + 1)
        if extra == 1:
            del self.after[min(self.after)]  # the usual case: one in, one out, no sort
        elif extra > 1:
            for seq in sorted(self.after)[:extra]:
                del self.after[seq]
        return event

    def apply(self, line: Command | str, actor: str = TABLE) -> Event:
        return self.accept(self.propose(line, actor))

    def fork(self) -> "Game":
        """A copy whose accepts leave this game alone: the box previews a chain of undos on it.

        States are never changed in place (apply returns new ones), so sharing them is safe;
        only the lists and maps that accept changes are copied.
        """
        other = copy.copy(self)
        other.events = list(self.events)
        other.after = dict(self.after)
        other.reversed = set(self.reversed)
        return other

    # ----- undo ------------------------------------------------------------------------

    def active_after(self, seq: int) -> list[Event]:
        return [e for e in self.events[seq:] if e.reverses is None and e.seq not in self.reversed]

    def propose_undo(self, args: tuple[str, ...]) -> Proposal:
        if len(args) != 1 or not (args[0].isascii() and args[0].isdigit()):
            raise BadCommand("usage", usage="undo EVENT")
        n = int(args[0])
        if not 1 <= n <= len(self.events):
            raise RuleViolation("no_such_event", event=n)
        target = self.events[n - 1]
        if n == 1:
            raise RuleViolation("cannot_undo_start")
        if target.reverses is not None:
            raise RuleViolation("cannot_undo_undo", event=n)
        if n in self.reversed:
            raise RuleViolation("already_undone", event=n)
        before = [seq for seq in self.after if seq < n and seq not in self.reversed]
        if not before or n not in self.after:
            raise RuleViolation("too_old_to_undo", event=n, window=self.rules.opt["undo_window"])
        state = self.after[max(before)]
        replayed: list[tuple[int, State]] = []
        for e in self.active_after(n):
            try:
                new = self.rules.apply(state, e.command, e.actor, trusted=True, seq=e.seq)
            except RuleViolation:
                raise RuleViolation("undo_blocked", event=n, by=e.seq, command=issued(e.actor, e.command)) from None
            if tuple(new.postings) != e.postings or tuple(new.notes) != e.notes:
                # a later event would play out differently: it depends on n
                raise RuleViolation("undo_blocked", event=n, by=e.seq, command=issued(e.actor, e.command))
            state = new
            replayed.append((e.seq, new))
        postings = tuple(Posting(p.account, -p.amount) for p in target.postings)
        notes: tuple[Note, ...] = (Note("undone", {"event": n, "command": issued(target.actor, target.command)}),)
        # pair assertion: balances from the replay equal the ledger's sums with the correction
        for account in {p.account for p in target.postings}:
            expected = self.state.balances.get(account, 0) + sum(p.amount for p in postings if p.account == account)
            check(state.balances.get(account, 0) == expected, f"undo of {n} disagrees on {account}")
        # what to put back on the board, for every screen to show
        notes += tuple(self.rules.board_changes(self.state, state))
        final = state.copy()
        final.postings, final.notes = list(postings), list(notes)
        event = Event(len(self.events) + 1, f"undo {n}", postings, notes, reverses=n)
        return Proposal(event, final, tuple(replayed))

    # ----- replay from stored events -------------------------------------------------------

    @classmethod
    def replay(cls, rules: Rules, events: Sequence[Event]) -> "Game":
        """Rebuild a game from stored events, checking every posting and note matches."""
        edition_id, seed, players = cls.parse_start(events[0].command)
        check(edition_id == rules.edition.id, "stored game is of another edition")
        game = cls.start(rules, seed, players)
        check(
            game.events[0].postings == events[0].postings and game.events[0].notes == events[0].notes,
            "event 1 replays differently",
        )
        game.replay_onto(events[1:])
        return game

    @classmethod
    def resume(cls, rules: Rules, events: EventList, state: State, reversed_: Iterable[int]) -> "Game":
        """A game whose history is `events` (any sequence) and whose state after the last is `state`.

        Used with a checkpoint: the undo window holds only that state until
        the events after it are replayed with replay_onto.
        """
        game = cls.__new__(cls)
        game.rules = rules
        game.events = events
        game.state = state
        game.after = {len(events): state}
        game.reversed = set(reversed_)
        return game

    def replay_onto(self, stored_events: Iterable[Event]) -> None:
        """Apply stored events in order, each checked against what was stored (postings and notes)."""
        for stored in stored_events:
            try:
                proposal = self.propose(stored.command, stored.actor, trusted=True)
            except RuleViolation as exc:
                raise InvariantViolation(
                    f"event {stored.seq} ({stored.command}) is refused on replay: {exc.code} {exc.params}"
                ) from None
            check(proposal.event.seq == stored.seq, f"event {stored.seq} replays as event {proposal.event.seq}")
            check(
                proposal.event.postings == stored.postings,
                f"event {stored.seq} ({stored.command}) replays to different postings",
            )
            check(
                proposal.event.notes == stored.notes,
                f"event {stored.seq} ({stored.command}) replays to different notes",
            )
            self.accept(proposal)
