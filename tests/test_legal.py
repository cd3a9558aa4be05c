"""`Rules.legal` against `Rules.apply` (companion/engine/actions.py, docs/actors.md).

The issue's second point: "property tests over seeded games of every edition: every
command legal lists is accepted; a generator of candidate lines that shares no code with
legal finds no accepted command that legal does not list; bounds hold at the edges."

The states are tests/candidates.py's samples: seeded autoplay games of every shipped
edition, taken evenly and at every kind of moment (open decisions, debts, doubles,
detention, the edition's chances), plus states with players' trade offers open. The
menus on the box and the phones offer exactly what legal lists, so:

- sound: every command a listed action covers is accepted, by the table and by the
  action's party, and refused to every other player (what a phone offers works, and
  only on the phone of the player it belongs to);
- exact at the edges: one below a Span's low end and one above its high end are refused
  (unless another listed action covers that command);
- complete: no line of the independent generator that apply accepts (from the table or
  from a player) is missing from legal's list for that actor, and none it lists is refused.

Mismatches are collected with a reproducible state (edition, seed, event, command, actor,
what legal said) in /tmp/legal_mismatches.md and fail the test at its end.
"""

import random

import pytest
from candidates import EDITIONS, Crash, Findings, accepts, rules_of, said_for, samples, tried

from companion.engine.actions import TABLE, OneOf, Span, Terms, listed
from companion.engine.command import Command
from companion.errors import BadCommand

MORE_WORDS = 12  # a OneOf with more words is tried on this many (both ends and a random few)


