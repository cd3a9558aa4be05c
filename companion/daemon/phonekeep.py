"""What the phone page keeps per game in the games folder, so it outlives a restart: the table code, the seats'
PINs and the phones' lasting roles (each under the SHA-256 of the phone's cookie token, never the token)."""

import hashlib
import json
import logging
import re
import secrets
import time
from pathlib import Path
from typing import Any

from companion.files.wholefile import write_whole

log = logging.getLogger("companion.phone")

FOLDER = "phones"  # <games_dir>/phones/<game id>.json
ROLES_PER_GAME = 256  # lasting roles kept per game: beyond it the spectator joined longest ago goes first
_GID = re.compile(r"[0-9a-f]{1,64}")


def token_hash(token: str) -> str:
    """What the box keeps of a phone's token: its SHA-256 (a copy of the games folder lets nobody in)."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_role_id() -> str:
    """A short id the banker's Roles page names a lasting role by (to revoke it): not the token, nor its hash."""
    return secrets.token_hex(4)


class PhoneKeep:
    """One JSON file per game: {"code", "pins": {seat: pin}, "roles": {hash: {id, role, player, csrf, since}}}."""

    def __init__(self, games_dir: Path | None):
        self.folder = games_dir / FOLDER if games_dir is not None else None

    def _path(self, gid: str | None) -> Path | None:
        if self.folder is None or gid is None or not _GID.fullmatch(gid):
            return None
        return self.folder / f"{gid}.json"

    def load(self, gid: str | None) -> dict[str, Any]:
        """The game's kept record ({} when none, or unreadable: the box then starts it afresh and says why in
        its log; a damaged file never stops the page)."""
        path = self._path(gid)
        if path is None or not path.exists():
            return {}
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            log.warning("phone: %s could not be read (%s): the phones join afresh", path, exc)
            return {}
        return data if isinstance(data, dict) else {}

    def save(self, gid: str | None, data: dict[str, Any]) -> None:
        """Written whole and moved into place (a power cut leaves the old file or the new), readable by the
        box's user only: it holds the seats' PINs."""
        path = self._path(gid)
        if path is None:
            return
        try:
            write_whole(path, json.dumps(data, ensure_ascii=False, sort_keys=True))
        except OSError as exc:  # a full or read-only card: the roles still hold until the box restarts
            log.warning("phone: %s could not be written (%s)", path, exc)


def trim(roles: dict[str, dict[str, Any]]) -> None:
    """At most ROLES_PER_GAME: a flood of phones showing the table code drops spectators, oldest first, never a
    player's or the banker's role."""
    while len(roles) > ROLES_PER_GAME:
        spectators = [h for h, r in roles.items() if r.get("role") == "spectator"]
        victims = spectators or list(roles)
        oldest = min(victims, key=lambda h: float(roles[h].get("since", 0)))
        del roles[oldest]


def now() -> float:
    return time.time()
