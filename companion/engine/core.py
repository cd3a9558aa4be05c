"""The shared core of every edition: turns, movement, money, plots, buildings, debts.

`Rules.apply(state, line)` takes one command line and returns a new state; the
postings and notes of that command ride on the new state (`state.postings`,
`state.notes`). Edition modules subclass `Rules` and add cell kinds, card
effects, commands and options; nothing edition-specific lives here.
"""

from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import Any

from companion.engine.actions import TABLE, Action, OneOf, Side, Span, Terms, dice
from companion.engine.board import MONEY, MONEY_MAX, PERCENT, check_number, keyname, shown
from companion.engine.command import Command, parse_command
from companion.engine.shuffle import shuffled
from companion.engine.state import BANK, SYSTEM_ACCOUNTS, Debt, Note, Offer, Posting, State
from companion.errors import BadCommand, EditionProblem, RuleViolation, check


@dataclass(frozen=True)
class Pending:
    """A decision the table must take before play goes on."""

    kind: str  # offer, auction, draw, choose, ... (editions add more)
    player: str | None = None
    plot: str | None = None
    seller: str | None = None
    opening: int = 0
    bidder: str | None = None
    bid: int = 0
    options: tuple = ()
    stage: str = ""
    count: int = 0


# A pending `choose` after a card move that pays no circle income (Pending.stage)
NO_INCOME = "no_income"

# The longest player name: it appears in commands (at most 200 characters) and on a 128-pixel screen.
MAX_NAME = 20

# The largest number a command may carry: money amounts, bids, fees, share counts; the same
# bound as every amount in an edition file, so a slip of the finger (an extra 000) is refused.
MAX_AMOUNT = MONEY_MAX


def parse_line(line):
    """Split a command line into (verb, args), or (None, ()) for a blank or comment line.

    A thin wrapper over companion.engine.command.parse_command (quotes, comments,
    the line limit); a malformed line raises BadCommand.
    """
    cmd = parse_command(line)
    if cmd is None:
        return None, ()
    return cmd.verb, cmd.args


# effect arguments that are whole numbers, with their ranges (steps and points may be negative)
EFFECT_NUMBERS = {
    # money: per card, per building
    "amount": MONEY,
    "small": MONEY,
    "large": MONEY,
    "steps": (-100, 100),  # cells forward (back when negative)
    "points": (-100, 100),  # share price points (Elite)
    "percent": PERCENT,  # dividend rate (Elite)
    "count": (1, 10),  # FORTUNE cards put on the wheel (Elite)
}
# effect arguments that are text (a cell, a cell kind, a deck, an account, an industry)
EFFECT_TEXTS = {"do", "cell", "kind", "deck", "to", "from", "industry", "plots"}
# optional arguments each effect reads besides its required ones (any other key is refused)
CORE_EFFECT_OPTIONAL: dict[str, tuple[str, ...]] = {
    # a system account instead of the bank
    "pay": ("to",),
    "each_player_pays": ("to",),
    "receive": ("from",),
    "move_to": ("collect",),  # false: no START income on the way
    "move_steps": ("collect",),  # forward steps: the same
    "move_nearest": ("deck", "collect"),  # the nearest card cell of this deck; collect as above
}

# Effects every edition understands: verb -> required argument keys.
CORE_EFFECTS: dict[str, tuple[str, ...]] = {
    "pay": ("amount",),  # the drawing player pays the bank
    "receive": ("amount",),  # the bank pays the drawing player
    "pay_each_player": ("amount",),  # the drawing player pays every other player
    "collect_from_each": ("amount",),  # every other player pays the drawing player
    "each_player_pays": ("amount",),  # every player pays the bank (collective cards)
    "each_player_receives": ("amount",),  # the bank pays every player
    "pay_per_building": ("small", "large"),
    "move_to": ("cell",),  # optional: collect = false (no START income)
    "move_steps": ("steps",),  # negative steps move back
    "move_nearest": ("kind",),  # nearest cell of that kind, ahead or behind
    "go_to_detention": (),
    "release": (),  # keep this card to leave detention for free
    "skip_turn": (),
}


