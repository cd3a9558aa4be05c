"""Trade offers between players (docs/actors.md), the issue's third point: "Trade proposals:
accept, decline (reject), withdraw, lapse, each a test; undo of each."

A player's own `trade A B give ... get ...` (A themselves) moves nothing: it is offer N,
which B accepts (the trade happens then) or rejects, and A may withdraw; the table may
answer for either side. An offer lapses when either side's holdings change or the turn
ends, and a proposer's new offer replaces their open one. The table's own `trade` still
happens at once. `undo N` (the table's) of any of these gives back the holdings and the
open offers as they were before event N.

The games are Classic (Millionaire) with `land` reports at any distance, so each player
gets a plot in three lines: Anna leisure2 (price 60), Boris food2 (100), Vera tele2
(140); then it is Anna's turn again, before her roll, with Anna 1940, Boris 1900, Vera 1860
(the first test checks those prices against the shipped file).
"""

import pytest

from companion.editions import load_edition, rules_for
from companion.engine.actions import TABLE
from companion.engine.game import Game
from companion.errors import RuleViolation
from companion.table.service import new_game, open_game
from companion.words.messages import render

PLAYERS = ["Anna", "Boris", "Vera"]
OPTIONS = {"land_checks_distance": False}
DEAL = ("land leisure2", "buy", "end", "land food2", "buy", "end", "land tele2", "buy", "end")
OFFER = "trade Anna Boris give leisure2 get 50"  # Anna's leisure2 for 50 of Boris's cash


@pytest.fixture
def game():
    g = Game.start(rules_for(load_edition("classic", OPTIONS)), 1, PLAYERS)
    for line in DEAL:
        g.apply(line)
    return g


def cash(game):
    return {p: game.state.cash(p) for p in PLAYERS}


def owners(game):
    return dict(game.state.owner)


def offers(game):
    """The open offers as a player's phone shows them: number, proposer, other side, terms."""
    return [(o.number, o.proposer, o.other, " ".join(o.terms)) for o in game.state.extra.get("offers", ())]


def codes(event):
    return [n.code for n in event.notes]


def refused(game, line, actor):
    """The refusal of line from actor; nothing may change."""
    before = (len(game.events), game.state.signature())
    with pytest.raises(RuleViolation) as err:
        game.apply(line, actor)
    assert (len(game.events), game.state.signature()) == before
    return err.value


def test_the_deal_gives_each_player_a_plot(game):
    """The fixture itself: what every test below starts from (2000 less the file's prices)."""
    plots = {"leisure2": "Anna", "food2": "Boris", "tele2": "Vera"}
    assert owners(game) == plots
    prices = {p: game.rules.edition.cell(pid).price for pid, p in plots.items()}
    assert cash(game) == {p: 2000 - prices[p] for p in PLAYERS} == {"Anna": 1940, "Boris": 1900, "Vera": 1860}
    assert game.state.turn == "Anna" and offers(game) == []


def test_a_players_trade_is_an_offer_and_nothing_moves(game):
    """Anna's own trade is offer 1 to Boris: no money or plot moves, the event is hers, and
    its note says what she would give and get (leisure2 for 50)."""
    event = game.apply(OFFER, "Anna")
    assert event.actor == "Anna" and event.postings == ()
    assert event.notes[0].code == "offer_made"
    assert event.notes[0].params == {
        "number": 11,
        "player": "Anna",
        "other": "Boris",
        "gave": ["leisure2"],
        "got": [50],
    }
    name_en = game.rules.edition.cell("leisure2").names["en"]  # the plot's English name, Karaoke
    assert (
        render("offer_made", event.notes[0].params, "en", game.rules.edition)
        == f"Trade offer 11: Anna offers Boris {name_en} for 50"
    )
    assert owners(game)["leisure2"] == "Anna" and cash(game) == {"Anna": 1940, "Boris": 1900, "Vera": 1860}
    assert offers(game) == [(11, "Anna", "Boris", "give leisure2 get 50")]


def test_a_player_may_not_offer_another_players_goods(game):
    """Boris may not put forward a trade in Anna's name (for_yourself, naming Anna); Anna may not
    offer Boris's food2 as hers, nor more cash than she has: nothing is offered."""
    err = refused(game, OFFER, "Boris")
    assert (err.code, err.params["player"]) == ("for_yourself", "Anna")
    assert refused(game, "trade Anna Boris give food2 get 50", "Anna").code == "not_owner"
    assert refused(game, "trade Anna Boris give 1941 get food2", "Anna").code == "insufficient_funds"
    assert offers(game) == []


def test_accept_the_other_side_takes_the_offer_and_the_trade_happens(game):
    """Only Boris may accept (Anna and Vera are told it is Boris's); then leisure2 is his and 50
    of his cash is Anna's, offer 1 is gone and cannot be accepted twice."""
    game.apply(OFFER, "Anna")
    for player in ("Anna", "Vera"):
        err = refused(game, "accept 11", player)
        assert (err.code, err.params["player"]) == ("not_yours", "Boris")
    event = game.apply("accept 11", "Boris")
    assert codes(event) == ["offer_accepted", "traded"] and event.actor == "Boris"
    assert owners(game)["leisure2"] == "Boris"
    assert cash(game) == {"Anna": 1990, "Boris": 1850, "Vera": 1860}
    assert offers(game) == []
    assert refused(game, "accept 11", "Boris").code == "no_such_offer"


