"""Money: transfers, payments, debts, bankruptcy and liquidation, the timed game's count."""

from typing import Any

from companion.engine.actions import Action, Span
from companion.engine.base import MAX_AMOUNT, RulesBase
from companion.engine.state import BANK, Debt, Note, Posting, State
from companion.errors import BadCommand, RuleViolation, check


class Money(RulesBase):
    """Money between accounts, what the rules charge, debts, bankruptcy and the end of a timed game."""

    def legal_pay(self, s: State) -> list[Action]:
        out: list[Action] = []
        for a in s.alive:
            if s.cash(a) >= 1:
                amount = Span(1, min(s.cash(a), MAX_AMOUNT))
                out.extend(Action("pay", (a, b, amount), a) for b in s.alive if b != a)
        return out

    def legal_bankrupt(self, s: State) -> list[Action]:
        if not s.debts:
            return []
        debtors = dict.fromkeys(d.debtor for d in s.debts if d.debtor in s.alive)
        owed = {p: sum(d.amount for d in s.debts if d.debtor == p) for p in debtors}
        return [Action("bankrupt", (p,), p) for p in debtors if self.raisable(s, p) < owed[p]]

    def legal_end_game(self, s: State) -> list[Action]:
        return [Action("end_game")] if s.pending is None else []

    def transfer(self, s: State, frm: str, to: str, amount: int) -> None:
        """Move money between two accounts; the only way any balance changes."""
        if not (isinstance(amount, int) and amount >= 0):
            check(False, f"transfer of {amount!r}")
        if amount == 0 or frm == to:
            return
        if frm in s.players:
            if s.balances[frm] < amount:
                check(False, f"{frm} would go below zero paying {amount}")
        s.balances[frm] = s.balances.get(frm, 0) - amount
        s.balances[to] = s.balances.get(to, 0) + amount
        s.postings.append(Posting(frm, -amount))
        s.postings.append(Posting(to, amount))

    def give(self, s: State, p: str, item: str, count: int) -> None:
        """Change how many of an item (shares, policies, ...) a player holds."""
        value = s.holdings.get((p, item), 0) + count
        if value < 0:
            check(False, f"{p} would hold {value} {item}")
        if value:
            s.holdings[(p, item)] = value
        else:
            s.holdings.pop((p, item), None)

    def in_use(self, s: State, item: str) -> int:
        return sum(n for (_, it), n in s.holdings.items() if it == item)

    def affords(self, s: State, player: str, amount: int) -> bool:
        return s.cash(player) >= amount

    def check_afford(self, s: State, player: str, amount: int, what: str) -> None:
        """Refuse a payment the player's cash does not cover."""
        if not self.affords(s, player, amount):
            raise RuleViolation("insufficient_funds", player=player, amount=amount, cash=s.cash(player), what=what)

    def spend(self, s: State, player: str, to: str, amount: int, what: str) -> None:
        """A voluntary payment: refused when the player cannot afford it."""
        self.check_afford(s, player, amount, what)
        self.transfer(s, player, to, amount)

    def charge(self, s: State, debtor: str, creditor: str, amount: int, reason: str, **params: Any) -> None:
        """A payment the rules impose: paid now, or owed until the player raises it."""
        if amount <= 0:
            return
        if s.cash(debtor) >= amount and not any(d.debtor == debtor for d in s.debts):
            self.transfer(s, debtor, creditor, amount)
            s.notes.append(Note(reason, {"player": debtor, "to": creditor, "amount": amount, **params}))
        else:
            s.debts = s.debts + (Debt(debtor, creditor, amount, reason),)
            s.notes.append(
                Note(
                    "debt",
                    {
                        "player": debtor,
                        "to": creditor,
                        "amount": amount,
                        "reason": reason,
                        "cash": s.cash(debtor),
                        **params,
                    },
                )
            )

    def settle_debts(self, s: State) -> None:
        kept: list[Debt] = []
        for d in s.debts:
            if (
                d.debtor in s.alive
                and s.cash(d.debtor) >= d.amount
                and not d.claim
                and not any(k.debtor == d.debtor for k in kept)
            ):
                self.transfer(s, d.debtor, d.creditor, d.amount)
                s.notes.append(
                    Note("debt_paid", {"player": d.debtor, "to": d.creditor, "amount": d.amount, "reason": d.reason})
                )
            elif d.debtor in s.alive:
                kept.append(d)
        s.debts = tuple(kept)

    def cmd_pay(self, s: State, args: tuple[str, ...]) -> None:
        """An agreed payment between players: `pay FROM TO AMOUNT` (deals, commissions)."""
        a = self.player_arg(s, args[0])
        b = self.player_arg(s, args[1])
        amount = self.int_arg(args[2], low=1)
        if a == b:
            raise BadCommand("usage", usage="pay PLAYER PLAYER AMOUNT")
        self.spend(s, a, b, amount, "payment")
        s.notes.append(Note("paid", {"player": a, "to": b, "amount": amount}))

    def cmd_bankrupt(self, s: State, args: tuple[str, ...]) -> None:
        """`bankrupt PLAYER`: a player who owes more than they can pay leaves the game."""
        p = self.player_arg(s, args[0])
        self.check_bankrupt(s, p)
        mine = [d for d in s.debts if d.debtor == p]
        s.debts = tuple(d for d in s.debts if d.debtor != p)
        self.liquidate(s, p, mine)
        self.remove_player(s, p)

    def check_bankrupt(self, s: State, p: str) -> None:
        """A debtor goes bankrupt only when everything they hold cannot raise what they owe.

        Every rulebook: bankrupt is who «должен ... больше, чем в состоянии заплатить»
        once buildings are sold and plots mortgaged; until then the debtor raises the money.
        """
        owed = sum(d.amount for d in s.debts if d.debtor == p)
        if not owed:
            raise RuleViolation("not_in_debt", player=p)
        could = self.raisable(s, p)
        if could >= owed:
            raise RuleViolation("can_still_pay", player=p, amount=owed, could=could)

    def raisable(self, s: State, p: str) -> int:
        """What p could raise now: cash, every building sold back, every plot then mortgaged."""
        pct = self.opt["building_sale_percent"]
        total = s.cash(p)
        for pid in s.plots_of(p):
            cell = self.edition.plots[pid]
            total += s.level.get(pid, 0) * (cell.build_cost * pct // 100)
            if pid not in s.mortgaged:
                total += cell.mortgage
        return total

    def liquidate(self, s: State, p: str, debts: list[Debt]) -> None:
        """The debtor pays all their cash; the bank pays player creditors the rest."""
        for d in debts:
            paid = min(s.cash(p), d.amount)
            self.transfer(s, p, d.creditor, paid)
            if d.creditor in s.players and d.amount > paid:
                self.transfer(s, BANK, d.creditor, d.amount - paid)
            s.notes.append(
                Note("bankrupt_paid", {"player": p, "to": d.creditor, "amount": d.amount, "from_debtor": paid})
            )
        self.transfer(s, p, BANK, s.cash(p))
        for key in [k for k in s.holdings if k[0] == p]:
            del s.holdings[key]
        for pid in s.plots_of(p):
            del s.owner[pid]
            s.level.pop(pid, None)
        s.mortgaged = frozenset(m for m in s.mortgaged if m in s.owner)

    def remove_player(self, s: State, p: str) -> None:
        for card_id in s.kept.get(p, ()):
            self.return_kept_card(s, p, card_id)
        was_turn = s.turn == p
        if was_turn:
            idx = s.alive.index(p)
        s.alive = tuple(q for q in s.alive if q != p)
        s.detained.pop(p, None)
        s.skip.pop(p, None)
        if s.pending is not None and p in (s.pending.player, s.pending.bidder, s.pending.seller):
            s.pending = None
        s.notes.append(Note("bankrupt", {"player": p}))
        if was_turn and s.alive:
            s.turn = s.alive[(idx - 1) % len(s.alive)]
            self.next_turn(s)

    def wealth(self, s: State, p: str) -> int:
        """Timed game: cash plus plots and buildings at their purchase price."""
        total = s.cash(p)
        for pid in s.plots_of(p):
            cell = self.edition.plots[pid]
            total += cell.price - (cell.mortgage if pid in s.mortgaged else 0)
            total += s.level.get(pid, 0) * cell.build_cost
        return total

    def cmd_end_game(self, s: State, args: tuple[str, ...]) -> None:
        """Timed game over: count wealth; the richest wins (ties share the win)."""
        self.require_turn_free(s)
        wealth = {p: self.wealth(s, p) for p in s.alive}
        best = max(wealth.values())
        s.winner = ",".join(p for p in s.alive if wealth[p] == best)
        s.phase = "over"
        s.notes.append(Note("wealth_count", {"wealth": wealth}))
        s.notes.append(Note("winner", {"player": s.winner}))