class Rules:
    """Rules shared by all editions. Subclasses extend the class-level tables."""

    OPTIONS = {
        "undo_window": 50,  # how many recent events may be reversed
        "dice": 2,
        "three_doubles_detain": True,
        "detention_fine": 50,
        "detention_tries": 3,
        "detention_third_miss": "pay_next_turn",  # or "pay_and_move" (Monopoly)
        "monopoly_broken_by_mortgage": True,
        "mortgage_needs_empty_industry": False,
        "redeem_interest_percent": 10,
        "redeem_interest_base": "price",  # or "mortgage"
        "building_sale_percent": 50,
        "decline_opens_auction": True,
        "auction_opening_percent": 50,
        "card_move_collects": True,
        "circle_income": 200,
        "discard_decks": [],  # decks whose cards are not returned (FORTUNE)
        "land_checks_distance": True,  # `land CELL` must be a distance the dice can make
    }
    # The range (low, high) of every whole-number option, checked when the file loads
    # (board.check_option) and documented in docs/edition-format.md; tests/test_edition_ranges.py
    # refuses an integer option without one. Money is 0..MONEY_MAX.
    OPTION_RANGES = {
        "undo_window": (0, 1000),  # 0: no undo; each step keeps one state in memory
        "dice": (1, 2),  # doubles need two
        "detention_fine": MONEY,
        "detention_tries": (1, 10),
        "redeem_interest_percent": PERCENT,
        "building_sale_percent": PERCENT,  # never more than the building cost
        "auction_opening_percent": PERCENT,
        "circle_income": MONEY,
    }
    # the values a text option may take (text naming a deck or an industry: check_edition)
    OPTION_CHOICES = {
        "detention_third_miss": ("pay_next_turn", "pay_and_move"),
        "redeem_interest_base": ("price", "mortgage"),
    }
    CELL_KINDS = {"start", "plot", "card", "free", "tax", "detention", "go_to_detention"}
    # the parameters a non-plot cell kind reads, with their ranges; any other key is refused
    CELL_PARAMS = {"tax": {"amount": MONEY}}
    SUPPLY: tuple[str, ...] = ("small", "large")  # [supply] items the rules count (BOX_ITEMS each)
    EFFECTS = CORE_EFFECTS
    EFFECT_NUMBERS = EFFECT_NUMBERS
    EFFECT_OPTIONAL = CORE_EFFECT_OPTIONAL
    READS_SLOT = False  # [slot]: only the Millionaire family has a slot machine
    EXTRA_KEYS: tuple[str, ...] = ()  # [extra] keys the rules module reads
    SYSTEM_ACCOUNTS: tuple[str, ...] = (BANK,)
    PLOTS_PAY_RENT = True  # plots must list their rent (not so in Mad Millionaire)

    # verb -> method; every verb is a command of the script language (docs/script-language.md)
    COMMANDS = {
        "roll": "cmd_roll",
        "end": "cmd_end",
        "buy": "cmd_buy",
        "decline": "cmd_decline",
        "bid": "cmd_bid",
        "opening": "cmd_opening",
        "hammer": "cmd_hammer",
        "build": "cmd_build",
        "sell_building": "cmd_sell_building",
        "mortgage": "cmd_mortgage",
        "redeem": "cmd_redeem",
        "trade": "cmd_trade",
        "pay": "cmd_pay",
        "draw": "cmd_draw",
        "choose": "cmd_choose",
        "pay_fine": "cmd_pay_fine",
        "use_card": "cmd_use_card",
        "land": "cmd_land",
        "bankrupt": "cmd_bankrupt",
        "end_game": "cmd_end_game",
        "accept": "cmd_accept",
        "reject": "cmd_reject",
        "withdraw": "cmd_withdraw",
    }
    # verb -> (fewest, most arguments, usage); most None = no limit (trade's item lists).
    # Rules.apply refuses a line with a word too few or too many before the command runs,
    # so a stray word ("pay Anna Boris 1 000") is never dropped. Every COMMANDS verb has
    # an entry (tests/test_command_parsing.py). The dice of DICE_VERBS count as optional
    # here: the reader or the CLI adds them, and dice_args says how many are needed.
    ARITY = {
        "roll": (0, 2, "roll D D"),
        "end": (0, 0, "end"),
        "buy": (0, 0, "buy"),
        "decline": (0, 0, "decline"),
        "bid": (2, 2, "bid PLAYER AMOUNT"),
        "opening": (1, 1, "opening AMOUNT"),
        "hammer": (0, 0, "hammer"),
        "build": (1, 1, "build PLOT"),
        "sell_building": (1, 1, "sell_building PLOT"),
        "mortgage": (1, 1, "mortgage PLOT"),
        "redeem": (1, 1, "redeem PLOT"),
        "trade": (3, None, "trade PLAYER PLAYER give ITEM... get ITEM..."),
        "pay": (3, 3, "pay PLAYER PLAYER AMOUNT"),
        "draw": (0, 1, "draw [CARD]"),
        "choose": (1, 1, "choose CELL"),
        "pay_fine": (0, 0, "pay_fine"),
        "use_card": (1, 1, "use_card CARD"),
        "land": (1, 2, "land CELL [double]"),
        "bankrupt": (1, 1, "bankrupt PLAYER"),
        "end_game": (0, 0, "end_game"),
        "accept": (1, 1, "accept OFFER"),
        "reject": (1, 1, "reject OFFER"),
        "withdraw": (1, 1, "withdraw OFFER"),
    }
    # verbs whose dice the table or the reader supplies: verb -> (arguments before the dice, dice)
    DICE_VERBS = {"roll": (0, 2)}
    # what a player in debt may still do: raise money, give up, or let others act
    DEBT_COMMANDS = {
        "sell_building",
        "mortgage",
        "trade",
        "bankrupt",
        "bid",
        "hammer",
        "opening",
        "accept",
        "reject",
        "withdraw",
    }

    def __init__(self, edition):
        self.edition = edition
        self.DICE_VERBS = {**self.DICE_VERBS, "roll": (0, edition.options["dice"])}
        self.ARITY = {**self.ARITY, "roll": (0, edition.options["dice"], "roll" + " D" * edition.options["dice"])}
        self.opt = edition.options
        self.cells = edition.cells
        self.n_cells = len(edition.cells)
        self.LANDINGS = {
            "start": self.land_start,
            "plot": self.land_plot,
            "card": self.land_card,
            "free": self.land_free,
            "tax": self.land_tax,
            "detention": self.land_free,
            "go_to_detention": self.land_go_to_detention,
        }

    # ----- edition checks -------------------------------------------------------

    @classmethod
    def check_effect(cls, effect, source, path):
        """One card effect: a verb of these rules and only its arguments, each of its type and range."""
        if not isinstance(effect, dict) or "do" not in effect:
            raise EditionProblem("edition_effect_table", source, path)
        verb = effect["do"]
        if not isinstance(verb, str) or verb not in cls.EFFECTS:
            raise EditionProblem(
                "edition_effect", source, f"{path}.do", value=shown(verb), known=", ".join(sorted(cls.EFFECTS))
            )
        needed = cls.EFFECTS[verb]
        for key in needed:
            if key not in effect:
                raise EditionProblem("edition_effect_needs", source, f"{path}.{key}", effect=verb)
        takes = (*needed, *cls.EFFECT_OPTIONAL.get(verb, ()))
        for key, value in effect.items():
            where = f"{path}.{keyname(key)}"
            if key == "do":
                continue
            if key not in takes:
                raise EditionProblem(
                    "edition_effect_arg" if takes else "edition_effect_no_args",
                    source,
                    where,
                    effect=verb,
                    known=", ".join(takes),
                )
            if key in cls.EFFECT_NUMBERS:
                check_number(value, cls.EFFECT_NUMBERS[key], source, where)
            elif key in EFFECT_TEXTS:
                if not isinstance(value, str):
                    raise EditionProblem("edition_text", source, where, value=shown(value))
            elif not isinstance(value, bool):  # a flag (collect)
                raise EditionProblem("edition_kind_bool", source, where, value=shown(value))

    @classmethod
    def check_edition(cls, edition):
        """Cross-checks a module needs beyond the file's own shape; subclasses extend.

        The core checks what it reads: the parameters of non-plot cells, card cells'
        decks, the decks named by options and effects, and that [slot] and [extra]
        hold only what the rules module reads.
        """
        src = edition.source
        kinds = {c.kind for c in edition.cells}
        if "detention" in kinds or "go_to_detention" in kinds:
            if len(edition.cells_of_kind("detention")) != 1:
                raise EditionProblem("edition_one_detention", src, "cells")
        for cell in edition.cells:
            where = f"cells[{cell.index}]"
            if cell.kind == "card" and cell.deck is None:
                raise EditionProblem("edition_card_cell_deck", src, f"{where}.deck")
            if cell.kind != "card" and cell.deck is not None:
                raise EditionProblem("edition_deck_only_card", src, f"{where}.deck")
            known = cls.CELL_PARAMS.get(cell.kind, {})
            for key, value in cell.params.items():
                if key not in known:
                    raise EditionProblem(
                        "edition_cell_key",
                        src,
                        f"{where}.{keyname(key)}",
                        cell_kind=cell.kind,
                        known=", ".join(("id", "kind", "name", *known)),
                    )
                check_number(value, known[key], src, f"{where}.{key}")
        for i, deck in enumerate(edition.options.get("discard_decks", ())):
            if not isinstance(deck, str) or deck not in edition.decks:
                raise EditionProblem("edition_no_deck", src, f"options.discard_decks[{i}]", value=shown(deck))
        for card in edition.cards.values():
            for eff in card.effects:
                if eff["do"] == "move_to" and edition.cell(eff["cell"]) is None:
                    raise EditionProblem(
                        "edition_move_to", src, f"decks.{card.deck}.{card.id}", value=shown(eff["cell"])
                    )
                if eff["do"] == "move_nearest" and eff["kind"] not in kinds:
                    raise EditionProblem(
                        "edition_move_nearest", src, f"decks.{card.deck}.{card.id}", value=shown(eff["kind"])
                    )
                if eff["do"] == "move_nearest" and "deck" in eff and eff["deck"] not in edition.decks:
                    raise EditionProblem(
                        "edition_no_deck", src, f"decks.{card.deck}.{card.id}", value=shown(eff["deck"])
                    )
                for account in (eff.get("to"), eff.get("from")):
                    if account is not None and account not in cls.SYSTEM_ACCOUNTS:
                        raise EditionProblem(
                            "edition_account",
                            src,
                            f"decks.{card.deck}.{card.id}",
                            value=shown(account),
                            known=", ".join(cls.SYSTEM_ACCOUNTS),
                        )
        if edition.slot and not cls.READS_SLOT:
            raise EditionProblem("edition_no_slot", src, "slot")
        for key in edition.extra:
            if key not in cls.EXTRA_KEYS:
                raise EditionProblem(
                    "edition_extra_key" if cls.EXTRA_KEYS else "edition_extra_none",
                    src,
                    f"extra.{keyname(key)}",
                    known=", ".join(cls.EXTRA_KEYS),
                )

    # ----- starting a game ------------------------------------------------------

    def new_state(self, players, seed):
        ed = self.edition
        if not ed.players_min <= len(players) <= ed.players_max:
            raise RuleViolation("player_count", min=ed.players_min, max=ed.players_max, given=len(players))
        for name in players:
            if (
                name.lower() in (*SYSTEM_ACCOUNTS, TABLE)
                or not name.replace("_", "").replace("-", "").isalnum()
                or len(name) > MAX_NAME
            ):
                raise RuleViolation("bad_player_name", name=name)
        if len({p.lower() for p in players}) != len(players):
            raise RuleViolation("duplicate_player")
        s = State()
        s.players = tuple(players)
        s.alive = tuple(players)
        s.turn = players[0]
        s.rng = seed
        for name in ed.decks:
            s.decks[name], s.rng = shuffled(ed.decks[name], s.rng)
            s.discards[name] = ()
        for p in players:
            s.position[p] = 0
            s.balances[p] = 0
            self.transfer(s, BANK, p, ed.start_cash)
        self.setup(s)
        s.notes.append(Note("game_started", {"edition": ed.id, "players": list(players)}))
        self.check_invariants(s)
        return s

    def setup(self, s):
        """Edition hook: extra money or items handed out at the start."""

    # ----- the one entry point --------------------------------------------------

    def apply(
        self, state: State, line: Command | str, actor: str = TABLE, trusted: bool = False, seq: int | None = None
    ) -> State:
        """Apply one command issued by `actor` (TABLE or a player); the new state, or RuleViolation/BadCommand.

        `line` is a parsed Command (a str is parsed here, for tests and tools).
        `trusted`: a stored event replayed, whose actor was checked when it was submitted.
        `seq`: the number the event will have in the game's history (engine/game.py passes
        it): a trade offer is named by it, so no number is ever given to two offers.
        """
        cmd = line if isinstance(line, Command) else parse_command(line)
        if cmd is None:
            raise BadCommand("empty_command")
        verb, args = cmd.verb, cmd.args
        method = self.COMMANDS.get(verb)
        if method is None:
            raise BadCommand("unknown_command", verb=verb)
        fewest, most, usage = self.ARITY[verb]
        if len(args) < fewest or (most is not None and len(args) > most):
            raise BadCommand("usage", usage=usage)
        if state.phase == "over":
            raise RuleViolation("game_over", winner=state.winner)
        if state.debts and verb not in self.DEBT_COMMANDS:
            d = state.debts[0]
            raise RuleViolation("debt_first", player=d.debtor, amount=d.amount, creditor=d.creditor)
        if actor != TABLE and not trusted:
            self.check_actor(state, cmd, actor)
        s = state.copy()
        if verb == "trade" and actor != TABLE:
            self.propose_trade(s, args, actor, seq)
        else:
            getattr(self, method)(s, args)
        if s.command is None and any(" " in a or "#" in a for a in args):
            s.command = cmd.text()  # stored with its quotes, so a replay reads the same words
        self.after_command(s)
        self.check_invariants(s)
        return s

    def after_command(self, s):
        self.settle_debts(s)
        if "offers" in s.extra:
            self.lapse_offers(s)
        if len(s.alive) == 1 and s.phase != "over":
            s.winner = s.alive[0]
            s.phase = "over"
            s.notes.append(Note("winner", {"player": s.winner}))

    # ----- who may act, and what is legal now (docs/actors.md) ----------------------

    # Who besides the table may issue each verb (the table may issue every one):
    #   turn: the player whose turn it is; pending: the player the open decision is about;
    #   named: the player the first argument names (a player may name only themselves);
    #   owner: the owner of the plot the first argument names; offer_to / offer_from: the
    #   player a trade offer is made to / by; drawer: the pending player drawing the deck's
    #   next card (naming a physical card is the table's); table: the table alone.
    # A stored event is replayed as its actor without this check (apply's `trusted`): it was
    # checked when it was submitted, and an electronic draw is stored naming the card it drew.
    WHO = {
        "roll": "turn",
        "end": "turn",
        "buy": "pending",
        "decline": "pending",
        "bid": "named",
        "opening": "table",
        "hammer": "table",
        "build": "owner",
        "sell_building": "owner",
        "mortgage": "owner",
        "redeem": "owner",
        "trade": "named",
        "accept": "offer_to",
        "reject": "offer_to",
        "withdraw": "offer_from",
        "pay": "named",
        "draw": "drawer",
        "choose": "pending",
        "pay_fine": "turn",
        "use_card": "turn",
        "land": "table",
        "bankrupt": "named",
        "end_game": "table",
    }

    def party(self, s: State, cmd: Command) -> str | None:
        """The player who may issue cmd now besides the table; None: the table alone (or nobody)."""
        who = self.WHO[cmd.verb]
        args = cmd.args
        try:
            if who == "turn":
                return s.turn
            if who == "pending":
                return s.pending.player if s.pending is not None else None
            if who == "named":
                return self.player_arg(s, args[0])
            if who == "owner":
                return s.owner.get(self.plot_arg(args[0]).id)
            if who == "offer_to":
                return self.offer_arg(s, args[0]).other
            if who == "offer_from":
                return self.offer_arg(s, args[0]).proposer
            if who == "drawer":
                return self.drawer(s, args)
        except (BadCommand, RuleViolation):
            return None
        return None

    def check_actor(self, s: State, cmd: Command, actor: str) -> None:
        """Refuse cmd from a player it does not belong to, saying who may issue it."""
        if actor not in s.players:
            raise BadCommand("unknown_actor", actor=actor, players=", ".join(s.players))
        party = self.party(s, cmd)
        if party == actor:
            return
        if party is None:
            # the table's alone, or nobody's now: the command's own refusal says more, if it has one
            getattr(self, self.COMMANDS[cmd.verb])(s.copy(), cmd.args)
            raise RuleViolation("table_only", actor=actor, verb=cmd.verb)
        who = self.WHO[cmd.verb]
        if who == "named":  # the player named another: each acts only for themselves
            raise RuleViolation("for_yourself", actor=actor, verb=cmd.verb, player=party)
        if who == "owner":
            raise RuleViolation(
                "owner_only", actor=actor, verb=cmd.verb, player=party, plot=self.plot_arg(cmd.args[0]).id
            )
        raise RuleViolation("not_yours", actor=actor, verb=cmd.verb, player=party)

    def legal(self, state: State, actor: str = TABLE, verbs: Collection[str] | None = None) -> list[Action]:
        """Every command `actor` may issue now, as patterns with exact bounds (engine/actions.py).

        Derived from the rules' own checks, never by trying lines through apply; the
        table sees every action, each marked with the player it belongs to.
        verbs: only these verbs' actions (the reader asks about a few, and a tap is
        booked within milliseconds); the order stays the rules' own.
        """
        if state.phase == "over":
            return []
        out: list[Action] = []
        fresh = state.memo is None
        if fresh:
            # facts derived from the board, shared by the verbs' checks during this call and kept
            # for later states with the same board (State.memo, board_bucket)
            state.memo = self.board_bucket(state)
        try:
            for verb, derive, reads in self.legal_plan():
                if verbs is not None and verb not in verbs:
                    continue
                if state.debts and verb not in self.DEBT_COMMANDS:
                    continue
                if actor != TABLE and not self.may_be_party(state, verb, actor):
                    continue  # none of this verb's actions can be the actor's: skip deriving them
                if reads is None:
                    out.extend(derive(state))
                    continue
                key = (verb, self.reads_key(state, reads))
                cache = self.board_bucket(state)
                found = cache.get(key)
                if found is None:
                    found = cache[key] = tuple(derive(state))
                out.extend(found)
        finally:
            if fresh:
                state.memo = None
        if actor != TABLE:
            out = [a for a in out if a.party == actor]
        return out

    def legal_plan(self) -> list[tuple[str, Any, tuple[str, ...] | None]]:
        """(verb, its legal_ method, what a cached answer is kept by) in COMMANDS order, made once."""
        plan = self.__dict__.get("_legal_plan")
        if plan is None:
            plan = self.__dict__["_legal_plan"] = [
                (verb, getattr(self, "legal_" + verb), self.LEGAL_READS.get(verb)) for verb in self.COMMANDS
            ]
        return plan

    def may_be_party(self, s: State, verb: str, actor: str) -> bool:
        """False when no action of verb can belong to actor now, judged by WHO alone (cheap).

        An action's party is the player `party` names for its commands (docs/actors.md), so
        a table-only verb is never a player's, a turn verb only the player on turn's, and a
        decision's verbs only the pending player's.
        """
        who = self.WHO[verb]
        if who == "table":
            return False
        if who == "turn":
            return s.turn == actor
        if who == "pending" or who == "drawer":
            return s.pending is not None and s.pending.player == actor
        return True

    # ----- trade offers: proposed by one player, answered by the other (docs/actors.md) ----

    def offers(self, s: State) -> tuple[Offer, ...]:
        return s.extra.get("offers", ())

    def offer_arg(self, s: State, word: str) -> Offer:
        number = self.int_arg(word, "offer", 1)
        for offer in self.offers(s):
            if offer.number == number:
                return offer
        raise RuleViolation("no_such_offer", number=number)

    def stamp(self, s: State, a: str, b: str) -> tuple:
        """Both sides' holdings, as a value: a change to either lapses an offer between them."""
        return tuple(
            (
                p,
                s.cash(p),
                tuple((pid, s.level.get(pid, 0), pid in s.mortgaged) for pid in s.plots_of(p)),
                s.kept.get(p, ()),
                tuple(sorted((k[1], n) for k, n in s.holdings.items() if k[0] == p)),
            )
            for p in (a, b)
        )

    def propose_trade(self, s: State, args: tuple[str, ...], actor: str, seq: int | None = None) -> None:
        """A player's `trade`: an offer the other side accepts or rejects (one open offer per proposer).

        The offer is named by its event's number (`accept 7` takes the offer event #7 made),
        or, applied outside a game's history, by the next number after any given so far.
        """
        trial = s.copy()
        self.cmd_trade(trial, args)  # the terms must hold now; nothing moves yet
        a, b = self.player_arg(s, args[0]), self.player_arg(s, args[1])
        number = seq if seq is not None else s.extra.get("offer_count", 0) + 1
        for old in self.offers(s):
            if old.proposer == a:
                s.notes.append(
                    Note("offer_lapsed", {"number": old.number, "player": a, "other": old.other, "reason": "replaced"})
                )
        terms = tuple(w.lower() if w.lower() in ("give", "get") else w for w in args[2:])
        s.extra["offer_count"] = number
        s.extra["offers"] = tuple(o for o in self.offers(s) if o.proposer != a) + (
            Offer(number, a, b, terms, self.stamp(s, a, b)),
        )
        # what each side hands over, as the trade's notes say it: plots and cards, then cash
        gave: list = []
        got: list = []
        for note in trial.notes:
            if note.code in ("traded", "cards_traded"):
                gave += note.params["gave"] + ([note.params["paid"]] if note.params.get("paid") else [])
                got += note.params["got"] + ([note.params["received"]] if note.params.get("received") else [])
        s.notes.append(Note("offer_made", {"number": number, "player": a, "other": b, "gave": gave, "got": got}))

    def take_offer(self, s: State, word: str) -> Offer:
        offer = self.offer_arg(s, word)
        rest = tuple(o for o in self.offers(s) if o is not offer)
        if rest:
            s.extra["offers"] = rest
        else:
            s.extra.pop("offers", None)
        return offer

    def cmd_accept(self, s: State, args: tuple[str, ...]) -> None:
        """`accept N`: the other side takes trade offer N; the trade happens now."""
        offer = self.take_offer(s, args[0])
        s.notes.append(Note("offer_accepted", {"number": offer.number, "player": offer.other, "other": offer.proposer}))
        self.cmd_trade(s, (offer.proposer, offer.other, *offer.terms))

    def cmd_reject(self, s: State, args: tuple[str, ...]) -> None:
        """`reject N`: the other side turns trade offer N down."""
        offer = self.take_offer(s, args[0])
        s.notes.append(Note("offer_rejected", {"number": offer.number, "player": offer.other, "other": offer.proposer}))

    def cmd_withdraw(self, s: State, args: tuple[str, ...]) -> None:
        """`withdraw N`: the proposer takes trade offer N back."""
        offer = self.take_offer(s, args[0])
        s.notes.append(
            Note("offer_withdrawn", {"number": offer.number, "player": offer.proposer, "other": offer.other})
        )

    def lapse_offers(self, s: State, turn_over: bool = False) -> None:
        """Offers whose sides' holdings changed (or, at the turn's end, every offer) lapse."""
        kept = []
        for o in self.offers(s):
            alive = o.proposer in s.alive and o.other in s.alive
            if not turn_over and alive and self.stamp(s, o.proposer, o.other) == o.stamp:
                kept.append(o)
            else:
                s.notes.append(
                    Note(
                        "offer_lapsed",
                        {
                            "number": o.number,
                            "player": o.proposer,
                            "other": o.other,
                            "reason": "turn" if turn_over else "holdings",
                        },
                    )
                )
        if kept:
            s.extra["offers"] = tuple(kept)
        else:
            s.extra.pop("offers", None)

    # ----- legal actions of the core verbs (each mirrors its cmd_ method's checks) ----

    def may_move(self, s: State) -> bool:
        return s.pending is None and (s.phase in ("setup", "roll") or (s.phase == "moved" and s.again))

    def legal_roll(self, s: State) -> list[Action]:
        if not self.may_move(s):
            return []
        return [Action("roll", dice(self.opt["dice"]), s.turn)]

    def legal_land(self, s: State) -> list[Action]:
        if not self.may_move(s):
            return []
        p = s.turn
        found: dict[bool, list[str]] = {False: [], True: []}
        for cell in self.cells:
            for double in (False, True):
                try:
                    self.landing(s, p, cell, double)
                except RuleViolation:
                    continue
                found[double].append(cell.id)
        out = []
        if found[False]:
            out.append(Action("land", (OneOf(tuple(found[False]), "cell"),)))
        if found[True]:
            out.append(Action("land", (OneOf(tuple(found[True]), "cell"), "double")))
        return out

    def legal_end(self, s: State) -> list[Action]:
        if s.pending is None and s.phase == "moved" and not s.again:
            return [Action("end", (), s.turn)]
        return []

    def legal_buy(self, s: State) -> list[Action]:
        a = s.pending
        if a is not None and a.kind == "offer" and s.cash(a.player) >= self.edition.plots[a.plot].price:
            return [Action("buy", (), a.player)]
        return []

    def legal_decline(self, s: State) -> list[Action]:
        a = s.pending
        if a is not None and a.kind == "offer":
            return [Action("decline", (), a.player)]
        return []

    def open_auction_of(self, s: State) -> Pending | None:
        """The auction under way (the kinds `auction()` accepts), or None."""
        if s.pending is None:
            return None  # no decision open, so no auction (asked by several verbs in every legal call)
        try:
            return self.auction(s)
        except RuleViolation:
            return None

    def may_bid(self, s: State, a: Pending, p: str) -> bool:
        """Whether p may bid at this auction at all (editions narrow it)."""
        return not any(d.debtor == p for d in s.debts)

    def legal_bid(self, s: State) -> list[Action]:
        a = self.open_auction_of(s)
        if a is None:
            return []
        low = a.bid + 1 if a.bidder is not None else a.opening
        out = []
        for p in s.alive:
            high = min(s.cash(p), MAX_AMOUNT)
            if max(low, 1) <= high and self.may_bid(s, a, p):
                out.append(Action("bid", (p, Span(max(low, 1), high)), p))
        return out

    def legal_opening(self, s: State) -> list[Action]:
        a = self.open_auction_of(s)
        if a is None or a.bidder is not None:
            return []
        return [Action("opening", (Span(1, MAX_AMOUNT),))]

    def legal_hammer(self, s: State) -> list[Action]:
        return [Action("hammer")] if self.open_auction_of(s) is not None else []

    # What each plot check reads besides the board (owner, level, mortgaged), the open decision
    # (pending) and the options. Consecutive states mostly share all of it, so plots_passing
    # keeps the checks' answers by these values (board_bucket): a check that starts
    # reading another field must name it here, or it would be answered from an older state.
    PLOT_CHECK_READS: dict[str, tuple[str, ...]] = {
        "build_terms": (),  # check_build but the cash (legal_build compares it)
        "redeem_terms": ("turn", "phase"),  # check_redeem but the cash; Millionaire: before one's own turn
        "check_sell_building": (),
        "check_mortgage": (),
        "tradable": (),  # check_not_under_hammer and check_tradable
    }
    # The same for whole verbs whose actions derive from the board and these fields alone: legal
    # lists them from the cache when a state agrees on all of it (an edition that overrides one of
    # these legal_ methods, or the checks under it, names what its version reads).
    LEGAL_READS: dict[str, tuple[str, ...]] = {
        "sell_building": (),
        "mortgage": (),
        "trade": ("alive", "balances", "debts", "kept"),
        "pay": ("alive", "balances"),
    }
    BOARD_CACHE_SIZE = 512
    # Open decisions no plot check reads: an offer to buy is no auction (check_not_under_hammer),
    # a card to draw or a cell to choose names no plot. States with one of them share the cache of
    # the same board with no decision open; any other decision is part of the board's key (a verb
    # that reads even these names "pending" in LEGAL_READS).
    BOARD_NEUTRAL_PENDINGS = frozenset({"offer", "draw", "choose"})

    def board_bucket(self, s: State) -> dict:
        """The cached answers and derived facts for states with s's board (owner, level, mortgaged, pending).

        During a legal call it is the state's memo (found once, so the board is hashed once).
        """
        if s.memo is not None:
            return s.memo
        pending = s.pending
        if pending is not None and pending.kind in self.BOARD_NEUTRAL_PENDINGS:
            pending = None
        board = (tuple(s.owner.items()), tuple(s.level.items()), s.mortgaged, pending)
        cache = self.__dict__.get("_board_cache")
        if cache is None or len(cache) > self.BOARD_CACHE_SIZE:
            cache = self.__dict__["_board_cache"] = {}  # simply dropped when full: states move on
        bucket = cache.get(board)
        if bucket is None:
            bucket = cache[board] = {}
        return bucket

    def reads_key(self, s: State, reads: tuple[str, ...]) -> tuple:
        """The values of these fields of s (PLOT_CHECK_READS, LEGAL_READS), hashable."""
        out = []
        for name in reads:
            value = getattr(s, name)
            out.append(tuple(value.items()) if isinstance(value, dict) else value)
        return tuple(out)

    def plots_passing(self, s: State, check, plots) -> list[tuple[str, str]]:
        """(plot, owner) of each of these owned plots `check(s, cell)` lets through (board order)."""
        return [(pid, s.owner[pid]) for pid, _ in self.plots_answers(s, check, plots)]

    def plots_answers(self, s: State, check, plots) -> list[tuple[str, Any]]:
        """(plot, what check returned) of each of these plots `check(s, cell)` lets through (board order).

        Kept by the values the check reads (PLOT_CHECK_READS) when it names them.
        """
        reads = self.PLOT_CHECK_READS.get(check.__name__)
        key = cache = None
        if reads is not None:
            key = (check.__name__, tuple(plots), self.reads_key(s, reads))
            cache = self.board_bucket(s)
            found = cache.get(key)
            if found is not None:
                return found
        out = []
        for pid in plots:
            try:
                answer = check(s, self.edition.plots[pid])
            except RuleViolation:
                continue
            out.append((pid, answer))
        if cache is not None:
            cache[key] = out
        return out

    def legal_build(self, s: State) -> list[Action]:
        # only a whole buildable industry in one hand can take a building: the others are skipped cheaply
        bucket = self.board_bucket(s)
        plots = bucket.get("build_candidates")
        if plots is None:
            plots = bucket["build_candidates"] = [
                pid
                for ind in self.edition.industries.values()
                if ind.buildable and self.industry_owner(s, ind.id) is not None
                for pid in self.edition.industry_plots(ind.id)
            ]
        # check_build is build_terms and then the cash
        return [
            Action("build", (pid,), p)
            for pid, (p, cost) in self.plots_answers(s, self.build_terms, plots)
            if self.affords(s, p, cost)
        ]

    def legal_sell_building(self, s: State) -> list[Action]:
        plots = [pid for pid in self.edition.plots if s.level.get(pid)]
        return [Action("sell_building", (pid,), p) for pid, p in self.plots_passing(s, self.check_sell_building, plots)]

    def legal_mortgage(self, s: State) -> list[Action]:
        plots = [pid for pid in self.edition.plots if pid in s.owner and pid not in s.mortgaged]
        return [Action("mortgage", (pid,), p) for pid, p in self.plots_passing(s, self.check_mortgage, plots)]

    def legal_redeem(self, s: State) -> list[Action]:
        plots = [pid for pid in self.edition.plots if pid in s.mortgaged]
        # check_redeem is redeem_terms and then the cash
        return [
            Action("redeem", (pid,), p)
            for pid, (p, price) in self.plots_answers(s, self.redeem_terms, plots)
            if self.affords(s, p, price)
        ]

    def tradable(self, s: State, holder: str, cell) -> bool:
        try:
            self.check_not_under_hammer(s, cell)
            self.check_tradable(s, holder, cell)
        except RuleViolation:
            return False
        return True

    def trade_side(self, s: State, p: str) -> Side:
        """What p may hand over in a trade now."""
        key = ("tradable", p, self.reads_key(s, self.PLOT_CHECK_READS["tradable"]))
        cache = self.board_bucket(s)
        plots = cache.get(key)
        if plots is None:
            plots = cache[key] = tuple(pid for pid in s.plots_of(p) if self.tradable(s, p, self.edition.plots[pid]))
        in_debt = any(d.debtor == p for d in s.debts)
        cash = Span(1, min(s.cash(p), MAX_AMOUNT)) if s.cash(p) >= 1 and not in_debt else None
        return Side(plots, self.tradable_cards(s, p), cash)

    def tradable_cards(self, s: State, p: str) -> tuple[str, ...]:
        """Kept cards a trade may hand over (editions that trade them say which)."""
        return ()

    def legal_trade(self, s: State) -> list[Action]:
        sides = {p: self.trade_side(s, p) for p in s.alive}
        empty = Side()
        offers = {p: side != empty for p, side in sides.items()}  # has something to hand over
        out = []
        for a in s.alive:
            for b in s.alive:
                if a != b and (offers[a] or offers[b]):
                    out.append(Action("trade", (a, b, Terms(sides[a], sides[b])), a))
        return out

    def legal_accept(self, s: State) -> list[Action]:
        trades = self.legal_trade(s) if self.offers(s) else []
        out = []
        for o in self.offers(s):
            cmd = Command("trade", (o.proposer, o.other, *o.terms))
            if any(t.matches(cmd) for t in trades):
                out.append(Action("accept", (str(o.number),), o.other))
        return out

    def legal_reject(self, s: State) -> list[Action]:
        return [Action("reject", (str(o.number),), o.other) for o in self.offers(s)]

    def legal_withdraw(self, s: State) -> list[Action]:
        return [Action("withdraw", (str(o.number),), o.proposer) for o in self.offers(s)]

    def legal_pay(self, s: State) -> list[Action]:
        out: list[Action] = []
        for a in s.alive:
            if s.cash(a) >= 1:
                amount = Span(1, min(s.cash(a), MAX_AMOUNT))
                out.extend(Action("pay", (a, b, amount), a) for b in s.alive if b != a)
        return out

    def legal_draw(self, s: State) -> list[Action]:
        a = s.pending
        if a is None or a.kind != "draw":
            return []
        order = s.decks[a.stage] or s.discards[a.stage]
        out = [Action("draw", (), a.player)]
        if order:
            # the cards in name order, never the deck's: a list must not tell the next card
            out.append(Action("draw", (OneOf(tuple(sorted(order)), "card"),)))
        return out

    def drawer(self, s: State, args: tuple[str, ...]) -> str | None:
        """Who may `draw` now: the pending player draws the deck's next card; naming one is the table's."""
        a = s.pending
        if a is None or a.kind != "draw" or args:
            return None
        return a.player

    def legal_choose(self, s: State) -> list[Action]:
        a = s.pending
        if a is None or a.kind != "choose":
            return []
        return [Action("choose", (OneOf(tuple(self.cells[i].id for i in a.options), "cell"),), a.player)]

    def legal_pay_fine(self, s: State) -> list[Action]:
        p = s.turn
        if p in s.detained and s.phase != "moved" and s.cash(p) >= self.opt["detention_fine"]:
            return [Action("pay_fine", (), p)]
        return []

    def legal_use_card(self, s: State) -> list[Action]:
        p = s.turn
        if p not in s.detained:
            return []
        return [
            Action("use_card", (c,), p)
            for c in s.kept.get(p, ())
            if any(e["do"] == "release" for e in self.edition.cards[c].effects)
        ]

    def legal_bankrupt(self, s: State) -> list[Action]:
        if not s.debts:
            return []
        debtors = dict.fromkeys(d.debtor for d in s.debts if d.debtor in s.alive)
        owed = {p: sum(d.amount for d in s.debts if d.debtor == p) for p in debtors}
        return [Action("bankrupt", (p,), p) for p in debtors if self.raisable(s, p) < owed[p]]

    def legal_end_game(self, s: State) -> list[Action]:
        return [Action("end_game")] if s.pending is None else []

    # ----- argument helpers -----------------------------------------------------

    def need(self, args, n, usage):
        if len(args) < n:
            raise BadCommand("usage", usage=usage)

    def player_arg(self, s, name):
        for p in s.alive:
            if p.lower() == name.lower():
                return p
        if any(p.lower() == name.lower() for p in s.players):
            raise RuleViolation("player_out", player=name)
        raise BadCommand("unknown_player", player=name)

    def plot_arg(self, ref):
        cell = self.edition.cell(ref)
        if cell is None or cell.kind != "plot":
            raise BadCommand("unknown_plot", plot=ref)
        return cell

    def int_arg(self, text, what="amount", low=0, high=None):
        """A number is one word of ASCII digits 0-9 within low..high (at most MAX_AMOUNT).

        Not int(text): that takes '+5', '-3', '1_000', ' 7' and full-width digits.
        """
        if high is None:
            high = MAX_AMOUNT
        if not (text.isascii() and text.isdigit()):
            raise BadCommand("not_a_number", what=what, value=text)
        value = int(text)
        if value < low or value > high:
            raise BadCommand("out_of_range", what=what, value=value, low=low, high=high)
        return value

    def dice_args(self, args, count, usage):
        if len(args) != count:
            raise BadCommand("dice_count", count=count, usage=usage)
        return tuple(self.int_arg(a, "die", 1, 6) for a in args)

    # ----- money ----------------------------------------------------------------

    def transfer(self, s, frm, to, amount):
        """Move money between two accounts; the only way any balance changes."""
        if not (isinstance(amount, int) and amount >= 0):
            check(False, f"transfer of {amount!r}")
        if amount == 0 or frm == to:
            return
        if frm in s.players:
            if s.balances[frm] < amount:
                check(False, f"{frm} would go below zero paying {amount}")
        s.balances[frm] = s.balances.get(frm, 0) - amount
        s.balances[to] = s.balances.get(to, 0) + amount
        s.postings.append(Posting(frm, -amount))
        s.postings.append(Posting(to, amount))

    def give(self, s, p, item, count):
        """Change how many of an item (shares, policies, ...) a player holds."""
        value = s.holdings.get((p, item), 0) + count
        if value < 0:
            check(False, f"{p} would hold {value} {item}")
        if value:
            s.holdings[(p, item)] = value
        else:
            s.holdings.pop((p, item), None)

    def in_use(self, s, item):
        return sum(n for (_, it), n in s.holdings.items() if it == item)

    def affords(self, s, player, amount):
        return s.cash(player) >= amount

    def check_afford(self, s, player, amount, what):
        """Refuse a payment the player's cash does not cover."""
        if not self.affords(s, player, amount):
            raise RuleViolation("insufficient_funds", player=player, amount=amount, cash=s.cash(player), what=what)

    def spend(self, s, player, to, amount, what):
        """A voluntary payment: refused when the player cannot afford it."""
        self.check_afford(s, player, amount, what)
        self.transfer(s, player, to, amount)

    def charge(self, s, debtor, creditor, amount, reason, **params):
        """A payment the rules impose: paid now, or owed until the player raises it."""
        if amount <= 0:
            return
        if s.cash(debtor) >= amount and not any(d.debtor == debtor for d in s.debts):
            self.transfer(s, debtor, creditor, amount)
            s.notes.append(Note(reason, {"player": debtor, "to": creditor, "amount": amount, **params}))
        else:
            s.debts = s.debts + (Debt(debtor, creditor, amount, reason),)
            s.notes.append(
                Note(
                    "debt",
                    {
                        "player": debtor,
                        "to": creditor,
                        "amount": amount,
                        "reason": reason,
                        "cash": s.cash(debtor),
                        **params,
                    },
                )
            )

    def settle_debts(self, s):
        kept = []
        for d in s.debts:
            if (
                d.debtor in s.alive
                and s.cash(d.debtor) >= d.amount
                and not d.claim
                and not any(k.debtor == d.debtor for k in kept)
            ):
                self.transfer(s, d.debtor, d.creditor, d.amount)
                s.notes.append(
                    Note("debt_paid", {"player": d.debtor, "to": d.creditor, "amount": d.amount, "reason": d.reason})
                )
            elif d.debtor in s.alive:
                kept.append(d)
        s.debts = tuple(kept)

    # ----- turns and movement ---------------------------------------------------

    def require_turn_free(self, s):
        if s.pending is not None:
            raise RuleViolation("pending_first", pending=s.pending.kind, player=s.pending.player, plot=s.pending.plot)

    def cmd_roll(self, s, args):
        n = self.opt["dice"]
        dice = self.dice_args(args, n, "roll" + " D" * n)
        self.require_turn_free(s)
        p = s.turn
        if not (s.phase in ("setup", "roll") or (s.phase == "moved" and s.again)):
            raise RuleViolation("already_rolled", player=p)
        s.last_dice = dice
        s.notes.append(Note("rolled", {"player": p, "dice": list(dice)}))
        self.move(s, p, n == 2 and dice[0] == dice[1], lambda: self.advance(s, p, sum(dice)))

    def cmd_land(self, s, args):
        """A table throwing its own dice reports where the token landed: `land CELL [double]`.

        A held player reports a miss with `land` on the detention cell itself
        (or the cell the fine lets them reach), a double with `land CELL double`.
        """
        if len(args) > 1 and args[1].lower() != "double":
            raise BadCommand("usage", usage="land CELL [double]")  # not silently a plain landing
        self.require_turn_free(s)
        p = s.turn
        cell = self.edition.cell(args[0])
        if cell is None:
            raise BadCommand("unknown_cell", cell=args[0])
        if not (s.phase in ("setup", "roll") or (s.phase == "moved" and s.again)):
            raise RuleViolation("already_rolled", player=p)
        steps, double = self.landing(s, p, cell, len(args) > 1)
        s.last_dice = ()
        self.move(s, p, double, lambda: self.advance(s, p, steps))

    def landing(self, s, p, cell, double):
        """(steps, double) of p's token reported on cell; RuleViolation if the dice cannot have done it.

        With two dice, 2 or 12 cells can only be thrown as a double (1+1, 6+6), so such a
        landing counts as one, said or not (unless `land` may jump anywhere: the option
        land_checks_distance = false, where a distance is no throw).
        """
        n = self.opt["dice"]
        steps = (cell.index - s.position[p]) % self.n_cells or self.n_cells
        staying = p in s.detained and cell.index == s.position[p]
        if n == 2 and steps in (2, 12) and not staying and self.opt["land_checks_distance"]:
            double = True
        if p in s.detained and not double and not staying and not self.miss_frees(s, p):
            raise RuleViolation("detained_stays", player=p, cell=self.cells[s.position[p]].id)
        reachable = n <= steps <= 6 * n and (not double or (n == 2 and steps % 2 == 0))
        if not (staying and not double) and not reachable and self.opt["land_checks_distance"]:
            raise RuleViolation("not_a_roll", player=p, cell=cell.id, steps=steps)
        return steps, double

    def move(self, s, p, double, go):
        """One move of the current player, however it was reported: doubles, detention, landing."""
        s.phase = "moved"
        s.again = False
        self.move_started(s, p)
        if p in s.detained:
            self.detained_move(s, p, double, go)
            return
        if double:
            s.doubles += 1
            if s.doubles >= 3 and self.opt["three_doubles_detain"]:
                s.notes.append(Note("three_doubles", {"player": p}))
                self.send_to_detention(s, p)
                return
        go()
        if double and p in s.alive and p not in s.detained and s.turn == p:
            s.again = True

    def move_started(self, s, p):
        """Edition hook: what a new move of the current player ends (a visit, a chance)."""

    def advance(self, s, p, steps):
        """Move forward, booking every cell passed, then land."""
        pos = s.position[p]
        for k in range(1, steps):
            self.on_pass(s, p, self.cells[(pos + k) % self.n_cells])
            if p not in s.alive:
                return
        self.place(s, p, (pos + steps) % self.n_cells)

    def place(self, s, p, index):
        s.position[p] = index
        cell = self.cells[index]
        s.notes.append(Note("landed", {"player": p, "cell": cell.id}))
        self.LANDINGS[cell.kind](s, p, cell)

    def move_to(self, s, p, index, collect=True, forward=True):
        """Card movement: forward (passing cells as usual) or straight back."""
        if forward:
            steps = (index - s.position[p]) % self.n_cells or self.n_cells
            if collect:
                self.advance(s, p, steps)
                return
            self.place(s, p, index)
        else:
            self.place(s, p, index)

    def on_pass(self, s, p, cell):
        if cell.kind == "start":
            self.pass_start(s, p)

    def pass_start(self, s, p):
        fixed, dividend = self.circle_income_parts(s, p)
        self.transfer(s, BANK, p, fixed + dividend)
        # a dividend part is named, so the screens can show the sum's parts (Elite: 200 + shares)
        params = {"player": p, "amount": fixed + dividend, **({"dividend": dividend} if dividend else {})}
        s.notes.append(Note("circle_income", params))

    def circle_income_parts(self, s, p):
        """The circle income: (the fixed sum, a dividend on shares); no shares in the core."""
        return self.opt["circle_income"], 0

    def cmd_end(self, s, args):
        self.require_turn_free(s)
        p = s.turn
        if s.phase != "moved":
            raise RuleViolation("roll_first", player=p)
        if s.again:
            raise RuleViolation("roll_again", player=p)
        self.next_turn(s)

    def next_turn(self, s):
        order = s.alive
        i = order.index(s.turn) if s.turn in order else -1
        for _ in range(len(order) * 2):
            i = (i + 1) % len(order)
            nxt = order[i]
            if s.skip.get(nxt, 0) > 0:
                s.skip[nxt] -= 1
                if not s.skip[nxt]:
                    del s.skip[nxt]
                s.notes.append(Note("turn_skipped", {"player": nxt}))
                continue
            break
        s.turn = order[i]
        s.phase = "roll"
        s.doubles = 0
        s.again = False
        s.turns += 1
        if "offers" in s.extra:
            self.lapse_offers(s, turn_over=True)
        self.turn_started(s, s.turn)
        s.notes.append(Note("turn", {"player": s.turn}))

    def turn_started(self, s, p):
        """Edition hook: anything that happens as a turn begins."""

    # ----- detention (TAX INSPECTION in Millionaire, jail in Monopoly) ---------

    def detention_index(self):
        return self.edition.cells_of_kind("detention")[0]

    def send_to_detention(self, s, p):
        s.position[p] = self.detention_index()
        s.detained[p] = 0
        s.again = False
        s.notes.append(Note("detained", {"player": p, "cell": self.cells[s.position[p]].id}))

    def land_go_to_detention(self, s, p, cell):
        self.send_to_detention(s, p)

    def miss_frees(self, s, p):
        """Whether this turn's move leaves detention even without a double (the fine is due)."""
        tries = s.detained[p]
        return tries >= self.opt["detention_tries"] or (
            tries + 1 >= self.opt["detention_tries"] and self.opt["detention_third_miss"] == "pay_and_move"
        )

    def detained_move(self, s, p, double, go):
        tries = s.detained[p]
        if tries >= self.opt["detention_tries"]:
            # every try used: the fine is the only way out, so the move collects it
            # (owed like any charge if the player cannot pay) and the player goes
            self.charge(s, p, self.fine_account(), self.opt["detention_fine"], "fine_paid")
            del s.detained[p]
            go()
            return
        if double:
            del s.detained[p]
            s.notes.append(Note("released_by_double", {"player": p}))
            go()
            return
        tries += 1
        s.detained[p] = tries
        s.notes.append(Note("still_detained", {"player": p, "tries": tries}))
        if tries >= self.opt["detention_tries"] and self.opt["detention_third_miss"] == "pay_and_move":
            self.charge(s, p, self.fine_account(), self.opt["detention_fine"], "fine_paid")
            del s.detained[p]
            go()

    def cmd_pay_fine(self, s, args):
        p = s.turn
        if p not in s.detained:
            raise RuleViolation("not_detained", player=p)
        if s.phase == "moved":
            raise RuleViolation("before_roll_only", player=p)
        self.spend(s, p, self.fine_account(), self.opt["detention_fine"], "fine")
        del s.detained[p]
        s.notes.append(Note("fine_paid", {"player": p, "amount": self.opt["detention_fine"]}))

    def fine_account(self):
        return BANK

    def cmd_use_card(self, s, args):
        """Use a kept card that releases from detention: `use_card CARD`."""
        p = s.turn
        card_id = args[0]
        if card_id not in s.kept.get(p, ()):
            raise RuleViolation("card_not_held", player=p, card=card_id)
        card = self.edition.cards[card_id]
        if not any(e["do"] == "release" for e in card.effects):
            raise RuleViolation("card_not_usable", card=card_id)
        if p not in s.detained:
            raise RuleViolation("not_detained", player=p)
        del s.detained[p]
        self.return_kept_card(s, p, card_id)
        s.notes.append(Note("released_by_card", {"player": p, "card": card_id}))

    def return_kept_card(self, s, p, card_id):
        s.kept[p] = tuple(c for c in s.kept[p] if c != card_id)
        if not s.kept[p]:
            del s.kept[p]
        deck = self.edition.cards[card_id].deck
        s.decks[deck] = s.decks[deck] + (card_id,)

    # ----- landings -------------------------------------------------------------

    def land_start(self, s, p, cell):
        self.pass_start(s, p)

    def land_free(self, s, p, cell):
        pass

    def land_tax(self, s, p, cell):
        self.charge(s, p, self.tax_account(), int(cell.params.get("amount", 0)), "tax_paid", cell=cell.id)

    def tax_account(self):
        return BANK

    def land_plot(self, s, p, cell):
        owner = s.owner.get(cell.id)
        if owner is None:
            s.pending = Pending("offer", player=p, plot=cell.id)
            s.notes.append(Note("offer", {"player": p, "plot": cell.id, "price": cell.price}))
        elif owner == p:
            s.notes.append(Note("own_plot", {"player": p, "plot": cell.id}))
        elif cell.id in s.mortgaged:
            s.notes.append(Note("no_rent_mortgaged", {"player": p, "plot": cell.id}))
        else:
            self.charge(s, p, owner, self.rent(s, cell), "rent_paid", plot=cell.id)

    def land_card(self, s, p, cell):
        s.pending = Pending("draw", player=p, stage=cell.deck)
        s.notes.append(Note("draw_card", {"player": p, "deck": cell.deck}))

    # ----- plots: buying, rent, monopoly ----------------------------------------

    def industry_owner(self, s, industry_id):
        """The single owner of every plot of the industry, or None."""
        memo = s.memo
        if memo is None:
            return self.find_industry_owner(s, industry_id)
        key = ("industry_owner", industry_id)
        if key not in memo:
            memo[key] = self.find_industry_owner(s, industry_id)
        return memo[key]

    def find_industry_owner(self, s, industry_id):
        plots = self.edition.industry_plots(industry_id)
        if not plots:
            return None
        owner = s.owner.get(plots[0])
        if owner is None:
            return None
        for pid in plots:  # hot (every build and rent question): stop at the first other owner
            if s.owner.get(pid) != owner:
                return None
        return owner

    def is_monopoly(self, s, player, industry_id):
        if self.industry_owner(s, industry_id) != player:
            return False
        if self.opt["monopoly_broken_by_mortgage"]:
            return not any(pid in s.mortgaged for pid in self.edition.industry_plots(industry_id))
        return True

    def owned_in_industry(self, s, player, industry_id):
        return sum(1 for pid in self.edition.industry_plots(industry_id) if s.owner.get(pid) == player)

    def rent(self, s, cell):
        owner = s.owner[cell.id]
        ind = self.edition.industries[cell.industry]
        if ind.rent_by_count:
            return ind.rent_by_count[self.owned_in_industry(s, owner, ind.id) - 1]
        if ind.dice_multiplier_by_count:
            dice = sum(s.last_dice) if s.last_dice else 7
            return ind.dice_multiplier_by_count[self.owned_in_industry(s, owner, ind.id) - 1] * dice
        level = s.level.get(cell.id, 0)
        if level:
            return cell.rent[1 + level]
        if self.is_monopoly(s, owner, cell.industry):
            return cell.rent[1]
        return cell.rent[0]

    def offer_for(self, s, p):
        if s.pending is None or s.pending.kind != "offer":
            raise RuleViolation("no_offer")
        return self.edition.plots[s.pending.plot]

    def cmd_buy(self, s, args):
        cell = self.offer_for(s, s.turn)
        p = s.pending.player
        self.spend(s, p, BANK, cell.price, cell.id)
        s.owner[cell.id] = p
        s.pending = None
        s.notes.append(Note("bought", {"player": p, "plot": cell.id, "price": cell.price}))

    def cmd_decline(self, s, args):
        cell = self.offer_for(s, s.turn)
        p = s.pending.player
        s.notes.append(Note("declined", {"player": p, "plot": cell.id}))
        if self.opt["decline_opens_auction"]:
            self.open_auction(s, cell, BANK)
        else:
            s.pending = None

    # ----- auctions -------------------------------------------------------------

    def open_auction(self, s, cell, seller):
        opening = cell.price * self.opt["auction_opening_percent"] // 100
        s.pending = Pending("auction", plot=cell.id, seller=seller, opening=max(opening, 1))
        s.notes.append(Note("auction_opened", {"plot": cell.id, "seller": seller, "opening": max(opening, 1)}))

    def auction(self, s):
        if s.pending is None or s.pending.kind != "auction":
            raise RuleViolation("no_auction")
        return s.pending

    def cmd_opening(self, s, args):
        """The auction host sets the opening price before the first bid."""
        a = self.auction(s)
        if a.bidder is not None:
            raise RuleViolation("auction_has_bids")
        amount = self.int_arg(args[0], low=1)
        s.pending = replace(a, opening=amount)
        s.notes.append(Note("auction_opening", {"plot": a.plot, "opening": amount}))

    def cmd_bid(self, s, args):
        a = self.auction(s)
        p = self.player_arg(s, args[0])
        amount = self.int_arg(args[1], low=1)
        low = a.bid + 1 if a.bidder is not None else a.opening
        if amount < low:
            raise RuleViolation("bid_too_low", amount=amount, minimum=low)
        if any(d.debtor == p for d in s.debts):
            d = next(d for d in s.debts if d.debtor == p)
            raise RuleViolation("debt_first", player=p, amount=d.amount, creditor=d.creditor)
        if s.cash(p) < amount:
            # the owner may bid for their own plot, but only what they could pay
            raise RuleViolation("insufficient_funds", player=p, amount=amount, cash=s.cash(p), what="bid")
        s.pending = replace(a, bidder=p, bid=amount)
        s.notes.append(Note("bid", {"player": p, "amount": amount, "plot": a.plot}))

    def cmd_hammer(self, s, args):
        """The auction host closes the auction: highest bid wins."""
        a = self.auction(s)
        s.pending = None
        if a.bidder is None:
            s.notes.append(Note("auction_no_bids", {"plot": a.plot}))
            return
        if s.cash(a.bidder) < a.bid and a.bidder != a.seller:
            # the cash went elsewhere since the bid: the bid lapses and bidding reopens
            s.pending = replace(a, bidder=None, bid=0)
            s.notes.append(Note("bid_lapsed", {"player": a.bidder, "amount": a.bid, "plot": a.plot}))
            return
        self.transfer(s, a.bidder, a.seller, a.bid)
        s.owner[a.plot] = a.bidder
        s.notes.append(Note("auction_won", {"player": a.bidder, "plot": a.plot, "amount": a.bid, "seller": a.seller}))

    # ----- buildings ------------------------------------------------------------

    def owner_of(self, s, cell):
        owner = s.owner.get(cell.id)
        if owner is None:
            raise RuleViolation("plot_unowned", plot=cell.id)
        return owner

    def levels(self, s, industry_id):
        memo = s.memo
        if memo is None:
            return [s.level.get(pid, 0) for pid in self.edition.industry_plots(industry_id)]
        key = ("levels", industry_id)
        found = memo.get(key)
        if found is None:
            found = memo[key] = [s.level.get(pid, 0) for pid in self.edition.industry_plots(industry_id)]
        return list(found)

    def max_level(self):
        b = self.edition.buildings
        return b["small_max"] + b["large_max"]

    def buildings_in_use(self, s):
        """(small, large) buildings standing on the board, derived from the levels."""
        memo = s.memo
        if memo is None:
            return self.count_buildings(s.level.values())
        found = memo.get("buildings_in_use")
        if found is None:
            found = memo["buildings_in_use"] = self.count_buildings(s.level.values())
        return found

    def count_buildings(self, levels):
        """(small, large) buildings that plots at these levels hold."""
        b = self.edition.buildings
        small = large = 0
        for level in levels:
            big = max(0, level - b["small_max"])
            large += big
            if not (big and b["large_returns_small"]):
                small += min(level, b["small_max"])
        return small, large

    def check_not_under_hammer(self, s, cell):
        """A plot an open decision is about (an auction, a policy question) stays as it is."""
        if s.pending is not None and s.pending.plot == cell.id and s.pending.kind != "offer":
            raise RuleViolation("plot_under_auction", plot=cell.id)

    def levels_with(self, s, pid, level):
        """Every plot's building level if pid stood at `level`."""
        return [lv for other, lv in s.level.items() if other != pid] + [level]

    def check_build(self, s, cell):
        """(owner, cost) of one more building on cell now; RuleViolation if the rules refuse it."""
        p, cost = self.build_terms(s, cell)
        self.check_afford(s, p, cost, cell.id)
        return p, cost

    def build_terms(self, s, cell):
        """(owner, cost) of one more building on cell if the owner's cash allows; RuleViolation if not."""
        self.check_not_under_hammer(s, cell)
        p = self.owner_of(s, cell)
        ind = self.edition.industries[cell.industry]
        if not ind.buildable:
            raise RuleViolation("not_buildable", plot=cell.id, industry=ind.id)
        if not self.is_monopoly(s, p, ind.id):
            raise RuleViolation("need_monopoly", player=p, industry=ind.id)
        level = s.level.get(cell.id, 0)
        if level >= self.max_level():
            raise RuleViolation("fully_built", plot=cell.id)
        if level > min(self.levels(s, ind.id)):
            raise RuleViolation("build_evenly", plot=cell.id, industry=ind.id)
        small, large = self.count_buildings(self.levels_with(s, cell.id, level + 1))
        if small > self.edition.supply.get("small", 10**6):
            raise RuleViolation("supply_out", kind="small")
        if large > self.edition.supply.get("large", 10**6):
            raise RuleViolation("supply_out", kind="large")
        return p, self.build_price(s, cell)

    def cmd_build(self, s, args):
        cell = self.plot_arg(args[0])
        p, cost = self.check_build(s, cell)
        level = s.level.get(cell.id, 0) + 1
        s.level[cell.id] = level
        self.spend(s, p, BANK, cost, cell.id)
        s.notes.append(Note("built", {"player": p, "plot": cell.id, "level": level, "cost": cost}))

    def build_price(self, s, cell):
        """What the next building on a plot costs; editions that auction buildings override this."""
        return cell.build_cost

    # ----- selling a large building the box lacks the small ones for -------------------

    SHORT_SALE_NOTE = "large_sold_short"

    def small_top(self) -> int:
        """Small buildings a plot holds before its large one (three branches; Monopoly: its houses)."""
        return self.edition.buildings["small_max"]

    def small_left(self, s: State) -> int:
        return self.edition.supply.get("small", 10**6) - self.buildings_in_use(s)[0]

    def sells_short(self, s: State, cell) -> bool:
        """A large building that replaced its small ones, which the box cannot give back now."""
        return (
            self.edition.buildings["large_returns_small"]
            and s.level.get(cell.id, 0) > self.small_top()
            and self.small_left(s) < self.small_top()
        )

    def sell_large_short(self, s: State, p: str, cell) -> None:
        """The box lacks the small buildings a large one gives back: the industry's large ones go at once.

        The small buildings the industry keeps (those on its plots now plus the box's
        spare ones) are spread evenly, the named plot taking the fewest; every level
        taken off is paid at the sale price. Monopoly's "Lack of buildings" (all
        hotels of one colour group sold together); in Elite, Classic and Deluxe the
        same way out, so a debtor is never trapped with an enterprise nobody can
        take back (docs/rule-choices.md).
        """
        group = self.edition.industry_plots(cell.industry)
        old = {pid: s.level.get(pid, 0) for pid in group}
        top = self.small_top()
        smalls = sum(min(level, top) for level in old.values() if level <= top) + self.small_left(s)
        order = [pid for pid in group if pid != cell.id] + [cell.id]
        base, extra = divmod(smalls, len(group))
        amount = 0
        for i, pid in enumerate(order):
            new = min(old[pid], top, base + (1 if i < extra else 0))
            amount += (old[pid] - new) * self.edition.plots[pid].build_cost * self.opt["building_sale_percent"] // 100
            if new:
                s.level[pid] = new
            else:
                s.level.pop(pid, None)
        self.transfer(s, BANK, p, amount)
        s.notes.append(
            Note(
                self.SHORT_SALE_NOTE,
                {
                    "player": p,
                    "industry": cell.industry,
                    "amount": amount,
                    "levels": {pid: s.level.get(pid, 0) for pid in group},
                },
            )
        )

    def check_sell_building(self, s, cell):
        """(owner, level) of a building the owner may sell back now; RuleViolation if not."""
        if self.sells_short(s, cell):
            return self.owner_of(s, cell), s.level[cell.id]
        p = self.owner_of(s, cell)
        level = s.level.get(cell.id, 0)
        if level == 0:
            raise RuleViolation("no_building", plot=cell.id)
        if level < max(self.levels(s, cell.industry)):
            raise RuleViolation("sell_evenly", plot=cell.id, industry=cell.industry)
        small, _ = self.count_buildings(self.levels_with(s, cell.id, level - 1))
        if small > self.edition.supply.get("small", 10**6):
            raise RuleViolation("supply_out", kind="small")
        return p, level

    def cmd_sell_building(self, s, args):
        cell = self.plot_arg(args[0])
        p, level = self.check_sell_building(s, cell)
        if self.sells_short(s, cell):
            self.sell_large_short(s, p, cell)
            return
        if level == 1:
            del s.level[cell.id]
        else:
            s.level[cell.id] = level - 1
        value = cell.build_cost * self.opt["building_sale_percent"] // 100
        self.transfer(s, BANK, p, value)
        s.notes.append(Note("building_sold", {"player": p, "plot": cell.id, "level": level - 1, "amount": value}))

    # ----- mortgage ---------------------------------------------------------------

    def check_mortgage(self, s, cell):
        """The owner who may mortgage cell now; RuleViolation if not."""
        self.check_not_under_hammer(s, cell)
        p = self.owner_of(s, cell)
        if cell.id in s.mortgaged:
            raise RuleViolation("already_mortgaged", plot=cell.id)
        if s.level.get(cell.id, 0):
            raise RuleViolation("sell_buildings_first", plot=cell.id)
        if self.opt["mortgage_needs_empty_industry"] and any(self.levels(s, cell.industry)):
            raise RuleViolation("sell_buildings_first", plot=cell.id)
        return p

    def cmd_mortgage(self, s, args):
        cell = self.plot_arg(args[0])
        p = self.check_mortgage(s, cell)
        s.mortgaged = s.mortgaged | {cell.id}
        self.transfer(s, BANK, p, cell.mortgage)
        s.notes.append(Note("mortgaged", {"player": p, "plot": cell.id, "amount": cell.mortgage}))

    def redeem_price(self, cell):
        base = cell.price if self.opt["redeem_interest_base"] == "price" else cell.mortgage
        return cell.mortgage + (base * self.opt["redeem_interest_percent"] + 99) // 100

    def check_redeem(self, s, cell):
        """(owner, price) of redeeming cell now; RuleViolation if not."""
        p, price = self.redeem_terms(s, cell)
        self.check_afford(s, p, price, cell.id)
        return p, price

    def redeem_terms(self, s, cell):
        """(owner, price) of redeeming cell if the owner's cash allows; RuleViolation if not."""
        p = self.owner_of(s, cell)
        if cell.id not in s.mortgaged:
            raise RuleViolation("not_mortgaged", plot=cell.id)
        self.check_redeem_time(s, p)
        return p, self.redeem_price(cell)

    def cmd_redeem(self, s, args):
        cell = self.plot_arg(args[0])
        p, price = self.check_redeem(s, cell)
        self.spend(s, p, BANK, price, cell.id)
        s.mortgaged = s.mortgaged - {cell.id}
        s.notes.append(Note("redeemed", {"player": p, "plot": cell.id, "amount": price}))

    def check_redeem_time(self, s, p):
        """Editions that allow redemption only before one's own turn override this."""

    # ----- trades and direct payments ---------------------------------------------

    def cmd_trade(self, s, args):
        """`trade A B give ITEM... get ITEM...`; items are plot ids or cash amounts."""
        usage = "trade PLAYER PLAYER give ITEM... get ITEM..."
        self.need(args, 3, usage)
        a = self.player_arg(s, args[0])
        b = self.player_arg(s, args[1])
        if a == b:
            raise BadCommand("usage", usage=usage)
        sides = {"give": [], "get": []}
        current = None
        for tok in args[2:]:
            if tok.lower() in sides:
                current = tok.lower()
            elif current is None:
                raise BadCommand("usage", usage=usage)
            else:
                sides[current].append(tok)
        give = self.trade_items(s, a, sides["give"])
        get = self.trade_items(s, b, sides["get"])
        if not (give[0] or give[1] or get[0] or get[1]):
            raise BadCommand("usage", usage=usage)
        if give[1] and get[1]:
            raise RuleViolation("trade_cash_both_ways")
        for payer, cash in ((a, give[1]), (b, get[1])):
            owed = [d for d in s.debts if d.debtor == payer]
            if cash and owed:
                # a debtor's cash belongs to the creditors (ОКОНЧАНИЕ ИГРЫ)
                raise RuleViolation("debt_first", player=payer, amount=owed[0].amount, creditor=owed[0].creditor)
        self.spend(s, a, b, give[1], "trade")
        self.spend(s, b, a, get[1], "trade")
        for pid in give[0]:
            s.owner[pid] = b
        for pid in get[0]:
            s.owner[pid] = a
        s.notes.append(
            Note(
                "traded", {"player": a, "other": b, "gave": give[0], "got": get[0], "paid": give[1], "received": get[1]}
            )
        )

    def trade_items(self, s, holder, tokens):
        plots, amounts = [], []
        for tok in tokens:
            if tok.isascii() and tok.isdigit():
                amounts.append(tok)
                continue
            if self.edition.cell(tok) is None and (tok[0] in "+-$" or tok[0].isdigit()):
                self.int_arg(tok)  # refused: a number written wrong ('+5', '1_000', '$5')
            cell = self.plot_arg(tok)
            self.check_not_under_hammer(s, cell)
            self.check_tradable(s, holder, cell)
            if cell.id in plots:
                raise BadCommand("usage", usage="each plot once")
            plots.append(cell.id)
        if len(amounts) > 1:
            # "give 1 000" is a typo for one amount, never 1 + 0
            raise BadCommand("trade_one_amount", amounts=amounts)
        return plots, self.int_arg(amounts[0], low=1) if amounts else 0

    def check_tradable(self, s, holder, cell):
        if s.owner.get(cell.id) != holder:
            raise RuleViolation("not_owner", player=holder, plot=cell.id)
        if s.level.get(cell.id, 0):
            raise RuleViolation("plot_built", plot=cell.id)
        if cell.id in s.mortgaged:
            raise RuleViolation("plot_mortgaged", plot=cell.id)

    def cmd_pay(self, s, args):
        """An agreed payment between players: `pay FROM TO AMOUNT` (deals, commissions)."""
        a = self.player_arg(s, args[0])
        b = self.player_arg(s, args[1])
        amount = self.int_arg(args[2], low=1)
        if a == b:
            raise BadCommand("usage", usage="pay PLAYER PLAYER AMOUNT")
        self.spend(s, a, b, amount, "payment")
        s.notes.append(Note("paid", {"player": a, "to": b, "amount": amount}))

    # ----- cards ------------------------------------------------------------------

    def cmd_draw(self, s, args):
        """Draw the top card of the pending deck, or name the physical card: `draw [CARD]`."""
        if s.pending is None or s.pending.kind != "draw":
            raise RuleViolation("no_draw")
        deck = s.pending.stage
        p = s.pending.player
        if not args and (s.decks[deck] or s.discards[deck]):
            top = (s.decks[deck] or s.discards[deck])[0]
            s.command = Command("draw", (top,)).text()  # stored naming the card, so replays deal it again
            args = (top,)
        self.draw_card(s, p, deck, args[0] if args else None)

    def draw_card(self, s, p, deck, card_id=None):
        order = s.decks[deck]
        if not order:
            # a discarded deck turned over: the same order it was discarded in
            order, s.discards[deck] = s.discards[deck], ()
        if not order:
            s.pending = None
            s.notes.append(Note("deck_empty", {"deck": deck}))
            return
        if card_id is None:
            card_id = order[0]
        elif card_id not in order:
            raise RuleViolation("card_not_in_deck", card=card_id, deck=deck)
        rest = tuple(c for c in order if c != card_id)
        card = self.edition.cards[card_id]
        s.pending = None
        s.notes.append(Note("card", {"player": p, "deck": deck, "card": card_id}))
        if card.keep:
            s.decks[deck] = rest
            s.kept[p] = s.kept.get(p, ()) + (card_id,)
            s.notes.append(Note("card_kept", {"player": p, "card": card_id}))
            return
        if deck in self.opt["discard_decks"]:
            s.decks[deck] = rest
            s.discards[deck] = s.discards[deck] + (card_id,)
        else:
            s.decks[deck] = rest + (card_id,)
        self.apply_card(s, p, card)

    def apply_card(self, s, p, card):
        for eff in card.effects:
            if p not in s.alive:
                return
            self.apply_effect(s, p, eff, card)

    def others(self, s, p):
        return [q for q in s.alive if q != p]

    def apply_effect(self, s, p, eff, card):
        do = eff["do"]
        if do == "pay":
            self.charge(s, p, eff.get("to", BANK), eff["amount"], "card_paid", card=card.id)
        elif do == "receive":
            self.transfer(s, eff.get("from", BANK), p, eff["amount"])
            s.notes.append(Note("card_received", {"player": p, "amount": eff["amount"], "card": card.id}))
        elif do == "pay_each_player":
            for q in self.others(s, p):
                self.charge(s, p, q, eff["amount"], "card_paid", card=card.id)
        elif do == "collect_from_each":
            for q in self.others(s, p):
                self.charge(s, q, p, eff["amount"], "card_paid", card=card.id)
        elif do == "each_player_pays":
            for q in s.alive:
                self.charge(s, q, eff.get("to", BANK), eff["amount"], "card_paid", card=card.id)
        elif do == "each_player_receives":
            for q in s.alive:
                self.transfer(s, BANK, q, eff["amount"])
                s.notes.append(Note("card_received", {"player": q, "amount": eff["amount"], "card": card.id}))
        elif do == "pay_per_building":
            small, large = self.player_buildings(s, p)
            amount = small * eff["small"] + large * eff["large"]
            if not amount:  # say so: a silent card leaves the table asking whether anything was paid
                s.notes.append(Note("nothing_to_pay", {"player": p}))
            self.charge(s, p, eff.get("to", BANK), amount, "card_paid", card=card.id)
        elif do == "move_to":
            target = self.edition.cell(eff["cell"]).index
            self.move_to(s, p, target, collect=eff.get("collect", self.opt["card_move_collects"]))
        elif do == "move_steps":
            steps = eff["steps"]
            # a card move pays circle income on passing START only if the card (or the option) says so
            collect = eff.get("collect", self.opt["card_move_collects"])
            if steps >= 0 and collect:
                self.advance(s, p, steps)
            elif steps >= 0:
                self.move_to(s, p, (s.position[p] + steps) % self.n_cells, collect=False)
            else:
                self.place(s, p, (s.position[p] + steps) % self.n_cells)
        elif do == "move_nearest":
            self.move_nearest(s, p, eff["kind"], eff.get("deck"), eff.get("collect", self.opt["card_move_collects"]))
        elif do == "go_to_detention":
            self.send_to_detention(s, p)
        elif do == "skip_turn":
            s.skip[p] = s.skip.get(p, 0) + 1
            s.notes.append(Note("will_skip", {"player": p}))
        else:
            check(False, f"effect {do} has no handler")

    def player_buildings(self, s, p):
        b = self.edition.buildings
        small = large = 0
        for pid, level in s.level.items():
            if s.owner.get(pid) == p:
                big = max(0, level - b["small_max"])
                large += big
                if not (big and b["large_returns_small"]):
                    small += min(level, b["small_max"])
        return small, large

    def move_nearest(self, s, p, kind, deck=None, collect=True):
        """Nearest cell of a kind ahead or behind; on a tie the player chooses.

        collect: whether passing START on the way pays circle income (a card says)."""
        pos = s.position[p]
        targets = [
            c.index for c in self.cells if c.kind == kind and (deck is None or c.deck == deck) and c.index != pos
        ]
        if not targets:
            return
        ahead = min(targets, key=lambda i: (i - pos) % self.n_cells)
        behind = min(targets, key=lambda i: (pos - i) % self.n_cells)
        d_ahead, d_behind = (ahead - pos) % self.n_cells, (pos - behind) % self.n_cells
        if d_ahead < d_behind:
            self.move_to(s, p, ahead, collect=collect)
        elif d_behind < d_ahead:
            self.move_to(s, p, behind, forward=False)
        else:
            # the choice remembers whether the move ahead may pay circle income
            s.pending = Pending("choose", player=p, options=(ahead, behind), stage="" if collect else NO_INCOME)
            s.notes.append(Note("choose_cell", {"player": p, "cells": [self.cells[ahead].id, self.cells[behind].id]}))

    def cmd_choose(self, s, args):
        """Pick one of the offered cells: `choose CELL`."""
        if s.pending is None or s.pending.kind != "choose":
            raise RuleViolation("no_choice")
        cell = self.edition.cell(args[0])
        if cell is None or cell.index not in s.pending.options:
            raise RuleViolation("not_an_option", cell=args[0])
        p = s.pending.player
        ahead = s.pending.options[0]
        collect = s.pending.stage != NO_INCOME
        s.pending = None
        self.move_to(s, p, cell.index, collect=collect, forward=(cell.index == ahead))

    # ----- bankruptcy and the end -------------------------------------------------

    def cmd_bankrupt(self, s, args):
        """`bankrupt PLAYER`: a player who owes more than they can pay leaves the game."""
        p = self.player_arg(s, args[0])
        self.check_bankrupt(s, p)
        mine = [d for d in s.debts if d.debtor == p]
        s.debts = tuple(d for d in s.debts if d.debtor != p)
        self.liquidate(s, p, mine)
        self.remove_player(s, p)

    def check_bankrupt(self, s: State, p: str) -> None:
        """A debtor goes bankrupt only when everything they hold cannot raise what they owe.

        Every rulebook: bankrupt is who «должен ... больше, чем в состоянии заплатить»
        once buildings are sold and plots mortgaged; until then the debtor raises the money.
        """
        owed = sum(d.amount for d in s.debts if d.debtor == p)
        if not owed:
            raise RuleViolation("not_in_debt", player=p)
        could = self.raisable(s, p)
        if could >= owed:
            raise RuleViolation("can_still_pay", player=p, amount=owed, could=could)

    def raisable(self, s: State, p: str) -> int:
        """What p could raise now: cash, every building sold back, every plot then mortgaged."""
        pct = self.opt["building_sale_percent"]
        total = s.cash(p)
        for pid in s.plots_of(p):
            cell = self.edition.plots[pid]
            total += s.level.get(pid, 0) * (cell.build_cost * pct // 100)
            if pid not in s.mortgaged:
                total += cell.mortgage
        return total

    def liquidate(self, s, p, debts):
        """The debtor pays all their cash; the bank pays player creditors the rest."""
        for d in debts:
            paid = min(s.cash(p), d.amount)
            self.transfer(s, p, d.creditor, paid)
            if d.creditor in s.players and d.amount > paid:
                self.transfer(s, BANK, d.creditor, d.amount - paid)
            s.notes.append(
                Note("bankrupt_paid", {"player": p, "to": d.creditor, "amount": d.amount, "from_debtor": paid})
            )
        self.transfer(s, p, BANK, s.cash(p))
        for key in [k for k in s.holdings if k[0] == p]:
            del s.holdings[key]
        for pid in s.plots_of(p):
            del s.owner[pid]
            s.level.pop(pid, None)
        s.mortgaged = frozenset(m for m in s.mortgaged if m in s.owner)

    def remove_player(self, s, p):
        for card_id in s.kept.get(p, ()):
            self.return_kept_card(s, p, card_id)
        was_turn = s.turn == p
        if was_turn:
            idx = s.alive.index(p)
        s.alive = tuple(q for q in s.alive if q != p)
        s.detained.pop(p, None)
        s.skip.pop(p, None)
        if s.pending is not None and p in (s.pending.player, s.pending.bidder, s.pending.seller):
            s.pending = None
        s.notes.append(Note("bankrupt", {"player": p}))
        if was_turn and s.alive:
            s.turn = s.alive[(idx - 1) % len(s.alive)]
            self.next_turn(s)

    def wealth(self, s, p):
        """Timed game: cash plus plots and buildings at their purchase price."""
        total = s.cash(p)
        for pid in s.plots_of(p):
            cell = self.edition.plots[pid]
            total += cell.price - (cell.mortgage if pid in s.mortgaged else 0)
            total += s.level.get(pid, 0) * cell.build_cost
        return total

    def cmd_end_game(self, s, args):
        """Timed game over: count wealth; the richest wins (ties share the win)."""
        self.require_turn_free(s)
        wealth = {p: self.wealth(s, p) for p in s.alive}
        best = max(wealth.values())
        s.winner = ",".join(p for p in s.alive if wealth[p] == best)
        s.phase = "over"
        s.notes.append(Note("wealth_count", {"wealth": wealth}))
        s.notes.append(Note("winner", {"player": s.winner}))

    # ----- what to put back on the board (an undo's notes) ------------------------

    def board_changes(self, before: State, after: State) -> list[Note]:
        """What moves on the physical board going from `before` to `after`, one note per item.

        An undo's event carries these, so the OLED and the phones say what to put
        back: tokens, buildings, deeds, mortgages (a deed turned over), kept cards,
        the card on top of a deck, and counted items (shares, policies, signs, steps).
        """
        notes = []
        for p in after.players:
            if before.position.get(p) != after.position.get(p) and p in after.position:
                notes.append(Note("put_token", {"player": p, "cell": self.cells[after.position[p]].id}))
        for pid in self.edition.plots:
            level = after.level.get(pid, 0)
            if before.level.get(pid, 0) != level:
                small, large = self.count_buildings([level])
                notes.append(Note("put_buildings", {"plot": pid, "small": small, "large": large}))
            if before.owner.get(pid) != after.owner.get(pid):
                notes.append(Note("put_deed", {"plot": pid, "player": after.owner.get(pid, BANK)}))
            if (pid in before.mortgaged) != (pid in after.mortgaged):
                notes.append(Note("put_mortgaged" if pid in after.mortgaged else "put_redeemed", {"plot": pid}))
        for p in after.players:
            for card in after.kept.get(p, ()):
                if card not in before.kept.get(p, ()):
                    notes.append(Note("put_kept_card", {"player": p, "card": card}))
        for deck, order in after.decks.items():
            top = order[0] if order else None
            old = before.decks.get(deck, ())
            if top is not None and (not old or old[0] != top):
                notes.append(Note("put_card_on_top", {"deck": deck, "card": top}))
        for key in sorted(set(before.holdings) | set(after.holdings)):
            count = after.holdings.get(key, 0)
            if before.holdings.get(key, 0) != count:
                notes.append(Note("put_items", {"player": key[0], "item": key[1], "count": count}))
        return notes

    # ----- invariants (assertions that stay on) -----------------------------------

    def check_invariants(self, s):
        """Checked after every command; messages are built only when one fails (hot path)."""
        check(sum(p.amount for p in s.postings) == 0, "postings do not sum to zero")
        check(sum(s.balances.values()) == 0, "balances do not sum to zero")
        for p in s.players:
            if s.balances.get(p, 0) < 0:
                check(False, f"{p} has negative cash")
        alive = set(s.alive)
        for pid, owner in s.owner.items():
            if owner not in alive:
                check(False, f"plot {pid} owned by {owner}, who is not playing")
        if s.level:
            small, large = self.buildings_in_use(s)
            check(small <= self.edition.supply.get("small", 10**6), "more small buildings than the box holds")
            check(large <= self.edition.supply.get("large", 10**6), "more large buildings than the box holds")
            top = self.max_level()
            industries = set()
            for pid, level in s.level.items():
                if pid not in s.owner or not 0 < level <= top:
                    check(False, f"bad building level on {pid}")
                industries.add(self.edition.plots[pid].industry)
            for industry in industries:
                levels = self.levels(s, industry)
                if max(levels) - min(levels) > 1:
                    check(False, f"uneven buildings in {industry}")
        for pid in s.mortgaged:
            if pid not in s.owner or s.level.get(pid):
                check(False, f"bad mortgage on {pid}")
