"""The trade screen: a trade built item by item at the box, each plot or card a line to tick, each
side's cash a number, then the confirmation of the whole offer."""

from collections.abc import Callable
from typing import TYPE_CHECKING

from companion.engine.actions import Action, Span
from companion.engine.command import Command
from companion.words import messages

from . import menus
from .menus import words
from .screens import money
from .views import Item, ListView, NumberView

if TYPE_CHECKING:
    from .console import Console


class TradeView(ListView):
    """A trade built item by item: each plot or card a line to tick, each side's cash a number."""

    def __init__(self, console: "Console", actor: str, action: Action, chosen: tuple[str, ...]):
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
