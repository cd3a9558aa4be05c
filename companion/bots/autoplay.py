"""A seeded autoplayer: picks commands for a game so it can run unattended.

Used by the demo, the benchmarks and the simulation tests. The bots propose
candidate commands (the edition's hints first, then generic moves: companion/bots/hints.py)
and it keeps the first one the rules list as legal now (Rules.legal), so it never
needs to know the rules itself and never tries a line the rules would refuse.
"""

import random

from companion.bots.hints import edition_candidates, generic_candidates
from companion.engine.actions import listed
from companion.engine.command import parse_command
from companion.errors import RuleViolation


def next_command(game, rng):
    """The first candidate command the rules list as legal for the table, as (line, new_state)."""
    rules, s = game.rules, game.state
    candidates = edition_candidates(rules, s, rng) + generic_candidates(rules, s, rng)
    actions = rules.legal(s)
    for line in candidates:
        cmd = parse_command(line)
        if cmd is not None and listed(actions, cmd):
            return line, rules.apply(s, cmd)
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
