"""One simulated game from a seed: bots choose from Rules.legal, each command applied once.

`play_game` returns a GameRecord: the script lines that replay the game (`companion
script`), the facts the report adds up (rent earned and price paid per plot, bankruptcies,
the share price at each round, dividends, jackpot payouts, the charity fund, the pot),
the rounds, the events and the winners. The same arguments give the same record byte for
byte (`GameRecord.canonical()`): the dice come from one seeded random.Random, each seat's
choices from another, and nothing iterates over a set.
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict, dataclass, field

from companion.bots.strategies import GenericStrategy, first_progress, strategy
from companion.editions import load_edition, rules_for
from companion.engine.actions import TABLE, Action, issued
from companion.engine.command import Command
from companion.engine.game import Game
from companion.engine.state import CHARITY, JACKPOT, POT, State
from companion.errors import CompanionError, InvariantViolation
from companion.sim.shrink import crash_message

SEATS = ("Anna", "Boris", "Vera", "Gleb", "Dina", "Egor", "Zoya", "Ivan")
# the verbs the bots may use: never the table's own tools for the physical world (land, a named
# card, an opening price, the end of a timed game) nor a gift of money (pay)
BOT_VERBS = frozenset(
    {
        "roll",
        "end",
        "buy",
        "decline",
        "bid",
        "hammer",
        "build",
        "sell_building",
        "mortgage",
        "redeem",
        "trade",
        "accept",
        "reject",
        "withdraw",
        "draw",
        "choose",
        "pay_fine",
        "use_card",
        "bankrupt",
        "jackpot",
        "buy_shares",
        "sell_shares",
        "commission",
        "exchange",
        "insure",
        "use_policy",
        "skip_policy",
        "auction_roll",
        "rent_roll",
        "house_auction",
        "keep_mortgage",
        "claim",
        "reveal",
        "move",
        "lease",
        "end_lease",
        "abandon",
        "sell",
        "bonus",
        "miss",
    }
)
# the verbs that can answer each kind of question (decide): an auction, a decision the game waits
# for, a trade offer, a free turn (no debt-raising; a trade is weighed once a turn)
AUCTION_VERBS = frozenset({"bid", "hammer"})
PENDING_VERBS = frozenset(
    {
        "buy",
        "decline",
        "choose",
        "draw",
        "use_policy",
        "skip_policy",
        "auction_roll",
        "rent_roll",
        "keep_mortgage",
        "redeem",
        "build",
        "reveal",
        "move",
        "bonus",
        "miss",
    }
)
OFFER_VERBS = frozenset({"accept", "reject"})
SETTLE_VERBS = frozenset({"use_policy", "skip_policy", "sell_shares", "mortgage", "sell_building", "bankrupt"})
TURN_SKIPS = frozenset({"accept", "reject", "withdraw", "mortgage", "sell_building", "bankrupt", "bid", "hammer"})
EXTRA_PER_TURN = 40  # optional actions one seat may take in one turn (builds, shares, deals)
EVENTS_PER_ROUND = 400  # a game making less headway than this is stopped and said to be stuck


@dataclass
class GameRecord:
    """A whole simulated game: what the report needs, and the lines that replay it."""

    edition: str
    seed: int
    players: list[str]
    strategies: list[str]
    options: dict
    lines: list[str]  # the script: `new ...` first, then `NAME: command` or table lines
    rounds: int = 0
    events: int = 0
    winners: list[str] = field(default_factory=list)
    ended: str = ""  # finished (the rules named a winner) | round_cap | stuck | invariant
    bankrupt: list[list] = field(default_factory=list)  # [player, round]
    rent: dict = field(default_factory=dict)  # plot -> rent charged to others
    paid: dict = field(default_factory=dict)  # plot -> price paid for it (bought, auctions, deals)
    built: dict = field(default_factory=dict)  # plot -> spent on its buildings
    share_price: list[int] = field(default_factory=list)  # Elite: the price at the end of each round
    dividends: int = 0  # Elite: dividends paid with circle income
    jackpot_wins: list[int] = field(default_factory=list)
    jackpot_bets: int = 0
    charity: list[int] = field(default_factory=list)  # Classic: the fund at the end of each round
    fund_taken: list[int] = field(default_factory=list)
    pot_taken: list[int] = field(default_factory=list)  # Monopoly's FREE PARKING pot, when collected
    failure: dict | None = None  # the broken invariant: {"message", "line", "event"}

    def canonical(self) -> str:
        """The record as canonical JSON (sorted keys, no spaces): equal records, equal text."""
        return json.dumps(asdict(self), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def script(self) -> str:
        return "\n".join(self.lines) + "\n"


def seat_names(players: int) -> list[str]:
    if not 1 <= players <= len(SEATS):
        raise ValueError(f"players: 1 to {len(SEATS)}")
    return list(SEATS[:players])


def new_line(edition_ref: str, seed: int, players: list[str], options: dict) -> str:
    """The script's first line; options as KEY=VALUE words (docs/script-language.md)."""
    words = ["new", edition_ref, str(seed), *players]
    words += [f"{k}={v}" for k, v in sorted(options.items())]
    return " ".join(words)


