"""The reader's Pico files are type-checked against the MicroPython rp2 stubs (firmware/tools/pico_types.py, run by `make lint`):
the real files pass, and a wrong machine.Pin or SPI call planted in a copy is reported on its line, though the
laptop's fakes (firmware/sim/machine.py) take most of them without a word and only a Pico would refuse them."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
TOOL = ROOT / "firmware" / "tools" / "pico_types.py"


def _tool():
    spec = importlib.util.spec_from_file_location("pico_types", TOOL)
    assert spec is not None and spec.loader is not None, f"{TOOL} is missing"
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_check(*args):
    return subprocess.run([sys.executable, str(TOOL), *map(str, args)], capture_output=True, text=True, timeout=300)


def test_the_check_stages_the_files_the_pico_gets(tmp_path):
    tool = _tool()
    staged = tool.stage(tool.pico_files(), tmp_path)
    names = sorted(p.name for p in staged)
    assert {"main.py", "reader.py", "mfrc522.py", "protocol.py"} <= set(names)
    # the laptop's fakes never go onto the Pico, so the check never reads them
    assert not {"machine.py", "fake_mfrc522.py", "sim_reader.py"} & set(names)
    assert (tmp_path / "protocol.py").read_bytes() == (ROOT / "companion" / "hw" / "protocol.py").read_bytes()


def test_the_real_firmware_passes_the_check():
    done = run_check()
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == ""


# (file, a line of it, the line with a mistake in it, what mypy says about it)
PLANTED = [
    # a pin mode the Pico has no constant for
    ("main.py", "led = Pin(PIN_LED, Pin.OUT, value=0)", "led = Pin(PIN_LED, Pin.OUTT, value=0)", '"OUTT"'),
    # SPI's baudrate is a number of Hz
    (
        "main.py",
        "spi = SPI(SPI_ID, baudrate=1_000_000,",
        'spi = SPI(SPI_ID, baudrate="fast",',
        'No overload variant of "SPI"',
    ),
    # pull is a keyword-or-third argument of Pin, never a fourth positional one
    (
        "main.py",
        "roll = Pin(PIN_ROLL, Pin.IN, Pin.PULL_UP)",
        "roll = Pin(PIN_ROLL, Pin.IN, 0, Pin.PULL_UP)",
        'Too many positional arguments for "Pin"',
    ),
    # the driver's SPI calls, through the bus it is handed (machine.SPI in its type comment)
    (
        "mfrc522.py",
        "self.spi.write_readinto(self._out, self._in)",
        "self.spi.write_readinto(self._out)",
        "write_readinto",
    ),
    ("mfrc522.py", "self.spi.write(self._out)", "self.spi.write(self._out, 2)", '"write" of "SPI"'),
    # CPython's time is not the Pico's: the check reads MicroPython's stdlib, not the laptop's
    (
        "main.py",
        "        led.value(1)\n",
        "        led.value(1)\n        time.sleep(time.perf_counter())\n",
        "perf_counter",
    ),
]


@pytest.mark.parametrize("name, good, bad, said", PLANTED, ids=[p[2].strip().split("\n")[-1] for p in PLANTED])
def test_a_planted_wrong_call_is_reported_on_its_line(tmp_path, name, good, bad, said):
    tool = _tool()
    folder = tmp_path / "pico"
    tool.stage(tool.pico_files(), folder)
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert text.count(good) == 1, f"{name} no longer holds {good!r}: plant the mistake elsewhere"
    text = text.replace(good, bad)
    path.write_text(text, encoding="utf-8")
    line = text[: text.index(bad)].count("\n") + 1 + bad.rstrip("\n").count("\n")
    done = run_check(folder)
    assert done.returncode == 1, done.stdout + done.stderr
    errors = [e for e in done.stdout.splitlines() if ": error: " in e]
    assert errors, done.stdout + done.stderr
    assert all(e.startswith(f"{name}:{line}: ") for e in errors), (line, errors)
    assert said in done.stdout, done.stdout
