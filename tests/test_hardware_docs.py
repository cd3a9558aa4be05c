"""The box's hardware pages (hardware/) against the pin plan and the reader firmware.

The pin plan is written out once below. The wiring diagram must name every pin in it. The
pin tables in hardware/pins.md must match it, and the Pico table must match the PIN_*
constants in firmware/main.py. A missing firmware/main.py fails that test: a skip would let
the two drift apart unseen. The acceptance checks must each say they are not yet verified on
hardware, and every I2C speed line must say 400000.
"""

import ast
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
HW = ROOT / "hardware"
FIRMWARE_MAIN = ROOT / "firmware" / "main.py"
NOT_VERIFIED = "not yet verified on hardware"

# the Pico: firmware constant -> (GPIO number, physical pin)
PICO = {
    "PIN_SCK": (18, 24),
    "PIN_MOSI": (19, 25),
    "PIN_MISO": (16, 21),
    "PIN_CS": (17, 22),
    "PIN_RST": (20, 26),
    "PIN_ROLL": (15, 20),
    "PIN_BUZZER": (14, 19),
    "PIN_LED": (13, 17),
}
SPI_ID = 0
PICO_POWER = [("3V3(OUT)", 36), ("GND", 23), ("GND", 18)]
# the Pi: GPIO number -> (physical pin, a word its row in pins.md must contain)
PI = {2: (3, "SDA"), 3: (5, "SCL"), 17: (11, "OK"), 27: (13, "BACK"), 22: (15, "PREV"), 23: (16, "NEXT")}
PI_POWER = [("3V3", 1), ("GND", 9), ("GND", 14)]


