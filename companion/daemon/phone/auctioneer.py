"""The auctioneer: an auction quiet on the phones is hammered down after a quiet time, "going once,
twice" said before, on a thread of its own that asks the writer only after each new event."""

import logging
import threading
from collections.abc import Callable
from typing import Any

from companion.engine.actions import TABLE
from companion.engine.command import Command
from companion.errors import CompanionError

from ..owner import Owner
from .reading import Reading

log = logging.getLogger("companion.phone")


class Auctioneer:
    """Watches for a quiet auction. `quiet_seconds` reads phone.auction_quiet_seconds now (0: never hammer);
    `clock` is the service's (a test may drive it by hand, its thread stopped, calling `round`)."""

    def __init__(self, owner: Owner, reading: Reading, quiet_seconds: Callable[[], float], clock: Callable[[], float]):
        self.owner = owner
        self.reading = reading
        self.quiet_seconds = quiet_seconds
        self.clock = clock
        self._stop = threading.Event()
        self._auction: dict[str, Any] = {}
        self._watcher = threading.Thread(target=self._watch, name="companion-auctioneer", daemon=True)

    def start(self) -> None:
        self._watcher.start()

    def stop(self) -> None:
        self._stop.set()
        if self._watcher.is_alive():
            self._watcher.join(2.0)

    def _watch(self) -> None:
        """The auctioneer's thread. It asks the writer thread only after each new event (is an auction
        open?) and to hammer: a job every round would keep the writer from ever being idle, and an idle
        writer is the one that looks for other processes' writes (Owner._look_for_other_writers)."""
        while not self._stop.wait(0.2):
            if self.quiet_seconds() <= 0:
                continue
            try:
                self.round()
            except Exception:  # the owner stopping, a busy ledger: look again next round
                log.debug("the auctioneer could not look", exc_info=True)

    def round(self) -> None:
        """An auction quiet for phone.auction_quiet_seconds is hammered down, "going once" and "going
        twice" said at a third and two thirds of that time (the quiet starts again with every event).
        The clock runs only once the auction has started: its first bid, or the host setting the opening
        price (`opening`); until then it waits for the phones however long it takes (issue 22: a plot
        was hammered "no bids" before any phone was ready), and the host may still close it by hand."""
        table: Any = self.owner.table
        key = (table, table.head_seq if table is not None else 0)
        state = self._auction
        if state.get("key") != key:  # something happened: is an auction open now, and has it started?

            def look() -> tuple[str, str, bool] | None:
                now = self.owner.table
                if now is None or self.owner.halted or not now.rules.legal(now.state, TABLE, verbs=("hammer",)):
                    return None
                pending = now.state.pending
                last = now.game.events[-1].command.split()[:1] if now.game.events else []
                started = getattr(pending, "bidder", None) is not None or last == ["opening"]
                # an id: each screen names it; the kind and plot tell this auction from the next one
                return getattr(pending, "plot", None) or "", getattr(pending, "kind", ""), started

            seen = self.owner.call(look, timeout=5.0) if table is not None else None
            plot, kind, started = seen if seen is not None else ("", "", False)
            same = (
                state.get("open")
                and state.get("table") is table
                and (state.get("plot"), state.get("kind")) == (plot, kind)
            )
            self._auction = {
                "key": key,
                "since": self.clock(),
                "said": 0,
                "open": seen is not None,
                "plot": plot,
                "kind": kind,
                "table": table,
                "started": seen is not None and (started or bool(same and state.get("started"))),
            }
            return
        if not state["open"] or not state["started"]:
            return
        quiet, said, q = self.clock() - state["since"], state["said"], self.quiet_seconds()
        if quiet >= q and said < 3:
            state["said"] = 3
            seq = key[1]

            def hammer() -> None:
                now: Any = self.owner.table
                if now is table and table.head_seq == seq:  # still the same quiet auction
                    self.owner.apply(
                        TABLE, Command("hammer"), f"phone:hammer:{self.reading.table_game_id(table)}:{seq}"
                    )

            try:
                self.owner.call(hammer, timeout=5.0)
            except CompanionError as exc:
                log.warning("the auctioneer's hammer was refused: %s", exc)
                state["since"], state["said"] = self.clock(), 0  # try again after another quiet time
        elif quiet >= 2 * q / 3 and said < 2:
            state["said"] = 2
            self.owner.announce("auction_going_twice", plot=state["plot"])
        elif quiet >= q / 3 and said < 1:
            state["said"] = 1
            self.owner.announce("auction_going_once", plot=state["plot"])
