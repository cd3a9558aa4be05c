"""A seeded autoplayer: picks commands for a game so it can run unattended.

Used by the demo, the benchmarks and the simulation tests. It proposes
candidate commands (the edition's hints first, then generic moves) and keeps
the first one the engine accepts, so it never needs to know the rules itself.
"""
import random

from companion.errors import RuleViolation


def generic_candidates(rules, s, rng):
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
            out.append(f"choose {rng.choice(pending.options)}")
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


def next_command(game, rng):
    """The first candidate command the engine accepts, as (line, new_state)."""
    rules, s = game.rules, game.state
    candidates = rules.bot_candidates(s, rng) + generic_candidates(rules, s, rng)
    for line in candidates:
        try:
            return line, rules.apply(s, line)
        except RuleViolation:
            continue
    return None, None


def play(submit, game, seed, max_events=3000, on_event=None):
    """Play until someone wins or max_events; then count wealth (timed game)."""
    rng = random.Random(seed)
    # past max_events the game is called as soon as no decision or debt is open;
    # until then play goes on (bounded) so the wealth count always happens
    while game.state.phase != "over" and len(game.events) < max_events + 1000:
        if len(game.events) >= max_events:
            try:
                event = submit("end_game")
                if on_event:
                    on_event(event)
                break
            except RuleViolation:
                pass
        line, _ = next_command(game, rng)
        if line is None:
            break
        event = submit(line)
        if on_event:
            on_event(event)
    return game
