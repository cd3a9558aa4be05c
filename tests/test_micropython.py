"""The reader's firmware files under real MicroPython: the official WebAssembly port (npm, installed by
`make test` into firmware/node_modules) run by node. A missing node or port fails in one line: the
firmware is never left untested by a skip."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
PORT = ROOT / "firmware" / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"
VECTORS = json.loads((ROOT / "firmware" / "vectors.json").read_text(encoding="utf-8"))

# run after companion/hw/protocol.py in one MicroPython program (the port concatenates its files)
CHECK = '''
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
'''


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
    assert done.stdout.strip() == f"micropython ok {len(VECTORS['good'])} {len(VECTORS['bad'])}", \
        done.stdout + done.stderr
