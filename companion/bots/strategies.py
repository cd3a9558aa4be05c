"""The simulator's bot strategies: each seat picks only from the actions Rules.legal lists for it.

A strategy is a small class: it is handed the state, its seat and the actions that are
its own now (plus the table's auction hammer and shortage auction, which a bot may ask
the table to use), and returns one of them with every free value filled within the
bounds the action gives (an amount, a bid, a trade's items, dice). It never applies a
command and never sees a refusal: the runner applies what it returns, once.

Families: `GenericStrategy` (any edition: buy with a cash reserve, build on whole groups,
bid up to a value, mortgage and sell before going bankrupt, offer and accept fair trades),
`MillionaireStrategy` (+ the JACKPOT), `EliteStrategy` (+ shares by price and dividend,
the EXCHANGE, insurance when exposed, buildings weighed by the rent the players left would pay
against the circle tax they add, swaps), `MonopolyStrategy` (+ rent rolls, mortgaged deeds,
shortage auctions) and `MadMillionaireStrategy`. The character (how much cash to keep, how
high to bid) is a `Temper`: balanced, cautious or aggressive; seats can mix them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.engine.actions import TABLE, Action, OneOf, Span, Terms
from companion.engine.command import Command
from companion.engine.state import State

# the verbs that move the game on, in the order a bot with nothing better to do takes them
PROGRESS = (
    "draw",
    "rent_roll",
    "auction_roll",
    "keep_mortgage",
    "skip_policy",
    "reveal",
    "bonus",
    "move",
    "decline",
    "exchange",
    "roll",
    "end",
    "hammer",
)


@dataclass(frozen=True)
class Temper:
    """A bot's character: cash kept back (a share of the starting cash) and how far it bids."""

    name: str
    reserve: float  # cash kept after a purchase, as a fraction of the starting cash
    bid_factor: float  # bids up to this many times a plot's price (more when it completes a group)
    trade_factor: float  # pays up to this many times the price for the lot that completes a group


TEMPERS = {
    "balanced": Temper("balanced", 0.12, 1.0, 2.0),
    "cautious": Temper("cautious", 0.3, 0.8, 1.5),
    "aggressive": Temper("aggressive", 0.04, 1.3, 2.5),
}


def fill(action: Action, rng: random.Random, amount: int | None = None) -> Command:
    """One command of `action`: fixed words kept, dice thrown, `amount` (clamped) or the lowest
    number in a span, the first word of a choice. Trades are built by the strategies."""
    words = []
    for slot in action.args:
        if isinstance(slot, str):
            words.append(slot)
        elif isinstance(slot, Span):
            if slot.what == "die":
                value = rng.randint(max(1, slot.low), min(6, slot.high))
            elif amount is not None:
                value = max(slot.low, min(slot.high, amount))
            else:
                value = slot.low
            words.append(str(value))
        elif isinstance(slot, OneOf):
            words.append(slot.words[0])
        else:
            raise ValueError("a trade's terms are chosen by the strategy")
    return Command(action.verb, tuple(words))


def find(actions: list[Action], verb: str, *head: str) -> Action | None:
    """The first action of this verb whose first fixed words are `head`."""
    for a in actions:
        if a.verb == verb and tuple(a.args[: len(head)]) == head:
            return a
    return None


def word(action: Action, i: int = 0) -> str:
    """The action's i-th argument, a fixed word (a plot, a player)."""
    slot = action.args[i]
    assert isinstance(slot, str)
    return slot


def every(actions: list[Action], verb: str) -> list[Action]:
    return [a for a in actions if a.verb == verb]


Choice = tuple[Action, Command]


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
            others = [s.owner.get(q) for q in ed.industry_plots(ind_id) if s.owner.get(q) != me]
            if len(others) == 1 and others[0] is not None:
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


def first_progress(acts: list[Action], rng: random.Random) -> Choice | None:
    for verb in PROGRESS:
        a = find(acts, verb)
        # the table never names a physical card (a list must not tell the next one)
        if a is not None and not (a.party == TABLE and any(isinstance(x, OneOf) for x in a.args)):
            return a, fill(a, rng)
    return None


def terms_of(words: tuple) -> tuple[list[str], list[str]]:
    """A trade's `give ... get ...` words as (given, got)."""
    give: list[str] = []
    get: list[str] = []
    side = None
    for w in words:
        if w in ("give", "get"):
            side = give if w == "give" else get
        elif side is not None:
            side.append(w)
    return give, get


