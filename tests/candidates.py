"""Seeded sample states of every shipped edition, and candidate command lines for them.

Used by tests/test_actors.py and tests/test_legal.py (docs/actors.md: who may act, and
what `Rules.legal` lists). Two halves:

- `samples(edition)`: states reached by seeded autoplay games (the bots' candidates,
  companion.bots.hints, the table issuing every command), taken evenly along each game and at
  every kind of moment, plus states a few random table commands off that path and states
  with an open trade offer (a player's own `trade`). Each Sample says how to rebuild it
  (`state_at`), so a failure names a reproducible state.
- `candidate_lines(rules, state, rng)`: command lines written from the edition's data
  (its commands, cells, plots, cards, options) and the state (players, cash, holdings,
  the open decision) alone. It shares no code with `Rules.legal` or any `legal_*`
  helper: the point is to find commands `apply` accepts that `legal` does not list.

`Findings` collects mismatches with their repro and appends them to
/tmp/legal_mismatches.md as they are found, so they can be read before the run ends.
"""

import itertools
import random
import traceback
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from companion.bots.hints import edition_candidates, generic_candidates
from companion.editions import load_edition, rules_for, shipped
from companion.engine.actions import TABLE
from companion.engine.board import MONEY_MAX
from companion.engine.command import Command
from companion.engine.game import Game
from companion.errors import RuleViolation

EDITIONS = shipped()
NAMES = ("Anna", "Boris", "Vera", "Gleb")
# (seed, number of players) of the autoplay games each edition is sampled from: chosen among
# seeds 1-6 with 2-4 players for the most kinds of moments (auctions, buildings, bankruptcy,
# shares and policies, a shortage house auction, a utility's rent throw)
GAMES = {
    "classic": ((2, 4), (4, 2)),
    "deluxe": ((2, 2), (4, 2)),
    "elite": ((1, 2), (2, 3)),
    "madmillionaire": ((1, 3), (2, 2)),
    "monopoly": ((2, 4), (1, 4)),
}
DEFAULT_GAMES = ((1, 3), (2, 2))  # an edition added later
PER_GAME = 10  # states taken evenly along each game (the start and the end included)
KINDS_PER_GAME = 30  # and one state of each of this many kinds of moment (kind_of), drawn at random
MAX_EVENTS = 3000  # autoplay calls a timed end (end_game) after this many events
MISMATCH_FILE = Path("/tmp/legal_mismatches.md")


@lru_cache(maxsize=None)
def rules_of(edition):
    return rules_for(load_edition(edition))


# ----- sample states --------------------------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    edition: str
    seed: int
    players: tuple
    event: int  # events in the game when the state was reached (1: just started)
    state: object
    last: str = ""  # the command of that event
    via: tuple = ()  # (actor, line) applied to the autoplayed state to reach this one

    def where(self) -> str:
        text = (
            f"{self.edition} seed={self.seed} players={','.join(self.players)} "
            f"max_events={MAX_EVENTS} event={self.event} (after `{self.last}`)"
        )
        for actor, line in self.via:
            text += f" then {actor}: `{line}`"
        return text

    def repro(self) -> str:
        return f"candidates.state_at({self.edition!r}, {self.seed}, {self.players!r}, {self.event}, {self.via!r})"


@lru_cache(maxsize=None)
def game_states(edition, seed, players):
    """[(event number, command, state)] of one seeded autoplay game, the start included.

    The bots' candidates (companion.bots.hints), the first one apply accepts from the table, as
    companion.bots.autoplay played before it consulted Rules.legal: the walk must not lean on
    what it is used to test. Past MAX_EVENTS the game is called (end_game) at the first
    moment it may be.
    """
    rules = rules_of(edition)
    game = Game.start(rules, seed, list(players))
    out = [(1, game.events[0].command, game.state)]
    rng = random.Random(seed)
    while game.state.phase != "over" and len(game.events) < MAX_EVENTS + 1000:
        s = game.state
        lines = edition_candidates(rules, s, rng) + generic_candidates(rules, s, rng)
        if len(game.events) >= MAX_EVENTS:
            lines = ["end_game", *lines]
        for line in lines:
            try:
                event = game.apply(line)
            except RuleViolation:
                continue
            out.append((event.seq, event.command, game.state))
            break
        else:
            break
    return tuple(out)


