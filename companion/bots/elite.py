"""Millionaire Elite: the autoplayer's hints (policies, shares, the EXCHANGE, the auction roll) and the
simulator's `EliteStrategy` (shares by price and dividend, insurance when exposed, buildings, redemptions
and debts weighed by rent against circle tax: docs/simulation.md)."""

from __future__ import annotations

from companion.bots.millionaire import MillionaireStrategy, jackpot_hint
from companion.bots.picking import Choice, every, fill, find, word
from companion.bots.shared import CLAIM_POLICIES, claim_policy, dice
from companion.engine.actions import Action, Span, Terms
from companion.engine.command import Command
from companion.engine.elite import POLICIES
from companion.engine.state import State


def elite_candidates(rules, s, rng):
    """Millionaire Elite: insurance policies, shares, the exchange, the auction roll, the JACKPOT."""
    p = s.turn
    out = []
    if s.pending is not None and s.pending.kind == "claim":
        q = s.pending.player
        colour = claim_policy(s, q)
        return [f"use_policy {q} {colour}" if rng.random() < 0.5 else f"skip_policy {q}"]
    for d in s.debts:
        if d.claim:
            colour = claim_policy(s, d.debtor)
            out.append(f"use_policy {d.debtor} {colour}" if rng.random() < 0.5 else f"skip_policy {d.debtor}")
        if s.held(d.debtor, "red") and d.reason in ("rent_paid", "circle_tax"):
            out.append(f"use_policy {d.debtor} red")
        if s.held(d.debtor, "shares"):
            out.append(f"sell_shares {d.debtor} {s.held(d.debtor, 'shares')}")
    if s.debts:
        return out
    if s.pending is not None and s.pending.kind == "auction_roll":
        out.append("auction_roll " + dice(rng, 3))
    if s.pending is None:
        ex = s.extra.get("exchange")
        if ex and ex[0] == p:
            if rng.random() < 0.5:
                out.append(f"buy_shares {p} {rng.randint(1, 3)}")
            if ex[1] == "before":
                out.append(f"exchange {dice(rng, 2)}")
            if rng.random() < 0.3:
                q = rng.choice(s.alive)
                out.append(f"commission {q} 1 {rng.randint(0, 20)}")
        if (s.phase == "setup" or s.extra.get("window") == p) and rng.random() < 0.3:
            out.append(f"buy_shares {p} {rng.randint(1, 4)}")
        out += jackpot_hint(rules, s, rng)
        if rng.random() < 0.03:
            out.append(f"insure {rng.choice(s.alive)} {rng.choice(POLICIES)}")
        if rng.random() < 0.05 and s.held(p, "shares") and s.phase == "roll":
            out.append(f"sell_shares {p} 1")
    return out


