"""The hash chain: every event is hashed together with the hash of the event before it.

The chain starts from a hash of the game's settings (the stored edition text,
the rules version, the game id), so editing any stored row, or the settings,
breaks every hash from that point on. A chain can be recomputed by someone
who knows this file, so its head is also kept outside the ledger (anchor.py).
"""

import hashlib
import json
from collections.abc import Iterable

CHAIN_TAG = "companion-ledger/2"
SEP = "\x1f"


def genesis(meta: dict[str, str]) -> str:
    """The hash the chain starts from: every settings row, in key order."""
    text = CHAIN_TAG + SEP + json.dumps(sorted(meta.items()), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def legs_text(postings: Iterable[tuple[str, int]]) -> str:
    """Postings as the chain sees them: account:amount, in leg order."""
    return ";".join(f"{account}:{amount}" for account, amount in postings)


# the fields of an event's body, in order; none may hold SEP (commands refuse control characters,
# JSON escapes them, request ids are checked), so the body splits back into exactly these
FIELDS = ("request_id", "seq", "actor", "submitted", "command", "reverses", "notes", "created_at", "state_hash", "legs")


def join_body(fields: dict[str, object]) -> str:
    """An event's body: the text the chain hashes and the ledger stores."""
    return SEP.join("" if fields[name] is None else str(fields[name]) for name in FIELDS)


def split_body(body: str) -> dict[str, str]:
    """The fields of a body (all text; empty for none); ValueError if it does not have them all."""
    parts = body.split(SEP)
    if len(parts) != len(FIELDS):
        raise ValueError(f"an event body has {len(parts)} fields, not {len(FIELDS)}")
    return dict(zip(FIELDS, parts, strict=True))


def link(prev: str, body: str) -> str:
    """The chain hash of an event body given the hash before it."""
    return hashlib.sha256((prev + SEP + body).encode()).hexdigest()


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
