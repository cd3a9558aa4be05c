"""`companion run`: the box's daemon. It owns one game, hears the reader and the control socket,
and prints every committed event; systemd is told it is ready and alive.

Threads: the writer (companion/daemon/owner.py) alone touches the game and,
with each commit, tells the reader how many dice ROLL gives now; the reader
link and the control socket hand it work; the printer prints what is
published. SIGTERM finishes
the transaction in hand, closes the ledger and exits 0 ("The bank is closed").

The Daemon holds the box's parts and runs their life (start, signals, systemd, stop); what the box does
lives in the parts it holds, each in a module named for it:
  wiring.py     the parts built from the config (the OLED, the buttons, the web servers)
  gamelife.py   the game's life: resumed, started, replaced, archived, accepted   (self.life)
  tapdesk.py    the reader's taps and ROLL, the dice the reader is told             (self.reading)
  boxdesk.py    the buttons and the box menu's actions, the box's settings         (self.desk)
  controlops.py the control socket's requests                                      (self.requests)
  printer.py    every event and notice printed to the journal                      (self.printer)
  catalogue.py  the editions and the table's own boards a game can be              (self.catalogue)
"""

import logging
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.editions.boards import BoardStore
from companion.hw import buttons as box_buttons
from companion.hw.reader import LinkState, Origin, ReaderLink
from companion.hw.simreader import SimulatedReader
from companion.words import messages

from . import collector, systemd
from .boxdesk import BoxDesk
from .cards import CardMap, Role, role_words
from .catalogue import Catalogue
from .config import Config
from .console import Console
from .control import ControlServer
from .controlops import ControlRequests
from .gamelife import GameLife
from .games import BOARDS, DaemonLock, Games
from .hotspot import Hotspot
from .netwatch import AddressWatch
from .owner import Owner
from .panel import Panel
from .printer import Printer
from .runner import Runner, run
from .screens import notice_frames
from .settings import BoxSettings
from .tapdesk import TapDesk, reader_request_id
from .virtual import VirtualTableService
from .walkdesk import BoardWalk
from .wiring import POWER_OFF, open_buttons, open_hotspot, open_panel, reader_port, serve_phone, serve_virtual_table

# reader_request_id lived here before the Daemon was split (tests import it from here)
__all__ = ["Daemon", "reader_request_id", "wait_for"]

log = logging.getLogger("companion.daemon")


