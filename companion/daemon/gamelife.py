"""The game's life on the box: the current game resumed at start (read-only on a card that cannot be
written), a new game started or put in place of the running one, the game over kept in the archive, and a
stranger's game accepted as the box's own. All on the writer thread (companion/daemon/owner.py)."""

import os
import threading
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.backup.keeper import after_game
from companion.backup.restore import apply_staged
from companion.editions.boards import counts as board_counts
from companion.engine.actions import TABLE
from companion.engine.command import Command
from companion.errors import LedgerDamaged, Message, RuleViolation
from companion.ledger.anchor import default_state_dir
from companion.table.service import Table, new_request_id, open_game
from companion.table.view import event_lines
from companion.words import messages

if TYPE_CHECKING:
    from .main import Daemon


class GameLife:
    """Starts, replaces, archives and resumes the box's one game; the box's parts are read at each call."""

    def __init__(self, box: "Daemon"):
        self.box = box
        self.backup_thread: threading.Thread | None = None  # the backup of the game just kept (issue 25)
        self._one_backup = threading.Lock()  # two games ended in a row: two archives, one after the other

    def resume(self) -> tuple[Table | None, str]:
        """The game the box had when it stopped (None: none, or a damaged ledger) and the warning to say
        on every screen ("": none)."""
        box = self.box
        readonly = self.read_only_reason()
        table: Table | None
        warning = ""
        try:
            if readonly is not None and box.games.current.exists():
                # a card that cannot be written: the game is shown, read from the file as it stands
                table = open_game(str(box.games.current), readonly=True, state_dir=box.games.state_dir)
            else:
                table = box.games.resume()
        except LedgerDamaged as exc:
            # a ledger that went back or forked (a restored copy, an edited file) is never played on: the
            # box starts without it and says so on every screen; `companion recover` takes it from there
            table, warning = None, messages.render_error(exc, box.lang)
        if table is not None and readonly is not None and table.readonly_reason is None:
            table.readonly_reason = readonly
        return table, warning

    def read_only_reason(self) -> Message | None:
        """Why nothing could be booked on this box's card (None: it can be written): the games folder, the
        ledger or the anchor folder on a read-only mount or refusing writes."""
        games = self.box.games
        folders = [self.box.config.games_dir, games.state_dir or default_state_dir()]
        for folder in folders:
            folder = Path(folder)
            while not folder.exists() and folder != folder.parent:  # a folder not made yet: its parent's card
                folder = folder.parent
            try:
                if os.statvfs(folder).f_flag & os.ST_RDONLY:
                    return Message("table_card_read_only", folder=str(folder))
            except OSError:
                continue
            if not os.access(folder, os.W_OK):
                return Message("table_folder_read_only", folder=str(folder), detail="EACCES", cause="EACCES")
        current = games.current
        if current.exists() and not os.access(current, os.W_OK):
            return Message("table_folder_read_only", folder=str(current), detail="EACCES", cause="EACCES")
        return None

    def start_game(
        self, edition: str, players: list[str], seed: int, options: dict[str, Any], lang: str
    ) -> dict[str, Any]:
        """(writer thread) A new game, when none is on the box; its path, seed, first lines and how many of
        its board's items are placeholders."""
        box = self.box
        if box.owner.table is not None:
            raise RuleViolation("game_on_box")
        # a table's board is read from its file, checked whole: a mistake refuses the game, naming the key
        table = box.games.start(box.catalogue.edition_file(edition), players, seed, options)
        box.owner.table = table
        if players != box.settings.players:  # a new game from the buttons keeps these names (player_names)
            box.settings.players = list(players)
            box.desk.keep_settings()
        names = ", ".join(players)
        marked = board_counts(table.rules.edition)
        # a board not checked against the box says so once, in the start's own words (one OLED page, not two
        # notices where the second would cut the first short): the OLED, the journal and every phone
        box.say(
            "game_started_unchecked" if marked.placeholder else "game_started",
            edition=table.rules.edition.names.get(box.lang, table.rules.edition.name),
            players=names,
            placeholder=marked.placeholder,
            total=marked.total,
        )
        box.reading.update_dice()
        box.console.sync()
        return {
            "path": table.ledger.path,
            "seed": seed,
            "lines": event_lines(table.rules, table.game.events[0], lang),
            "placeholders": marked.placeholder,
            "items": marked.total,
        }

    def replace_game(
        self, edition: str, players: list[str], seed: int, options: dict[str, Any], lang: str
    ) -> dict[str, Any]:
        """(writer thread) A new game even while one is on the box: that one ends (everyone's wealth counted,
        unless it is over already) and is kept in the archive, then the new one starts. The new game's
        edition and names are checked first, so a refused start leaves the old game as it was."""
        box = self.box
        rules = box.catalogue.edition_rules(edition)  # an unknown edition is refused here, before anything changes
        low, high = rules.edition.players_min, rules.edition.players_max
        if not low <= len(players) <= high or len(set(players)) != len(players):
            raise RuleViolation("new_game_players", low=low, high=high)
        table = box.owner.table
        if table is None:
            return self.start_game(edition, players, seed, options, lang)
        if table.state.phase != "over":
            box.owner.apply(TABLE, Command("end_game"), new_request_id())
        self.archive_game(backup=False)
        try:
            return self.start_game(edition, players, seed, options, lang)
        finally:
            # the box's backup once the new game's file is in place: made while it was being created, the
            # copy could find current.sqlite half made and say "Not in the backup: current.sqlite"
            self.backup_after_game()

    def archive_game(self, backup: bool = True) -> dict[str, Any]:
        """(writer thread) The game over moves to the archive; the box has no game until the next starts.
        backup: the box's automatic backup follows at once (False: the caller makes it, replace_game)."""
        box = self.box
        table = box.owner.table
        if table is None:
            raise RuleViolation("no_game_on_box")
        if table.state.phase != "over":
            raise RuleViolation("game_not_over")
        try:
            # the phone pages' readers would keep the file's -wal at this path: none open during the move
            with box.phone.release_ledger() if box.phone is not None else nullcontext():
                path = box.games.archive(table)
        except OSError:
            box.owner.table = box.games.resume()  # the move failed: the game is still current
            raise
        box.owner.table = None
        box.say("game_kept")  # a family needs no file path: `companion game archive` prints it
        box.reading.update_dice()
        box.console.sync()
        if backup:
            self.backup_after_game()
        return {"path": str(path)}

    # ----- issue 25: backups (companion/backup/, docs/backup.md) ----------------------------------------------

    def backup_after_game(self) -> None:
        """(writer thread) The automatic backup of the box at a game's end, made on a thread of its own so
        neither the game's end nor the next game waits for it; its lines are said on every screen."""
        box = self.box
        keep, usb = box.config["backup.keep"], box.config["backup.usb"]
        if keep <= 0:
            return
        games_dir, state_dir = box.config.games_dir, box.games.state_dir or default_state_dir()
        source = box.config.source if os.path.isfile(box.config.source) else None

        def work() -> None:  # the writer never waits for it; a second backup waits for the first
            with self._one_backup:
                lines = after_game(games_dir, Path(state_dir), keep, usb, source)
            for line in lines:
                box.say(line.code, **line.params)

        self.backup_thread = threading.Thread(target=work, name="companion-backup", daemon=True)
        self.backup_thread.start()

    def wait_for_backup(self, timeout: float | None) -> bool:
        """Wait for the last backup begun (an earlier one is done before it starts); True once none runs."""
        thread = self.backup_thread
        if thread is not None:
            thread.join(timeout)
        return thread is None or not thread.is_alive()

    def apply_restore(self) -> list[Message]:
        """(at start, the games folder's lock held, before anything is read) A restore staged by `companion
        restore` is applied; the box's own files are read again. The lines to say ([]: none waited)."""
        box = self.box
        lines = apply_staged(box.config.games_dir, Path(box.games.state_dir or default_state_dir()))
        if any(line.code.startswith("restore_applied") for line in lines):
            box.reload_files()
        return lines

    def accept(self, lang: str) -> dict[str, Any]:
        """(writer thread) The stranger's game the box shows read-only becomes the box's own, as it stands
        (issue 21; `companion accept`)."""
        box = self.box
        table = box.owner.table
        if table is None:
            raise RuleViolation("no_game_on_box")
        words = {"game": table.meta["game_id"][:8], "count": table.head_seq, "head": table.head_hash}
        if not table.stranger:
            return {"message": messages.render("accept_not_needed", words, lang)}
        table.adopt()
        box.say("game_accepted", game=words["game"], seq=table.head_seq)
        box.console.sync()
        return {"message": messages.render("accepted", words, lang)}
