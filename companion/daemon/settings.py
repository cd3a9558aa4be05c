"""What the box's own menu sets and a restart keeps (the sound, the banker's PIN, the language, the last
players' names), in box.json beside the games.

A table that turned the beeps off at nine in the evening should not hear them
again after the plug was pulled. The file is tiny and written atomically
(temporary file, fsync, rename), like the card map. A damaged or unreadable
file is not a reason to keep the box from starting: the defaults are used and
the reason is said in one line.
"""

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from companion.files.wholefile import write_whole

FILE = "box.json"
LANGUAGES = ("en", "ru")
MAX_NAME = 20  # a player's name, as the phone's new-game form takes it
MAX_PLAYERS = 8


def good_pin(pin: str) -> bool:
    """A banker's PIN: 4 to 8 digits (the box's picker sets 4; a phone may set up to 8)."""
    return isinstance(pin, str) and pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 8


def good_names(names: object) -> bool:
    return (
        isinstance(names, list)
        and len(names) <= MAX_PLAYERS
        and all(isinstance(n, str) and n.strip() and len(n) <= MAX_NAME and n.isprintable() for n in names)
    )


@dataclass
class BoxSettings:
    muted: bool = False  # the box's beeps; the reader's own read click always sounds
    # issue 22: the table set up from the box (docs/box.md). The banker's PIN set at the box ("": none
    # set there; the config's phone.banker_pin, if any, is used); the language chosen at the box ("": the
    # config's or --lang); the names of the last game started, which a new game from the buttons keeps.
    banker_pin: str = ""
    language: str = ""
    players: list[str] = field(default_factory=list)

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
        pin, language, players = data.get("banker_pin", ""), data.get("language", ""), data.get("players", [])
        if (
            (pin != "" and not good_pin(pin))
            or (language != "" and language not in LANGUAGES)
            or not good_names(players)
        ):
            return cls(), str(path)
        return cls(muted=data.get("muted", False), banker_pin=pin, language=language, players=list(players)), ""

    def save(self, folder: Path) -> None:
        """Write folder/box.json atomically; OSError when the folder cannot be written."""
        write_whole(Path(folder) / FILE, json.dumps(asdict(self)))
