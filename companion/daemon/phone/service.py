"""The phone page's service: what web/phone/ (its `PhoneTable` protocol) may see and do on the daemon.

`PhoneService` is the one object web/phone/ is handed. It wires small parts, each handed only the
services it needs, and answers for them one method each:

    reading.py     how a page reads the open game (the writer's snapshot, a borrowed read-only connection)
    roles.py       the table code, the seats' and banker's PINs, the roles phones keep
    pairing.py     pairing a phone with a player's card on the reader
    views.py       what each page shows; export.py the ledger as JSON and CSV
    actions.py     what a phone may do (the rules' actions, the banker's undo); banker.py the banker's own
                   pages (the game's life, the box's settings, the walk, the table's own board)
    streams.py     live updates to the open pages; auctioneer.py the quiet auction hammered down

Everything is handed back as plain dicts already in words, in the language asked. Refusals are
ValueError (common.Refused: bad input or a rule, HTTP 400 or `status`) or PermissionError
(common.WrongRole: the wrong role, 403), each one line in the phone's language.
"""

import socket
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import urlsplit

from companion.engine.command import Command
from companion.table.history import Readers

from ..phonekeep import PhoneKeep
from .actions import PhoneActions
from .auctioneer import Auctioneer
from .banker import BankerDesk
from .export import LedgerExport
from .pairing import CardPairing
from .reading import Reading
from .roles import TableRoles
from .streams import EventStreams, PhoneStream
from .views import PhoneViews


