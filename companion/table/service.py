"""The table service: one game paired with its ledger, the single writer every client goes through.

A command reaches memory only after its event is committed. Each write runs
inside the ledger's write lock: first the table catches up with any event
another process wrote, then it answers a known request id from the ledger,
then it proposes the command to the engine, stores the event (with a
checkpoint of the state every CHECKPOINT_EVERY events), records the new head
in the anchor outside the file and commits. Opening verifies the schema, the
whole hash chain and the anchor, then rebuilds the game from the newest
checkpoint the undo window allows; `verify_game` replays everything.
"""

import itertools
import json
import os
import random
import shutil
import sqlite3
import tempfile
import tomllib
import uuid
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from companion.editions import edition_from_data, load_edition, parse_edition, rules_for
from companion.engine.actions import TABLE, issued
from companion.engine.board import Edition
from companion.engine.command import Command, parse_command
from companion.engine.game import Game, Proposal
from companion.engine.rulesets import RULES_VERSION
from companion.engine.snapshot import state_from_text, state_to_text
from companion.engine.state import Event
from companion.errors import (
    BadCommand,
    BadInput,
    CompanionError,
    DiskFull,
    EditionError,
    InvariantViolation,
    LedgerDamaged,
    LedgerError,
    Message,
    OutcomeUnknown,
    RuleViolation,
    SaidInput,
    StrangerGame,
    cause_of,
    check,
)
from companion.ledger import chain
from companion.ledger.anchor import Anchor, anchor_path, default_state_dir, read_anchor, read_place, write_place
from companion.ledger.store import EventRow, Ledger, notes_text, now_text
from companion.words.head import head_words

CHECKPOINT_EVERY = 10  # events between stored checkpoints of the whole state (~1.5 kB each)
BACKUP_EVERY = 100  # events between backups (SQLite's backup API) beside the ledger
MAX_REQUEST_ID = 100  # characters in a request id (printable ones)
OPEN_RETRIES = 50  # anchor reads racing a writer before giving up as "busy"


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


class EventLog(Sequence):
    """A game's events read from the ledger on demand: opening never decodes the whole history."""

    def __init__(self, ledger: Ledger, length: int):
        self.ledger = ledger
        self.length = length
        self.cache: dict[int, Event] = {}

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.length))]
        if index < 0:
            index += self.length
        if not 0 <= index < self.length:
            raise IndexError(index)
        seq = index + 1
        event = self.cache.get(seq)
        if event is None:
            rows = self.ledger.rows(seq - 1, seq)
            check(len(rows) == 1, f"event {seq} vanished from the ledger")
            event = self.cache[seq] = rows[0].event
        return event

    def append(self, event: Event) -> None:
        check(event.seq == self.length + 1, f"event {event.seq} appended after {self.length}")
        self.length += 1
        self.cache[event.seq] = event


class _FilesChanged(Exception):
    """Inside a write: the ledger file or its anchor is no longer the one opened (rolls the write back)."""


class Table:
    """A game with its ledger: the single writer. Memory changes only after COMMIT."""

    def __init__(self, ledger: Ledger, game: Game, head: tuple[int, str], meta: dict):
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

    @property
    def state(self):
        return self.game.state

    @property
    def rules(self):
        return self.game.rules

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
                    return self.game.events[seq - 1]
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
        event = self.game.accept(proposal)
        self._mark_done(Anchor(row.event.seq, row.hash, self.head_hash, done=True))
        self.head_seq, self.head_hash = row.event.seq, row.hash
        if not self.ledger.memory and event.seq % BACKUP_EVERY == 0:
            self.backup_due = True
        if housekeeping:
            self.housekeeping()
        return event

    def housekeeping(self) -> None:
        """The work an event leaves that nobody waits for: the backup beside the ledger every BACKUP_EVERY
        events (a few milliseconds, kept out of a tap's way on the box)."""
        if self.backup_due:
            self.backup_due = False
            self.backup()

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

    def _row_for(self, proposal: Proposal, actor: str, request_id: str, submitted: str):
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

    def backup(self) -> None:
        try:
            self.ledger.backup(self.ledger.path + ".backup")
        except (OSError, sqlite3.Error) as exc:  # a backup never stops the game
            self.warn(Message("table_backup_failed", detail=str(exc), cause=cause_of(exc)))

    # ----- reading -------------------------------------------------------------------------

    def stored_events(self) -> list[EventRow]:
        """Every stored event with its actor, request id and time (for history views)."""
        with self.ledger.reading():
            return self.ledger.rows(0)

    def reversed_events(self) -> set[int]:
        return set(self.game.reversed)

    def close(self) -> None:
        self.ledger.close()


