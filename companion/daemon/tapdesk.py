"""The reader's taps and ROLL on the box: what a card or the dice mean now, booked with the reader's
beeps for a verdict, the dice count the reader is told after every commit, and a card's enrolment.

The link's thread only posts work to the writer (companion/daemon/owner.py); everything else here runs
on the writer thread, so a tap is read against the state the next command will meet.
"""

import hashlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError, RuleViolation
from companion.hw.protocol import MAX_PENDING
from companion.hw.reader import LinkState, Origin
from companion.words import messages

from . import menus
from .cards import Role
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

if TYPE_CHECKING:
    from .main import Daemon

log = logging.getLogger("companion.daemon")

VERDICT_BOOKED = (2, 40)  # the Pi's answer after the reader's own beep: two short pips
VERDICT_REFUSED = (3, 120)  # three longer ones: look at the screen
ENROL_WAIT_S = 60.0  # an enrolment waits this long for its card, then lapses
READER_QUEUE = 16  # lines the reader queues behind its MAX_PENDING unacknowledged ones (firmware QUEUE_MAX)
# request ids of a reader boot always looked up in the ledger (a ROLL has two): after a restart the reader
# resends its unacknowledged lines on their own timers, and its queued ones may go out in between
LOOKED_UP = 2 * (MAX_PENDING + READER_QUEUE)


def reader_request_id(origin: Origin | None) -> str | None:
    """The request id a reader's line is booked under: its boot id and sequence number, so the ledger itself
    answers the line resent after any restart (None: a reader that gave no boot id; a fresh id then)."""
    if origin is None:
        return None
    boot, seq = origin
    if not (boot.isascii() and boot.isalnum() and len(boot) <= 32):  # a reader's odd boot id: kept short, no ':'
        boot = hashlib.sha256(boot.encode()).hexdigest()[:32]
    return f"reader:{boot}:{seq}"


