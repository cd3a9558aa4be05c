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
"""

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from companion.engine.actions import TABLE, Action, OneOf, Span
from companion.engine.command import Command
from companion.hw.display import WIDTH, Frame, line_room, wrap
from companion.words import messages
from companion.words.options import option_line, settable_options

from . import menus
from .menus import words
from .screens import money

INDENT_PX = 8  # a chosen line's continuation is indented by two spaces (6 px in DejaVu Sans 9) and a margin
PIN_DIGITS = 4  # the banker's PIN picked at the box (a phone may set one of up to 8 digits)
NAMES = {  # a new game's players until the banker's phone names them (docs/box.md)
    "en": ("Anna", "Boris", "Vera", "Gleb", "Dina", "Egor", "Zoya", "Ilya"),
    "ru": ("Аня", "Борис", "Вера", "Глеб", "Дина", "Егор", "Зоя", "Илья"),
}


class Desk(Protocol):
    """What the console asks of the daemon (all on the writer thread)."""

    lang: str

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


class View:
    """One screen of the stack."""

    def frame(self) -> Frame:
        raise NotImplementedError

    def press(self, console: "Console", name: str, long: bool) -> None:
        raise NotImplementedError


@dataclass
class Item:
    text: str
    choose: Callable[[], None]


@dataclass
class ListView(View):
    title: str
    items: list[Item]
    index: int = 0
    footer: str = ""
    by_itself: bool = False  # the table's waiting choices, opened by the game rather than a press
    header: str = ""  # what the choice is about, above the lines (wrapped; the title is one line)
    whole: bool = False  # every line wrapped whole, not only the chosen one: a list of plots never cuts a name

    def frame(self) -> Frame:
        if self.whole:
            return self._whole_frame()
        total = max(1, line_room(True, False, bool(self.footer)))
        head = wrap(self.header)[: max(1, total - min(len(self.items), 2))] if self.header else []
        room = max(1, total - len(head))
        if not self.items:
            return Frame(title=self.title, lines=tuple(head), inverse_title=True, footer=self.footer)
        # the chosen line is shown whole (wrapped), its neighbours as far as they fit around it
        text = self.items[self.index].text
        first = wrap(text, width=WIDTH - 2)[0]  # the inverse band leaves a pixel each side
        rest = text[len(first) :].strip()
        chosen = [first] + (["  " + part for part in wrap(rest, width=WIDTH - INDENT_PX)] if rest else [])
        free = max(0, room - len(chosen))
        above = list(range(self.index - 1, -1, -1))
        below = list(range(self.index + 1, len(self.items)))
        take_above = min(len(above), free // 2)
        take_below = min(len(below), free - take_above)
        take_above = min(len(above), free - take_below)
        shown_above = [self.items[i].text for i in reversed(above[:take_above])]
        shown_below = [self.items[i].text for i in below[:take_below]]
        lines = shown_above + chosen + shown_below
        return Frame(
            title=self.title,
            lines=tuple(head + lines[: max(room, len(chosen))]),
            inverse_title=True,
            selected=len(head) + len(shown_above),
            footer=self.footer,
        )

    def _item_lines(self, i: int) -> list[str]:
        text = self.items[i].text
        first = wrap(text, width=WIDTH - 2)[0]  # the inverse band leaves a pixel each side
        rest = text[len(first) :].strip()
        return [first] + (["  " + part for part in wrap(rest, width=WIDTH - INDENT_PX)] if rest else [])

    def _whole_frame(self) -> Frame:
        """The chosen line and as many whole neighbours as fit around it, below first: a neighbour that
        would not fit whole is left for the next press rather than drawn cut."""
        room = max(1, line_room(True, False, bool(self.footer)))
        chosen = self._item_lines(self.index)
        above: list[str] = []
        below: list[str] = []
        free = room - len(chosen)
        up, down = self.index - 1, self.index + 1
        while free > 0 and (up >= 0 or down < len(self.items)):
            took = False
            if down < len(self.items) and len(self._item_lines(down)) <= free and (len(below) <= len(above) or up < 0):
                lines = self._item_lines(down)
                below, free, down, took = below + lines, free - len(lines), down + 1, True
            elif up >= 0 and len(self._item_lines(up)) <= free:
                lines = self._item_lines(up)
                above, free, up, took = lines + above, free - len(lines), up - 1, True
            elif down < len(self.items) and len(self._item_lines(down)) <= free:
                lines = self._item_lines(down)
                below, free, down, took = below + lines, free - len(lines), down + 1, True
            if not took:
                break
        return Frame(
            title=self.title,
            lines=tuple(above + chosen + below),
            inverse_title=True,
            selected=len(above),
            footer=self.footer,
        )

    def press(self, console: "Console", name: str, long: bool) -> None:
        if name in ("up", "down") and self.items:
            step = (line_room(True) if long else 1) * (1 if name == "down" else -1)
            self.index = (
                (self.index + step) % len(self.items)
                if not long
                else max(0, min(len(self.items) - 1, self.index + step))
            )
        elif name == "ok" and self.items:
            self.items[self.index].choose()
        elif name == "back":
            console.pop(self)


@dataclass
class NumberView(View):
    """A number within the rules' bounds: UP/DOWN add or take one step; a held UP makes the step ten
    times coarser, a held DOWN ten times finer, so any whole number is a few presses away."""

    title: str
    span: Span
    done: Callable[[int], None]
    value: int = 0
    lang: str = "en"
    step: int = 1

    changed: bool = False  # the last press changed the step: the screen says so (a hold is never silent)

    def __post_init__(self) -> None:
        self.step = menus.step_for(self.span)
        if not self.span.low <= self.value <= self.span.high:
            self.value = menus.start_at(self.span, self.step)

    def frame(self) -> Frame:
        step = words("number_step_now" if self.changed else "number_step", self.lang, step=money(self.step))
        return Frame(
            title=self.title,
            big=money(self.value),
            inverse_title=True,
            lines=(f"{money(self.span.low)} … {money(self.span.high)}", step, *wrap(words("number_hint", self.lang))),
        )

    def press(self, console: "Console", name: str, long: bool) -> None:
        self.changed = False
        if name == "up" and long:
            if self.step * 10 <= max(1, self.span.high - self.span.low):
                self.step *= 10
                self.changed = True
        elif name == "down" and long:
            self.changed = self.step > 1
            self.step = max(1, self.step // 10)
        elif name in ("up", "down"):
            # to the next round number of this step (1 → 50 → 100, never 51, 101): the bounds still hold
            step = self.step
            value = (self.value // step + 1) * step if name == "up" else ((self.value - 1) // step) * step
            self.value = max(self.span.low, min(self.span.high, value))
        elif name == "ok":
            self.done(self.value)
        elif name == "back":
            console.pop(self)


@dataclass
class TextView(View):
    """Lines to read (a confirmation, the ledger's words, a QR code): UP/DOWN scroll, OK acts."""

    title: str
    lines: list[str]
    ok: Callable[[], None] | None = None
    footer: str = ""
    qr: str = ""
    top: int = 0
    books: tuple[str, str] | None = None  # a confirmation's (actor, command): the same card again shows it once

    def frame(self) -> Frame:
        wrapped = [part for line in self.lines for part in wrap(line)]
        room = max(1, line_room(True, False, bool(self.footer)))
        self.top = max(0, min(self.top, max(0, len(wrapped) - room)))
        more = len(wrapped) > room
        title = self.title + (f" {self.top // room + 1}/{(len(wrapped) + room - 1) // room}" if more else "")
        frame = Frame(
            title=title, lines=tuple(wrapped[self.top : self.top + room]), inverse_title=True, footer=self.footer
        )
        if self.qr:
            frame = replace(frame, qr=self.qr)  # the QR code beside the lines
        return frame

    def press(self, console: "Console", name: str, long: bool) -> None:
        room = max(1, line_room(True, False, bool(self.footer)))
        if name == "down":
            self.top += room
        elif name == "up":
            self.top = max(0, self.top - room)
        elif name == "ok":
            if self.ok is not None:
                self.ok()
            else:
                console.pop(self)
        elif name == "back":
            console.pop(self)


@dataclass
class UndoView(View):
    """The recent events, newest first; each shown as exactly what its undo would reverse."""

    console: "Console"
    events: list[int]
    index: int = 0
    top: int = 0
    plans: dict = field(default_factory=dict)

    def plan(self) -> menus.UndoPlan:
        seq = self.events[self.index]
        if seq not in self.plans:
            self.plans[seq] = menus.undo_plan(self.console.table, seq, self.console.lang)
        return self.plans[seq]

    def frame(self) -> Frame:
        lang = self.console.lang
        if not self.events:
            return Frame(
                title=words("menu_undo", lang), lines=tuple(wrap(words("undo_nothing", lang))), inverse_title=True
            )
        plan = self.plan()
        table = self.console.table
        texts: list[str] = []
        if plan.refused:
            texts += [menus.event_summary(table, plan.target, lang), plan.refused]
        else:
            earlier = [s for s in plan.order if s != plan.target]
            if earlier:
                texts.append(
                    words(
                        "undo_first" if len(earlier) > 1 else "undo_first_one",
                        lang,
                        events=messages.joined([f"#{s}" for s in earlier], lang),
                    )
                )
            texts += list(plan.lines)  # each undo's own lines: what is reversed, what to put back
        lines = [part for text in texts for part in wrap(text)]
        room = line_room(True, False, True)
        self.top = max(0, min(self.top, max(0, len(lines) - room)))
        title = words("undo_title", lang, seq=plan.target, n=self.index + 1, of=len(self.events))
        footer = words("undo_footer", lang) if not plan.refused else words("undo_footer_refused", lang)
        return Frame(title=title, lines=tuple(lines[self.top : self.top + room]), inverse_title=True, footer=footer)

    def press(self, console: "Console", name: str, long: bool) -> None:
        if name == "back":
            console.pop(self)
        elif not self.events:
            if name == "ok":
                console.pop(self)
        elif name in ("up", "down") and long:  # a held arrow reads the rest of a long undo
            self.top += line_room(True, False, True) * (1 if name == "down" else -1)
            self.top = max(0, self.top)
        elif name == "down":
            self.index, self.top = min(len(self.events) - 1, self.index + 1), 0
        elif name == "up":
            self.index, self.top = max(0, self.index - 1), 0
        elif name == "ok":
            plan = self.plan()
            if not plan.refused:
                console.close()
                console.desk.undo_chain(plan.order)


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
            from .walkview import WalkView

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
        items.append(Item(words("menu_game", lang), lambda: self.push(self.game_menu())))
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

    # ----- the game's life -------------------------------------------------------------------------

    def game_menu(self) -> ListView:
        """New game first (from a running game too), then ending or archiving this one, the box's language
        and the banker's PIN (issue 22: the table set up from the box), cards, sound, the phone page."""
        lang, desk, table = self.lang, self.desk, self.table
        items: list[Item] = [Item(words("menu_new_game_more", lang), lambda: self.push(NewGameView(self)))]
        if table is None:
            pass
        elif table.state.phase != "over":
            items.append(
                Item(
                    words("menu_end_game", lang),
                    lambda: self.push(
                        TextView(
                            words("menu_end_game", lang),
                            [words("end_game_warning", lang)],
                            self._end,
                            footer=words("confirm_footer", lang),
                        )
                    ),
                )
            )
        else:
            items.append(Item(words("menu_archive", lang), self._archive))
        items.append(Item(words("menu_language", lang, name=words("language_here", lang)), self._languages))
        items.append(Item(words("menu_banker_pin", lang), lambda: self.push(PinView(self))))
        if desk.has_banker_pin():
            items.append(Item(words("menu_banker_pin_remove", lang), self._remove_pin))
        items.append(Item(words("menu_enrol", lang), lambda: self.push(self.enrol_menu())))
        if getattr(desk, "walking", None) is not None:  # issue 23: walk the board with the cards
            from .walkview import walk_menu

            items.append(Item(words("menu_our_board", lang), lambda: self.push(walk_menu(self))))
        items.append(Item(words("menu_sound_off" if not desk.muted else "menu_sound_on", lang), self._mute))
        items.append(Item(words("menu_phone", lang), self._phone_page))
        if table is not None:
            items.append(
                Item(
                    words("menu_head", lang), lambda: self.push(TextView(words("menu_head", lang), [desk.head_words()]))
                )
            )
        return ListView(words("menu_game", lang).rstrip("…"), items)

    def _end(self) -> None:
        self.close()
        self.desk.end_game()

    def _languages(self) -> None:
        """Each language named in its own words, the box's own chosen."""
        codes = list(messages.LANGUAGES)

        def choose(code: str) -> Callable[[], None]:
            def chosen() -> None:
                self.close()
                self.desk.set_language(code)

            return chosen

        self.push(
            ListView(
                words("language_title", self.lang),
                [Item(words("language_name", c), choose(c)) for c in codes],
                index=codes.index(self.lang) if self.lang in codes else 0,
            )
        )

    def _remove_pin(self) -> None:
        self.close()
        self.desk.set_banker_pin("")

    def _archive(self) -> None:
        self.close()
        self.desk.archive_game()

    def _phone_page(self) -> None:
        """The phone page's QR code, and the table code in letters for a phone that cannot scan."""
        lang, desk = self.desk.lang, self.desk
        code = desk.table_code()
        lines = [words("phone_scan", lang)] + ([words("phone_code", lang, letters=code)] if code else [])
        self.push(TextView(words("menu_phone", lang), lines, qr=desk.phone_url()))

    def _mute(self) -> None:
        self.desk.set_muted(not self.desk.muted)
        self.pop()
        self.push(self.game_menu())

    def enrol_menu(self) -> ListView:
        lang, table = self.lang, self.table
        items = [Item(words("enrol_player", lang, n=n), self._enrol("player", str(n))) for n in range(1, 9)]
        if table is not None:
            edition = table.rules.edition
            plots = list(edition.plots)
            items.append(
                Item(
                    words("enrol_plot", lang),
                    lambda: self.push(
                        ListView(
                            words("enrol_plot", lang),
                            [Item(messages.thing_name(edition, p, lang), self._enrol("plot", p)) for p in plots],
                        )
                    ),
                )
            )
            items.append(
                Item(
                    words("enrol_card", lang),
                    lambda: self.push(
                        ListView(
                            words("enrol_card", lang),
                            [
                                Item(messages.thing_name(edition, c, lang), self._enrol("card", c))
                                for c in sorted(edition.cards)
                            ],
                        )
                    ),
                )
            )
        return ListView(words("menu_enrol", lang).rstrip("…"), items)

    def _enrol(self, kind: str, ref: str) -> Callable[[], None]:
        def enrol() -> None:
            self.close()
            self.desk.enrol_wait(kind, ref)

        return enrol


class TradeView(ListView):
    """A trade built item by item: each plot or card a line to tick, each side's cash a number."""

    def __init__(self, console: Console, actor: str, action: Action, chosen: tuple[str, ...]):
        self.console, self.actor, self.action, self.chosen = console, actor, action, chosen
        terms = menus.terms_of(action)
        assert terms is not None
        self.terms = terms
        self.give: list[str] = []
        self.get: list[str] = []
        self.cash = {"give": 0, "get": 0}
        super().__init__(words("trade_title", console.lang, a=action.args[0], b=action.args[1]), [])
        self._build()

    def _build(self) -> None:
        lang = self.console.lang
        table = self.console.table
        edition = table.rules.edition
        a, b = self.action.args[0], self.action.args[1]
        items: list[Item] = []
        for key, side, who, chosen in (("give", self.terms.give, a, self.give), ("get", self.terms.get, b, self.get)):
            for ref in menus.trade_items(side):
                mark = "☑" if ref in chosen else "☐"
                items.append(
                    Item(f"{mark} {who}: {messages.thing_name(edition, ref, lang)}", self._toggle(chosen, ref))
                )
            if side.cash is not None:
                items.append(
                    Item(
                        words("trade_cash", lang, player=who, amount=money(self.cash[key])),
                        self._amount(key, side.cash),
                    )
                )
        items.append(Item(words("trade_propose", lang), self._propose))
        self.items = items
        self.index = min(self.index, len(items) - 1)

    def _toggle(self, chosen: list[str], ref: str) -> Callable[[], None]:
        def toggle() -> None:
            if ref in chosen:
                chosen.remove(ref)
            else:
                chosen.append(ref)
            self._build()

        return toggle

    def _amount(self, key: str, span: Span) -> Callable[[], None]:
        def pick() -> None:
            def done(value: int) -> None:
                self.cash[key] = value
                self.console.pop()
                self._build()

            self.console.push(
                NumberView(
                    words("trade_cash_title", self.console.lang),
                    Span(0, span.high),
                    done,
                    value=self.cash[key],
                    lang=self.console.lang,
                )
            )

        return pick

    def _propose(self) -> None:
        terms = menus.trade_words(self.give, self.cash["give"], self.get, self.cash["get"])
        self.console.confirm(self.actor, Command(self.action.verb, self.chosen + terms))


class NewGameView(ListView):
    """A new game from the buttons alone, in few presses (issue 22): which game (Millionaire Elite first,
    chosen), how many players, then Start; the options a table argues about are folded under one line,
    "Options…" (the edition's defaults unless opened). Started while a game is on the box, it first says
    that game ends and is kept in the archive."""

    def __init__(self, console: Console):
        self.console = console
        editions = sorted(console.desk.editions(), key=lambda e: e[0] != "elite")
        super().__init__(
            words("new_edition_title", console.lang), [Item(name, self._chose(eid)) for eid, name in editions]
        )

    def _chose(self, edition: str) -> Callable[[], None]:
        def chosen() -> None:
            console, lang = self.console, self.console.lang
            ed = console.desk.edition_rules(edition).edition
            span = Span(ed.players_min, min(ed.players_max, len(NAMES["en"])))
            console.push(
                NumberView(
                    words("new_players_title", lang),
                    span,
                    lambda n: console.push(StartView(console, edition, n)),
                    value=max(span.low, min(span.high, console.desk.player_count())),
                    lang=lang,
                )
            )

        return chosen


class StartView(ListView):
    """Start (the first line, chosen) or Options…; the players' names above (the last game's, else the box's)."""

    def __init__(self, console: Console, edition: str, count: int):
        self.console, self.edition, self.count = console, edition, count
        self.options: dict[str, Any] = {}
        self.names = console.desk.player_names(count)
        lang = console.lang
        name = dict(console.desk.editions()).get(edition, edition)
        items = [Item(words("new_start", lang), self._start)]
        if settable_options(self._rules()):
            items.append(Item(words("new_options", lang), lambda: self.console.push(OptionsView(self))))
        super().__init__(name, items, header=", ".join(self.names))

    def _rules(self) -> Any:
        return self.console.desk.edition_rules(self.edition)

    def _start(self) -> None:
        console, lang, table = self.console, self.console.lang, self.console.table
        if table is None:
            self._go()
            return
        warning = "new_game_ends_running" if table.state.phase != "over" else "new_game_archives"
        console.push(
            TextView(
                words("menu_new_game", lang), [words(warning, lang)], self._go, footer=words("confirm_footer", lang)
            )
        )

    def _go(self) -> None:
        self.console.close()
        self.console.desk.new_game(self.edition, list(self.names), dict(self.options))


class OptionsView(ListView):
    """The new game's house rules, each a line: a yes/no or a choice flipped by OK, a number picked."""

    def __init__(self, start: StartView):
        self.start = start
        self.console = start.console
        super().__init__(words("new_options", self.console.lang).rstrip("…"), [])
        self._build()

    def _build(self) -> None:
        rules = self.start._rules()
        self.items = [
            Item(
                option_line(rules.edition, key, self.start.options.get(key, rules.opt[key]), self.console.lang),
                self._option(key),
            )
            for key in settable_options(rules)
        ]
        self.index = min(self.index, max(0, len(self.items) - 1))

    def _option(self, key: str) -> Callable[[], None]:
        def change() -> None:
            rules = self.start._rules()
            options = self.start.options
            value = options.get(key, rules.opt[key])
            choices = type(rules).OPTION_CHOICES.get(key)
            if isinstance(value, bool):
                options[key] = not value
            elif choices:
                options[key] = (
                    choices[(list(choices).index(value) + 1) % len(choices)] if value in choices else choices[0]
                )
            elif isinstance(value, int):
                low, high = type(rules).OPTION_RANGES.get(key, (0, max(100, value * 10)))

                def done(number: int) -> None:
                    options[key] = number
                    self.console.pop()
                    self._build()

                self.console.push(
                    NumberView(
                        words("new_option_title", self.console.lang),
                        Span(int(low), int(high)),
                        done,
                        value=value,
                        lang=self.console.lang,
                    )
                )
                return
            self._build()

        return change


class PinView(View):
    """The banker's PIN, digit by digit: UP/DOWN change the digit, OK takes it and goes to the next, BACK
    goes back a digit (from the first: out); after the last, a confirmation saying what the PIN is for."""

    def __init__(self, console: Console):
        self.console = console
        self.digits: list[int] = []
        self.digit = 0

    def frame(self) -> Frame:
        lang = self.console.lang
        shown = "".join(map(str, self.digits)) + str(self.digit) + "-" * (PIN_DIGITS - len(self.digits) - 1)
        return Frame(
            title=words("menu_banker_pin", lang).rstrip("…"),
            big=shown,
            inverse_title=True,
            lines=(words("pin_digit", lang, n=len(self.digits) + 1, of=PIN_DIGITS),),
            footer=words("pin_footer", lang),
        )

    def press(self, console: "Console", name: str, long: bool) -> None:
        if name in ("up", "down"):
            self.digit = (self.digit + (1 if name == "up" else -1)) % 10
        elif name == "ok":
            self.digits.append(self.digit)
            self.digit = 0
            if len(self.digits) == PIN_DIGITS:
                pin = "".join(map(str, self.digits))
                self.digit = self.digits.pop()  # BACK from the confirmation comes back to the last digit
                lang = console.lang
                console.push(
                    TextView(
                        words("menu_banker_pin", lang).rstrip("…"),
                        [words("pin_confirm", lang, pin=pin)],
                        lambda: self._keep(pin),
                        footer=words("confirm_footer", lang),
                    )
                )
        elif name == "back":
            if self.digits:
                self.digit = self.digits.pop()
            else:
                console.pop(self)

    def _keep(self, pin: str) -> None:
        self.console.close()
        self.console.desk.set_banker_pin(pin)
