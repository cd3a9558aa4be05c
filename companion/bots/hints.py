"""The seeded autoplayer's hints: candidate commands worth trying now, per edition and generic."""

from functools import lru_cache

from companion.engine.classic import ClassicRules
from companion.engine.elite import POLICIES, EliteRules
from companion.engine.madmillionaire import SMALL, MadMillionaireRules
from companion.engine.monopoly import KINDS, MonopolyRules


def edition_candidates(rules, s, rng):
    """Edition-specific commands worth trying now, most useful first.

    The autoplayer (companion.bots.autoplay) tries these before the generic moves;
    `rng` is a random.Random it owns, so the engine stays pure.
    """
    if isinstance(rules, ClassicRules):  # Deluxe too
        return classic_candidates(rules, s, rng)
    if isinstance(rules, EliteRules):
        return elite_candidates(rules, s, rng)
    if isinstance(rules, MonopolyRules):
        return monopoly_candidates(rules, s, rng)
    if isinstance(rules, MadMillionaireRules):
        return madmillionaire_candidates(rules, s, rng)
    return []


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
        out.append("roll " + " ".join(str(rng.randint(1, 6)) for _ in range(n)))
    out.append("end")
    return out


# ----- the Millionaire family ------------------------------------------------------------


def jackpot_hint(rules, s, rng):
    """Play the JACKPOT half the times one may."""
    if s.extra.get("jackpot") == s.turn and rng.random() < 0.5:
        return [f"jackpot {rng.choice((10, 20, 50))} {rng.randint(1, 6)} {rng.randint(1, 6)} {rng.randint(1, 6)}"]
    return []


def classic_candidates(rules, s, rng):
    """Millionaire Classic and Deluxe: only the JACKPOT needs a hint."""
    if s.debts or s.pending is not None:
        return []
    return jackpot_hint(rules, s, rng)


def elite_candidates(rules, s, rng):
    """Millionaire Elite: insurance policies, shares, the exchange, the auction roll, the JACKPOT."""
    p = s.turn
    out = []
    if s.pending is not None and s.pending.kind == "claim":
        q = s.pending.player
        colour = "orange" if s.held(q, "orange") else "red"
        return [f"use_policy {q} {colour}" if rng.random() < 0.5 else f"skip_policy {q}"]
    for d in s.debts:
        if d.claim:
            colour = "orange" if s.held(d.debtor, "orange") else "red"
            out.append(f"use_policy {d.debtor} {colour}" if rng.random() < 0.5 else f"skip_policy {d.debtor}")
        if s.held(d.debtor, "red") and d.reason in ("rent_paid", "circle_tax"):
            out.append(f"use_policy {d.debtor} red")
        if s.held(d.debtor, "shares"):
            out.append(f"sell_shares {d.debtor} {s.held(d.debtor, 'shares')}")
    if s.debts:
        return out
    if s.pending is not None and s.pending.kind == "auction_roll":
        out.append("auction_roll " + " ".join(str(rng.randint(1, 6)) for _ in range(3)))
    if s.pending is None:
        ex = s.extra.get("exchange")
        if ex and ex[0] == p:
            if rng.random() < 0.5:
                out.append(f"buy_shares {p} {rng.randint(1, 3)}")
            if ex[1] == "before":
                out.append(f"exchange {rng.randint(1, 6)} {rng.randint(1, 6)}")
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


# ----- Monopoly ----------------------------------------------------------------------------


def monopoly_candidates(rules, s, rng):
    """Monopoly: every pending kind it adds, house auctions, building, completing a colour group."""
    out = []
    a = s.pending
    if s.debts:
        return out
    if a is not None:
        if a.kind == "rent_roll":
            out.append(f"rent_roll {rng.randint(1, 6)} {rng.randint(1, 6)}")
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
        group = rules.edition.industry_plots(ind_id)
        if not ind.buildable or any(rules.levels(s, ind_id)):
            continue
        missing = [pid for pid in group if s.owner.get(pid) != p]
        if len(missing) == 1 and s.owner.get(missing[0]) not in (None, p):
            pid = missing[0]
            price = 2 * rules.edition.plots[pid].price
            if s.cash(p) >= price + 100:
                out.append(f"trade {p} {s.owner[pid]} give {price} get {pid}")
    return out


# ----- Mad Millionaire ---------------------------------------------------------------------


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
