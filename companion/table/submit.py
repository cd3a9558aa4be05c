"""The table: one game paired with its ledger, the single writer every client goes through.

A command reaches memory only after its event is committed. Each write runs
inside the ledger's write lock: first the table catches up with any event
another process wrote, then it answers a known request id from the ledger,
then it proposes the command to the engine, stores the event (with a
checkpoint of the state every CHECKPOINT_EVERY events), records the new head
in the anchor outside the file and commits. Starting, opening and recovering a game
are companion/table/opening.py and recovery.py; companion/table/service.py gathers them.
"""

from __future__ import annotations

import itertools
import os
import random
import sqlite3
import threading
import uuid
from dataclasses import replace
from typing import TYPE_CHECKING

from companion.engine.actions import TABLE, issued
from companion.engine.command import Command, parse_command
from companion.engine.game import Game, Proposal
from companion.engine.snapshot import state_to_text
from companion.engine.state import Event, State
from companion.errors import (
    BadCommand,
    CompanionError,
    DiskFull,
    InvariantViolation,
    LedgerDamaged,
    LedgerError,
    Message,
    OutcomeUnknown,
    RuleViolation,
    SaidInput,
    StrangerGame,
    cause_of,
)
from companion.ledger import chain
from companion.ledger.anchor import Anchor, write_place
from companion.ledger.store import EventRow, Ledger, notes_text, now_text

if TYPE_CHECKING:
    from companion.engine.core import Rules
from companion.words.head import head_words

CHECKPOINT_EVERY = 10  # events between stored checkpoints of the whole state (~1.5 kB each)
BACKUP_EVERY = 100  # events between backups (SQLite's backup API) beside the ledger
MAX_REQUEST_ID = 100  # characters in a request id (printable ones)


class _RequestIds:
    """Request ids unique across processes and boots: a random prefix drawn once per process (again in a
    forked child) and a counter. One uuid4 per command asked the OS for randomness on every tap, a system
    call that hands the interpreter to another thread in the middle of a booking."""

    def __init__(self) -> None:
        self.renew()

    def renew(self) -> None:
        self.prefix = uuid.uuid4().hex[:20]
        self.counter = itertools.count(1)

    def next(self) -> str:
        return f"{self.prefix}{next(self.counter):012x}"


_REQUEST_IDS = _RequestIds()
os.register_at_fork(after_in_child=_REQUEST_IDS.renew)


def new_request_id() -> str:
    return _REQUEST_IDS.next()


def parsed(line: Command | str) -> Command:
    """The command of a line (a Command passes through); BadCommand for a blank or malformed one."""
    command = line if isinstance(line, Command) else parse_command(line)
    if command is None:
        raise BadCommand("empty_command")
    return command


def canonical(line: Command | str) -> str:
    """The command as submitted, in its canonical form: what a request id is bound to."""
    return parsed(line).text()


class _FilesChanged(Exception):
    """Inside a write: the ledger file or its anchor is no longer the one opened (rolls the write back)."""


