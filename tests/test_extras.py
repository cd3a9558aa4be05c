"""The install extras resolve for the boards they are for: `pi` on 64-bit Pi OS (gpiozero over lgpio,
wheels only), and RPi.GPIO only ever in the legacy extra."""

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).parent.parent

# pip evaluates markers for the machine it runs on; a Pi's pip says aarch64, so this one must too
PIP_AS_A_PI = """
import platform, runpy, sys
platform.machine = lambda: "aarch64"
sys.argv = ["pip", *sys.argv[1:]]
runpy.run_module("pip", run_name="__main__")
"""


# the wheel tags a Pi with Raspberry Pi OS 12 (glibc 2.36) accepts: pip does not widen an explicit
# --platform to the older manylinux tags itself, and Pillow ships manylinux_2_28 wheels only
PI_TAGS = [f"manylinux_2_{minor}_aarch64" for minor in (34, 28, 27, 17)] + ["manylinux2014_aarch64"]


def test_the_pi_extra_resolves_to_wheels_for_a_64_bit_pi(tmp_path):
    platforms = [arg for tag in PI_TAGS for arg in ("--platform", tag)]
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            PIP_AS_A_PI,
            "download",
            "--quiet",
            "--only-binary=:all:",
            *platforms,
            "--python-version",
            "3.11",
            "--dest",
            str(tmp_path),
            f"{ROOT}[pi]",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    got = {p.name.split("-")[0].lower() for p in tmp_path.iterdir()}
    assert {"gpiozero", "lgpio", "pyserial", "luma_oled", "pillow"} <= got, got
    assert not any(name.startswith("rpi") for name in got), got
    lgpio = next(p.name for p in tmp_path.iterdir() if p.name.lower().startswith("lgpio"))
    assert "aarch64" in lgpio


def test_rpi_gpio_is_only_in_the_legacy_extra():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert not any("rpi" in req.lower() for req in extras["pi"])
    assert any(req.lower().startswith("rpi.gpio") for req in extras["legacy-pi"])
    assert all("aarch64" in req for req in extras["pi"])
