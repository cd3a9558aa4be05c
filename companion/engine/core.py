"""The rules kernel every edition shares: setup, the one entry point (apply), the invariants.

`Rules.apply(state, line)` takes one command line and returns a new state; the
postings and notes of that command ride on the new state (`state.postings`,
`state.notes`). `Rules` is made of one mixin per concern of the game, each in a
module named for it: turns.py (turns, movement, detention), money.py (payments,
debts, bankruptcy), plots.py (buying, rent, buildings), mortgages.py, cards.py,
auctions.py, trades.py, legality.py (who may act, what is legal now, its caches)
and edition_checks.py. Edition modules subclass `Rules` and override the hooks
named in hooks.py; nothing edition-specific lives here.
"""

from collections.abc import Sequence

from companion.engine.actions import TABLE
from companion.engine.auctions import Auctions
from companion.engine.base import MAX_AMOUNT
from companion.engine.board import MONEY, PERCENT, Cell, Edition
from companion.engine.cards import CORE_EFFECT_OPTIONAL, CORE_EFFECTS, EFFECT_NUMBERS, EFFECT_TEXTS, NO_INCOME, Cards
from companion.engine.command import Command, parse_command
from companion.engine.edition_checks import EditionChecks
from companion.engine.legality import Legality
from companion.engine.money import Money
from companion.engine.mortgages import Mortgages
from companion.engine.plots import Plots
from companion.engine.shuffle import shuffled
from companion.engine.state import BANK, SYSTEM_ACCOUNTS, Note, Pending, State
from companion.engine.trades import Trades
from companion.engine.turns import Turns
from companion.errors import BadCommand, RuleViolation, check

# names other modules import from here (they moved to the modules of their concern)
__all__ = [
    "CORE_EFFECTS",
    "CORE_EFFECT_OPTIONAL",
    "EFFECT_NUMBERS",
    "EFFECT_TEXTS",
    "MAX_AMOUNT",
    "MAX_NAME",
    "NO_INCOME",
    "Pending",
    "Rules",
    "parse_line",
]

# The longest player name: it appears in commands (at most 200 characters) and on a 128-pixel screen.
MAX_NAME = 20


def parse_line(line: str) -> tuple[str | None, tuple[str, ...]]:
    """Split a command line into (verb, args), or (None, ()) for a blank or comment line.

    A thin wrapper over companion.engine.command.parse_command (quotes, comments,
    the line limit); a malformed line raises BadCommand.
    """
    cmd = parse_command(line)
    if cmd is None:
        return None, ()
    return cmd.verb, cmd.args


class Rules(Legality, Turns, Money, Plots, Mortgages, Cards, Auctions, Trades, EditionChecks):
    """Rules shared by all editions. Subclasses extend the class-level tables and override hooks.py's hooks."""

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

    def __init__(self, edition: Edition) -> None:
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

    def new_state(self, players: Sequence[str], seed: int) -> State:
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

    def setup(self, s: State) -> None:
        """Edition hook: extra money or items handed out at the start."""

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

    def after_command(self, s: State) -> None:
        self.settle_debts(s)
        if "offers" in s.extra:
            self.lapse_offers(s)
        if len(s.alive) == 1 and s.phase != "over":
            s.winner = s.alive[0]
            s.phase = "over"
            s.notes.append(Note("winner", {"player": s.winner}))

    def need(self, args: tuple[str, ...], n: int, usage: str) -> None:
        if len(args) < n:
            raise BadCommand("usage", usage=usage)

    def player_arg(self, s: State, name: str) -> str:
        for p in s.alive:
            if p.lower() == name.lower():
                return p
        if any(p.lower() == name.lower() for p in s.players):
            raise RuleViolation("player_out", player=name)
        raise BadCommand("unknown_player", player=name)

    def plot_arg(self, ref: str) -> Cell:
        cell = self.edition.cell(ref)
        if cell is None or cell.kind != "plot":
            raise BadCommand("unknown_plot", plot=ref)
        return cell

    def int_arg(self, text: str, what: str = "amount", low: int = 0, high: int | None = None) -> int:
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

    def dice_args(self, args: tuple[str, ...], count: int, usage: str) -> tuple[int, ...]:
        if len(args) != count:
            raise BadCommand("dice_count", count=count, usage=usage)
        return tuple(self.int_arg(a, "die", 1, 6) for a in args)

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

    def check_invariants(self, s: State) -> None:
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