def fill_dice(rules, command: Command, rng) -> Command:
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


# ----- starting and opening games -------------------------------------------------------------


def new_game(
    path, edition_ref, players, seed, options=None, state_dir=None, recovered_from: str | None = None
) -> Table:
    """Start a game on a new ledger file: the one call every front end uses.

    edition_ref: a shipped edition id, a path to an edition file, or an Edition;
    options: rule options chosen for this game ({key: value}). Everything is
    checked before a byte is written: the stored copy must rebuild this game.
    """
    edition = edition_ref if isinstance(edition_ref, Edition) else load_edition(edition_ref, options)
    rules = rules_for(edition)
    game = Game.start(rules, seed, list(players))
    first = game.events[0]
    # nothing is stored that cannot be replayed: rebuild the game from what would be stored
    try:
        stored_rules = rules_for(parse_edition(edition.text, edition.source))
        again = Game.replay(stored_rules, [first])
    except (CompanionError, ValueError) as exc:
        raise BadInput(f"this game could not be reopened from its stored form ({exc}); nothing was written") from None
    if again.state.signature() != game.state.signature():
        raise BadInput("this game could not be reopened from its stored form; nothing was written")
    game_id = uuid.uuid4().hex
    meta = {
        "game_id": game_id,
        "edition_id": edition.id,
        "edition_text": edition.text,
        "edition_source": edition.source,
        "rules": edition.rules,
        "rules_version": str(RULES_VERSION),
        "created_at": now_text(),
    }
    if recovered_from:
        meta["recovered_from"] = recovered_from
    try:
        # the parsed edition as JSON: reopening a game then skips the TOML parse (docs/reliability.md)
        meta["edition_data"] = json.dumps(tomllib.loads(edition.text), ensure_ascii=False)
    except (TypeError, ValueError, tomllib.TOMLDecodeError):
        pass  # dates and times have no JSON form: the text is parsed instead
    row = EventRow(first, TABLE, f"new-{game_id}", first.command, now_text(), None, "", notes_text(first))
    row = replace(row, hash=row.chain_hash(chain.genesis(meta)))
    existed = str(path) == ":memory:" or Path(path).exists()
    try:
        ledger = Ledger.create(path, meta, row, state_dir=state_dir)
    except BaseException as exc:
        if existed:
            raise
        # nothing of a game that failed to start is kept, so its outcome is known: there is no game
        for leftover in [str(path) + suffix for suffix in ("", "-wal", "-shm", "-journal")] + [
            str(anchor_path(Path(state_dir) if state_dir else default_state_dir(), game_id))
        ]:
            try:
                os.remove(leftover)
            except OSError:
                pass
        if isinstance(exc, OutcomeUnknown):
            raise LedgerError("table_create_unknown", path=str(path)) from None
        if isinstance(exc, OSError):
            raise LedgerError("table_create_failed", path=str(path), detail=exc.strerror, cause=cause_of(exc)) from None
        raise
    table = Table(ledger, game, (1, row.hash), meta)
    if not ledger.memory:
        try:  # this machine keeps this game at this place: a file put here later with another game is a stranger
            write_place(ledger.state_dir, str(path), game_id, row.hash)
        except OSError as exc:
            table.warn(Message("table_place_not_kept", detail=exc.strerror, cause=cause_of(exc)))
    return table


def open_game(path, *, readonly: bool = False, state_dir=None, full_replay: bool = False) -> Table:
    """Reopen a stored game: schema, hash chain and anchor checked, state from the newest checkpoint.

    readonly: never write the file (works on a read-only file or mount).
    full_replay: rebuild from the first event instead of a checkpoint (`companion verify`).
    """
    ledger = Ledger(path, readonly=readonly, state_dir=state_dir)
    try:
        table = _load(ledger, full_replay)
    except BaseException:
        ledger.close()
        raise
    return table


