"""`companion run`: the box's daemon. It owns one game, hears the reader and the control socket,
and prints every committed event; systemd is told it is ready and alive.

Threads: the writer (companion/daemon/owner.py) alone touches the game and,
with each commit, tells the reader how many dice ROLL gives now; the reader
link and the control socket hand it work; the printer prints what is
published. SIGTERM finishes
the transaction in hand, closes the ledger and exits 0 ("The bank is closed").
"""

import hashlib
import logging
import os
import random
import signal
import socket
import threading
import time
import warnings
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from companion.editions import load_edition, rules_for, shipped
from companion.editions.boards import BoardStore
from companion.editions.boards import counts as board_counts
from companion.engine.actions import TABLE
from companion.engine.command import Command, parse_command
from companion.errors import (
    BadCommand,
    BadInput,
    CompanionError,
    LedgerDamaged,
    Message,
    RuleViolation,
    SaidInput,
    exit_code,
)
from companion.hw import buttons as box_buttons
from companion.hw.display import DisplayMissing, FontMissing, Screen, open_device
from companion.hw.reader import BY_ID_PATTERN, LinkState, Origin, ReaderLink
from companion.hw.simreader import SimulatedReader
from companion.ledger.anchor import default_state_dir
from companion.table.service import Table, new_request_id, open_game
from companion.table.view import event_lines, state_text
from companion.words import messages

from . import menus, systemd
from .cards import CardMap, Role, check_ref, check_role, normal_uid, role_words
from .config import Config
from .console import Console
from .control import ControlServer
from .games import BOARDS, DaemonLock, Games
from .owner import NoGame, Owner, Published
from .panel import Panel
from .screens import notice_frames
from .settings import BoxSettings
from .taps import (
    Meaning,
    dice_needed,
    end_meaning,
    held_choice,
    jackpot_meaning,
    jackpot_open,
    roll_meaning,
    tap_meaning,
)
from .walkdesk import BoardWalk

log = logging.getLogger("companion.daemon")

# notices said as warnings in the journal (logging), not printed: the table's warnings, why it stopped booking
JOURNAL_WARNINGS = ("table_warning", "table_stopped_booking")
VERDICT_BOOKED = (2, 40)  # the Pi's answer after the reader's own beep: two short pips
VERDICT_REFUSED = (3, 120)  # three longer ones: look at the screen
ENROL_WAIT_S = 60.0  # an enrolment waits this long for its card, then lapses