def test_accept_by_the_table_for_the_other_side(game):
    """The table may answer an offer (a player without a phone): the same trade happens."""
    game.apply(OFFER, "Anna")
    game.apply("accept 11", TABLE)
    assert owners(game)["leisure2"] == "Boris" and cash(game)["Anna"] == 1990 and offers(game) == []


def test_reject_the_other_side_declines_and_nothing_moves(game):
    """Boris rejects offer 1 (Anna may not reject her own: it is Boris's to answer): no money
    or plot moves, the offer is gone, and accepting it afterwards is refused."""
    game.apply(OFFER, "Anna")
    err = refused(game, "reject 11", "Anna")
    assert (err.code, err.params["player"]) == ("not_yours", "Boris")
    event = game.apply("reject 11", "Boris")
    assert codes(event) == ["offer_rejected"] and event.postings == ()
    assert owners(game)["leisure2"] == "Anna" and cash(game) == {"Anna": 1940, "Boris": 1900, "Vera": 1860}
    assert offers(game) == []
    assert refused(game, "accept 11", "Boris").code == "no_such_offer"


def test_withdraw_the_proposer_takes_the_offer_back(game):
    """Only Anna may withdraw her offer (Boris is told it is Anna's); afterwards Boris can no
    longer accept it and nothing has moved."""
    game.apply(OFFER, "Anna")
    err = refused(game, "withdraw 11", "Boris")
    assert (err.code, err.params["player"]) == ("not_yours", "Anna")
    event = game.apply("withdraw 11", "Anna")
    assert codes(event) == ["offer_withdrawn"] and event.postings == ()
    assert offers(game) == []
    assert refused(game, "accept 11", "Boris").code == "no_such_offer"
    assert owners(game)["leisure2"] == "Anna" and cash(game)["Boris"] == 1900


@pytest.mark.parametrize(
    "change, actor",
    [
        ("pay Anna Vera 10", TABLE),  # the proposer's cash
        ("pay Vera Boris 10", "Vera"),  # the other side's cash, paid by a third player
        ("mortgage food2", "Boris"),  # the other side's plot (and cash)
        ("mortgage leisure2", "Anna"),  # the very plot on offer
    ],
)
def test_lapse_when_either_sides_holdings_change(game, change, actor):
    """Offer 1 was made on Anna's and Boris's holdings as they stood; once either side's cash
    or plots change the offer lapses (offer_lapsed, reason holdings) and accepting it is
    refused: Boris cannot take a deal Anna never made on these terms."""
    game.apply(OFFER, "Anna")
    event = game.apply(change, actor)
    lapsed = [n.params for n in event.notes if n.code == "offer_lapsed"]
    assert lapsed == [{"number": 11, "player": "Anna", "other": "Boris", "reason": "holdings"}]
    assert offers(game) == []
    assert refused(game, "accept 11", "Boris").code == "no_such_offer"
    assert owners(game)["leisure2"] == "Anna"


def test_a_third_players_change_does_not_lapse_an_offer(game):
    """Vera mortgaging her own plot changes neither side: offer 1 stays open and Boris can
    still accept it."""
    game.apply(OFFER, "Anna")
    event = game.apply("mortgage tele2", "Vera")
    assert "offer_lapsed" not in codes(event)
    assert offers(game) == [(11, "Anna", "Boris", "give leisure2 get 50")]
    game.apply("accept 11", "Boris")
    assert owners(game)["leisure2"] == "Boris"


def test_lapse_when_the_turn_ends(game):
    """Boris offers Vera food2 for 120 during Anna's turn; when Anna's turn ends every open
    offer lapses (reason turn), and Vera can no longer accept it."""
    game.apply("trade Boris Vera give food2 get 120", "Boris")
    game.apply("land inspection")  # the table reports Anna's move: neither side
    assert offers(game) == [(11, "Boris", "Vera", "give food2 get 120")]
    event = game.apply("end", "Anna")
    lapsed = [n.params for n in event.notes if n.code == "offer_lapsed"]
    assert lapsed == [{"number": 11, "player": "Boris", "other": "Vera", "reason": "turn"}]
    assert offers(game) == [] and game.state.turn == "Boris"
    assert refused(game, "accept 11", "Vera").code == "no_such_offer"
    assert owners(game)["food2"] == "Boris"


def test_a_new_offer_replaces_the_proposers_open_one(game):
    """One open offer per proposer: Anna's second offer (to Vera) replaces her first (to Boris,
    which lapses as replaced); Boris's own offer to Vera stands beside it. An offer is named by
    the number of the event that made it (#11, #12, #13)."""
    game.apply(OFFER, "Anna")
    event = game.apply("trade Anna Vera give leisure2 get 70", "Anna")
    assert [n.params for n in event.notes if n.code == "offer_lapsed"] == [
        {"number": 11, "player": "Anna", "other": "Boris", "reason": "replaced"}
    ]
    game.apply("trade Boris Vera give food2 get 120", "Boris")
    assert offers(game) == [(12, "Anna", "Vera", "give leisure2 get 70"), (13, "Boris", "Vera", "give food2 get 120")]
    assert refused(game, "accept 11", "Boris").code == "no_such_offer"
    game.apply("accept 12", "Vera")
    assert owners(game)["leisure2"] == "Vera" and cash(game)["Anna"] == 2010


