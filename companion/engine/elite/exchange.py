"""Elite's shares (АКЦИИ) and the EXCHANGE cell (ИГРА НА БИРЖЕ): buying, selling, commission."""

from companion.engine.actions import Action, Budget, Span, dice
from companion.engine.board import Cell
from companion.engine.core import MAX_AMOUNT
from companion.engine.elite.base import EliteBase, Visit
from companion.engine.state import BANK, Note, State
from companion.errors import RuleViolation


class EliteExchange(EliteBase):
    # ----- shares (АКЦИИ) -----------------------------------------------------------------

    def exchange_visit(self, s: State, p: str) -> Visit | None:
        ex = s.extra.get("exchange")
        return ex if ex and ex[0] == p else None

    def cmd_buy_shares(self, s: State, args: tuple[str, ...]) -> None:
        """`buy_shares PLAYER N`: before the game, on passing START, or on EXCHANGE."""
        p = self.player_arg(s, args[0])
        n = self.int_arg(args[1], "shares", 1)
        visit = self.exchange_visit(s, p)
        if not (s.phase == "setup" or s.extra.get("window") == p or visit):
            raise RuleViolation("no_share_window", player=p)
        if s.phase != "setup" and s.extra.get("window") == p:
            # the purchase on passing START (one, of any size); it uses no EXCHANGE trade
            del s.extra["window"]
        elif visit:
            self.use_exchange_trade(s, visit)
        self.sell_to(s, p, n)

    def sell_to(self, s: State, p: str, n: int) -> None:
        price = self.price(s)
        if price == 0:
            raise RuleViolation("bank_not_selling")
        left = self.edition.supply.get("shares", 48) - self.in_use(s, "shares")
        if n > left:
            raise RuleViolation("supply_out", kind="shares", left=left)
        self.spend(s, p, BANK, n * price, "shares")
        self.give(s, p, "shares", n)
        s.notes.append(Note("shares_bought", {"player": p, "count": n, "price": price, "amount": n * price}))

    def use_exchange_trade(self, s: State, visit: Visit) -> None:
        p, stage, used, buyers = visit
        bit = 1 if stage == "before" else 2
        if used & bit:
            raise RuleViolation("exchange_trade_used", player=p, stage=stage)
        s.extra["exchange"] = (p, stage, used | bit, buyers)

    def cmd_sell_shares(self, s: State, args: tuple[str, ...]) -> None:
        """`sell_shares PLAYER N`: to the bank, any time before one's own turn."""
        p = self.player_arg(s, args[0])
        n = self.int_arg(args[1], "shares", 1)
        if n > s.held(p, "shares"):
            raise RuleViolation("not_enough_shares", player=p, count=n, held=s.held(p, "shares"))
        in_debt = any(d.debtor == p for d in s.debts)
        visit = self.exchange_visit(s, p)
        if s.turn == p and s.phase == "moved" and not visit and not (in_debt and self.opt["sell_shares_in_debt"]):
            raise RuleViolation("before_own_turn_only", player=p, action="sell_shares")
        if visit and not in_debt:
            self.use_exchange_trade(s, visit)
        price = self.price(s)
        self.give(s, p, "shares", -n)
        self.transfer(s, BANK, p, n * price)
        s.notes.append(Note("shares_sold", {"player": p, "count": n, "price": price, "amount": n * price}))

    def cmd_commission(self, s: State, args: tuple[str, ...]) -> None:
        """`commission BUYER N FEE`: buy shares through the player on EXCHANGE, once each."""
        q = self.player_arg(s, args[0])
        n = self.int_arg(args[1], "shares", 1)
        fee = self.int_arg(args[2], "fee", 0)
        ex = s.extra.get("exchange")
        if not ex:
            raise RuleViolation("nobody_on_exchange")
        p, stage, used, buyers = ex
        if q == p:
            raise RuleViolation("commission_self", player=q)
        if q in buyers:
            raise RuleViolation("commission_used", player=q)
        self.spend(s, q, p, fee, "commission")
        self.sell_to(s, q, n)
        s.extra["exchange"] = (p, stage, used, buyers + (q,))
        s.notes.append(Note("commission_paid", {"player": q, "to": p, "amount": fee}))

    def land_exchange(self, s: State, p: str, cell: Cell) -> None:
        s.extra["exchange"] = (p, "before", 0, ())
        s.notes.append(Note("on_exchange", {"player": p}))

    def cmd_exchange(self, s: State, args: tuple[str, ...]) -> None:
        """`exchange D D`: ИГРА НА БИРЖЕ. Even first die: up, odd: down; second die: points."""
        up, points = self.dice_args(args, 2, "exchange D D")
        ex = s.extra.get("exchange")
        if not ex or ex[0] != s.turn:
            raise RuleViolation("not_on_exchange", player=s.turn)
        if ex[1] != "before":
            raise RuleViolation("exchange_played", player=s.turn)
        s.extra["exchange"] = (ex[0], "after", ex[2], ex[3])
        self.move_price(s, points if up % 2 == 0 else -points)

    def raisable(self, s: State, p: str) -> int:
        # and the shares, sold to the bank at the price (АКЦИИ: «в любой момент ... перед своим ходом»,
        # and by a debtor at any time: sell_shares_in_debt)
        total = super().raisable(s, p)
        if self.opt["sell_shares_in_debt"]:
            total += s.held(p, "shares") * self.price(s)
        return total

    # ----- legal actions of the share verbs (each mirrors its cmd_ method's checks) -------

    def shares_left(self, s: State) -> int:
        left: int = self.edition.supply.get("shares", 48) - self.in_use(s, "shares")
        return left

    @staticmethod
    def trade_used(visit: Visit) -> bool:
        """Whether the EXCHANGE visit's trade of its stage (before or after the roll) is used."""
        return bool(visit[2] & (1 if visit[1] == "before" else 2))

    def legal_buy_shares(self, s: State) -> list[Action]:
        price = self.price(s)
        if price == 0:
            return []
        out = []
        for p in s.alive:
            visit = self.exchange_visit(s, p)
            if s.phase != "setup" and s.extra.get("window") == p:
                pass  # the purchase on passing START
            elif visit:
                if self.trade_used(visit):
                    continue
            elif s.phase != "setup":
                continue
            most = min(self.shares_left(s), s.cash(p) // price, MAX_AMOUNT)
            if most >= 1:
                out.append(Action("buy_shares", (p, Span(1, most, "shares")), p))
        return out

    def legal_sell_shares(self, s: State) -> list[Action]:
        out = []
        for p in s.alive:
            held = s.held(p, "shares")
            if not held:
                continue
            in_debt = any(d.debtor == p for d in s.debts)
            visit = self.exchange_visit(s, p)
            if s.turn == p and s.phase == "moved" and not visit and not (in_debt and self.opt["sell_shares_in_debt"]):
                continue
            if visit and not in_debt and self.trade_used(visit):
                continue
            out.append(Action("sell_shares", (p, Span(1, held, "shares")), p))
        return out

    def legal_commission(self, s: State) -> list[Action]:
        ex = s.extra.get("exchange")
        price = self.price(s)
        if not ex or price == 0:
            return []
        broker, _, _, buyers = ex
        most = self.shares_left(s)
        out = []
        for q in s.alive:
            cash = s.cash(q)
            n = min(most, cash // price)
            if q == broker or q in buyers or n < 1:
                continue
            # N shares at the price, plus a fee of 0 or more, within the buyer's cash
            out.append(
                Action(
                    "commission",
                    (q, Span(1, n, "shares"), Span(0, min(cash - price, MAX_AMOUNT), "fee")),
                    q,
                    budget=Budget((0, price, 1), cash),
                )
            )
        return out

    def legal_exchange(self, s: State) -> list[Action]:
        ex = s.extra.get("exchange")
        if ex and ex[0] == s.turn and ex[1] == "before":
            return [Action("exchange", dice(2), s.turn)]
        return []

    # ----- the end -----------------------------------------------------------------------

    def wealth(self, s: State, p: str) -> int:
        total = super().wealth(s, p)
        if self.opt["wealth_counts_shares"]:
            total += s.held(p, "shares") * self.price(s)
        return total
