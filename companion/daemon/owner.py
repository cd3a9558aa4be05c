"""The game's owner: one writer thread alone touches the table; the rest hand it work and listen.

The reader, the buttons, the phones and `companion do` all call `Owner.submit`
(actor, command, request id) from their own threads; the request waits in one
queue and the writer thread applies it, so two taps at once can never race in
the ledger. Every committed event is then published, in order and with its
sequence number, to each subscription; a listener that lost its place
subscribes again with the last number it saw and gets the rest replayed first.

When idle the writer looks at SQLite's `data_version`: a change means another
process wrote to the ledger (a `companion undo` at a terminal, say), so the
table catches up and the new events are published like its own.

The receipt comes first. The interpreter runs one thread at a time, so every
thread woken by a commit (the printer, the phones' relay, the writer's own
after-work) would make the OLED's thread wait its turn to draw what the table
waits to see. So the events a job commits are held until the job ends; then the
screen's subscription (`lead`) gets them, the writer waits (at most LEAD_WAIT_S)
until that screen has drawn the last one, and only then tells the reader its
dice (`on_commit`), takes the snapshot and publishes to everyone else. A notice
said on the writer thread while events are held waits behind them, in order.

After each commit (and each change of game) the writer also publishes a
`Snapshot`: the rules, the state, the head and what an off-thread reader needs to
find the history, all immutable. Pages, exports and streams read that (and the
stored history through their own read-only connection, companion/table/history.py),
never the writer thread: a heavy page never delays a tap.
"""

import logging
import queue
import random
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from companion.engine.command import Command
from companion.engine.state import Event
from companion.errors import (
    CompanionError,
    InvariantViolation,
    LedgerDamaged,
    LedgerError,
    OutcomeUnknown,
    RuleViolation,
    check,
)
from companion.table.service import Table, new_request_id

from .relay import Relay

log = logging.getLogger("companion.owner")

IDLE_CHECK_S = 0.25  # how often an idle writer looks for other processes' writes
LEAD_WAIT_S = 0.25  # the longest the writer waits for the screen's receipt before telling everyone else
MAX_BEHIND = 10_000  # items a subscription may hold unread before it is dropped (it resubscribes)
ANSWER_WITHIN_S = 30.0  # how long a caller waits for the writer by default (daemon.answer_seconds)
_OWN_TIMEOUT = -1.0  # call()'s default: the owner's answer_timeout


class OwnerStopped(LedgerError):
    """The daemon is stopping (or stopped): the request was not applied."""

    def __init__(self):
        super().__init__("daemon_stopping")


class WriterBusy(LedgerError):
    """The writer did not start the request within the caller's wait: it was withdrawn, nothing was done."""

    def __init__(self, seconds: float):
        super().__init__("owner_busy", seconds=_seconds(seconds))


def _seconds(seconds: float) -> str:
    return f"{seconds:g}"


class NoGame(RuleViolation):
    """The box holds no game right now: start one first."""

    def __init__(self):
        super().__init__("no_game_open")


@dataclass(frozen=True)
class Notice:
    """Something the screens say that is not a ledger event: the reader went offline, a tap was refused."""

    code: str
    params: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Published:
    """One item a subscription receives: a committed event (with the game's id) or a notice."""

    event: Event | None = None
    notice: Notice | None = None
    game: str = ""  # the ledger path of the game the event belongs to


@dataclass(frozen=True)
class Snapshot:
    """The open game as its last commit left it, for any thread to read without the writer or a lock.

    Every field is immutable (the engine's State is: applying a command makes a new one) and the writer
    replaces the whole snapshot after each commit, so a reader holding one sees one consistent moment.
    The events themselves are not here: they are read from the ledger at `path` by a connection of the
    reading thread's own (companion/table/history.py), up to `head_seq`."""

    path: str = ""  # the ledger file ("" when no game is open)
    first_hash: str = ""  # the hash of the game's first event: a new game at the same path has another
    rules: Any = None
    state: Any = None
    head_seq: int = 0
    head_hash: str = ""
    reversed: frozenset[int] = frozenset()  # the events an undo reversed
    meta: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    memory: bool = False  # an in-memory ledger (tests): no other connection can read it

    @property
    def open(self) -> bool:
        return self.state is not None

    @property
    def game_id(self) -> str | None:
        """A short id of the open game: the first 12 hex digits of its first event's hash."""
        return (self.first_hash[:12] or "0") if self.open else None


