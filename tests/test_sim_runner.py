"""The simulator's games: exactly reproducible from the seed whatever the number of jobs, every
command one the rules listed for its actor and applied once, believable lengths, the round cap."""

import pytest

from companion.bots.strategies import NAMES, strategy
from companion.editions import load_edition, rules_for, shipped
from companion.engine.actions import TABLE, listed
from companion.engine.command import parse_command, split_actor
from companion.engine.game import Game
from companion.sim.runner import Study, play_game, play_many


def test_the_same_seed_gives_the_same_game_byte_for_byte():
    a = play_game("monopoly", seed=11)
    b = play_game("monopoly", seed=11)
    assert a.canonical() == b.canonical()
    assert play_game("monopoly", seed=12).canonical() != a.canonical()


def test_one_job_and_two_jobs_give_identical_records_in_seed_order():
    study = Study("classic", games=4, seed=3, round_cap=80)
    one = play_many(study, jobs=1)
    two = play_many(study, jobs=2)
    assert [r.seed for r in two] == [3, 4, 5, 6]
    assert [r.canonical() for r in one] == [r.canonical() for r in two]


@pytest.mark.parametrize("edition", shipped())
def test_every_command_was_listed_for_its_actor_and_applied_once(edition):
    record = play_game(edition, seed=2, round_cap=40)
    rules = rules_for(load_edition(edition))
    _, seed, players = Game.parse_start(record.lines[0])
    game = Game.start(rules, seed, players)
    for line in record.lines[1:]:
        name, text = split_actor(line)
        actor = TABLE if name is None else name
        cmd = parse_command(text)
        assert listed(rules.legal(game.state, actor), cmd), f"{line} was not a legal action of {actor}"
        game.apply(cmd, actor)
    # one event a line: nothing applied twice, nothing left out
    assert len(game.events) == len(record.lines) == record.events
    assert game.state.phase == "over"
    assert sorted(game.state.winner.split(",")) == sorted(record.winners)


def test_seats_mix_strategies_round_the_table():
    record = play_game("elite", seed=4, strategies=["cautious", "aggressive"], round_cap=30)
    assert record.strategies == ["cautious", "aggressive", "cautious", "aggressive"]
    with pytest.raises(ValueError):
        strategy(rules_for(load_edition("elite")), "reckless", None)
    assert "generic-balanced" in NAMES


def test_games_run_to_the_end_at_a_believable_length():
    """Bots keep cash back, so nobody goes broke in the first rounds, and most games end with one
    player left well before the cap (a hundred rounds or so, as tables report for Monopoly)."""
    records = play_many(Study("monopoly", games=8, seed=1))
    assert all(r.ended == "finished" for r in records)
    assert all(round_ > 10 for r in records for _, round_ in r.bankrupt)
    mean = sum(r.rounds for r in records) / len(records)
    assert 25 <= mean <= 300


def test_the_round_cap_ends_the_game_with_a_wealth_count():
    record = play_game("elite", seed=1, round_cap=6)
    assert record.ended == "round_cap"
    assert record.rounds == 6
    assert record.lines[-1] == "end_game"
    assert record.winners and set(record.winners) <= set(record.players)


def test_switching_the_invariant_checks_off_changes_no_game():
    on = play_game("deluxe", seed=9, round_cap=50)
    off = play_game("deluxe", seed=9, round_cap=50, invariants=False)
    assert on.canonical() == off.canonical()
