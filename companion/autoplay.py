"""A seeded autoplayer: picks commands for a game so it can run unattended.

Used by the demo, the benchmarks and the simulation tests. It proposes
candidate commands (the edition's hints first, then generic moves: companion/bots.py)
and keeps the first one the engine accepts, so it never needs to know the rules itself.
"""
import random

from companion.bots import edition_candidates, generic_candidates
from companion.errors import RuleViolation


def next_command(game, rng):
    """The first candidate command the engine accepts, as (line, new_state)."""
    rules, s = game.rules, game.state
    candidates = edition_candidates(rules, s, rng) + generic_candidates(rules, s, rng)
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