def values(slot, rng):
    """The words tried for one slot, the lowest first: a Span's low, high and a middle value."""
    if isinstance(slot, str):
        return [slot]
    if isinstance(slot, Span):
        return [
            str(v) for v in sorted({slot.low, slot.high, (slot.low + slot.high) // 2, rng.randint(slot.low, slot.high)})
        ]
    if isinstance(slot, OneOf):
        words = list(slot.words)
        if len(words) <= MORE_WORDS:
            return words
        return [words[0], words[-1], *rng.sample(words[1:-1], MORE_WORDS - 2)]
    raise AssertionError(f"unknown slot {slot!r}")


def terms_words(terms, rng, count=3):
    """`give ... get ...` word lists a Terms allows: a plot alone, a card alone, each end of the
    cash alone, and random mixtures (cash on one side at most)."""
    out = []
    for key, side in (("give", terms.give), ("get", terms.get)):
        for items in (side.plots, side.cards):
            if items:
                out.append((key, rng.choice(items)))
        if side.cash is not None:
            out.append((key, str(side.cash.low)))
            out.append((key, str(side.cash.high)))
    for _ in range(count):
        give = rng.sample(
            [*terms.give.plots, *terms.give.cards], rng.randint(0, len(terms.give.plots) + len(terms.give.cards))
        )
        get = rng.sample(
            [*terms.get.plots, *terms.get.cards], rng.randint(0, len(terms.get.plots) + len(terms.get.cards))
        )
        cash = [(k, c) for k, c in (("give", terms.give.cash), ("get", terms.get.cash)) if c is not None]
        if cash and rng.random() < 0.6:
            key, span = rng.choice(cash)
            (give if key == "give" else get).append(str(rng.randint(span.low, span.high)))
        if give or get:
            out.append(("give", *give, "get", *get))
    return out


def instances(action, rng, cap=10):
    """Concrete commands the action covers: all slots at their lowest, each slot through its
    values with the others lowest (so a Budget holds), then random mixtures; a Terms slot with
    several of its word lists."""
    slots = list(action.args)
    terms = slots.pop() if slots and isinstance(slots[-1], Terms) else None
    pools = [values(slot, rng) for slot in slots]
    lowest = [pool[0] for pool in pools]
    combos = [tuple(lowest)]
    for i, pool in enumerate(pools):
        combos += [tuple(lowest[:i] + [v] + lowest[i + 1 :]) for v in pool[1:]]
    for _ in range(3):
        combos.append(tuple(rng.choice(pool) for pool in pools))
    combos = list(dict.fromkeys(combos))
    if terms is not None:
        tails = terms_words(terms, rng)
        combos = [c + tail for c in combos[:2] for tail in tails]
    out = []
    for combo in combos:
        try:
            out.append(Command(action.verb, combo))
        except BadCommand:  # past the line limit (MAX_LINE): not a command
            continue
    covered = [cmd for cmd in out if action.matches(cmd)]
    if len(covered) > cap and terms is None:
        covered = covered[: 1 + len(pools) * 2] + rng.sample(
            covered[1 + len(pools) * 2 :], max(0, cap - 1 - len(pools) * 2)
        )
    return covered


def edges(action):
    """(command, what) just outside each Span of the action, the other slots at their lowest."""
    slots = list(action.args)
    terms = slots.pop() if slots and isinstance(slots[-1], Terms) else None
    lowest = [s if isinstance(s, str) else (str(s.low) if isinstance(s, Span) else s.words[0]) for s in slots]
    out = []
    for i, slot in enumerate(slots):
        if isinstance(slot, Span):
            for v, what in ((slot.low - 1, "below"), (slot.high + 1, "above")):
                if v >= 0:
                    args = lowest[:i] + [str(v)] + lowest[i + 1 :]
                    out.append((Command(action.verb, tuple(args)), f"{what} {slot.what} {slot.text()}"))
    if terms is not None:
        for key, side in (("give", terms.give), ("get", terms.get)):
            if side.cash is not None:
                for v, what in ((side.cash.low - 1, "below"), (side.cash.high + 1, "above")):
                    if v >= 0:
                        out.append(
                            (Command(action.verb, (*lowest, key, str(v))), f"{what} the {key} cash {side.cash.text()}")
                        )
    return out


def legal_of(rules, s, actor=TABLE):
    return rules.legal(s, actor)


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_command_legal_lists_is_accepted(edition):
    """Sound: each listed action's commands (Span low, high and middle; every OneOf word or a
    dozen; several of a trade's item choices) are accepted from the table and from the action's
    party, and refused to another player (to any player, for a TABLE action) unless legal lists
    it for that player too."""
    rules = rules_of(edition)
    found = Findings(f"legal: a listed command that apply refuses ({edition})")
    tried_count = 0
    for sample in samples(edition):
        s = sample.state
        rng = random.Random("sound " + sample.where())
        lists = {actor: legal_of(rules, s, actor) for actor in (TABLE, *s.players)}
        actions = lists[TABLE]
        for action in actions:
            # a trade's choice whose line passes MAX_LINE characters is no command at all: Terms
            # covers the choices within the line (engine/actions.py), so only those are tried
            for cmd in instances(action, rng):
                tried_count += 1
                # the table, the party, and another player (every player: tests/test_actors.py)
                others = [p for p in s.players if p != action.party]
                for actor in {TABLE, action.party, rng.choice(others)}:
                    should = actor in (TABLE, action.party) or listed(lists[actor], cmd)
                    try:
                        ok = accepts(rules, s, cmd, actor) is not None
                    except Crash as exc:
                        found.add("apply crashed on a listed command", sample, cmd, actor, str(exc))
                        continue
                    if should and not ok:
                        found.add(
                            f"listed for {action.party} but refused", sample, cmd, actor, said_for(actions, cmd.verb)
                        )
                    elif ok and not should:
                        found.add(
                            f"listed as {action.party}'s but also accepted for this player",
                            sample,
                            cmd,
                            actor,
                            said_for(actions, cmd.verb),
                        )
    found.check()
    assert tried_count > 200, tried_count


@pytest.mark.parametrize("edition", EDITIONS)
def test_bounds_hold_at_the_edges(edition):
    """Exact bounds: one below each Span's low end and one above its high end (the other slots at
    their lowest; a trade's cash alone) are refused from the table and from the party, unless
    another listed action covers that very command."""
    rules = rules_of(edition)
    found = Findings(f"legal: a bound that is not exact ({edition})")
    checked = 0
    for sample in samples(edition):
        s = sample.state
        actions = legal_of(rules, s)
        for action in actions:
            for cmd, what in edges(action):
                if listed(actions, cmd):
                    continue
                checked += 1
                for actor in {TABLE, action.party}:
                    try:
                        ok = accepts(rules, s, cmd, actor) is not None
                    except Crash as exc:
                        found.add("apply crashed at an edge", sample, cmd, actor, str(exc))
                        continue
                    if ok:
                        found.add(f"accepted just {what}", sample, cmd, actor, said_for(actions, cmd.verb))
    found.check()
    assert checked > 20, checked


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_generator_finds_nothing_legal_does_not_list(edition):
    """Complete: every generated line apply accepts from the table is covered by legal(state),
    and every line it accepts from a player by legal(state, player); a line legal lists for an
    actor is accepted from that actor. (The generator, tests/candidates.py, is written from the
    edition's data and the state and calls no legal code.)"""
    rules = rules_of(edition)
    found = Findings(f"legal: apply and legal disagree on a generated line ({edition})")
    accepted = set()
    for sample, verdicts in tried(edition):
        s = sample.state
        rng = random.Random("complete " + sample.where())
        lists = {actor: legal_of(rules, s, actor) for actor in (TABLE, *s.players)}
        for t in verdicts:
            if t.crash:
                found.add("apply crashed", sample, t.cmd, TABLE, t.crash)
                continue
            if t.accepted != listed(lists[TABLE], t.cmd):
                kind = "accepted but not listed" if t.accepted else "listed but refused"
                found.add(kind, sample, t.cmd, TABLE, said_for(lists[TABLE], t.cmd.verb))
            if t.accepted:
                accepted.add(t.cmd.verb)
            # every line the table may issue, and one in eight of the others, from each player too
            if not (t.accepted or rng.random() < 0.125):
                continue
            for p in s.players:
                try:
                    ok = accepts(rules, s, t.cmd, p) is not None
                except Crash as exc:
                    found.add("apply crashed", sample, t.cmd, p, str(exc))
                    continue
                if ok != listed(lists[p], t.cmd):
                    kind = "accepted but not listed" if ok else "listed but refused"
                    found.add(f"{kind} for the player", sample, t.cmd, p, said_for(lists[p], t.cmd.verb))
    found.check()
    # the generator reached the everyday verbs of the edition, and the trade offers' answers
    everyday = {"roll", "end", "end_game"} | (
        {"pay", "trade", "accept", "reject", "withdraw", "mortgage", "draw", "buy", "decline"}
        if "trade" in rules.COMMANDS
        else set()
    )
    assert everyday <= accepted, everyday - accepted


@pytest.mark.parametrize("edition", EDITIONS)
def test_nothing_is_legal_once_the_game_is_over(edition):
    """A finished game (each sampled game ends with a winner): legal lists nothing for anyone,
    and apply refuses every generated line."""
    rules = rules_of(edition)
    over = [(sample, verdicts) for sample, verdicts in tried(edition) if sample.state.phase == "over"]
    assert over
    for sample, verdicts in over:
        for actor in (TABLE, *sample.state.players):
            assert legal_of(rules, sample.state, actor) == [], sample.where()
        assert not any(t.accepted for t in verdicts), sample.where()


def test_the_instance_builder_honours_every_slot():
    """The soundness test's own helper: every instance an action yields is covered by it, both
    ends of each Span are among them, and a slot's edges are not covered (a check of the test,
    so a weak instance builder cannot hide a mismatch)."""
    from companion.engine.actions import Action, Side

    rng = random.Random(1)
    bid = Action("bid", ("Anna", Span(51, 300)), "Anna")
    words = {cmd.args[1] for cmd in instances(bid, rng)}
    assert {"51", "300"} <= words and all(51 <= int(w) <= 300 for w in words)
    assert [c.args[1] for c, _ in edges(bid)] == ["50", "301"]
    assert not any(bid.matches(c) for c, _ in edges(bid))
    trade = Action(
        "trade", ("Anna", "Boris", Terms(Side(("p1", "p2"), (), Span(1, 90)), Side(("p3",), ("c1",), None))), "Anna"
    )
    made = instances(trade, rng)
    assert made and all(trade.matches(c) for c in made)
    assert any("90" in c.args for c in made) and any("c1" in c.args for c in made)
    assert [c.args[2:] for c, _ in edges(trade)] == [("give", "0"), ("give", "91")]
    draw = Action("draw", (OneOf(tuple(f"c{i}" for i in range(30))),))
    assert len(instances(draw, rng, cap=100)) == MORE_WORDS


def test_legal_for_a_few_verbs_is_the_full_list_cut_to_them():
    """The reader asks only about the verbs a card or ROLL can mean; the answer must be the same
    actions, in the same order, as the full list holds for them."""
    import random as _random

    from companion.bots.autoplay import next_command
    from companion.editions import load_edition, rules_for
    from companion.engine.game import Game

    for edition in ("elite", "monopoly", "madmillionaire"):
        rules = rules_for(load_edition(edition))
        game = Game.start(rules, 4, ["Anna", "Boris", "Vera"])
        rng = _random.Random(4)
        for _ in range(120):
            for verbs in (("end", "buy", "draw"), tuple(rules.DICE_VERBS)):
                full = [a for a in rules.legal(game.state) if a.verb in verbs]
                assert rules.legal(game.state, verbs=verbs) == full
            line, _ = next_command(game, rng)
            if line is None:
                break
            game.apply(line)
