"""A game's stored history for threads other than the writer: read-only ledger connections, lent one at a time.

The writer's own connection belongs to the writer thread (Owner); a page, an export or a
stream that needs past events borrows one of these instead, so reading the history of a
long game never waits for, or holds, the writer. The open game's rules, state and head
come from the writer's Snapshot (companion/daemon/owner.py); only events come from here.
"""

import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import overload

from companion.engine.state import Event
from companion.errors import CompanionError, LedgerError
from companion.ledger.store import EventRow, Ledger

READERS = 2  # connections lent at once: the heaviest reads queue here instead of crowding out the writer
BORROW_WAIT_S = 30.0


class GameChanged(LedgerError):
    """The file at the path holds another game than the snapshot asked for (a new game, a file replaced)."""

    def __init__(self, path: str):
        super().__init__("history_other_game", path=path)


class History:
    """One read-only connection to a ledger; one thread uses it at a time (Readers lends it)."""

    def __init__(self, path: str):
        self.path = path
        self.ledger = Ledger(path, readonly=True)
        try:
            rows = self.ledger.rows(0, 1)
        except BaseException:
            self.ledger.close()
            raise
        self.first_hash = rows[0].hash if rows else ""

    @classmethod
    def beside(cls, ledger: Ledger, first_hash: str) -> "History":
        """A History over a connection already open (the writer's own, on the writer thread: an in-memory
        ledger has no other); closing it is its owner's business, not this History's."""
        history = cls.__new__(cls)
        history.path, history.ledger, history.first_hash = ledger.path, ledger, first_hash
        return history

    def rows(self, after: int, upto: int) -> list[EventRow]:
        """Stored events with seq in (after, upto], with actor, request id, time and hash."""
        return self.ledger.rows(after, upto)

    def events(self, after: int, upto: int) -> list[Event]:
        return [row.event for row in self.ledger.rows(after, upto)]

    def hash_at(self, seq: int) -> str:
        found = self.ledger.conn.execute("SELECT hash FROM events WHERE seq = ?", (seq,)).fetchone()
        return str(found[0]) if found else ""

    def close(self) -> None:
        self.ledger.close()


class StoredEvents(Sequence[Event]):
    """The events 1..length as a sequence read on demand (what a Game's `events` gives the words of an undo)."""

    def __init__(self, history: History, length: int, known: Sequence[Event] = ()):
        self.history = history
        self.length = length
        self._cache: dict[int, Event] = {e.seq: e for e in known}

    def __len__(self) -> int:
        return self.length

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | list[Event]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self.length)
            if step == 1:
                return self.history.events(start, stop) if stop > start else []
            return [self[i] for i in range(start, stop, step)]
        if index < 0:
            index += self.length
        if not 0 <= index < self.length:
            raise IndexError(index)
        event = self._cache.get(index + 1)
        if event is None:
            found = self.history.events(index, index + 1)
            if not found:
                raise IndexError(index)
            event = self._cache[index + 1] = found[0]
        return event


class Readers:
    """Read-only connections to the open game's ledger, lent to one thread at a time, at most `size` at once."""

    def __init__(self, size: int = READERS):
        self._size = size
        self._slots = threading.BoundedSemaphore(size)
        self._lock = threading.Lock()
        self._idle: list[History] = []
        self._closed = False

    @contextmanager
    def borrow(self, path: str, first_hash: str, wait: float = BORROW_WAIT_S) -> Iterator[History]:
        """A connection to `path` holding the game whose first event's hash is `first_hash`; GameChanged when
        the file holds another game, TimeoutError when none was free within `wait` seconds."""
        if not self._slots.acquire(timeout=wait):
            raise TimeoutError("no reader connection was free in time")
        history = None
        try:
            with self._lock:
                while self._idle and history is None:
                    candidate = self._idle.pop()
                    if candidate.path == path and candidate.first_hash == first_hash:
                        history = candidate
                    else:
                        candidate.close()
            if history is None:
                history = History(path)
                if history.first_hash != first_hash:
                    history.close()
                    history = None
                    raise GameChanged(path)
            yield history
        except (CompanionError, sqlite3.Error):
            if history is not None:  # a connection that failed mid-read is not lent again
                history.close()
                history = None
            raise
        finally:
            if history is not None:
                with self._lock:
                    if self._closed:
                        history.close()
                    else:
                        self._idle.append(history)
            self._slots.release()

    @contextmanager
    def closed_while(self, wait: float = BORROW_WAIT_S) -> Iterator[None]:
        """No connection open while the block runs: a game moving into the archive must not keep its -wal
        file at the current game's path (the next game would find it "left over from another game"). Waits
        for the connections lent now (a page mid-read: every phone reads as the game ends) and lends none
        until the block is done; closing only the idle ones left a page's read racing the move."""
        deadline = time.monotonic() + wait
        taken = 0
        try:
            while taken < self._size and self._slots.acquire(timeout=max(0.0, deadline - time.monotonic())):
                taken += 1
            with self._lock:
                idle, self._idle = self._idle, []
            for history in idle:
                history.close()
            yield
        finally:
            for _ in range(taken):
                self._slots.release()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for history in idle:
            history.close()
