"""The OLED's thread: a receipt for every event, each notice the box says, else the console's
screen (a menu, a choice the table waits for), else the idle carousel; the screen dims slowly when
nothing happens (against burn-in) and wakes on the next event or press.

It reads the owner's published items like any listener and only ever draws
(companion/daemon/screens.py composes the frames); it never touches the game.
"""

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from companion.hw.display import Frame, Screen
from companion.words import messages

from .owner import Owner
from .screens import IDLE_SECONDS, idle_frames, notice_frames, receipt_frames

log = logging.getLogger("companion.panel")

PAGE_SECONDS = 2.5  # each page of a receipt or notice stays this long (a new one cuts it short)
DIM_AFTER_S = 120.0  # idle this long: start dimming
DIM_STEPS = (192, 128, 64, 32)  # contrast levels, one a minute after DIM_AFTER_S
FULL = 255


class Panel:
    """Draws on one Screen from the owner's published events and notices."""

    def __init__(
        self,
        screen: Screen,
        owner: Owner,
        language: str,
        clock: Callable[[], float] = time.monotonic,
        console: Any = None,
    ):
        self.screen = screen
        self.owner = owner
        self.language = language
        self.clock = clock
        self.console = console  # its .frame (None: nothing to choose) and .version, set on the writer thread
        self._console_version = -1
        self._showing = False  # a receipt or notice page is on the screen now
        self._lock = threading.Lock()  # the pages queue and _showing: dismiss() comes from the writer thread
        self._poked = threading.Event()
        # set by a published item or a poke: the thread waits on this, so a button's screen is drawn at once
        self._stir = threading.Event()
        self.on_draw: Callable[[], None] = lambda: None  # the virtual table's wake-up
        self.footer: Callable[[], str] = lambda: ""  # a state every idle page shows ("Reader offline")
        self.warning = ""  # a ledger that went back or forked at the start: said on every idle round
        self.frame: Frame | None = None  # what is on the screen now
        self._queue: deque[Frame] = deque()  # receipt and notice pages still to show
        self._shown_at = 0.0
        self._idle_index = 0
        self._last_activity = clock()
        self._contrast = FULL
        self._stop = threading.Event()
        self._drawn_seq = 0  # the last event whose receipt this thread has taken and drawn (or queued)
        self._taken = 0  # items taken from the subscription and handled (drawn, queued or skipped)
        self._drawn = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="companion-panel", daemon=True)

    def start(self, thread: bool = True) -> "Panel":
        """Listen from the current head on; thread=False: the caller calls step() (tests, a fake clock)."""
        table = self.owner.table
        self._sub = self.owner.subscribe(since=table.head_seq if table is not None else 0, stir=self._stir)
        if thread:
            self._thread.start()
            # the receipt first: everyone else hears of an event once this thread has drawn it (Owner.lead)
            self.owner.lead(self._sub, self.wait_taken)
        return self

    def wait_taken(self, count: int, timeout: float) -> bool:
        """Wait (up to `timeout`) until this thread has handled the first `count` items of its subscription
        (drawn, or queued behind the page showing); False if it has not."""
        with self._drawn:
            return self._drawn.wait_for(lambda: self._taken >= count or self._stop.is_set(), timeout)

    def wait_drawn(self, seq: int, timeout: float) -> bool:
        """Wait (up to `timeout`) until this thread has drawn event `seq`'s receipt; False if it has not."""
        with self._drawn:
            return self._drawn.wait_for(lambda: self._drawn_seq >= seq or self._stop.is_set(), timeout)

    def stop(self) -> None:
        self._stop.set()
        self._stir.set()
        with self._drawn:
            self._drawn.notify_all()
        if self._thread.is_alive():
            self._thread.join(2.0)
        self._sub.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.step()
            except Exception:  # a drawing bug or a display that stopped answering never stops the game
                log.exception("the OLED could not be drawn")
                self._stop.wait(1.0)

    def poke(self) -> None:
        """The console's screen changed (any thread): draw it at the next step, which comes at once."""
        self._poked.set()
        self._stir.set()

    def dismiss(self) -> bool:
        """Put away the receipt or notice showing (any thread); True if there was one."""
        with self._lock:
            showing = self._showing or bool(self._queue)
            self._queue.clear()
            self._showing = False
        if showing:  # the screen under it is drawn at the next look, not now: a tap's receipt comes first
            self._poked.set()
        return showing

    def step(self, wait: float = 0.1) -> None:
        """Take what was published (waiting up to `wait`), then draw what is due now."""
        if not self._poked.is_set():
            self._stir.wait(wait)  # a published item or a poke ends the wait (a button pressed: drawn at once)
        self._stir.clear()  # before taking: an item put after this sets it again for the next step
        item = self._sub.get(timeout=0)
        items = [item] if item is not None else []
        while item is not None:  # everything published together (a ROLL that ended the turn: two events)
            item = self._sub.get(timeout=0)
            if item is not None:
                items.append(item)
        try:
            self._show(items)
        finally:  # handled, drawn or not: a display that fails never holds the writer's wait (Owner.lead)
            seqs = [item.event.seq for item in items if item.event is not None]
            with self._drawn:
                self._taken += len(items)
                if seqs:  # the last one, not the highest ever: a new game's events start again at 1
                    self._drawn_seq = seqs[-1]
                self._drawn.notify_all()

    def _show(self, items: list) -> None:
        """Draw what is due now, the items just taken first (their last one with pages)."""
        now = self.clock()
        # each new item interrupts what is showing, so of a batch only the last one with pages is ever seen:
        # the others' pages would be composed only to be thrown away
        new: list[Frame] = []
        for item in reversed(items):
            new = self._frames_for(item)
            if new:
                break
        if items:
            self._wake(now)
        poked = self._poked.is_set()
        self._poked.clear()
        chosen = self.console.frame if self.console is not None else None
        with self._lock:
            if new:
                # a new event or tap always interrupts what is showing
                self._queue.clear()
                self._queue.extend(new)
                self._shown_at = 0.0
            page = self._queue.popleft() if self._queue and now - self._shown_at >= PAGE_SECONDS else None
            if page is not None:
                self._showing = True
            waiting = page is None and (bool(self._queue) or (self._showing and now - self._shown_at < PAGE_SECONDS))
        if page is not None:
            self._draw(page, now)
        elif waiting:
            pass  # the page showing keeps its time
        elif chosen is not None:
            self._showing = False
            if poked or self._console_version != self.console.version or self.frame is not chosen:
                self._console_version = self.console.version
                self._wake(now)
                self._draw(chosen, now)
        elif (
            now - self._shown_at >= (PAGE_SECONDS if self._idle_index == 0 else IDLE_SECONDS)
            or (self._showing and now - self._shown_at >= PAGE_SECONDS)
            or poked
        ):
            self._showing = False
            self._draw_idle(now)
        self._dim(now)

    def _frames_for(self, item) -> list[Frame]:
        table = self.owner.table
        if item.notice is not None:
            edition = table.rules.edition if table is not None else None
            return notice_frames(messages.render(item.notice.code, item.notice.params, self.language, edition))
        if item.event is not None and table is not None:
            return receipt_frames(table.rules, table.state, item.event, self.language, table.game)
        return []

    def _draw_idle(self, now: float) -> None:
        table = self.owner.table
        footer = self.footer()
        if table is None:
            frames = notice_frames(messages.render("no_game_on_box", {}, self.language))
        else:
            head = f"#{table.head_seq} {table.head_words(self.language)}"
            frames = idle_frames(table.rules, table.state, self.language, head, footer)
        halted = self.owner.halted
        readonly = table.readonly_reason if table is not None else None
        if halted or self.warning:  # never lost in the carousel: the first page of every round
            text = messages.render("halted", {"why": halted}, self.language) if halted else self.warning
            frames = notice_frames(text) + frames
        elif readonly is not None:  # why nothing can be booked: a read-only card, the ledger file gone
            frames = (
                notice_frames(messages.render("table_stopped_booking", {"error": readonly}, self.language)) + frames
            )
        self._draw(frames[self._idle_index % len(frames)], now)
        self._idle_index += 1

    def _draw(self, frame: Frame, now: float) -> None:
        if self.screen.show(frame):
            self.on_draw()
        self.frame = frame
        self._shown_at = now

    def _wake(self, now: float) -> None:
        self._last_activity = now
        self._idle_index = 0
        if self._contrast != FULL:
            self._contrast = FULL
            self.screen.dim(FULL)

    def _dim(self, now: float) -> None:
        idle = now - self._last_activity - DIM_AFTER_S
        if idle < 0:
            return
        level = DIM_STEPS[min(int(idle // 60), len(DIM_STEPS) - 1)]
        if level != self._contrast:
            self._contrast = level
            self.screen.dim(level)
