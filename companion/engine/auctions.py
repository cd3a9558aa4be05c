"""Auctions: a declined plot (or a player's sale) goes to the highest bid."""

from dataclasses import replace
from typing import cast

from companion.engine.actions import Action, Span
from companion.engine.base import MAX_AMOUNT, RulesBase
from companion.engine.board import Cell
from companion.engine.state import Note, Pending, State
from companion.errors import RuleViolation


class Auctions(RulesBase):
    """Auctions: the opening price, bids and the hammer."""

    def open_auction_of(self, s: State) -> Pending | None:
        """The auction under way (the kinds `auction()` accepts), or None."""
        if s.pending is None:
            return None  # no decision open, so no auction (asked by several verbs in every legal call)
        try:
            return self.auction(s)
        except RuleViolation:
            return None

    def may_bid(self, s: State, a: Pending, p: str) -> bool:
        """Whether p may bid at this auction at all (editions narrow it)."""
        return not any(d.debtor == p for d in s.debts)

    def legal_bid(self, s: State) -> list[Action]:
        a = self.open_auction_of(s)
        if a is None:
            return []
        low = a.bid + 1 if a.bidder is not None else a.opening
        out = []
        for p in s.alive:
            high = min(s.cash(p), MAX_AMOUNT)
            if max(low, 1) <= high and self.may_bid(s, a, p):
                out.append(Action("bid", (p, Span(max(low, 1), high)), p))
        return out

    def legal_opening(self, s: State) -> list[Action]:
        a = self.open_auction_of(s)
        if a is None or a.bidder is not None:
            return []
        return [Action("opening", (Span(1, MAX_AMOUNT),))]

    def legal_hammer(self, s: State) -> list[Action]:
        return [Action("hammer")] if self.open_auction_of(s) is not None else []

    def open_auction(self, s: State, cell: Cell, seller: str) -> None:
        opening = cell.price * self.opt["auction_opening_percent"] // 100
        s.pending = Pending("auction", plot=cell.id, seller=seller, opening=max(opening, 1))
        s.notes.append(Note("auction_opened", {"plot": cell.id, "seller": seller, "opening": max(opening, 1)}))

    def auction(self, s: State) -> Pending:
        a: Pending | None = s.pending
        if a is None or a.kind != "auction":
            raise RuleViolation("no_auction")
        return a

    def cmd_opening(self, s: State, args: tuple[str, ...]) -> None:
        """The auction host sets the opening price before the first bid."""
        a = self.auction(s)
        if a.bidder is not None:
            raise RuleViolation("auction_has_bids")
        amount = self.int_arg(args[0], low=1)
        s.pending = replace(a, opening=amount)
        s.notes.append(Note("auction_opening", {"plot": a.plot, "opening": amount}))

    def cmd_bid(self, s: State, args: tuple[str, ...]) -> None:
        a = self.auction(s)
        p = self.player_arg(s, args[0])
        amount = self.int_arg(args[1], low=1)
        low = a.bid + 1 if a.bidder is not None else a.opening
        if amount < low:
            raise RuleViolation("bid_too_low", amount=amount, minimum=low)
        if any(d.debtor == p for d in s.debts):
            d = next(d for d in s.debts if d.debtor == p)
            raise RuleViolation("debt_first", player=p, amount=d.amount, creditor=d.creditor)
        if s.cash(p) < amount:
            # the owner may bid for their own plot, but only what they could pay
            raise RuleViolation("insufficient_funds", player=p, amount=amount, cash=s.cash(p), what="bid")
        s.pending = replace(a, bidder=p, bid=amount)
        s.notes.append(Note("bid", {"player": p, "amount": amount, "plot": a.plot}))

    def cmd_hammer(self, s: State, args: tuple[str, ...]) -> None:
        """The auction host closes the auction: highest bid wins."""
        a = self.auction(s)
        s.pending = None
        if a.bidder is None:
            s.notes.append(Note("auction_no_bids", {"plot": a.plot}))
            return
        if s.cash(a.bidder) < a.bid and a.bidder != a.seller:
            # the cash went elsewhere since the bid: the bid lapses and bidding reopens
            s.pending = replace(a, bidder=None, bid=0)
            s.notes.append(Note("bid_lapsed", {"player": a.bidder, "amount": a.bid, "plot": a.plot}))
            return
        self.transfer(s, a.bidder, cast(str, a.seller), a.bid)  # an auction has a seller
        s.owner[cast(str, a.plot)] = a.bidder
        s.notes.append(Note("auction_won", {"player": a.bidder, "plot": a.plot, "amount": a.bid, "seller": a.seller}))