class PhoneService:
    """web.phone.PhoneTable over a running Daemon: the parts wired, and each of the page's questions handed
    to the part that answers it. `clock` is read through this object (a test swaps `service.clock`)."""

    def __init__(self, daemon: Any, clock: Callable[[], float] = time.monotonic):
        self.daemon = daemon
        self.owner = daemon.owner
        self.language = daemon.lang  # the box's language (the daemon sets it again when the banker changes it)
        self.clock = clock
        self._hosts: frozenset[str] | None = None
        self._readers = Readers()  # read-only ledger connections for the pages (never the writer's)
        games_dir = getattr(daemon.config, "games_dir", None)
        keep = PhoneKeep(games_dir if isinstance(games_dir, Path) else None)
        self.reading = Reading(self.owner, self._readers, lambda: self.language)
        self.roles = TableRoles(self.owner, self.reading, keep, lambda: str(daemon.banker_pin), self._now)
        self.pairing = CardPairing(daemon, self.owner, self.reading, self._now)
        self.views = PhoneViews(self.owner, self.reading, self.roles)
        self.exports = LedgerExport(self.reading, self.views)
        self.acting = PhoneActions(daemon, self.owner, self.reading, self.views)
        self.banker = BankerDesk(daemon, self.owner, self.reading, self.acting)
        self.streams = EventStreams(self.owner, self.reading)
        self.auctioneer = Auctioneer(self.owner, self.reading, lambda: self.quiet_seconds, self._now)

    def _now(self) -> float:
        return self.clock()

    # ----- life ------------------------------------------------------------------------------

    @property
    def quiet_seconds(self) -> float:
        return float(self.daemon.config["phone.auction_quiet_seconds"])

    def start(self) -> "PhoneService":
        self.auctioneer.start()
        # the box's names looked up now, off the first request's path (a name lookup may wait for DNS)
        threading.Thread(target=self.allowed_hosts, name="companion-phone-names", daemon=True).start()
        return self

    def stop(self) -> None:
        self.auctioneer.stop()
        self._readers.close()

    def phone_url(self) -> str:
        return str(self.daemon.phone_base_url())

    def phone_name(self) -> str:
        """The box's .local name and port, shown as text beside the QR code ("" under phone.url)."""
        return str(self.daemon.desk.phone_name_address())

    def allowed_hosts(self) -> frozenset[str]:
        """The names a phone may reach the page under (its Host header; any IP address is also fine, in
        web/phone/): localhost, this machine's name (also .local, and its full name), the host of
        phone.url and of phone.host, and the names in phone.allowed_hosts. Worked out once: a name lookup
        may be slow and every request asks."""
        if self._hosts is None:
            name = socket.gethostname()
            names = {"localhost", name, name + ".local", socket.getfqdn(name)}
            url_host = urlsplit(str(self.daemon.config["phone.url"])).hostname
            names.add(url_host or "")
            names.add(str(self.daemon.config["phone.host"]))
            names.add(str(self.daemon.config["virtual_table.host"]))  # the phone pages beside the virtual table
            names.update(str(self.daemon.config["phone.allowed_hosts"]).split(","))
            self._hosts = frozenset(n.strip().rstrip(".").lower() for n in names if n.strip().rstrip("."))
        return self._hosts

    def release_ledger(self) -> AbstractContextManager[Any]:
        """While the game moves into the archive (a with block): no page's read connection open on its file."""
        return self._readers.closed_while(wait=5.0)

    # ----- the game, its code and the roles (roles.py) ---------------------------------------------------

    def game_id(self) -> str | None:
        return self.reading.game_id()

    def table_code(self) -> str:
        return self.roles.table_code()

    def check_code(self, code: str) -> bool:
        return self.roles.check_code(code)

    def keep_role(self, token: str, role: str, player: str, csrf: str, game: str | None, old_token: str = "") -> None:
        self.roles.keep_role(token, role, player, csrf, game, old_token)

    def find_role(self, token: str) -> dict[str, Any] | None:
        return self.roles.find_role(token)

    def roles_kept(self, language: str, token: str = "") -> list[dict[str, Any]]:
        return self.roles.roles_kept(language, token)

    def revoke_role(self, rid: str) -> str:
        return self.roles.revoke_role(rid)

    def check_banker(self, pin: str, language: str, client: str = "") -> None:
        self.roles.check_banker(pin, language, client)

    def set_seat_pin(self, seat: int, pin: str, language: str) -> dict[str, Any]:
        return self.roles.set_seat_pin(seat, pin, language)

    def claim_seat(self, seat: int, pin: str, language: str, client: str = "") -> dict[str, Any]:
        return self.roles.claim_seat(seat, pin, language, client)

    # ----- pairing by the reader (pairing.py) ----------------------------------------------------------

    def pair_start(self, language: str, who: str = "", client: str = "") -> dict[str, Any]:
        return self.pairing.pair_start(language, who, client)

    def pair_status(self, pid: str) -> dict[str, Any]:
        return self.pairing.pair_status(pid)

    def pair_cancel(self, pid: str) -> None:
        self.pairing.pair_cancel(pid)

    def pair_clear(self) -> str:
        return self.pairing.pair_clear()

    def waiting_code(self) -> str:
        return self.pairing.waiting_code()

    def pair_with(self, code: str, player: str) -> bool:
        return self.pairing.pair_with(code, player)

    # ----- views (views.py, export.py) ---------------------------------------------------------------

    def head(self, language: str) -> dict[str, Any]:
        return self.views.head(language)

    def banner(self, language: str, role: str) -> dict[str, Any]:
        return self.views.banner(language, role)

    def head_at(self, seq: int, language: str) -> dict[str, Any]:
        return self.views.head_at(seq, language)

    def table_view(self, language: str) -> dict[str, Any]:
        return self.views.table_view(language)

    def player_view(self, seat: int, language: str) -> dict[str, Any]:
        return self.views.player_view(seat, language)

    def board_view(self, language: str) -> dict[str, Any]:
        return self.views.board_view(language)

    def ledger_view(self, language: str, before: int | None = None) -> dict[str, Any]:
        return self.views.ledger_view(language, before)

    def summary(self, language: str) -> dict[str, Any]:
        return self.views.summary(language)

    def undo_list(self, language: str) -> dict[str, Any]:
        return self.views.undo_list(language)

    def undo_preview(self, seq: int, language: str) -> dict[str, Any]:
        return self.views.undo_preview(seq, language)

    def export(self, language: str) -> dict[str, Any]:
        return self.exports.export(language)

    # ----- actions (actions.py) ------------------------------------------------------------------------

    def actions(self, actor: str, language: str) -> list[dict[str, Any]]:
        return self.acting.actions(actor, language)

    def act(self, actor: str, fields: dict[str, Any], action_id: str, language: str) -> dict[str, Any]:
        return self.acting.act(actor, fields, action_id, language)

    def jackpot_bet(self, actor: str, command: Command, language: str) -> dict[str, Any]:
        return self.acting.jackpot_bet(actor, command, language)

    def preview(self, actor: str, command: Command, language: str) -> dict[str, Any]:
        return self.acting.preview(actor, command, language)

    def command_from(self, fields: dict[str, Any], language: str) -> Command:
        return self.acting.command_from(fields, language)

    def undo(self, seq: int, action_id: str, language: str) -> dict[str, Any]:
        return self.acting.undo(seq, action_id, language)

    # ----- the banker's own pages (banker.py) -------------------------------------------------------------

    def editions(self, language: str) -> list[dict[str, Any]]:
        return self.banker.editions(language)

    def start_game(
        self, edition: str, players: list[str], action_id: str, language: str, replace: bool = False
    ) -> dict[str, Any]:
        return self.banker.start_game(edition, players, action_id, language, replace)

    def end_game(self, action_id: str, language: str) -> dict[str, Any]:
        return self.banker.end_game(action_id, language)

    def archive_game(self, action_id: str, language: str) -> dict[str, Any]:
        return self.banker.archive_game(action_id, language)

    def new_game_form(self) -> dict[str, Any]:
        return self.banker.new_game_form()

    def box_language(self) -> str:
        return self.banker.box_language()

    def set_banker_pin(self, pin: str, language: str) -> dict[str, Any]:
        return self.banker.set_banker_pin(pin, language)

    def set_box_language(self, lang: str, language: str) -> dict[str, Any]:
        return self.banker.set_box_language(lang, language)

    def walk_view(self, language: str) -> dict[str, Any]:
        return self.banker.walk_view(language)

    def backup_archive(self, language: str) -> tuple[str, BinaryIO]:
        return self.banker.backup_archive(language)

    def walk_brief(self, language: str) -> dict[str, Any]:
        return self.banker.walk_brief(language)

    def walk_do(self, op: str, fields: dict[str, Any], language: str) -> dict[str, Any]:
        return self.banker.walk_do(op, fields, language)

    def our_boards(self, language: str) -> list[dict[str, Any]]:
        return self.banker.our_boards(language)

    def our_board(self, base: str, language: str) -> dict[str, Any]:
        return self.banker.our_board(base, language)

    def our_board_save(
        self,
        base: str,
        version: int,
        values: dict[str, Any],
        effects: dict[str, Any],
        confirm: list[Any],
        language: str,
    ) -> dict[str, Any]:
        return self.banker.our_board_save(base, version, values, effects, confirm, language)

    def our_board_import(self, raw: bytes, version: int, share: bool, base: str, language: str) -> dict[str, Any]:
        return self.banker.our_board_import(raw, version, share, base, language)

    def our_board_export(self, base: str, language: str) -> tuple[str, bytes]:
        return self.banker.our_board_export(base, language)

    def our_board_share(self, base: str, language: str) -> dict[str, Any]:
        return self.banker.our_board_share(base, language)

    # ----- the live stream (streams.py) ---------------------------------------------------------------

    def stream(self, since: int, language: str) -> PhoneStream:
        return self.streams.stream(since, language)