def state_at(edition, seed, players, event, via=()):
    """The state a Sample names: autoplay to `event`, then the `via` commands by their actors."""
    rules = rules_of(edition)
    s = game_states(edition, seed, tuple(players))[event - 1][2]
    for actor, line in via:
        s = rules.apply(s, line, actor)
    return s


@lru_cache(maxsize=None)
def samples(edition):
    """Sample states of one edition: evenly along each game of GAMES and at many kinds of
    moment, then a few random table commands off that path, then with players' offers open."""
    rules = rules_of(edition)
    out = []
    for seed, n in GAMES.get(edition, DEFAULT_GAMES):
        players = NAMES[: max(n, rules.edition.players_min)]
        states = game_states(edition, seed, players)
        picks = {round(i * (len(states) - 1) / (PER_GAME - 1)) for i in range(PER_GAME)}
        # and one state of each of KINDS_PER_GAME kinds of moment the game went through (an open
        # decision, a debt, a double to roll again, a held player, an edition's chance such as
        # the JACKPOT)
        rng = random.Random(f"{edition} {seed}")
        kinds = {}
        for i, (_, _, s) in enumerate(states):
            kinds.setdefault(kind_of(s), []).append(i)
        chosen = rng.sample(sorted(kinds, key=repr), min(KINDS_PER_GAME, len(kinds)))
        picks |= {rng.choice(kinds[kind]) for kind in chosen}
        picks = sorted(picks)
        for i in picks:
            seq, line, s = states[i]
            out.append(Sample(edition, seed, players, seq, s, line))
    # a few steps off the autoplayer's path: the table issues random accepted lines (a decline
    # that opens an auction, a bid, a table trade, a mortgage, a lease), each state a sample
    rng = random.Random(f"wander {edition}")
    out += two_steps_from(list(out)[2::5], lambda s: wander(rules, s, rng))
    # a player's own trade makes an offer: sample states with one open (and two, when possible)
    rng = random.Random(f"offers {edition}")
    out += two_steps_from(list(out)[1::4], lambda s: first_offer(rules, s, rng))
    return tuple(out)


def kind_of(s):
    """What sort of moment a state is: the phase, the open decision, debts, edition extras."""
    a = s.pending
    return (
        s.phase,
        a and a.kind,
        a and a.stage,
        bool(a and a.bidder),
        bool(s.debts),
        any(d.claim for d in s.debts),
        s.again,
        s.turn in s.detained,
        bool(s.kept),
        tuple(sorted(k for k in s.extra if k != "offer_count")),
    )


def two_steps_from(bases, step):
    """Samples up to two steps past each base, `step(state)` giving (actor, line, state) or None."""
    found = []
    for base in bases:
        s, via = base.state, ()
        for _ in range(2):
            made = step(s)
            if made is None:
                break
            actor, line, s = made
            via = via + ((actor, line),)
            found.append(Sample(base.edition, base.seed, base.players, base.event, s, base.last, via))
    return found


def wander(rules, s, rng):
    """(TABLE, line, state) of a random line the table may issue now (a verb drawn first, so the
    everyday verbs do not crowd out the rare ones); None when nothing is accepted."""
    if s.phase == "over":
        return None
    by_verb = {}
    for cmd in candidate_lines(rules, s, rng, cap=8):
        if cmd.verb != "end_game":
            by_verb.setdefault(cmd.verb, []).append(cmd)
    verbs = list(by_verb)
    rng.shuffle(verbs)
    for verb in verbs:
        lines = by_verb[verb]
        rng.shuffle(lines)
        for cmd in lines:
            try:
                return TABLE, cmd.text(), rules.apply(s, cmd)
            except RuleViolation:
                continue
    return None


def first_offer(rules, s, rng):
    """(actor, line, state) of a trade a player may propose now, from the generator; else None."""
    if "trade" not in rules.COMMANDS or s.phase == "over":
        return None
    lines = [c for c in trade_lines(rules, s, rng, 30) if c.args[0] in s.alive]
    rng.shuffle(lines)
    for cmd in lines:
        try:
            return cmd.args[0], cmd.text(), rules.apply(s, cmd, cmd.args[0])
        except RuleViolation:
            continue
    return None


