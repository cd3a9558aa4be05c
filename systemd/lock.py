#!/usr/bin/env python3
"""Write systemd/requirements-aarch64.txt: every wheel the box's venv needs, pinned and hashed.

`make lock` runs it (on any machine with pip and PyPI, an x86 laptop will do) after a change of
pyproject.toml's dependencies or to take newer releases. It asks pip to resolve
pyproject.toml's `dependencies`, the `pi` extra and the build requirement (setuptools, which
builds companion itself on the box without a compiler: companion is pure Python) for the box's
Pythons:

- CPython 3.11 (Raspberry Pi OS / Debian 12 Bookworm),
- CPython 3.13 (Raspberry Pi OS / Debian 13 Trixie),

on aarch64 with the manylinux tags a Bookworm glibc (2.36) accepts, wheels only
(`--only-binary=:all:`: nothing is ever compiled on a Pi Zero 2 W). It then pins every
resolved release with the sha256 of each wheel that pip downloaded, so
`pip install --only-binary=:all: --require-hashes -r` installs exactly these files or nothing.

lgpio has no CPython 3.13 wheel on PyPI (only 0.0.0.2, an empty placeholder without the
constants gpiozero needs), so it is pinned for 3.11 only; on 3.13 systemd/install.sh takes
Debian's python3-lgpio through a venv with --system-site-packages.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "requirements-aarch64.txt"
PYTHONS = ("3.11", "3.13")
# Bookworm's glibc is 2.36: every manylinux tag up to it, and the legacy alias of 2.17
PLATFORMS = ["manylinux2014_aarch64"] + [f"manylinux_2_{n}_aarch64" for n in range(17, 37)]
# no usable wheel for these Pythons: the installer takes Debian's package instead
WITHOUT = {"3.13": {"lgpio"}}


def requirements(pyproject: Path) -> list[str]:
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    build = project["build-system"]["requires"]
    deps = project["project"]["dependencies"]
    # the pi extra's markers say aarch64: this file is for aarch64 only (pip download would
    # evaluate them against this machine, not the box)
    pi = [r.split(";")[0].strip() for r in project["project"]["optional-dependencies"]["pi"]]
    return list(dict.fromkeys([*build, *deps, *pi]))


def norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def resolve(reqs: list[str], python: str, dest: Path) -> dict[str, tuple[str, set[str]]]:
    """{name: (version, {sha256, ...})} of what pip downloads for this Python."""
    abi = "cp" + python.replace(".", "")
    skip = WITHOUT.get(python, set())
    wanted = [r for r in reqs if norm(re.split(r"[<>=!~ \[]", r)[0]) not in skip]
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--quiet",
        "--only-binary=:all:",
        "--dest",
        str(dest),
        "--python-version",
        python,
        "--implementation",
        "cp",
        "--abi",
        abi,
        "--abi",
        "abi3",
        "--abi",
        "none",
    ]
    for p in PLATFORMS:
        cmd += ["--platform", p]
    # PyPI alone: no local wheel folders or constraints from this machine's pip configuration
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_") or k == "PIP_CERT"}
    env["PIP_CONFIG_FILE"] = os.devnull
    subprocess.run(cmd + wanted, check=True, env=env)
    found: dict[str, tuple[str, set[str]]] = {}
    for wheel in sorted(dest.glob("*.whl")):
        name, version = wheel.name.split("-")[:2]
        digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
        found.setdefault(norm(name), (version, set()))[1].add(digest)
    return found


def wheelhouse(dest: Path, python: str) -> int:
    """Download exactly the pinned wheels for one of the box's Pythons into DEST (a box offline)."""
    abi = "cp" + python.replace(".", "")
    lines = []
    for entry in OUT.read_text(encoding="utf-8").replace("\\\n", " ").splitlines():
        if not entry.strip() or entry.startswith("#"):
            continue
        marker = re.search(r'; python_version == "([0-9.]+)"', entry)
        if marker and marker[1] != python:
            continue
        lines.append(re.sub(r' ; python_version == "[0-9.]+"', "", entry))
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as reqs:
        reqs.write("\n".join(lines) + "\n")
        reqs.flush()
        cmd = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--only-binary=:all:",
            "--no-deps",
            "--require-hashes",
            "--dest",
            str(dest),
            "--python-version",
            python,
            "--implementation",
            "cp",
            "--abi",
            abi,
            "--abi",
            "abi3",
            "--abi",
            "none",
            "-r",
            reqs.name,
        ]
        for p in PLATFORMS:
            cmd += ["--platform", p]
        env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_") or k == "PIP_CERT"}
        env["PIP_CONFIG_FILE"] = os.devnull
        subprocess.run(cmd, check=True, env=env)
    print(f"{dest}: {len(lines)} wheels for CPython {python} on aarch64 (systemd/install.sh --wheelhouse {dest})")
    return 0


def main() -> int:
    if sys.argv[1:2] == ["--wheelhouse"]:
        python = sys.argv[sys.argv.index("--python") + 1] if "--python" in sys.argv else PYTHONS[0]
        return wheelhouse(Path(sys.argv[2]), python)
    reqs = requirements(HERE.parent / "pyproject.toml")
    per_python = {}
    for python in PYTHONS:
        with tempfile.TemporaryDirectory() as tmp:
            per_python[python] = resolve(reqs, python, Path(tmp))
    lines = [
        "# The box's venv, wheels only: pinned, hashed, for aarch64 manylinux (glibc <= 2.36),",
        "# CPython 3.11 (Bookworm) and 3.13 (Trixie). Made by `make lock` (systemd/lock.py) from",
        "# pyproject.toml; do not edit by hand. Used by systemd/install.sh as",
        "# pip install --only-binary=:all: --require-hashes -r systemd/requirements-aarch64.txt",
    ]
    names = sorted(set().union(*per_python.values()))
    for name in names:
        seen = {py: per_python[py][name] for py in PYTHONS if name in per_python[py]}
        versions = {v for v, _ in seen.values()}
        if len(versions) == 1 and len(seen) == len(PYTHONS):
            groups = [("", versions.pop(), set().union(*(h for _, h in seen.values())))]
        else:
            groups = [(f' ; python_version == "{py}"', v, h) for py, (v, h) in seen.items()]
        for marker, version, hashes in groups:
            lines.append(f"{name}=={version}{marker} \\")
            lines += [f"    --hash=sha256:{h} \\" for h in sorted(hashes)]
            lines[-1] = lines[-1].removesuffix(" \\")
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{OUT.relative_to(HERE.parent)}: {len(names)} packages for CPython {', '.join(PYTHONS)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