class TapDesk:
    """The reader's side of the box. Reads the box's parts (owner, link, cards, console, panel, walk) at each
    call, never keeps them: a restart of the link or a test's replacement is seen at once."""

    def __init__(self, box: "Daemon"):
        self.box = box
        self.enrolling: Role | None = None  # the role the next card tapped gets ...
        self.enrolling_until = 0.0  # ... if it comes before this (time.monotonic)
        self.dice = -1  # what the reader was last told ROLL gives
        # issue 22: ROLL never skips a decision. `asked` is the (reason, player, head) of the last ROLL that
        # only said what the rules offer first; the next ROLL at the same head goes on. `jackpot_bet` is the
        # (player, bet, game id) chosen on the box: the next ROLL throws the JACKPOT's three dice with it.
        self.asked: tuple[str, str, int] | None = None
        self.jackpot_bet: tuple[str, int, str] | None = None
        # the request ids of each reader boot this process has handled in the open game: (ledger, boot) -> ids.
        # Only the lines a reader had not seen acknowledged when the daemon stopped (MAX_PENDING at most) can
        # have been booked before; they come among its first MAX_PENDING + READER_QUEUE lines to this
        # process. A later line is new unless handled here, and needs no look in the ledger
        self._looked: dict[tuple[str, str], set[str]] = {}

    def update_dice(self) -> None:
        """Tell the reader how many dice ROLL gives now. On the writer thread only (the owner's on_commit,
        a game started, archived or resumed): the count is the committed state's, sent before any listener
        sees the event. Computed off-thread (the printer, once) it could be a state's the writer had just
        left, or lose a check-then-set against the writer's own, and leave ROLL buzzing "no" on a turn the
        table can end."""
        table = self.box.owner.table
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
        if n != self.dice and self.box.link is not None:
            self.dice = n
            self.box.link.set_dice(n)

    # ----- the reader's lines (called on the link's thread: hand everything to the writer) ------------

    def on_link_state(self, state: LinkState) -> None:
        params = {"info": state.detail}
        if state.state == "refused":
            params["ours"] = "1"
        self.box.say("reader_" + state.state, **params)

    def on_tap(self, uid: str, origin: Origin | None = None) -> None:
        request_id = reader_request_id(origin)
        self.box.owner.post(lambda: self.guarded(self.tap, uid, request_id))

    def on_roll(self, dice: tuple[int, ...], origin: Origin | None = None) -> None:
        request_id = reader_request_id(origin)
        self.box.owner.post(lambda: self.guarded(self.roll, dice, request_id))

    def guarded(self, work: Callable[..., None], *values: Any) -> None:
        """A tap or roll that fails in a way no rule foresaw is still answered: a line and a "no" buzz."""
        try:
            work(*values)
        except CompanionError as exc:
            self.refuse("tap_failed", why=messages.render_error(exc, self.box.lang))
        except OSError as exc:
            log.error("a tap could not be handled: %s", exc)
            self.refuse("tap_failed", why=exc.strerror or str(exc))

    def refuse(self, code: str, **params: Any) -> None:
        self.box.say(code, **params)
        if self.box.link is not None and not self.box.muted:
            self.box.link.beep(*VERDICT_REFUSED)

    def booked(self) -> None:
        if self.box.link is not None and not self.box.muted:
            self.box.link.beep(*VERDICT_BOOKED)

    def _answered(self, table: Any, request_id: str | None) -> bool:
        """Whether the ledger already holds the booking made under this request id (a reader's line resent
        after the daemon restarted): such a line is answered as booked, never worked out again from a state
        it already changed."""
        if request_id is None:
            return False
        key = (table.ledger.path, request_id.split(":")[1] if request_id.startswith("reader:") else "")
        handled = self._looked.get(key)
        if key[1] and handled is not None and len(handled) >= LOOKED_UP and request_id not in handled:
            handled.add(request_id)  # past the lines a restart can have left unacknowledged, never handled here
            return False
        try:
            found = table.ledger.request(request_id) is not None
        except Exception as exc:  # the booking's own look (Table.submit) answers it, or says what is wrong
            log.warning("could not look up %s: %s", request_id, exc)
            return False
        if key[1]:
            if handled is None:
                self._looked = {k: v for k, v in self._looked.items() if k[0] == key[0]}  # another game: forget
                handled = self._looked.setdefault(key, set())
            handled.add(request_id)
        return found

    def tap(self, uid: str, request_id: str | None = None) -> None:
        if self.enrolling is not None and time.monotonic() > self.enrolling_until:
            self.enrolling = None
            self.box.say("enrol_expired")
        if self.enrolling is not None:
            held = self.box.cards.role(uid)
            if held is not None and held.key() != self.enrolling.key():
                # a card with a job keeps it (Anna ending her turn must not lose her card): forget it first
                self.refuse("card_has_role", uid=uid, role=self.box.role_words(held, self.box.lang))
                return
            wanted, self.enrolling = self.enrolling, None
            self.enrol(uid, wanted)
            return
        if self.box.walking.on():  # a walk of the board takes every card: nothing is booked to the game
            if not self.box.walking.expired():
                self.box.walking.tap(uid)
            return
        if self.box.walking.just_dropped():  # maybe the walk's line, resent after a restart: never the game's
            return
        role = self.box.cards.role(uid)
        if role is None:
            self.refuse("replaced_card" if uid in self.box.cards.replaced else "unknown_card", uid=uid)
            return
        table = self.box.owner.table
        if table is None:
            self.refuse("no_game_open")
            return
        if self._answered(table, request_id):
            self.booked()
            return
        meaning = tap_meaning(table.rules, table.state, role)
        if self.box.panel is not None:
            self.box.panel.dismiss()  # a tap always interrupts a receipt
        if meaning.menu_for:  # a player's card: their menu (or a payment to them from the open one)
            self.booked()
            self.box.console.player_card(meaning.menu_for)
        elif meaning.confirm and meaning.command is not None:  # a purchase or a landing: shown, then OK books it
            self.booked()
            self.box.console.sync()
            self.box.console.confirm(meaning.actor, meaning.command)
            self.box.console.refresh()
        elif meaning.refusal in ("nothing_for_card", "nothing_for_plot"):
            self._refuse_why(table, meaning)
        else:
            self.book(meaning, request_id)

    def _refuse_why(self, table: Any, meaning: Meaning) -> None:
        """A card that stands for nothing now says why: what the table waits for first, or what it is for."""
        rules, state, lang = table.rules, table.state, self.box.lang
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
        self.refuse(code, why=why, **meaning.params)

    def roll(self, dice: tuple[int, ...], request_id: str | None = None) -> None:
        """ROLL: the dice booked under the line's request id; a turn ended first under that id + ":end".
        A decision the rules give before the dice is never skipped: a held player whose turn comes is
        offered the fine or a card first, an open JACKPOT is named first (the next ROLL goes on), a chosen
        JACKPOT bet is thrown, and a ROLL while a choice is awaited says what it is."""
        if self.box.walking.on() and not self.box.walking.expired():  # the reader is the walk's: never a booking
            self.refuse("walk_no_roll")
            return
        if self.box.walking.just_dropped():
            return
        table = self.box.owner.table
        if table is None:
            self.refuse("no_game_open")
            return
        if self._answered(table, request_id):  # the dice were booked before a restart: answered, not again
            self.booked()
            return
        bet = self._bet_now(table)
        if bet is not None:  # the JACKPOT's bet was chosen on the box: these are its three dice
            if self.book(jackpot_meaning(table.rules, table.state, bet, dice), request_id):
                self.jackpot_bet = None
            self.update_dice()
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
            if not self.book(end, end_id):
                return
            table = self.box.owner.table
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
            about = menus.waiting_about(table.rules, table.state, self.box.lang)
            self.refuse("roll_waiting", about=about or messages.label("waiting", self.box.lang))
            self.box.console.sync()
            self.box.console.refresh()
            return
        self.book(meaning, request_id)

    def _ask_first(self, table: Any, reason: str) -> bool:
        """Whether this ROLL only says what the rules offer first (pay or a card before rolling for doubles;
        the JACKPOT) and opens that player's menu; the next ROLL at the same state goes on."""
        state = table.state
        player = held_choice(table.rules, state) if reason == "held" else jackpot_open(table.rules, state)
        if not player or self.asked == (reason, player, table.head_seq):
            return False
        self.asked = (reason, player, table.head_seq)
        if reason == "held":
            self.box.say("roll_held_first", player=player, fine=table.rules.opt["detention_fine"])
        else:
            self.box.say("roll_jackpot_first", player=player)
        if self.box.link is not None and not self.box.muted:
            self.box.link.beep(*VERDICT_REFUSED)
        self.box.console.player_card(player)
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
        table = self.box.owner.table
        if table is None:
            return
        self.jackpot_bet = (player, bet, str(table.meta.get("game_id")))
        self.update_dice()
        self.box.say("jackpot_press_roll", player=player, bet=bet)

    def book(self, meaning: Meaning, request_id: str | None = None) -> bool:
        if meaning.command is None:
            self.refuse(meaning.refusal, **meaning.params)
            return False
        try:
            self.box.owner.apply(meaning.actor, meaning.command, request_id)
        except RuleViolation as exc:
            self.refuse(exc.code, **exc.params)
        except CompanionError as exc:
            table = self.box.owner.table
            if table is not None and table.readonly_reason is not None:  # said once already, in the journal too
                self.refuse("table_read_only", error=table.readonly_reason)
                return False
            log.error("a tap could not be booked: %s", exc)
            # only a halted bank says so: a busy lock or a failed write is this booking's refusal alone, and
            # the next press may well book (the soak showed "halted" on every screen while booking went on)
            code = "halted" if self.box.owner.halted else "not_booked"
            self.refuse(code, why=messages.render_error(exc, self.box.lang))
        else:
            self.booked()
            return True
        return False

    def expect_card(self, role: Role) -> None:
        """(writer thread) The next card tapped within ENROL_WAIT_S gets this role (`companion card enrol`
        without a UID, the box's Game… → Cards menu)."""
        self.enrolling = role
        self.enrolling_until = time.monotonic() + ENROL_WAIT_S
        self.box.say("enrol_waiting", role=self.box.role_words(role, self.box.lang))

    def enrol(self, uid: str, role: Role) -> dict[str, Any]:
        """(writer thread) This card gets this role now, said on the box with the reader's "booked" beep."""
        lost = self.box.cards.saved_or_undone(lambda: self.box.cards.enrol(uid, role))
        shown = self.box.role_words(role, self.box.lang)
        if lost:
            self.box.say("enrolled_replacing", uid=uid, role=shown, lost=lost)
        else:
            self.box.say("enrolled", uid=uid, role=shown)
        self.booked()
        return {"uid": uid, "role": role.kind, "ref": role.ref, "replaced": lost}
