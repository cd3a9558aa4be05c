"""Plots: the offer to buy, declining, rent, monopolies, and the buildings on them."""

from collections.abc import Iterable

from companion.engine.actions import Action
from companion.engine.base import RulesBase
from companion.engine.board import Cell
from companion.engine.state import BANK, Note, Pending, State
from companion.errors import RuleViolation


class Plots(RulesBase):
    """Plots: buying or declining one, rent, whole industries, building and selling buildings."""

    def legal_buy(self, s: State) -> list[Action]:
        a = s.pending
        if a is not None and a.kind == "offer" and s.cash(a.player) >= self.edition.plots[a.plot].price:
            return [Action("buy", (), a.player)]
        return []

    def legal_decline(self, s: State) -> list[Action]:
        a = s.pending
        if a is not None and a.kind == "offer":
            return [Action("decline", (), a.player)]
        return []

    def legal_build(self, s: State) -> list[Action]:
        # only a whole buildable industry in one hand can take a building: the others are skipped cheaply
        bucket = self.board_bucket(s)
        plots = bucket.get("build_candidates")
        if plots is None:
            plots = bucket["build_candidates"] = [
                pid
                for ind in self.edition.industries.values()
                if ind.buildable and self.industry_owner(s, ind.id) is not None
                for pid in self.edition.industry_plots(ind.id)
            ]
        # check_build is build_terms and then the cash
        return [
            Action("build", (pid,), p)
            for pid, (p, cost) in self.plots_answers(s, self.build_terms, plots)
            if self.affords(s, p, cost)
        ]

    def legal_sell_building(self, s: State) -> list[Action]:
        plots = [pid for pid in self.edition.plots if s.level.get(pid)]
        return [Action("sell_building", (pid,), p) for pid, p in self.plots_passing(s, self.check_sell_building, plots)]

    def land_plot(self, s: State, p: str, cell: Cell) -> None:
        owner = s.owner.get(cell.id)
        if owner is None:
            s.pending = Pending("offer", player=p, plot=cell.id)
            s.notes.append(Note("offer", {"player": p, "plot": cell.id, "price": cell.price}))
        elif owner == p:
            s.notes.append(Note("own_plot", {"player": p, "plot": cell.id}))
        elif cell.id in s.mortgaged:
            s.notes.append(Note("no_rent_mortgaged", {"player": p, "plot": cell.id}))
        else:
            self.charge(s, p, owner, self.rent(s, cell), "rent_paid", plot=cell.id)

    def industry_owner(self, s: State, industry_id: str | None) -> str | None:
        """The single owner of every plot of the industry, or None."""
        memo = s.memo
        if memo is None:
            return self.find_industry_owner(s, industry_id)
        key = ("industry_owner", industry_id)
        if key not in memo:
            memo[key] = self.find_industry_owner(s, industry_id)
        owner: str | None = memo[key]
        return owner

    def find_industry_owner(self, s: State, industry_id: str | None) -> str | None:
        plots = self.edition.industry_plots(industry_id)
        if not plots:
            return None
        owner = s.owner.get(plots[0])
        if owner is None:
            return None
        for pid in plots:  # hot (every build and rent question): stop at the first other owner
            if s.owner.get(pid) != owner:
                return None
        return owner

    def is_monopoly(self, s: State, player: str, industry_id: str | None) -> bool:
        if self.industry_owner(s, industry_id) != player:
            return False
        if self.opt["monopoly_broken_by_mortgage"]:
            return not any(pid in s.mortgaged for pid in self.edition.industry_plots(industry_id))
        return True

    def owned_in_industry(self, s: State, player: str, industry_id: str | None) -> int:
        return sum(1 for pid in self.edition.industry_plots(industry_id) if s.owner.get(pid) == player)

    def rent(self, s: State, cell: Cell) -> int:
        owner = s.owner[cell.id]
        ind = self.edition.industries[cell.industry]
        if ind.rent_by_count:
            return ind.rent_by_count[self.owned_in_industry(s, owner, ind.id) - 1]
        if ind.dice_multiplier_by_count:
            dice = sum(s.last_dice) if s.last_dice else 7
            return ind.dice_multiplier_by_count[self.owned_in_industry(s, owner, ind.id) - 1] * dice
        level = s.level.get(cell.id, 0)
        if level:
            return cell.rent[1 + level]
        if self.is_monopoly(s, owner, cell.industry):
            return cell.rent[1]
        return cell.rent[0]

    def offer_for(self, s: State, p: str) -> Cell:
        if s.pending is None or s.pending.kind != "offer":
            raise RuleViolation("no_offer")
        return self.edition.plots[s.pending.plot]

    def cmd_buy(self, s: State, args: tuple[str, ...]) -> None:
        cell = self.offer_for(s, s.turn)
        p = s.pending.player
        self.spend(s, p, BANK, cell.price, cell.id)
        s.owner[cell.id] = p
        s.pending = None
        s.notes.append(Note("bought", {"player": p, "plot": cell.id, "price": cell.price}))

    def cmd_decline(self, s: State, args: tuple[str, ...]) -> None:
        cell = self.offer_for(s, s.turn)
        p = s.pending.player
        s.notes.append(Note("declined", {"player": p, "plot": cell.id}))
        if self.opt["decline_opens_auction"]:
            self.open_auction(s, cell, BANK)
        else:
            s.pending = None

    def owner_of(self, s: State, cell: Cell) -> str:
        owner = s.owner.get(cell.id)
        if owner is None:
            raise RuleViolation("plot_unowned", plot=cell.id)
        return owner

    def levels(self, s: State, industry_id: str | None) -> list[int]:
        memo = s.memo
        if memo is None:
            return [s.level.get(pid, 0) for pid in self.edition.industry_plots(industry_id)]
        key = ("levels", industry_id)
        found = memo.get(key)
        if found is None:
            found = memo[key] = [s.level.get(pid, 0) for pid in self.edition.industry_plots(industry_id)]
        return list(found)

    def max_level(self) -> int:
        b = self.edition.buildings
        top: int = b["small_max"] + b["large_max"]
        return top

    def buildings_in_use(self, s: State) -> tuple[int, int]:
        """(small, large) buildings standing on the board, derived from the levels."""
        memo = s.memo
        if memo is None:
            return self.count_buildings(s.level.values())
        found = memo.get("buildings_in_use")
        if found is None:
            found = memo["buildings_in_use"] = self.count_buildings(s.level.values())
        return found

    def count_buildings(self, levels: Iterable[int]) -> tuple[int, int]:
        """(small, large) buildings that plots at these levels hold."""
        b = self.edition.buildings
        small = large = 0
        for level in levels:
            big = max(0, level - b["small_max"])
            large += big
            if not (big and b["large_returns_small"]):
                small += min(level, b["small_max"])
        return small, large

    def check_not_under_hammer(self, s: State, cell: Cell) -> None:
        """A plot an open decision is about (an auction, a policy question) stays as it is."""
        if s.pending is not None and s.pending.plot == cell.id and s.pending.kind != "offer":
            raise RuleViolation("plot_under_auction", plot=cell.id)

    def levels_with(self, s: State, pid: str, level: int) -> list[int]:
        """Every plot's building level if pid stood at `level`."""
        return [lv for other, lv in s.level.items() if other != pid] + [level]

    def check_build(self, s: State, cell: Cell) -> tuple[str, int]:
        """(owner, cost) of one more building on cell now; RuleViolation if the rules refuse it."""
        p, cost = self.build_terms(s, cell)
        self.check_afford(s, p, cost, cell.id)
        return p, cost

    def build_terms(self, s: State, cell: Cell) -> tuple[str, int]:
        """(owner, cost) of one more building on cell if the owner's cash allows; RuleViolation if not."""
        self.check_not_under_hammer(s, cell)
        p = self.owner_of(s, cell)
        ind = self.edition.industries[cell.industry]
        if not ind.buildable:
            raise RuleViolation("not_buildable", plot=cell.id, industry=ind.id)
        if not self.is_monopoly(s, p, ind.id):
            raise RuleViolation("need_monopoly", player=p, industry=ind.id)
        level = s.level.get(cell.id, 0)
        if level >= self.max_level():
            raise RuleViolation("fully_built", plot=cell.id)
        if level > min(self.levels(s, ind.id)):
            raise RuleViolation("build_evenly", plot=cell.id, industry=ind.id)
        small, large = self.count_buildings(self.levels_with(s, cell.id, level + 1))
        if small > self.edition.supply.get("small", 10**6):
            raise RuleViolation("supply_out", kind="small")
        if large > self.edition.supply.get("large", 10**6):
            raise RuleViolation("supply_out", kind="large")
        return p, self.build_price(s, cell)

    def cmd_build(self, s: State, args: tuple[str, ...]) -> None:
        cell = self.plot_arg(args[0])
        p, cost = self.check_build(s, cell)
        level = s.level.get(cell.id, 0) + 1
        s.level[cell.id] = level
        self.spend(s, p, BANK, cost, cell.id)
        s.notes.append(Note("built", {"player": p, "plot": cell.id, "level": level, "cost": cost}))

    def build_price(self, s: State, cell: Cell) -> int:
        """What the next building on a plot costs; editions that auction buildings override this."""
        return cell.build_cost

    SHORT_SALE_NOTE = "large_sold_short"

    def small_top(self) -> int:
        """Small buildings a plot holds before its large one (three branches; Monopoly: its houses)."""
        top: int = self.edition.buildings["small_max"]
        return top

    def small_left(self, s: State) -> int:
        return self.edition.supply.get("small", 10**6) - self.buildings_in_use(s)[0]

    def sells_short(self, s: State, cell: Cell) -> bool:
        """A large building that replaced its small ones, which the box cannot give back now."""
        return (
            self.edition.buildings["large_returns_small"]
            and s.level.get(cell.id, 0) > self.small_top()
            and self.small_left(s) < self.small_top()
        )

    def sell_large_short(self, s: State, p: str, cell: Cell) -> None:
        """The box lacks the small buildings a large one gives back: the industry's large ones go at once.

        The small buildings the industry keeps (those on its plots now plus the box's
        spare ones) are spread evenly, the named plot taking the fewest; every level
        taken off is paid at the sale price. Monopoly's "Lack of buildings" (all
        hotels of one colour group sold together); in Elite, Classic and Deluxe the
        same way out, so a debtor is never trapped with an enterprise nobody can
        take back (docs/rule-choices.md).
        """
        group = self.edition.industry_plots(cell.industry)
        old = {pid: s.level.get(pid, 0) for pid in group}
        top = self.small_top()
        smalls = sum(min(level, top) for level in old.values() if level <= top) + self.small_left(s)
        order = [pid for pid in group if pid != cell.id] + [cell.id]
        base, extra = divmod(smalls, len(group))
        amount = 0
        for i, pid in enumerate(order):
            new = min(old[pid], top, base + (1 if i < extra else 0))
            amount += (old[pid] - new) * self.edition.plots[pid].build_cost * self.opt["building_sale_percent"] // 100
            if new:
                s.level[pid] = new
            else:
                s.level.pop(pid, None)
        self.transfer(s, BANK, p, amount)
        s.notes.append(
            Note(
                self.SHORT_SALE_NOTE,
                {
                    "player": p,
                    "industry": cell.industry,
                    "amount": amount,
                    "levels": {pid: s.level.get(pid, 0) for pid in group},
                },
            )
        )

    def check_sell_building(self, s: State, cell: Cell) -> tuple[str, int]:
        """(owner, level) of a building the owner may sell back now; RuleViolation if not."""
        if self.sells_short(s, cell):
            return self.owner_of(s, cell), s.level[cell.id]
        p = self.owner_of(s, cell)
        level = s.level.get(cell.id, 0)
        if level == 0:
            raise RuleViolation("no_building", plot=cell.id)
        if level < max(self.levels(s, cell.industry)):
            raise RuleViolation("sell_evenly", plot=cell.id, industry=cell.industry)
        small, _ = self.count_buildings(self.levels_with(s, cell.id, level - 1))
        if small > self.edition.supply.get("small", 10**6):
            raise RuleViolation("supply_out", kind="small")
        return p, level

    def cmd_sell_building(self, s: State, args: tuple[str, ...]) -> None:
        cell = self.plot_arg(args[0])
        p, level = self.check_sell_building(s, cell)
        if self.sells_short(s, cell):
            self.sell_large_short(s, p, cell)
            return
        if level == 1:
            del s.level[cell.id]
        else:
            s.level[cell.id] = level - 1
        value = cell.build_cost * self.opt["building_sale_percent"] // 100
        self.transfer(s, BANK, p, value)
        s.notes.append(Note("building_sold", {"player": p, "plot": cell.id, "level": level - 1, "amount": value}))
