"""`companion firmware install`: copy the reader's firmware onto a Pico running MicroPython with mpremote."""

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

from companion.cli.common import CommandFactory, out
from companion.doctor.system import System
from companion.errors import SaidInput
from companion.hw.firmware import FILES, SHIPPED, missing_files, mpremote_args
from companion.hw.reader import BY_ID_PATTERN
from companion.words import messages

UDEV_NAME = "/dev/companion-reader"  # the installer's udev rule names the Pico so


def mpremote() -> str | None:
    """mpremote on PATH, else beside this Python (the box's venv, where the `pi` extra puts it)."""
    beside = Path(sys.executable).parent / "mpremote"
    return shutil.which("mpremote") or (str(beside) if os.access(beside, os.X_OK) else None)


def find_pico(system: System) -> str | None:
    """The Pico's serial device: the installer's udev name, else the first MicroPython board by id."""
    if system.exists(UDEV_NAME):
        return UDEV_NAME
    found = system.glob(BY_ID_PATTERN)
    return found[0] if found else None


def cmd_firmware(args: argparse.Namespace) -> int:
    lang = args.lang
    lacking = missing_files()
    if lacking:
        raise SaidInput("firmware_files_missing", path=str(lacking[0]))
    system = System(args.root)
    port = args.port or find_pico(system)
    if port is None:
        raise SaidInput("firmware_no_pico", pattern=BY_ID_PATTERN)
    if not system.exists(port):
        raise SaidInput("firmware_no_port", device=port)
    tty = system.link_target(port) or port
    holders = system.holders({tty, port})
    if holders:
        raise SaidInput("firmware_port_held", device=port, pid=holders[0].pid, name=holders[0].name)
    tool = mpremote()
    if tool is None:
        raise SaidInput("firmware_no_mpremote")
    out(messages.render("firmware_copying", {"device": port, "version": SHIPPED}, lang))
    for source, name in FILES:
        out(f"  {source} -> :{name}")
    done = subprocess.run([tool, *mpremote_args(str(system.path(port)))], stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        raise SaidInput("firmware_copy_failed", status=done.returncode)
    out(messages.render("firmware_copied", {"version": SHIPPED}, lang))
    return 0


def add_parsers(command: CommandFactory, lang: argparse.ArgumentParser) -> None:
    """firmware."""
    p = command("firmware", help="the reader's firmware: install copies it onto the Pico (with mpremote)")
    sub = p.add_subparsers(dest="action", required=True)
    s = sub.add_parser(
        "install", help="copy the firmware this version ships onto a Pico running MicroPython", parents=[lang]
    )
    s.add_argument(
        "--port", help=f"the Pico's serial device (default: /dev/companion-reader, else the first {BY_ID_PATTERN})"
    )
    s.add_argument("--root", help=argparse.SUPPRESS)  # the tests' fake /dev and /proc
    p.set_defaults(func=cmd_firmware)
