"""The reader's firmware as this version ships it: its files, the order they go onto the Pico, its version."""

import os
import time
from pathlib import Path

import serial

from companion.hw import protocol

# a checkout's firmware/ beside the package (the installer links it into the venv the same way)
FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "firmware"
SHIPPED = protocol.FIRMWARE_VERSION
# (the file here, its name on the Pico), in the order they are copied: main.py last, because MicroPython
# runs it at power-up and a Pico left half-copied should not start a main.py whose imports are missing
FILES = (
    (Path(protocol.__file__).resolve(), "protocol.py"),  # one framing file for both ends (firmware/PROTOCOL.md)
    (FIRMWARE_DIR / "mfrc522.py", "mfrc522.py"),
    (FIRMWARE_DIR / "reader.py", "reader.py"),
    (FIRMWARE_DIR / "main.py", "main.py"),
)


def missing_files() -> list[Path]:
    """The firmware files this installation lacks (an installed wheel without the checkout's firmware/)."""
    return [source for source, _ in FILES if not source.is_file()]


def mpremote_args(port: str | None) -> list[str]:
    """mpremote's arguments that copy every file (one chained command: one connection, one raw REPL),
    list the Pico's files and restart it with the new firmware."""
    args = ["connect", port] if port else []  # connect takes one argument: no `+` after it
    for source, name in FILES:
        args += ["cp", str(source), ":" + name, "+"]  # cp takes any number of files: `+` ends each
    return [*args, "ls", "+", "reset"]


def is_older(said: str, shipped: str = SHIPPED) -> bool | None:
    """Whether a reader's version is older than the shipped one (None: it said none, or not x.y.z)."""
    try:
        have = tuple(int(part) for part in said.split("."))
        want = tuple(int(part) for part in shipped.split("."))
    except ValueError:
        return None
    return have < want


def ask_version(path: str, timeout: float = 3.0) -> str | None:
    """The firmware version a reader says in the HELLO it answers ours with ("": it says none, an old
    firmware); None when nothing answered in time or the port cannot be opened (another holds it)."""
    try:
        port = serial.Serial(path, 115200, timeout=0.05, write_timeout=1.0, exclusive=True)
    except (serial.SerialException, OSError, ValueError):
        return None
    receiver, splitter = protocol.Receiver(), protocol.LineSplitter()
    start = time.monotonic()
    try:
        port.write(
            protocol.Sender().send("HELLO", {"proto": protocol.PROTOCOL_VERSION, "boot": os.urandom(4).hex()}, 0.0)
        )
        while time.monotonic() - start < timeout:
            for line in splitter.feed(port.read(max(1, port.in_waiting))):
                frame, replies = receiver.take(line, time.monotonic() - start)
                if replies:
                    port.write(b"".join(replies))  # acknowledged, so the reader stops resending
                if frame is not None and frame.verb == "HELLO":
                    return frame.fields.get("fw", "")
    except (serial.SerialException, OSError):
        return None
    finally:
        port.close()
    return None
