"""The virtual table's service: what the web page (web/app.py, VirtualTable) may see and do on a
daemon running simulated hardware: the OLED's picture, the buttons, ROLL and the enrolled cards.

Every action goes through the simulated hardware itself: a button is a gpiozero
mock pin held down and let go (so our debounce and long press decide what it
was), ROLL and a tap go through the simulated reader's firmware and the serial
link, exactly as on the box. The page never reaches the game directly.
"""

import io
import threading
import time
from typing import Any

from companion.words import messages

from .cards import Role, normal_uid, role_words

SHORT_S, LONG_S = 0.08, 1.0  # how long a click holds a button down (the long press is 0.8 s)
GAP_S = 0.08  # and how long it is up before the next click (the debounce is 0.03 s)
CARD_ON_READER_S = 0.25  # a tap: the card lies on the reader this long (the firmware scans every 50 ms)
BUTTONS = ("up", "down", "ok", "back")


class VirtualTableService:
    """web.app.VirtualTable over a running Daemon with simulated hardware."""

    def __init__(self, daemon: Any):
        self.daemon = daemon
        self._changed = threading.Condition()
        self._version = 0
        self._press_lock = threading.Lock()  # one finger at a time: a press is a pin down, then up
        if daemon.panel is not None:
            daemon.panel.on_draw = self._drawn

    @property
    def language(self) -> str:
        """The box's language, read each time: the page's words and the cards follow it."""
        return self.daemon.lang

    def _drawn(self) -> None:
        with self._changed:
            self._version += 1
            self._changed.notify_all()

    def frame(self) -> tuple[int, bytes]:
        panel = self.daemon.panel
        image = panel.screen.image if panel is not None else None
        out = io.BytesIO()
        if image is None:
            from PIL import Image

            image = Image.new("1", (128, 64))
        image.save(out, format="PNG")
        return self._version, out.getvalue()

    def wait_frame(self, after: int, timeout: float) -> int:
        with self._changed:
            self._changed.wait_for(lambda: self._version > after, timeout)
            return self._version

    def press(self, button: str, long: bool) -> None:
        if button not in BUTTONS:
            raise ValueError(f"unknown button {button!r} (one of {', '.join(BUTTONS)})")
        factory = self.daemon.pin_factory
        if factory is None:
            raise ValueError("the buttons are not simulated here")
        pin = factory.pin(self.daemon.config[f"buttons.{button}"])
        with self._press_lock:
            pin.drive_low()  # pressed pins read low (to GND, pull-up on)
            time.sleep(LONG_S if long else SHORT_S)
            pin.drive_high()
            # up long enough to count as let go: a release shorter than the debounce is a bounce, and two
            # clicks in a row would merge into one hold
            time.sleep(GAP_S)

    def roll(self) -> None:
        sim = self.daemon.sim
        if sim is None:
            raise ValueError("the reader is real here: press its ROLL button")
        sim.press_roll()

    def tap(self, uid: str) -> None:
        sim = self.daemon.sim
        if sim is None:
            raise ValueError("the reader is real here: put a card on it")
        try:
            uid = normal_uid(uid)
        except Exception as exc:
            raise ValueError(str(exc)) from None
        sim.place(uid)
        time.sleep(CARD_ON_READER_S)
        sim.remove()

    def cards(self) -> list[dict]:
        """The cards the table in play can use, named as its edition names them in the page's language:
        every seat card (a seat past the game's players only while no game is open), and the plot and
        deck cards enrolled for the game's edition. Plot and deck cards of another edition stay in the
        card map for when that box comes out again, but are not shown: they would mean nothing now."""
        daemon = self.daemon
        table = daemon.owner.table
        edition = table.rules.edition if table is not None else None
        walking = getattr(daemon, "walking", None)
        if walking is not None and walking.walk is not None:  # issue 23: the board being walked's plot cards
            edition = walking.walk.edition
        players = list(table.state.players) if table is not None else []
        out = []
        # plots in the order they lie on the board (as on the cardboard), deck cards deck by deck
        place = {cell.id: (i, "") for i, cell in enumerate(edition.cells)} if edition is not None else {}
        for uid, role in sorted(
            daemon.cards.roles.items(),
            key=lambda kv: (kv[1].kind != "player", kv[1].kind, place.get(kv[1].ref, _order(kv[1].ref)), kv[0]),
        ):
            if role.kind == "player":
                seat = int(role.ref)
                if players and seat > len(players):
                    continue  # nobody sits there in this game
                words = players[seat - 1] if players else role_words(role, None, self.language)
            else:
                if edition is None or role.edition != edition.id:
                    continue
                if role.ref not in (edition.plots if role.kind == "plot" else edition.cards):
                    continue  # the edition's file no longer has it: a tap would be refused anyway
                words = _name(edition, role, self.language)
            out.append({"uid": uid, "words": words, "kind": role.kind})
        return out

    def status(self) -> dict:
        daemon = self.daemon
        link = daemon.link.state.state if daemon.link is not None else "none"
        table = daemon.owner.table
        words = messages.render("reader_offline", {}, self.language) if link == "offline" else ""
        edition = table.rules.edition if table is not None else None
        name = edition.names.get(self.language, edition.name) if edition is not None else ""
        return {"reader": link, "game": table is not None, "words": words, "edition": name}


def _name(edition, role: Role, language: str) -> str:
    """A plot's name; a deck card's text, after its deck's name where the edition has two decks or more
    (Monopoly's two "Advance to Go" cards are told apart: "Chance: Advance to Go...")."""
    if role.kind == "plot":
        return messages.cell_name(edition, role.ref, language)
    text = messages.card_text(edition, role.ref, language)
    decks = {card.deck for card in edition.cards.values()}
    if len(decks) < 2:
        return text
    deck = messages.deck_name(edition, edition.cards[role.ref].deck, language).strip("«»")
    return f"{deck}: {text}"


def _order(ref: str) -> tuple[int, str]:
    return (int(ref), "") if ref.isdigit() else (0, ref)
