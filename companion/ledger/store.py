"""SQLite storage for one game: one writer, one transaction per event, WAL + FULL.

`Ledger` stores events; `Table` (in open_game/new_game) pairs a ledger with the
in-memory Game so that an event reaches memory only after its COMMIT returned.
"""
import json
import sqlite3
from pathlib import Path
from datetime import datetime, timezone

from companion.editions import load_edition, parse_edition, rules_for
from companion.errors import InvariantViolation, LedgerError, check
from companion.engine.game import Game
from companion.engine.state import Event, Note, Posting
from companion.ledger.schema import migrate


def connect(path):
    """A connection set up the way every ledger connection must be."""
    try:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA busy_timeout=5000")
    except sqlite3.DatabaseError as exc:
        raise LedgerError(f"{path}: not a usable ledger ({exc})") from None
    return conn


def now_text():
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class Ledger:
    def __init__(self, path):
        self.path = str(path)
        self.conn = connect(self.path)
        try:
            migrate(self.conn)
        except sqlite3.DatabaseError as exc:
            self.conn.close()
            raise LedgerError(f"{self.path}: not a usable ledger ({exc})") from None
        except BaseException:
            self.conn.close()
            raise

    def close(self):
        self.conn.close()

    def meta(self):
        return dict(self.conn.execute("SELECT key, value FROM meta"))

    def is_empty(self):
        return self.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 0

    def transaction(self, work):
        """Run work() inside BEGIN IMMEDIATE ... COMMIT; any failure rolls back and is reported.

        SQLite's own errors (a locked file, a full disk, another writer's rows)
        become LedgerErrors that say so; nothing is half-written either way.
        """
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            result = work()
            conn.execute("COMMIT")
            return result
        except BaseException as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.IntegrityError):
                raise LedgerError(f"{self.path}: another program wrote to this game meanwhile; "
                                  "reopen it (one writer per game)") from None
            if isinstance(exc, sqlite3.Error):
                raise LedgerError(f"{self.path}: the event was not written ({exc})") from None
            raise

    def begin_game(self, edition, event):
        """Write the settings and the first event in one transaction."""
        def work():
            if self.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]:
                raise LedgerError(f"{self.path} already holds a game")
            self.conn.executemany("INSERT INTO meta(key, value) VALUES (?, ?)", [
                ("edition_id", edition.id), ("edition_text", edition.text),
                ("edition_source", edition.source), ("created_at", now_text())])
            self._insert(event, None)
        self.transaction(work)

    def append(self, event, request_id=None):
        """Write one event and its postings in one transaction; returns its seq.

        A request id seen before returns the seq already stored (a retry).
        """
        def work():
            if request_id is not None:
                seq = self.seq_for_request(request_id)
                if seq is not None:
                    return seq
            self._insert(event, request_id)
            return event.seq
        return self.transaction(work)

    def seq_for_request(self, request_id):
        row = self.conn.execute("SELECT seq FROM requests WHERE request_id = ?", (request_id,)).fetchone()
        return row[0] if row else None

    def _insert(self, event, request_id):
        check(sum(p.amount for p in event.postings) == 0, f"event {event.seq} does not sum to zero")
        notes = json.dumps([n.as_json() for n in event.notes], ensure_ascii=False)
        self.conn.execute(
            "INSERT INTO events(seq, command, reverses, notes, created_at) VALUES (?,?,?,?,?)",
            (event.seq, event.command, event.reverses, notes, now_text()))
        if request_id is not None:
            self.conn.execute("INSERT INTO requests(request_id, seq) VALUES (?, ?)", (request_id, event.seq))
        self.conn.executemany(
            "INSERT INTO postings(seq, leg, account, amount) VALUES (?,?,?,?)",
            [(event.seq, i, p.account, p.amount) for i, p in enumerate(event.postings)])
        # pair assertion: read back what was written, inside the same transaction
        total, = self.conn.execute("SELECT COALESCE(SUM(amount), 0) FROM postings WHERE seq = ?",
                                   (event.seq,)).fetchone()
        check(total == 0, f"event {event.seq} stored postings do not sum to zero")

    def events(self):
        legs = {}
        for seq, account, amount in self.conn.execute(
                "SELECT seq, account, amount FROM postings ORDER BY seq, leg"):
            legs.setdefault(seq, []).append(Posting(account, amount))
        out = []
        for seq, command, reverses, notes, created in self.conn.execute(
                "SELECT seq, command, reverses, notes, created_at FROM events ORDER BY seq"):
            check(seq == len(out) + 1, f"event {seq} follows {len(out)}: a gap in the ledger")
            note_objs = tuple(Note(n.pop("code"), n) for n in json.loads(notes))
            out.append(Event(seq, command, tuple(legs.get(seq, ())), note_objs, reverses))
        return out

    def balances(self):
        return dict(self.conn.execute("SELECT account, SUM(amount) FROM postings GROUP BY account"))

    def created_at(self):
        return dict(self.conn.execute("SELECT seq, created_at FROM events"))


class Table:
    """A game with its ledger: the single writer. Memory changes only after COMMIT."""

    def __init__(self, ledger, game):
        self.ledger = ledger
        self.game = game
        self.halted = None

    @property
    def state(self):
        return self.game.state

    @property
    def rules(self):
        return self.game.rules

    def submit(self, line, request_id=None):
        """Apply one command durably; returns the Event. RuleViolation changes nothing."""
        if self.halted:
            raise InvariantViolation(f"the bank is halted: {self.halted}")
        if request_id is not None:
            # a retry of a command already stored: answer with its event, whatever the state now
            seq = self.ledger.seq_for_request(request_id)
            if seq is not None and seq <= len(self.game.events):
                return self.game.events[seq - 1]
        try:
            proposal = self.game.propose(line)
            seq = self.ledger.append(proposal.event, request_id)
            if seq != proposal.event.seq:        # a retried request: already stored
                return self.game.events[seq - 1]
            event = self.game.accept(proposal)
        except InvariantViolation as exc:
            self.halted = str(exc)
            raise
        return event

    def verify(self):
        """Balances from the stored postings equal the engine's: a startup check."""
        stored = {k: v for k, v in self.ledger.balances().items() if v}
        derived = {k: v for k, v in self.game.state.balances.items() if v}
        check(stored == derived, f"ledger balances {stored} differ from replay {derived}")

    def close(self):
        self.ledger.close()


def new_game(path, edition_ref, players, seed, options=None):
    """Start a game on a new ledger file: the one call every front end uses.

    edition_ref: a shipped edition id, a path to an edition file, or an Edition;
    options: rule options chosen for this game ({key: value}).
    """
    edition = load_edition(edition_ref, options) if isinstance(edition_ref, str) else edition_ref
    rules = rules_for(edition)
    game = Game.start(rules, seed, players)
    ledger = Ledger(path)
    try:
        ledger.begin_game(edition, game.events[0])
    except BaseException:
        ledger.close()
        raise
    return Table(ledger, game)


def open_game(path):
    """Reopen a stored game: replay every event and check it against the ledger."""
    if str(path) != ":memory:" and not Path(path).exists():
        raise LedgerError(f"{path} holds no game yet (start one with `companion new`)")
    ledger = Ledger(path)
    try:
        if ledger.is_empty():
            raise LedgerError(f"{path} holds no game yet (start one with `companion new`)")
        meta = ledger.meta()
        edition = parse_edition(meta["edition_text"], meta.get("edition_source", "stored edition"))
        game = Game.replay(rules_for(edition), ledger.events())
        table = Table(ledger, game)
        table.verify()
    except BaseException:
        ledger.close()
        raise
    return table
