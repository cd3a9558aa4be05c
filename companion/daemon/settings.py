"""What the box's own menu sets and a restart keeps (the sound), in box.json beside the games.

A table that turned the beeps off at nine in the evening should not hear them
again after the plug was pulled. The file is tiny and written atomically
(temporary file, fsync, rename), like the card map. A damaged or unreadable
file is not a reason to keep the box from starting: the defaults are used and
the reason is said in one line.
"""

import json
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

FILE = "box.json"


@dataclass
class BoxSettings:
    muted: bool = False  # the box's beeps; the reader's own read click always sounds

    @classmethod
    def load(cls, folder: Path) -> tuple["BoxSettings", str]:
        """The settings in folder/box.json (defaults when there is none) and, when the file could not
        be used, its path (else "")."""
        path = Path(folder) / FILE
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return cls(), ""
        except (OSError, UnicodeDecodeError, ValueError):
            return cls(), str(path)
        if not isinstance(data, dict) or not isinstance(data.get("muted", False), bool):
            return cls(), str(path)
        return cls(muted=data.get("muted", False)), ""

    def save(self, folder: Path) -> None:
        """Write folder/box.json atomically; OSError when the folder cannot be written."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".box-", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(asdict(self), f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, folder / FILE)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