def option_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def play_game(
    edition: str,
    seed: int,
    players: int = 4,
    options: dict | None = None,
    strategies: list[str] | None = None,
    invariants: bool = True,
    round_cap: int = 1000,
) -> GameRecord:
    """Play one whole game of `edition` from `seed`; see the module's docstring."""
    options = {k: option_text(v) for k, v in (options or {}).items()}
    names = seat_names(players)
    chosen = list(strategies or ["balanced"])
    seat_strats = [chosen[i % len(chosen)] for i in range(players)]
    rules = rules_for(load_edition(edition, options or None))
    if not invariants:
        switch_off_invariants(rules)
    bots = {
        name: strategy(rules, st, random.Random(seed * 7919 + 104729 * (i + 1)))
        for i, (name, st) in enumerate(zip(names, seat_strats))
    }
    dice = random.Random(seed)
    record = GameRecord(
        edition, seed, names, seat_strats, dict(sorted(options.items())), [new_line(edition, seed, names, options)]
    )
    game = Game.start(rules, seed, names)
    Sim(rules, game, bots, dice, record, round_cap).run()
    return record


def switch_off_invariants(rules) -> None:
    """Skip the invariant checks after each command (for speed studies only): this rules object
    alone, the class and every other game keep them."""
    rules.check_invariants = _no_check


def _no_check(state: State) -> None:
    return None


