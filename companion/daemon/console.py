"""The box's buttons and the cards' menus: a stack of screens (lists, number pickers, a trade,
a confirmation, the undo browser) driven by presses and taps, each choice a legal action.

Everything here runs on the writer thread (the daemon posts presses and taps to
it), so a menu is always built from the state the next command will meet. The
OLED's thread only reads `frame` (a finished Frame) and `version`.

Buttons: UP/DOWN move (held: a page, or ten steps of a number), OK chooses,
BACK goes back; a long BACK anywhere opens the undo browser. From the idle
screen OK opens the table's menu. When the table waits for a decision (a plot
on offer, an auction, a debt) its choices come up by themselves. A player's card
opens that player's menu (their balance on top); a second player's card while
it is open starts a payment from the first to the second. Nothing is booked
without a confirmation screen showing the event's own lines (menus.preview).
The box's buttons act as the table (the banker, present at the box); a menu
opened by a player's card acts as that player.

Here: the stack, the input, booking, and the table's and players' menus. The screens are in
views.py, the trade screen in tradeview.py, the Game… menu (a new game, the PIN, the language)
in gamemenu.py; what the menus' choices do on the box is the Desk (boxdesk.py).
"""

from collections.abc import Callable
from typing import Any, Protocol

from companion.engine.actions import TABLE, Action, OneOf, Span
from companion.engine.command import Command
from companion.hw.display import Frame
from companion.words import messages

from . import menus
from .gamemenu import NAMES, PIN_DIGITS, NewGameView, OptionsView, PinView, StartView, game_menu
from .menus import words
from .screens import money
from .tradeview import TradeView
from .views import INDENT_PX, Item, ListView, NumberView, TextView, UndoView, View
from .walkview import WalkView

# the screens other modules and tests import from here, where they lived before the console was split
__all__ = [
    "INDENT_PX",
    "NAMES",
    "PIN_DIGITS",
    "Console",
    "Desk",
    "Item",
    "ListView",
    "NewGameView",
    "NumberView",
    "OptionsView",
    "PinView",
    "StartView",
    "TextView",
    "TradeView",
    "UndoView",
    "View",
]


class Desk(Protocol):
    """What the console asks of the daemon (all on the writer thread; the box's is boxdesk.BoxDesk)."""

    @property
    def lang(self) -> str: ...

    @property
    def muted(self) -> bool: ...

    def book(self, actor: str, command: Command) -> bool: ...
    def undo_chain(self, order: tuple[int, ...]) -> None: ...
    def new_game(self, edition: str, players: list[str], options: dict) -> None: ...
    def end_game(self) -> None: ...
    def archive_game(self) -> None: ...
    def enrol_wait(self, kind: str, ref: str) -> None: ...
    def set_muted(self, muted: bool) -> None: ...
    def phone_url(self) -> str: ...
    def phone_name_address(self) -> str: ...
    def has_address(self) -> bool: ...
    def hotspot_qr(self) -> tuple[str, str, str]: ...
    def power_off(self) -> None: ...
    def table_code(self) -> str: ...
    def pairing_code(self) -> str: ...
    def pair_phone(self, code: str, player: str) -> None: ...
    def head_words(self) -> str: ...
    def editions(self) -> list[tuple[str, str]]: ...
    def edition_rules(self, edition: str) -> Any: ...
    def jackpot_ready(self, player: str, bet: int) -> None: ...
    # issue 22: the table set up from the box
    def has_banker_pin(self) -> bool: ...
    def set_banker_pin(self, pin: str) -> None: ...
    def set_language(self, lang: str) -> None: ...
    def player_names(self, count: int) -> list[str]: ...
    def player_count(self) -> int: ...


