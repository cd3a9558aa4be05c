"""Trades between players: offers proposed and answered, and the trade itself."""

from typing import Any

from companion.engine.actions import Action, Side, Span, Terms
from companion.engine.base import MAX_AMOUNT, RulesBase
from companion.engine.board import Cell
from companion.engine.command import Command
from companion.engine.state import Note, Offer, State
from companion.errors import BadCommand, RuleViolation


class Trades(RulesBase):
    """Trades: offers one player makes and the other answers, and what a trade may hand over."""

    def offers(self, s: State) -> tuple[Offer, ...]:
        offers: tuple[Offer, ...] = s.extra.get("offers", ())
        return offers

    def offer_arg(self, s: State, word: str) -> Offer:
        number = self.int_arg(word, "offer", 1)
        for offer in self.offers(s):
            if offer.number == number:
                return offer
        raise RuleViolation("no_such_offer", number=number)

    def stamp(self, s: State, a: str, b: str) -> tuple[Any, ...]:
        """Both sides' holdings, as a value: a change to either lapses an offer between them."""
        return tuple(
            (
                p,
                s.cash(p),
                tuple((pid, s.level.get(pid, 0), pid in s.mortgaged) for pid in s.plots_of(p)),
                s.kept.get(p, ()),
                tuple(sorted((k[1], n) for k, n in s.holdings.items() if k[0] == p)),
            )
            for p in (a, b)
        )

    def propose_trade(self, s: State, args: tuple[str, ...], actor: str, seq: int | None = None) -> None:
        """A player's `trade`: an offer the other side accepts or rejects (one open offer per proposer).

        The offer is named by its event's number (`accept 7` takes the offer event #7 made),
        or, applied outside a game's history, by the next number after any given so far.
        """
        trial = s.copy()
        self.cmd_trade(trial, args)  # the terms must hold now; nothing moves yet
        a, b = self.player_arg(s, args[0]), self.player_arg(s, args[1])
        number = seq if seq is not None else s.extra.get("offer_count", 0) + 1
        for old in self.offers(s):
            if old.proposer == a:
                s.notes.append(
                    Note("offer_lapsed", {"number": old.number, "player": a, "other": old.other, "reason": "replaced"})
                )
        terms = tuple(w.lower() if w.lower() in ("give", "get") else w for w in args[2:])
        s.extra["offer_count"] = number
        s.extra["offers"] = tuple(o for o in self.offers(s) if o.proposer != a) + (
            Offer(number, a, b, terms, self.stamp(s, a, b)),
        )
        # what each side hands over, as the trade's notes say it: plots and cards, then cash
        gave: list[Any] = []
        got: list[Any] = []
        for note in trial.notes:
            if note.code in ("traded", "cards_traded"):
                gave += note.params["gave"] + ([note.params["paid"]] if note.params.get("paid") else [])
                got += note.params["got"] + ([note.params["received"]] if note.params.get("received") else [])
        s.notes.append(Note("offer_made", {"number": number, "player": a, "other": b, "gave": gave, "got": got}))

    def take_offer(self, s: State, word: str) -> Offer:
        offer = self.offer_arg(s, word)
        rest = tuple(o for o in self.offers(s) if o is not offer)
        if rest:
            s.extra["offers"] = rest
        else:
            s.extra.pop("offers", None)
        return offer

    def cmd_accept(self, s: State, args: tuple[str, ...]) -> None:
        """`accept N`: the other side takes trade offer N; the trade happens now."""
        offer = self.take_offer(s, args[0])
        s.notes.append(Note("offer_accepted", {"number": offer.number, "player": offer.other, "other": offer.proposer}))
        self.cmd_trade(s, (offer.proposer, offer.other, *offer.terms))

    def cmd_reject(self, s: State, args: tuple[str, ...]) -> None:
        """`reject N`: the other side turns trade offer N down."""
        offer = self.take_offer(s, args[0])
        s.notes.append(Note("offer_rejected", {"number": offer.number, "player": offer.other, "other": offer.proposer}))

    def cmd_withdraw(self, s: State, args: tuple[str, ...]) -> None:
        """`withdraw N`: the proposer takes trade offer N back."""
        offer = self.take_offer(s, args[0])
        s.notes.append(
            Note("offer_withdrawn", {"number": offer.number, "player": offer.proposer, "other": offer.other})
        )

    def lapse_offers(self, s: State, turn_over: bool = False) -> None:
        """Offers whose sides' holdings changed (or, at the turn's end, every offer) lapse."""
        kept = []
        for o in self.offers(s):
            alive = o.proposer in s.alive and o.other in s.alive
            if not turn_over and alive and self.stamp(s, o.proposer, o.other) == o.stamp:
                kept.append(o)
            else:
                s.notes.append(
                    Note(
                        "offer_lapsed",
                        {
                            "number": o.number,
                            "player": o.proposer,
                            "other": o.other,
                            "reason": "turn" if turn_over else "holdings",
                        },
                    )
                )
        if kept:
            s.extra["offers"] = tuple(kept)
        else:
            s.extra.pop("offers", None)

    def tradable(self, s: State, holder: str, cell: Cell) -> bool:
        try:
            self.check_not_under_hammer(s, cell)
            self.check_tradable(s, holder, cell)
        except RuleViolation:
            return False
        return True

    def trade_side(self, s: State, p: str) -> Side:
        """What p may hand over in a trade now."""
        key = ("tradable", p, self.reads_key(s, self.PLOT_CHECK_READS["tradable"]))
        cache = self.board_bucket(s)
        plots = cache.get(key)
        if plots is None:
            plots = cache[key] = tuple(pid for pid in s.plots_of(p) if self.tradable(s, p, self.edition.plots[pid]))
        in_debt = any(d.debtor == p for d in s.debts)
        cash = Span(1, min(s.cash(p), MAX_AMOUNT)) if s.cash(p) >= 1 and not in_debt else None
        return Side(plots, self.tradable_cards(s, p), cash)

    def tradable_cards(self, s: State, p: str) -> tuple[str, ...]:
        """Kept cards a trade may hand over (editions that trade them say which)."""
        return ()

    def legal_trade(self, s: State) -> list[Action]:
        sides = {p: self.trade_side(s, p) for p in s.alive}
        empty = Side()
        offers = {p: side != empty for p, side in sides.items()}  # has something to hand over
        out = []
        for a in s.alive:
            for b in s.alive:
                if a != b and (offers[a] or offers[b]):
                    out.append(Action("trade", (a, b, Terms(sides[a], sides[b])), a))
        return out

    def legal_accept(self, s: State) -> list[Action]:
        trades = self.legal_trade(s) if self.offers(s) else []
        out = []
        for o in self.offers(s):
            cmd = Command("trade", (o.proposer, o.other, *o.terms))
            if any(t.matches(cmd) for t in trades):
                out.append(Action("accept", (str(o.number),), o.other))
        return out

    def legal_reject(self, s: State) -> list[Action]:
        return [Action("reject", (str(o.number),), o.other) for o in self.offers(s)]

    def legal_withdraw(self, s: State) -> list[Action]:
        return [Action("withdraw", (str(o.number),), o.proposer) for o in self.offers(s)]

    def cmd_trade(self, s: State, args: tuple[str, ...]) -> None:
        """`trade A B give ITEM... get ITEM...`; items are plot ids or cash amounts."""
        usage = "trade PLAYER PLAYER give ITEM... get ITEM..."
        self.need(args, 3, usage)
        a = self.player_arg(s, args[0])
        b = self.player_arg(s, args[1])
        if a == b:
            raise BadCommand("usage", usage=usage)
        sides: dict[str, list[str]] = {"give": [], "get": []}
        current = None
        for tok in args[2:]:
            if tok.lower() in sides:
                current = tok.lower()
            elif current is None:
                raise BadCommand("usage", usage=usage)
            else:
                sides[current].append(tok)
        give = self.trade_items(s, a, sides["give"])
        get = self.trade_items(s, b, sides["get"])
        if not (give[0] or give[1] or get[0] or get[1]):
            raise BadCommand("usage", usage=usage)
        if give[1] and get[1]:
            raise RuleViolation("trade_cash_both_ways")
        for payer, cash in ((a, give[1]), (b, get[1])):
            owed = [d for d in s.debts if d.debtor == payer]
            if cash and owed:
                # a debtor's cash belongs to the creditors (ОКОНЧАНИЕ ИГРЫ)
                raise RuleViolation("debt_first", player=payer, amount=owed[0].amount, creditor=owed[0].creditor)
        self.spend(s, a, b, give[1], "trade")
        self.spend(s, b, a, get[1], "trade")
        for pid in give[0]:
            s.owner[pid] = b
        for pid in get[0]:
            s.owner[pid] = a
        s.notes.append(
            Note(
                "traded", {"player": a, "other": b, "gave": give[0], "got": get[0], "paid": give[1], "received": get[1]}
            )
        )

    def trade_items(self, s: State, holder: str, tokens: list[str]) -> tuple[list[str], int]:
        plots, amounts = [], []
        for tok in tokens:
            if tok.isascii() and tok.isdigit():
                amounts.append(tok)
                continue
            if self.edition.cell(tok) is None and (tok[0] in "+-$" or tok[0].isdigit()):
                self.int_arg(tok)  # refused: a number written wrong ('+5', '1_000', '$5')
            cell = self.plot_arg(tok)
            self.check_not_under_hammer(s, cell)
            self.check_tradable(s, holder, cell)
            if cell.id in plots:
                raise BadCommand("usage", usage="each plot once")
            plots.append(cell.id)
        if len(amounts) > 1:
            # "give 1 000" is a typo for one amount, never 1 + 0
            raise BadCommand("trade_one_amount", amounts=amounts)
        return plots, self.int_arg(amounts[0], low=1) if amounts else 0

    def check_tradable(self, s: State, holder: str, cell: Cell) -> None:
        if s.owner.get(cell.id) != holder:
            raise RuleViolation("not_owner", player=holder, plot=cell.id)
        if s.level.get(cell.id, 0):
            raise RuleViolation("plot_built", plot=cell.id)
        if cell.id in s.mortgaged:
            raise RuleViolation("plot_mortgaged", plot=cell.id)
