"""Recovering a damaged ledger: the longest run of events that still verify (in the file or its backup),
replayed into a new game file that says where it came from."""

import os
import shutil
import sqlite3
import tempfile
from pathlib import Path

from companion.editions import parse_edition
from companion.engine.game import Game
from companion.errors import (
    CompanionError,
    LedgerDamaged,
    LedgerError,
    Message,
    RuleViolation,
    cause_of,
)
from companion.ledger import chain
from companion.ledger.anchor import anchor_path, default_state_dir, read_anchor
from companion.ledger.store import EventRow
from companion.table.opening import PathArg, new_game
from companion.table.submit import Table
from companion.words.head import head_words


def _salvage(path: str, state_dir: PathArg | None = None) -> tuple[dict[str, str], list[EventRow]]:
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


def _salvage_rows(conn: sqlite3.Connection, path: str) -> tuple[dict[str, str], list[EventRow]]:
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


def recover_game(path: PathArg, to: PathArg, state_dir: PathArg | None = None) -> tuple[Table, list[Message]]:
    """Replay the verified part of a damaged ledger (or of its backup) into a new game file.

    The new game says where it came from; events after the last verified one
    are lost and must be entered again. Returns the new table and a report (lines said at the edge).
    """
    path = str(path)
    sources: list[tuple[int, str, dict[str, str], list[EventRow]]] = []
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
