"""The ledger's reads (inside `Ledger.reading()` or `writing()`): settings, events, checkpoints, balances,
and the checks of what is read back (schema, postings, the whole hash chain)."""

import hashlib
import sqlite3
from typing import Any

from companion.errors import LedgerDamaged, LedgerError
from companion.ledger import chain, schema
from companion.ledger.row import EventRow


class LedgerReads:
    """The reading half of `Ledger` (companion/ledger/store.py): every query of the stored game."""

    path: str
    conn: sqlite3.Connection
    _game_id: str | None

    def meta(self) -> dict[str, str]:
        return dict(self.conn.execute("SELECT key, value FROM meta"))

    @property
    def game_id(self) -> str:
        if self._game_id is None:
            row = self.conn.execute("SELECT value FROM meta WHERE key = 'game_id'").fetchone()
            if row is None:
                raise LedgerDamaged("ledger_no_settings", path=self.path)
            self._game_id = row[0]
        return self._game_id

    def check_schema(self) -> None:
        found = schema.schema_rows(self.conn)
        if found != schema.expected_schema():
            missing = sorted(set(schema.expected_schema()) - set(found))
            extra = sorted(set(found) - set(schema.expected_schema()))
            entry, name = (missing or extra)[0][:2]
            raise LedgerDamaged(
                "ledger_schema_missing" if missing else "ledger_schema_added", path=self.path, entry=entry, name=name
            )

    def last_seq(self) -> int:
        last: int = self.conn.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0]
        return last

    def rows(self, after: int = 0, upto: int | None = None) -> list[EventRow]:
        """Stored events with seq in (after, upto], in order, decoded from their bodies."""
        upto = self.last_seq() if upto is None else upto
        out = []
        for seq, body, hash_ in self.conn.execute(
            "SELECT seq, body, hash FROM events WHERE seq > ? AND seq <= ? ORDER BY seq", (after, upto)
        ):
            try:
                out.append(EventRow.from_body(seq, body, hash_))
            except (ValueError, KeyError, TypeError, AttributeError):
                raise LedgerDamaged("ledger_event_damaged", path=self.path, seq=seq) from None
        return out

    def check_postings(self) -> None:
        """The postings table says, event by event, what the chain says; LedgerDamaged if not.

        Opening reads postings from the event bodies (covered by the chain) and
        compares the table's sums per account with the replayed balances; this
        full check runs in `companion verify`.
        """
        table: dict[int, list[tuple[str, int]]] = {}
        for seq, account, amount in self.conn.execute("SELECT seq, account, amount FROM postings ORDER BY seq, leg"):
            table.setdefault(seq, []).append((account, amount))
        for seq, body in self.conn.execute("SELECT seq, body FROM events ORDER BY seq"):
            if body.rpartition(chain.SEP)[2] != chain.legs_text(table.pop(seq, [])):
                raise LedgerDamaged("ledger_postings_changed", path=self.path, seq=seq)
        if table:
            raise LedgerDamaged("ledger_postings_orphaned", path=self.path, seq=min(table))

    def verify_chain(self, meta: dict[str, str], postings: bool = False) -> dict[str, Any]:
        """Recompute every hash from the settings on; LedgerDamaged at the first that differs.

        postings: also check the postings table event by event (check_postings).
        Returns {"count", "head", "prev", "reversed"} for the whole stored chain,
        where "reversed" maps each undone event to the undo that reversed it.
        """
        conn = self.conn
        count, first, last = conn.execute("SELECT COUNT(*), MIN(seq), MAX(seq) FROM events").fetchone()
        if not count:
            raise LedgerError("ledger_no_game", path=self.path)
        if first != 1 or last != count:
            raise LedgerDamaged("ledger_events_missing", path=self.path, count=count, first=first, last=last)
        if postings:
            self.check_postings()
        prev = before = chain.genesis(meta)
        sep, reversed_ = chain.SEP, {}
        sha256 = hashlib.sha256
        # the hot loop of every open: chain.link inlined, the request id copy checked by prefix
        for seq, request_id, body, stored in conn.execute(
            "SELECT seq, request_id, body, hash FROM events ORDER BY seq"
        ):
            if (
                not (isinstance(body, str) and isinstance(request_id, str) and body.startswith(request_id + sep))
                or sha256((prev + sep + body).encode()).hexdigest() != stored
            ):
                raise LedgerDamaged("ledger_hash_mismatch", path=self.path, seq=seq)
            if "\x1fundo " in body:
                fields = body.split(sep, 6)
                if fields[4].startswith("undo ") and fields[5]:
                    reversed_[int(fields[5])] = seq
            before, prev = prev, stored
        return {"count": count, "head": prev, "prev": before, "reversed": reversed_}

    def request(self, request_id: str | None) -> tuple[int, str, str] | None:
        """(seq, actor, submitted) of a stored request id, or None."""
        found = self.conn.execute("SELECT seq, body FROM events WHERE request_id = ?", (request_id,)).fetchone()
        if found is None:
            return None
        try:
            fields = chain.split_body(found[1])
        except (ValueError, AttributeError):
            fields = {}
        if fields.get("request_id") != request_id or fields.get("seq") != str(found[0]):
            raise LedgerDamaged("ledger_request_changed", path=self.path, seq=found[0])
        return found[0], fields["actor"], fields["submitted"]

    def checkpoint(self, at_most: int) -> tuple[int, str, str] | None:
        """(seq, state text, state hash) of the newest checkpoint at or before at_most, or None."""
        found = self.conn.execute(
            "SELECT c.seq, c.state, e.body FROM checkpoints c JOIN events e USING (seq) "
            "WHERE c.seq <= ? ORDER BY c.seq DESC LIMIT 1",
            (at_most,),
        ).fetchone()
        if found is None:
            return None
        try:
            state_hash = chain.split_body(found[2])["state_hash"]
        except (ValueError, AttributeError):
            state_hash = ""
        return found[0], found[1], state_hash

    def hash_at(self, seq: int) -> str | None:
        """The stored hash of event seq (the chain's), or None if there is no such event."""
        found = self.conn.execute("SELECT hash FROM events WHERE seq = ?", (seq,)).fetchone()
        return found[0] if found else None

    def checkpoints(self) -> sqlite3.Cursor:
        """(seq, state text) of every stored checkpoint, in order (for `companion verify`)."""
        return self.conn.execute("SELECT seq, state FROM checkpoints ORDER BY seq")

    def balances(self) -> dict[str, int]:
        return dict(self.conn.execute("SELECT account, SUM(amount) FROM postings GROUP BY account"))
