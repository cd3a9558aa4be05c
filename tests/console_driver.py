"""A player at the box: reaches a legal command with the buttons and the cards alone, reading the screen.

`ButtonDriver.book(actor, command)` gets `command` booked as `actor` through a
companion.daemon.console.Console using nothing but `console.press(name, long)`
and `console.player_card(name)` (a player's card on the reader). What it looks
at is what the OLED shows: `console.frame` (title, big digits, lines, the
selected line) and the texts of the open list's lines (`console.stack[-1].items[i].text`,
exactly the lines on the screen; their callbacks are never called). To know
*which* line to look for it writes the words a player would read, with the
menus' own word functions (companion/daemon/menus.py), and checks every screen
it passes: a title that does not say what was opened, a line that is not
there, a number that cannot be reached or a confirmation that promises
something else than what is booked is an AssertionError naming the screen.

The way in depends on who acts and varies from one command to the next, so
every entry is used:
- a player: their card (the menu titled "Name: balance"), or OK → "Players…" →
  the player, or for a payment to another player their card then the payee's card;
- the table: the waiting choices when they came up by themselves (a fixed choice
  books with its one OK, no confirmation), or BACK (hides them) and OK: the
  table's menu (the waiting groups, "<verb> (dice by hand)", the landing).
A group of several actions opens a list of them; then every free value in slot
order: a number picked with UP/DOWN (held UP: coarser step, held DOWN: finer),
a word from a list, a trade's items ticked and cash set; then the confirmation
("Book this?"), whose OK books through the desk.

`FakeDesk` is the daemon's side (console.Desk): it books with `table.submit`
on a real table and records what was booked.
"""

import itertools
import re
import sqlite3
from collections import Counter
from dataclasses import dataclass, field

from companion.daemon import menus
from companion.daemon.console import Console
from companion.daemon.screens import THOUSANDS, money
from companion.editions import load_edition, rules_for, shipped
from companion.engine.actions import TABLE, Action, OneOf, Span, Terms
from companion.engine.command import Command
from companion.ledger.store import MEMORY, Ledger
from companion.table.service import Table
from companion.table.view import event_lines
from companion.words import messages

MAX_PRESSES = 400  # for one number or one list choice: more means the screen leads nowhere


class Owner:
    """What the console reads the table from (the daemon's Owner: `.table`)."""

    def __init__(self, table):
        self.table = table


@dataclass
class FakeDesk:
    """The daemon's side of the console: books on a real table (its ledger), records each booking."""

    owner: Owner
    lang: str = "en"
    muted: bool = False
    console: Console | None = None
    booked: list = field(default_factory=list)  # (actor, command, event)

    def book(self, actor: str, command: Command) -> bool:
        event = self.owner.table.submit(command, actor=actor)
        self.booked.append((actor, command, event))
        if self.console is not None:
            self.console.sync()  # as the daemon does after every event: menus on the old state close
        return True

    def undo_chain(self, order: tuple[int, ...]) -> None:
        for seq in order:
            self.book(TABLE, Command("undo", (str(seq),)))

    def end_game(self) -> None:
        self.book(TABLE, Command("end_game"))

    def new_game(self, edition: str, players: list[str], options: dict) -> None:
        raise AssertionError("no new game is started in these tests")

    def archive_game(self) -> None:
        raise AssertionError("no game is archived in these tests")

    def enrol_wait(self, kind: str, ref: str) -> None:
        raise AssertionError("no card is enrolled in these tests")

    def set_muted(self, muted: bool) -> None:
        self.muted = muted

    def phone_url(self) -> str:
        return "http://box.local:8080/"

    def phone_name_address(self) -> str:
        return "box.local:8080"

    def has_address(self) -> bool:
        return True

    def hotspot_qr(self) -> tuple[str, str, str]:
        return "", "", ""

    def power_off(self) -> None:
        self.powered_off = getattr(self, "powered_off", 0) + 1

    def table_code(self) -> str:
        return ""

    def pairing_code(self) -> str:
        return ""

    def pair_phone(self, code: str, player: str) -> None:
        raise AssertionError("no phone waits to pair in these tests")

    def head_words(self) -> str:
        return self.owner.table.head_words(self.lang)

    def editions(self) -> list[tuple[str, str]]:
        return [(e, e) for e in shipped()]

    def edition_rules(self, edition: str):
        return rules_for(load_edition(edition))

    jackpot: tuple[str, int] | None = None  # the JACKPOT bet chosen on the box, for the reader's ROLL to throw

    def jackpot_ready(self, player: str, bet: int) -> None:
        self.jackpot = (player, bet)

    # issue 22: the table set up from the box
    banker_pin: str = ""

    def has_banker_pin(self) -> bool:
        return bool(self.banker_pin)

    def set_banker_pin(self, pin: str) -> None:
        self.banker_pin = pin

    def set_language(self, lang: str) -> None:
        self.lang = lang

    def player_count(self) -> int:
        return 4

    def player_names(self, count: int) -> list[str]:
        from companion.daemon.console import NAMES

        return list(NAMES[self.lang][:count])