def _svg_texts():
    root = ET.parse(HW / "wiring.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg", root.tag
    return [" ".join("".join(el.itertext()).split()) for el in root.iter("{http://www.w3.org/2000/svg}text")]


def _names(texts, name, physical):
    """Whether one label names the pin and its physical number: 'SCK GP18 (24)', 'GPIO2 SDA (3)', 'GND (9)'."""
    pattern = re.compile(r"(?<![\w(])" + re.escape(name) + r"(?![\w(])[^()]*\(" + str(physical) + r"\)")
    return any(pattern.search(t) for t in texts)


def test_wiring_svg_parses_and_names_every_pin_of_the_plan():
    texts = _svg_texts()
    missing = [f"GP{gpio} ({phys})" for gpio, phys in PICO.values() if not _names(texts, f"GP{gpio}", phys)]
    missing += [f"{name} ({phys})" for name, phys in PICO_POWER + PI_POWER if not _names(texts, name, phys)]
    missing += [f"GPIO{gpio} ({phys})" for gpio, (phys, _) in PI.items() if not _names(texts, f"GPIO{gpio}", phys)]
    assert not missing, f"hardware/wiring.svg has no label for: {', '.join(missing)}"
    assert any("dtparam=i2c_arm=on,i2c_arm_baudrate=400000" in t for t in texts)


def _table_rows(path, heading):
    """The cells of every table row under a '## heading' (up to the next '## ')."""
    text = path.read_text(encoding="utf-8")
    start = text.index("## " + heading)
    end = text.find("\n## ", start + 3)
    section = text[start : end if end != -1 else len(text)]
    return [
        [c.strip() for c in line.strip().strip("|").split("|")] for line in section.splitlines() if line.startswith("|")
    ]


def _pico_table():
    """pins.md's Pico rows: constant -> (GPIO, physical pin), read from the row's cells."""
    found = {}
    for cells in _table_rows(HW / "pins.md", "The reader: Raspberry Pi Pico"):
        gpio = re.fullmatch(r"GP(\d+)", cells[0])
        const = re.search(r"`(PIN_\w+) = (\d+)`", " ".join(cells))
        if gpio and const:
            assert int(const.group(2)) == int(gpio.group(1)), cells
            assert const.group(1) not in found, f"{const.group(1)} twice in hardware/pins.md"
            found[const.group(1)] = (int(gpio.group(1)), int(cells[1]))
    return found


def test_pins_md_pico_table_is_the_plan():
    assert _pico_table() == PICO
    rows = _table_rows(HW / "pins.md", "The reader: Raspberry Pi Pico")
    power = [(c[0], int(c[1])) for c in rows if c[0] in ("3V3(OUT)", "GND")]
    assert sorted(power) == sorted(PICO_POWER)
    text = (HW / "pins.md").read_text(encoding="utf-8")
    assert f"`SPI_ID = {SPI_ID}`" in text


def test_pins_md_pi_table_is_the_plan():
    found = {}
    power = []
    for cells in _table_rows(HW / "pins.md", "The Pi: 40-pin header"):
        gpio = re.fullmatch(r"GPIO(\d+)", cells[0])
        if gpio:
            found[int(gpio.group(1))] = (int(cells[1]), cells[2])
        elif cells[0] in ("3V3", "GND"):
            power.append((cells[0], int(cells[1])))
    assert {g: p for g, (p, _) in found.items()} == {g: p for g, (p, _) in PI.items()}
    for gpio, (_, word) in PI.items():
        assert word in found[gpio][1].split(), (gpio, found[gpio])
    assert sorted(power) == sorted(PI_POWER)


def _firmware_constants(path):
    """The module-level NAME = 18 or NAME = const(18) assignments of PIN_* and SPI_ID."""
    found = {}
    for node in ast.parse(path.read_text(encoding="utf-8"), filename=str(path)).body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        if isinstance(value, ast.Call) and getattr(value.func, "id", getattr(value.func, "attr", None)) == "const":
            value = value.args[0] if len(value.args) == 1 else value
        for target in targets:
            if isinstance(target, ast.Name) and (target.id.startswith("PIN_") or target.id == "SPI_ID"):
                assert isinstance(value, ast.Constant) and isinstance(value.value, int), (
                    f"firmware/main.py line {node.lineno}: {target.id} is not a plain number"
                )
                found[target.id] = value.value
    return found


def test_pico_pin_table_matches_the_firmware_constants():
    if not FIRMWARE_MAIN.exists():
        pytest.fail(
            "firmware/main.py does not exist yet, so the Pico pin table in hardware/pins.md cannot be "
            "checked against its PIN_* constants; this test passes once the firmware is in"
        )
    consts = _firmware_constants(FIRMWARE_MAIN)
    table = {name: gpio for name, (gpio, _) in _pico_table().items()}
    pins = {k: v for k, v in consts.items() if k.startswith("PIN_")}
    assert pins == table, (
        f"firmware/main.py {dict(sorted(pins.items()))} != hardware/pins.md {dict(sorted(table.items()))}"
    )
    assert consts.get("SPI_ID") == SPI_ID, f"firmware/main.py SPI_ID = {consts.get('SPI_ID')}, pins.md says {SPI_ID}"


def test_every_acceptance_check_is_marked_not_yet_verified():
    text = (HW / "acceptance.md").read_text(encoding="utf-8")
    table = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0].isdigit():
            table[int(cells[0])] = cells[-1]
    sections = re.split(r"^### (?=\d+\. )", text, flags=re.M)[1:]
    bodies = {int(s.split(".", 1)[0]): s for s in sections}
    assert len(table) >= 10
    assert sorted(table) == list(range(1, len(table) + 1)), sorted(table)
    assert sorted(bodies) == sorted(table), "the summary table and the ### sections list different checks"
    unmarked = [n for n, status in table.items() if status != NOT_VERIFIED]
    unmarked += [n for n, body in bodies.items() if f"Status: {NOT_VERIFIED}." not in body]
    assert not unmarked, f"checks without the status '{NOT_VERIFIED}': {sorted(set(unmarked))}"
    assert NOT_VERIFIED in (HW / "README.md").read_text(encoding="utf-8")


def test_the_i2c_speed_line_says_400000():
    files = sorted(HW.glob("*.md")) + [HW / "wiring.svg"]
    seen = []
    for path in files:
        for m in re.finditer(r"i2c_arm_baudrate=(\d+)", path.read_text(encoding="utf-8")):
            seen.append((path.name, m.group(1)))
    assert seen and all(v == "400000" for _, v in seen), seen
    assert {"pins.md", "acceptance.md", "wiring.svg"} <= {name for name, _ in seen}
    assert "0006 1a80" in (HW / "acceptance.md").read_text(encoding="utf-8")  # 400000 as the kernel stores it
    assert 0x00061A80 == 400000


def test_the_frame_time_arithmetic_in_pins_md():
    """9 clocks a byte; 1024 data bytes + address + 0x40, and an 8-byte window command."""
    text = (HW / "pins.md").read_text(encoding="utf-8")
    data, total = (1024 + 2) * 9, (1024 + 2 + 8) * 9
    for hz in (100_000, 400_000):
        assert f"{data} / {hz:,}".replace(",", " ") + f" = {data / hz * 1000:.1f} ms" in text
        assert f"{total} / {hz:,}".replace(",", " ") + f" = {total / hz * 1000:.1f} ms" in text


def test_hardware_pages_link_to_files_that_exist():
    broken = []
    for path in sorted(HW.glob("*.md")):
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", path.read_text(encoding="utf-8")):
            if not (path.parent / target).exists():
                broken.append(f"{path.name} -> {target}")
    assert not broken, broken
