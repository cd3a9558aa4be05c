"""Who may act (docs/actors.md), checked through Rules.apply itself, not the CLI.

The issue's first point: "over seeded games of every edition, no player's command
succeeds for another player, and every table-only command is refused to a player."
The states are seeded autoplay games of every shipped edition (tests/candidates.py: the
table issues every command), sampled along the way, plus states with a player's trade
offer open. At each, candidate lines written from the edition's data are applied by the
table; every line the table may issue is then tried as each player. What a player at
the table would expect, written here from the rulebooks and docs/actors.md rather than
from the engine's WHO table:

- at most one player may issue any command;
- a command naming a player (a bid, a payment, a trade, shares, insurance, going
  bankrupt) is that player's; rolling, ending, paying the fine, the JACKPOT and the
  EXCHANGE throw are the turn's player's; building, selling buildings, mortgaging and
  redeeming a plot are its owner's; answering an open decision (buy or decline, a card,
  a choice, an auction throw) is that decision's player's; accepting or rejecting an
  offer is the other side's, withdrawing it the proposer's;
- the auction host's opening and hammer, a `land` report, the timed end, a shortage
  house auction, and a `draw` (or Mad Millionaire `reveal`) naming a card other than the
  top one are the table's alone: refused to every player as table_only;
- a refused player hears who may (not_yours naming that player);
- `undo` is the table's (Game.propose).
"""

from functools import lru_cache

import candidates
import pytest
from candidates import EDITIONS, Crash, Findings, accepts, rules_of, tried
from helpers import new, teleporting

from companion.editions import load_edition, rules_for
from companion.engine.actions import TABLE
from companion.engine.madmillionaire import MadMillionaireRules
from companion.errors import BadCommand, RuleViolation
from companion.table.service import new_game

TABLE_ONLY = {"opening", "hammer", "land", "end_game", "house_auction"}
NAMED = {
    "bid",
    "pay",
    "trade",
    "bankrupt",
    "buy_shares",
    "sell_shares",
    "commission",
    "insure",
    "use_policy",
    "skip_policy",
    "claim",
}
TURN = {"roll", "end", "pay_fine", "use_card", "jackpot", "exchange"}
OWNER = {"build", "sell_building", "mortgage", "redeem"}
DECISION = {"buy", "decline", "choose", "auction_roll", "rent_roll", "keep_mortgage"}
# Mad Millionaire: what the player does in their own turn (rulebook: 1. ROLL & MOVE, 4. BUY & LEASE,
# ENDING A LEASE, MOVE WITHOUT SELLING, SELLING, ROLLING A SIX)
MM_TURN = {"roll", "move", "buy", "lease", "end_lease", "abandon", "sell", "bonus", "miss", "end"}


def table_only(rules, s, cmd):
    """Whether the rules and docs/actors.md reserve this command for the table."""
    if cmd.verb in TABLE_ONLY:
        return True
    # naming a physical card is the table's; the player draws the deck's next card (docs/actors.md)
    if cmd.verb == "draw" and cmd.args:
        return True
    if cmd.verb == "reveal" and cmd.args and isinstance(rules, MadMillionaireRules):
        return True
    return False


def named(s, word):
    return {p for p in s.alive if p.lower() == word.lower()}


def expected_takers(rules, s, cmd):
    """The players who could rightly issue cmd now (a set; None: no expectation beyond 'one')."""
    verb, args = cmd.verb, cmd.args
    if table_only(rules, s, cmd):
        return set()
    if isinstance(rules, MadMillionaireRules):
        if verb == "claim":
            return named(s, args[0])
        if verb == "reveal":
            return {s.pending.player} - {None} if s.pending is not None else set()
        if verb in MM_TURN:
            return {s.turn}
        return None
    if verb in NAMED:
        return named(s, args[0])
    if verb in TURN:
        return {s.turn}
    if verb in OWNER:
        owner = s.owner.get(args[0])
        return {owner} if owner else set()
    if verb in DECISION or verb == "draw":
        return {s.pending.player} - {None} if s.pending is not None else set()
    if verb in ("accept", "reject", "withdraw"):
        for o in s.extra.get("offers", ()):
            if str(o.number) == args[0]:
                return {o.proposer if verb == "withdraw" else o.other}
        return set()
    return None


