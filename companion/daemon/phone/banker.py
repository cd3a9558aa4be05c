"""What only the banker's phone does beyond the rules' actions: the game's life (start, end, archive), the
box's settings (the banker's PIN, its language), the board walk with the cards and the table's own board
(issue 23). Each goes through the writer thread as a tap does; a refusal is one line (Refused)."""

import os
import secrets
import shutil
import tempfile
from pathlib import Path
from typing import Any, BinaryIO

from companion.backup.archive import make_backup
from companion.engine.actions import TABLE
from companion.engine.command import Command
from companion.errors import CompanionError, cause_of
from companion.ledger.anchor import default_state_dir

from ..boardedit import BoardEditor
from ..owner import Owner
from .actions import PhoneActions
from .common import Refused, say
from .reading import Reading


class BankerDesk:
    """The banker's own pages. The daemon is handed in: starting, archiving and the settings are its own
    (`start_game`, `replace_game`, `life.archive_game`, `set_banker_pin`, `set_language`, `walking`, `boards`)."""

    def __init__(self, daemon: Any, owner: Owner, reading: Reading, acting: PhoneActions):
        self.daemon = daemon
        self.owner = owner
        self.reading = reading
        self.acting = acting

    # ----- issue 23: walking the board with the cards (companion/daemon/walkdesk.py) ------------------------

    def walk_view(self, language: str) -> dict[str, Any]:
        """The board walk in the phone's words, read on the page's thread (the walk's own lock, never the writer)."""
        return self.daemon.walking.view(language)

    def walk_brief(self, language: str) -> dict[str, Any]:
        return self.daemon.walking.brief(language)

    def walk_do(self, op: str, fields: dict[str, Any], language: str) -> dict[str, Any]:
        """One step of the walk from the banker's phone, on the writer thread like a tap; a refusal is one line
        in the phone's language (the walk moved on under another phone: said so, nothing changed)."""
        walking = self.daemon.walking
        version = fields.get("version")
        version = int(version) if isinstance(version, str) and version.lstrip("-").isdigit() else None

        def work() -> Any:
            if op == "start":
                return walking.start(str(fields.get("base", "")))
            if op == "cell":
                return walking.cell(str(fields.get("key", "")), version)
            if op == "name":
                return walking.name_card(str(fields.get("plot", "")), version)
            if op == "back":
                return walking.back(version)
            if op == "leave":
                return walking.leave()
            if op == "save":
                return walking.save(version)
            raise Refused(say("walk_none", language))

        try:
            done = self.owner.call(work)
        except CompanionError as exc:
            raise Refused(self.reading.error(exc, language), 409) from None
        view = walking.view(language)
        if done is False:  # refused, said on the box too: the phone gets the same line in its language
            raise Refused(view.get("said") or say("walk_none", language), 409)
        if op == "save":
            return {"lines": [say("walk_saved", language, name=done["names"].get(language) or done["names"][""])]}
        return {"lines": [view["said"]] if view.get("said") else [], "walk": view}

    # ----- the table's own board (issue 23; companion/daemon/boardedit.py, companion/editions/boards.py) ----------
    # Not the game's: nothing here goes through the writer; the store keeps its own lock and versions.

    def _board_editor(self) -> BoardEditor:
        return BoardEditor(self.daemon.boards)

    def our_boards(self, language: str) -> list[dict[str, Any]]:
        return self._board_editor().bases(language)

    def our_board(self, base: str, language: str) -> dict[str, Any]:
        return self._board_editor().view(base, language)

    def our_board_save(
        self,
        base: str,
        version: int,
        values: dict[str, Any],
        effects: dict[str, Any],
        confirm: list[Any],
        language: str,
    ) -> dict[str, Any]:
        return self._board_editor().save(base, version, values, effects, confirm, language)

    def our_board_import(self, raw: bytes, version: int, share: bool, base: str, language: str) -> dict[str, Any]:
        return self._board_editor().import_file(raw, version, language, share, base)

    def our_board_export(self, base: str, language: str) -> tuple[str, bytes]:
        return self._board_editor().export(base, language)

    def our_board_share(self, base: str, language: str) -> dict[str, Any]:
        return self._board_editor().share(base, language)

    # ----- the game's life ---------------------------------------------------------------------------

    def editions(self, language: str) -> list[dict[str, Any]]:
        return [{"id": e, "name": n} for e, n in self.daemon.editions(language)]

    def start_game(
        self, edition: str, players: list[str], action_id: str, language: str, replace: bool = False
    ) -> dict[str, Any]:
        """A new game named on the banker's phone. replace: the game on the box, if any, ends (everyone's
        wealth counted) and is kept in the archive first (the form's tick says so), as the box's New game."""
        named = {e["id"]: e["name"] for e in self.editions(language)}
        if edition not in named:
            raise Refused(say("phone_bad_edition", language))
        names = [" ".join(p.split()) for p in players if isinstance(p, str) and p.strip()]
        if (
            not 2 <= len(names) <= 8
            or any(len(n) > 20 or not n.isprintable() for n in names)
            or len(set(names)) != len(names)
        ):
            raise Refused(say("phone_bad_players", language))

        def work() -> dict[str, Any]:
            seed = secrets.randbelow(2**32)
            start = self.daemon.replace_game if replace else self.daemon.start_game
            try:
                started = self.owner.call(lambda: start(edition, names, seed, {}, language))
            except CompanionError as exc:
                raise Refused(self.reading.error(exc, language), 409) from None
            except OSError as exc:  # the old game could not be moved into the archive
                raise Refused(exc.strerror or str(exc), 409) from None
            lines = [say("game_started", language, edition=named[edition], players=", ".join(names))]
            if started.get("placeholders"):  # issue 23: a board not checked against the box says so
                lines.append(
                    say("board_unconfirmed", language, placeholder=started["placeholders"], total=started["items"])
                )
            return {"lines": lines, "game": self.reading.game_id()}

        return self.acting.remembered(
            TABLE, action_id, f"start {edition} {' '.join(names)}", language, work, per_game=False
        )

    def end_game(self, action_id: str, language: str) -> dict[str, Any]:
        def work() -> dict[str, Any]:
            return self.acting.submit(TABLE, Command("end_game"), f"phone:end:{action_id}"[:100], language)

        return self.acting.remembered(TABLE, action_id, "end_game", language, work)

    def archive_game(self, action_id: str, language: str) -> dict[str, Any]:
        def work() -> dict[str, Any]:
            try:
                self.owner.call(self.daemon.life.archive_game)
            except CompanionError as exc:
                raise Refused(self.reading.error(exc, language), 409) from None
            except OSError as exc:
                raise Refused(exc.strerror or str(exc), 409) from None
            return {"lines": [say("game_kept", language)]}  # no file path: a family needs none

        return self.acting.remembered(TABLE, action_id, "archive", language, work, per_game=False)

    # issue 22: the table set up from the banker's phone (the first banker's PIN comes from the box)

    def new_game_form(self) -> dict[str, Any]:
        """What the new-game form starts with: eight names (the last game's, then the box's stock names) and
        how many play (the last game's count, else four)."""
        return {"names": list(self.daemon.player_names(8)), "count": self.daemon.player_count()}

    def box_language(self) -> str:
        """The language chosen at the box or by the banker ("": none chosen; phones go by the browser's)."""
        return str(self.daemon.settings.language)

    def set_banker_pin(self, pin: str, language: str) -> dict[str, Any]:
        """The banker changes the banker's PIN (kept by the box like one set with its buttons)."""
        pin = pin.strip() if isinstance(pin, str) else ""
        if not (pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 8):
            raise Refused(say("phone_bad_pin", language))
        self.owner.call(lambda: self.daemon.set_banker_pin(pin))
        return {"lines": [say("banker_pin_set", language)]}

    def set_box_language(self, lang: str, language: str) -> dict[str, Any]:
        """The banker sets the box's language (the OLED's, and the phones' that chose none)."""
        self.owner.call(lambda: self.daemon.set_language(lang))
        return {"lines": [say("language_set", lang)]}

    # ----- issue 25: a backup of the box, downloaded by the banker (companion/backup/, docs/backup.md) --------

    def backup_archive(self, language: str) -> tuple[str, BinaryIO]:
        """A fresh archive of the box without the PINs (the banker's and the seats'), as its name and an open
        file: the file has no name left on the box once opened, so an abandoned download leaves nothing behind.
        Made off the writer thread (SQLite's backup API reads a consistent copy while the game goes on)."""
        daemon = self.daemon
        games_dir = Path(daemon.config.games_dir)
        state_dir = Path(daemon.games.state_dir or default_state_dir())
        try:
            games_dir.mkdir(parents=True, exist_ok=True)
            folder = Path(tempfile.mkdtemp(prefix=".download-", dir=games_dir))  # on the box's card, not in RAM
        except OSError as exc:
            raise Refused(
                say("backup_auto_failed", language, detail=exc.strerror or str(exc), cause=cause_of(exc)), 409
            ) from None
        try:
            made = make_backup(games_dir, state_dir, folder, None, pins=False)
            handle = open(made.path, "rb")
            os.unlink(made.path)
        except (OSError, CompanionError) as exc:
            detail = getattr(exc, "strerror", None) or str(exc)
            raise Refused(say("backup_auto_failed", language, detail=detail, cause=cause_of(exc)), 409) from None
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return made.path.name, handle
