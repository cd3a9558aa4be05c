"""Starting and opening games: a new ledger checked before a byte is written; a stored one reopened with
its schema, hash chain and anchor checked, the state rebuilt from the newest checkpoint the undo window
allows (`verify_game`: everything replayed)."""

from __future__ import annotations

import json
import os
import tomllib
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, overload

from companion.editions import edition_from_data, load_edition, parse_edition, rules_for
from companion.engine.actions import TABLE
from companion.engine.board import Edition
from companion.engine.game import Game
from companion.engine.rulesets import RULES_VERSION
from companion.engine.snapshot import state_from_text, state_to_text
from companion.engine.state import Event
from companion.errors import (
    BadInput,
    CompanionError,
    EditionError,
    InvariantViolation,
    LedgerDamaged,
    LedgerError,
    Message,
    OutcomeUnknown,
    cause_of,
    check,
)
from companion.ledger import chain
from companion.ledger.anchor import Anchor, anchor_path, default_state_dir, read_place, write_place
from companion.ledger.store import EventRow, Ledger, notes_text, now_text
from companion.table.submit import Table, check_anchor

if TYPE_CHECKING:
    from companion.engine.core import Rules

OPEN_RETRIES = 50  # anchor reads racing a writer before giving up as "busy"
# a ledger file or a folder, as callers name them
PathArg = str | os.PathLike[str]


class EventLog(Sequence[Event]):
    """A game's events read from the ledger on demand: opening never decodes the whole history."""

    def __init__(self, ledger: Ledger, length: int) -> None:
        self.ledger = ledger
        self.length = length
        self.cache: dict[int, Event] = {}

    def __len__(self) -> int:
        return self.length

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | list[Event]:
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


def new_game(
    path: PathArg,
    edition_ref: str | Path | Edition,
    players: Iterable[str],
    seed: int,
    options: dict[str, Any] | None = None,
    state_dir: PathArg | None = None,
    recovered_from: str | None = None,
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


def open_game(
    path: PathArg, *, readonly: bool = False, state_dir: PathArg | None = None, full_replay: bool = False
) -> Table:
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


def _anchor_agrees(
    ledger: Ledger, before: Anchor | None, after: Anchor | None, summary: dict[str, Any], last: bool
) -> bool:
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


def _stored_rules(ledger: Ledger, meta: dict[str, str], reparse: bool = False) -> Rules:
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


def _rebuild(ledger: Ledger, rules: Rules, meta: dict[str, str], summary: dict[str, Any], full_replay: bool) -> Game:
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
    game: Game = Game.resume(rules, EventLog(ledger, seq), state, reversed_)
    try:
        game.replay_onto(row.event for row in ledger.rows(seq, n))
    except InvariantViolation:
        # an undo in the tail reached further back than the checkpoint: replay it all
        return _replay_all(ledger, rules, n, damaged=True)
    if sum(1 for k in game.after if k > seq) < min(window + 1, n - seq):
        return _replay_all(ledger, rules, n, damaged=True)  # the undo window would be shorter than a full replay's
    return game


def _replay_all(ledger: Ledger, rules: Rules, n: int, checkpoints: str | None = None, damaged: bool = False) -> Game:
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


def verify_game(path: PathArg, state_dir: PathArg | None = None) -> Table:
    """Open read-only and replay every event from the start (the full check); returns the table."""
    return open_game(path, readonly=True, state_dir=state_dir, full_replay=True)
