"""The table service: one game paired with its ledger, the single writer every client goes through.

This module is the service's front door; every name callers import lives in one room:
companion/table/submit.py (the Table: submitting a command, catching up, watching the files),
opening.py (starting a game, reopening and verifying a stored one) and recovery.py (a damaged
ledger's verified part replayed into a new game). A command reaches memory only after its event
is committed; opening verifies the schema, the whole hash chain and the anchor.
"""

from companion.table.opening import OPEN_RETRIES, EventLog, PathArg, new_game, open_game, verify_game
from companion.table.recovery import recover_game
from companion.table.submit import (
    BACKUP_EVERY,
    CHECKPOINT_EVERY,
    MAX_REQUEST_ID,
    Table,
    canonical,
    check_anchor,
    fill_dice,
    new_request_id,
    parsed,
)

__all__ = [
    "BACKUP_EVERY",
    "CHECKPOINT_EVERY",
    "MAX_REQUEST_ID",
    "OPEN_RETRIES",
    "PathArg",
    "EventLog",
    "Table",
    "canonical",
    "check_anchor",
    "fill_dice",
    "new_game",
    "new_request_id",
    "open_game",
    "parsed",
    "recover_game",
    "verify_game",
]