class Table:
    """A game with its ledger: the single writer. Memory changes only after COMMIT."""

    def __init__(self, ledger: Ledger, game: Game, head: tuple[int, str], meta: dict[str, str]) -> None:
        self.ledger = ledger
        self.game = game
        self.head_seq, self.head_hash = head
        self.meta = meta
        self.halted: str | None = None
        self.unknown: OutcomeUnknown | None = None
        self.warnings: list[Message] = []  # said at the edge in its language (Message: code, params); each once
        self.backup_due = False  # a backup beside the ledger is owed (housekeeping)
        # None: the game may be booked. Else why it is only shown: a read-only card, the ledger file or its
        # anchor deleted or replaced under the daemon (watch), a stranger's game. submit refuses, naming it;
        # every screen says it (the daemon's OLED, phones and journal)
        self.readonly_reason: Message | None = None
        self.stranger = False  # a ledger this machine never kept: read-only until `adopt` (companion accept)
        self._backing: threading.Thread | None = None  # the backup beside the ledger being made aside

    @property
    def state(self) -> State:
        state: State = self.game.state
        return state

    @property
    def rules(self) -> Rules:
        rules: Rules = self.game.rules
        return rules

    def head(self) -> tuple[int, str]:
        return self.head_seq, self.head_hash

    def head_words(self, language: str = "en") -> str:
        return head_words(self.head_hash, language)

    def actor_name(self, actor: str) -> str:
        """TABLE, or the player `actor` names (any case) as the game spells them; BadCommand otherwise."""
        if actor.lower() == TABLE:
            return TABLE
        for p in self.state.players:
            if p.lower() == actor.lower():
                return p
        raise BadCommand("unknown_actor", actor=actor, players=", ".join(self.state.players))

    # ----- writing -------------------------------------------------------------------

    def submit(
        self,
        line: Command | str,
        request_id: str | None = None,
        actor: str = TABLE,
        rng: random.Random | None = None,
        submitted: str | None = None,
        housekeeping: bool = True,
    ) -> Event:
        """Apply one command durably; returns its Event (the stored one for a known request id).

        line: a Command parsed at the edge (the CLI and scripts parse each line once),
        or its text. actor: TABLE or a player's name (any case).

        request_id: every client that may retry passes one; a retry with the
        same id and the same command is answered from the ledger, with another
        command refused. In-process callers that never retry may omit it.
        rng: when given, fills the dice of a command that names none (the CLI
        stands in for the reader); the request id stays bound to the command
        as submitted, so a retry gets the stored dice back.
        submitted: only for recovery, the command as it was first submitted.
        housekeeping: False leaves the backup this event may be owed to `housekeeping()`, which the
        caller runs when it has time (the daemon: once the screens have the event and the writer is idle).
        """
        if self.halted:
            raise InvariantViolation(f"the bank is halted: {self.halted}")
        if self.readonly_reason is not None:
            kind = StrangerGame if self.stranger else LedgerError  # a stranger's game: exit 10, `companion accept`
            raise kind("table_read_only", error=self.readonly_reason)
        if self.unknown is not None:
            raise OutcomeUnknown(
                "table_unresolved",
                self.unknown.seq,
                self.unknown.request_id,
                self.unknown.command,
                unknown=self.unknown,
            )
        actor = self.actor_name(actor)
        recovering = submitted is not None
        command = parsed(line)
        first = parsed(submitted) if submitted else command
        submitted = first.text()
        if request_id is None:
            request_id = new_request_id()
        elif not request_id.strip():  # "" must not become a fresh id: a retry under it would book twice
            raise SaidInput("request_id_empty")
        if not (0 < len(request_id) <= MAX_REQUEST_ID and request_id.isprintable()):
            raise BadCommand("bad_request_id", limit=MAX_REQUEST_ID)
        self.ledger.check_space()
        if rng is not None:
            command = fill_dice(self.rules, first, rng)
        try:
            with self.ledger.writing() as w:
                self._catch_up()
                self._check_anchor_for_write()
                found = self.ledger.request(request_id)
                if found is not None:
                    seq, stored_actor, stored_submitted = found
                    if (stored_actor, stored_submitted) != (actor, submitted):
                        raise RuleViolation(
                            "request_reused",
                            request_id=request_id,
                            stored=issued(stored_actor, stored_submitted),
                            submitted=issued(actor, submitted),
                        )
                    # answer from the ledger, but only from a synced one: this write syncs it
                    w.record_resolution(request_id, seq, True, stored_submitted)
                    stored_event: Event = self.game.events[seq - 1]
                    return stored_event
                # recovery re-enters stored events: their actors were checked when first submitted
                proposal = self.game.propose(command, actor, trusted=recovering)
                row, checkpoint = self._row_for(proposal, actor, request_id, submitted)
                w.insert(row, checkpoint)
                self.ledger.set_anchor(Anchor(row.event.seq, row.hash, self.head_hash))
                # the last look before COMMIT: SQLite would commit into a file deleted or replaced under us
                if not self._files_intact():
                    raise _FilesChanged()
        except _FilesChanged:  # rolled back: nothing was written
            raise LedgerError("table_read_only", error=self.watch()) from None
        except OutcomeUnknown as exc:
            if exc.write_failed and self._absent_after_reopen(request_id):
                raise DiskFull("table_disk_full", path=self.ledger.path, seq=exc.seq) from None
            self.unknown = exc
            raise
        except InvariantViolation as exc:
            self.halted = str(exc)
            raise
        event: Event = self.game.accept(proposal)
        self._mark_done(Anchor(row.event.seq, row.hash, self.head_hash, done=True))
        self.head_seq, self.head_hash = row.event.seq, row.hash
        if not self.ledger.memory and event.seq % BACKUP_EVERY == 0:
            self.backup_due = True
        if housekeeping:
            self.housekeeping()
        return event

    def housekeeping(self, aside: bool = False) -> None:
        """The work an event leaves that nobody waits for: the backup beside the ledger every BACKUP_EVERY
        events. aside (the daemon): made on a thread of its own through its own read-only connection, so the
        writer is free for the next tap at once (here it held the idle writer 7-100 ms, about 2 s on a Zero 2
        W's SD card, and a tap landing then waited); one at a time, the next waits for the next idle look."""
        if not self.backup_due:
            return
        if not aside or self.readonly_reason is not None or not self._files_intact():
            # the files under the table changed: copy what this table holds, through its own connection
            self.backup_due = False
            self.backup()
        elif self._backing is None or not self._backing.is_alive():
            self.backup_due = False
            self._backing = threading.Thread(
                target=self.backup, kwargs={"own_connection": True}, name="companion-backup", daemon=True
            )
            self._backing.start()

    def finish_backup(self, timeout: float = 60.0) -> None:
        """Wait for a backup being made aside (before the ledger is closed, archived or moved)."""
        if self._backing is not None:
            self._backing.join(timeout)
            if self._backing.is_alive():  # a disk that hangs: said, and the game goes on being closed
                self.warn(Message("table_backup_failed", detail=f"still copying after {timeout:g} s", cause=None))
            self._backing = None

    def _absent_after_reopen(self, request_id: str) -> bool:
        """After a -wal write that ran out of space: True if a fresh connection does not see the event."""
        try:
            self.ledger.reopen()
            with self.ledger.reading():
                return self.ledger.request(request_id) is None
        except CompanionError:
            return False

    def _mark_done(self, anchor: Anchor) -> None:
        try:
            self.ledger.set_anchor(anchor, sync=False)
        except OSError as exc:  # the event is stored; only the fork check of this one event is lost
            self.warn(Message("table_anchor_not_marked", detail=exc.strerror, cause=cause_of(exc)))

    def warn(self, warning: Message) -> None:
        """Add a warning for the screens, once: the same words again (a backup failing every hundred
        events) are not said twice."""
        if all((w.code, w.params) != (warning.code, warning.params) for w in self.warnings):
            self.warnings.append(warning)

    # ----- the files under the table --------------------------------------------------------------

    def _files_intact(self) -> bool:
        return self.ledger.file_state() == "same" and self.ledger.anchor_state() == "same"

    def watch(self) -> Message | None:
        """Are the ledger file and its anchor on disk still the ones this table opened? The daemon asks
        every idle quarter second; every write asks before its COMMIT. The first time one is not (deleted,
        moved away, replaced), the table stops booking and `readonly_reason` says why, after keeping what
        can be kept: a deleted ledger is written back under its name (or, failing that, saved beside it), a
        replaced one's game is saved beside the newcomer, a deleted or moved anchor is written back. Every
        event acknowledged so far is in what is kept. Returns the reason (None: all is well)."""
        if self.readonly_reason is not None or self.ledger.memory:
            return self.readonly_reason
        ledger_state, anchor_state = self.ledger.file_state(), self.ledger.anchor_state()
        if ledger_state == anchor_state == "same":
            return None
        path, seq = self.ledger.path, self.head_seq
        anchor = self.ledger.anchor_file
        anchor_name = str(anchor.path) if anchor is not None else ""
        anchor_back = anchor_state in ("deleted", "moved") and anchor is not None and anchor.put_back()
        reason: Message
        if ledger_state == "deleted":
            try:
                self.ledger.put_back()
                reason = Message("table_ledger_deleted", path=path, seq=seq)
            except (OSError, sqlite3.Error):
                reason = self._saved_aside("table_ledger_deleted_saved")
        elif ledger_state == "moved":
            self.ledger.settle()  # the moved file takes every event with it, its -wal stays under the old name
            reason = Message("table_ledger_moved", path=path, seq=seq)
        elif ledger_state == "replaced":
            reason = self._saved_aside("table_ledger_replaced")
        elif anchor_state == "replaced":
            reason = Message("table_anchor_replaced", anchor=anchor_name, seq=seq)
        elif anchor_back:
            reason = Message("table_anchor_deleted", anchor=anchor_name, seq=seq)
        else:
            reason = Message("table_anchor_lost", anchor=anchor_name, seq=seq)
        self.readonly_reason = reason
        return reason

    def _saved_aside(self, code: str) -> Message:
        """Save the game this table still reads beside the ledger's name (never over a file); the reason
        naming the copy, or saying that no copy could be made."""
        path, seq = self.ledger.path, self.head_seq
        target, n = f"{path}.rescued", 1
        while os.path.exists(target):
            n += 1
            target = f"{path}.rescued-{n}"
        try:
            self.ledger.backup(target)
        except (OSError, sqlite3.Error) as exc:
            return Message("table_ledger_unsaved", path=path, seq=seq, detail=str(exc), cause=cause_of(exc))
        return Message(code, path=path, seq=seq, saved=target)

    def _row_for(self, proposal: Proposal, actor: str, request_id: str, submitted: str) -> tuple[EventRow, str | None]:
        event = proposal.event
        checkpoint = state_hash = None
        if event.seq % CHECKPOINT_EVERY == 0:
            checkpoint = state_to_text(proposal.state)
            state_hash = chain.text_hash(checkpoint)
        row = EventRow(event, actor, request_id, submitted, now_text(), state_hash, "", notes_text(event))
        return replace(row, hash=row.chain_hash(self.head_hash)), checkpoint

    def _catch_up(self) -> None:
        """Replay, checked, every event another process stored since this table last looked."""
        n = self.ledger.last_seq()
        have = len(self.game.events)
        if n < have:
            raise LedgerDamaged("table_went_back", path=self.ledger.path, had=have, seq=n)
        if n == have:
            return
        rows = self.ledger.rows(have, n)
        for row in rows:
            h = row.chain_hash(self.head_hash)
            if h != row.hash:
                raise LedgerDamaged("table_off_chain", path=self.ledger.path, seq=row.event.seq)
            self.game.replay_onto([row.event])
            self.head_seq, self.head_hash = row.event.seq, row.hash

    def _check_anchor_for_write(self) -> None:
        if self.ledger.memory:
            return
        anchor = self.ledger.anchor()
        if anchor is not None:  # a missing anchor is written with this event
            check_anchor(self.ledger.path, anchor, self.head_seq, self.head_hash)

    def adopt(self) -> None:
        """Make a stranger's game this machine's own, as it stands now (a person said so: `companion accept`):
        anchor its head and remember its place. From now on a file cut short, rewritten or put in its place
        is noticed; what was done to it before cannot be."""
        if not self.stranger:
            return
        state_dir = self.ledger.state_dir
        with self.ledger.writing():
            if self.ledger.last_seq() != self.head_seq:  # it moved since it was shown: show it again first
                raise LedgerError("table_kept_changing", path=self.ledger.path)
            prev = self.ledger.hash_at(self.head_seq - 1) if self.head_seq > 1 else chain.genesis(self.meta)
            self.ledger.set_anchor(Anchor(self.head_seq, self.head_hash, prev or "", done=True))
            write_place(state_dir, self.ledger.path, self.meta["game_id"], self.ledger.hash_at(1) or "")
        self.readonly_reason, self.stranger = None, False

    def refresh(self) -> bool:
        """Catch up with events other processes wrote; True if there were any."""
        before = self.head_seq
        with self.ledger.reading():
            self._catch_up()
        return self.head_seq != before

    def resolve(self) -> bool:
        """After OutcomeUnknown: reopen, look, and sync; True if the event is stored, False if not.

        Raises OutcomeUnknown again when the file cannot be reopened or synced.
        """
        unknown = self.unknown
        if unknown is None:
            return True
        try:
            self.ledger.reopen()
            with self.ledger.reading():
                found = self.ledger.request(unknown.request_id)
            stored = found is not None
            self.ledger.record_resolution(unknown.request_id, unknown.seq or 0, stored, unknown.command or "")
        except OutcomeUnknown as exc:
            raise OutcomeUnknown(
                "table_sync_failed", unknown.seq, unknown.request_id, unknown.command, unknown=unknown, error=exc
            ) from None
        except CompanionError as exc:
            raise OutcomeUnknown(
                "table_not_reopened", unknown.seq, unknown.request_id, unknown.command, unknown=unknown, error=exc
            ) from None
        self.unknown = None
        self.refresh()
        return stored

    def backup(self, own_connection: bool = False) -> None:
        try:
            self.ledger.backup(self.ledger.path + ".backup", own_connection)
        except (OSError, sqlite3.Error, CompanionError) as exc:  # a backup never stops the game
            self.warn(Message("table_backup_failed", detail=str(exc), cause=cause_of(exc)))

    # ----- reading -------------------------------------------------------------------------

    def stored_events(self) -> list[EventRow]:
        """Every stored event with its actor, request id and time (for history views)."""
        with self.ledger.reading():
            return self.ledger.rows(0)

    def reversed_events(self) -> set[int]:
        return set(self.game.reversed)

    def close(self) -> None:
        self.finish_backup()
        self.ledger.close()


