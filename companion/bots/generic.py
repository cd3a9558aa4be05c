"""Plain play any edition with plots accepts: the autoplayer's generic candidates (raise money or go bankrupt,
answer a decision, roll, end) and the simulator's `GenericStrategy` (buy with a cash reserve, build on whole
groups, bid up to a value, mortgage and sell before going bankrupt, offer and accept fair trades)."""

from __future__ import annotations

import random

from companion.bots.picking import Choice, every, fill, find, first_progress, terms_of, word
from companion.bots.shared import dice, lot_to_complete
from companion.bots.temper import Temper
from companion.engine.actions import Action, OneOf, Span, Terms
from companion.engine.command import Command
from companion.engine.state import State


def generic_candidates(rules, s, rng):
    """Moves any edition may accept: raise money or go bankrupt, answer a decision, roll, end."""
    p = s.turn
    out = []
    for d in s.debts:
        q = d.debtor
        for pid in sorted(s.plots_of(q), key=lambda x: -s.level.get(x, 0)):
            if s.level.get(pid):
                out.append(f"sell_building {pid}")
        for pid in s.plots_of(q):
            out.append(f"mortgage {pid}")
        out.append(f"bankrupt {q}")
        return out
    pending = s.pending
    if pending is not None:
        if pending.kind == "offer":
            cell = rules.edition.plots[pending.plot]
            if s.cash(pending.player) >= cell.price + 100 or rng.random() < 0.3:
                out.append("buy")
            out.append("decline")
        elif pending.kind == "auction":
            if rng.random() < 0.6:
                q = rng.choice(s.alive)
                low = pending.bid + 1 if pending.bidder else pending.opening
                out.append(f"bid {q} {low + rng.choice((0, 5, 10, 20))}")
            out.append("hammer")
        elif pending.kind == "draw":
            out.append("draw")
        elif pending.kind == "choose":
            out.append(f"choose {rules.cells[rng.choice(pending.options)].id}")
        return out
    if p in s.detained:
        if rng.random() < 0.4:
            out.append("pay_fine")
        for card in s.kept.get(p, ()):
            out.append(f"use_card {card}")
    if rng.random() < 0.3:
        for pid in s.plots_of(p):
            out.append(f"build {pid}")
    if rng.random() < 0.05:
        for pid in s.plots_of(p):
            if pid in s.mortgaged:
                out.append(f"redeem {pid}")
    if s.phase in ("setup", "roll") or s.again:
        n = rules.opt["dice"]
        out.append("roll " + dice(rng, n))
    out.append("end")
    return out


