"""The durable, append-only ledger: one SQLite file per game."""
from companion.ledger.store import Ledger, open_game, new_game

__all__ = ["Ledger", "open_game", "new_game"]
