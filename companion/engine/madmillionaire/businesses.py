"""Mad Millionaire's 4. BUY & LEASE BUSINESSES: REAL ESTATE, LEASING, BUYING, SELLING, MOVE WITHOUT SELLING."""

from collections.abc import Iterable

from companion.engine.actions import Action, Span
from companion.engine.board import Cell
from companion.engine.madmillionaire.base import MadBase
from companion.engine.state import BANK, Note, State
from companion.errors import BadCommand, RuleViolation


class MadBusinesses(MadBase):
    # ----- 4. BUY & LEASE, LEASING, BUYING -------------------------------------------------

    def land_business(self, s: State, p: str, cell: Cell) -> None:
        # 4. BUY & LEASE BUSINESSES: the business the car stops next to
        s.extra["may"] = (p, cell.id)
        holder = s.owner.get(cell.id)
        if holder is None:
            s.notes.append(
                Note(
                    "business_offer",
                    {"player": p, "plot": cell.id, "price": cell.price, "lease": self.lease_price[cell.id]},
                )
            )
        else:
            s.notes.append(
                Note("business_offer_taken", {"plot": cell.id, "holder": holder, "tenure": self.tenure(s, cell.id)})
            )

    def land_real_estate(self, s: State, p: str, cell: Cell) -> None:
        # REAL ESTATE: buy or lease one business anywhere OR sell one
        s.extra["may"] = (p, "*")
        s.notes.append(Note("real_estate_offer", {"player": p}))

    def offered(self, s: State, args: tuple[str, ...], usage: str) -> tuple[str, Cell]:
        """The business the player may take now: the one landed next to, or any on Real Estate."""
        self.require_turn_free(s)
        p = s.turn
        may = s.extra.get("may")
        if args:
            cell = self.business_arg(args[0])
        elif may and may[0] == p and may[1] != "*":
            cell = self.edition.plots[may[1]]
        else:
            raise BadCommand("usage", usage=usage)
        if not may or may[0] != p or may[1] not in ("*", cell.id):
            raise RuleViolation("not_offered", player=p, plot=cell.id)
        return p, cell

    def cmd_buy(self, s: State, args: tuple[str, ...]) -> None:
        """`buy [BUSINESS]`: at the printed price; an opponent's lease ends with a refund;
        one's own lease is bought for the difference."""
        p, cell = self.offered(s, args, "buy BUSINESS")
        holder = s.owner.get(cell.id)
        lease = self.lease_price[cell.id]
        if holder is not None and not self.leased(s, cell.id):
            raise RuleViolation("already_bought", plot=cell.id, holder=holder)
        if holder == p:
            # BUYING A LEASED BUSINESS: pay the difference and flip the sign face up
            self.spend(s, p, BANK, cell.price - lease, cell.id)
            s.extra["leased"] = tuple(x for x in s.extra["leased"] if x != cell.id)
            s.notes.append(Note("lease_converted", {"player": p, "plot": cell.id, "amount": cell.price - lease}))
        else:
            if not s.held(p, "signs"):
                raise RuleViolation("no_sign_left", player=p)
            self.spend(s, p, BANK, cell.price, cell.id)
            if holder is not None:
                # the opponent is forced to end their lease, with a full refund from the bank
                self.remove_sign(s, cell.id)
                self.transfer(s, BANK, holder, lease)
                s.notes.append(Note("lease_bought_out", {"player": holder, "plot": cell.id, "amount": lease}))
            self.place_sign(s, p, cell.id)
            s.notes.append(Note("bought", {"player": p, "plot": cell.id, "price": cell.price}))
        del s.extra["may"]

    def cmd_lease(self, s: State, args: tuple[str, ...]) -> None:
        """`lease [BUSINESS]`: at the printed lease price, if it has one and nobody holds it."""
        p, cell = self.offered(s, args, "lease BUSINESS")
        price = self.lease_price[cell.id]
        holder = s.owner.get(cell.id)
        if holder == p:
            raise RuleViolation("own_business", player=p, plot=cell.id)
        if holder is not None:
            raise RuleViolation("business_taken", plot=cell.id)
        if not price:
            raise RuleViolation("no_lease_price", plot=cell.id)
        if not s.held(p, "signs"):
            raise RuleViolation("no_sign_left", player=p)
        self.spend(s, p, BANK, price, cell.id)
        self.place_sign(s, p, cell.id, leased=True)
        s.notes.append(Note("business_leased", {"player": p, "plot": cell.id, "price": price}))
        del s.extra["may"]

    def cmd_end_lease(self, s: State, args: tuple[str, ...]) -> None:
        """`end_lease BUSINESS`: ENDING A LEASE, any time in one's turn, full refund."""
        cell = self.business_arg(args[0])
        p = self.in_own_turn(s)
        if s.owner.get(cell.id) != p or not self.leased(s, cell.id):
            raise RuleViolation("not_your_lease", player=p, plot=cell.id)
        self.remove_sign(s, cell.id)
        amount = self.lease_price[cell.id]
        self.transfer(s, BANK, p, amount)
        s.notes.append(Note("lease_ended", {"player": p, "plot": cell.id, "amount": amount}))

    def cmd_abandon(self, s: State, args: tuple[str, ...]) -> None:
        """`abandon BUSINESS`: MOVE WITHOUT SELLING, the sign comes off, no money."""
        cell = self.business_arg(args[0])
        p = self.in_own_turn(s)
        if s.owner.get(cell.id) != p or self.leased(s, cell.id):
            raise RuleViolation("not_bought_by_you", player=p, plot=cell.id)
        self.remove_sign(s, cell.id)
        s.notes.append(Note("business_abandoned", {"player": p, "plot": cell.id}))

    # ----- SELLING ------------------------------------------------------------------------

    def sale_price(self, price: int, face: str) -> int:
        if face == "half":
            unit = self.opt["sale_round"]
            return -(-price // (2 * unit)) * unit if unit else price // 2
        return price * {"full": 1, "double": 2, "triple": 3}[face]

    def cmd_sell(self, s: State, args: tuple[str, ...]) -> None:
        """`sell BUSINESS D`: instead of moving, or on a Real Estate space; the die sets the price."""
        self.need(args, 2, "sell BUSINESS D")
        cell = self.business_arg(args[0])
        die = self.int_arg(args[1], "die", 1, 6)
        self.require_turn_free(s)
        p = s.turn
        may = s.extra.get("may")
        on_real_estate = may == (p, "*")
        if not on_real_estate:
            try:
                self.ready_to_move(s)
            except RuleViolation:
                raise RuleViolation("sell_not_now", player=p) from None
        if s.owner.get(cell.id) != p or self.leased(s, cell.id):
            raise RuleViolation("not_bought_by_you", player=p, plot=cell.id)
        face = self.opt["sale_faces"][die - 1]
        amount = self.sale_price(cell.price, face)
        self.remove_sign(s, cell.id)
        self.transfer(s, BANK, p, amount)
        s.last_dice = (die,)
        s.notes.append(
            Note("business_sold", {"player": p, "plot": cell.id, "die": die, "face": face, "amount": amount})
        )
        if on_real_estate:
            del s.extra["may"]
        else:
            s.phase = "moved"  # the sale is this turn's go: no roll and move

    # ----- legal actions of the business verbs (each mirrors its cmd_ method's checks) ------

    def may_take(self, s: State) -> tuple[str, str] | None:
        """(player, scope) of the landing's buy/lease chance now, or None."""
        may: tuple[str, str] | None = s.extra.get("may")
        if s.pending is not None or not may or may[0] != s.turn:
            return None
        return may

    def offered_cells(self, s: State) -> tuple[str | None, str | None, Iterable[Cell]]:
        """(player, scope, businesses) of the landing's buy/lease chance now; scope "*": any business."""
        may = self.may_take(s)
        if may is None:
            return None, None, []
        cells = self.edition.plots.values() if may[1] == "*" else [self.edition.plots[may[1]]]
        return may[0], may[1], cells

    def legal_buy(self, s: State) -> list[Action]:
        p, scope, cells = self.offered_cells(s)
        out: list[Action] = []
        if p is None:
            return out  # no chance to take one now (and no business offered)
        for cell in cells:
            holder = s.owner.get(cell.id)
            if holder is not None and not self.leased(s, cell.id):
                continue
            if holder == p:
                cost = cell.price - self.lease_price[cell.id]
            elif s.held(p, "signs"):
                cost = cell.price
            else:
                continue
            if s.cash(p) >= cost:
                out.append(Action("buy", (cell.id,), p))
                if scope != "*":
                    out.append(Action("buy", (), p))
        return out

    def legal_lease(self, s: State) -> list[Action]:
        p, scope, cells = self.offered_cells(s)
        out: list[Action] = []
        if p is None:
            return out  # no chance to take one now (and no business offered)
        for cell in cells:
            price = self.lease_price[cell.id]
            if s.owner.get(cell.id) is None and price and s.held(p, "signs") and s.cash(p) >= price:
                out.append(Action("lease", (cell.id,), p))
                if scope != "*":
                    out.append(Action("lease", (), p))
        return out

    def own_signs(self, s: State, leased: bool) -> list[str]:
        """The turn player's businesses (leased or bought) whose sign may come off now."""
        try:
            p = self.in_own_turn(s)
        except RuleViolation:
            return []
        return [pid for pid in s.plots_of(p) if self.leased(s, pid) == leased]

    def legal_end_lease(self, s: State) -> list[Action]:
        return [Action("end_lease", (pid,), s.turn) for pid in self.own_signs(s, True)]

    def legal_abandon(self, s: State) -> list[Action]:
        return [Action("abandon", (pid,), s.turn) for pid in self.own_signs(s, False)]

    def legal_sell(self, s: State) -> list[Action]:
        p = s.turn
        if s.pending is not None or not (s.extra.get("may") == (p, "*") or self.may_move_now(s)):
            return []
        return [Action("sell", (pid, Span(1, 6, "die")), p) for pid in s.plots_of(p) if not self.leased(s, pid)]