def fill_dice(rules: Rules, command: Command, rng: random.Random) -> Command:
    """Add random dice to a command that names none (the CLI stands in for the reader)."""
    if command.verb in rules.DICE_VERBS:
        before, count = rules.DICE_VERBS[command.verb]
        if len(command.args) == before:
            dice = tuple(str(rng.randint(1, 6)) for _ in range(count))
            return Command(command.verb, command.args + dice)
    return command


def check_anchor(path: str, anchor: Anchor, n: int, head: str) -> None:
    """The ledger (n events, head hash) against this machine's anchor; LedgerDamaged if they disagree."""
    if anchor.seq == n:
        if anchor.head != head:
            raise LedgerDamaged("anchor_forked", path=path, seq=n)
    elif anchor.seq == n + 1 and anchor.done:
        raise LedgerDamaged("anchor_went_back", path=path, seq=n, anchored=anchor.seq)
    elif anchor.seq == n + 1:
        if anchor.prev != head:
            raise LedgerDamaged("anchor_forked", path=path, seq=n)
    elif anchor.seq > n + 1:
        raise LedgerDamaged("anchor_went_far_back", path=path, seq=n, anchored=anchor.seq)
    else:
        raise LedgerDamaged("anchor_foreign_events", path=path, start=anchor.seq + 1, seq=n)