NO_GAME = Snapshot()


class Subscription:
    """What one listener reads, in order: `get` blocks up to `timeout` and gives None when nothing came."""

    def __init__(self, owner: "Owner", stir: threading.Event | None = None):
        self._owner = owner
        self._stir = stir  # set at each put: a listener waiting on more than this subscription (the OLED)
        self._items: queue.Queue[Published | None] = queue.Queue()
        self.dropped = False  # fell MAX_BEHIND items behind: resubscribe from the last seq seen
        self.given = 0  # items put so far (the screen's: how far the writer waits for it to have drawn)
        self._count = threading.Lock()  # several threads put (the writer, announcers, the relay)

    def put(self, item: Published) -> None:
        if self._items.qsize() >= MAX_BEHIND:
            self.dropped = True
            self._owner._unsubscribe(self)
            self._items.put(None)
        else:
            with self._count:
                self.given += 1
                self._items.put(item)
        if self._stir is not None:
            self._stir.set()

    def get(self, timeout: float | None = None) -> Published | None:
        try:
            return self._items.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        self._owner._unsubscribe(self)


@dataclass
class _Job:
    work: Callable[[], Any]
    posted: bool = False  # nobody waits for the result: an error is logged here or it would be lost
    done: threading.Event = field(default_factory=threading.Event)
    result: Any = None
    error: BaseException | None = None
    # queued -> running -> finished, or queued -> withdrawn (its caller gave up before the writer took it);
    # both moves out of "queued" happen under Owner._job_lock, so a withdrawn job is never run
    stage: str = "queued"


_STOP = object()


