"""Type-checks the files the reader's Pico runs against the MicroPython rp2 stubs, so a wrong machine.Pin or SPI call
is caught without a Pico (`make lint`; `python firmware/tools/pico_types.py [folder]`)."""

# The Pico sees one flat folder: firmware/*.py (not firmware/sim/, the laptop's fakes) and companion/hw/protocol.py
# copied in as protocol.py (hardware/flashing.md). The check stages exactly that folder and runs mypy over it with
# the stubs of the MicroPython the reader is flashed with (pyproject.toml's dev extra,
# micropython-rp2-rpi_pico-stubs), and nothing of CPython: micropython-stdlib-stubs is the typeshed (its sys, os,
# builtins are MicroPython's), the board's stubs (machine, time, select, micropython ...) are the only other modules
# (MYPYPATH), and the venv's own packages are out of sight (--no-site-packages). The stub packages install their
# modules at the top of site-packages, which mypy refuses as a MYPYPATH, so their files are linked into a folder.

import os
import shutil
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the checkout (this file is firmware/tools/pico_types.py)
BOARD_STUBS = "micropython-rp2-rpi_pico-stubs"  # the plain RP2040 Pico's firmware (RPI_PICO), see pyproject.toml
STDLIB_STUBS = "micropython-stdlib-stubs"  # its dependency: MicroPython's builtins, sys, os ... in typeshed layout
# firmware/sim/ is the laptop's stand-ins and node_modules the test port: neither goes onto the Pico
NOT_ON_THE_PICO = {"sim", "node_modules", "tools"}

CONFIG = Path(__file__).resolve().parent / "pico_mypy.ini"  # the check's flags, commented there


def pico_files(root: Path = ROOT) -> list[Path]:
    """Every file the deploy copies onto the Pico, in the order the Pico's folder lists them."""
    firmware = root / "firmware"
    found = [p for p in firmware.rglob("*.py") if not NOT_ON_THE_PICO & set(p.relative_to(firmware).parts)]
    return sorted(found + [root / "companion" / "hw" / "protocol.py"], key=lambda p: p.name)


def stage(files: list[Path], folder: Path) -> list[Path]:
    """The Pico's folder: each file copied flat under its own name (protocol.py beside main.py, as deployed)."""
    folder.mkdir(parents=True, exist_ok=True)
    staged = []
    for path in files:
        shutil.copyfile(path, folder / path.name)
        staged.append(folder / path.name)
    return staged


def _distribution(name: str) -> metadata.Distribution:
    try:
        return metadata.distribution(name)
    except metadata.PackageNotFoundError:
        message = f"pico types: {name} is not installed: pip install -e '.[dev]' (make .venv/.installed)"
        raise SystemExit(message) from None


def link_board_stubs(folder: Path) -> Path:
    """A folder of the board's stub modules (links to the installed files), for MYPYPATH: the board's package and
    the stdlib package's helpers (_mpy_shed) its modules import; not the typeshed's own stdlib/ and stubs/."""
    stubs = folder / "board-stubs"
    for dist in (_distribution(BOARD_STUBS), _distribution(STDLIB_STUBS)):
        for entry in dist.files or []:
            if entry.suffix not in (".pyi", ".py") or entry.parts[0] in ("stdlib", "stubs"):
                continue
            target = stubs / entry
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(Path(str(dist.locate_file(entry))).resolve())
    return stubs


def typeshed_dir() -> Path:
    """The installed micropython-stdlib-stubs: a typeshed (stdlib/VERSIONS, stdlib/builtins.pyi ...)."""
    dist = _distribution(STDLIB_STUBS)
    return Path(str(dist.locate_file(""))).resolve()


def check(folder: Path, work: Path) -> subprocess.CompletedProcess[str]:
    """mypy over the .py files of `folder` (a staged Pico folder) against the stubs; work holds links and cache."""
    env = dict(os.environ, MYPYPATH=str(link_board_stubs(work)))
    env.pop("PYTHONPATH", None)  # the repository's own packages are not on the Pico either
    command = [sys.executable, "-m", "mypy", "--config-file", str(CONFIG), "--no-error-summary"]
    command += ["--custom-typeshed-dir", str(typeshed_dir()), "--cache-dir", str(work / "mypy-cache")]
    command += sorted(str(p) for p in folder.glob("*.py"))
    return subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True)


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="pico-types-") as tmp:
        work = Path(tmp)
        if argv:
            folder = Path(argv[0]).resolve()
        else:
            folder = work / "pico"
            stage(pico_files(), folder)
        done = check(folder, work)
    sys.stdout.write(done.stdout)
    sys.stderr.write(done.stderr)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
