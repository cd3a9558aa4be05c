"""Mad Millionaire: a free-roaming city, businesses bought or leased, income from publicity stunts.

The authority is the English rulebook (../shared/rules/mad-millionaire-en.txt);
section names in comments are its headings (SET UP, I. ROLL & MOVE, ROLLING A
SIX, 2. COMPLETE PUBLICITY STUNTS, RETURN TO START IF ..., 3. COLLECT PAYMENT,
4. BUY & LEASE BUSINESSES, REAL ESTATE, LEASING, BUYING, SELLING, MOVE WITHOUT
SELLING, WINNING, RULE VARIATIONS TO TRY).

The board is not a ring: cells are spaces on streets, and the edition's
`[[extra.streets]]` list which spaces follow each other (a one-way street only in
its listed direction). The table rolls the one die (`roll D`) and says where the
car stopped (`move CELL`); the engine checks the stop is reachable without a
U-turn. Businesses are the board's plots (their `industry` is the building set);
lease prices and which buildings stand next to each other are edition data too.
Ambiguous points are options, explained in docs/editions/madmillionaire.md.

MadMillionaireRules is assembled from one mixin per part of the rulebook, each in
its own module beside this one: moves.py (roll, move, the six, FINISH),
stunts.py (publicity stunts and payment) and businesses.py (buying, leasing,
selling), on base.py (SOLD signs and the turn's gates, which they all reach).
This module holds the edition's tables, its checks of the edition file, SET UP,
and the end of the game.
"""

from companion.engine.actions import Action, OneOf
from companion.engine.board import MONEY, Edition, check_number, check_numbers, keyname
from companion.engine.command import Command
from companion.engine.core import Pending
from companion.engine.madmillionaire.base import SALE_FACES, SMALL, STUNT_DECK
from companion.engine.madmillionaire.businesses import MadBusinesses
from companion.engine.madmillionaire.moves import MadMoves, road_map
from companion.engine.madmillionaire.stunts import MadStunts, next_to
from companion.engine.state import Note, State
from companion.errors import EditionProblem, RuleViolation, check


