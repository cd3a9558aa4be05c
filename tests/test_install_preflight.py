"""systemd/install.sh's preflight: what it refuses and why, one line each, before it changes anything.

The preflight reads COMPANION_PREFLIGHT_ROOT/etc/os-release and takes the architecture from
COMPANION_ARCH ("kernel" or "kernel/dpkg architecture"), so a faked Raspberry Pi OS is checked on
any machine. `--preflight` only checks: nothing is written, not even the install log.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
INSTALL = REPO / "systemd" / "install.sh"

PI_OS = {  # what 64-bit Raspberry Pi OS Bookworm says (its os-release is Debian's)
    "PRETTY_NAME": "Debian GNU/Linux 12 (bookworm)",
    "ID": "debian",
    "VERSION_ID": "12",
    "VERSION_CODENAME": "bookworm",
}

pytestmark = pytest.mark.skipif(
    shutil.which("bash") is None or shutil.which("python3") is None, reason="no bash/python3"
)


def preflight(
    tmp_path: Path,
    os_release: dict[str, str] | None = PI_OS,
    arch: str = "aarch64",
    python: str | None = None,
    free_mb: int | None = None,
    as_nobody: bool = False,
) -> subprocess.CompletedProcess[str]:
    root = tmp_path / "fake-root"
    (root / "etc").mkdir(parents=True, exist_ok=True)
    for d in (root, root / "etc"):
        d.chmod(0o755)
    if os_release is not None:
        (root / "etc" / "os-release").write_text("".join(f'{k}="{v}"\n' for k, v in os_release.items()))
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
    env.update(COMPANION_PREFLIGHT_ROOT=str(root), COMPANION_ARCH=arch)
    if python:  # a python3 first on PATH that says it is this version
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir(exist_ok=True)
        fake = bin_dir / "python3"
        fake.write_text(f"#!/bin/sh\necho {python}\n")
        fake.chmod(0o755)
        bin_dir.chmod(0o755)
        env["PATH"] = f"{bin_dir}:{env['PATH']}"
    if free_mb is not None:
        env["COMPANION_MIN_FREE_MB"] = str(free_mb)
    script = INSTALL
    if as_nobody and os.geteuid() == 0:
        # a copy of the script the user nobody can read: a clone under `mktemp -d` (0700) is closed to it
        script = tmp_path / "checkout" / "systemd" / "install.sh"
        script.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(INSTALL, script)
        for d in (script.parent.parent, script.parent):
            d.chmod(0o755)
        script.chmod(0o644)
    cmd = ["bash", str(script), "--preflight"]
    if as_nobody and os.geteuid() == 0:
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=60)


def refusals(done: subprocess.CompletedProcess[str]) -> list[str]:
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith("preflight: ") and lines[-1].endswith("problem(s), nothing was changed"), lines
    assert all(line.startswith("preflight: ") for line in lines), lines
    return lines[:-1]


needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="the preflight refuses anyone but root (CI runs as root)")


@needs_root
@pytest.mark.parametrize("codename,version", [("bookworm", "12"), ("trixie", "13")])
def test_raspberry_pi_os_64bit_passes(tmp_path, codename, version):
    done = preflight(tmp_path, {**PI_OS, "VERSION_CODENAME": codename, "VERSION_ID": version})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"preflight: ok (debian {codename}, aarch64/arm64, Python 3.")


@needs_root
def test_32bit_pi_os_bookworm_passes_the_os_but_not_the_architecture(tmp_path):
    done = preflight(tmp_path, {**PI_OS, "ID": "raspbian"}, arch="armv7l")
    (line,) = refusals(done)
    assert "architecture: armv7l" in line and "32-bit" in line and "Pi Zero 2 W, 3, 4 or 5" in line


@needs_root
@pytest.mark.parametrize(
    "arch,words",
    [
        ("armv6l", ["32-bit", "Raspberry Pi OS (64-bit)"]),
        ("aarch64/armhf", ["64-bit kernel under a armhf", "Raspberry Pi OS (64-bit)"]),
        ("x86_64", ["x86_64 is refused", "make demo"]),
    ],
)
def test_other_architectures_are_refused_with_the_reason(tmp_path, arch, words):
    (line,) = refusals(preflight(tmp_path, arch=arch))
    assert line.startswith("preflight: architecture: ")
    assert all(w in line for w in words), line


@needs_root
@pytest.mark.parametrize(
    "release,words",
    [
        ({**PI_OS, "VERSION_ID": "11", "VERSION_CODENAME": "bullseye"}, ["bullseye", "Python < 3.11", "Bookworm"]),
        ({"ID": "ubuntu", "VERSION_ID": "24.04", "VERSION_CODENAME": "noble"}, ["ubuntu 24.04 is refused", "untested"]),
        (None, ["os-release missing"]),
    ],
)
def test_other_systems_are_refused_with_the_reason(tmp_path, release, words):
    (line,) = refusals(preflight(tmp_path, release))
    assert line.startswith("preflight: OS: ")
    assert all(w in line for w in words), line


@needs_root
def test_an_old_python_is_refused(tmp_path):
    (line,) = refusals(preflight(tmp_path, python="3.9"))
    assert line == "preflight: Python: 3.9 is too old: companion needs Python >= 3.11 (Bookworm has 3.11)"


@needs_root
def test_a_full_disk_is_refused(tmp_path):
    (line,) = refusals(preflight(tmp_path, free_mb=10**9))
    assert line.startswith("preflight: disk: ") and f"{10**9} MB needed" in line


def test_everything_wrong_at_once_is_one_line_each():
    # a folder that the user nobody may read, for the faked os-release and python3
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        done = preflight(
            Path(tmp), {"ID": "fedora", "VERSION_ID": "40"}, arch="x86_64", python="3.10", free_mb=10**9, as_nobody=True
        )
    lines = refusals(done)
    topics = [line.split(":")[1].strip() for line in lines]
    expected = ["OS", "architecture", "Python", "disk"]
    if os.geteuid() == 0:
        expected.insert(0, "not root")
    assert topics == expected, lines


def test_preflight_alone_writes_nothing(tmp_path):
    log = Path("/var/log/companion-install.log")
    before = log.stat().st_mtime if log.exists() else None
    preflight(tmp_path)
    assert (log.stat().st_mtime if log.exists() else None) == before
