"""The simulated reader: the real firmware (firmware/reader.py over a register-level fake MFRC522)
behind a pty, so the daemon opens it exactly as it opens the Pico's /dev/ttyACM0.

Nothing here is a shortcut into the game: a tap travels as bytes through the
firmware's driver, its framing and the pty, and comes back acknowledged. The
pty's name changes each time it is made, so the device is published under a
stable symlink, like /dev/serial/by-id: `unplug()` closes the pty (the daemon
sees the cable go) and `replug()` makes a new one behind the same name, with
the reader rebooted (a Pico loses power with its cable) or not.
"""

import os
import queue
import sys
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path
from typing import Any

FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "firmware"
DEVICE_NAME = "usb-MicroPython_Board_in_FS_mode_e6614103e7000000-if00"  # a Pico's by-id name
TICK_S = 0.010  # as the firmware's main loop polls on a Pico (firmware/main.py POLL_MS)


def load_firmware() -> Any:
    """The firmware's SimReader class, importing firmware/ as the Pico would (top-level modules)."""
    if not (FIRMWARE_DIR / "reader.py").exists():
        raise RuntimeError(
            f"the reader's firmware is not here ({FIRMWARE_DIR}): simulated hardware needs a "
            'source checkout (hardware = "real" does not)'
        )
    for folder in (FIRMWARE_DIR / "sim", FIRMWARE_DIR):
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))
    import sim_reader  # type: ignore[import-not-found]  # firmware/sim/sim_reader.py

    return sim_reader.SimReader


class SimulatedReader:
    """A firmware reader in a thread, its serial end a pty published as `<folder>/<DEVICE_NAME>`."""

    def __init__(
        self, folder: str | os.PathLike[str], seed: int = 0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.link_path = Path(folder) / DEVICE_NAME
        self.seed = seed
        self.clock = clock
        self._make = load_firmware()
        self.firmware = self._fresh(seed)
        self._master: int | None = None
        self._slave: int | None = None
        self._actions: queue.Queue[tuple[str, tuple[Any, ...]]] = queue.Queue()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="companion-sim-reader", daemon=True)
        self.written = 0  # bytes the reader sent
        self.reboots = 0
        self._plug()

    @property
    def path(self) -> str:
        """The device the daemon opens: the stable name (a symlink to the current pty)."""
        return str(self.link_path)

    def start(self) -> "SimulatedReader":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(2.0)
        self._unplug()

    # ----- the table's hands -------------------------------------------------------------------

    def place(self, uid: str) -> None:
        """Put a card on the reader (it stays until `remove`)."""
        self._actions.put(("place", (uid,)))

    def remove(self) -> None:
        self._actions.put(("remove", ()))

    def tap(self, uid: str, hold: float = 0.2) -> None:
        """Place a card, hold it, lift it (blocks for `hold` seconds of the simulation's clock)."""
        self.place(uid)
        time.sleep(hold)
        self.remove()

    def press_roll(self) -> None:
        self._actions.put(("press_roll", ()))

    def unplug(self) -> None:
        """Pull the cable: the pty goes away (the daemon's reads fail)."""
        with self._lock:
            self._unplug()

    def replug(self, reboot: bool = True) -> None:
        """Plug the cable in again; a real Pico reboots with its power, so by default the reader does too."""
        with self._lock:
            self._unplug()
            if reboot:  # a new boot id each time, as the Pico's os.urandom gives
                self.reboots += 1
                self.firmware = self._fresh(self.seed + self.reboots)
            self._plug()

    def _fresh(self, seed: int) -> Any:
        """A powered-up firmware: its dice from the seed (a game replays), its boot id new as a Pico's. The
        daemon books each line under (boot id, sequence number): a boot id repeated by a daemon restarted
        with the same seed would have its new taps answered as the old ones."""
        firmware = self._make(seed=seed)
        firmware.reader.boot = os.urandom(4).hex().upper()
        return firmware

    # ----- the pty -------------------------------------------------------------------------------

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        tty.setraw(master)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.link_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.link_path.with_name(self.link_path.name + ".new")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(os.ttyname(slave))
        os.replace(tmp, self.link_path)

    def _unplug(self) -> None:
        for fd in (self._master, self._slave):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._master = self._slave = None
        self.link_path.unlink(missing_ok=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                self._step()
            self._stop.wait(TICK_S)

    def _step(self) -> None:
        while True:
            try:
                action, args = self._actions.get_nowait()
            except queue.Empty:
                break
            getattr(self.firmware, action)(*args)
        incoming = b""
        if self._master is not None:
            try:
                incoming = os.read(self._master, 4096)
            except BlockingIOError:
                pass
            except OSError:  # EIO: no one has the device open
                pass
        out = self.firmware.poll(int(self.clock() * 1000), incoming)
        if out and self._master is not None:
            try:
                os.write(self._master, out)
                self.written += len(out)
            except OSError:  # the pty's buffer is full or nobody reads: the reader resends later
                pass
