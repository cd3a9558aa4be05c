"""Elite's taxes: the circle tax (КРУГОВОЙ НАЛОГ), TAX INSPECTION and the TAX EXEMPTION cell."""

from typing import cast

from companion.engine.board import Cell
from companion.engine.elite.base import EliteBase, first
from companion.engine.state import BANK, Note, State


class EliteTaxes(EliteBase):
    # ----- taxes and TAX INSPECTION ----------------------------------------------------

    def on_pass(self, s: State, p: str, cell: Cell) -> None:
        super().on_pass(s, p, cell)
        if cell.kind == "detention":
            self.circle_tax(s, p)  # КРУГОВОЙ НАЛОГ: passing TAX INSPECTION

    def table_tax(self, s: State, p: str, cell: Cell) -> int:
        """The plot's circle tax from the TAX TABLE (no FORTUNE card)."""
        ind = self.edition.industries[cell.industry]
        if ind.tax_by_count:
            # by the central plots the owner pays tax on (the calculator leaves out mortgaged ones)
            taxed = [
                pid
                for pid in self.edition.industry_plots(ind.id)
                if s.owner.get(pid) == p and (self.opt["tax_on_mortgaged"] or pid not in s.mortgaged)
            ]
            by_count: int = ind.tax_by_count[max(len(taxed), 1) - 1]
            return by_count
        if not cell.tax:
            return 0
        level = s.level.get(cell.id, 0)
        if level:
            built: int = cell.tax[1 + level]
            return built
        # a plot's industry is never None
        tax: int = cell.tax[1] if self.is_monopoly(s, p, cast(str, cell.industry)) else cell.tax[0]
        return tax

    def plot_tax(self, s: State, p: str, cell: Cell) -> int:
        computed = self.table_tax(s, p, cell)
        eff = self.on_plot(s, cell, ("set_tax", "double_tax"))
        if eff is None:
            return computed
        ind = self.edition.industries[cell.industry]
        return self.fortune_value(eff, computed, first(cell.tax) or first(ind.tax_by_count))

    def circle_tax_amount(self, s: State, p: str) -> int:
        rate = self.in_force(s, "share_tax")
        total: int = s.held(p, "shares") * (rate["amount"] if rate else self.opt["share_tax"])
        central = self.opt["central_industry"]
        once = self.opt["central_tax"] == "per_owner"
        counted = False
        for pid in s.plots_of(p):
            if pid in s.mortgaged and not self.opt["tax_on_mortgaged"]:
                continue
            cell = self.edition.plots[pid]
            if once and cell.industry == central:
                if counted:
                    continue  # the central row's tax is the owner's, not each plot's
                counted = True
            total += self.plot_tax(s, p, cell)
        return total

    def circle_tax(self, s: State, p: str) -> None:
        flags = s.flags.get(p, frozenset())
        if "tax_exempt" in flags:
            s.flags[p] = flags - {"tax_exempt"}
            if not s.flags[p]:
                del s.flags[p]
            s.notes.append(Note("tax_exempted", {"player": p}))
            return
        self.charge(s, p, BANK, self.circle_tax_amount(s, p), "circle_tax")

    def land_inspection(self, s: State, p: str, cell: Cell) -> None:
        self.circle_tax(s, p)
        super().land_inspection(s, p, cell)  # then held there

    def send_to_detention(self, s: State, p: str) -> None:
        # НАЛОГОВАЯ ПОЛИЦИЯ and three doubles: straight there, no circle income
        super().send_to_detention(s, p)
        if self.opt["circle_tax_when_sent"]:
            self.circle_tax(s, p)

    def land_tax_exemption(self, s: State, p: str, cell: Cell | None) -> None:
        s.flags[p] = s.flags.get(p, frozenset()) | {"tax_exempt"}
        s.notes.append(Note("tax_exemption", {"player": p}))
