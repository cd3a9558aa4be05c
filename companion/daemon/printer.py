"""The printer: every committed event and every notice the owner publishes, printed in the box's language
(stdout, so the journal under systemd); warnings go to the journal's warning priority instead."""

import logging
import threading
from typing import TYPE_CHECKING, Any

from companion.engine.actions import TABLE
from companion.table.view import event_lines, state_text
from companion.words import messages

from .owner import Published

if TYPE_CHECKING:
    from .main import Daemon

log = logging.getLogger("companion.daemon")

# notices said as warnings in the journal (logging), not printed: the table's warnings, why it stopped booking
JOURNAL_WARNINGS = ("table_warning", "table_stopped_booking")


class Printer:
    """Its own thread reads the owner's subscription until the box stops; `shown` is the last event printed."""

    def __init__(self, box: "Daemon"):
        self.box = box
        self.shown = 0  # the last event the printer printed
        self._subscription: Any = None
        self._thread = threading.Thread(target=self._print, name="companion-printer", daemon=True)

    def start(self, subscription: Any) -> None:
        """Print what this subscription (Owner.subscribe) publishes, from now on."""
        self._subscription = subscription
        self._thread.start()

    def join(self, timeout: float) -> None:
        """Wait for the printer to see the box stopped (it checks every 0.2 s)."""
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _print(self) -> None:
        while not self.box.stopped.is_set():
            item = self._subscription.get(timeout=0.2)
            if item is None:
                continue
            try:
                self._show(item)
            except Exception:  # a printing bug must never stop the game
                log.exception("could not print %r", item)

    def _show(self, item: Published) -> None:
        box = self.box
        table = box.owner.table
        if item.notice is not None:
            text = messages.render(item.notice.code, item.notice.params, box.lang, box.edition())
            if item.notice.code in JOURNAL_WARNINGS:  # the journal's warning priority: `journalctl -p warning`
                log.warning("%s", text)
            else:
                box.out("* " + text)
            return
        event = item.event
        if event is None or table is None:
            return
        who = "" if event.actor == TABLE else f"{event.actor}: "
        box.out(f"#{event.seq:<4} {who}{event.command}")
        for line in event_lines(table.rules, event, box.lang):
            box.out(f"        {line}")
        if event.command == "end_game":
            box.out(state_text(table.rules, table.state, box.lang))
        # the reader was told the dice of the next roll before the event was published (TapDesk.update_dice)
        self.shown = event.seq
        box.owner.post(box.console.sync)  # menus built before this event are closed
