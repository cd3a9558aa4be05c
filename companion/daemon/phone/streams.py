"""Live updates to the open pages: each page's stream of events and notices (server-sent events in
web/phone/stream.py), every event put into words once per language and shared by the streams."""

import threading
import time
from collections import OrderedDict, deque
from typing import Any

from companion.engine.actions import TABLE
from companion.words import messages
from companion.words.head import head_words

from ..owner import Owner, Snapshot
from .common import CACHE_LIMIT, MARK_LENGTH
from .reading import Reading, words_of

STREAM_CHUNK = 50  # events a reopened stream replays per read


class EventStreams:
    """Opens the pages' streams and converts what they carry, each event once (a cache the streams share)."""

    def __init__(self, owner: Owner, reading: Reading):
        self.owner = owner
        self.reading = reading
        self._lock = threading.Lock()  # the converted events' cache
        self._convert_lock = threading.Lock()  # one stream converts an event at a time (the writer never takes it)
        self._converted: OrderedDict[tuple[Any, ...], tuple[Any, dict[str, Any]]] = OrderedDict()

    def stream(self, since: int, language: str) -> "PhoneStream":
        """Every event after `since` (replayed first), then each as it commits, with notices between; an
        event of another game (a new one at the same path) ends it with {"kind": "game"}. Opening one asks
        nothing of the writer thread: it follows the writer's snapshot, and the events it replays are read
        through a borrowed read-only connection, a chunk at a time as the page takes them."""
        subscription, snapshot = self.owner.follow()
        return PhoneStream(self, subscription, language, snapshot, since)

    def convert(self, item: Any, language: str, gid: str | None) -> dict[str, Any] | None:
        if item.notice is not None:
            if item.notice.code == "table_warning":  # the banker's banner says it; spectators are not alarmed
                return None
            rules = self.owner.snapshot.rules
            edition = rules.edition if rules is not None else None
            return {
                "kind": "notice",
                "text": messages.render(item.notice.code, item.notice.params, language, edition),
                "code": item.notice.code,
            }
        event = item.event
        if event is None:
            return None
        return self.convert_events([event], language, gid)[0]

    def convert_events(self, events: list[Any], language: str, gid: str | None) -> list[dict[str, Any]]:
        """Each event as a stream item; {"kind": "game"} for one the open game does not hold (a new game at
        the same path, or the stream's game archived)."""
        if self.owner.snapshot.game_id != gid:
            return [{"kind": "game"}]
        with self._convert_lock:  # 50 pages wait for the first to convert it, then read it from the cache
            return [self._converted_event((gid, event.seq, language), event, language) for event in events]

    def _converted_event(self, key: tuple[Any, ...], event: Any, language: str) -> dict[str, Any]:
        with self._lock:
            found = self._converted.get(key)
        if found is not None and found[0].command == event.command:
            return found[1]

        def look(table: Any) -> dict[str, Any]:
            if table is None or table.game_id != key[0] or not 1 <= event.seq <= table.head_seq:
                return {"kind": "game"}  # not this table's event: the game changed under the stream
            lines = words_of(table, event, language)
            out = {
                "kind": "event",
                "id": event.seq,
                "game": table.game_id,
                "seq": event.seq,
                "words": head_words(table.hash_at(event.seq), language),
                "mark": table.hash_at(event.seq)[:MARK_LENGTH],
                "actor": "" if event.actor == TABLE else event.actor,
                "lines": lines,
                "reverses": event.reverses,
            }
            if event.reverses is not None:  # a correction: announced on every phone, with what to put back
                out["announce"] = lines
            return out

        converted = self.reading.read(look)
        if converted["kind"] == "event":
            with self._lock:
                self._converted[key] = (event, converted)
                while len(self._converted) > CACHE_LIMIT:
                    self._converted.popitem(last=False)
        return converted

    def stored_events(self, gid: str | None, after: int, upto: int) -> list[Any]:
        """Events (after, upto] of the game `gid` as stored; [] when the open game is another."""

        def look(table: Any) -> list[Any]:
            if table is None or table.game_id != gid:
                return []
            return table.history.events(after, min(upto, table.head_seq))

        return list(self.reading.read(look))


class PhoneStream:
    """One page's live stream: `get` gives the next item as a dict (None when nothing came in time). The
    events the page missed (after `since`, up to the snapshot it opened on) come first, read a chunk at a
    time; then what the subscription brings, each event once and in order."""

    def __init__(self, streams: EventStreams, subscription: Any, language: str, snapshot: Snapshot, since: int = 0):
        self.streams = streams
        self.subscription = subscription
        self.language = language
        self.game = snapshot.game_id  # the game the page shows: another's event ends the stream
        self.sent = since  # the last event given
        self.replay_to = snapshot.head_seq  # the events up to here are read from the ledger, not subscribed
        self._ready: deque[dict[str, Any]] = deque()

    def get(self, timeout: float) -> dict[str, Any] | None:
        if self._ready:
            return self._ready.popleft()
        if self.sent < self.replay_to:
            events = self.streams.stored_events(self.game, self.sent, min(self.replay_to, self.sent + STREAM_CHUNK))
            if not events:
                return {"kind": "game"}
            return self._give(self.streams.convert_events(events, self.language, self.game))
        if self.subscription.dropped:
            return {"kind": "game"}  # fell too far behind: the page reloads and resumes
        deadline = time.monotonic() + timeout
        while True:
            item = self.subscription.get(timeout=max(0.0, deadline - time.monotonic()))
            if item is not None and item.event is not None and item.event.seq <= self.sent:
                continue  # replayed from the ledger already (it committed while the stream opened)
            break
        converted = self.streams.convert(item, self.language, self.game) if item is not None else None
        if (converted is None or converted["kind"] == "notice") and self.streams.reading.game_id() != self.game:
            return {"kind": "game"}  # archived, or a new game started (its first event is never published)
        if converted is not None and converted["kind"] == "event":
            self.sent = max(self.sent, converted["seq"])
        return converted

    def _give(self, items: list[dict[str, Any]]) -> dict[str, Any]:
        for item in items:
            if item["kind"] == "event":
                self.sent = max(self.sent, item["seq"])
            self._ready.append(item)
            if item["kind"] != "event":
                break
        return self._ready.popleft()

    def close(self) -> None:
        self.subscription.close()
