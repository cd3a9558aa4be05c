"""The ledger's row: one stored event with everything the hash chain covers, and its stored texts."""

import json
from dataclasses import dataclass
from datetime import datetime, timezone

from companion.engine.state import Event, Note, Posting
from companion.ledger import chain


@dataclass(frozen=True)
class EventRow:
    """One stored event with everything the chain covers."""

    event: Event
    actor: str
    request_id: str
    submitted: str
    created_at: str
    state_hash: str | None
    hash: str
    notes_json: str = ""  # the notes exactly as stored (the chain hashes this text)

    def body(self) -> str:
        """The text the chain hashes and the ledger stores (chain.FIELDS, joined)."""
        e = self.event
        return chain.join_body(
            {
                "request_id": self.request_id,
                "seq": e.seq,
                "actor": self.actor,
                "submitted": self.submitted,
                "command": e.command,
                "reverses": e.reverses,
                "notes": self.notes_json or notes_text(e),
                "created_at": self.created_at,
                "state_hash": self.state_hash,
                "legs": legs_of(e),
            }
        )

    def chain_hash(self, prev: str) -> str:
        """This row's hash given the hash before it."""
        return chain.link(prev, self.body())

    @classmethod
    def from_body(cls, seq: int, body: str, hash_: str) -> "EventRow":
        """Decode a stored body; ValueError (and friends) if it is not one, or not event `seq`'s."""
        f = chain.split_body(body)
        if f["seq"] != str(seq):
            raise ValueError(f"the body of event {seq} says it is event {f['seq']}")
        notes = tuple(Note(n.pop("code"), n) for n in json.loads(f["notes"]))
        postings = tuple(
            Posting(account, int(amount))
            for account, _, amount in (leg.rpartition(":") for leg in f["legs"].split(";") if leg)
        )
        reverses = int(f["reverses"]) if f["reverses"] else None
        event = Event(seq, f["command"], postings, notes, reverses, actor=f["actor"])
        return cls(
            event,
            f["actor"],
            f["request_id"],
            f["submitted"],
            f["created_at"],
            f["state_hash"] or None,
            hash_,
            f["notes"],
        )


def now_text() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def legs_of(event: Event) -> str:
    return chain.legs_text((p.account, p.amount) for p in event.postings)


def notes_text(event: Event) -> str:
    return json.dumps([n.as_json() for n in event.notes], ensure_ascii=False)
