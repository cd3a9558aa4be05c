"""The one door through which the box runs other programs (nmcli for the access point, busctl for the
power-off): tests hand the daemon a fake in its place and read the lines it was asked to run."""

import subprocess
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Ran:
    """What a program answered: its exit code and its output (stdout and stderr together)."""

    code: int
    output: str = ""


Runner = Callable[[list[str]], Ran]


def run(argv: list[str], timeout: float = 30.0) -> Ran:
    """Run argv (no shell); a program that is missing or hangs answers as a failure, never raises."""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Ran(127, str(exc))
    return Ran(done.returncode, (done.stdout + done.stderr).strip())
