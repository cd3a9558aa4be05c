"""The legality caches' maintenance rule, enforced: a cached check reads only the fields it declares.

engine/legality.py keeps the answers of the plot checks (PLOT_CHECK_READS) and of some verbs'
legal actions (LEGAL_READS) by the board (owner, level, mortgaged, the open decision) and the
fields each declares. A check that starts reading another field would be answered from an older
state; here every cached check of every edition runs against the states of seeded autoplay games
and of the scenario scripts (tests/scenarios) through a State that records each field read, and any field outside the declaration fails,
naming the check and the field.
"""

import random
import types
from pathlib import Path

import pytest

from companion.bots.autoplay import next_command
from companion.editions import load_edition, rules_for, shipped
from companion.engine.game import Game
from companion.engine.state import State
from companion.errors import BadCommand, RuleViolation
from companion.table.script import run_script

SCENARIOS = Path(__file__).parent / "scenarios"
PLAYERS = ["Anna", "Boris", "Clara", "Dmitri"]
# what every cached answer is kept by besides the declared reads (Legality.board_bucket);
# memo holds facts derived from these during one legal call
BOARD = frozenset({"owner", "level", "mortgaged", "pending", "memo"})
SEEDS = (1, 2)
COMMANDS = 260  # per seed


class Recording:
    """A State that notes the name of each field read through it (State's methods run on it too)."""

    def __init__(self, state: State, seen: set[str]) -> None:
        self.__dict__["_state"] = state
        self.__dict__["_seen"] = seen

    def __getattr__(self, name: str) -> object:
        method = getattr(State, name, None)
        if isinstance(method, types.FunctionType):  # cash, plots_of, ...: their reads count too
            return types.MethodType(method, self)
        self._seen.add(name)
        return getattr(self._state, name)

    def __setattr__(self, name: str, value: object) -> None:
        setattr(self._state, name, value)


def scenario_states(edition: str):
    """(rules, every state) of each hand-written scenario of the edition (mortgages, auctions, debts ...)."""
    out = []
    for path in sorted((SCENARIOS / edition).glob("*.game")):
        table = run_script(path.read_text(encoding="utf-8"), str(path))
        try:
            events = table.game.events
            game = Game.replay(table.rules, events[:1])
            states = []
            for stored in events[1:]:
                game.replay_onto([stored])
                states.append(game.state)
            out.append((table.rules, states))
        finally:
            table.close()
    return out


def game_states(edition: str, every: int = 2):
    """(rules, states) groups: seeded autoplay (every `every`-th state), then the scenarios."""
    return [autoplay_states(edition, every), *scenario_states(edition)]


def autoplay_states(edition: str, every: int = 2):
    rules = rules_for(load_edition(edition))
    states = []
    for seed in SEEDS:
        rng = random.Random(seed)
        game = Game.start(rules, seed, PLAYERS)
        for i in range(COMMANDS):
            if game.state.phase == "over":
                break
            line, _ = next_command(game, rng)
            if line is None:
                break
            game.apply(line)
            if i % every == 0:
                states.append(game.state)
    return rules, states


# the verb each plot check serves: an edition without the verb (no mortgages in Mad Millionaire) never asks it
CHECK_VERBS = {
    "build_terms": "build",
    "redeem_terms": "redeem",
    "check_sell_building": "sell_building",
    "check_mortgage": "mortgage",
    "tradable": "trade",
}


def cached_checks(rules):
    """(name, declared reads, run(state, players) -> answers) of every check the caches keep answers of."""
    out = []
    for name, reads in rules.PLOT_CHECK_READS.items():
        if CHECK_VERBS.get(name, "") and CHECK_VERBS[name] not in rules.COMMANDS:
            continue
        check = getattr(rules, name)
        holder = name == "tradable"  # tradable(s, holder, cell), the holder part of the key; the others (s, cell)

        def run(s, players, check=check, holder=holder):
            answers = []
            for cell in rules.edition.plots.values():
                for args in [(p, cell) for p in players] if holder else [(cell,)]:
                    try:
                        answers.append(check(s, *args))
                    except (RuleViolation, BadCommand) as e:
                        answers.append(e.code)
            return answers

        out.append((name, reads, run))
    for verb, reads in rules.LEGAL_READS.items():
        if verb not in rules.COMMANDS:
            continue  # legal() asks only the edition's own verbs
        legal = getattr(rules, "legal_" + verb)
        out.append((f"legal_{verb}", reads, lambda s, players, legal=legal: legal(s)))
    return out


def fresh(rules, state: State) -> State:
    """A copy of state with no derived facts: the check computes everything from the fields."""
    rules.__dict__.pop("_board_cache", None)
    s = state.copy()
    s.memo = None
    return s


@pytest.mark.parametrize("edition", shipped())
def test_cached_checks_read_only_what_they_declare(edition):
    groups = game_states(edition)
    assert sum(len(states) for _, states in groups) > 100
    undeclared: dict[tuple[str, str], int] = {}
    for rules, states in groups:
        for state in states:
            for name, reads, run in cached_checks(rules):
                seen: set[str] = set()
                run(Recording(fresh(rules, state), seen), state.alive)
                for field in seen - BOARD - set(reads):
                    undeclared[(name, field)] = undeclared.get((name, field), 0) + 1
    assert not undeclared, "\n".join(
        f"{edition}: {name} reads State.{field} ({n} states) but its PLOT_CHECK_READS / LEGAL_READS "
        f"entry does not name it: add it there, or the cache answers from an older state"
        for (name, field), n in sorted(undeclared.items())
    )


@pytest.mark.parametrize("edition", shipped())
def test_neutral_decisions_change_no_cached_answer(edition):
    """The open decisions the board's key leaves out (BOARD_NEUTRAL_PENDINGS) change no cached answer."""
    for rules, states in game_states(edition, every=1):
        for state in states:
            if state.pending is None or state.pending.kind not in rules.BOARD_NEUTRAL_PENDINGS:
                continue
            for name, reads, run in cached_checks(rules):
                if "pending" in reads:
                    continue  # keyed by the decision itself
                without = fresh(rules, state)
                without.pending = None
                assert run(fresh(rules, state), state.alive) == run(without, state.alive), (
                    f"{edition}: {name} answers differently with the {state.pending.kind} decision open"
                )
