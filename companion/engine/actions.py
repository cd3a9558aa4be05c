"""Who may act, and the legal actions a rules module lists for a state (`Rules.legal`).

A legal action is a command pattern: a verb and its argument slots, each slot a
fixed word, a whole number within bounds (`Span`), one word of a few
(`OneOf`) or, for a trade, the two sides' items (`Terms`). Every command the
pattern matches is accepted by `Rules.apply` as the action's `party` (and by
the table, which may issue anything); every accepted command matches some
listed action. The OLED's menus, the phone's buttons and the bots choose from
these lists; docs/actors.md explains the parties and the table-only commands.
"""

from dataclasses import dataclass
from typing import Union

from companion.engine.command import Command

TABLE = "table"  # the banker's role: the command line, scripts, the buttons on the box


def issued(actor: str, command: str) -> str:
    """A command as its actor issued it (`Boris: accept 4`; the table's bare), as scripts write it."""
    return command if actor == TABLE else f"{actor}: {command}"


@dataclass(frozen=True)
class Span:
    """A whole number from low to high, both included (a bid, a payment, a share count, a die)."""

    low: int
    high: int
    what: str = "amount"

    def holds(self, word: str) -> bool:
        return word.isascii() and word.isdigit() and self.low <= int(word) <= self.high

    def text(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}..{self.high}"


@dataclass(frozen=True)
class OneOf:
    """Exactly one of these words (a card, a cell, a policy colour), in their canonical spelling."""

    words: tuple[str, ...]
    what: str = "word"

    def holds(self, word: str) -> bool:
        return word in self.words

    def text(self) -> str:
        return "|".join(self.words)


@dataclass(frozen=True)
class Side:
    """What one side of a trade may hand over: any of these plots and kept cards, and cash."""

    plots: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    cash: Span | None = None  # None: this side may not pay cash now


@dataclass(frozen=True)
class Terms:
    """The `give ... get ...` words of a trade: any choice of each side's items, each at most once,
    at most one amount a side, cash on one side only, and something changing hands, within the
    200 characters of a command line (command.MAX_LINE: a longer line is no command at all)."""

    give: Side
    get: Side

    def holds_words(self, words: tuple[str, ...]) -> bool:
        chosen: dict[str, list[str]] = {"give": [], "get": []}
        side = None
        for word in words:
            if word in chosen:
                side = word
            elif side is None:
                return False
            else:
                chosen[side].append(word)
        cash_sides = 0
        for key, allowed in (("give", self.give), ("get", self.get)):
            items = chosen[key]
            if len(set(items)) != len(items):
                return False
            amounts = [w for w in items if w.isascii() and w.isdigit()]
            if len(amounts) > 1:
                return False
            if amounts:
                if allowed.cash is None or not allowed.cash.holds(amounts[0]):
                    return False
                cash_sides += 1
            if any(w not in allowed.plots and w not in allowed.cards for w in items if w not in amounts):
                return False
        return cash_sides < 2 and bool(chosen["give"] or chosen["get"])

    def text(self) -> str:
        def side(s: Side) -> str:
            items = [*s.plots, *s.cards] + ([s.cash.text()] if s.cash else [])
            return "{" + ",".join(items) + "}"

        return f"give {side(self.give)} get {side(self.get)}"


Slot = Union[str, Span, OneOf, Terms]


@dataclass(frozen=True)
class Budget:
    """Free numbers that must fit together: the sum of weight x value is at most limit.

    Buying shares through a broker: N shares at the price plus the fee within
    the buyer's cash (`commission Boris 1..5 0..480`, weights (0, 100, 1), limit 500).
    Each Span's bounds are exact with the other numbers at their lowest.
    """

    weights: tuple[int, ...]  # one per argument; 0 for the words that are not counted
    limit: int

    def holds(self, words: tuple[str, ...]) -> bool:
        return sum(w * int(word) for w, word in zip(self.weights, words) if w) <= self.limit


@dataclass(frozen=True)
class Action:
    """One command pattern `party` may issue now (TABLE: only the table may)."""

    verb: str
    args: tuple[Slot, ...] = ()
    party: str = TABLE
    budget: Budget | None = None
    distinct: bool = False  # the words of its slots are all different (two cards named at once)

    def matches(self, cmd: Command) -> bool:
        """Whether this pattern covers `cmd`, spelled canonically (ids, player names as the game spells them)."""
        if cmd.verb != self.verb:
            return False
        slots, words = self.args, cmd.args
        if slots and isinstance(slots[-1], Terms):
            fixed = len(slots) - 1
            return (
                len(words) >= fixed
                and all(_holds(s, w) for s, w in zip(slots[:fixed], words))
                and slots[-1].holds_words(words[fixed:])
            )
        return (
            len(words) == len(slots)
            and all(_holds(s, w) for s, w in zip(slots, words))
            and (self.budget is None or self.budget.holds(words))
            and (not self.distinct or len(set(words)) == len(words))
        )

    def text(self) -> str:
        """The pattern as one line: `bid Anna 51..300`, `draw c1|c2|c3`."""
        line = " ".join([self.verb, *(s if isinstance(s, str) else s.text() for s in self.args)])
        if self.budget is not None:
            counted = [
                f"{w}x{s.what}" if w != 1 else s.what
                for w, s in zip(self.budget.weights, self.args)
                if w and isinstance(s, Span)
            ]
            line += f" ({' + '.join(counted)} <= {self.budget.limit})"
        return line

    def fixed(self) -> Command | None:
        """The one command of an action without free values, else None."""
        if all(isinstance(s, str) for s in self.args):
            return Command(self.verb, tuple(str(s) for s in self.args))
        return None


def _holds(slot: Slot, word: str) -> bool:
    if isinstance(slot, str):
        return slot == word
    if isinstance(slot, Terms):
        return False
    return slot.holds(word)


def dice(n: int) -> tuple[Span, ...]:
    """The slots of n dice."""
    return tuple(Span(1, 6, "die") for _ in range(n))


def listed(actions: list[Action], cmd: Command) -> bool:
    """Whether any listed action covers cmd (canonical)."""
    return any(a.matches(cmd) for a in actions)