# ----- the candidate generator (no code shared with Rules.legal) ---------------------------------

# The argument shapes of each verb, written from the script language (docs/script-language.md)
# and the rulebooks, not from the engine's ARITY table; a verb missing here falls back to its
# usage text (ARITY), so a new verb is never skipped silently.
SHAPES = {
    "end": [()],
    "buy": [(), ("PLOT",)],
    "decline": [()],
    "hammer": [()],
    "end_game": [()],
    "pay_fine": [()],
    "bonus": [()],
    "bid": [("PLAYER", "AMOUNT")],
    "opening": [("AMOUNT",)],
    "build": [("PLOT",)],
    "sell_building": [("PLOT",)],
    "mortgage": [("PLOT",)],
    "redeem": [("PLOT",)],
    "keep_mortgage": [("PLOT",)],
    "end_lease": [("PLOT",)],
    "abandon": [("PLOT",)],
    "lease": [(), ("PLOT",)],
    "pay": [("PLAYER", "PLAYER", "AMOUNT")],
    "draw": [(), ("CARD",)],
    "reveal": [(), ("CARD",)],
    "use_card": [("CARD",)],
    "choose": [("CELL",)],
    "move": [("CELL",)],
    "land": [("CELL",), ("CELL", "double")],
    "bankrupt": [("PLAYER",)],
    "miss": [("PLAYER",)],
    "accept": [("OFFER",)],
    "reject": [("OFFER",)],
    "withdraw": [("OFFER",)],
    "jackpot": [("BET", "D", "D", "D")],
    "buy_shares": [("PLAYER", "SHARES")],
    "sell_shares": [("PLAYER", "SHARES")],
    "commission": [("PLAYER", "SHARES", "AMOUNT")],
    "exchange": [("D", "D")],
    "auction_roll": [("D", "D", "D")],
    "rent_roll": [("D", "D")],
    "insure": [("PLAYER", "POLICY")],
    "use_policy": [("PLAYER", "POLICY"), ("PLAYER", "POLICY", "COVER")],
    "skip_policy": [("PLAYER",), ("PLAYER", "CARD")],
    "house_auction": [("BUILDING",)],
    "claim": [("PLAYER", "PLOT")],
    "sell": [("PLOT", "D")],
}
WORDS = {
    "POLICY": ("green", "blue", "orange", "red"),
    "BUILDING": ("house", "hotel"),
    "double": ("double",),
}
USAGE_SLOTS = {
    "PLAYER": "PLAYER",
    "AMOUNT": "AMOUNT",
    "BET": "BET",
    "N": "SHARES",
    "FEE": "AMOUNT",
    "D": "D",
    "PLOT": "PLOT",
    "BUSINESS": "PLOT",
    "CELL": "CELL",
    "CARD": "CARD",
    "OFFER": "OFFER",
    "OWNER": "PLAYER",
}


def shapes_of(rules, verb):
    if verb == "roll":
        n = rules.opt.get("dice", 2)
        return [("D",) * n]
    if verb in SHAPES:
        return SHAPES[verb]
    # an unknown verb: read its usage text ("verb PLAYER AMOUNT [CARD]") slot by slot
    usage = rules.ARITY[verb][2].split()[1:]
    shape, optional = [], []
    for word in usage:
        bare = word.strip("[]").rstrip(".")
        kind = USAGE_SLOTS.get(bare) or ("WORDS:" + bare if "|" in bare else "ANY")
        (optional if word.startswith("[") else shape).append(kind)
    return [tuple(shape), tuple(shape + optional)] if optional else [tuple(shape)]