@lru_cache(maxsize=None)
def player_verdicts(edition):
    """[(sample, cmd, {player: refusal or None (accepted)})] for every line the table may issue."""
    rules = rules_of(edition)
    out = []
    for sample, verdicts in tried(edition):
        s = sample.state
        for t in verdicts:
            if not t.accepted:
                continue
            answers = {}
            for p in s.players:
                try:
                    answers[p] = (
                        None if accepts(rules, s, t.cmd, p) is not None else candidates.refusal(rules, s, t.cmd, p)
                    )
                except Crash as exc:
                    answers[p] = exc
            out.append((sample, t.cmd, answers))
    return tuple(out)


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_players_command_succeeds_for_another_player(edition):
    """Issue point 1: a command the table may issue is accepted for one player at most, and only
    for the player it belongs to (named, the turn's, the plot's owner, the decision's, the
    offer's side); never for a player out of the game. apply must never crash on a line."""
    rules = rules_of(edition)
    found = Findings(f"actors: a command accepted for the wrong player ({edition})")
    single = 0
    for sample, verdicts in tried(edition):
        for t in verdicts:
            if t.crash:
                found.add("apply crashed", sample, t.cmd, TABLE, t.crash)
    for sample, cmd, answers in player_verdicts(edition):
        s = sample.state
        for p, answer in answers.items():
            if isinstance(answer, Crash):
                found.add("apply crashed", sample, cmd, p, str(answer))
        takers = {p for p, answer in answers.items() if answer is None}
        single += len(takers) == 1
        if len(takers) > 1:
            found.add(
                f"accepted for {len(takers)} players ({', '.join(sorted(takers))})", sample, cmd, sorted(takers)[1]
            )
        for p in takers - set(s.alive):
            found.add("accepted for a player out of the game", sample, cmd, p)
        expected = expected_takers(rules, s, cmd)
        if expected is not None:
            for p in takers - expected:
                found.add(
                    f"accepted for {p}, whose it is not (expected: {sorted(expected) or 'table only'})", sample, cmd, p
                )
    found.check()
    assert single > 50, f"{edition}: only {single} commands were a single player's: the walk is too thin"


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_table_only_command_is_refused_to_every_player(edition):
    """Issue point 1: opening, hammer, land, end_game, house_auction, and a draw (or a Mad
    Millionaire reveal) naming a card other than the top one: when the table may issue one,
    every player is refused it with table_only (nothing changes for them)."""
    rules = rules_of(edition)
    found = Findings(f"actors: a table-only command accepted for a player ({edition})")
    checked = set()
    for sample, cmd, answers in player_verdicts(edition):
        if not table_only(rules, sample.state, cmd):
            continue
        checked.add(cmd.verb)
        for p, answer in answers.items():
            if answer is None:
                found.add("table-only command accepted for a player", sample, cmd, p)
            elif isinstance(answer, RuleViolation) and answer.code != "table_only":
                found.add(f"table-only command refused as `{answer.code}`, not table_only", sample, cmd, p)
    found.check()
    # the walk reached the table-only commands of this edition (end_game at least, every edition)
    assert "end_game" in checked, checked
    if "land" in rules.COMMANDS:
        assert "land" in checked, checked
    if any(
        sample.state.pending is not None and sample.state.pending.kind == "auction"
        for sample in candidates.samples(edition)
    ):
        assert {"hammer", "opening"} <= checked, checked


WHO_REFUSALS = ("not_yours", "for_yourself", "owner_only")


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_refused_player_is_told_who_may(edition):
    """docs/actors.md: a command that is another player's is refused naming that player, so the
    phone can say "it is Boris's to do": not_yours, for_yourself (the command names another
    player: each acts only for themselves) or owner_only (another player's plot)."""
    found = Findings(f"actors: a refusal that does not name who may ({edition})")
    told = 0
    for sample, cmd, answers in player_verdicts(edition):
        takers = [p for p, answer in answers.items() if answer is None]
        if len(takers) != 1:
            continue
        for p, answer in answers.items():
            if answer is None or isinstance(answer, Crash):
                continue
            told += 1
            if answer.code not in WHO_REFUSALS or answer.params.get("player") != takers[0]:
                found.add(
                    f"refused as `{answer.code}` {answer.params}, not naming {takers[0]} as who may", sample, cmd, p
                )
    found.check()
    assert told > 50


def test_a_player_who_is_not_at_the_table_is_refused():
    """An actor who is not a player of this game (a typo, a phone from another game) is
    refused as unknown_actor and nothing changes."""
    rules = rules_of("classic")
    game = new(rules, ["Anna", "Boris"])
    with pytest.raises(BadCommand) as err:
        game.propose("pay Anna Boris 10", "Zed")
    assert err.value.code == "unknown_actor"
    assert len(game.events) == 1 and game.state.cash("Anna") == 2000


def test_undo_is_refused_to_a_player():
    """docs/undo.md, docs/actors.md: `undo N` is the table's alone. Anna pays Boris 100 herself
    (event 2); neither Anna nor Boris may undo it (table_only), and the history is unchanged;
    the table may, and Anna has her 2000 again."""
    rules = rules_of("classic")
    game = new(rules, ["Anna", "Boris"])
    event = game.apply("pay Anna Boris 100", "Anna")
    assert event.actor == "Anna" and game.state.cash("Anna") == 1900
    for player in ("Anna", "Boris"):
        with pytest.raises(RuleViolation) as err:
            game.propose("undo 2", player)
        assert err.value.code == "table_only"
    assert len(game.events) == 2 and game.state.cash("Anna") == 1900
    game.apply("undo 2")
    assert game.state.cash("Anna") == 2000 and game.state.cash("Boris") == 2000