class Sim:
    """The loop that asks whose decision it is, asks that seat's bot, and applies its choice."""

    def __init__(
        self,
        rules,
        game: Game,
        bots: dict[str, GenericStrategy],
        dice: random.Random,
        record: GameRecord,
        round_cap: int,
    ):
        self.rules, self.game, self.bots, self.dice, self.record = rules, game, bots, dice, record
        self.round_cap = round_cap
        self.round = 1
        self.seat = {p: i for i, p in enumerate(game.state.players)}
        self.last_turn = game.state.turn
        self.done: dict[str, set[str]] = {p: set() for p in bots}
        self.extra_count = 0
        self.asked: set[str] = set()
        self.capped = False
        self.elite = rules.edition.rules == "elite"

    # ----- the loop --------------------------------------------------------------------

    def run(self) -> None:
        rec = self.record
        limit = EVENTS_PER_ROUND * (self.round_cap + 2)
        while self.game.state.phase != "over":
            if len(self.game.events) > limit:
                rec.ended = "stuck"
                break
            s = self.game.state
            if self.capped:
                if s.pending is None and not s.debts:
                    self.apply(
                        Action("end_game"),
                        Command("end_game", ()),
                    )
                    rec.ended = "round_cap"
                    break
            choice = self.decide(s)
            if choice is None:
                rec.ended = "stuck"
                break
            if not self.apply(*choice):
                break
        if not rec.ended:
            rec.ended = "finished"
        s = self.game.state
        rec.rounds = min(self.round, self.round_cap)
        rec.events = len(self.game.events)
        rec.winners = s.winner.split(",") if s.winner else []
        if self.elite and (not rec.share_price or len(rec.share_price) < rec.rounds):
            rec.share_price.append(s.extra.get("price", 0))

    def apply(self, action: Action, cmd: Command) -> bool:
        """Apply the choice once, as its party; False when an invariant broke (recorded)."""
        actor = action.party
        try:
            proposal = self.game.propose(cmd, actor)
        except InvariantViolation as exc:
            return self.failed(issued(actor, cmd.text()), str(exc))
        except CompanionError:
            raise
        except Exception as exc:  # a crash in the rules: a bug, reported and shrunk like a breach
            return self.failed(issued(actor, cmd.text()), crash_message(exc))
        event = self.game.accept(proposal)
        # the line as issued: a player's `draw` takes the deck's next card (the ledger stores the
        # card it was, which only the table may name), so the script replays as the bots played
        self.record.lines.append(issued(actor, cmd.text()))
        self.facts(event.notes)
        return True

    def failed(self, line: str, message: str) -> bool:
        self.record.lines.append(line)
        self.record.failure = {"message": message, "line": line, "event": len(self.game.events) + 1}
        self.record.ended = "invariant"
        return False

    # ----- whose decision, and which --------------------------------------------------------

    def grouped(self, s: State, verbs) -> dict[str, list[Action]]:
        """The legal actions of these verbs, by party (TABLE for the table's own)."""
        by: dict[str, list[Action]] = {}
        for a in self.rules.legal(s, TABLE, verbs):
            by.setdefault(a.party, []).append(a)
        return by

    def decide(self, s: State):
        """Whose decision it is and which, asking `legal` only for the verbs that can answer it:
        the list is the costly part of a step (every trade between every two players...)."""
        if s.debts:
            debtor = s.debts[0].debtor
            if debtor in self.bots:
                # a debtor's bot raises money with these verbs alone (the trade list, the costliest,
                # is never its way out); when it finds nothing, every verb is asked below
                got = self.bots[debtor].settle(s, debtor, self.grouped(s, SETTLE_VERBS).get(debtor, []))
                if got is not None:
                    return got
            return self.choose(s, self.grouped(s, BOT_VERBS))
        auction = self.rules.open_auction_of(s)
        if auction is not None:
            by = self.grouped(s, AUCTION_VERBS)
            return self.auction(s, auction, by, by.get(TABLE, []))
        if s.pending is not None and s.pending.player in self.bots:
            p = s.pending.player
            mine = self.grouped(s, PENDING_VERBS).get(p, [])
            got = self.bots[p].pending(s, p, mine) or first_progress(mine, self.bots[p].rng)
            if got is not None:
                return got
        elif self.rules.offers(s):
            by = self.grouped(s, OFFER_VERBS)
            for offer in self.rules.offers(s):
                got = self.bots[offer.other].answer(s, offer.other, offer, by.get(offer.other, []))
                if got is not None:
                    return got
        elif s.turn in self.bots:
            skip = TURN_SKIPS | self.bots[s.turn].needless(s, s.turn, self.done[s.turn])
            got = self.choose(s, self.grouped(s, BOT_VERBS - skip))
            if got is not None:
                return got
        return self.choose(s, self.grouped(s, BOT_VERBS))  # anything else: every verb, every question

    def choose(self, s: State, by: dict[str, list[Action]]):
        table = by.get(TABLE, [])
        if s.debts:
            debtor = s.debts[0].debtor
            got = self.bots[debtor].settle(s, debtor, by.get(debtor, [])) if debtor in self.bots else None
            if got is not None:
                return got
        auction = self.rules.open_auction_of(s)
        if auction is not None:
            return self.auction(s, auction, by, table)
        if s.pending is not None and s.pending.player in self.bots:
            p = s.pending.player
            mine = by.get(p, [])
            got = self.bots[p].pending(s, p, mine) or first_progress(mine, self.bots[p].rng)
            if got is not None:
                return got
        for offer in self.rules.offers(s):
            got = self.bots[offer.other].answer(s, offer.other, offer, by.get(offer.other, []))
            if got is not None:
                return got
        p = s.turn
        if p in self.bots:
            if self.extra_count < EXTRA_PER_TURN:
                # out of turn first (once a turn each): commission at the EXCHANGE, a free business
                for q in s.alive:
                    if q != p and q not in self.asked and q in self.bots:
                        self.asked.add(q)
                        got = self.bots[q].aside(s, q, by.get(q, []))
                        if got is not None:
                            self.extra_count += 1
                            self.asked = set()  # what they did may open something for another
                            return got
                got = self.bots[p].extra(s, p, by.get(p, []) + table, self.done[p])
                if got is not None:
                    self.extra_count += 1
                    return got
            got = self.bots[p].progress(s, p, by.get(p, []))
            if got is not None:
                return got
        # nothing of the turn's player: whoever has a move that takes the game on
        for q in s.alive:
            got = first_progress(by.get(q, []), self.bots[q].rng) if q in self.bots else None
            if got is not None:
                return got
        return first_progress(table, self.dice)

    def auction(self, s: State, auction, by, table):
        """Each seat in turn after the highest bidder may outbid; nobody will: the hammer falls."""
        order = list(s.alive)
        start = (
            (order.index(auction.bidder) + 1)
            if auction.bidder in order
            else order.index(s.turn)
            if s.turn in order
            else 0
        )
        for k in range(len(order)):
            q = order[(start + k) % len(order)]
            bid = next((a for a in by.get(q, []) if a.verb == "bid"), None)
            if bid is not None and q in self.bots:
                got = self.bots[q].bid(s, q, bid)
                if got is not None:
                    return got
        hammer = next((a for a in table if a.verb == "hammer"), None)
        if hammer is not None:
            return hammer, Command("hammer", ())
        return None

    # ----- the facts the report adds up ----------------------------------------------------

    def facts(self, notes) -> None:
        rec = self.record
        for note in notes:
            code, p = note.code, note.params
            if code == "turn":
                q = p["player"]
                if q in self.seat and self.last_turn in self.seat and self.seat[q] <= self.seat[self.last_turn]:
                    self.end_round()
                self.last_turn = q
                self.done[q] = set()
                self.extra_count = 0
                self.asked = set()
            elif code == "rent_paid" or (code == "debt" and p.get("reason") == "rent_paid"):
                if "plot" in p:
                    rec.rent[p["plot"]] = rec.rent.get(p["plot"], 0) + p["amount"]
            elif code in ("bought", "dealt"):
                rec.paid[p["plot"]] = rec.paid.get(p["plot"], 0) + p["price"]
            elif code == "auction_won":
                rec.paid[p["plot"]] = rec.paid.get(p["plot"], 0) + p["amount"]
            elif code == "built":
                rec.built[p["plot"]] = rec.built.get(p["plot"], 0) + p["cost"]
            elif code == "bankrupt":
                rec.bankrupt.append([p["player"], self.round])
            elif code == "circle_income":
                rec.dividends += p.get("dividend", 0)
            elif code == "jackpot_won":
                rec.jackpot_wins.append(p["amount"])
            elif code == "jackpot_played":
                rec.jackpot_bets += 1
            elif code == "fund_taken":
                rec.fund_taken.append(p["amount"])
            elif code == "pot_collected":
                rec.pot_taken.append(p["amount"])

    def end_round(self) -> None:
        s = self.game.state
        if self.elite:
            self.record.share_price.append(s.extra.get("price", 0))
        if CHARITY in self.rules.SYSTEM_ACCOUNTS:
            self.record.charity.append(s.cash(CHARITY))
        self.round += 1
        if self.round > self.round_cap:
            self.capped = True


