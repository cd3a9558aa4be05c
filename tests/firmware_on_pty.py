"""The reader's firmware (firmware/main.py's own loop, over the fake machine module and a register-level
fake MFRC522) in a process of its own, its USB serial a pty published under a by-id-like name.

Driven by the test through stdin, one command a line:
  place <uid hex> | remove | press | dice <d>... | noise <n> | unplug | replug | quit
(`dice 3 4` makes the chip's random source give those dice next, so a test knows where a roll lands.)
It prints `ready <path>` once the pty exists and `ok` after each command.
"""

import os
import random
import select
import sys
import threading
import time
import tty
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
sys.path[:0] = [str(FIRMWARE / "sim"), str(FIRMWARE)]

import machine  # noqa: E402  (firmware/sim/machine.py)
import main  # noqa: E402  (firmware/main.py)
from fake_mfrc522 import FakeMFRC522  # noqa: E402

from companion.hw import protocol  # noqa: E402


class PtySerial:
    """main.py's serial (read without waiting, write) on the master end of a pty."""

    def __init__(self, link: Path):
        self.link = link
        self.lock = threading.Lock()
        self.master = None
        self.plug()

    def plug(self):
        master, slave = os.openpty()
        tty.setraw(slave)
        tty.setraw(master)
        os.set_blocking(master, False)
        self.master, self.slave = master, slave
        tmp = self.link.with_name("new-link")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(os.ttyname(slave))
        os.replace(tmp, self.link)

    def unplug(self):
        with self.lock:
            os.close(self.master)
            os.close(self.slave)
            self.master = None
            self.link.unlink()

    def read(self):
        with self.lock:
            if self.master is None:
                return b""
            try:
                return os.read(self.master, main.READ_MAX)
            except OSError:  # nothing waiting, or nobody has the device open
                return b""

    def write(self, data):
        with self.lock:
            if self.master is None:
                return  # the cable is out: the reader's lines wait for their ACK and are resent
            try:
                os.write(self.master, data)
            except OSError:
                pass


def noise_lines(n, seed):
    rng = random.Random(seed)
    good = protocol.encode(900, "TAP", {"uid": "04A1B2C3"})
    for i in range(n):
        if i % 2:
            yield bytes(rng.randrange(256) for _ in range(rng.randrange(1, 50))).replace(b"\n", b"") + b"\n"
        else:
            pos = rng.randrange(len(good) - 1)
            bad = good[:pos] + bytes([(good[pos] + rng.randrange(1, 255)) % 256]) + good[pos + 1 :]
            yield bad if b"\n" not in bad[:-1] else b"x\n"


SCRIPTED = []  # bytes the random source gives before falling back to the real one


def random_bytes(n):
    out = bytes(SCRIPTED.pop(0) for _ in range(min(n, len(SCRIPTED))))
    return out + os.urandom(n - len(out))


def main_():
    folder = Path(sys.argv[1])
    main.os = type("os", (), {"urandom": staticmethod(random_bytes)})  # what main.build hands the Reader
    chip = FakeMFRC522()
    machine.BUSES[main.SPI_ID] = chip
    machine.WIRED[main.PIN_CS] = chip.cs
    machine.WIRED[main.PIN_RST] = chip.rst
    serial = PtySerial(folder / "usb-MicroPython_Board_in_FS_mode_pty-if00")
    firmware = threading.Thread(target=main.run, kwargs={"serial": serial}, daemon=True)
    firmware.start()
    print("ready", serial.link, flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "place":
            chip.place(bytes.fromhex(words[1]))
        elif words[0] == "remove":
            chip.remove()
        elif words[0] == "press":
            machine.LEVELS[main.PIN_ROLL] = 0
            time.sleep(0.08)
            machine.LEVELS[main.PIN_ROLL] = 1
        elif words[0] == "dice":
            SCRIPTED.extend(int(d) - 1 for d in words[1:])  # byte % 6 + 1 is the die
        elif words[0] == "noise":
            batch = b"".join(noise_lines(int(words[1]), 5))
            while batch:
                with serial.lock:
                    try:
                        batch = batch[os.write(serial.master, batch[:4096]) :]
                    except BlockingIOError:
                        pass
                select.select([], [], [], 0.001)
        elif words[0] == "unplug":
            serial.unplug()
        elif words[0] == "replug":
            serial.plug()
        elif words[0] == "quit":
            break
        print("ok", flush=True)


if __name__ == "__main__":
    main_()