class MillionaireStrategy(GenericStrategy):
    """Millionaire Classic and Deluxe: the JACKPOT now and then, with a small bet."""

    family = "millionaire"

    def extra(self, s, me, acts, done):
        got = super().extra(s, me, acts, done)
        if got is not None:
            return got
        jack = find(acts, "jackpot")
        if jack is not None and "jackpot" not in done:
            done.add("jackpot")
            if s.cash(me) >= 4 * self.reserve and self.rng.random() < 0.3:
                return jack, fill(jack, self.rng)  # the lowest bet
        return None


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
        for colour in ("orange", "red"):
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


class MonopolyStrategy(GenericStrategy):
    """Monopoly: rent rolls, a mortgaged deed received, placing a building, shortage auctions."""

    family = "monopoly"

    def pending(self, s, me, acts):
        kind = s.pending.kind if s.pending is not None else None
        if kind == "mortgage_transfer":
            a = find(acts, "redeem")
            if (
                a is not None
                and s.cash(me) - self.rules.redeem_price(self.rules.edition.plots[word(a)]) >= 2 * self.reserve
            ):
                return a, fill(a, self.rng)
        if kind == "place_building":
            builds = every(acts, "build")
            if builds and s.cash(me) - self.rules.edition.plots[word(builds[0])].build_cost >= self.reserve:
                return builds[0], fill(builds[0], self.rng)
        return super().pending(s, me, acts)

    def extra(self, s, me, acts, done):
        got = super().extra(s, me, acts, done)
        if got is not None:
            return got
        if "house_auction" not in done:
            done.add("house_auction")
            # the last buildings are wanted by someone else too: ask the table to auction one
            for a in every(acts, "house_auction"):
                pid = word(a)
                if s.owner.get(pid) == me and s.cash(me) >= self.rules.edition.plots[pid].build_cost + 2 * self.reserve:
                    return a, fill(a, self.rng)
        return None


class MadMillionaireStrategy(GenericStrategy):
    """Mad Millionaire: drive towards stunts, lease beside one's businesses, FINISH when rich.

    The moves are ranked by the old autoplayer's hints (companion/bots/hints.py); a hint is taken
    only when it matches an action listed for this seat, with its values inside the bounds.
    """

    family = "madmillionaire"

    def pick(self, s, me, acts) -> Choice | None:
        from companion.bots.hints import madmillionaire_candidates
        from companion.engine.command import parse_command

        for line in madmillionaire_candidates(self.rules, s, self.rng):
            cmd = parse_command(line)
            if cmd is None:
                continue
            for a in acts:
                if a.matches(cmd):
                    return a, cmd
        return None

    def pending(self, s, me, acts):
        return self.pick(s, me, acts)

    def extra(self, s, me, acts, done):
        # every hint spends something (a sign, cash, a lease): the runner's cap per turn bounds them
        return self.pick(s, me, acts)

    def needless(self, s, me, done):
        # the hints are not the generic extra: only what they never use is left out
        out = set()
        if "trade" in done or not self.wants_deal(s, me):
            out.add("trade")
        if "redeem" in done or not any(s.owner.get(pid) == me for pid in sorted(s.mortgaged)):
            out.add("redeem")
        return out

    def aside(self, s, me, acts):
        """SET UP: take a free small business (any of those left)."""
        a = find(acts, "claim", me)
        if a is None:
            return None
        slot = a.args[1]
        assert isinstance(slot, OneOf)
        return a, Command("claim", (me, self.rng.choice(slot.words)))


FAMILIES = {
    "elite": EliteStrategy,
    "classic": MillionaireStrategy,
    "deluxe": MillionaireStrategy,
    "monopoly": MonopolyStrategy,
    "madmillionaire": MadMillionaireStrategy,
}
NAMES = tuple(TEMPERS) + tuple(f"generic-{t}" for t in TEMPERS)


def strategy(rules, name: str, rng: random.Random) -> GenericStrategy:
    """The strategy called `name` for this rules module: a temper (balanced, cautious,
    aggressive) played by the edition family's class, or `generic-TEMPER` (the shared rules only)."""
    generic = name.startswith("generic-")
    temper = TEMPERS.get(name.removeprefix("generic-"))
    if temper is None:
        raise ValueError(name)
    cls = GenericStrategy if generic else FAMILIES.get(rules.edition.rules, GenericStrategy)
    bot = cls(rules, temper, rng)
    bot.name = name
    return bot
