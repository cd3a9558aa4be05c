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


def event_hash(prev: str, seq: int, actor: str, request_id: str, submitted: str, command: str,
               reverses: int | None, notes: str, created_at: str, state_hash: str | None,
               legs: str) -> str:
    """The chain hash of one event row, given the hash of the one before it."""
    body = SEP.join((prev, str(seq), actor, request_id, submitted, command,
                     "" if reverses is None else str(reverses), notes, created_at,
                     state_hash or "", legs))
    return hashlib.sha256(body.encode()).hexdigest()


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