class Vocab:
    """The words a slot kind may take in this state (and a few just outside)."""

    def __init__(self, rules, s):
        ed = rules.edition
        self.players = list(s.players)
        self.cells = [c.id for c in ed.cells]
        self.plots = list(ed.plots)
        self.cards = list(ed.cards)
        numbers = {0, 1, 2, 5, 6, 7, 10, 50, 100, MONEY_MAX, MONEY_MAX + 1}
        for p in s.players:
            cash = s.cash(p)
            numbers |= {cash - 1, cash, cash + 1}
        a = s.pending
        if a is not None:
            numbers |= {a.bid, a.bid + 1, a.opening - 1, a.opening, a.opening + 1}
            if a.plot in ed.plots:
                numbers |= {ed.plots[a.plot].price, ed.plots[a.plot].price + 1}
        prices = sorted({c.price for c in ed.plots.values()})
        numbers |= set(prices[:2] + prices[-1:])
        self.amounts = sorted(n for n in numbers if n >= 0)
        bets = {rules.opt.get("jackpot_min_bet"), rules.opt.get("jackpot_max_bet")} - {None}
        turn_cash = s.cash(s.turn) if s.turn else 0
        self.bets = sorted({0, 1, 10, 100, turn_cash, turn_cash + 1} | {b + d for b in bets for d in (-1, 0, 1)})
        held = {n for (p, item), n in s.holdings.items() if item == "shares"}
        price = s.extra.get("price") if isinstance(s.extra.get("price"), int) else 0
        afford = {s.cash(p) // price for p in s.players} if price else set()
        self.shares = sorted({0, 1, 2, 3} | held | {n + 1 for n in held} | afford | {n + 1 for n in afford})
        self.dice = list(range(0, 8))
        self.offers = list(range(0, s.extra.get("offer_count", 0) + 2))
        # the cards a command is likely to name: the tops of piles, kept cards, claims on debts
        tops = [pile[0] for pile in list(s.decks.values()) + list(s.discards.values()) if pile]
        seconds = [pile[1] for pile in s.decks.values() if len(pile) > 1]
        kept = [c for cards in s.kept.values() for c in cards]
        claims = [d.claim for d in s.debts if getattr(d, "claim", "")]
        self.likely_cards = list(dict.fromkeys(tops + seconds + kept + claims))
        self.cover = ["tax", "rent", *self.players, *claims]

    def pool(self, kind, rng):
        if kind == "PLAYER":
            return self.players
        if kind == "AMOUNT":
            return self.amounts
        if kind == "BET":
            return self.bets
        if kind == "SHARES":
            return self.shares
        if kind == "D":
            return self.dice
        if kind == "PLOT":
            return self.plots + [self.cells[0]]
        if kind == "CELL":
            return self.cells
        if kind == "CARD":
            return list(dict.fromkeys(self.likely_cards + rng.sample(self.cards, min(6, len(self.cards)))))
        if kind == "OFFER":
            return self.offers
        if kind == "COVER":
            return self.cover
        if kind in WORDS:
            return list(WORDS[kind])
        if kind.startswith("WORDS:"):
            return kind[6:].split("|")
        return list(dict.fromkeys(self.players + [str(n) for n in self.amounts[:6]] + self.cells[:4]))


def expand(shape, vocab, rng, cap):
    """Argument tuples of one shape: all of them when few, else `cap` drawn at random."""
    pools = [[str(w) for w in vocab.pool(kind, rng)] for kind in shape]
    total = 1
    for pool in pools:
        total *= len(pool)
    if total <= cap:
        return list(itertools.product(*pools))
    picked = {tuple(rng.choice(pool) for pool in pools) for _ in range(cap)}
    return sorted(picked)


def trade_lines(rules, s, rng, per_pair):
    """`trade A B give ... get ...` lines: each side's plots and kept cards, other plots, cash."""
    ed = rules.edition
    cards_of = {p: list(s.kept.get(p, ())) for p in s.players}
    lines = []
    pairs = [(a, b) for a in s.players for b in s.players if a != b]
    for a, b in pairs + [(s.players[0], s.players[0])]:
        mine = {p: s.plots_of(p) + cards_of[p] for p in (a, b)}
        stray = rng.sample(list(ed.plots), 2)
        for _ in range(per_pair):
            sides = []
            for p, q in ((a, b), (b, a)):
                pool = mine[p] + [rng.choice(stray)] + ([rng.choice(mine[q])] if mine[q] else [])
                items = rng.sample(pool, min(len(pool), rng.choice((0, 0, 1, 1, 2, 3))))
                if rng.random() < 0.4:
                    items.append(str(rng.choice((0, 1, 2, s.cash(p) - 1, s.cash(p), s.cash(p) + 1, 50))))
                if rng.random() < 0.05 and items:
                    items.append(items[0])  # the same item twice
                sides.append([w for w in items if w != "-1"])
            give, get = sides
            words = ["give", *give, "get", *get]
            if not give and rng.random() < 0.5:
                words = ["get", *get]
            elif rng.random() < 0.2:
                words = ["get", *get, "give", *give]
            lines.append(Command("trade", (a, b, *words)))
    return lines


def candidate_lines(rules, s, rng, cap=24):
    """Candidate commands for state s: every verb of the rules, arguments from the Vocab."""
    vocab = Vocab(rules, s)
    out = []
    for verb in rules.COMMANDS:
        if verb == "trade":
            out.extend(trade_lines(rules, s, rng, 5))
            continue
        for shape in shapes_of(rules, verb):
            for args in expand(shape, vocab, rng, cap):
                out.append(Command(verb, args))
    return list(dict.fromkeys(out))


# ----- trying a command, and recording what did not hold -----------------------------------------


@dataclass(frozen=True)
class Tried:
    """One candidate line in one sample state, and what apply said to the table."""

    cmd: Command
    accepted: bool
    crash: str = ""  # apply raised something other than a refusal


@lru_cache(maxsize=None)
def tried(edition):
    """[(sample, [Tried])] for every sample of an edition: each candidate line applied by the table.

    Cached: tests/test_actors.py and tests/test_legal.py read the same verdicts.
    """
    rules = rules_of(edition)
    out = []
    for sample in samples(edition):
        rng = random.Random(sample.where())
        verdicts = []
        for cmd in candidate_lines(rules, sample.state, rng):
            try:
                verdicts.append(Tried(cmd, accepts(rules, sample.state, cmd) is not None))
            except Crash as exc:
                verdicts.append(Tried(cmd, False, str(exc)))
        out.append((sample, tuple(verdicts)))
    return tuple(out)


class Crash(Exception):
    """apply raised something other than a refusal (RuleViolation/BadCommand)."""


def accepts(rules, s, cmd, actor=TABLE):
    """Whether apply takes cmd from actor in state s; the new state, or None when refused."""
    try:
        return rules.apply(s, cmd, actor)
    except RuleViolation:
        return None
    except Exception as exc:  # noqa: BLE001 - any other exception is a finding
        raise Crash(f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=-3)}") from exc