def test_undo_is_refused_to_a_player_through_the_table(tmp_path):
    """The same through the table service (companion.table.service): the stored history keeps only
    the payment until the table itself undoes it; each event records who issued it."""
    table = new_game(str(tmp_path / "game.sqlite"), "classic", ["Anna", "Boris"], 1)
    table.submit("pay Anna Boris 100", actor="anna")
    with pytest.raises(RuleViolation) as err:
        table.submit("undo 2", actor="Boris")
    assert err.value.code == "table_only"
    assert [r.actor for r in table.stored_events()] == [TABLE, "Anna"]
    table.submit("undo 2", actor=TABLE)
    assert table.state.cash("Anna") == 2000
    assert [r.actor for r in table.stored_events()] == [TABLE, "Anna", TABLE]
    table.close()


def test_a_players_own_move_is_theirs_alone():
    """A small game by hand (Classic): on Anna's turn only Anna may roll; Boris's roll is
    refused naming Anna and the dice stay unthrown; a bid names its bidder; the auction
    host's hammer is the table's."""
    rules = rules_for(load_edition("classic", {"land_checks_distance": False}))
    game = new(rules, ["Anna", "Boris"])
    with pytest.raises(RuleViolation) as err:
        game.propose("roll 1 2", "Boris")
    assert (err.value.code, err.value.params["player"]) == ("not_yours", "Anna")
    game.apply("roll 1 3", "Anna")  # onto leisure3 (cell 4)
    assert game.state.pending.kind == "offer" and game.state.pending.player == "Anna"
    with pytest.raises(RuleViolation):
        game.propose("decline", "Boris")
    game.apply("decline", "Anna")  # the bank auctions leisure3
    with pytest.raises(RuleViolation) as err:
        game.propose("bid Anna 40", "Boris")
    assert (err.value.code, err.value.params["player"]) == ("for_yourself", "Anna")
    game.apply("bid Boris 40", "Boris")
    with pytest.raises(RuleViolation) as err:
        game.propose("hammer", "Boris")
    assert err.value.code == "table_only"
    game.apply("hammer")
    assert game.state.owner["leisure3"] == "Boris" and game.state.cash("Boris") == 1960


def test_a_players_draw_takes_the_next_card_and_only_the_table_names_one(tmp_path):
    """docs/actors.md, drawer: the player draws the deck's next card with `draw`; naming a card,
    even the next one, is the table's; the ledger stores the draw naming the card, as the
    player's, and the game opens again from it; no list shows a player which card is next."""
    table = new_game(str(tmp_path / "g.sqlite"), teleporting("classic").edition, ["Anna", "Boris"], 3)
    table.submit("land chance1")  # the table says where Anna's token stopped
    s = table.state
    player, deck = s.pending.player, s.pending.stage
    nxt = (s.decks[deck] or s.discards[deck])[0]
    mine = [a.text() for a in table.rules.legal(s, player) if a.verb == "draw"]
    assert mine == ["draw"]
    everyone = [a for a in table.rules.legal(s) if a.verb == "draw" and a.args]
    assert (
        len(everyone) == 1
        and everyone[0].party == TABLE
        and list(everyone[0].args[0].words) == sorted(everyone[0].args[0].words)
    )
    with pytest.raises(RuleViolation, match="table_only"):
        table.submit(f"draw {nxt}", actor=player)
    event = table.submit("draw", actor=player)
    assert (event.actor, event.command) == (player, f"draw {nxt}")
    path = table.ledger.path
    table.close()
    from companion.table.service import open_game

    again = open_game(path, full_replay=True)
    assert again.game.events[-1].command == f"draw {nxt}" and again.game.events[-1].actor == player
    again.close()


def test_nobody_may_be_called_table():
    """The table is an actor of its own: a player called "Table" could never act as themselves."""
    rules = rules_for(load_edition("classic"))
    with pytest.raises(RuleViolation, match="bad_player_name"):
        new(rules, ("Anna", "Table"))


def test_a_name_is_at_most_twenty_characters():
    """A player's name goes into commands (200 characters at most) and onto a small screen."""
    rules = rules_for(load_edition("classic"))
    assert new(rules, ("Anna", "B" * 20)).state.players[1] == "B" * 20
    with pytest.raises(RuleViolation, match="bad_player_name"):
        new(rules, ("Anna", "B" * 21))