class MadMillionaireRules(MadMoves, MadStunts, MadBusinesses):
    """The sections' mixins; each method is defined in one of them only, so their order
    decides nothing but reading order, and every override still comes before Rules."""

    PLOTS_PAY_RENT = False  # businesses earn only through publicity stunts
    OPTIONS = {
        "undo_window": 50,
        "dice": 1,  # one large die
        "target": 1000000,  # WINNING (RULE VARIATIONS 1: change the amount)
        "signs": 7,  # SOLD signs per player
        "stunt_unit": 10000,  # 3. COLLECT PAYMENT: n together earn n x unit x n
        "six_rule": True,  # ROLLING A SIX (RULE VARIATIONS 3: play without it)
        "six_bonus": 10000,
        "sale_faces": ["half", "full", "full", "double", "double", "triple"],  # die 1..6 when selling
        "sale_round": 10000,  # HALF the buy amount rounded up to the nearest $10k
        "face_up": [2, 2, 2, 3, 4, 4],  # stunt cards face up for 1..6 players (SET UP 2)
        "finish_exact": True,  # RULE VARIATIONS 2: the right number to land on FINISH
        "one_way": True,  # RULE VARIATIONS 2: obey the ONE WAY sign
        "check_moves": True,  # refuse stops the dice cannot reach on the edition's map
        "finish_late_cash": False,  # cash raised later in the turn on FINISH also wins
    }
    OPTION_RANGES = {
        "undo_window": (0, 1000),
        "dice": (1, 1),
        "target": MONEY,
        "signs": (1, 100),  # at least one: the free small business needs a sign
        "stunt_unit": MONEY,
        "six_bonus": MONEY,
        "sale_round": MONEY,  # 0: HALF is not rounded
    }
    OPTION_CHOICES = {}
    FACE_UP = (1, 100)  # face_up: cards face up, each fewer than the stunt cards
    EXTRA_KEYS = ("lease", "rows", "streets")
    CELL_KINDS = {"start", "plot", "free", "landmark", "real_estate", "finish"}
    EFFECTS = {"stunt": ("cell",)}  # a Publicity Stunt card names its location
    COMMANDS = {
        "claim": "cmd_claim",
        "reveal": "cmd_reveal",
        "roll": "cmd_roll",
        "move": "cmd_move",
        "buy": "cmd_buy",
        "lease": "cmd_lease",
        "end_lease": "cmd_end_lease",
        "abandon": "cmd_abandon",
        "sell": "cmd_sell",
        "bonus": "cmd_bonus",
        "miss": "cmd_miss",
        "end": "cmd_end",
        "end_game": "cmd_end_game",
    }
    ARITY = {  # (fewest, most arguments, usage): see Rules.ARITY
        "claim": (2, 2, "claim PLAYER BUSINESS"),
        "reveal": (0, 1, "reveal [CARD]"),
        "roll": (0, 1, "roll D"),
        "move": (1, 1, "move CELL"),
        "buy": (0, 1, "buy [BUSINESS]"),
        "lease": (0, 1, "lease [BUSINESS]"),
        "end_lease": (1, 1, "end_lease BUSINESS"),
        "abandon": (1, 1, "abandon BUSINESS"),
        "sell": (1, 2, "sell BUSINESS D"),
        "bonus": (0, 0, "bonus"),
        "miss": (1, 1, "miss PLAYER"),
        "end": (0, 0, "end"),
        "end_game": (0, 0, "end_game"),
    }
    DICE_VERBS = {"roll": (0, 1), "sell": (1, 1)}
    DEBT_COMMANDS = set()  # nothing the rules impose can leave a debt
    # who besides the table may issue each verb (Rules.WHO); "revealer": the player a
    # stunt card is turned over for, turning the next one (naming a card is the table's)
    WHO = {
        "claim": "named",
        "reveal": "revealer",
        "roll": "turn",
        "move": "pending",
        "buy": "turn",
        "lease": "turn",
        "end_lease": "turn",
        "abandon": "turn",
        "sell": "turn",
        "bonus": "pending",
        "miss": "pending",
        "end": "turn",
        "end_game": "table",
    }

    def __init__(self, edition: Edition) -> None:
        super().__init__(edition)
        self.LANDINGS = {
            "start": self.land_nothing,
            "free": self.land_nothing,
            "plot": self.land_business,
            "landmark": self.land_landmark,
            "real_estate": self.land_real_estate,
            "finish": self.land_finish,
        }
        extra = edition.extra
        self.lease_price = {pid: extra.get("lease", {}).get(pid, 0) for pid in edition.plots}
        self.near = next_to(edition)
        self.roads = road_map(edition, self.opt["one_way"])
        self.finish = edition.cells_of_kind("finish")[0]
        self.stunt_cell = {
            cid: card.effects[0]["cell"] for cid, card in edition.cards.items() if card.deck == STUNT_DECK
        }

    # ----- edition checks -------------------------------------------------------

    @classmethod
    def check_edition(cls, edition: Edition) -> None:
        super().check_edition(edition)  # cells, decks, [extra] keys (EXTRA_KEYS)
        src = edition.source
        extra = edition.extra
        if len(edition.cells_of_kind("finish")) != 1:
            raise EditionProblem("edition_one_finish", src, "cells")
        lease = extra.get("lease", {})
        if not isinstance(lease, dict):
            raise EditionProblem("edition_lease_table", src, "extra.lease")
        for pid, value in lease.items():
            if pid not in edition.plots:
                raise EditionProblem("edition_lease_plot", src, f"extra.lease.{keyname(pid)}")
            check_number(value, MONEY, src, f"extra.lease.{pid}")
            if value and value >= edition.plots[pid].price:
                raise EditionProblem("edition_lease_dear", src, f"extra.lease.{pid}")
        next_to(edition)
        road_map(edition, True)
        smalls = edition.industry_plots(SMALL)
        if len(smalls) < edition.players_max:
            raise EditionProblem("edition_smalls", src, "industries", ind=SMALL, seats=edition.players_max)
        opts = edition.options
        faces = opts["sale_faces"]
        if len(faces) != 6 or any(f not in SALE_FACES for f in faces):
            raise EditionProblem("edition_sale_faces", src, "options.sale_faces", known=", ".join(SALE_FACES))
        if len(opts["face_up"]) < edition.players_max:
            raise EditionProblem("edition_face_up", src, "options.face_up", seats=edition.players_max)
        check_numbers(opts["face_up"], cls.FACE_UP, src, "options.face_up")
        if opts["dice"] != 1:
            raise EditionProblem("edition_one_die", src, "options.dice")
        deck = edition.decks.get(STUNT_DECK)
        if not deck:
            raise EditionProblem("edition_stunt_deck", src, f"decks.{STUNT_DECK}")
        if max(opts["face_up"]) >= len(deck):
            raise EditionProblem("edition_face_up_deck", src, "options.face_up")
        for card_id, card in edition.cards.items():
            path = f"decks.{card.deck}.{card_id}"
            if card.deck != STUNT_DECK:
                raise EditionProblem("edition_stunt_only", src, f"decks.{card.deck}", deck_id=STUNT_DECK)
            if len(card.effects) != 1:
                raise EditionProblem("edition_stunt_effect", src, path)
            where = edition.cell(card.effects[0]["cell"])
            if where is None or where.kind != "landmark":
                raise EditionProblem("edition_landmark", src, f"{path}.cell", value=card.effects[0]["cell"])

    # ----- starting a game --------------------------------------------------------

    def setup(self, s: State) -> None:
        # SET UP 4 and 5: seven SOLD signs each; the free small business is chosen with `claim`
        for p in s.players:
            self.give(s, p, "signs", self.opt["signs"])
        s.extra["stunts"] = ()
        s.extra["leased"] = ()
        s.extra["claimed"] = ()
        # SET UP 2: 2 cards face up for 2-3 players, 3 for 4, 4 for 5-6
        count = self.opt["face_up"][len(s.players) - 1]
        s.pending = Pending("reveal", count=count, stage="setup")

    def cmd_claim(self, s: State, args: tuple[str, ...]) -> None:
        """`claim PLAYER BUSINESS`: SET UP 5, one small single building free of charge."""
        p = self.player_arg(s, args[0])
        cell = self.business_arg(args[1])
        if s.phase != "setup":
            raise RuleViolation("claim_setup_only")
        if cell.industry != SMALL:
            raise RuleViolation("not_small", plot=cell.id)
        if p in s.extra["claimed"]:
            raise RuleViolation("already_claimed", player=p)
        if cell.id in s.owner:
            raise RuleViolation("business_taken", plot=cell.id)
        self.place_sign(s, p, cell.id)
        s.extra["claimed"] = s.extra["claimed"] + (p,)
        s.notes.append(Note("small_claimed", {"player": p, "plot": cell.id}))

    def legal_claim(self, s: State) -> list[Action]:
        if s.phase != "setup":
            return []
        free = tuple(pid for pid in self.edition.industry_plots(SMALL) if pid not in s.owner)
        if not free:
            return []
        return [
            Action("claim", (p, OneOf(free, "business")), p)
            for p in s.alive
            if p not in s.extra["claimed"] and s.held(p, "signs")
        ]

    # ----- who may act ---------------------------------------------------------------------

    def party(self, s: State, cmd: Command) -> str | None:
        if self.WHO[cmd.verb] != "revealer":
            return super().party(s, cmd)
        a: Pending | None = s.pending
        if a is None or a.kind != "reveal" or cmd.args:
            return None
        return a.player

    # ----- the end ------------------------------------------------------------------------

    def wealth(self, s: State, p: str) -> int:
        """Timed game: cash, bought businesses at their price, leases at their refund."""
        total: int = s.cash(p)
        for pid in s.plots_of(p):
            total += self.lease_price[pid] if self.leased(s, pid) else self.edition.plots[pid].price
        return total

    def check_invariants(self, s: State) -> None:
        super().check_invariants(s)
        for p in s.players:
            on_board = sum(1 for q in s.owner.values() if q == p)
            check(on_board + s.held(p, "signs") == self.opt["signs"], f"{p} lost a SOLD sign")
        for pid in s.extra.get("leased", ()):
            check(pid in s.owner, f"lease on {pid} without a sign")