def test_the_tables_trade_happens_at_once(game):
    """The table's `trade` is the trade itself, as before offers existed: no offer is made."""
    event = game.apply(OFFER, TABLE)
    assert codes(event) == ["traded"]
    assert owners(game)["leisure2"] == "Boris" and cash(game)["Anna"] == 1990 and offers(game) == []


# ----- undo of each (docs/undo.md): the table's `undo N` gives back what was before event N ------


def undo_case(game, case):
    """Play one case; returns (event number to undo, what the phones showed before it)."""
    if case == "propose":
        before = (owners(game), cash(game), offers(game))
        n = game.apply(OFFER, "Anna").seq
        return n, before
    if case == "turn end":
        game.apply("trade Boris Vera give food2 get 120", "Boris")
        game.apply("land inspection")
    else:
        game.apply(OFFER, "Anna")
    before = (owners(game), cash(game), offers(game))
    line, actor = {
        "accept": ("accept 11", "Boris"),
        "reject": ("reject 11", "Boris"),
        "withdraw": ("withdraw 11", "Anna"),
        "lapse": ("pay Anna Vera 10", TABLE),
        "turn end": ("end", "Anna"),
    }[case]
    return game.apply(line, actor).seq, before


@pytest.mark.parametrize("case", ["propose", "accept", "reject", "withdraw", "lapse", "turn end"])
def test_undo_gives_back_the_holdings_and_the_offers(game, case):
    """`undo N` of a proposal, an acceptance, a rejection, a withdrawal, a lapse by a payment
    and a lapse at the turn's end: plots, cash and the open offers are as before event N, and
    the offer can be answered again (or, for an undone proposal, no longer)."""
    n, before = undo_case(game, case)
    event = game.apply(f"undo {n}")
    assert event.reverses == n
    assert (owners(game), cash(game), offers(game)) == before
    if case == "propose":
        assert refused(game, "accept 11", "Boris").code == "no_such_offer"
    elif case == "turn end":
        assert game.state.turn == "Anna"
        game.apply("accept 11", "Vera")
        assert owners(game)["food2"] == "Vera"
    else:
        game.apply("accept 11", "Boris")
        assert owners(game)["leisure2"] == "Boris"


def test_undo_of_an_offer_is_the_tables_alone(game):
    """Anna may not undo her own proposal; only the table may (docs/actors.md)."""
    n = game.apply(OFFER, "Anna").seq
    assert refused(game, f"undo {n}", "Anna").code == "table_only"
    assert offers(game) == [(11, "Anna", "Boris", "give leisure2 get 50")]


def test_offers_through_the_table_service(tmp_path):
    """The same through companion.table.service, as the phones use it: actors are named in any case and
    stored with each event; an open offer survives closing and reopening the bank (replay), is
    accepted after it, and the table's `undo` of the acceptance gives leisure2 back to Anna."""
    path = str(tmp_path / "game.sqlite")
    table = new_game(path, "classic", PLAYERS, 1, options=OPTIONS)
    for line in DEAL:
        table.submit(line)
    table.submit(OFFER, actor="anna")
    table.close()
    table = open_game(path)
    assert [(o.number, o.proposer, o.other) for o in table.state.extra["offers"]] == [(11, "Anna", "Boris")]
    with pytest.raises(RuleViolation):
        table.submit("accept 11", actor="Vera")
    accepted = table.submit("accept 11", actor="BORIS")
    assert table.state.owner["leisure2"] == "Boris" and table.state.cash("Anna") == 1990
    assert [r.actor for r in table.stored_events()][-2:] == ["Anna", "Boris"]
    table.submit(f"undo {accepted.seq}")
    assert table.state.owner["leisure2"] == "Anna" and table.state.cash("Anna") == 1940
    assert [o.number for o in table.state.extra["offers"]] == [11]
    table.close()


def test_an_offer_number_is_never_given_twice_even_after_undo(game):
    """An offer is named by the event that made it: after `undo` of offer 11 (get 150) and a new
    offer from Anna (get 1), the new one is 13, so Boris's `accept 11`, meant for the undone
    offer, cannot take the other one."""
    game.apply("trade Anna Boris give leisure2 get 150", "Anna")
    game.apply("undo 11")
    event = game.apply("trade Anna Boris give leisure2 get 1", "Anna")
    assert event.seq == 13 and offers(game) == [(13, "Anna", "Boris", "give leisure2 get 1")]
    assert refused(game, "accept 11", "Boris").code == "no_such_offer"
    game.apply("accept 13", "Boris")
    assert owners(game)["leisure2"] == "Boris" and cash(game)["Anna"] == 1941