def console_over(table, lang: str = "en") -> tuple[Console, FakeDesk]:
    """A console over `table` with a FakeDesk, showing what it would show right after an event."""
    owner = Owner(table)
    desk = FakeDesk(owner, lang)
    console = Console(owner, desk)
    desk.console = console
    console.sync()
    return console, desk


def throwaway(table) -> Table:
    """A second table at the same point (its ledger copied, the game forked): bookings on it go through
    a ledger of their own and leave `table` as it was. In-memory ledgers keep no anchor file, so the two
    never meet."""
    assert table.ledger.memory, "throwaway copies only in-memory tables"
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    table.ledger.conn.backup(conn)
    return Table(Ledger(MEMORY, _conn=conn), table.game.fork(), table.head(), dict(table.meta))


# ----- reading the screen -------------------------------------------------------------------------


def shown_number(frame) -> int:
    """The number in the big digits ("13 750")."""
    return int(frame.big.replace(THOUSANDS, ""))


def shown_step(frame) -> int:
    """The step in the picker's hint ("▲▼ ±50, held ▲ ×10 ▼ ÷10")."""
    found = re.search(r"±([\d" + THOUSANDS + r"]+)", " ".join(frame.lines))
    assert found, f"the number picker shows no step: {frame.lines}"
    return int(found.group(1).replace(THOUSANDS, ""))


def squeezed(lines) -> str:
    """Lines without their spacing: what they say, however they are wrapped."""
    return "".join("".join(lines).split())


def trade_terms(words: tuple[str, ...]) -> dict[str, tuple[list[str], int]]:
    """A trade's `give ... get ...` words as {side: (items, cash)}."""
    sides: dict[str, tuple[list[str], int]] = {"give": ([], 0), "get": ([], 0)}
    side = None
    for word in words:
        if word in sides:
            side = word
        elif word.isascii() and word.isdigit():
            assert side is not None
            sides[side] = (sides[side][0], int(word))
        else:
            assert side is not None
            sides[side][0].append(word)
    return sides


def as_buttons_spell(command: Command) -> Command:
    """A trade as the trade screen writes it (each side's items in the order ticked, then its cash)."""
    if command.verb != "trade" or len(command.args) < 3:
        return command
    sides = trade_terms(command.args[2:])
    return Command(
        "trade",
        command.args[:2] + menus.trade_words(sides["give"][0], sides["give"][1], sides["get"][0], sides["get"][1]),
    )


def same_command(event_command: str, command: Command) -> bool:
    """The stored command is the one chosen (a hidden draw is stored with the card it turned up)."""
    if event_command == command.text():
        return True
    return command.verb in menus.HIDDEN and not command.args and event_command.startswith(command.verb + " ")


