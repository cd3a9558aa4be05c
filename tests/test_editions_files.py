"""Shipped edition files (companion/editions/*.toml): each loads and validates, restores
from the copy stored in a ledger, and plays a whole autoplay game to a winner (last
player standing) or to a wealth count (the timed game) without stalling."""

import pytest
from helpers import new, play_checked, run

from companion.bots.autoplay import play
from companion.editions import HERE, load_edition, parse_edition, rules_for, shipped
from companion.engine.rulesets import RULESETS
from companion.errors import EditionError

EDITIONS = shipped()
NAMES = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor"]
MAX_EVENTS = 1500


def test_there_are_shipped_editions():
    assert "elite" in EDITIONS


@pytest.mark.parametrize("edition", EDITIONS)
def test_edition_file_loads_and_is_consistent(edition):
    ed = load_edition(edition)
    assert ed.id == edition, "an edition's id is its file name"
    assert ed.rules in RULESETS
    assert ed.text == (HERE / f"{edition}.toml").read_text(encoding="utf-8")
    assert ed.cells[0].kind == "start"
    assert 1 <= ed.players_min <= ed.players_max <= 8 and ed.start_cash > 0
    for pid, cell in ed.plots.items():
        assert cell.industry in ed.industries and cell.price > 0, pid
        assert 0 <= cell.mortgage <= cell.price, pid
    for ind in ed.industries:
        assert ed.industry_plots(ind), f"industry {ind} has no plots"
    for cell in ed.cells:
        if cell.deck is not None:
            assert ed.decks[cell.deck], cell.id


@pytest.mark.parametrize("edition", EDITIONS)
def test_edition_restores_from_the_copy_a_ledger_keeps(edition):
    """open_game rebuilds the edition from the stored text: it must be the same edition."""
    ed = load_edition(edition)
    again = parse_edition(ed.text, "stored edition")
    assert again.cells == ed.cells and again.options == ed.options and again.cards == ed.cards
    assert again.supply == ed.supply and again.buildings == ed.buildings


def test_every_rules_module_has_a_shipped_edition():
    used = {load_edition(name).rules for name in EDITIONS}
    assert set(RULESETS) <= used, f"rules modules without an edition file: {sorted(set(RULESETS) - used)}"


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("edition", EDITIONS)
def test_autoplay_game_ends_with_a_winner(edition, seed):
    """A seeded autoplay game either ends with the last player standing (bankruptcy
    rules) or, after MAX_EVENTS events, with a wealth count; it never stalls (every
    pending decision has a command the autoplayer finds)."""
    rules = rules_for(load_edition(edition))
    ed = rules.edition
    players = NAMES[: max(ed.players_min, min(4, ed.players_max))]
    # over with a winner (a stall fails here, naming the pending decision), books and replay checked
    game = play_checked(rules, seed, players, max_events=MAX_EVENTS)
    ended_early = game.state.phase == "over" and game.events[-1].command != "end_game"
    assert ended_early or len(game.events) >= MAX_EVENTS, (
        f"seed {seed}: the autoplayer found no command after event {len(game.events)} "
        f"({game.events[-1].command}); pending {game.state.pending}, debts {game.state.debts}"
    )
    s = game.state
    last = game.events[-1]
    assert s.phase == "over" and s.winner
    assert set(s.winner.split(",")) <= set(s.alive)
    codes = [n.code for n in last.notes]
    if last.command == "end_game":
        assert "wealth_count" in codes and "winner" in codes
    else:
        assert len(s.alive) == 1 or "winner" in codes


def test_play_counts_wealth_even_when_time_runs_out_during_a_debt():
    """Elite: Anna buys leisure3 (rent 6); Boris, with no cash left, lands there and owes 6.
    The time is up at that moment: play() must still end the game with a wealth count."""
    rules = rules_for(load_edition("elite"))
    game = new(rules)
    run(game, "roll 1 2", "buy", "end", "pay Boris Anna 2000", "roll 1 2")
    assert [(d.debtor, d.amount) for d in game.state.debts] == [("Boris", 6)]
    play(game.apply, game, 1, max_events=len(game.events))
    assert game.state.phase == "over" and game.state.winner


@pytest.mark.parametrize(
    "old, new, key",
    [
        (
            'effects = [{ do = "share_price", points = 3 }]',
            'effects = [{ do = "pay", amount = 50 }]',
            "decks.fortune.f25",
        ),
        (
            'effects = [{ do = "receive", amount = 100 }]',
            'effects = [{ do = "receive", amount = "100" }]',
            "decks.chance[0].effects[0].amount",
        ),
        ("rent_by_count = [30, 100, 200, 500]", "rent_by_count = [30, 100, 200]", "industries.central.rent_by_count"),
    ],
)
def test_an_edition_that_would_fail_mid_game_is_refused_on_load(old, new, key):
    """A FORTUNE card with a personal effect, an amount written as text, a count table
    shorter than its industry: each is named when the file loads, not when the card is drawn."""
    text = (HERE / "elite.toml").read_text(encoding="utf-8")
    assert old in text
    with pytest.raises(EditionError) as info:
        parse_edition(text.replace(old, new, 1), "edited.toml")
    assert info.value.key == key
