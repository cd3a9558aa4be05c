"""Mad Millionaire: the autoplayer's hints (the free small business, stunt cards, where to drive, the six, leases
and sales) and the simulator's `MadMillionaireStrategy`, which plays those same hints where they are listed."""

from __future__ import annotations

from functools import lru_cache

from companion.bots.generic import GenericStrategy
from companion.bots.picking import Choice, find
from companion.engine.actions import OneOf
from companion.engine.command import Command, parse_command
from companion.engine.madmillionaire import SMALL


@lru_cache(maxsize=256)
def _road_distances(roads, targets):
    back = {}
    for u, outs in enumerate(roads):
        for v in outs:
            back.setdefault(v, []).append(u)
    dist = {t: 0 for t in targets}
    todo = sorted(targets)
    while todo:
        v = todo.pop(0)
        for u in back.get(v, ()):
            if u not in dist:
                dist[u] = dist[v] + 1
                todo.append(u)
    return dist


def distance_to(rules, targets):
    """Road distance from every cell to the nearest of `targets` (U-turns ignored); cached
    by road map and targets (callers only read the dict)."""
    return _road_distances(rules.roads, frozenset(targets))


def madmillionaire_candidates(rules, s, rng):
    """Mad Millionaire: the free small business, stunt cards, moves, the six, leases and sales."""
    if s.phase == "over":
        return []
    p = s.turn
    out = []
    if s.phase == "setup":
        free = [pid for pid in rules.edition.industry_plots(SMALL) if pid not in s.owner]
        for q in s.alive:
            if q not in s.extra["claimed"] and free:
                out.append(f"claim {q} {rng.choice(free)}")
                break
    pend = s.pending
    if pend is not None:
        if pend.kind == "reveal":
            out.append("reveal")
        elif pend.kind == "move":
            out += madmillionaire_moves(rules, s, pend.player, pend.count, rng)
        elif pend.kind == "six":
            rich = sorted((q for q in s.alive if q != pend.player and not s.skip.get(q)), key=lambda q: -s.cash(q))
            if rich and rng.random() < 0.5:
                out.append(f"miss {rich[0]}")
            out.append("bonus")
        return out
    mine = s.plots_of(p)
    leases = [pid for pid in mine if rules.leased(s, pid)]
    bought = [pid for pid in mine if not rules.leased(s, pid)]
    target = rules.opt["target"]
    if s.phase in ("setup", "roll"):
        refunds = sum(rules.lease_price[pid] for pid in leases)
        near_finish = distance_to(rules, {rules.finish}).get(s.position[p], 99) <= 6
        if s.cash(p) < target <= s.cash(p) + refunds and near_finish:
            out += [f"end_lease {pid}" for pid in leases]
        if bought and rng.random() < 0.03:
            out.append(f"sell {rng.choice(bought)} {rng.randint(1, 6)}")
        return out
    may = s.extra.get("may")
    if may and may[0] == p and s.cash(p) < target:
        out += madmillionaire_deals(rules, s, p, may[1], leases, bought, rng)
    return out


def madmillionaire_moves(rules, s, p, die, rng):
    """Where to drive: towards a stunt (or FINISH once rich enough), now and then to a shop."""
    stops = sorted(rules.destinations(s, p, die))
    if s.cash(p) >= rules.opt["target"]:
        goal = {rules.finish}
    else:
        goal = {rules.edition.cell(rules.stunt_cell[c]).index for c in s.extra["stunts"]} or {rules.finish}
    dist = distance_to(rules, goal)
    order = sorted(stops, key=lambda i: (dist.get(i, 99), rng.random()))
    if rng.random() < 0.3 and s.held(p, "signs"):
        shops = [
            i for i in stops if rules.cells[i].kind in ("plot", "real_estate") and rules.cells[i].id not in s.owner
        ]
        if shops and not any(i in goal for i in stops):
            order.insert(0, rng.choice(shops))
    return [f"move {rules.cells[i].id}" for i in order]


def madmillionaire_deals(rules, s, p, scope, leases, bought, rng):
    """Buy, lease, end a lease or sell on a business offer or a Real Estate space."""
    out = []
    cash = s.cash(p)
    mine = set(leases) | set(bought)

    def touches(pid):
        return any(x in mine for x in rules.near.get(pid, ()))

    if scope == "*":
        free = [pid for pid in rules.edition.plots if pid not in s.owner]
        cheap = [pid for pid in free if 0 < rules.lease_price[pid] <= cash]
        good = [pid for pid in cheap if touches(pid)]
        if bought and rng.random() < 0.15:
            out.append(f"sell {rng.choice(bought)} {rng.randint(1, 6)}")
        if s.held(p, "signs"):
            for pid in good + ([rng.choice(cheap)] if cheap else []):
                out.append(f"lease {pid}")
        return out
    holder = s.owner.get(scope)
    price, lease = rules.edition.plots[scope].price, rules.lease_price[scope]
    if holder is None:
        if not s.held(p, "signs") and touches(scope):
            lonely = [pid for pid in leases if not touches(pid)]
            if lonely:
                out.append(f"end_lease {lonely[0]}")
        if cash >= price + 100000 and rng.random() < 0.3:
            out.append("buy")
        if lease:
            out.append("lease")
        elif rng.random() < 0.5:
            out.append("buy")
    elif holder == p:
        if cash >= price - lease + 200000 and rng.random() < 0.3:
            out.append("buy")
    elif rules.leased(s, scope) and cash >= price + 100000 and rng.random() < 0.5:
        out.append("buy")
    return out


class MadMillionaireStrategy(GenericStrategy):
    """Mad Millionaire: drive towards stunts, lease beside one's businesses, FINISH when rich.

    The moves are ranked by the autoplayer's hints (madmillionaire_candidates, above); a hint is taken
    only when it matches an action listed for this seat, with its values inside the bounds.
    """

    family = "madmillionaire"

    def pick(self, s, me, acts) -> Choice | None:
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