def _load(ledger: Ledger, full_replay: bool) -> Table:
    for attempt in range(OPEN_RETRIES):
        # the anchor as it was before the snapshot began: the snapshot holds at least what it names
        before = None if ledger.memory else ledger.anchor()
        with ledger.reading():
            ledger.check_schema()
            meta = ledger.meta()
            missing = [k for k in ("game_id", "edition_text", "rules_version", "edition_id") if k not in meta]
            if missing:
                raise LedgerDamaged("table_settings_lack", path=ledger.path, key=missing[0])
            summary = ledger.verify_chain(meta, postings=full_replay)
            anchor = None if ledger.memory else ledger.anchor()
            if not _anchor_agrees(ledger, before, anchor, summary, last=attempt == OPEN_RETRIES - 1):
                continue  # the anchor came or went during the read: look again
            first = ledger.hash_at(1) or ""
            rules = _stored_rules(ledger, meta, reparse=full_replay)
            game = _rebuild(ledger, rules, meta, summary, full_replay)
            stored = {k: v for k, v in ledger.balances().items() if v}
            derived = {k: v for k, v in game.state.balances.items() if v}
            if stored != derived:
                # the events (chain-checked) replayed to the derived balances: the postings table is off
                ledger.check_postings()
                raise LedgerDamaged("table_postings_differ", path=ledger.path)
        table = Table(ledger, game, (summary["count"], summary["head"]), meta)
        if not ledger.memory:
            _know_place(table, anchor, first)
        return table
    raise LedgerError("table_kept_changing", path=ledger.path)


def _anchor_agrees(ledger: Ledger, before: Anchor | None, after: Anchor | None, summary: dict, last: bool) -> bool:
    """The snapshot (summary) against this machine's anchor read before and inside it: True if they agree
    or there is no anchor (a stranger's game); LedgerDamaged if they disagree; False: look again.

    A busy writer moves the anchor on while a reader reads; the snapshot then still holds the event the
    anchor named before it began (or the one before it, while that was an intent in flight), so a reader
    never has to wait for a quiet moment. An anchor that stayed put must agree with the snapshot exactly.
    """
    n, head = summary["count"], summary["head"]
    if after is None:
        return before is None or last  # gone during the read: look again, then it is a stranger's game
    try:
        check_anchor(ledger.path, after, n, head)
        return True
    except LedgerDamaged:
        if before == after:
            raise  # the anchor stayed put: the file disagrees with it
        if before is not None and after.seq >= n and _snapshot_holds(ledger, before, n, head):
            return True  # a writer moved on after the snapshot began
        if last:
            raise
        return False  # an anchor was made during the read (a game accepted): look again


def _snapshot_holds(ledger: Ledger, anchor: Anchor, n: int, head: str) -> bool:
    """True if the snapshot (n events, head hash) holds the event `anchor` names, or, while that was only an
    intent, the event before it."""
    if anchor.seq <= n and ledger.hash_at(anchor.seq) == anchor.head:
        return True
    if anchor.done or anchor.seq > n + 1 or anchor.seq < 2:
        return False
    return (head if anchor.seq == n + 1 else ledger.hash_at(anchor.seq - 1)) == anchor.prev


def _know_place(table: Table, anchor: Anchor | None, first: str) -> None:
    """Mark a stranger's game read-only (Table.readonly_reason); remember where this machine's own game lives."""
    ledger = table.ledger
    game_id = table.meta["game_id"]
    place = read_place(ledger.state_dir, ledger.path)
    words = {"game": game_id[:8], "count": table.head_seq, "head": table.head_hash}
    reason = None
    if place is not None and (place.game_id, place.first) != (game_id, first):
        reason = Message("stranger_replaced", kept=place.game_id[:8], **words)
    elif anchor is None:
        reason = Message("stranger_anchor_gone" if place is not None else "stranger_copied", **words)
    if reason is not None:
        table.readonly_reason, table.stranger = reason, True
        return
    if place is None and not ledger.readonly:
        try:  # a game from before places were kept: remember it now, so a file put in its place is noticed
            write_place(ledger.state_dir, ledger.path, game_id, first)
        except OSError as exc:
            table.warn(Message("table_place_not_kept", detail=exc.strerror, cause=cause_of(exc)))


def _stored_rules(ledger: Ledger, meta: dict, reparse: bool = False):
    """The rules of the stored edition: from its JSON copy, or (reparse) from its text, checked equal."""
    source = f"{ledger.path} (stored edition)"
    try:
        if "edition_data" in meta and not reparse:
            edition = edition_from_data(json.loads(meta["edition_data"]), source, meta["edition_text"])
        else:
            edition = parse_edition(meta["edition_text"], source)
            if "edition_data" in meta and json.loads(meta["edition_data"]) != tomllib.loads(edition.text):
                raise LedgerDamaged("table_edition_copies_differ", path=ledger.path)
    except ValueError as exc:
        detail = f"{exc.key}: {exc.problem}" if isinstance(exc, EditionError) else str(exc)
        raise LedgerDamaged("table_edition_broken", path=ledger.path, detail=detail) from None
    if edition.id != meta["edition_id"]:
        raise LedgerDamaged(
            "table_edition_mismatch", path=ledger.path, stored_edition=edition.id, settings_edition=meta["edition_id"]
        )
    return rules_for(edition)