ACCOUNTS = (CHARITY, JACKPOT, POT)


# ----- many games: one process or several, the records always in seed order ----------------------


@dataclass(frozen=True)
class Study:
    """What to play: the same arguments as play_game, for the seeds seed .. seed + games - 1."""

    edition: str
    games: int
    seed: int = 1
    players: int = 4
    options: tuple = ()  # (key, value) pairs
    strategies: tuple = ()
    invariants: bool = True
    round_cap: int = 1000

    def one(self, seed: int) -> GameRecord:
        return play_game(
            self.edition,
            seed,
            self.players,
            dict(self.options),
            list(self.strategies) or None,
            self.invariants,
            self.round_cap,
        )


def play_many(study: Study, jobs: int = 1, progress=None) -> list[GameRecord]:
    """Every game of the study, ordered by seed whatever the number of jobs (each game depends on
    its seed alone). progress(n) is called as games finish (a progress bar's update)."""
    seeds = range(study.seed, study.seed + study.games)
    out: list[GameRecord] = []
    if jobs <= 1 or study.games <= 1:
        for seed in seeds:
            out.append(study.one(seed))
            if progress:
                progress(1)
        return out
    import multiprocessing

    # no more workers than games (--jobs 100 for 2 games started 100 processes); a worker ignores
    # Ctrl-C, which the terminal sends to the whole group: the parent alone says "interrupted" and
    # leaving the `with` terminates the workers (each printed its traceback before)
    with multiprocessing.get_context().Pool(min(jobs, study.games), initializer=_ignore_sigint) as pool:
        # imap keeps the seeds' order; small chunks keep the progress bar moving
        for record in pool.imap(study.one, seeds, chunksize=max(1, min(8, study.games // (4 * jobs)))):
            out.append(record)
            if progress:
                progress(1)
    return out


def _ignore_sigint() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