def refusal(rules, s, cmd, actor):
    """The RuleViolation apply raises for cmd from actor, or None if it is accepted."""
    try:
        rules.apply(s, cmd, actor)
    except RuleViolation as exc:
        return exc
    return None


_started = False


class Findings:
    """Mismatches found by one test, each with the state that shows it; written as found."""

    LIMIT = 40

    def __init__(self, title):
        self.title = title
        self.items = []
        self.count = 0
        write("")  # the first Findings of a run starts the file afresh

    def add(self, kind, sample, cmd, actor, said=""):
        self.count += 1
        key = (kind, sample.edition, cmd.verb, actor == TABLE)
        if any(k == key for k, _ in self.items) and len(self.items) >= 8:
            return  # one of each kind per verb is enough once there are several
        if len(self.items) >= self.LIMIT:
            return
        text = f"- **{kind}**: `{cmd.text()}` as {actor}\n  - state: {sample.where()}\n  - repro: `{sample.repro()}`\n"
        if said:
            text += f"  - legal said: {said}\n"
        self.items.append((key, text))
        write(f"### {self.title}\n{text}")

    def check(self):
        assert not self.items, (
            f"{self.count} mismatch(es) in {self.title} (first {len(self.items)} below; "
            f"all in {MISMATCH_FILE}):\n" + "".join(t for _, t in self.items)
        )


def write(text):
    global _started
    mode = "a" if _started else "w"
    if not _started:
        text = (
            "# legal/apply mismatches found by tests/test_legal.py and tests/test_actors.py\n\n"
            "Rebuild a state with `cd tests && python -c 'import candidates; s = <repro>'`.\n"
            "A run that finds nothing leaves only this header.\n\n" + text
        )
        _started = True
    if text:
        with MISMATCH_FILE.open(mode, encoding="utf-8") as f:
            f.write(text + "\n")


def said_for(actions, verb):
    """What legal listed for this verb, as text with each action's party."""
    shown = [f"`{a.text()}` [{a.party}]" for a in actions if a.verb == verb]
    return ", ".join(shown[:8]) + (f" (+{len(shown) - 8} more)" if len(shown) > 8 else "") or "nothing"