class Console:
    """The stack of screens, the presses and taps that move it, and the frame it shows now."""

    def __init__(self, owner: Any, desk: Desk, on_change: Callable[[], None] = lambda: None):
        self.owner = owner
        self.desk = desk
        self.on_change = on_change
        self.stack: list[View] = []
        self.frame: Frame | None = None  # what the OLED shows for the console now (None: the idle screens)
        self.version = 0
        self._built_for = -1  # the head the waiting view was built for
        self._waiting_hidden = -1  # BACK on the waiting view hides it until the next event

    # ----- the state it reads ---------------------------------------------------------------------

    @property
    def table(self) -> Any:
        return self.owner.table

    @property
    def lang(self) -> str:
        return self.desk.lang

    # ----- the stack -------------------------------------------------------------------------------

    def push(self, view: View) -> None:
        self.stack.append(view)

    def pop(self, view: View | None = None) -> None:
        if self.stack and (view is None or self.stack[-1] is view):
            self.stack.pop()
            if not self.stack and self.table is not None:
                self._waiting_hidden = self.table.head_seq

    def close(self) -> None:
        self.stack.clear()

    def came_by_itself(self) -> bool:
        """Whether the screen under a receipt opened without a press or tap (the waiting choices)."""
        self.sync()
        return bool(self.stack) and getattr(self.stack[-1], "by_itself", False)

    # ----- input (writer thread) -------------------------------------------------------------------

    def press(self, name: str, long: bool = False) -> None:
        """A button: the top screen's, or from the idle screens OK opens the table's menu and a long
        BACK the undo browser (from anywhere)."""
        self.sync()
        if name == "back" and long:
            self.close()
            self.push(self.undo_view())
        elif self.stack:
            self.stack[-1].press(self, name, long)
        elif name == "ok":
            self.push(self.table_menu())
        self.refresh()

    def player_card(self, player: str) -> None:
        """A player's card: their menu, or, when another player's menu is open, a payment to them."""
        self.sync()
        top = self.stack[-1] if self.stack else None
        payer = getattr(top, "player", None)
        if payer and payer != player and self._pay(payer, player):
            pass
        else:
            self.close()
            self.push(self.player_menu(player))
        self.refresh()

    def sync(self) -> None:
        """After an event: menus built on the old state are closed (a confirmation stays stale no
        longer than the event that changed it); the waiting choices come up by themselves."""
        table = self.table
        head = table.head_seq if table is not None else -1
        if head != self._built_for:
            self._built_for = head
            self.close()
        self.refresh()

    def refresh(self) -> None:
        frame = self._current()
        if frame != self.frame:
            self.frame = frame
            self.version += 1
            self.on_change()

    def _current(self) -> Frame | None:
        if self.stack:
            return self.stack[-1].frame()
        walking = getattr(self.desk, "walking", None)
        if walking is not None and walking.on():  # issue 23: a board walk holds the screen until it ends
            walk_view = WalkView(walking, self.lang)
            self.push(walk_view)
            return walk_view.frame()
        table = self.table
        if table is None or table.head_seq == self._waiting_hidden:
            return None
        view = self.waiting_view()
        if view is None:
            return None
        self.push(view)
        return view.frame()

    # ----- booking ---------------------------------------------------------------------------------

    def confirm(self, actor: str, command: Command) -> None:
        """The confirmation screen: the event's own lines; OK books it. Asked again while it is on top (the
        plot's card tapped twice), it stays the one screen: one BACK still takes it away."""
        if self.stack and getattr(self.stack[-1], "books", None) == (actor, command.text()):
            return
        preview = menus.preview(self.table, actor, command, self.lang)
        if preview.refused:
            self.push(TextView(words("menu_refused", self.lang), [preview.refused]))
            return
        lines = list(preview.lines) or [menus.verb_words(command.verb, self.lang)]

        def book() -> None:
            self.close()
            self.desk.book(actor, command)

        self.push(
            TextView(
                words("menu_confirm", self.lang),
                lines,
                book,
                footer=words("confirm_footer", self.lang),
                books=(actor, command.text()),
            )
        )

    def _book_now(self, actor: str, command: Command) -> None:
        self.close()
        self.desk.book(actor, command)

    def fill(self, actor: str, action: Action, chosen: tuple[str, ...] = ()) -> None:
        """Choose the action's free values one by one, then confirm the command."""
        lang = self.lang
        table = self.table
        i = len(chosen)
        title = menus.verb_words(action.verb, lang)
        if i == len(action.args):
            self.confirm(actor, Command(action.verb, chosen))
            return
        if action.verb == "jackpot" and i == 1:
            # the bet is chosen: the reader's ROLL throws the three dice, and nothing tells the outcome
            # before it is booked (a preview would let a player back out and pick other numbers)
            self.close()
            self.desk.jackpot_ready(actor, int(chosen[0]))
            self.refresh()
            return
        slot = action.args[i]
        if isinstance(slot, str):
            self.fill(actor, action, chosen + (slot,))
        elif isinstance(slot, Span):
            if slot.low == slot.high:
                self.fill(actor, action, chosen + (str(slot.low),))
                return
            self.push(
                NumberView(
                    menus.picker_title(action, i, lang),
                    slot,
                    lambda v: self.fill(actor, action, chosen + (str(v),)),
                    lang=lang,
                )
            )
        elif isinstance(slot, OneOf):
            options = menus.choices(table.rules, table.state, action, i, lang)
            if len(options) == 1:
                self.fill(actor, action, chosen + (options[0][1],))
                return
            self.push(
                ListView(
                    f"{title}: {menus.slot_title(action, i, lang)}",
                    [Item(text, self._then(actor, action, chosen + (w,))) for text, w in options],
                )
            )
        else:  # a trade's terms
            self.push(self.trade_view(actor, action, chosen))

    def _then(self, actor: str, action: Action, chosen: tuple[str, ...]) -> Callable[[], None]:
        return lambda: self.fill(actor, action, chosen)

    def group_item(self, actor: str, group: menus.Group, party: bool = True, at_once: bool = False) -> Item:
        """A menu line for a group of actions. at_once: a choice the table waits for with nothing left to
        choose that moves no money (decline) is booked by its one press; the receipt says what was done, undo
        reverses it. A money action (buy) shows what it books first, as every other (issue 22)."""
        table = self.table
        text = group.text(table.rules, table.state, self.lang, party)
        if len(group.actions) == 1:
            fixed = group.actions[0].fixed()
            if at_once and fixed is not None and fixed.verb in menus.ONE_PRESS:
                return Item(text, lambda: self._book_now(actor, fixed))
            return Item(text, lambda: self.fill(actor, group.actions[0]))

        def choose() -> None:
            # the title says the verb; each line says only what differs (the plot), whole (issue 22: mortgage
            # lines cut plot names)
            items = [
                Item(
                    menus.action_words(table.rules, table.state, a, self.lang, party=False, verb=False),
                    self._then(actor, a, ()),
                )
                for a in group.actions
            ]
            self.push(ListView(text.rstrip("…"), items, whole=True))

        return Item(text, choose)

    # ----- the menus -------------------------------------------------------------------------------

    def waiting_view(self) -> ListView | None:
        table = self.table
        actions = menus.waiting_actions(table.rules, table.state)
        if not actions:
            return None
        items = [self.group_item(TABLE, g, at_once=True) for g in menus.groups(actions)]
        state = table.state
        who = state.pending.player if state.pending is not None and state.pending.player else ""
        title = who or messages.label("waiting", self.lang)
        return ListView(title, items, by_itself=True, header=menus.waiting_about(table.rules, state, self.lang))

    def table_menu(self) -> ListView:
        lang = self.lang
        table = self.table
        items: list[Item] = []
        if table is not None and table.state.phase != "over":
            state, rules = table.state, table.rules
            items += [self.group_item(TABLE, g) for g in menus.groups(menus.waiting_actions(rules, state))]
            legal = rules.legal(state)
            dice = [
                a
                for a in legal
                if a.verb in rules.DICE_VERBS
                and a.args
                and all(isinstance(s, Span) and s.what == "die" for s in a.args)
            ]
            for action in dice:  # the table's own dice, typed in with the buttons
                items.append(
                    Item(
                        menus.party_prefix(action) + words("menu_dice", lang, what=menus.verb_words(action.verb, lang)),
                        self._then(TABLE, action, ()),
                    )
                )
            lands = [a for a in legal if a.verb == "land"]
            if lands:
                items.append(self.group_item(TABLE, menus.Group("land", TABLE, tuple(lands))))
            # the table's own actions at no waiting moment (Monopoly's building shortage auction)
            waiting = set(menus.waiting_actions(rules, state))
            own = [
                a
                for a in legal
                if a.party == TABLE and a not in waiting and a not in dice and a.verb not in ("land", "end_game")
            ]
            items += [self.group_item(TABLE, g) for g in menus.groups(own)]
            items.append(Item(words("menu_players", lang), self._players))
        items.append(Item(words("menu_undo", lang), lambda: self.push(self.undo_view())))
        items.append(Item(words("menu_game", lang), lambda: self.push(game_menu(self))))
        title = (
            table.rules.edition.names.get(lang, table.rules.edition.name)
            if table is not None
            else words("menu_table", lang)
        )
        return ListView(title, items)

    def _players(self) -> None:
        table = self.table
        items = [Item(f"{p}: {money(table.state.cash(p))}", self._player(p)) for p in table.state.players]
        self.push(ListView(words("menu_players", self.lang).rstrip("…"), items))

    def _player(self, player: str) -> Callable[[], None]:
        return lambda: self.push(self.player_menu(player))

    def player_menu(self, player: str) -> View:
        lang = self.lang
        table = self.table
        title = (
            f"{player}: {money(table.state.cash(player))}"
            if table is not None and player in table.state.players
            else player
        )
        if table is None or table.state.phase == "over":
            view: View = ListView(title, [])
        else:
            actions = menus.player_actions(table.rules, table.state, player)
            items = [self.group_item(player, g, party=False) for g in menus.groups(actions)]
            # a phone waiting to pair is this card's only if its player says so: first in their menu
            code = self.desk.pairing_code()
            if code:
                items.insert(0, Item(words("menu_pair_phone", lang, pairing=code), lambda: self._pair(code, player)))
            view = ListView(title, items, footer="" if items else words("menu_nothing", lang))
        view.player = player  # type: ignore[attr-defined]  # a second player's card pays this one's
        return view

    def _pair(self, code: str, player: str) -> None:
        self.close()
        self.desk.pair_phone(code, player)
        self.refresh()

    def _pay(self, payer: str, payee: str) -> bool:
        table = self.table
        for action in table.rules.legal(table.state, payer, verbs=("pay",)):
            amount = action.args[2]
            if action.args[:2] == (payer, payee) and isinstance(amount, Span):

                def paid(value: int, action: Action = action) -> None:
                    self.fill(payer, action, (payer, payee, str(value)))

                # what the payer owes the payee, if anything, is where the picker starts
                owed = sum(d.amount for d in table.state.debts if (d.debtor, d.creditor) == (payer, payee))
                self.push(
                    NumberView(
                        words("menu_transfer", self.lang, payer=payer, payee=payee),
                        amount,
                        paid,
                        value=owed,
                        lang=self.lang,
                    )
                )
                return True
        return False

    def trade_view(self, actor: str, action: Action, chosen: tuple[str, ...]) -> View:
        return TradeView(self, actor, action, chosen)

    def undo_view(self) -> View:
        table = self.table
        events = menus.undoable(table.game) if table is not None else []
        return UndoView(self, events)
