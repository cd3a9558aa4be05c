"""Write a small file whole or not at all: the box's own files (card map, settings, roles, walk, boards).

A temporary file beside the target, fsync, rename over it, fsync of the folder: a power cut leaves the
old file or the new one, never half of either. The ledger keeps its own copy of this (companion/ledger
imports only the engine's records).
"""

import os
import threading
from pathlib import Path


def write_whole(path: Path, text: str, private: bool = True) -> None:
    """Put `text` at `path` whole (UTF-8, "\\n" line ends); private: readable by the box's user only (a
    file holding PINs or the card map). OSError when it cannot be written; nothing is left behind then."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if private else 0o644)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