# ----- the driver -----------------------------------------------------------------------------------


class ButtonDriver:
    def __init__(self, console: Console, ways: Counter | None = None):
        self.console = console
        self.turns = itertools.count()  # which way in, taken in turn
        self.log: list[str] = []  # what was pressed, for a failure's message
        self.ways = Counter() if ways is None else ways  # the screens and ways in used, counted

    # the state, as the console sees it
    @property
    def table(self):
        return self.console.table

    @property
    def lang(self) -> str:
        return self.console.lang

    @property
    def frame(self):
        return self.console.frame

    def words(self, code: str, **params) -> str:
        return menus.words(code, self.lang, **params)

    def press(self, name: str, long: bool = False) -> None:
        self.log.append(name + (" (held)" if long else ""))
        self.console.press(name, long)

    def tap(self, player: str) -> None:
        self.log.append(f"card of {player}")
        self.console.player_card(player)

    def where(self) -> str:
        frame = self.frame
        shown = (
            "idle screens"
            if frame is None
            else f"{frame.title!r} {list(frame.lines)!r} big={frame.big!r} selected={frame.selected}"
        )
        return f"on {shown}, after {' / '.join(self.log[-12:])}"

    def expect_title(self, title: str, starts: bool = False) -> None:
        frame = self.frame
        ok = frame is not None and (frame.title.startswith(title) if starts else frame.title == title)
        assert ok, f"expected the screen {title!r} {self.where()}"

    # ----- lists ----------------------------------------------------------------------------------

    def choose(self, expected: list[str], index: int, cursor: int = 0) -> int:
        """Move to the line that reads expected[index] (the k-th line reading so when several do: two
        cells or cards of one name, which a player could only tell apart by their place) and press OK;
        the cursor starts on line `cursor` (a list opens on its first). Returns the line."""
        items = [item.text for item in self.console.stack[-1].items]
        text = expected[index]
        rank = expected[:index].count(text)
        found = [i for i, t in enumerate(items) if t == text]
        assert len(found) > rank, f"no line {text!r} among {items} {self.where()}"
        target = found[rank]
        n = len(items)
        down = (target - cursor) % n
        name, count = ("down", down) if down <= n - down else ("up", n - down)
        assert count <= MAX_PRESSES
        for _ in range(count):
            self.press(name)
        frame = self.frame
        chosen = frame.lines[frame.selected].strip() if 0 <= frame.selected < len(frame.lines) else ""
        assert chosen and items[target].startswith(chosen), f"the cursor is not on {items[target]!r} {self.where()}"
        self.press("ok")
        return target

    # ----- numbers --------------------------------------------------------------------------------

    def number(self, value: int) -> None:
        """UP/DOWN to `value` in the number picker on the screen (reading its digits and its step),
        then OK."""
        self.ways["a number"] += 1
        for _ in range(MAX_PRESSES):
            frame = self.frame
            shown, step = shown_number(frame), shown_step(frame)
            if shown == value:
                break
            diff = abs(value - shown)
            if step > diff:
                self.press("down", long=True)  # a finer step
            elif step * 10 <= diff:
                self.press("up", long=True)  # a coarser one
            else:
                self.press("up" if value > shown else "down")
            if self.frame == frame:
                raise AssertionError(f"a press changed nothing on the way to {value} {self.where()}")
        else:
            raise AssertionError(f"{value} not reached in {MAX_PRESSES} presses {self.where()}")
        self.press("ok")

    # ----- booking ---------------------------------------------------------------------------------

    def book(self, actor: str, command: Command):
        """Book `command` as `actor` with presses and taps; returns the event the ledger stored."""
        self.log = []
        self.console.sync()
        desk = self.console.desk
        booked = len(desk.booked)
        head = self.table.head_seq
        if actor == TABLE:
            self._as_table(command)
        else:
            self._as_player(actor, command)
        assert len(desk.booked) == booked + 1, f"nothing was booked {self.where()}"
        got_actor, got, event = desk.booked[-1]
        assert (got_actor, got.text()) == (actor, command.text()), (
            f"the buttons booked {got_actor}: {got.text()} instead of {actor}: {command.text()} ({self.where()})"
        )
        assert event.seq == head + 1 and self.table.head_seq == head + 1
        stored = self.table.game.events[-1]
        assert same_command(stored.command, command) and stored.actor == actor, (
            f"the ledger holds {stored.actor}: {stored.command}, not {actor}: {command.text()}"
        )
        return stored

    def end_game(self):
        """OK (the table's menu) → "Game…" → "End the game" → OK."""
        self.log = []
        self.ways["Game… → End the game"] += 1
        self.console.sync()
        self._open_table_menu()
        texts = [item.text for item in self.console.stack[-1].items]
        self.choose(texts, texts.index(self.words("menu_game")))
        self.expect_title(self.words("menu_game").rstrip("…"))
        self.choose([self.words("menu_end_game")], 0)
        self.expect_title(self.words("menu_end_game"), starts=True)  # (" 1/2" when the warning takes two pages)
        assert squeezed(self.words("end_game_warning")).startswith(squeezed(self.frame.lines)), self.where()
        self.press("ok")
        event = self.table.game.events[-1]
        assert (event.actor, event.command) == (TABLE, "end_game"), self.where()
        return event

    # ----- the ways in ----------------------------------------------------------------------------

    def _open_table_menu(self) -> None:
        if self.frame is not None:  # the waiting choices (they came by themselves): BACK hides them
            self.press("back")
            assert self.frame is None, f"BACK did not put the waiting choices away {self.where()}"
        self.press("ok")
        edition = self.table.rules.edition
        self.expect_title(edition.names.get(self.lang, edition.name))

    def _as_player(self, actor: str, command: Command) -> None:
        table = self.table
        rules, state, lang = table.rules, table.state, self.lang
        groups = menus.groups(menus.player_actions(rules, state, actor))
        gi, action = _find(groups, command)
        assert action is not None, f"{actor}: {command.text()} is not in {actor}'s menu {self.where()}"
        way = next(self.turns) % 3
        payee = command.args[1] if command.verb == "pay" and len(command.args) == 3 else ""
        if way == 0 and payee in state.players and payee != actor and action.args[:2] == (actor, payee):
            self.ways["two cards: a payment"] += 1
            self.tap(actor)
            self.expect_title(f"{actor}: {money(state.cash(actor))}")  # their menu
            self.tap(payee)  # a second player's card: a payment from the first to the second
            self.expect_title(self.words("menu_transfer", payer=actor, payee=payee))
            self.number(int(command.args[2]))
            self._confirm(actor, command)
            return
        if way == 1:
            self.ways["Players…"] += 1
            self._open_table_menu()
            texts = [item.text for item in self.console.stack[-1].items]
            self.choose(texts, texts.index(self.words("menu_players")))
            self.expect_title(self.words("menu_players").rstrip("…"))
            self.choose([f"{p}: {money(state.cash(p))}" for p in state.players], state.players.index(actor))
        else:
            self.ways["a player's card"] += 1
            self.tap(actor)
        self.expect_title(f"{actor}: {money(state.cash(actor))}")
        texts = [g.text(rules, state, lang, party=False) for g in groups]
        self.choose(texts, gi)
        self._group(actor, groups[gi], action, command, party=False, at_once=False)

    def _as_table(self, command: Command) -> None:
        table = self.table
        rules, state, lang = table.rules, table.state, self.lang
        waiting = menus.groups(menus.waiting_actions(rules, state))
        gi, action = _find(waiting, command)
        by_itself = self.frame is not None
        if action is not None and by_itself and next(self.turns) % 2 == 0:
            self.ways["the waiting choices"] += 1
            self.choose([g.text(rules, state, lang) for g in waiting], gi)
            self._group(TABLE, waiting[gi], action, command, party=True, at_once=True)
            return
        self._open_table_menu()
        texts = [g.text(rules, state, lang) for g in waiting]
        legal = rules.legal(state)
        dice = [
            a
            for a in legal
            if a.verb in rules.DICE_VERBS and a.args and all(isinstance(s, Span) and s.what == "die" for s in a.args)
        ]
        texts += [menus.party_prefix(a) + self.words("menu_dice", what=menus.verb_words(a.verb, lang)) for a in dice]
        lands = menus.Group("land", TABLE, tuple(a for a in legal if a.verb == "land"))
        if lands.actions:
            texts.append(lands.text(rules, state, lang))
        # the table's own actions at no waiting moment (Monopoly's shortage auction), after the landing
        in_wait = set(menus.waiting_actions(rules, state))
        own = menus.groups(
            [
                a
                for a in legal
                if a.party == TABLE and a not in in_wait and a not in dice and a.verb not in ("land", "end_game")
            ]
        )
        own_at = len(texts)
        texts += [g.text(rules, state, lang) for g in own]
        oi, own_action = _find(own, command)
        if action is None and own_action is not None:
            self.ways["the table's menu: its own action"] += 1
            self.choose(texts, own_at + oi)
            self._group(TABLE, own[oi], own_action, command, party=True, at_once=False)
            return
        if action is not None:
            self.ways["the table's menu: a waiting choice"] += 1
            self.choose(texts, gi)
            self._group(TABLE, waiting[gi], action, command, party=True, at_once=False)
            return
        for i, a in enumerate(dice):
            if a.matches(command):
                self.ways["the table's menu: dice by hand"] += 1
                self.choose(texts, len(waiting) + i)
                self._fill(TABLE, a, command)
                return
        _, action = _find([lands], command)
        assert action is not None, f"the table's menu offers no way to {command.text()} (lines: {texts}) {self.where()}"
        self.ways["the table's menu: the landing"] += 1
        self.choose(texts, own_at - 1)
        self._group(TABLE, lands, action, command, party=True, at_once=False)

    # ----- a group, its values, the confirmation --------------------------------------------------

    def _group(
        self, actor: str, group: menus.Group, action: Action, command: Command, party: bool, at_once: bool
    ) -> None:
        """After OK on the group's line: its list of actions (if several), the values, the confirmation."""
        table = self.table
        rules, state, lang = table.rules, table.state, self.lang
        if len(group.actions) == 1:
            if at_once and action.fixed() is not None and action.verb in menus.ONE_PRESS:
                self.ways["one OK on a waiting choice"] += 1
                return  # a waiting choice with nothing to choose that moves no money: its one OK booked it
        else:
            self.ways["a list of actions"] += 1
            self.expect_title(group.text(rules, state, lang, party).rstrip("…"))
            self.choose(
                [menus.action_words(rules, state, a, lang, party=False, verb=False) for a in group.actions],
                group.actions.index(action),
            )
        self._fill(actor, action, command)

    def _fill(self, actor: str, action: Action, command: Command) -> None:
        table = self.table
        rules, state, lang = table.rules, table.state, self.lang
        verb = menus.verb_words(action.verb, lang)
        for i, slot in enumerate(action.args):
            if isinstance(slot, Terms):
                self._trade(action, command.args[i:])
                break
            word = command.args[i]
            if action.verb == "jackpot" and i == 1:
                # the bet is chosen: no dice are typed and no outcome shown; the reader's ROLL throws them
                desk = self.console.desk
                assert desk.jackpot == (actor, int(command.args[0])), f"the bet was not handed to ROLL {self.where()}"
                assert self.frame is None or "JACKPOT" not in (self.frame.title or ""), self.where()
                self.ways["the JACKPOT: a bet, then ROLL"] += 1
                desk.book(actor, command)  # as the daemon books the reader's three dice
                return
            if isinstance(slot, Span) and slot.low != slot.high:
                self.expect_title(menus.picker_title(action, i, lang))
                bounds = " ".join(self.frame.lines)
                assert money(slot.low) in bounds and money(slot.high) in bounds, f"no bounds shown {self.where()}"
                self.number(int(word))
            elif isinstance(slot, OneOf) and len(slot.words) > 1:
                self.expect_title(f"{verb}: {menus.slot_title(action, i, lang)}")
                self.ways["a word from a list"] += 1
                self.choose([text for text, _ in menus.choices(rules, state, action, i, lang)], slot.words.index(word))
        self._confirm(actor, command)

    def _trade(self, action: Action, words: tuple[str, ...]) -> None:
        """Tick each item, set each side's cash, then "Propose the trade"."""
        table = self.table
        edition, lang = table.rules.edition, self.lang
        terms = menus.terms_of(action)
        assert terms is not None
        self.ways["a trade"] += 1
        a, b = action.args[0], action.args[1]
        self.expect_title(self.words("trade_title", a=a, b=b))
        chosen = trade_terms(words)
        cursor = 0
        for key, side, who in (("give", terms.give, a), ("get", terms.get, b)):
            refs = menus.trade_items(side)
            names = [f"{who}: {messages.thing_name(edition, r, lang)}" for r in refs]
            items, cash = chosen[key]
            for ref in items:
                texts = ["☐ " + name for name in names]
                cursor = self.choose(texts, refs.index(ref), cursor)
                self.expect_title(self.words("trade_title", a=a, b=b))
                lines = [item.text for item in self.console.stack[-1].items]
                assert "☑ " + names[refs.index(ref)] in lines, f"{ref} not ticked {self.where()}"
            if cash:
                line = self.words("trade_cash", player=who, amount=money(0))
                cursor = self.choose([line], 0, cursor)
                self.expect_title(self.words("trade_cash_title"))
                self.number(cash)
                self.expect_title(self.words("trade_title", a=a, b=b))
                lines = [item.text for item in self.console.stack[-1].items]
                assert self.words("trade_cash", player=who, amount=money(cash)) in lines, self.where()
        self.choose([self.words("trade_propose")], 0, cursor)

    def _confirm(self, actor: str, command: Command) -> None:
        """The confirmation: what it shows must be what gets booked; OK books it."""
        confirm = self.words("menu_confirm")
        if self.frame is None or not self.frame.title.startswith(confirm):
            refused = self.words("menu_refused")
            if self.frame is not None and self.frame.title == refused:
                raise AssertionError(
                    f"{actor}: {command.text()} was refused on the way: {' '.join(self.frame.lines)} ({self.where()})"
                )
            raise AssertionError(f"expected the confirmation {confirm!r} {self.where()}")
        shown = list(self.frame.lines)
        rules = self.table.rules
        head = self.table.head_seq
        self.ways["a confirmation"] += 1
        self.press("ok")
        assert self.table.head_seq == head + 1, f"OK on the confirmation booked nothing {self.where()}"
        event = self.table.game.events[-1]
        if command.verb in menus.HIDDEN and not command.args:
            promised = [menus.verb_words(command.verb, self.lang)]
        else:
            promised = list(event_lines(rules, event, self.lang)) or [menus.verb_words(command.verb, self.lang)]
        # the first page of the lines, however they are wrapped, is the start of what was booked
        assert shown and squeezed(promised).startswith(squeezed(shown)), (
            f"the confirmation showed {shown}, the ledger booked {promised} for {actor}: {command.text()}"
        )


def _find(groups: list[menus.Group], command: Command) -> tuple[int, Action | None]:
    """The group and action that cover `command`."""
    for i, group in enumerate(groups):
        for action in group.actions:
            if action.matches(command):
                return i, action
    return -1, None
