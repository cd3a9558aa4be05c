"""The reader's firmware files under real MicroPython: the official WebAssembly port (npm, installed by
`make test` into firmware/node_modules) run by node. A missing node or port fails in one line: the
firmware is never left untested by a skip."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.hw.protocol import FIRMWARE_VERSION, decode

ROOT = Path(__file__).parent.parent
PORT = ROOT / "firmware" / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"
VECTORS = json.loads((ROOT / "firmware" / "vectors.json").read_text(encoding="utf-8"))

# run after companion/hw/protocol.py in one MicroPython program (the port concatenates its files)
CHECK = """
import sys
VECTORS = %r
assert sys.implementation.name == "micropython", sys.implementation.name
assert crc16(b"123456789") == 0x29B1
for v in VECTORS["good"]:
    f = decode(v["line"].encode())
    assert f == Frame(v["seq"], v["verb"], v["fields"]), (v, f)
    assert encode(f.seq, f.verb, f.fields) == v["line"].encode() + b"\\n", v
for v in VECTORS["bad"]:
    try:
        decode(v["line"].encode())
        raise AssertionError(v)
    except LinkError as e:
        assert e.code == v["error"], (v, e.code)
splitter = LineSplitter()
lines = splitter.feed(b"1 TAP uid=DEADBEEF *F24D\\n" + b"y" * 200 + b"\\n0 PI")
assert len(lines) == 1 and splitter.dropped == 1, (lines, splitter.dropped)
receiver = Receiver()
frame, reply = receiver.take(lines[0], 0.0)
assert frame.fields == {"uid": "DEADBEEF"} and reply == [encode(0, "ACK", {"seq": 1})], (frame, reply)
assert receiver.take(lines[0], 0.1)[0] is None
sender = Sender()
line = sender.send("TAP", {"uid": "0A"}, 0.0)
assert sender.due(0.06) == [line]
print("micropython ok", len(VECTORS["good"]), len(VECTORS["bad"]))
"""


def run_micropython(*files):
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed: the firmware cannot be tested under MicroPython (apt install nodejs)")
    if not PORT.exists():
        pytest.fail(f"the MicroPython WebAssembly port is missing: run `make test` (npm ci in firmware/), not {PORT}")
    return subprocess.run([node, str(PORT), *map(str, files)], capture_output=True, text=True, timeout=120)


def test_the_link_protocol_runs_under_real_micropython(tmp_path):
    """The one protocol file both ends share reads and writes every test vector the same under
    MicroPython as under CPython (tests/test_protocol.py), and splits, acknowledges and resends."""
    check = tmp_path / "check.py"
    check.write_text(CHECK % (VECTORS,), encoding="utf-8")
    done = run_micropython(ROOT / "companion" / "hw" / "protocol.py", check)
    assert done.stdout.strip() == f"micropython ok {len(VECTORS['good'])} {len(VECTORS['bad'])}", (
        done.stdout + done.stderr
    )


# --- the reader's own files under MicroPython ------------------------------------------------------

FIRMWARE = ROOT / "firmware"


def firmware_modules():
    """name -> source of every module the reader needs, as the deploy lays them out on the Pico (the link
    protocol as protocol.py), plus the laptop's fake machine and fake chip."""
    sources = {
        "protocol": (ROOT / "companion" / "hw" / "protocol.py").read_text(encoding="utf-8"),
        "reader": (FIRMWARE / "reader.py").read_text(encoding="utf-8"),
        "main": (FIRMWARE / "main.py").read_text(encoding="utf-8"),
        "machine": (FIRMWARE / "sim" / "machine.py").read_text(encoding="utf-8"),
    }
    sources["mfrc522"] = (FIRMWARE / "mfrc522.py").read_text(encoding="utf-8")
    sources["fake_mfrc522"] = (FIRMWARE / "sim" / "fake_mfrc522.py").read_text(encoding="utf-8")
    return sources


def run_micropython_with_modules(tmp_path, script):
    """Run script under MicroPython with the firmware's modules importable by name, as on the Pico. The
    port's command line only concatenates its files into one program, so `import reader` would find
    nothing: a first part writes each module's source into the port's in-memory filesystem (a folder put
    first on sys.path) and the script then imports them for real, each in its own namespace."""
    lines = [
        "import os, sys",
        "try:",
        "    os.mkdir('/fw')",
        "except OSError:",
        "    pass",
        "sys.path.insert(0, '/fw')",
    ]
    for name, source in firmware_modules().items():
        lines += ["with open('/fw/%s.py', 'w') as f:" % name, "    f.write(%r)" % source]
    (tmp_path / "install.py").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "script.py").write_text(script, encoding="utf-8")
    return run_micropython(tmp_path / "install.py", tmp_path / "script.py")