class EliteStrategy(MillionaireStrategy):
    """Millionaire Elite: shares by price and dividend, the EXCHANGE, insurance when exposed, and
    buildings, redemptions and debts weighed by rent against circle tax (docs/simulation.md)."""

    family = "elite"
    MAX_SHARES = 12
    SETUP_SHARES = 4  # shares bought before the first roll: the rest of the cash is for plots
    # The board's tempo, from the dice (7 cells a throw, a double one throw in six): a player goes
    # round about once in five rounds (1.2 throws, 8.4 cells a turn, 40 cells) and stops on 1.2
    # cells a turn, so another player stops on a given cell about 3 times in 100 rounds. A plot's tax is paid once a lap,
    # its rent each time someone else stops on it.
    LAPS = 0.21  # laps a player goes round in one round
    HITS = 0.03  # stops of one other player on one cell in one round
    PAYBACK = 60  # rounds a building must pay back its cost in (rent from others less its tax)
    RACE_MARGIN = 1.2  # two left: build when I would outlast the other by this much
    PRESS = 2.0  # two left: build anyway when I could raise this many times what they could
    TAX_KEPT = 1.0  # the share of the next circle tax kept in cash besides the reserve
    SPARE_FACTOR = 2.5  # a spare lot and cash offered for a lot that completes a group: at most this x its price

    # ----- what a plot earns and costs, a round at a time ----------------------------------

    def step(self, pid: str, level: int) -> tuple[int, int]:
        """The rent and tax one more building adds to a plot of a whole group at `level`."""
        cell = self.rules.edition.plots[pid]
        return cell.rent[level + 2] - cell.rent[level + 1], cell.tax[level + 2] - cell.tax[level + 1]

    def rents(self, s: State, p: str) -> int:
        """The rent p's plots charge a visitor now, all together (mortgaged ones charge none)."""
        rules = self.rules
        return sum(rules.rent(s, rules.edition.plots[pid]) for pid in s.plots_of(p) if pid not in s.mortgaged)

    def drain(self, s: State, p: str) -> float:
        """What p loses a round on average: circle tax and rent to the others, less circle income."""
        fixed, dividend = self.rules.circle_income_parts(s, p)
        others = sum(self.rents(s, q) for q in s.alive if q != p)
        return self.LAPS * (self.rules.circle_tax_amount(s, p) - fixed - dividend) + self.HITS * others

    def outlasts(self, s: State, me: str, rent: int, tax: int, cost: int) -> bool:
        """Two left: whether, with one more building (rent, tax, cost), the other would run out of
        money before me, with a margin (wealth: what each could raise; a building sells back at half)."""
        other = next(q for q in s.alive if q != me)
        theirs = self.drain(s, other) + self.HITS * rent
        if theirs <= 0:
            return False  # it would not break them: the building only costs me its tax
        mine = self.drain(s, me) + self.LAPS * tax
        if mine <= 0:
            return True
        return (self.rules.raisable(s, me) - cost // 2) / mine > self.RACE_MARGIN * self.rules.raisable(
            s, other
        ) / theirs

    def dealable(self, industry_id):
        # the central industry too: its rent grows with the plots one owner holds (500 a stop for four)
        return super().dealable(industry_id) or bool(self.rules.edition.industries[industry_id].rent_by_count)

    def whole(self, s: State, me: str, pid: str) -> bool:
        """Whether the plot's group is all mine (some plots of it may be mortgaged)."""
        return all(s.owner.get(q) == me for q in self.group(pid))

    def redeem_choice(self, s, me, redeems):
        """Only a group that is all mine pays its tax back (a lone plot's rent does not), and only
        once every plot of it is redeemed (a mortgaged one breaks the monopoly): take a group back
        when I can pay for all its mortgaged plots and keep the reserve and the next circle tax,
        the group with the highest rent first."""
        keep = self.reserve + self.rules.circle_tax_amount(s, me)
        best = None
        for a in redeems:
            pid = word(a)
            if not self.whole(s, me, pid):
                continue
            plots = self.rules.edition.plots
            cost = sum(self.rules.redeem_price(plots[q]) for q in self.group(pid) if q in s.mortgaged)
            if s.cash(me) - cost >= keep and (best is None or self.top_rent(pid) > best[0]):
                best = (self.top_rent(pid), a)
        if best is not None:
            return best[1]
        # a lone plot that another player lacks for a whole group: a mortgaged plot cannot change
        # hands, taken back it sells to them for more than it costs (`deal` offers twice the price);
        # any lone plot when rich
        for a in redeems:
            pid = word(a)
            wanted = self.dealable(self.rules.edition.plots[pid].industry) and any(
                self.completes(s, q, pid) for q in s.alive if q != me
            )
            if s.cash(me) - self.rules.redeem_price(self.rules.edition.plots[pid]) >= (keep if wanted else 2 * keep):
                return a
        return None

    def deal(self, s, me, acts):
        """Cash for the lot that completes my group; failing that, a swap: my lot that completes
        another player's group for theirs that completes mine, when my group would charge at least
        as much rent as theirs (a table's usual deal: both get a whole group), with cash on top
        when theirs is the dearer lot."""
        got = super().deal(s, me, acts)
        if got is not None:
            return got
        for a in every(acts, "trade"):
            other = word(a, 1)
            terms = a.args[2]
            assert isinstance(terms, Terms)
            for pid in terms.get.plots:
                if not self.completes(s, me, pid) or not self.dealable(self.rules.edition.plots[pid].industry):
                    continue
                for mine in terms.give.plots:
                    if (
                        self.group(mine) == self.group(pid)
                        or not self.completes(s, other, mine)
                        or not self.dealable(self.rules.edition.plots[mine].industry)
                    ):
                        continue
                    if self.top_rent(pid) < self.top_rent(mine):
                        continue
                    # cash on top when their lot is the dearer, so that the swap is fair to them too
                    # (they take a lot that completes their group at twice its price, `fair`)
                    amount = max(0, -(-(14 * self.price(pid) - 20 * self.price(mine)) // 10))
                    if not amount:
                        return a, Command("trade", (me, other, "give", mine, "get", pid))
                    if (
                        terms.give.cash is not None
                        and amount <= terms.give.cash.high
                        and s.cash(me) - amount >= 2 * self.reserve
                    ):
                        return a, Command("trade", (me, other, "give", mine, str(amount), "get", pid))
        return self.spare_for_lot(s, me, acts)

    def spare_for_lot(self, s: State, me: str, acts: list[Action]) -> Choice | None:
        """A spare lot (the only one I hold of its group, and not one that completes theirs), with
        cash on top where needed, for the lot that completes my group: the table's usual way to
        gather a group when nobody has the cash to buy a lot outright. Priced so that the other's
        `fair` takes it (what they get worth 1.4 times the lot they give, at their values), and
        offered only when lot and cash cost me at most SPARE_FACTOR times the price of the lot I get."""
        for a in every(acts, "trade"):
            other = word(a, 1)
            terms = a.args[2]
            assert isinstance(terms, Terms)
            for pid in terms.get.plots:
                if (
                    not self.completes(s, me, pid)
                    or self.completes(s, other, pid)
                    or not self.dealable(self.rules.edition.plots[pid].industry)
                ):
                    continue
                best = None
                for spare in terms.give.plots:
                    if (
                        self.group(spare) == self.group(pid)
                        or self.completes(s, other, spare)
                        or sum(1 for q in self.group(spare) if s.owner.get(q) == me) > 1
                    ):
                        continue
                    # in tenths of a fanty: 1.4 x the price, less what the spare is worth to them
                    short = 14 * self.price(pid) - 10 * self.value(s, other, spare)
                    cash = 0 if short < 0 else short // 10 + 1
                    if best is None or self.price(spare) + cash < best[0]:
                        best = (self.price(spare) + cash, spare, cash)
                if best is None or best[0] > self.SPARE_FACTOR * self.price(pid):
                    continue
                _, spare, cash = best
                if not cash:
                    return a, Command("trade", (me, other, "give", spare, "get", pid))
                if terms.give.cash is not None and cash <= terms.give.cash.high and s.cash(me) - cash >= self.reserve:
                    return a, Command("trade", (me, other, "give", spare, str(cash), "get", pid))
        return None

    def top_rent(self, pid: str) -> int:
        """The rent a whole group charges at its highest: each plot's last rent, or the count's."""
        ed = self.rules.edition
        ind = ed.industries[ed.plots[pid].industry]
        if ind.rent_by_count:
            return ind.rent_by_count[-1] * len(self.group(pid))
        return sum(ed.plots[q].rent[-1] for q in self.group(pid))

    def build_choice(self, s, me, builds):
        """The building that pays best (rent from the others against the tax it adds and its cost),
        when it pays back within PAYBACK rounds, or with two left when it makes me outlast the
        other; cash for it and for the next circle tax kept besides the reserve."""
        others = len(s.alive) - 1
        if others < 1:
            return None
        # the last one standing wins, so what counts is my share of the table's money: rent comes
        # from the others, while a fanty paid to the bank (tax, the building) costs me only
        # others/(others+1) of it against them (they keep theirs, the table's total drops)
        bank = others / (others + 1)
        best = None
        for a in builds:
            pid = word(a)
            rent, tax = self.step(pid, s.level.get(pid, 0))
            gain = others * self.HITS * rent - bank * self.LAPS * tax
            cost = self.build_cost(pid) * bank
            if best is None or gain / cost > best[0]:
                best = (gain / cost, a, rent, tax, self.build_cost(pid))
        if best is None:
            return None
        ratio, a, rent, tax, cost = best
        if s.cash(me) - cost < self.reserve + self.TAX_KEPT * (self.rules.circle_tax_amount(s, me) + tax):
            return None
        if ratio * self.PAYBACK >= 1:
            return a
        # two left: no slow drain breaks the other (a plot's tax is less than its mortgage, circle
        # income covers it), only a rent bigger than all they can raise: build what does not lose
        if others == 1 and (ratio >= 0 or self.outlasts(s, me, rent, tax, cost) or self.ahead(s, me)):
            return a
        return None

    def ahead(self, s: State, me: str) -> bool:
        """Two left and I could raise PRESS times what the other could: my money has no better use
        than rents that one stop breaks them with (they are not broken by a slow drain alone)."""
        other = next(q for q in s.alive if q != me)
        return self.rules.raisable(s, me) >= self.PRESS * self.rules.raisable(s, other)

    def dividend_percent(self, s: State) -> int:
        rate = self.rules.in_force(s, "dividend_percent")
        return rate["percent"] if rate else self.rules.opt["dividend_percent"]

    def share_count(self, s: State, me: str, span: Span) -> int:
        """How many shares to buy now: none when dear or the dividend is thin."""
        price = self.rules.price(s)
        start = self.rules.opt["share_start_price"]
        if price <= 0 or price > 2 * start or self.dividend_percent(s) < 10:
            return 0
        room = (self.SETUP_SHARES if s.phase == "setup" else self.MAX_SHARES) - s.held(me, "shares")
        spare = (s.cash(me) - 2 * self.reserve) // price
        n = min(span.high, room, spare, 4 if price <= start else 2)
        return n if n >= span.low else 0

    def buy_shares(self, s, me, acts) -> Choice | None:
        a = find(acts, "buy_shares", me)
        if a is None:
            return None
        span = a.args[1]
        assert isinstance(span, Span)
        n = self.share_count(s, me, span)
        return (a, fill(a, self.rng, amount=n)) if n else None

    def sell_dear(self, s, me, acts) -> Choice | None:
        a = find(acts, "sell_shares", me)
        if a is not None and self.rules.price(s) >= 2 * self.rules.opt["share_start_price"] + 50:
            return a, fill(a, self.rng, amount=s.held(me, "shares"))
        return None

    def exposed(self, s: State, me: str) -> bool:
        """Others hold built plots whose rent could break me."""
        worst = 0
        for pid, owner in s.owner.items():
            if owner != me and s.level.get(pid):
                worst = max(worst, self.rules.rent(s, self.rules.edition.plots[pid]))
        return worst > s.cash(me) // 2

    def extra(self, s, me, acts, done):
        # each chance to trade shares is weighed once (START's window, the EXCHANGE before and after its roll)
        for verb in ("sell_shares", "buy_shares"):
            a = find(acts, verb, me)
            chance = f"{verb}:{s.extra.get('exchange')}:{s.extra.get('window')}"
            if a is not None and chance not in done:
                done.add(chance)
                got = self.sell_dear(s, me, acts) if verb == "sell_shares" else self.buy_shares(s, me, acts)
                if got is not None:
                    return got
        if "insure" not in done:
            done.add("insure")
            if not s.held(me, "red") and self.exposed(s, me):
                a = find(acts, "insure", me, "red")
                if a is not None and s.cash(me) >= 3 * self.rules.opt["policy_red"]:
                    return a, fill(a, self.rng)
            if not s.held(me, "orange") and len(s.plots_of(me)) >= 4:
                a = find(acts, "insure", me, "orange")
                if a is not None and s.cash(me) >= 4 * self.rules.opt["policy_orange"]:
                    return a, fill(a, self.rng)
        return super().extra(s, me, acts, done)

    def aside(self, s, me, acts):
        """Buy shares before the game, buy through the player on the EXCHANGE (a small fee), or sell
        dear shares before my turn."""
        if s.phase == "setup":
            return self.buy_shares(s, me, acts)
        a = find(acts, "commission", me)
        if a is not None:
            span = a.args[1]
            assert isinstance(span, Span)
            n = self.share_count(s, me, span)
            if n:
                fee = min(n * self.rules.price(s) // 20, s.cash(me) - n * self.rules.price(s))
                return a, Command("commission", (me, str(n), str(max(0, fee))))
        return self.sell_dear(s, me, acts)

    def policy_for_claim(self, s, me, acts):
        for colour in CLAIM_POLICIES:
            a = find(acts, "use_policy", me, colour)
            if a is not None:
                return a, fill(a, self.rng)
        a = find(acts, "skip_policy", me)
        return (a, fill(a, self.rng)) if a is not None else None

    def settle(self, s, me, acts):
        # a RED policy cancels an unbearable rent or tax; a claim is covered by any policy held
        if any(d.debtor == me and d.claim for d in s.debts):
            got = self.policy_for_claim(s, me, acts)
            if got is not None:
                return got
        if find(acts, "use_policy", me) is None:  # a RED policy held cancels the debt first
            # shares first, but only as many as the debt needs: the rest keep paying dividends
            a = find(acts, "sell_shares", me)
            price = self.rules.price(s)
            if a is not None and price > 0:
                short = sum(d.amount for d in s.debts if d.debtor == me) - s.cash(me)
                return a, fill(a, self.rng, amount=max(1, -(-short // price)))
            # then plots with no building in their group, lone ones and the cheapest first: the
            # buildings are what breaks the others, and sell back at half (a mortgage costs a tenth)
            bare = [a for a in every(acts, "mortgage") if not any(s.level.get(q, 0) for q in self.group(word(a)))]
            if bare:
                a = min(bare, key=lambda a: (self.whole(s, me, word(a)), self.top_rent(word(a)), self.price(word(a))))
                return a, fill(a, self.rng)
            # then the building that earns least for what it sells for: the cheap groups' (a branch
            # on the Cinema adds 6 a stop, on the Oil holding 120), not the highest level first,
            # which stripped the dear groups and left the last two players without a rent to win by
            sells = every(acts, "sell_building")
            if sells:
                a = min(sells, key=lambda a: (self.building_yield(s, word(a)), -s.level.get(word(a), 0)))
                return a, fill(a, self.rng)
        return super().settle(s, me, acts)

    def building_yield(self, s: State, pid: str) -> float:
        """What the plot's top building earns a round (rent from the others less the tax it adds,
        as build_choice counts them), for each fanty its sale brings."""
        others = max(1, len(s.alive) - 1)
        rent, tax = self.step(pid, s.level.get(pid, 0) - 1)
        gain = others * self.HITS * rent - others / (others + 1) * self.LAPS * tax
        return gain / max(1, self.build_cost(pid) * self.rules.opt["building_sale_percent"] // 100)
