"""The durable, append-only ledger: one hash-chained SQLite file per game, anchored outside it."""

from companion.ledger.store import EventRow, Ledger

__all__ = ["Ledger", "EventRow"]