class GenericStrategy:
    """Plain play for any edition with plots: the rules' shared verbs only."""

    family = "generic"

    def __init__(self, rules, temper: Temper, rng: random.Random):
        self.rules = rules
        self.temper = temper
        self.rng = rng
        self.reserve = int(rules.edition.start_cash * temper.reserve)
        self.name = temper.name  # strategy() names it as the command line does

    # ----- values -------------------------------------------------------------------------

    def price(self, pid: str) -> int:
        return self.rules.edition.plots[pid].price

    def group(self, pid: str) -> tuple[str, ...]:
        return tuple(self.rules.edition.industry_plots(self.rules.edition.plots[pid].industry))

    def completes(self, s: State, me: str, pid: str) -> bool:
        """Whether owning pid would give me its whole group."""
        return all(s.owner.get(q) == me for q in self.group(pid) if q != pid)

    def value(self, s: State, me: str, pid: str) -> int:
        """What a plot is worth to me: its price, more when it completes or extends my group."""
        base = self.price(pid)
        mine = sum(1 for q in self.group(pid) if s.owner.get(q) == me)
        if self.completes(s, me, pid):
            return base * 2
        return base + base * mine // 3

    # ----- the runner's questions -----------------------------------------------------------

    def settle(self, s: State, me: str, acts: list[Action]) -> Choice | None:
        """In debt: raise the money (sell, mortgage) before giving up."""
        for verb in ("use_policy", "sell_shares"):
            a = find(acts, verb, me)
            if a is not None:
                return a, fill(a, self.rng, amount=10**9)
        # mortgage lots outside whole groups first, cheapest first
        morts = sorted(every(acts, "mortgage"), key=lambda a: (self.completes(s, me, word(a)), self.price(word(a))))
        loose = [a for a in morts if not self.completes(s, me, word(a))]
        if loose:
            return loose[0], fill(loose[0], self.rng)
        sells = every(acts, "sell_building")
        if sells:
            a = max(sells, key=lambda a: s.level.get(word(a), 0))
            return a, fill(a, self.rng)
        if morts:
            return morts[0], fill(morts[0], self.rng)
        for verb in ("skip_policy", "bankrupt"):
            a = find(acts, verb, me)
            if a is not None:
                return a, fill(a, self.rng)
        return None

    def bid(self, s: State, me: str, action: Action) -> Choice | None:
        """At an auction: bid the lowest allowed (plus a small step) while under my value."""
        a = self.rules.open_auction_of(s)
        span = action.args[1]
        assert isinstance(span, Span)
        if a is None or a.bidder == me:
            return None
        if a.plot is not None and a.kind == "auction":
            limit = int(self.value(s, me, a.plot) * self.temper.bid_factor)
        else:
            limit = int(a.opening * 1.5)
        limit = min(limit, s.cash(me) - self.reserve // 2)
        if span.low > limit:
            return None
        step = max(1, self.price(a.plot) // 20) if a.plot is not None else 5
        return action, fill(action, self.rng, amount=min(limit, span.low + self.rng.choice((0, step, 2 * step))))

    def answer(self, s: State, me: str, offer, acts: list[Action]) -> Choice | None:
        """A trade offered to me: accept when it pays me fairly, else reject."""
        yes = find(acts, "accept", str(offer.number))
        no = find(acts, "reject", str(offer.number))
        if yes is not None and self.fair(s, me, offer):
            return yes, fill(yes, self.rng)
        if no is not None:
            return no, fill(no, self.rng)
        return None

    def fair(self, s: State, me: str, offer) -> bool:
        """Fair to me: what I get is worth at least 1.4 times what I give (at my values; a lot whose
        loss would break a whole group of mine counts three times its price), and I keep my reserve."""
        give, get = terms_of(offer.terms)
        # the offer's give is the proposer's side; I am the other side
        theirs, mine = give, get
        worth_in = sum(
            int(w) if w.isdigit() else self.value(s, me, w)
            for w in theirs
            if w.isdigit() or w in self.rules.edition.plots
        )
        worth_out = 0
        for w in mine:
            if w.isdigit():
                worth_out += int(w)
                if s.cash(me) - int(w) < self.reserve:
                    return False
            elif w in self.rules.edition.plots:
                worth_out += self.price(w) * (3 if self.completes(s, me, w) else 1)
        return worth_in >= worth_out * 1.4

    def pending(self, s: State, me: str, acts: list[Action]) -> Choice | None:
        """A decision the game waits for from me."""
        kind = s.pending.kind if s.pending is not None else None
        if kind == "offer":
            buy = find(acts, "buy")
            if buy is not None:
                pid = s.pending.plot
                left = s.cash(me) - self.price(pid)
                if left >= self.reserve or (self.completes(s, me, pid) and left >= self.reserve // 3):
                    return buy, fill(buy, self.rng)
        if kind == "choose":
            a = find(acts, "choose")
            if a is not None:
                slot = a.args[0]
                assert isinstance(slot, OneOf)
                return a, Command("choose", (self.rng.choice(slot.words),))
        if kind == "claim":
            return self.policy_for_claim(s, me, acts)
        return None

    def policy_for_claim(self, s: State, me: str, acts: list[Action]) -> Choice | None:
        return None

    def extra(self, s: State, me: str, acts: list[Action], done: set[str]) -> Choice | None:
        """Something worth doing on my turn before I move on (each kind once a turn)."""
        if "redeem" not in done:
            a = self.redeem_choice(s, me, every(acts, "redeem"))
            if a is not None:
                done.add("redeem")
                return a, fill(a, self.rng)
        builds = every(acts, "build")
        if builds:
            a = self.build_choice(s, me, builds)
            if a is not None:
                return a, fill(a, self.rng)
        if "trade" not in done:
            done.add("trade")
            deal = self.deal(s, me, acts)
            if deal is not None:
                return deal
        return None

    def redeem_choice(self, s: State, me: str, redeems: list[Action]) -> Action | None:
        """A mortgaged plot to take back when rich (three times the reserve left after its price)."""
        for a in redeems:
            if s.cash(me) - self.price(word(a)) >= 3 * self.reserve:
                return a
        return None

    def dealable(self, industry_id: str) -> bool:
        """Whether a group is worth a deal for its last lot: one that can be built on."""
        return self.rules.edition.industries[industry_id].buildable

    def build_cost(self, pid: str) -> int:
        return self.rules.edition.plots[pid].build_cost or self.price(pid) // 2

    def build_choice(self, s: State, me: str, builds: list[Action]) -> Action | None:
        """The building to put up now, if any: the lowest level first, the dearest plot first,
        while the reserve holds."""
        a = min(builds, key=lambda a: (s.level.get(word(a), 0), -self.price(word(a))))
        return a if s.cash(me) - self.build_cost(word(a)) >= self.reserve else None

    def needless(self, s: State, me: str, done: set[str]) -> set[str]:
        """Verbs my turn's `extra` would not use now (so the runner need not list them): a trade
        already weighed this turn or with no group one lot short, a redeem with nothing mortgaged."""
        out = set()
        if "trade" in done or not self.wants_deal(s, me):
            out.add("trade")
        if "redeem" in done or not any(s.owner.get(pid) == me for pid in sorted(s.mortgaged)):
            out.add("redeem")
        if not self.could_build(s, me):
            out.add("build")
        return out | (done & self.ONCE_A_TURN)

    # verbs `extra` weighs once a turn (it notes them in `done`): not listed again that turn
    ONCE_A_TURN = frozenset({"house_auction", "jackpot", "insure"})

    def could_build(self, s: State, me: str) -> bool:
        """Whether build_choice could accept any building of mine: one whose cost leaves the reserve."""
        mine = s.plots_of(me)
        return bool(mine) and s.cash(me) - min(self.build_cost(pid) for pid in mine) >= self.reserve

    def wants_deal(self, s: State, me: str) -> bool:
        """Whether some buildable group lacks only one lot of mine, held by another player: when not,
        `deal` offers nothing and the runner need not list the trades (the costliest list)."""
        ed = self.rules.edition
        for ind_id in ed.industries:
            if not self.dealable(ind_id):
                continue
            if lot_to_complete(ed, s, me, ind_id) is not None:
                return True
        return False

    def deal(self, s: State, me: str, acts: list[Action]) -> Choice | None:
        """Offer cash for the one lot that completes a group of mine."""
        for a in every(acts, "trade"):
            other = word(a, 1)
            terms = a.args[2]
            assert isinstance(terms, Terms)
            if terms.give.cash is None:
                continue
            for pid in terms.get.plots:
                if not self.completes(s, me, pid) or not self.dealable(self.rules.edition.plots[pid].industry):
                    continue
                amount = int(self.price(pid) * self.temper.trade_factor)
                if s.cash(me) - amount < 2 * self.reserve or amount > terms.give.cash.high:
                    continue
                return a, Command("trade", (me, other, "give", str(amount), "get", pid))
        return None

    def aside(self, s: State, me: str, acts: list[Action]) -> Choice | None:
        """Out of turn (once a turn): nothing in the shared rules."""
        return None

    def progress(self, s: State, me: str, acts: list[Action]) -> Choice | None:
        """Move the game on: leave detention, roll, end the turn."""
        if me in s.detained:
            card = find(acts, "use_card")
            if card is not None:
                return card, fill(card, self.rng)
            fine = find(acts, "pay_fine")
            if fine is not None and s.cash(me) >= 4 * self.rules.opt["detention_fine"] + self.reserve:
                return fine, fill(fine, self.rng)
        return first_progress(acts, self.rng)