class Daemon:
    """The box: a game owner, a reader link (real or simulated), a control socket and a printer."""

    def __init__(self, config: Config, out: Callable[[str], None] = print, sim_seed: int = 0):
        self.config = config
        # the box's beeps (the menu's "Sound off", `muted`), its banker's PIN and language (issue 22), kept
        # across restarts; the reader's own read click stays. A language chosen at the box wins over the config's
        self.settings, self._settings_damaged = BoxSettings.load(config.games_dir)
        self.lang: str = self.settings.language or config["language"]
        self.out = out
        self.sim_seed = sim_seed
        self.games = Games(config.games_dir)
        self.boards = BoardStore(config.games_dir / BOARDS)  # the table's own boards (companion/editions/boards.py)
        self.cards = CardMap.load(config.games_dir / "cards.json")
        self.lock = DaemonLock(config.games_dir)
        self.owner = Owner()
        self.sim: SimulatedReader | None = None
        self.link: ReaderLink | None = None
        self.control: ControlServer | None = None
        self.stopped = threading.Event()
        self._watchdog: systemd.Watchdog | None = None
        self.panel: Panel | None = None
        self.buttons: box_buttons.Buttons | None = None
        self.pin_factory: Any = None  # gpiozero's MockFactory with simulated hardware (the virtual table's)
        self.virtual: Any = None  # the virtual table's web server (simulated hardware only)
        self.phone: Any = None  # the phone page's service (companion/daemon/phone/) ...
        self.phone_server: Any = None  # ... and its own web server (phone.host, phone.port)
        self._stop_begun = False
        self._stop_lock = threading.Lock()  # a second stop (SIGTERM during a power-off) waits for the first
        # issue 25: the address phones reach (netwatch.py), the box's own Wi-Fi (hotspot.py), and the one runner
        # every other program goes through (nmcli, the power-off): a test replaces it before start
        self.address: AddressWatch | None = None
        self.hotspot: Hotspot | None = None
        self.runner: Runner = run
        self.done = threading.Event()  # the box is finished (powered off from its menu): run_until_signal returns
        # what the box does, each part handed the box and reading its parts at each call (a test may swap one)
        self.catalogue = Catalogue(self.boards)
        self.life = GameLife(self)
        self.reading = TapDesk(self)
        self.desk = BoxDesk(self)
        self.requests = ControlRequests(self)
        self.printer = Printer(self)
        self.console = Console(self.owner, self.desk)
        self.walking = BoardWalk(self)  # issue 23: walking the board with the cards (companion/daemon/walkdesk.py)
        self._restored: list[Any] = []  # issue 25: what applying a staged restore said at start

    def reload_files(self) -> None:
        """Read the box's own files again (a restore put others in their place before the start)."""
        folder = self.config.games_dir
        self.settings, self._settings_damaged = BoxSettings.load(folder)
        self.lang = self.settings.language or self.config["language"]
        self.boards = BoardStore(folder / BOARDS)
        self.catalogue = Catalogue(self.boards)
        self.cards = CardMap.load(folder / "cards.json")

    # ----- life ------------------------------------------------------------------------------

    def start(self) -> "Daemon":
        """Open the current game, the reader and the socket; on any failure undo what was started."""
        self.lock.acquire(str(self.config.socket_path))
        try:
            self._restored = self.life.apply_restore()  # issue 25: a staged restore, before anything is read
            self._start()
        except BaseException:
            self.stop(quiet=True)
            raise
        return self

    def _start(self) -> None:
        table, warning = self.life.resume()
        self.owner = Owner(
            table,
            on_commit=self.reading.update_dice,
            answer_timeout=self.config["daemon.answer_seconds"],
            on_idle=collector.when_idle,
            after_job=collector.after_job,
        ).start()
        self.console = Console(self.owner, self.desk, on_change=self._console_changed)
        self.printer.start(self.owner.subscribe(since=table.head_seq if table else 0))
        if table is not None:
            self.owner.announce("game_resumed", seq=table.head_seq)
        if warning:
            self.owner.announce("ledger_warning", why=warning)
        if self._settings_damaged:
            self.owner.announce("settings_reset", file=self._settings_damaged)
        for line in self._restored:
            self.owner.announce(line.code, **line.params)
        if self.config["hardware"] == "simulated":
            self.sim = SimulatedReader(self.config.games_dir / "sim", seed=self.sim_seed).start()
        port = reader_port(self.config, self.sim)
        self.panel = open_panel(self.config, self.owner, self.lang, self.console, self.say)
        if self.panel is not None:
            self.panel.warning = messages.render("ledger_warning", {"why": warning}, self.lang) if warning else ""
            self.panel.footer = self.desk.footer
        self.buttons, self.pin_factory = open_buttons(self.config, self.desk.on_press, self.say)
        self.link = ReaderLink(
            port,
            self.reading.on_tap,
            self.reading.on_roll,
            self.reading.on_link_state,
            retry=self.config["reader.retry_seconds"],
        ).start()
        self.control = ControlServer(self.config.socket_path, self.requests.handle).start()
        self.owner.call(self.reading.update_dice)
        self.owner.call(self.walking.resume)  # a walk kept when the box stopped goes on, or is said dropped
        self.owner.post(self.console.sync)
        self.address = AddressWatch(on_change=self._address_changed).start()
        self.hotspot = open_hotspot(self.config, lambda argv: self.runner(argv)).start(self._hotspot_open)
        from .phone import PhoneService

        self.phone = PhoneService(self).start()
        if self.sim is not None and self.config["virtual_table.port"]:
            self.virtual = serve_virtual_table(self.config, VirtualTableService(self), self.phone, self.say)
        if self.config["phone.port"]:
            self.phone_server = serve_phone(self.config, self.phone, self.desk.phone_page_url(), self.say)
        self.say("daemon_ready", folder=str(self.config.games_dir))
        interval = systemd.watchdog_interval()
        if interval:
            probe_limit = self.config["daemon.watchdog_probe_seconds"]
            self._watchdog = systemd.Watchdog(lambda timeout: self.owner.probe(min(timeout, probe_limit)), interval)
            self._watchdog.start()
        systemd.notify(
            "READY=1", "STATUS=" + messages.render("daemon_ready", {"folder": str(self.config.games_dir)}, self.lang)
        )

    def stop(self, quiet: bool = False, last_words: str = "daemon_stopped") -> None:
        """Stop taking requests, finish the one in hand, close the ledger and the devices. Once: a second
        call does nothing (it would close descriptors and unlink a socket a newer daemon may own by then).
        last_words: the notice left on the OLED (power_off_safe: left lit, the display not switched off)."""
        with self._stop_lock:
            if self._stop_begun:
                return
            self._stop_begun = True
            self._stop(quiet, last_words)

    def _stop(self, quiet: bool, last_words: str) -> None:
        systemd.notify("STOPPING=1")
        if self._watchdog is not None:
            self._watchdog.stop()
        if self.address is not None:
            self.address.stop()
        if self.hotspot is not None:
            self.hotspot.stop()
        if self.virtual is not None:
            self.virtual.stop()
        if self.phone_server is not None:
            self.phone_server.stop()
        if self.phone is not None:
            self.phone.stop()
        if self.control is not None:
            self.control.stop()
        if self.buttons is not None:
            self.buttons.close()
        if self.link is not None:
            self.link.stop()
        if self.sim is not None:
            self.sim.stop()
        if self.panel is not None:
            self.panel.stop()
            try:  # the last word on the box's own screen, then the display is switched off
                self.panel.screen.show(notice_frames(messages.render(last_words, {}, self.lang))[0])
                if last_words == "power_off_safe":
                    # the words stay lit after the Pi halts (the 3.3 V rail stays on): luma must not blank the
                    # display at exit (its atexit hook cleans up unless the device persists)
                    self.panel.screen.device.persist = True
                else:
                    self.panel.screen.close()
            except OSError as exc:
                log.warning("the OLED could not be closed: %s", exc)
        self.life.wait_for_backup(15.0)  # a backup under way is let finish (its lines reach the journal)
        self.owner.stop()
        self.stopped.set()
        self.printer.join(2.0)
        self.lock.release()
        if not quiet:
            self.out(messages.render("daemon_stopped", {}, self.lang))

    def run_until_signal(self, ready: Callable[["Daemon"], int] | None = None) -> int:
        """Serve until SIGTERM or SIGINT (Ctrl-C); then stop cleanly. The exit code. ready: called once
        started (the demo starts its game there); a non-zero answer stops at once with that code."""
        asked = threading.Event()

        def ask_to_stop(signum: int, frame: Any) -> None:
            asked.set()

        old = {sig: signal.signal(sig, ask_to_stop) for sig in (signal.SIGTERM, signal.SIGINT)}
        code = 0
        try:
            self.start()
            collector.settle()  # this process is the daemon's: what it started with is never scanned again
            try:
                code = ready(self) if ready is not None else 0
                while not code and not asked.wait(0.5) and not self.done.is_set():
                    pass
            finally:
                self.stop()  # still under our handlers: a second Ctrl-C during the stop changes nothing
        finally:
            for sig, handler in old.items():
                signal.signal(sig, handler)
        return code

    def power_off(self) -> None:
        """The box's menu, Power off… confirmed (on a thread of its own): the daemon stops cleanly (the ledger
        closed, the OLED saying it is safe to unplug), then logind is asked to power off (polkit lets the
        service's user: systemd/install.sh). A refusal is said on the OLED and in the journal; the bank is
        closed either way, and the process ends (exit 0: systemd does not start it again)."""
        self.stop(last_words="power_off_safe")
        ran = self.runner(POWER_OFF)
        if ran.code != 0:
            why = ran.output.splitlines()[-1] if ran.output else f"exit {ran.code}"
            self.out(messages.render("power_off_failed", {"why": why}, self.lang))
            if self.panel is not None:
                try:
                    self.panel.screen.show(
                        notice_frames(messages.render("power_off_failed", {"why": why}, self.lang))[0]
                    )
                except OSError as exc:
                    log.warning("the OLED could not be written: %s", exc)
        self.done.set()

    def _address_changed(self, address: str) -> None:
        """(the address watch's thread) The QR codes follow: the console draws its page again."""
        self.owner.post(self.console.refresh)

    def _hotspot_open(self) -> None:
        if self.hotspot is not None:
            self.say("hotspot_open", ssid=self.hotspot.ssid)

    # ----- saying things ---------------------------------------------------------------------------

    def say(self, code: str, **params: Any) -> None:
        """A notice on every screen (the OLED, the phones) and in the journal, each in its own language."""
        self.owner.announce(code, **params)

    def edition(self) -> Any:
        """The edition of the game on the box (None: no game), for the words that name its plots and cards."""
        table = self.owner.table
        return table.rules.edition if table is not None else None

    def role_words(self, role: Role, lang: str) -> str:
        """A card's role in words: a player's card, a plot's, a deck's card."""
        return role_words(role, self.edition(), lang)

    def _console_changed(self) -> None:
        if self.panel is not None:
            self.panel.poke()

    # ----- what the phone service asks (companion/daemon/phone/; on the writer thread) -----------

    def start_game(
        self, edition: str, players: list[str], seed: int, options: dict[str, Any], lang: str
    ) -> dict[str, Any]:
        """A new game, when none is on the box (GameLife.start_game)."""
        return self.life.start_game(edition, players, seed, options, lang)

    def replace_game(
        self, edition: str, players: list[str], seed: int, options: dict[str, Any], lang: str
    ) -> dict[str, Any]:
        """A new game in place of the one on the box, which ends and is archived (GameLife.replace_game)."""
        return self.life.replace_game(edition, players, seed, options, lang)

    # the box's settings and pages, as the phone's banker sets them (boxdesk.BoxDesk holds them)

    def jackpot_ready(self, player: str, bet: int) -> None:
        self.reading.jackpot_ready(player, bet)

    @property
    def banker_pin(self) -> str:
        return self.desk.banker_pin

    def set_banker_pin(self, pin: str) -> None:
        self.desk.set_banker_pin(pin)

    def set_language(self, lang: str) -> None:
        self.desk.set_language(lang)

    def player_names(self, count: int) -> list[str]:
        return self.desk.player_names(count)

    def player_count(self) -> int:
        return self.desk.player_count()

    def editions(self, lang: str | None = None) -> list[tuple[str, str]]:
        return self.catalogue.editions(lang or self.lang)

    def phone_base_url(self) -> str:
        return self.desk.phone_base_url()

    def phone_url(self) -> str:
        return self.desk.phone_url()

    @property
    def muted(self) -> bool:
        return self.desk.muted

    def set_muted(self, muted: bool) -> None:
        self.desk.set_muted(muted)

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """A control socket request answered (ControlRequests.handle), as `companion` and the tests ask."""
        return self.requests.handle(request)

    # ----- the names the tests call on the box from before it was split (the link's callbacks, a press,
    # what ROLL was told): the tests reach the parts through these, the parts never do --------------------

    def _on_tap(self, uid: str, origin: Origin | None = None) -> None:
        self.reading.on_tap(uid, origin)

    def _on_roll(self, dice: tuple[int, ...], origin: Origin | None = None) -> None:
        self.reading.on_roll(dice, origin)

    def _on_link_state(self, state: LinkState) -> None:
        self.reading.on_link_state(state)

    def _tap(self, uid: str, request_id: str | None = None) -> None:
        self.reading.tap(uid, request_id)

    def _roll(self, dice: tuple[int, ...], request_id: str | None = None) -> None:
        self.reading.roll(dice, request_id)

    def _press(self, press: box_buttons.Press) -> None:
        self.desk.press(press)

    def _footer(self) -> str:
        return self.desk.footer()

    @property
    def dice(self) -> int:
        return self.reading.dice

    @property
    def asked(self) -> tuple[str, str, int] | None:
        return self.reading.asked

    @property
    def enrolling(self) -> Role | None:
        return self.reading.enrolling

    @property
    def shown(self) -> int:
        return self.printer.shown


def wait_for(condition: Callable[[], bool], timeout: float = 10.0, step: float = 0.01) -> bool:
    """Poll `condition` until it holds or `timeout` passes (tests and the demo wait on the reader)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(step)
    return condition()
