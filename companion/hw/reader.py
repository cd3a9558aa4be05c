"""The Pi's end of the reader link: a pyserial thread that finds the reader, greets it and keeps it.

It speaks firmware/PROTOCOL.md through the shared companion/hw/protocol.py and
hands plain values to callbacks: a card's UID, a roll's dice, the link's state.
It knows nothing of games (hardware adapters never import the engine); the
daemon decides what a tap means and answers with `set_dice` and `beep`.

The port is opened with exclusive=True (a second daemon cannot steal lines)
and looked for again whenever it fails: pulling the cable shows as "offline"
within OFFLINE_AFTER_S (and the link's rest, REST_READ_S), and the reader is back as soon as its HELLO arrives
after it is plugged in again. Each opening greets the reader with a new boot
id, so the reader forgets our old sequence numbers; our Receiver lives across
openings, so a tap the reader resends after a glitch is still booked once.
Each tap and roll is handed on with its origin, (the reader's boot id, the
line's sequence number): the daemon books it under a request id made of them,
so a line resent after the daemon itself restarted (the Receiver's memory gone)
is answered from the ledger, not booked again.
"""

import glob
import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import serial

from companion.hw import protocol

log = logging.getLogger("companion.reader")

BY_ID_PATTERN = "/dev/serial/by-id/usb-MicroPython*"
BAUD = 115200  # USB CDC ignores it; a UART bridge would not
READ_TIMEOUT_S = 0.01  # a read's wait while lines await their ACK (resends are timed from 0.05 s)
# a read's wait with nothing outstanding: a line from the reader ends it at once and an order (DICE, BEEP)
# cancels it, so it only paces the ping and the silence check. At 0.01 s the idle link woke 100 times a
# second: ~1 % of this machine's core, a fifth of a Zero 2 W's.
REST_READ_S = 0.25
UID_LENGTHS = (8, 14, 20)
HELD_MAX = 32  # taps and rolls kept while the reader's HELLO is awaited

# where a tap or roll came from: the reader's boot id (its HELLO's `boot`) and the line's sequence number;
# unique per line for the reader's power-up (up to 65,535 lines, when the numbers wrap)
Origin = tuple[str, int]


@dataclass(frozen=True)
class LinkState:
    """What the screens say about the reader: `searching`, `connecting`, `ready`, `offline`, `refused`."""

    state: str
    detail: str = ""  # the port looked for, the firmware version, the refused protocol ...


def find_port(pattern: str = BY_ID_PATTERN) -> str | None:
    """The first device matching a by-id pattern (sorted, so the same Pico is chosen each time)."""
    found = sorted(glob.glob(pattern))
    return found[0] if found else None


