"""The phones' share of what the writer publishes: relayed by one thread once the box's own screen has it.

Every open phone page holds a server thread reading its own subscription (web/phone/stream.py). Put
straight into 50 of them by the writer, an event wakes 50 threads at the moment the OLED's thread
composes and draws its receipt, and the receipt waits behind them for the interpreter: measured with
`companion bench daemon`, a tap's receipt took about twice as long with 50 phone pages open as with
none (docs/performance.md). So the writer puts an item into the box's own subscriptions only, and
hands it to this relay, whose single thread fills the phones' subscriptions. The writer hands an
event over only once the OLED has drawn it (Owner.lead), so the phones see each event a few
milliseconds later, in the same order; the family at the table sees its receipt as if no phone were
open.
"""

import queue
import threading
from typing import Any


class Relay:
    """The followers' subscriptions (objects with `put(item)`) and the thread that fills them, in order."""

    def __init__(self) -> None:
        self._followers: list[Any] = []
        self._lock = threading.Lock()
        self._items: queue.Queue[Any] = queue.Queue()
        self._thread: threading.Thread | None = None

    def add(self, sub: Any) -> None:
        """A follower; the relay's thread starts with the first (a box without phones has none)."""
        with self._lock:
            self._followers.append(sub)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="companion-relay", daemon=True)
                self._thread.start()

    def remove(self, sub: Any) -> None:
        with self._lock:
            if sub in self._followers:
                self._followers.remove(sub)

    def put(self, item: Any) -> None:
        """An item published (any thread); dropped at once when nobody follows."""
        with self._lock:
            if not self._followers:
                return
        self._items.put(item)

    def stop(self) -> None:
        with self._lock:
            thread = self._thread
        if thread is not None:
            self._items.put(None)
            thread.join(1.0)

    def _run(self) -> None:
        while True:
            item = self._items.get()
            if item is None:
                return
            with self._lock:
                followers = list(self._followers)
            for sub in followers:
                sub.put(item)
