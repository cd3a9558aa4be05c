"""Mortgaging a plot and redeeming it."""

from companion.engine.actions import Action
from companion.engine.base import RulesBase
from companion.engine.board import Cell
from companion.engine.state import BANK, Note, State
from companion.errors import RuleViolation


class Mortgages(RulesBase):
    """Mortgages: a plot pledged to the bank for cash, and redeemed with interest."""

    def legal_mortgage(self, s: State) -> list[Action]:
        plots = [pid for pid in self.edition.plots if pid in s.owner and pid not in s.mortgaged]
        return [Action("mortgage", (pid,), p) for pid, p in self.plots_passing(s, self.check_mortgage, plots)]

    def legal_redeem(self, s: State) -> list[Action]:
        plots = [pid for pid in self.edition.plots if pid in s.mortgaged]
        # check_redeem is redeem_terms and then the cash
        return [
            Action("redeem", (pid,), p)
            for pid, (p, price) in self.plots_answers(s, self.redeem_terms, plots)
            if self.affords(s, p, price)
        ]

    def check_mortgage(self, s: State, cell: Cell) -> str:
        """The owner who may mortgage cell now; RuleViolation if not."""
        self.check_not_under_hammer(s, cell)
        p = self.owner_of(s, cell)
        if cell.id in s.mortgaged:
            raise RuleViolation("already_mortgaged", plot=cell.id)
        if s.level.get(cell.id, 0):
            raise RuleViolation("sell_buildings_first", plot=cell.id)
        if self.opt["mortgage_needs_empty_industry"] and any(self.levels(s, cell.industry)):
            raise RuleViolation("sell_buildings_first", plot=cell.id)
        return p

    def cmd_mortgage(self, s: State, args: tuple[str, ...]) -> None:
        cell = self.plot_arg(args[0])
        p = self.check_mortgage(s, cell)
        s.mortgaged = s.mortgaged | {cell.id}
        self.transfer(s, BANK, p, cell.mortgage)
        s.notes.append(Note("mortgaged", {"player": p, "plot": cell.id, "amount": cell.mortgage}))

    def redeem_price(self, cell: Cell) -> int:
        base = cell.price if self.opt["redeem_interest_base"] == "price" else cell.mortgage
        price: int = cell.mortgage + (base * self.opt["redeem_interest_percent"] + 99) // 100
        return price

    def check_redeem(self, s: State, cell: Cell) -> tuple[str, int]:
        """(owner, price) of redeeming cell now; RuleViolation if not."""
        p, price = self.redeem_terms(s, cell)
        self.check_afford(s, p, price, cell.id)
        return p, price

    def redeem_terms(self, s: State, cell: Cell) -> tuple[str, int]:
        """(owner, price) of redeeming cell if the owner's cash allows; RuleViolation if not."""
        p = self.owner_of(s, cell)
        if cell.id not in s.mortgaged:
            raise RuleViolation("not_mortgaged", plot=cell.id)
        self.check_redeem_time(s, p)
        return p, self.redeem_price(cell)

    def cmd_redeem(self, s: State, args: tuple[str, ...]) -> None:
        cell = self.plot_arg(args[0])
        p, price = self.check_redeem(s, cell)
        self.spend(s, p, BANK, price, cell.id)
        s.mortgaged = s.mortgaged - {cell.id}
        s.notes.append(Note("redeemed", {"player": p, "plot": cell.id, "amount": price}))

    def check_redeem_time(self, s: State, p: str) -> None:
        """Editions that allow redemption only before one's own turn override this."""
