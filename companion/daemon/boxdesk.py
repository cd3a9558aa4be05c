"""What the box's buttons and menus do: the presses handed to the console, the actions its menus
choose (book, undo, a new game, end, archive, enrol a card), the box's own settings (the sound, the
banker's PIN, the language, the last players' names) and the phone page as the OLED shows it.

The console (companion/daemon/console.py) asks these through its Desk protocol, on the writer thread.
"""

import random
import threading
from typing import TYPE_CHECKING, Any

from companion.engine.actions import TABLE
from companion.engine.command import Command
from companion.errors import BadInput, CompanionError
from companion.hw import buttons as box_buttons
from companion.words import messages

from .cards import Role
from .gamemenu import NAMES
from .netwatch import mdns_name
from .taps import Meaning

if TYPE_CHECKING:
    from .main import Daemon
    from .walkdesk import BoardWalk


class BoxDesk:
    """The console's Desk over the box's parts, which it reads at each call."""

    def __init__(self, box: "Daemon"):
        self.box = box

    @property
    def lang(self) -> str:
        return self.box.lang

    @property
    def walking(self) -> "BoardWalk":
        return self.box.walking

    # ----- the buttons (called on the buttons' thread: hand everything to the writer) ---------------

    def on_press(self, press: box_buttons.Press) -> None:
        self.box.owner.post(lambda: self.box.reading.guarded(self.press, press))

    def press(self, press: box_buttons.Press) -> None:
        # a choice that came up by itself (the plot on offer) is seen before a press can take it: a short
        # press while a receipt still covers it only puts the receipt away
        if (
            not press.long
            and self.box.panel is not None
            and self.box.console.came_by_itself()
            and self.box.panel.dismiss()
        ):
            self.box.console.refresh()
            return
        if self.box.panel is not None:
            self.box.panel.dismiss()
        self.box.console.press(press.name, press.long)

    # ----- what the console asks (companion/daemon/console.py Desk; on the writer thread) --------------

    def book(self, actor: str, command: Command) -> bool:
        """Book a confirmed command as this actor; the reader beeps the verdict."""
        return self.box.reading.book(Meaning(actor, command))

    def undo_chain(self, order: tuple[int, ...]) -> None:
        """Undo these events in this order (newest first), stopping at the first refusal."""
        for seq in order:
            if not self.box.reading.book(Meaning(TABLE, Command("undo", (str(seq),)))):
                return

    def new_game(self, edition: str, players: list[str], options: dict[str, Any]) -> None:
        """A new game from the box's menu: the game now on the box, if any, is ended and archived first."""
        try:
            self.box.life.replace_game(edition, players, random.SystemRandom().randrange(2**32), options, self.box.lang)
        except (CompanionError, OSError) as exc:
            why = (
                messages.render_error(exc, self.box.lang)
                if isinstance(exc, CompanionError)
                else exc.strerror or str(exc)
            )
            self.box.reading.refuse("tap_failed", why=why)
        else:
            self.box.reading.booked()

    def end_game(self) -> None:
        self.box.reading.book(Meaning(TABLE, Command("end_game")))

    def archive_game(self) -> None:
        try:
            self.box.life.archive_game()
        except (CompanionError, OSError) as exc:
            why = messages.render_error(exc, self.box.lang) if isinstance(exc, CompanionError) else str(exc)
            self.box.reading.refuse("tap_failed", why=why)

    def enrol_wait(self, kind: str, ref: str) -> None:
        table = self.box.owner.table
        role = Role(kind, ref) if kind == "player" else Role(kind, ref, table.rules.edition.id if table else "")
        self.box.reading.expect_card(role)

    def jackpot_ready(self, player: str, bet: int) -> None:
        self.box.reading.jackpot_ready(player, bet)

    def head_words(self) -> str:
        table = self.box.owner.table
        return table.head_words(self.box.lang) if table is not None else ""

    def editions(self, lang: str | None = None) -> list[tuple[str, str]]:
        return self.box.catalogue.editions(lang or self.box.lang)

    def edition_rules(self, edition: str) -> Any:
        return self.box.catalogue.edition_rules(edition)

    # ----- the box's settings (issue 22: the table set up from the box and the banker's phone) ---------

    @property
    def banker_pin(self) -> str:
        """The PIN that makes a phone the banker's: the one set at the box, else the config's ("": none)."""
        return self.box.settings.banker_pin or str(self.box.config["phone.banker_pin"])

    def has_banker_pin(self) -> bool:
        """Whether a PIN was set at the box (the menu then offers to remove it)."""
        return bool(self.box.settings.banker_pin)

    def set_banker_pin(self, pin: str) -> None:
        """(writer thread) The banker's PIN, set at the box (Game… → Banker PIN) or by the banker's phone;
        "" removes the box's own (the config's, if any, holds again)."""
        self.box.settings.banker_pin = pin
        self.box.say("banker_pin_set" if pin else "banker_pin_removed")
        self.keep_settings()

    def set_language(self, lang: str) -> None:
        """(writer thread) The box's language (Game… → Language): the OLED, the printer, and the phones that
        have not chosen their own follow it; kept across restarts."""
        if lang not in messages.LANGUAGES:
            raise BadInput("no such language")
        self.box.lang = self.box.settings.language = lang
        if self.box.panel is not None:
            self.box.panel.language = lang
        if self.box.phone is not None:
            self.box.phone.language = lang
        self.box.say("language_set")
        self.keep_settings()

    def player_names(self, count: int) -> list[str]:
        """The names a new game from the buttons gives its players: the last game's (named on the banker's
        phone, say), then the box's stock names in its language that are not taken yet."""
        names = list(dict.fromkeys(self.box.settings.players))[:count]
        stock = [n for n in NAMES.get(self.box.lang, NAMES["en"]) if n not in names]
        return names + stock[: count - len(names)]

    def player_count(self) -> int:
        """How many played the last game (a new game's picker starts there), else four."""
        last = len(self.box.settings.players)
        return last if last >= 2 else 4

    def keep_settings(self) -> None:
        """Write the box's settings; a card that refuses is said, and the box goes on with them in memory."""
        try:
            self.box.settings.save(self.box.config.games_dir)
        except OSError as exc:
            self.box.say("settings_not_kept", why=exc.strerror or str(exc))

    @property
    def muted(self) -> bool:
        """Whether the box's own beeps are off (Game… → Sound off); the reader's read click stays."""
        return self.box.settings.muted

    def set_muted(self, muted: bool) -> None:
        self.box.settings.muted = muted
        self.box.say("sound_muted" if muted else "sound_unmuted")
        self.keep_settings()

    # ----- the phone page as the box shows it (the QR code, the table code, pairing) -----------------

    def phone_url(self) -> str:
        """The address the OLED's QR code carries: the phone page, with the table code after # (a fragment
        never reaches the server or its logs) so a scan joins as a spectator."""
        if self.box.phone is None:
            return self.phone_base_url()
        return self.phone_page_url() + "#code=" + self.box.phone.table_code()

    def phone_page_url(self) -> str:
        """The phone page's own address under the base phones use (phone.url, else this host's .local name)."""
        base = self.phone_base_url().rstrip("/")
        return base + "/" if base.endswith("/phone") else base + "/phone/"

    def table_code(self) -> str:
        """The short code that lets a phone watch the table ("" when the phone page is not served)."""
        return self.box.phone.table_code() if self.box.phone is not None else ""

    def pairing_code(self) -> str:
        """The code of the phone waiting to pair, offered first in the menu a player's card opens."""
        return self.box.phone.waiting_code() if self.box.phone is not None else ""

    def pair_phone(self, code: str, player: str) -> None:
        """The player chose "Phone CODE is mine" in their menu (docs/phone.md)."""
        if self.box.phone is not None:
            self.box.phone.pair_with(code, player)

    def phone_base_url(self) -> str:
        """Where phones reach this box NOW: phone.url (an override), else the box's IP address (the default
        route's interface first: companion/daemon/netwatch.py; Android does not resolve .local everywhere),
        else, with no network yet, this host's .local name; the phone page's port after it."""
        if self.box.config["phone.url"]:
            return str(self.box.config["phone.url"])
        address = self.box.address.address if self.box.address is not None else ""
        return f"http://{address or mdns_name()}:{self.phone_port()}/"

    def phone_port(self) -> int:
        return int(self.box.config["phone.port"] or 8080)

    def phone_name_address(self) -> str:
        """The .local name phones whose browser resolves mDNS may type (shown as text beside the QR code);
        "" when phone.url overrides the address."""
        if self.box.config["phone.url"]:
            return ""
        port = self.phone_port()
        return mdns_name() + ("" if port == 80 else f":{port}")

    def has_address(self) -> bool:
        """Whether phones can reach the box now (an override, or any IPv4 address)."""
        return bool(self.box.config["phone.url"]) or bool(self.box.address and self.box.address.address)

    def hotspot_qr(self) -> tuple[str, str, str]:
        """(the Wi-Fi QR code's text, the network's name, its password) while the box's own Wi-Fi is open,
        else ("", "", "")."""
        spot = self.box.hotspot
        if spot is None or not spot.active:
            return "", "", ""
        return spot.qr(), spot.ssid, spot.password

    def power_off(self) -> None:
        """(writer thread) Game… → Power off…, confirmed: the daemon stops cleanly on a thread of its own
        (stopping joins the writer thread this runs on), then asks logind to power off."""
        threading.Thread(target=self.box.power_off, name="power-off", daemon=True).start()

    def footer(self) -> str:
        """What every idle page says at the bottom: the reader is away, the sound is off."""
        link = self.box.link.state.state if self.box.link is not None else "none"
        if link in ("offline", "searching", "refused"):
            return messages.render("footer_reader_offline", {}, self.box.lang)
        return messages.render("footer_muted", {}, self.box.lang) if self.muted else ""
