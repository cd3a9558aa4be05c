"""systemd/requirements-aarch64.txt keeps up with pyproject.toml (`make lock` after a change of dependencies).

The box's venv is installed with `pip install --only-binary=:all: --require-hashes -r` this file: a
dependency added to pyproject.toml but not locked would be missing on the box, and an unpinned or
unhashed line would make pip refuse the whole file.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LOCK = REPO / "systemd" / "requirements-aarch64.txt"


def norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def entries() -> list[tuple[str, str, str, list[str]]]:
    """(name, version, marker, hashes) of each requirement in the lock file."""
    out = []
    text = LOCK.read_text(encoding="utf-8").replace("\\\n", " ")
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        m = re.match(r"^([A-Za-z0-9_.-]+)==([^\s;]+)\s*(;[^-]*)?((?:\s+--hash=sha256:[0-9a-f]{64})+)\s*$", line)
        assert m, f"not pinned and hashed: {line}"
        out.append((norm(m[1]), m[2], (m[3] or "").strip(), re.findall(r"sha256:([0-9a-f]{64})", m[4])))
    return out


def test_every_dependency_of_the_box_is_pinned_and_hashed():
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    wanted = [
        *project["build-system"]["requires"],
        *project["project"]["dependencies"],
        *project["project"]["optional-dependencies"]["pi"],
    ]
    locked = {name for name, *_ in entries()}
    missing = sorted({norm(re.split(r"[<>=!~ ;\[]", r)[0]) for r in wanted} - locked)
    assert not missing, f"not in {LOCK.name}: {missing}; run make lock"


def test_lgpio_is_locked_for_python_311_only():
    # PyPI has no lgpio >= 0.2 wheel for CPython 3.13: Trixie takes Debian's python3-lgpio
    (lgpio,) = [e for e in entries() if e[0] == "lgpio"]
    assert lgpio[2] == '; python_version == "3.11"' and lgpio[1].startswith("0.2")