def _rebuild(ledger: Ledger, rules, meta: dict, summary: dict, full_replay: bool) -> Game:
    n = summary["count"]
    written_under = meta["rules_version"]
    if written_under != str(RULES_VERSION):
        try:
            return _replay_all(ledger, rules, n, checkpoints="hashes" if full_replay else None)
        except InvariantViolation as exc:
            raise LedgerError(
                "table_rules_version", path=ledger.path, written=written_under, current=RULES_VERSION, detail=str(exc)
            ) from None
    if full_replay:
        return _replay_all(ledger, rules, n, checkpoints="states", damaged=True)
    window = rules.opt["undo_window"]
    found = ledger.checkpoint(n - window - 1)
    if found is None:
        return _replay_all(ledger, rules, n, damaged=True)
    seq, text, state_hash = found
    if chain.text_hash(text) != state_hash:
        raise LedgerDamaged("table_checkpoint_hash", path=ledger.path, seq=seq)
    try:
        state = state_from_text(text)
    except (ValueError, KeyError, TypeError) as exc:
        raise LedgerDamaged("table_checkpoint_unreadable", path=ledger.path, seq=seq, detail=str(exc)) from None
    reversed_ = {target for target, undo in summary["reversed"].items() if undo <= seq}
    game = Game.resume(rules, EventLog(ledger, seq), state, reversed_)
    try:
        game.replay_onto(row.event for row in ledger.rows(seq, n))
    except InvariantViolation:
        # an undo in the tail reached further back than the checkpoint: replay it all
        return _replay_all(ledger, rules, n, damaged=True)
    if sum(1 for k in game.after if k > seq) < min(window + 1, n - seq):
        return _replay_all(ledger, rules, n, damaged=True)  # the undo window would be shorter than a full replay's
    return game


def _replay_all(ledger: Ledger, rules, n: int, checkpoints: str | None = None, damaged: bool = False) -> Game:
    """The game replayed from its first event.

    checkpoints: "hashes" checks every stored checkpoint against the hash its event holds; "states" also
    against the state replayed to it (`companion verify`). damaged: an event that does not replay as
    stored is LedgerDamaged (its chain is intact, so the file was written so, by hand or by a bug),
    else the InvariantViolation is left to the caller (a game of another rules version).
    """
    rows = ledger.rows(0, n)
    stored = {seq: text for seq, text in ledger.checkpoints()} if checkpoints else {}
    game: Game | None = None
    try:
        for row in rows:
            seq = row.event.seq
            if game is None:
                game = Game.replay(rules, [row.event])
                log = EventLog(ledger, 1)
                log.cache[1] = row.event
                game.events = log
            else:
                game.replay_onto((row.event,))
            if checkpoints:
                _check_checkpoint(ledger.path, row, stored.pop(seq, None), game if checkpoints == "states" else None)
    except InvariantViolation as exc:
        if not damaged:
            raise
        # chained, not hidden: the one-line message says what a person can do, a traceback (a test's child
        # process, the journal) then also says which check the event failed
        raise LedgerDamaged("table_replay_differs", path=ledger.path, seq=seq) from exc
    if stored:
        raise LedgerDamaged("table_checkpoint_stray", path=ledger.path, seq=min(stored))
    if game is None:  # verify_chain found at least one event
        raise InvariantViolation(f"{ledger.path}: no event to replay")
    return game


def _check_checkpoint(path: str, row: EventRow, text: str | None, game: Game | None) -> None:
    """One event's checkpoint: present exactly where the chain holds its hash, matching that hash, and (game
    given) the very state the events replay to there."""
    if row.state_hash is None:
        if text is not None:
            raise LedgerDamaged("table_checkpoint_stray", path=path, seq=row.event.seq)
        return
    if text is None:
        raise LedgerDamaged("table_checkpoint_missing", path=path, seq=row.event.seq)
    if chain.text_hash(text) != row.state_hash:
        raise LedgerDamaged("table_checkpoint_hash", path=path, seq=row.event.seq)
    if game is not None and chain.text_hash(state_to_text(game.state)) != row.state_hash:
        raise LedgerDamaged("table_checkpoint_state", path=path, seq=row.event.seq)


def verify_game(path, state_dir=None) -> Table:
    """Open read-only and replay every event from the start (the full check); returns the table."""
    return open_game(path, readonly=True, state_dir=state_dir, full_replay=True)


# ----- recovering a damaged ledger ------------------------------------------------------------


