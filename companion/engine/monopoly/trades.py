"""Where Monopoly's lots change hands: trades, a mortgaged lot's new owner (Pledge), bankruptcy."""

from typing import cast

from companion.engine.actions import Action
from companion.engine.board import Cell
from companion.engine.core import Pending, Rules
from companion.engine.state import BANK, Debt, Note, State
from companion.errors import BadCommand, RuleViolation


class MonopolyTrades(Rules):
    # ----- trades: mortgaged lots and Get Out of Jail Free cards ----------------------------

    def check_tradable(self, s: State, holder: str, cell: Cell) -> None:
        # Property For Sale: no lot of a colour group with buildings on any of its lots
        if s.owner.get(cell.id) != holder:
            raise RuleViolation("not_owner", player=holder, plot=cell.id)
        if any(self.levels(s, cast(str, cell.industry))):  # a plot's industry is never None
            raise RuleViolation("group_built", plot=cell.id, industry=cell.industry)
        if cell.id in s.mortgaged and not self.opt["trade_mortgaged"]:
            raise RuleViolation("plot_mortgaged", plot=cell.id)

    def cmd_trade(self, s: State, args: tuple[str, ...]) -> None:
        """`trade A B give ITEM... get ITEM...`; items are lots, cash and kept cards."""
        usage = "trade PLAYER PLAYER give ITEM... get ITEM..."
        self.need(args, 3, usage)
        a = self.player_arg(s, args[0])
        b = self.player_arg(s, args[1])
        cards: dict[str, list[str]] = {"give": [], "get": []}
        rest, side = [], None
        for tok in args[2:]:
            if tok.lower() in cards:
                side = tok.lower()
            elif side is not None and tok in self.edition.cards:
                cards[side].append(tok)
                continue
            rest.append(tok)
        for side, holder in (("give", a), ("get", b)):
            for card_id in cards[side]:
                if cards[side].count(card_id) > 1:
                    raise BadCommand("usage", usage="each card once")
                if card_id not in s.kept.get(holder, ()):
                    raise RuleViolation("card_not_held", player=holder, card=card_id)
        before = dict(s.owner)
        if any(tok.lower() not in cards for tok in rest):
            super().cmd_trade(s, (args[0], args[1], *rest))
        elif a == b or not (cards["give"] or cards["get"]):
            raise BadCommand("usage", usage=usage)
        for frm, to, moved in ((a, b, cards["give"]), (b, a, cards["get"])):
            for card_id in moved:
                self.move_kept_card(s, frm, to, card_id)
        if cards["give"] or cards["get"]:
            s.notes.append(Note("cards_traded", {"player": a, "other": b, "gave": cards["give"], "got": cards["get"]}))
        for pid in self.edition.plots:  # board order
            if pid in s.mortgaged and before.get(pid) != s.owner.get(pid):
                self.queue_mortgage_transfer(s, s.owner[pid], pid)

    def move_kept_card(self, s: State, frm: str, to: str, card_id: str) -> None:
        s.kept[frm] = tuple(c for c in s.kept[frm] if c != card_id)
        if not s.kept[frm]:
            del s.kept[frm]
        s.kept[to] = s.kept.get(to, ()) + (card_id,)

    def tradable_cards(self, s: State, p: str) -> tuple[str, ...]:
        return s.kept.get(p, ())

    def transfer_interest(self, cell: Cell) -> int:
        interest: int = (cell.mortgage * self.opt["transfer_interest_percent"] + 99) // 100
        return interest

    def queue_mortgage_transfer(self, s: State, p: str, pid: str) -> None:
        # Pledge: the new owner redeems at once (mortgage + 10%) or pays 10% now and again on redeeming
        if self.opt["transfer_interest_percent"]:
            s.extra["queue"] = s.extra.get("queue", ()) + (("mortgage_transfer", p, pid),)

    def cmd_redeem(self, s: State, args: tuple[str, ...]) -> None:
        a = s.pending
        super().cmd_redeem(s, args)
        if a is not None and a.kind == "mortgage_transfer" and a.plot not in s.mortgaged:
            s.pending = None  # redeemed at once: no separate interest

    def cmd_keep_mortgage(self, s: State, args: tuple[str, ...]) -> None:
        """`keep_mortgage PLOT`: the new owner of a mortgaged lot pays the interest and keeps it mortgaged."""
        cell = self.plot_arg(args[0])
        a = s.pending
        if a is None or a.kind != "mortgage_transfer" or a.plot != cell.id:
            raise RuleViolation("no_mortgage_transfer", plot=cell.id)
        s.pending = None
        self.charge(s, a.player, BANK, self.transfer_interest(cell), "transfer_interest", plot=cell.id)

    def legal_keep_mortgage(self, s: State) -> list[Action]:
        a = s.pending
        if a is not None and a.kind == "mortgage_transfer":
            return [Action("keep_mortgage", (a.plot,), a.player)]
        return []

    def after_command(self, s: State) -> None:
        super().after_command(s)
        self.open_queued(s)

    def open_queued(self, s: State) -> None:
        """Open the next queued decision (auctions of a bankrupt's lots, mortgaged lots received)."""
        queue = s.extra.get("queue", ())
        while queue and s.pending is None and s.phase != "over":
            item, queue = queue[0], queue[1:]
            if item[0] == "auction" and item[1] not in s.owner:
                self.open_auction(s, self.edition.plots[item[1]], BANK)
            elif item[0] == "mortgage_transfer":
                _, p, pid = item
                if p in s.alive and s.owner.get(pid) == p and pid in s.mortgaged:
                    cell = self.edition.plots[pid]
                    s.pending = Pending("mortgage_transfer", player=p, plot=pid)
                    s.notes.append(
                        Note(
                            "mortgage_transfer_due",
                            {
                                "player": p,
                                "plot": pid,
                                "redeem": self.redeem_price(cell),
                                "interest": self.transfer_interest(cell),
                            },
                        )
                    )
        if queue:
            s.extra["queue"] = queue
        else:
            s.extra.pop("queue", None)

    # ----- bankruptcy and the end ------------------------------------------------------------

    def liquidate(self, s: State, p: str, debts: list[Debt]) -> None:
        """Bankruptcy: to a player, the creditor takes everything; to the bank, the lots go back.

        The creditor is the one of the first debt (the payment that broke the
        player); any other debts lapse. Buildings go back to the bank at half
        price first, the money joining the bankrupt's cash.
        """
        creditor = debts[0].creditor
        for d in debts[1:]:
            s.notes.append(Note("debt_lapsed", {"player": p, "to": d.creditor, "amount": d.amount}))
        plots = [pid for pid in self.edition.plots if s.owner.get(pid) == p]  # board order
        value = 0
        for pid in plots:
            level = s.level.pop(pid, 0)
            value += level * self.edition.plots[pid].build_cost * self.opt["building_sale_percent"] // 100
        self.transfer(s, BANK, p, value)
        cash = s.cash(p)
        if creditor in s.alive and creditor != p:
            self.transfer(s, p, creditor, cash)
            cards = list(s.kept.get(p, ()))
            for card_id in cards:
                self.move_kept_card(s, p, creditor, card_id)
            for pid in plots:
                s.owner[pid] = creditor
                if pid in s.mortgaged:
                    self.queue_mortgage_transfer(s, creditor, pid)
            s.notes.append(
                Note("bankrupt_to_player", {"player": p, "to": creditor, "cash": cash, "plots": plots, "cards": cards})
            )
            return
        self.transfer(s, p, BANK, cash)
        for pid in plots:
            del s.owner[pid]
        # the bank takes the lots free of their mortgages
        s.mortgaged = frozenset(m for m in s.mortgaged if m in s.owner)
        if self.opt["bankrupt_to_bank"] == "auction":
            s.extra["queue"] = s.extra.get("queue", ()) + tuple(("auction", pid) for pid in plots)
        s.notes.append(Note("bankrupt_to_bank", {"player": p, "plots": plots}))

    def cmd_bankrupt(self, s: State, args: tuple[str, ...]) -> None:
        super().cmd_bankrupt(s, args)
        n = self.opt["end_at_bankruptcy"]
        if n and len(s.players) - len(s.alive) >= n and len(s.alive) > 1:
            # Rules of a shortened game, 3: the game ends now and the richest player wins
            s.extra.pop("queue", None)
            s.pending = None
            self.cmd_end_game(s, ())

    def wealth(self, s: State, p: str) -> int:
        # cash, lots at the printed price (mortgaged: less the mortgage), buildings at cost, less debts
        return super().wealth(s, p) - sum(d.amount for d in s.debts if d.debtor == p)
