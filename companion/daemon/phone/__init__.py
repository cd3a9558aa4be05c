"""The phone page's service on the daemon (service.py wires the parts; web/phone/ is its page).

The names other code imports from `companion.daemon.phone` stay here: the service, its refusals,
the pairing record, the grouping of a board's plots, and the limits the tests read.
"""

from .actions import BET_ONLY, MAX_WORD, MAX_WORDS
from .common import CACHE_LIMIT, LEDGER_PAGE, MARK_LENGTH, READ_CHUNK, Refused, WrongRole, say
from .pairing import PAIR_LINE, PAIR_REPEAT_S, PAIR_RESERVE_S, PAIR_WAIT_S, Pairing
from .roles import CODE_LENGTH, CODE_LETTERS, PIN_CLIENTS, PIN_FORGET_S, PIN_LOCK_MAX_S, PIN_LOCK_S, PIN_TRIES
from .service import PhoneService
from .streams import STREAM_CHUNK, PhoneStream
from .views import board_groups

__all__ = [
    "BET_ONLY",
    "CACHE_LIMIT",
    "CODE_LENGTH",
    "CODE_LETTERS",
    "LEDGER_PAGE",
    "MARK_LENGTH",
    "MAX_WORD",
    "MAX_WORDS",
    "PAIR_LINE",
    "PAIR_REPEAT_S",
    "PAIR_RESERVE_S",
    "PAIR_WAIT_S",
    "PIN_CLIENTS",
    "PIN_FORGET_S",
    "PIN_LOCK_MAX_S",
    "PIN_LOCK_S",
    "PIN_TRIES",
    "READ_CHUNK",
    "STREAM_CHUNK",
    "Pairing",
    "PhoneService",
    "PhoneStream",
    "Refused",
    "WrongRole",
    "board_groups",
    "say",
]