def _salvage(path: str, state_dir=None) -> tuple[dict, list[EventRow]]:
    """The settings and the longest run of events that still verify, read from a copy of the file.

    The copy (with its -wal) lives in a temporary folder, so SQLite's own
    recovery of the -wal happens there and the damaged file stays as it is.
    """
    with tempfile.TemporaryDirectory(prefix="companion-recover-") as folder:
        copy = os.path.join(folder, "ledger.sqlite")
        try:
            shutil.copyfile(path, copy)
            if os.path.exists(path + "-wal"):
                shutil.copyfile(path + "-wal", copy + "-wal")
        except OSError as exc:
            raise LedgerError("ledger_unreadable", path=path, detail=exc.strerror, cause=cause_of(exc)) from None
        try:
            conn = sqlite3.connect(copy, isolation_level=None)
        except sqlite3.Error as exc:
            raise LedgerDamaged("recover_unreadable", path=path, detail=str(exc), cause=cause_of(exc)) from None
        try:
            return _salvage_rows(conn, path)
        finally:
            conn.close()


def _salvage_rows(conn, path: str) -> tuple[dict, list[EventRow]]:
    try:
        meta = dict(conn.execute("SELECT key, value FROM meta"))
    except sqlite3.Error as exc:
        raise LedgerDamaged("recover_no_settings", path=path, detail=str(exc), cause=cause_of(exc)) from None
    if not {"game_id", "edition_text", "edition_id"} <= set(meta):
        raise LedgerDamaged("recover_incomplete_settings", path=path)
    prev, rows, seq = chain.genesis(meta), [], 1
    while True:
        try:
            found = conn.execute("SELECT body, hash FROM events WHERE seq = ?", (seq,)).fetchone()
        except (sqlite3.Error, UnicodeDecodeError):
            break
        if found is None:
            break
        try:
            row = EventRow.from_body(seq, *found)
            ok = row.chain_hash(prev) == found[1] == chain.link(prev, found[0])
        except (ValueError, KeyError, TypeError, AttributeError):
            ok = False
        if not ok:
            break
        rows.append(row)
        prev, seq = found[1], seq + 1
    return meta, rows


def recover_game(path, to, state_dir=None) -> tuple[Table, list[Message]]:
    """Replay the verified part of a damaged ledger (or of its backup) into a new game file.

    The new game says where it came from; events after the last verified one
    are lost and must be entered again. Returns the new table and a report (lines said at the edge).
    """
    path = str(path)
    sources: list = []
    problems: list[CompanionError] = []
    for source in (path, path + ".backup"):
        if not os.path.exists(source):
            continue
        try:
            meta, rows = _salvage(source, state_dir)
        except CompanionError as exc:
            problems.append(exc)
            continue
        sources.append((len(rows), source, meta, rows))
    if not sources or max(s[0] for s in sources) == 0:
        raise LedgerDamaged("recover_nothing", path=path, errors=problems)
    count, source, meta, rows = max(sources, key=lambda s: s[0])
    report: list[Message] = []
    ledger_dir = Path(state_dir) if state_dir else None
    anchor = read_anchor(anchor_path(ledger_dir or default_state_dir(), meta["game_id"]))
    if anchor is not None:
        if anchor.seq <= len(rows) and rows[anchor.seq - 1].hash == anchor.head:
            if len(rows) > anchor.seq:
                report.append(Message("recover_left_out", start=anchor.seq + 1, end=len(rows)))
            rows = rows[: anchor.seq]
        elif anchor.seq > len(rows):
            report.append(Message("recover_lost", anchored=anchor.seq, start=len(rows) + 1, end=anchor.seq))
        else:
            report.append(Message("recover_differs", anchored=anchor.seq))
    try:
        edition = parse_edition(meta["edition_text"], f"{source} (stored edition)")
        edition_id, seed, players = Game.parse_start(rows[0].event.command)
    except CompanionError as exc:
        raise LedgerDamaged("recover_no_start", path=source, error=exc) from None
    last = rows[-1]
    origin = f"game {meta['game_id'][:8]} ({path}) at event {last.event.seq}, head {head_words(last.hash)}"
    table = new_game(to, edition, players, seed, state_dir=state_dir, recovered_from=origin)
    replayed = 1
    try:
        for row in rows[1:]:
            try:
                table.submit(row.event.command, request_id=row.request_id, actor=row.actor, submitted=row.submitted)
            except RuleViolation:
                report.append(Message("recover_stopped", seq=row.event.seq, command=row.event.command))
                break
            replayed += 1
    except BaseException:
        table.close()
        raise
    report.insert(
        0,
        Message(
            "recover_done",
            count=replayed,
            source=source,
            new_path=str(to),
            game=meta["game_id"][:8],
            path=path,
            seq=last.event.seq,
            head=last.hash,
        ),
    )
    return table, report
