"""Monopoly: the autoplayer's hints (every pending kind it adds, house auctions, building, completing a colour
group) and the simulator's `MonopolyStrategy` (rent rolls, mortgaged deeds, placing a building, shortage auctions)."""

from __future__ import annotations

from companion.bots.generic import GenericStrategy
from companion.bots.picking import every, fill, find, word
from companion.bots.shared import dice, lot_to_complete
from companion.engine.monopoly import KINDS


def monopoly_candidates(rules, s, rng):
    """Monopoly: every pending kind it adds, house auctions, building, completing a colour group."""
    out = []
    a = s.pending
    if s.debts:
        return out
    if a is not None:
        if a.kind == "rent_roll":
            out.append(f"rent_roll {dice(rng, 2)}")
        elif a.kind == "mortgage_transfer":
            cell = rules.edition.plots[a.plot]
            if s.cash(a.player) > rules.redeem_price(cell) + 200:
                out.append(f"redeem {a.plot}")
            out.append(f"keep_mortgage {a.plot}")
        elif a.kind == "place_building":
            out.extend(f"build {pid}" for pid in rules.placeable(s, a.player, a.stage))
            out.append("decline")
        elif a.kind in ("auction", "house_auction"):
            if rng.random() < 0.7:
                out.extend(monopoly_bids(rules, s, a, rng))
            out.append("hammer")
        return out
    p = s.turn
    for kind in KINDS:
        # the last few buildings of a kind, wanted by another builder too: the table auctions them
        for pid in rules.placeable(s, p, kind):
            if (
                0 < rules.left(s, kind) <= 2
                and s.cash(p) > rules.edition.plots[pid].build_cost + 150
                and rules.rivals(s, rules.edition.plots[pid])
                and rng.random() < 0.5
            ):
                out.append(f"house_auction {pid}")
                break
    if rng.random() < 0.5:
        for kind in KINDS:
            for pid in rules.placeable(s, p, kind):
                if s.cash(p) > rules.edition.plots[pid].build_cost + 150:
                    out.append(f"build {pid}")
    if rng.random() < 0.1:
        out.extend(monopoly_deals(rules, s, p))
    return out


def monopoly_bids(rules, s, a, rng):
    """A bid by someone able to use the lot or the building, up to about its price."""
    if a.kind == "auction":
        value = rules.edition.plots[a.plot].price
        bidders = [q for q in s.alive if q != a.bidder]
    else:
        value = a.opening
        bidders = [q for q in s.alive if q != a.bidder and rules.placeable(s, q, a.stage)]
    low = a.bid + 1 if a.bidder is not None else a.opening
    limit = value * rng.choice((6, 8, 10, 12)) // 10
    bidders = [q for q in bidders if s.cash(q) >= low + 50]
    if not bidders or low > limit:
        return []
    q = rng.choice(bidders)
    return [f"bid {q} {min(limit, low + rng.choice((0, 5, 10, 25)))}"]


def monopoly_deals(rules, s, p):
    """Buy the one lot that completes a colour group, at twice its price."""
    out = []
    for ind_id, ind in rules.edition.industries.items():
        if not ind.buildable or any(rules.levels(s, ind_id)):
            continue
        pid = lot_to_complete(rules.edition, s, p, ind_id)
        if pid is not None:
            price = 2 * rules.edition.plots[pid].price
            if s.cash(p) >= price + 100:
                out.append(f"trade {p} {s.owner[pid]} give {price} get {pid}")
    return out


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