class ReaderLink:
    """The reader link's thread. Callbacks run on this thread: keep them short (hand work on)."""

    def __init__(
        self,
        port: str,
        on_tap: Callable[[str, Origin | None], None],
        on_roll: Callable[[tuple[int, ...], Origin | None], None],
        on_state: Callable[[LinkState], None] = lambda s: None,
        *,
        retry: float = 0.5,
        clock: Callable[[], float] = time.monotonic,
        open_port: Callable[[str], serial.Serial] | None = None,
    ):
        self.port = port  # a path, or a glob pattern such as BY_ID_PATTERN (`auto`)
        self.on_tap, self.on_roll, self.on_state = on_tap, on_roll, on_state
        self.retry = retry
        self.clock = clock
        self.open_port = open_port or self._open
        self.receiver = protocol.Receiver()
        self.state = LinkState("searching")
        self.firmware = ""  # the firmware version of the reader's last HELLO ("" : none heard, or it said none)
        self.dice = 2
        # the sequence number of the DICE line carrying the newest count, once written (None until then):
        # the reader has the Pi's last word when its count came from this line (tests wait for that)
        self.dice_told: int | None = None
        self._dice_order: dict[str, Any] = {"n": self.dice}  # the fields of the newest DICE order
        self._dice_lock = threading.Lock()  # set_dice (the writer's thread) against the link's thread
        self.counts = {"taps": 0, "rolls": 0, "bad_frames": 0, "unknown_verb": 0, "bad_value": 0, "reconnects": 0}
        self._orders: queue.Queue[tuple[str, dict[str, Any]]] = queue.Queue()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="companion-reader", daemon=True)
        self._serial: serial.Serial | None = None
        # _wake (the writer's thread) against the port's close (the link's): pyserial closes the pipe that
        # cancel_read writes to before it marks the port closed, and a write then could land in a reused fd
        self._port_lock = threading.Lock()

    # ----- what the daemon calls ------------------------------------------------------------

    def start(self) -> "ReaderLink":
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        self._wake()
        self._thread.join(timeout)

    def set_dice(self, n: int) -> None:
        """How many dice the ROLL button gives from now on (sent again after every reconnect; a count not
        yet sent when the next one comes is never sent)."""
        with self._dice_lock:
            self.dice = n
            self._dice_order = {"n": n}
            self.dice_told = None
            self._orders.put(("DICE", self._dice_order))
        self._wake()

    def beep(self, times: int = 1, ms: int = 60) -> None:
        self._orders.put(("BEEP", {"times": max(1, min(5, times)), "ms": max(10, min(1000, ms))}))
        self._wake()

    def _wake(self) -> None:
        """End the link thread's wait on the port, so an order goes out now, not at the end of a rest."""
        with self._port_lock:
            cancel = getattr(self._serial, "cancel_read", None)  # pyserial's POSIX ports: a pipe beside the fd
            if cancel is not None:
                try:
                    cancel()
                except (serial.SerialException, OSError, ValueError, TypeError):  # the next opening sends it
                    pass

    # ----- the thread ------------------------------------------------------------------------

    def _open(self, path: str) -> serial.Serial:
        return serial.Serial(path, BAUD, timeout=READ_TIMEOUT_S, write_timeout=1.0, exclusive=True)

    def _set_state(self, state: str, detail: str = "") -> None:
        new = LinkState(state, detail)
        if new != self.state:
            self.state = new
            log.info("reader %s %s", state, detail)
            self.on_state(new)

    def _path(self) -> str | None:
        if any(c in self.port for c in "*?["):
            return find_port(self.port)
        return self.port if os.path.exists(self.port) else None

    def _run(self) -> None:
        while not self._stop.is_set():
            path = self._path()
            if path is None:
                self._set_state("searching", self.port)
                self._stop.wait(self.retry)
                continue
            try:
                self._serial = self.open_port(path)
            except (serial.SerialException, OSError) as exc:
                self._set_state("searching", f"{path}: {exc}")
                self._stop.wait(self.retry)
                continue
            try:
                self._session(self._serial)
            except (serial.SerialException, OSError) as exc:
                log.info("reader link lost: %s", exc)
                self.counts["reconnects"] += 1
                if self.state.state == "ready":
                    self._set_state("offline", "unplugged")
            finally:
                with self._port_lock:
                    try:
                        self._serial.close()
                    except (serial.SerialException, OSError):
                        pass
                    self._serial = None
            self._stop.wait(min(self.retry, 0.05))

    def _session(self, port: serial.Serial) -> None:
        """One opening of the port: greet, then read, act, acknowledge, resend, ping until it fails."""
        sender = protocol.Sender()
        splitter = protocol.LineSplitter()
        held: list[protocol.Frame] = []  # taps and rolls before the HELLO
        greeted = False
        self._set_state("connecting", port.port or "")
        now = self.clock()
        port.write(sender.send("HELLO", {"proto": protocol.PROTOCOL_VERSION, "boot": os.urandom(4).hex()}, now))
        last_write = now
        with self._dice_lock:  # the newest count again (a new opening: the reader may have rebooted)
            self.dice_told = None
            backlog: list[tuple[str, dict[str, Any]]] = [("DICE", self._dice_order)]
        while not self._stop.is_set():
            rest = REST_READ_S if not (sender.pending or backlog or self._orders.qsize()) else READ_TIMEOUT_S
            if port.timeout != rest:  # set only when it changes: each setting reconfigures the tty
                port.timeout = rest
            data = port.read(max(1, port.in_waiting))
            now = self.clock()
            out: list[bytes] = []
            for line in splitter.feed(data):
                frame, replies = self.receiver.take(line, now)
                out.extend(replies)
                if frame is None:
                    continue
                if frame.verb == "ACK":
                    seq = frame.fields.get("seq", "")
                    if seq.isdigit():
                        sender.acknowledged(int(seq))
                elif frame.verb == "HELLO":
                    greeted = self._hello(frame)
                    if greeted:
                        for early in held:
                            self._act(early)
                        held = []
                elif frame.verb in ("TAP", "ROLL"):
                    if greeted:
                        self._act(frame)
                    elif len(held) < HELD_MAX:
                        held.append(frame)
                elif frame.verb != "PONG":
                    self.counts["unknown_verb"] += 1
            self.counts["bad_frames"] = sum(self.receiver.errors.values())
            while True:
                try:
                    order = self._orders.get_nowait()
                except queue.Empty:
                    break
                if order[0] == "DICE":  # a count is state: one not yet sent that a newer count replaced is dropped
                    backlog = [item for item in backlog if item[0] != "DICE"]
                backlog.append(order)
            while backlog and not sender.full():
                verb, fields = backlog.pop(0)
                if verb == "DICE":
                    with self._dice_lock:
                        if fields is self._dice_order:
                            self.dice_told = sender.next_seq
                out.append(sender.send(verb, fields, now))
            out.extend(sender.due(now))
            if not out and now - last_write >= protocol.PING_EVERY_S:
                out.append(protocol.encode(0, "PING"))
            if out:
                port.write(b"".join(out))
                last_write = now
            if greeted and not self.receiver.online(now) and self.state.state == "ready":
                self._set_state("offline", "silent")
            elif greeted and self.receiver.online(now) and self.state.state == "offline":
                self._set_state("ready", self.firmware or "?")

    def _hello(self, frame: protocol.Frame) -> bool:
        # what the reader says it runs, kept even when its protocol is refused (doctor says to update it);
        # a firmware older than the `fw` field says nothing: "" (an unknown version, never an error)
        self.firmware = frame.fields.get("fw", "")
        proto = frame.fields.get("proto", "")
        if proto != str(protocol.PROTOCOL_VERSION):
            self._set_state("refused", proto or "?")
            return False
        self._set_state("ready", self.firmware or "?")
        return True

    def _act(self, frame: protocol.Frame) -> None:
        # the boot of the reader's last HELLO: it sends no tap of a new boot before that HELLO is acknowledged
        boot = self.receiver.boot
        origin = (boot, frame.seq) if isinstance(boot, str) and boot else None
        if frame.verb == "TAP":
            uid = frame.fields.get("uid", "")
            if len(uid) not in UID_LENGTHS or any(c not in "0123456789ABCDEF" for c in uid):
                self.counts["bad_value"] += 1
                return
            self.counts["taps"] += 1
            self.on_tap(uid, origin)
        else:
            words = frame.fields.get("dice", "").split(",")
            if not all(w in ("1", "2", "3", "4", "5", "6") for w in words) or not 1 <= len(words) <= 3:
                self.counts["bad_value"] += 1
                return
            self.counts["rolls"] += 1
            self.on_roll(tuple(int(w) for w in words), origin)