# A reader and a Pi end (protocol's Receiver) in one program: the reader says HELLO, a card is placed and
# held, the Pi asks for 3 dice and the button is pressed. It prints each line the Pi acts on, so the same
# script under CPython and under MicroPython must print the same bytes.
ROUND_TRIP = """
import protocol
import reader
from fake_mfrc522 import FakeMFRC522
from mfrc522 import MFRC522

class Level:
    def __init__(self, level):
        self.level = level
    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v

SOURCE = [0x12, 0x34, 0x56, 0x78, 255, 7, 200, 13]   # the boot id, then a byte thrown away and three dice
taken = []
def random_bytes(n):
    out = bytes(SOURCE[len(taken) + i] for i in range(n))
    taken.extend(out)
    return out

bus = FakeMFRC522()
chip = MFRC522(bus, bus.cs, bus.rst)
chip.init()
button, buzzer, wire = Level(1), Level(0), []
r = reader.Reader(chip, button, buzzer, Level(0), wire.append, random_bytes)
splitter, pi, pi_sender = protocol.LineSplitter(), protocol.Receiver(), protocol.Sender()
back = b""
buzzed_at = []

def turn(now):
    global back
    r.poll(now, back)
    if buzzer.value() and not buzzed_at:
        buzzed_at.append(now)
    out = b"".join(wire)
    del wire[:]
    back = b""
    for line in splitter.feed(out):
        frame, replies = pi.take(line, now / 1000)
        back += b"".join(replies)
        if frame is not None and frame.verb == "ACK":
            pi_sender.acknowledged(int(frame.fields["seq"]))
        elif frame is not None and frame.seq:
            print(line.decode())
            if frame.verb == "TAP":
                print("tap read at", now, "beep at", buzzed_at[0])

now = 0
for _ in range(10):
    turn(now)
    now += 10
bus.place(bytes([0xDE, 0xAD, 0xBE, 0xEF]))
for _ in range(30):
    turn(now)
    now += 10
back += pi_sender.send("DICE", {"n": 3}, now / 1000)
turn(now)
button.value(0)
for _ in range(10):
    now += 10
    turn(now)
button.value(1)
for _ in range(20):
    now += 10
    turn(now)
print("taps", r.taps, "rolls", r.rolls, "dice", r.dice_n, "errors", r.link_errors, "pending", len(r.sender.pending))
"""


def test_a_tap_and_a_roll_make_the_same_lines_under_micropython_as_under_cpython(tmp_path):
    """firmware/reader.py with the MFRC522 driver and the fake chip, under the real MicroPython port: the
    HELLO, one TAP with the local beep in the reading poll, and a ROLL of the 3 dice the Pi asked for,
    drawn with the rejection rule (255 thrown away, then 7, 200, 13 -> 2, 3, 2)."""
    done = run_micropython_with_modules(tmp_path, ROUND_TRIP)
    lines = done.stdout.splitlines()
    assert len(lines) == 5, done.stdout + done.stderr
    assert [decode(line.encode()).verb for line in lines[:2] + lines[3:4]] == ["HELLO", "TAP", "ROLL"]
    assert decode(lines[0].encode()).fields == {"boot": "12345678", "fw": FIRMWARE_VERSION, "proto": "1"}
    assert decode(lines[1].encode()).fields == {"uid": "DEADBEEF"}
    read_at, beep_at = lines[2].split()[3], lines[2].split()[6]
    assert read_at == beep_at
    assert decode(lines[3].encode()).fields == {"dice": "2,3,2"}
    assert lines[4] == "taps 1 rolls 1 dice 3 errors 0 pending 0"
    # the same program on CPython, each module from where it lies in the checkout (protocol.py copied as
    # the deploy copies it)
    deploy = tmp_path / "deploy"
    deploy.mkdir()
    (deploy / "protocol.py").write_text(firmware_modules()["protocol"], encoding="utf-8")
    path = [str(FIRMWARE), str(FIRMWARE / "sim"), str(deploy)]
    cpython = subprocess.run(
        [sys.executable, str(tmp_path / "script.py")],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, PYTHONPATH=os.pathsep.join(path)),
        cwd=tmp_path,
    )
    assert cpython.stdout == done.stdout, cpython.stderr


MAIN_LOOP = """
import machine
from fake_mfrc522 import FakeMFRC522
import os
os.urandom = lambda n: bytes(range(1, n + 1))   # the WebAssembly port has no urandom; the Pico has
import main

class Serial:
    def __init__(self):
        self.incoming, self.written = b"", []
    def read(self):
        data, self.incoming = self.incoming, b""
        return data
    def write(self, data):
        self.written.append(data)

class Clock:
    ms = 0
    def now(self):
        self.ms += 10
        return self.ms

chip = FakeMFRC522()
machine.BUSES[main.SPI_ID] = chip
machine.WIRED[main.PIN_CS] = chip.cs
machine.WIRED[main.PIN_RST] = chip.rst
serial = Serial()
r = main.run(loops=3, serial=serial, clock=Clock(), sleep=lambda ms: None)
print(b"".join(serial.written).decode().strip())
print("roll pin", machine.LEVELS[main.PIN_ROLL], "led", machine.LEVELS[main.PIN_LED])
"""


def test_main_runs_its_loop_under_micropython_with_the_fake_machine(tmp_path):
    """firmware/main.py wires the pins through machine (firmware/sim/machine.py here), sets
    micropython.kbd_intr and runs its loop: the reader's HELLO comes out of the serial end."""
    done = run_micropython_with_modules(tmp_path, MAIN_LOOP)
    lines = done.stdout.splitlines()
    assert len(lines) == 2, done.stdout + done.stderr
    assert decode(lines[0].encode()).fields == {"boot": "01020304", "fw": FIRMWARE_VERSION, "proto": "1"}
    assert lines[1] == "roll pin 1 led 0"