class Owner:
    """Owns the open game (a Table, or None between games) through one writer thread."""

    def __init__(
        self,
        table: Table | None = None,
        idle_check: float = IDLE_CHECK_S,
        on_commit: Callable[[], None] | None = None,
        answer_timeout: float = ANSWER_WITHIN_S,
        on_idle: Callable[[], None] | None = None,
        after_job: Callable[[], None] | None = None,
    ):
        self.table = table
        self.idle_check = idle_check
        self.answer_timeout = answer_timeout  # a caller's wait for the writer, unless it names its own
        # run on the writer thread after a job's events are committed and the screen has them, before anyone
        # else does, so what it derives from the table (the reader's dice count) is from the state the events
        # made, never from a state read off-thread while the writer applies the next command
        self.on_commit = on_commit
        # run on the writer thread at each idle look, and after a job when no other waits (the garbage
        # collector, kept out of a booking's way: collector.py)
        self.on_idle = on_idle
        self.after_job = after_job
        # the screen's subscription and how to wait until it has handled its first n items (Panel.wait_taken):
        # set by lead(); None: every subscription hears of each commit at once
        self._lead: Subscription | None = None
        self._lead_drawn: Callable[[int, float], Any] | None = None
        self._held: list[Published] = []  # committed in the running job, not yet published (writer thread)
        self._in_job = False
        self._jobs: queue.Queue[Any] = queue.Queue()
        self._subscriptions: list[Subscription] = []
        # the phones' subscriptions (follow()): filled by the relay's thread once the OLED has each event
        self.relay = Relay()
        self._lock = threading.Lock()  # guards the subscription list only
        self._job_lock = threading.Lock()  # a job's move out of "queued": taken by the writer, or withdrawn
        self._thread = threading.Thread(target=self._run, name="companion-writer", daemon=True)
        self._stopping = False
        self._seen_version: int | None = None
        self.halted: str | None = None
        self.snapshot: Snapshot = NO_GAME  # replaced, never changed: read it on any thread without a lock
        self._snapshot_of: tuple[Table | None, int] = (None, 0)  # the table and head it was taken from
        self._first_hashes: tuple[Table | None, str] = (None, "")
        self._snapshot_after_job()
        self._told: tuple[Any, int, Any] = (None, 0, None)  # (table, warnings said, reason said): each once

    # ----- life ----------------------------------------------------------------------------

    def start(self) -> "Owner":
        self._thread.start()
        return self

    def stop(self, timeout: float = 30.0) -> bool:
        """Finish the request in hand, refuse the rest, end the thread; False if it did not end in time."""
        self._stopping = True
        if self._thread.ident is None:  # never started
            return True
        self._jobs.put(_STOP)
        self._thread.join(timeout)
        self.relay.stop()
        return not self._thread.is_alive()

    @property
    def on_writer_thread(self) -> bool:
        return threading.current_thread() is self._thread

    # ----- what other threads call --------------------------------------------------------------

    def call(self, work: Callable[[], Any], timeout: float | None = _OWN_TIMEOUT, request_id: str | None = None) -> Any:
        """Run `work()` on the writer thread and return its result (or raise its error).

        Every answer is true. When `timeout` (default: answer_timeout) passes first, a job the writer has
        not taken yet is withdrawn and never runs (WriterBusy: nothing was done); one it is running is
        left to finish, and the caller hears that its outcome is unknown (OutcomeUnknown, naming
        `request_id`, by which a retry is answered from the ledger), never that it failed."""
        if self.on_writer_thread:
            return work()
        if self._stopping:
            raise OwnerStopped()
        wait = self.answer_timeout if timeout == _OWN_TIMEOUT else timeout
        job = _Job(work)
        self._jobs.put(job)
        if not job.done.wait(wait):
            with self._job_lock:
                taken = job.stage != "queued"
                if not taken:
                    job.stage = "withdrawn"
            if not taken:
                log.warning("a request waited %s s for the writer and was withdrawn: nothing was done", wait)
                raise WriterBusy(wait or 0.0)
            if not job.done.is_set():  # (it may have finished in between: then its answer is the answer)
                log.warning(
                    "the writer is still on a request after %s s: its outcome is unknown (request %s)",
                    wait,
                    request_id or "-",
                )
                if request_id is not None:
                    raise OutcomeUnknown("owner_late", request_id=request_id, seconds=_seconds(wait or 0.0))
                raise OutcomeUnknown("owner_late_work", seconds=_seconds(wait or 0.0))
        if job.error is not None:
            raise job.error
        return job.result

    def post(self, work: Callable[[], Any]) -> None:
        """Queue `work()` for the writer thread without waiting (the reader's thread must not block)."""
        if not self._stopping:
            self._jobs.put(_Job(work, posted=True))

    def submit(
        self,
        actor: str,
        line: Command | str,
        request_id: str | None = None,
        timeout: float | None = _OWN_TIMEOUT,
        rng: random.Random | None = None,
    ) -> Event:
        """Apply one command as `actor`; the Event (published before this returns) or the refusal.

        The request id is chosen here, before the job is queued, when the caller names none: an answer
        that comes too late names it (OutcomeUnknown), and the ledger answers a retry under it.
        rng fills the dice of a command that names none (`companion do roll`), as Table.submit does."""
        rid = new_request_id() if request_id is None else request_id
        return self.call(lambda: self.apply(actor, line, rid, rng), timeout, request_id=rid)

    def probe(self, timeout: float) -> bool:
        """The watchdog's liveness question: does the writer thread answer within `timeout`?"""
        try:
            return self.call(lambda: self.halted is None, timeout) is True
        except (WriterBusy, OutcomeUnknown, OwnerStopped):
            return False

    def subscribe(self, since: int = 0, stir: threading.Event | None = None) -> Subscription:
        """A new subscription; events after `since` of the open game are replayed into it first. `stir`, when
        given, is set at every item put (a listener that also waits for other things waits on it)."""
        sub = Subscription(self, stir)

        def attach():
            if self.table is not None:
                for event in self.table.game.events[since:]:  # a slice: a resumed game's events are read on demand
                    sub.put(Published(event=event, game=self.table.ledger.path))
            with self._lock:
                self._subscriptions.append(sub)

        if self._thread.is_alive():
            self.call(attach)
        else:
            attach()
        return sub

    def follow(self) -> tuple[Subscription, Snapshot]:
        """A new subscription and the snapshot it follows, without the writer thread: every event after
        the snapshot's head comes through the subscription (one at or before it may come too: skip it);
        the ones before it are the caller's to read from the ledger (companion/table/history.py)."""
        sub = Subscription(self)
        with self._lock:  # under the lock that publishing takes: no item lands between snapshot and subscription
            snapshot = self.snapshot
            self.relay.add(sub)
        return sub, snapshot

    def lead(self, sub: Subscription | None, drawn: Callable[[int, float], Any] | None) -> None:
        """Make `sub` (one of this owner's subscriptions) the screen's: it gets each job's events before anyone
        else, and the rest wait until `drawn(n, timeout)` says it has taken and shown the first n items put
        into `sub` (a count, not an event's number: a new game's numbers start again). None: none leads."""
        with self._lock:
            self._lead, self._lead_drawn = sub, drawn

    def announce(self, code: str, **params: Any) -> None:
        """Publish a notice to every listener (any thread may call this). Said on the writer thread while the
        job's events are held, it is published after them."""
        item = Published(notice=Notice(code, params))
        if self._held and self.on_writer_thread:
            self._held.append(item)
        else:
            self._publish(item)

    def replace_table(self, table: Table | None) -> None:
        """Hand the writer another game (or none); runs on the writer thread."""

        def swap():
            if self.table is not None and self.table is not table:
                self._housekeeping()
                self.table.close()
            self.table = table
            self._seen_version = None
            self._snapshot_after_job()

        self.call(swap)

    # ----- the writer thread -----------------------------------------------------------------

    def apply(
        self, actor: str, line: Command | str, request_id: str | None = None, rng: random.Random | None = None
    ) -> Event:
        """Submit on the writer thread itself (from work already running there) and publish."""
        check(self.on_writer_thread or not self._thread.is_alive(), "Owner.apply called off the writer thread")
        table = self.table
        if table is None:
            raise NoGame()
        if self.halted:
            raise InvariantViolation(f"the bank is halted: {self.halted}")
        before = table.head_seq
        try:
            # the backup an event may owe waits until the writer is idle: never between a tap and its screen
            event = table.submit(line, request_id=request_id, actor=actor, rng=rng, housekeeping=False)
        except InvariantViolation as exc:
            self._halt(str(exc))
            raise
        self._publish_after(before)
        return event

    def _halt(self, why: str) -> None:
        self.halted = why
        log.critical("the bank is halted and writes nothing more: %s", why)
        self.announce("halted", why=why)

    def _publish_after(self, before: int) -> None:
        """Publish every event past `before` (ours, or another process's caught up on the way): held until
        the running job ends, at once outside a job."""
        table = self.table
        assert table is not None
        self._held.extend(Published(event=event, game=table.ledger.path) for event in table.game.events[before:])
        if not self._in_job:
            self._release()

    def _release(self) -> None:
        """The held events go out: to the screen first; once it has drawn the last (or LEAD_WAIT_S passed),
        the reader's dice, the snapshot and every other listener."""
        items, self._held = self._held, []
        if not items:
            return
        with self._lock:
            lead, drawn = self._lead, self._lead_drawn
        last = next((item.event.seq for item in reversed(items) if item.event is not None), 0)
        if lead is not None:
            for item in items:
                lead.put(item)
            if drawn is not None and last:
                try:
                    drawn(lead.given, LEAD_WAIT_S)
                except Exception:  # a screen that cannot be waited for never keeps the others from their events
                    log.exception("waiting for the screen failed")
        if self.on_commit is not None and last:
            try:
                self.on_commit()
            except Exception:  # the events are committed: they are published whatever this did
                log.exception("the commit hook failed")
        self._snapshot_after_job()  # before the events go out: a listener given event N finds the snapshot at N
        for item in items:
            self._publish(item, skip=lead)

    def _take_snapshot(self) -> None:
        """Publish the open game's Snapshot (writer thread, or before it starts) if the table or its head
        changed since the last one: after each commit, and after a job that swapped the game."""
        table = self.table
        if self._snapshot_of == (table, table.head_seq if table is not None else 0):
            return
        if table is None:
            snapshot = NO_GAME
        else:
            if self._first_hashes[0] is not table:  # read once per table: a game's first event never changes
                rows = table.ledger.rows(0, 1)
                self._first_hashes = (table, rows[0].hash if rows else "")
            snapshot = Snapshot(
                path=table.ledger.path,
                first_hash=self._first_hashes[1],
                rules=table.rules,
                state=table.state,
                head_seq=table.head_seq,
                head_hash=table.head_hash,
                reversed=frozenset(table.game.reversed),
                meta=MappingProxyType(dict(table.meta)),
                memory=table.ledger.memory,
            )
        with self._lock:
            self.snapshot = snapshot
        self._snapshot_of = (table, table.head_seq if table is not None else 0)

    def _publish(self, item: Published, skip: Subscription | None = None) -> None:
        with self._lock:
            subs = [sub for sub in self._subscriptions if sub is not skip]
            self.relay.put(item)  # under the lock, so the relay's items come in the order published
        for sub in subs:
            sub.put(item)

    def _unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            if sub in self._subscriptions:
                self._subscriptions.remove(sub)
            if sub is self._lead:
                self._lead = self._lead_drawn = None
        self.relay.remove(sub)

    def _run(self) -> None:
        while True:
            try:
                job = self._jobs.get(timeout=self.idle_check)
            except queue.Empty:
                self._look_for_other_writers()
                self._housekeeping()
                self._hook(self.on_idle)
                continue
            if job is _STOP:
                break
            with self._job_lock:
                if job.stage == "withdrawn":  # its caller gave up before we got here and was told so
                    continue
                job.stage = "running"
            self._in_job = True
            try:
                job.result = job.work()
            except BaseException as exc:  # handed back to the caller, who reports it
                job.error = exc
                if job.posted:
                    log.error("posted work failed: %r", exc, exc_info=exc)
            finally:
                self._in_job = False
                try:
                    self._release()  # the job's events, published before its caller hears the answer
                except Exception:
                    log.exception("could not publish the job's events")
                job.stage = "finished"
                self._snapshot_after_job()
                job.done.set()
            if self._jobs.empty():
                self._hook(self.after_job)
        # requests that came after the stop are refused, never left waiting
        while True:
            try:
                job = self._jobs.get_nowait()
            except queue.Empty:
                break
            if job is not _STOP:
                job.error = OwnerStopped()
                job.done.set()
        if self.table is not None:
            self._housekeeping()
            self.table.close()

    def _hook(self, hook: Callable[[], None] | None) -> None:
        if hook is not None:
            try:
                hook()
            except Exception:  # housekeeping of the process never stops the writer
                log.exception("an idle hook failed")

    def _snapshot_after_job(self) -> None:
        # after a commit, and after any job (it may have put another game in place: starting, archiving),
        # so the caller reads what it did; a snapshot that cannot be taken never stops a publication
        try:
            self._take_snapshot()
        except Exception:  # a ledger that cannot be read: the old snapshot stays, the next commit retries
            log.exception("could not take a snapshot of the table")

    def _housekeeping(self) -> None:
        table = self.table
        if table is None or self.halted:
            return
        table.housekeeping(aside=True)  # a failed backup is a warning on the table, never an error
        self._tell(table)

    def _tell(self, table: Table) -> None:
        """Say each new warning of the table, and why it stopped booking, once to every listener (the OLED,
        the phones, the journal through the printer)."""
        told_table, warned, reason = self._told
        if told_table is not table:
            warned, reason = 0, None
        warnings = list(table.warnings)  # one look: the backup's thread may add one meanwhile (said next time)
        for warning in warnings[warned:]:
            self.announce("table_warning", error=warning)
        if table.readonly_reason is not None and table.readonly_reason is not reason:
            self.announce("table_stopped_booking", error=table.readonly_reason)
        self._told = (table, len(warnings), table.readonly_reason)

    def _look_for_other_writers(self) -> None:
        table = self.table
        if table is None or self.halted:
            return
        try:  # the ledger file or its anchor deleted, moved or replaced under us: stop booking, say so
            table.watch()
        except Exception:  # a look that failed is no reason to stop: the write's own look still guards
            log.exception("could not look at the ledger's files")
        try:
            version = table.ledger.conn.execute("PRAGMA data_version").fetchone()[0]
            if version == self._seen_version:
                return
            self._seen_version = version
            before = table.head_seq
            if table.refresh():
                self._publish_after(before)
        except (InvariantViolation, LedgerDamaged) as exc:  # tampering or a bug: say so, write nothing more
            self._halt(str(exc))
        except CompanionError as exc:  # busy, say: the next idle look tries again
            log.warning("could not look for other writers: %s", exc)
            self._seen_version = None