class Daemon:
    """The box: a game owner, a reader link (real or simulated), a control socket and a printer."""

    def __init__(self, config: Config, out: Callable[[str], None] = print, sim_seed: int = 0):
        self.config = config
        # the box's beeps (the menu's "Sound off", `muted`), its banker's PIN and language (issue 22), kept
        # across restarts; the reader's own read click stays. A language chosen at the box wins over the config's
        self.settings, self._settings_damaged = BoxSettings.load(config.games_dir)
        self.lang = self.settings.language or config["language"]
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
        self.enrolling: Role | None = None  # the role the next card tapped gets ...
        self.enrolling_until = 0.0  # ... if it comes before this (time.monotonic)
        self.dice = -1
        # issue 22: ROLL never skips a decision. `asked` is the (reason, player, head) of the last ROLL that
        # only said what the rules offer first; the next ROLL at the same head goes on. `jackpot_bet` is the
        # (player, bet, game id) chosen on the box: the next ROLL throws the JACKPOT's three dice with it.
        self.asked: tuple[str, str, int] | None = None
        self.jackpot_bet: tuple[str, int, str] | None = None
        self.shown = 0  # the last event the printer printed
        self.stopped = threading.Event()
        self._printer = threading.Thread(target=self._print, name="companion-printer", daemon=True)
        self._watchdog: systemd.Watchdog | None = None
        self.panel: Panel | None = None
        self.console = Console(self.owner, self)
        self.buttons: box_buttons.Buttons | None = None
        self.pin_factory: Any = None  # gpiozero's MockFactory with simulated hardware (the virtual table's)
        self.virtual: Any = None  # the virtual table's web server (simulated hardware only)
        self.phone: Any = None  # the phone page's service (companion/daemon/phone.py) ...
        self.phone_server: Any = None  # ... and its own web server (phone.host, phone.port)
        self._rules_cache: dict[str, Any] = {}
        self._stop_begun = False
        self.walking = BoardWalk(self)  # issue 23: walking the board with the cards (companion/daemon/walkdesk.py)

    # ----- life ------------------------------------------------------------------------------

    def start(self) -> "Daemon":
        """Open the current game, the reader and the socket; on any failure undo what was started."""
        self.lock.acquire(str(self.config.socket_path))
        try:
            self._start()
        except BaseException:
            self.stop(quiet=True)
            raise
        return self

    def _start(self) -> None:
        socket_path = self.config.socket_path
        warning = ""
        readonly = self._read_only_reason()
        table: Table | None
        try:
            if readonly is not None and self.games.current.exists():
                # a card that cannot be written: the game is shown, read from the file as it stands
                table = open_game(str(self.games.current), readonly=True, state_dir=self.games.state_dir)
            else:
                table = self.games.resume()
        except LedgerDamaged as exc:
            # a ledger that went back or forked (a restored copy, an edited file) is never played on: the
            # box starts without it and says so on every screen; `companion recover` takes it from there
            table, warning = None, messages.render_error(exc, self.lang)
        if table is not None and readonly is not None and table.readonly_reason is None:
            table.readonly_reason = readonly
        self.owner = Owner(
            table, on_commit=self._update_dice, answer_timeout=self.config["daemon.answer_seconds"]
        ).start()
        self.console = Console(self.owner, self, on_change=self._console_changed)
        self._subscription = self.owner.subscribe(since=table.head_seq if table else 0)
        self._printer.start()
        if table is not None:
            self.owner.announce("game_resumed", seq=table.head_seq)
        if warning:
            self.owner.announce("ledger_warning", why=warning)
        if self._settings_damaged:
            self.owner.announce("settings_reset", file=self._settings_damaged)
        if self.config["hardware"] == "simulated":
            self.sim = SimulatedReader(self.config.games_dir / "sim", seed=self.sim_seed).start()
            port = self.sim.path
        else:
            port = BY_ID_PATTERN if self.config["reader.port"] == "auto" else self.config["reader.port"]
        self.panel = self._open_panel()
        if self.panel is not None:
            self.panel.warning = messages.render("ledger_warning", {"why": warning}, self.lang) if warning else ""
            self.panel.footer = self._footer
        self.buttons = self._open_buttons()
        self.link = ReaderLink(
            port, self._on_tap, self._on_roll, self._on_link_state, retry=self.config["reader.retry_seconds"]
        ).start()
        self.control = ControlServer(socket_path, self.handle).start()
        self.owner.call(self._update_dice)
        self.owner.call(self.walking.resume)  # a walk kept when the box stopped goes on, or is said dropped
        self.owner.post(self.console.sync)
        from .phone import PhoneService

        self.phone = PhoneService(self).start()
        if self.sim is not None and self.config["virtual_table.port"]:
            self.virtual = self._serve_virtual_table()
        if self.config["phone.port"]:
            self.phone_server = self._serve_phone()
        self.say("daemon_ready", folder=str(self.config.games_dir))
        interval = systemd.watchdog_interval()
        if interval:
            probe_limit = self.config["daemon.watchdog_probe_seconds"]
            self._watchdog = systemd.Watchdog(lambda timeout: self.owner.probe(min(timeout, probe_limit)), interval)
            self._watchdog.start()
        systemd.notify(
            "READY=1", "STATUS=" + messages.render("daemon_ready", {"folder": str(self.config.games_dir)}, self.lang)
        )

    def _read_only_reason(self) -> Message | None:
        """Why nothing could be booked on this box's card (None: it can be written): the games folder, the
        ledger or the anchor folder on a read-only mount or refusing writes."""
        folders = [self.config.games_dir, self.games.state_dir or default_state_dir()]
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
        current = self.games.current
        if current.exists() and not os.access(current, os.W_OK):
            return Message("table_folder_read_only", folder=str(current), detail="EACCES", cause="EACCES")
        return None

    def stop(self, quiet: bool = False) -> None:
        """Stop taking requests, finish the one in hand, close the ledger and the devices. Once: a second
        call does nothing (it would close descriptors and unlink a socket a newer daemon may own by then)."""
        if self._stop_begun:
            return
        self._stop_begun = True
        systemd.notify("STOPPING=1")
        if self._watchdog is not None:
            self._watchdog.stop()
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
                self.panel.screen.show(notice_frames(messages.render("daemon_stopped", {}, self.lang))[0])
                self.panel.screen.close()
            except OSError as exc:
                log.warning("the OLED could not be closed: %s", exc)
        self.owner.stop()
        self.stopped.set()
        if self._printer.is_alive():
            self._printer.join(2.0)
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
            try:
                code = ready(self) if ready is not None else 0
                while not code and not asked.wait(0.5):
                    pass
            finally:
                self.stop()  # still under our handlers: a second Ctrl-C during the stop changes nothing
        finally:
            for sig, handler in old.items():
                signal.signal(sig, handler)
        return code

    def _open_panel(self) -> Panel | None:
        """The OLED (luma's dummy device with simulated hardware); a missing one is said, not simulated."""
        real = self.config["hardware"] == "real"
        try:
            device = open_device(
                "real" if real else "dummy",
                driver=self.config["display.driver"],
                bus=self.config["display.bus"],
                address=self.config["display.i2c_address"],
                port=self.config["display.i2c_port"],
            )
            screen = Screen(device)
        except (DisplayMissing, FontMissing) as exc:
            self.say("display_missing", info=str(exc))
            return None
        return Panel(screen, self.owner, self.lang, console=self.console).start()

    def _open_buttons(self) -> box_buttons.Buttons | None:
        """The four buttons: GPIO pins from the config, or gpiozero's mock pins with simulated hardware."""
        pins = {name: self.config[f"buttons.{name}"] for name in ("ok", "back", "up", "down")}
        if self.config["hardware"] == "simulated":
            buttons, self.pin_factory = box_buttons.mock(self._on_press, pins)
            return buttons
        try:
            with warnings.catch_warnings():  # gpiozero warns of each pin library it tries; the line below says it
                warnings.simplefilter("ignore")
                return box_buttons.Buttons(self._on_press, pins)
        except Exception as exc:  # no GPIO here (gpiozero finds no pin library): the cards still work
            self.say("buttons_missing", info=" ".join(str(exc).split()))
            return None

    def _serve_virtual_table(self) -> Any:
        """The virtual table (web/): the OLED, the buttons, ROLL and the cards in a browser."""
        from web.app import create_app
        from web.serve import VirtualTableServer

        from .virtual import VirtualTableService

        service = VirtualTableService(self)
        # the names it may be asked for under besides localhost and this machine's (DNS rebinding, web/hosts.py)
        names = (*str(self.config["phone.allowed_hosts"]).split(","), str(self.config["virtual_table.host"]))
        app = create_app(service, ALLOWED_HOSTS=names)
        threads = 8
        if self.phone is not None:  # the phone page beside it, at /phone/ (docs/phone.md): a few more threads
            from web.phone import register_phone

            register_phone(app, self.phone, MAX_STREAMS=12)
            threads += 16
        server = VirtualTableServer(
            app, host=self.config["virtual_table.host"], port=self.config["virtual_table.port"], threads=threads
        )
        try:
            server.start()
        except OSError as exc:
            self.say("virtual_table_failed", info=" ".join(str(exc).split()))
            return None
        self.say("virtual_table_ready", url=server.url)
        if self.phone is not None:  # the table code to join is on the box's Game → Phone page screen
            self.say("phone_ready", url=server.url + "phone/")
        return server

    def _serve_phone(self) -> Any:
        """The phone page (web/phone.py) on its own server, where the config says (docs/phone.md)."""
        from web.phone import create_phone_app
        from web.serve import VirtualTableServer

        threads = self.config["phone.threads"]
        # every open page's live stream holds a thread: leave a few for the pages' own requests
        app = create_phone_app(self.phone, MAX_STREAMS=max(1, threads - max(4, threads // 8)))
        server = VirtualTableServer(
            app, host=self.config["phone.host"], port=self.config["phone.port"], threads=threads, what="the phone page"
        )
        try:
            server.start()
        except OSError as exc:
            self.say("phone_failed", info=" ".join(str(exc).split()))
            return None
        url = server.url + "phone/"
        if self.config["phone.host"] in ("0.0.0.0", "::", ""):  # every network: say the name phones use
            url = self.phone_page_url()
        self.say("phone_ready", url=url)
        return server

    # ----- saying things --------------------------------------------------------------------------

    def say(self, code: str, **params: Any) -> None:
        self.owner.announce(code, **params)

    def _edition(self):
        table = self.owner.table
        return table.rules.edition if table is not None else None

    def _print(self) -> None:
        while not self.stopped.is_set():
            item = self._subscription.get(timeout=0.2)
            if item is None:
                continue
            try:
                self._show(item)
            except Exception:  # a printing bug must never stop the game
                log.exception("could not print %r", item)

    def _show(self, item: Published) -> None:
        table = self.owner.table
        if item.notice is not None:
            text = messages.render(item.notice.code, item.notice.params, self.lang, self._edition())
            if item.notice.code in JOURNAL_WARNINGS:  # the journal's warning priority: `journalctl -p warning`
                log.warning("%s", text)
            else:
                self.out("* " + text)
            return
        event = item.event
        if event is None or table is None:
            return
        who = "" if event.actor == TABLE else f"{event.actor}: "
        self.out(f"#{event.seq:<4} {who}{event.command}")
        for line in event_lines(table.rules, event, self.lang):
            self.out(f"        {line}")
        if event.command == "end_game":
            self.out(state_text(table.rules, table.state, self.lang))
        # the reader was told the dice of the next roll before the event was published (_update_dice)
        self.shown = event.seq
        self.owner.post(self.console.sync)  # menus built before this event are closed

    def _footer(self) -> str:
        """What every idle page says at the bottom: the reader is away, the sound is off."""
        link = self.link.state.state if self.link is not None else "none"
        if link in ("offline", "searching", "refused"):
            return messages.render("footer_reader_offline", {}, self.lang)
        return messages.render("footer_muted", {}, self.lang) if self.muted else ""

    def _console_changed(self) -> None:
        if self.panel is not None:
            self.panel.poke()

    def _update_dice(self) -> None:
        """Tell the reader how many dice ROLL gives now. On the writer thread only (the owner's on_commit,
        a game started, archived or resumed): the count is the committed state's, sent before any listener
        sees the event. Computed off-thread (the printer, once) it could be a state's the writer had just
        left, or lose a check-then-set against the writer's own, and leave ROLL buzzing "no" on a turn the
        table can end."""
        table = self.owner.table
        n = dice_needed(table.rules, table.state) if table is not None else 0
        if table is not None and self._bet_now(table) is not None:
            n = 3  # the JACKPOT's bet is chosen: ROLL throws its three dice
        if table is not None and n == 0:
            end = end_meaning(table.rules, table.state)
            if end is not None and end.command is not None:  # ROLL ends the turn, then rolls for the next
                try:
                    after = table.game.propose(end.command, end.actor).state
                except CompanionError:
                    after = None
                n = dice_needed(table.rules, after) if after is not None else 0
            elif table.state.phase != "over" and menus.waiting_actions(table.rules, table.state):
                # a choice is awaited: ROLL still reaches the box, which says what it waits for (a reader
                # told 0 only buzzes, and the table would not know why)
                n = table.rules.DICE_VERBS["roll"][1]
        if n != self.dice and self.link is not None:
            self.dice = n
            self.link.set_dice(n)

    # ----- the reader (called on the link's thread: hand everything to the writer) ------------------

    def _on_link_state(self, state: LinkState) -> None:
        params = {"info": state.detail}
        if state.state == "refused":
            params["ours"] = "1"
        self.say("reader_" + state.state, **params)

    def _on_tap(self, uid: str, origin: Origin | None = None) -> None:
        request_id = reader_request_id(origin)
        self.owner.post(lambda: self._guarded(self._tap, uid, request_id))

    def _on_roll(self, dice: tuple[int, ...], origin: Origin | None = None) -> None:
        request_id = reader_request_id(origin)
        self.owner.post(lambda: self._guarded(self._roll, dice, request_id))

    def _guarded(self, work: Callable[..., None], *values: Any) -> None:
        """A tap or roll that fails in a way no rule foresaw is still answered: a line and a "no" buzz."""
        try:
            work(*values)
        except CompanionError as exc:
            self._refuse("tap_failed", why=messages.render_error(exc, self.lang))
        except OSError as exc:
            log.error("a tap could not be handled: %s", exc)
            self._refuse("tap_failed", why=exc.strerror or str(exc))

    def _refuse(self, code: str, **params: Any) -> None:
        self.say(code, **params)
        if self.link is not None and not self.muted:
            self.link.beep(*VERDICT_REFUSED)

    def _booked(self) -> None:
        if self.link is not None and not self.muted:
            self.link.beep(*VERDICT_BOOKED)

    # ----- the buttons (called on the buttons' thread: hand everything to the writer) ---------------

    def _on_press(self, press: box_buttons.Press) -> None:
        self.owner.post(lambda: self._guarded(self._press, press))

    def _press(self, press: box_buttons.Press) -> None:
        # a choice that came up by itself (the plot on offer) is seen before a press can take it: a short
        # press while a receipt still covers it only puts the receipt away
        if not press.long and self.panel is not None and self.console.came_by_itself() and self.panel.dismiss():
            self.console.refresh()
            return
        if self.panel is not None:
            self.panel.dismiss()
        self.console.press(press.name, press.long)

    def _answered(self, table: Any, request_id: str | None) -> bool:
        """Whether the ledger already holds the booking made under this request id (a reader's line resent
        after the daemon restarted): such a line is answered as booked, never worked out again from a state
        it already changed."""
        if request_id is None:
            return False
        try:
            return table.ledger.request(request_id) is not None
        except Exception as exc:  # the booking's own look (Table.submit) answers it, or says what is wrong
            log.warning("could not look up %s: %s", request_id, exc)
            return False

    def _tap(self, uid: str, request_id: str | None = None) -> None:
        if self.enrolling is not None and time.monotonic() > self.enrolling_until:
            self.enrolling = None
            self.say("enrol_expired")
        if self.enrolling is not None:
            held = self.cards.role(uid)
            if held is not None and held.key() != self.enrolling.key():
                # a card with a job keeps it (Anna ending her turn must not lose her card): forget it first
                self._refuse("card_has_role", uid=uid, role=self._role_words(held, self.lang))
                return
            wanted, self.enrolling = self.enrolling, None
            self._enrol(uid, wanted)
            return
        if self.walking.on():  # a walk of the board takes every card: nothing is booked to the game
            if not self.walking.expired():
                self.walking.tap(uid)
            return
        if self.walking.just_dropped():  # maybe the walk's line, resent after a restart: never the game's
            return
        role = self.cards.role(uid)
        if role is None:
            self._refuse("replaced_card" if uid in self.cards.replaced else "unknown_card", uid=uid)
            return
        table = self.owner.table
        if table is None:
            self._refuse("no_game_open")
            return
        if self._answered(table, request_id):
            self._booked()
            return
        meaning = tap_meaning(table.rules, table.state, role)
        if self.panel is not None:
            self.panel.dismiss()  # a tap always interrupts a receipt
        if meaning.menu_for:  # a player's card: their menu (or a payment to them from the open one)
            self._booked()
            self.console.player_card(meaning.menu_for)
        elif meaning.confirm and meaning.command is not None:  # a purchase or a landing: shown, then OK books it
            self._booked()
            self.console.sync()
            self.console.confirm(meaning.actor, meaning.command)
            self.console.refresh()
        elif meaning.refusal in ("nothing_for_card", "nothing_for_plot"):
            self._refuse_why(table, meaning)
        else:
            self._book(meaning, request_id)

    def _refuse_why(self, table: Any, meaning: Meaning) -> None:
        """A card that stands for nothing now says why: what the table waits for first, or what it is for."""
        rules, state, lang = table.rules, table.state, self.lang
        if state.phase != "over" and menus.waiting_actions(rules, state):
            about = menus.waiting_about(rules, state, lang) or messages.label("waiting", lang)
            why = messages.render("why_waiting", {"about": about}, lang)
        elif meaning.refusal == "nothing_for_plot":
            why = messages.render("why_no_plot", {}, lang)
        elif rules.legal(state, verbs=("draw",)):
            why = messages.render("why_other_card", {}, lang)
        else:
            why = messages.render("why_no_draw", {}, lang)
        code = "card_blocked_why" if meaning.refusal == "nothing_for_card" else "plot_blocked_why"
        self._refuse(code, why=why, **meaning.params)

    def _roll(self, dice: tuple[int, ...], request_id: str | None = None) -> None:
        """ROLL: the dice booked under the line's request id; a turn ended first under that id + ":end".
        A decision the rules give before the dice is never skipped: a held player whose turn comes is
        offered the fine or a card first, an open JACKPOT is named first (the next ROLL goes on), a chosen
        JACKPOT bet is thrown, and a ROLL while a choice is awaited says what it is."""
        if self.walking.on() and not self.walking.expired():  # the reader is the walk's: never a booking
            self._refuse("walk_no_roll")
            return
        if self.walking.just_dropped():
            return
        table = self.owner.table
        if table is None:
            self._refuse("no_game_open")
            return
        if self._answered(table, request_id):  # the dice were booked before a restart: answered, not again
            self._booked()
            return
        bet = self._bet_now(table)
        if bet is not None:  # the JACKPOT's bet was chosen on the box: these are its three dice
            if self._book(jackpot_meaning(table.rules, table.state, bet, dice), request_id):
                self.jackpot_bet = None
            self._update_dice()
            return
        end_id = None if request_id is None else request_id + ":end"
        meaning = roll_meaning(table.rules, table.state, dice)
        # only a ROLL with nothing to roll ends the turn first; one refused for its dice count changes nothing;
        # one whose end was booked before a restart owes only its roll
        ended = self._answered(table, end_id)
        end = end_meaning(table.rules, table.state) if meaning.refusal == "roll_not_now" and not ended else None
        if end is not None and self._ask_first(table, "jackpot"):  # the JACKPOT would end with the turn
            return
        if end is not None:  # the next ROLL confirms the turn that was: it ends, then the next player rolls
            if not self._book(end, end_id):
                return
            table = self.owner.table
            assert table is not None
            meaning = roll_meaning(table.rules, table.state, dice)
        if meaning.command is not None and meaning.command.verb == "roll":
            if self._ask_first(table, "held") or self._ask_first(table, "jackpot"):
                return
        if (
            meaning.refusal == "roll_not_now"
            and table.state.phase != "over"
            and menus.waiting_actions(table.rules, table.state)
        ):
            about = menus.waiting_about(table.rules, table.state, self.lang)
            self._refuse("roll_waiting", about=about or messages.label("waiting", self.lang))
            self.console.sync()
            self.console.refresh()
            return
        self._book(meaning, request_id)

    def _ask_first(self, table: Any, reason: str) -> bool:
        """Whether this ROLL only says what the rules offer first (pay or a card before rolling for doubles;
        the JACKPOT) and opens that player's menu; the next ROLL at the same state goes on."""
        state = table.state
        player = held_choice(table.rules, state) if reason == "held" else jackpot_open(table.rules, state)
        if not player or self.asked == (reason, player, table.head_seq):
            return False
        self.asked = (reason, player, table.head_seq)
        if reason == "held":
            self.say("roll_held_first", player=player, fine=table.rules.opt["detention_fine"])
        else:
            self.say("roll_jackpot_first", player=player)
        if self.link is not None and not self.muted:
            self.link.beep(*VERDICT_REFUSED)
        self.console.player_card(player)
        return True

    def _bet_now(self, table: Any) -> int | None:
        """The JACKPOT bet chosen on the box, while it still stands: the same game, the JACKPOT still open to
        the player who chose it. Another booking in between (a phone's payment, a trade) leaves it standing,
        as the rulebook has the player bet and throw with nothing between them to call the bet off; once the
        JACKPOT is no longer theirs (played, the turn ended, undone) the bet is forgotten for good."""
        chosen = self.jackpot_bet
        if chosen is None:
            return None
        if chosen[2] != str(table.meta.get("game_id")) or jackpot_open(table.rules, table.state) != chosen[0]:
            self.jackpot_bet = None  # gone with the JACKPOT: landing there again asks for a new bet
            return None
        return chosen[1]

    def jackpot_ready(self, player: str, bet: int) -> None:
        """The console chose the JACKPOT's bet: ROLL throws its three dice (the reader is told 3)."""
        table = self.owner.table
        if table is None:
            return
        self.jackpot_bet = (player, bet, str(table.meta.get("game_id")))
        self._update_dice()
        self.say("jackpot_press_roll", player=player, bet=bet)

    def _book(self, meaning: Meaning, request_id: str | None = None) -> bool:
        if meaning.command is None:
            self._refuse(meaning.refusal, **meaning.params)
            return False
        try:
            self.owner.apply(meaning.actor, meaning.command, request_id)
        except RuleViolation as exc:
            self._refuse(exc.code, **exc.params)
        except CompanionError as exc:
            table = self.owner.table
            if table is not None and table.readonly_reason is not None:  # said once already, in the journal too
                self._refuse("table_read_only", error=table.readonly_reason)
                return False
            log.error("a tap could not be booked: %s", exc)
            # only a halted bank says so: a busy lock or a failed write is this booking's refusal alone, and
            # the next press may well book (the soak showed "halted" on every screen while booking went on)
            code = "halted" if self.owner.halted else "not_booked"
            self._refuse(code, why=messages.render_error(exc, self.lang))
        else:
            self._booked()
            return True
        return False

    # ----- what the console asks (companion/daemon/console.py Desk; on the writer thread) --------------

    def book(self, actor: str, command: Command) -> bool:
        return self._book(Meaning(actor, command))

    def undo_chain(self, order: tuple[int, ...]) -> None:
        """Undo these events in this order (newest first), stopping at the first refusal."""
        for seq in order:
            if not self._book(Meaning(TABLE, Command("undo", (str(seq),)))):
                return

    def new_game(self, edition: str, players: list[str], options: dict) -> None:
        """A new game from the box's menu: the game now on the box, if any, is ended and archived first."""
        try:
            self._replace_game(edition, players, random.SystemRandom().randrange(2**32), options, self.lang)
        except (CompanionError, OSError) as exc:
            why = messages.render_error(exc, self.lang) if isinstance(exc, CompanionError) else exc.strerror or str(exc)
            self._refuse("tap_failed", why=why)
        else:
            self._booked()

    # issue 22: the table set up from the box and the banker's phone (docs/box.md, docs/phone.md)

    def _replace_game(self, edition: str, players: list[str], seed: int, options: dict, lang: str) -> dict:
        """(writer thread) A new game even while one is on the box: that one ends (everyone's wealth counted,
        unless it is over already) and is kept in the archive, then the new one starts. The new game's
        edition and names are checked first, so a refused start leaves the old game as it was."""
        rules = self.edition_rules(edition)  # an unknown edition is refused here, before anything changes
        low, high = rules.edition.players_min, rules.edition.players_max
        if not low <= len(players) <= high or len(set(players)) != len(players):
            raise RuleViolation("new_game_players", low=low, high=high)
        table = self.owner.table
        if table is not None:
            if table.state.phase != "over":
                self.owner.apply(TABLE, Command("end_game"), new_request_id())
            self._archive_game()
        return self._start_game(edition, players, seed, options, lang)

    @property
    def banker_pin(self) -> str:
        """The PIN that makes a phone the banker's: the one set at the box, else the config's ("": none)."""
        return self.settings.banker_pin or str(self.config["phone.banker_pin"])

    def has_banker_pin(self) -> bool:
        """Whether a PIN was set at the box (the menu then offers to remove it)."""
        return bool(self.settings.banker_pin)

    def set_banker_pin(self, pin: str) -> None:
        """(writer thread) The banker's PIN, set at the box (Game… → Banker PIN) or by the banker's phone;
        "" removes the box's own (the config's, if any, holds again)."""
        self.settings.banker_pin = pin
        self.say("banker_pin_set" if pin else "banker_pin_removed")
        self._keep_settings()

    def set_language(self, lang: str) -> None:
        """(writer thread) The box's language (Game… → Language): the OLED, the printer, and the phones that
        have not chosen their own follow it; kept across restarts."""
        if lang not in messages.LANGUAGES:
            raise BadInput("no such language")
        self.lang = self.settings.language = lang
        if self.panel is not None:
            self.panel.language = lang
        if self.phone is not None:
            self.phone.language = lang
        self.say("language_set")
        self._keep_settings()

    def player_names(self, count: int) -> list[str]:
        """The names a new game from the buttons gives its players: the last game's (named on the banker's
        phone, say), then the box's stock names in its language that are not taken yet."""
        from .console import NAMES

        names = list(dict.fromkeys(self.settings.players))[:count]
        stock = [n for n in NAMES.get(self.lang, NAMES["en"]) if n not in names]
        return names + stock[: count - len(names)]

    def player_count(self) -> int:
        """How many played the last game (a new game's picker starts there), else four."""
        last = len(self.settings.players)
        return last if last >= 2 else 4

    def _keep_settings(self) -> None:
        try:
            self.settings.save(self.config.games_dir)
        except OSError as exc:
            self.say("settings_not_kept", why=exc.strerror or str(exc))

    def end_game(self) -> None:
        self._book(Meaning(TABLE, Command("end_game")))

    def archive_game(self) -> None:
        try:
            self._archive_game()
        except (CompanionError, OSError) as exc:
            why = messages.render_error(exc, self.lang) if isinstance(exc, CompanionError) else str(exc)
            self._refuse("tap_failed", why=why)

    def enrol_wait(self, kind: str, ref: str) -> None:
        table = self.owner.table
        role = Role(kind, ref) if kind == "player" else Role(kind, ref, table.rules.edition.id if table else "")
        self.enrolling = role
        self.enrolling_until = time.monotonic() + ENROL_WAIT_S
        self.say("enrol_waiting", role=self._role_words(role, self.lang))

    @property
    def muted(self) -> bool:
        return self.settings.muted

    def set_muted(self, muted: bool) -> None:
        self.settings.muted = muted
        self.say("sound_muted" if muted else "sound_unmuted")
        self._keep_settings()

    def phone_url(self) -> str:
        """The address the OLED's QR code carries: the phone page, with the table code after # (a fragment
        never reaches the server or its logs) so a scan joins as a spectator."""
        if self.phone is None:
            return self.phone_base_url()
        return self.phone_page_url() + "#code=" + self.phone.table_code()

    def phone_page_url(self) -> str:
        """The phone page's own address under the base phones use (phone.url, else this host's .local name)."""
        base = self.phone_base_url().rstrip("/")
        return base + "/" if base.endswith("/phone") else base + "/phone/"

    def table_code(self) -> str:
        """The short code that lets a phone watch the table ("" when the phone page is not served)."""
        return self.phone.table_code() if self.phone is not None else ""

    def pairing_code(self) -> str:
        """The code of the phone waiting to pair, offered first in the menu a player's card opens."""
        return self.phone.waiting_code() if self.phone is not None else ""

    def pair_phone(self, code: str, player: str) -> None:
        """The player chose "Phone CODE is mine" in their menu (docs/phone.md)."""
        if self.phone is not None:
            self.phone.pair_with(code, player)

    def phone_base_url(self) -> str:
        port = self.config["phone.port"] or 8080
        return self.config["phone.url"] or f"http://{socket.gethostname()}.local:{port}/"

    def head_words(self) -> str:
        table = self.owner.table
        return table.head_words(self.lang) if table is not None else ""

    def editions(self, lang: str | None = None) -> list[tuple[str, str]]:
        """The shipped editions, Millionaire Elite first (the box's own game; the lists open on it), each
        followed by the table's own board made from it, if one is saved."""
        lang = lang or self.lang
        ours = {info.base: info for info in self.boards.list()}
        out = []
        for name in sorted(shipped(), key=lambda e: (e != "elite", e)):
            edition = self.edition_rules(name).edition
            out.append((name, edition.names.get(lang, edition.name)))
            if name in ours:
                out.append((ours[name].ref, ours[name].names.get(lang, ours[name].name)))
        return out

    def edition_file(self, edition: str) -> str:
        """What load_edition reads for an edition the lists name: a shipped id, or a table's board's file."""
        path = self.boards.edition_path(edition)
        return str(path) if path is not None else edition

    def edition_rules(self, edition: str) -> Any:
        if self.boards.base_of_ref(edition) is not None:  # a table's board changes: read it as it is now
            path = self.edition_file(edition)
            try:
                stamp = os.stat(path).st_mtime_ns
            except OSError:
                stamp = None
            key = f"{edition}@{stamp}"
            if key not in self._rules_cache:
                for old in [k for k in self._rules_cache if k.startswith(f"{edition}@")]:
                    del self._rules_cache[old]  # only the board as it is now is kept
                self._rules_cache[key] = rules_for(load_edition(path))
            return self._rules_cache[key]
        if edition not in self._rules_cache:
            self._rules_cache[edition] = rules_for(load_edition(edition))
        return self._rules_cache[edition]

    def _enrol(self, uid: str, role: Role) -> dict:
        lost = self.cards.saved_or_undone(lambda: self.cards.enrol(uid, role))
        shown = self._role_words(role, self.lang)
        if lost:
            self.say("enrolled_replacing", uid=uid, role=shown, lost=lost)
        else:
            self.say("enrolled", uid=uid, role=shown)
        self._booked()
        return {"uid": uid, "role": role.kind, "ref": role.ref, "replaced": lost}

    def _role_words(self, role: Role, lang: str) -> str:
        return role_words(role, self._edition(), lang)

    # ----- the control socket (its own threads; game work goes to the writer) ------------------------

    def handle(self, request: dict) -> dict:
        lang = request["lang"] if request.get("lang") in messages.LANGUAGES else self.lang
        op = request.get("op")
        work = OPS.get(op) if isinstance(op, str) else None
        try:
            if work is None:
                raise BadInput(f"unknown request {op!r} (known: {', '.join(sorted(OPS))})")
            return {"ok": True, **work(self, request, lang)}
        except CompanionError as exc:
            return {
                "ok": False,
                "message": messages.render_error(exc, lang, self._edition()),
                "exit": exit_code(exc),
                "refused": isinstance(exc, RuleViolation),
            }
        except OSError as exc:  # the archive folder, the card map: a file the request needed
            where = f"{exc.filename}: " if exc.filename else ""
            return {"ok": False, "message": f"{where}{exc.strerror or exc}", "exit": 4, "refused": False}
        except (TypeError, ValueError, KeyError) as exc:  # a malformed request from a client
            return {"ok": False, "message": f"malformed request: {exc}", "exit": 4, "refused": False}

    def _op_do(self, request: dict, lang: str) -> dict:
        text = _text(request, "command")
        command = parse_command(text)
        if command is None:
            raise BadCommand("empty_command")
        actor = _text(request, "actor", TABLE)
        request_id = request.get("request_id")
        if request_id is not None and not isinstance(request_id, str):
            raise BadInput("request_id must be text")
        if request_id is not None and not request_id.strip():  # never replaced by a fresh id: a retry would book twice
            raise SaidInput("request_id_empty")
        game = request.get("game")
        table = self.owner.table
        if game is not None and (
            table is None or Path(_text(request, "game")).resolve() != Path(table.ledger.path).resolve()
        ):
            raise BadInput(
                f"this daemon holds {table.ledger.path if table else 'no game'}, not {game}: nothing was booked"
            )
        event = self.owner.submit(actor, command, request_id, rng=random.SystemRandom())
        return self._event_answer(event, lang)

    def _event_answer(self, event, lang: str) -> dict:
        table = self.owner.table
        assert table is not None
        return {
            "seq": event.seq,
            "actor": event.actor,
            "command": event.command,
            "lines": event_lines(table.rules, event, lang),
            "head": table.head_words(lang),
        }

    def _op_state(self, request: dict, lang: str) -> dict:
        def look():
            table = self.owner.table
            if table is None:
                raise NoGame()
            return {
                "text": state_text(table.rules, table.state, lang),
                "path": table.ledger.path,
                "seq": table.head_seq,
            }

        return self.owner.call(look)

    def _op_start(self, request: dict, lang: str) -> dict:
        edition = _text(request, "edition")
        players = request.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise BadInput("players must be a list of names")
        seed = request.get("seed")
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        if not isinstance(seed, int):
            raise BadInput("seed must be a whole number")
        options = request.get("options") or {}
        if not isinstance(options, dict):
            raise BadInput("options must be an object")

        return self.owner.call(lambda: self._start_game(edition, players, seed, options, lang))

    def _start_game(self, edition: str, players: list[str], seed: int, options: dict, lang: str) -> dict:
        if self.owner.table is not None:
            raise RuleViolation("game_on_box")
        # a table's board is read from its file, checked whole: a mistake refuses the game, naming the key
        table = self.games.start(self.edition_file(edition), players, seed, options)
        self.owner.table = table
        if players != self.settings.players:  # a new game from the buttons keeps these names (player_names)
            self.settings.players = list(players)
            self._keep_settings()
        names = ", ".join(players)
        marked = board_counts(table.rules.edition)
        # a board not checked against the box says so once, in the start's own words (one OLED page, not two
        # notices where the second would cut the first short): the OLED, the journal and every phone
        self.say(
            "game_started_unchecked" if marked.placeholder else "game_started",
            edition=table.rules.edition.names.get(self.lang, table.rules.edition.name),
            players=names,
            placeholder=marked.placeholder,
            total=marked.total,
        )
        self._update_dice()
        self.console.sync()
        return {
            "path": table.ledger.path,
            "seed": seed,
            "lines": event_lines(table.rules, table.game.events[0], lang),
            "placeholders": marked.placeholder,
            "items": marked.total,
        }

    def _op_end(self, request: dict, lang: str) -> dict:
        if self.owner.table is None:
            raise RuleViolation("no_game_on_box")
        event = self.owner.submit(TABLE, "end_game")
        return self._event_answer(event, lang)

    def _op_archive(self, request: dict, lang: str) -> dict:
        return self.owner.call(self._archive_game)

    def _archive_game(self) -> dict:
        table = self.owner.table
        if table is None:
            raise RuleViolation("no_game_on_box")
        if table.state.phase != "over":
            raise RuleViolation("game_not_over")
        try:
            # the phone pages' readers would keep the file's -wal at this path: none open during the move
            with self.phone.release_ledger() if self.phone is not None else nullcontext():
                path = self.games.archive(table)
        except OSError:
            self.owner.table = self.games.resume()  # the move failed: the game is still current
            raise
        self.owner.table = None
        self.say("game_kept")  # a family needs no file path: `companion game archive` prints it
        self._update_dice()
        self.console.sync()
        return {"path": str(path)}

    def _op_accept(self, request: dict, lang: str) -> dict:
        """A person accepts the stranger's game the box shows read-only: it becomes the box's own, as it stands
        (issue 21; `companion accept` asks this; the box's buttons and the phone do not offer it yet)."""

        def accept() -> dict:
            table = self.owner.table
            if table is None:
                raise RuleViolation("no_game_on_box")
            words = {"game": table.meta["game_id"][:8], "count": table.head_seq, "head": table.head_hash}
            if not table.stranger:
                return {"message": messages.render("accept_not_needed", words, lang)}
            table.adopt()
            self.say("game_accepted", game=words["game"], seq=table.head_seq)
            self.console.sync()
            return {"message": messages.render("accepted", words, lang)}

        return self.owner.call(accept)

    def _op_status(self, request: dict, lang: str) -> dict:
        table = self.owner.table
        link = self.link.state if self.link is not None else LinkState("none")
        return {
            "game": table.ledger.path if table is not None else None,
            "seq": table.head_seq if table is not None else 0,
            "reader": link.state,
            "reader_detail": link.detail,
            "enrolling": self.enrolling.kind + " " + self.enrolling.ref if self.enrolling else None,
            "enrolling_words": self._role_words(self.enrolling, lang) if self.enrolling else None,
            "halted": self.owner.halted,
            "stopped": messages.render("table_stopped_booking", {"error": stopped}, lang)
            if table is not None and (stopped := table.readonly_reason) is not None
            else None,
        }

    def _op_enrol(self, request: dict, lang: str) -> dict:
        role = _role(request, self._edition())
        uid = request.get("uid")
        if uid is not None:
            done = self.owner.call(lambda: self._enrol(normal_uid(_text(request, "uid")), role))
            code = "enrolled_replacing" if done["replaced"] else "enrolled"
            words = {"uid": done["uid"], "role": self._role_words(role, lang), "lost": done["replaced"]}
            return {**done, "message": messages.render(code, words, lang)}

        def wait():
            self.enrolling = role
            self.enrolling_until = time.monotonic() + ENROL_WAIT_S
            self.say("enrol_waiting", role=self._role_words(role, self.lang))

        self.owner.call(wait)
        return {
            "waiting": True,
            "message": messages.render("enrol_waiting", {"role": self._role_words(role, lang)}, lang),
        }

    def _op_cards(self, request: dict, lang: str) -> dict:
        return {
            "cards": {
                uid: {"kind": r.kind, "ref": r.ref, "edition": r.edition} for uid, r in sorted(self.cards.roles.items())
            },
            "replaced": dict(self.cards.replaced),
        }

    def _op_forget(self, request: dict, lang: str) -> dict:
        def forget():
            role = self.cards.saved_or_undone(lambda: self.cards.forget(_text(request, "uid")))
            return {"kind": role.kind, "ref": role.ref}

        return self.owner.call(forget)

    def _op_sim(self, request: dict, lang: str) -> dict:
        """The simulated reader's hands (a test's or the demo's): place, remove, roll, unplug, replug."""
        if self.sim is None:
            raise BadInput("the reader is real here: put a card on it")
        action = _text(request, "action")
        if action == "place":
            self.sim.place(normal_uid(_text(request, "uid")))
        elif action in ("remove", "press_roll", "unplug", "replug"):
            getattr(self.sim, action)()
        else:
            raise BadInput(f"unknown simulated action {action!r}")
        return {}


def reader_request_id(origin: Origin | None) -> str | None:
    """The request id a reader's line is booked under: its boot id and sequence number, so the ledger itself
    answers the line resent after any restart (None: a reader that gave no boot id; a fresh id then)."""
    if origin is None:
        return None
    boot, seq = origin
    if not (boot.isascii() and boot.isalnum() and len(boot) <= 32):  # a reader's odd boot id: kept short, no ':'
        boot = hashlib.sha256(boot.encode()).hexdigest()[:32]
    return f"reader:{boot}:{seq}"


def _text(request: dict, key: str, default: str | None = None) -> str:
    value = request.get(key, default)
    if not isinstance(value, str):
        raise BadInput(f"{key} must be text")
    return value


def _role(request: dict, edition) -> Role:
    kind = _text(request, "kind")
    ref = _text(request, "ref")
    if kind == "player":
        role = Role("player", ref)
        check_role(role)
        return role
    name = request.get("edition") or (edition.id if edition is not None else "")
    if not isinstance(name, str) or not name:
        raise BadInput("a plot or deck card needs the edition it belongs to (no game is open to tell)")
    role = Role(kind, ref, name)
    check_role(role)
    check_ref(role, edition if edition is not None and edition.id == name else load_edition(name))
    return role


OPS: dict[str, Callable[[Daemon, dict, str], dict]] = {
    "do": Daemon._op_do,
    "state": Daemon._op_state,
    "start": Daemon._op_start,
    "end": Daemon._op_end,
    "archive": Daemon._op_archive,
    "status": Daemon._op_status,
    "accept": Daemon._op_accept,
    "enrol": Daemon._op_enrol,
    "cards": Daemon._op_cards,
    "forget": Daemon._op_forget,
    "sim": Daemon._op_sim,
}


def wait_for(condition: Callable[[], bool], timeout: float = 10.0, step: float = 0.01) -> bool:
    """Poll `condition` until it holds or `timeout` passes (tests and the demo wait on the reader)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(step)
    return condition()
