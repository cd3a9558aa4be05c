"""The console's screens: a list to choose from, a number picker, lines to read (a confirmation, a QR
code) and the undo browser; each draws its Frame and takes the buttons' presses."""

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from companion.engine.actions import Span
from companion.hw.display import QR_GAP, WIDTH, Frame, line_room, qr_code, wrap
from companion.words import messages

from . import menus
from .menus import words
from .screens import money

if TYPE_CHECKING:
    from .console import Console

INDENT_PX = 8  # a chosen line's continuation is indented by two spaces (6 px in DejaVu Sans 9) and a margin


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


def text_column(qr: str) -> int:
    """The width lines have beside this QR code (render wraps them there: pages must count the same)."""
    code = qr_code(qr) if qr else None
    return WIDTH - code.field - QR_GAP if code is not None else WIDTH


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
    hold: bool = False  # only OK held long acts (Power off…): one press too many never switches the box off

    def frame(self) -> Frame:
        wrapped = [part for line in self.lines for part in wrap(line, width=text_column(self.qr))]
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
            if self.hold and not long:
                return  # the footer says to hold it
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
