"""The hash chain: every event is hashed together with the hash of the event before it.

The chain starts from a hash of the game's settings (the stored edition text,
the rules version, the game id), so editing any stored row, or the settings,
breaks every hash from that point on. A chain can be recomputed by someone
who knows this file, so its head is also kept outside the ledger (anchor.py).
"""
import hashlib
import json

CHAIN_TAG = "companion-ledger/2"
SEP = "\x1f"


def genesis(meta: dict) -> str:
    """The hash the chain starts from: every settings row, in key order."""
    text = CHAIN_TAG + SEP + json.dumps(sorted(meta.items()), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def legs_text(postings) -> str:
    """Postings as the chain sees them: account:amount, in leg order."""
    return ";".join(f"{account}:{amount}" for account, amount in postings)


def event_body(seq: int, actor: str, request_id: str, submitted: str, command: str,
               reverses: int | None, notes: str, created_at: str, state_hash: str | None,
               legs: str) -> str:
    """The text of one event row that the chain hashes (BODY_SQL builds the same text in SQLite)."""
    return SEP.join((str(seq), actor, request_id, submitted, command,
                     "" if reverses is None else str(reverses), notes, created_at,
                     state_hash or "", legs))


# the same text as event_body, built by SQLite so that verifying a long chain stays fast
BODY_SQL = " || char(31) || ".join((
    "seq", "actor", "request_id", "submitted", "command", "COALESCE(reverses, '')", "notes",
    "created_at", "COALESCE(state_hash, '')", "legs"))


def link(prev: str, body: str) -> str:
    """The chain hash of an event body given the hash before it."""
    return hashlib.sha256((prev + SEP + body).encode()).hexdigest()


def event_hash(prev: str, *fields) -> str:
    """The chain hash of one event row (event_body's fields), given the hash before it."""
    return link(prev, event_body(*fields))


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
