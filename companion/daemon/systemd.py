"""Talking to systemd without a library: sd_notify (READY, WATCHDOG, STATUS, STOPPING) and a watchdog pinger."""

import logging
import os
import socket
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

_warned = False  # a broken $NOTIFY_SOCKET is logged once, not at every ping


def notify(*messages: str) -> bool:
    """Send "READY=1", "WATCHDOG=1", "STATUS=...", "STOPPING=1" (one datagram) to $NOTIFY_SOCKET.

    False, doing nothing, when not started by systemd (no $NOTIFY_SOCKET); False, logged
    once, when the socket cannot be reached. Never raises for the socket.
    """
    address = os.environ.get("NOTIFY_SOCKET", "")
    if not address or not messages:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]  # an abstract socket
    # one assignment per line: a newline inside a STATUS would start a new one
    payload = "\n".join(m.replace("\n", " ") for m in messages).encode("utf-8", "replace")
    try:
        if address[0] not in "/\0":
            raise OSError(f"not an AF_UNIX address: {address!r}")
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            # never wait on the listener: a full queue (a listener that stopped reading) would otherwise
            # hold the watchdog's thread and then stop()'s STOPPING=1, and SIGTERM would hang
            sock.setblocking(False)
            sock.sendto(payload, address)
    except OSError as exc:
        global _warned
        if not _warned:
            _warned = True
            log.warning("cannot notify systemd through $NOTIFY_SOCKET: %s", exc)
        return False
    return True


def watchdog_interval() -> float | None:
    """Seconds between WATCHDOG=1 pings: half of $WATCHDOG_USEC, if it is meant for this process; else None."""
    try:
        usec = int(os.environ.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    pid = os.environ.get("WATCHDOG_PID")
    if usec <= 0 or (pid is not None and pid.strip() != str(os.getpid())):
        return None
    return usec / 2 / 1_000_000


class Watchdog:
    """A daemon thread that pings systemd's watchdog every `interval` seconds while `probe(timeout)` is True.

    The probe asks the writer thread to answer within `timeout` seconds (default: the
    interval). When it fails (False or an exception) no ping is sent, so systemd restarts
    the service after WatchdogSec, and STATUS says why.
    """

    def __init__(
        self,
        probe: Callable[[float], bool],
        interval: float,
        notify: Callable[..., bool] = notify,
        *,
        timeout: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if interval <= 0:
            raise ValueError(f"watchdog interval must be positive, not {interval!r}")
        self.probe = probe
        self.interval = interval
        self.timeout = interval if timeout is None else timeout
        self._notify = notify
        self._clock = clock
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="watchdog", daemon=True)

    def start(self) -> None:
        self._thread.start()

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def stop(self, wait: float | None = None) -> None:
        """Stop pinging; wait up to `wait` seconds (default: one probe's timeout and interval) for the thread."""
        self._stopped.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(self.timeout + self.interval if wait is None else wait)

    def _run(self) -> None:
        failing = False
        while not self._stopped.is_set():
            began = self._clock()
            try:
                answered = bool(self.probe(self.timeout))
            except Exception:
                log.exception("the watchdog's probe failed")
                answered = False
            if self._stopped.is_set():
                break
            if answered:
                self._notify("WATCHDOG=1", *(["STATUS=writer answering again"] if failing else []))
            elif not failing:
                log.error(
                    "the writer thread did not answer within %.1f s; systemd is no longer told all is well",
                    self.timeout,
                )
                self._notify("STATUS=writer not answering")
            failing = not answered
            self._stopped.wait(max(0.0, self.interval - (self._clock() - began)))
