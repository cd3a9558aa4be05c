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
"""

from companion.engine.actions import TABLE, Action, OneOf, Span, dice
from companion.engine.board import MONEY, check_number, check_numbers, keyname, shown
from companion.engine.command import Command
from companion.engine.core import Pending, Rules
from companion.engine.shuffle import shuffled
from companion.engine.state import BANK, Note
from companion.errors import BadCommand, EditionProblem, RuleViolation, check

SALE_FACES = ("half", "full", "double", "triple")
SMALL = "small"  # the industry of the six small single buildings (one is free at the start)
STUNT_DECK = "stunt"


class MadMillionaireRules(Rules):
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

    def __init__(self, edition):
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
    def check_edition(cls, edition):
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

    def setup(self, s):
        # SET UP 4 and 5: seven SOLD signs each; the free small business is chosen with `claim`
        for p in s.players:
            self.give(s, p, "signs", self.opt["signs"])
        s.extra["stunts"] = ()
        s.extra["leased"] = ()
        s.extra["claimed"] = ()
        # SET UP 2: 2 cards face up for 2-3 players, 3 for 4, 4 for 5-6
        count = self.opt["face_up"][len(s.players) - 1]
        s.pending = Pending("reveal", count=count, stage="setup")

    def cmd_claim(self, s, args):
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

    # ----- argument helpers and SOLD signs ------------------------------------------

    def business_arg(self, ref):
        cell = self.edition.cell(ref)
        if cell is None or cell.kind != "plot":
            raise BadCommand("unknown_business", plot=ref)
        return cell

    def leased(self, s, pid):
        return pid in s.extra["leased"]

    def place_sign(self, s, p, pid, leased=False):
        if not s.held(p, "signs"):
            raise RuleViolation("no_sign_left", player=p)
        self.give(s, p, "signs", -1)
        s.owner[pid] = p
        if leased:
            s.extra["leased"] = tuple(sorted(s.extra["leased"] + (pid,)))

    def remove_sign(self, s, pid):
        p = s.owner.pop(pid)
        self.give(s, p, "signs", 1)
        s.extra["leased"] = tuple(x for x in s.extra["leased"] if x != pid)
        return p

    # ----- the turn: roll, move, land ----------------------------------------------

    def turn_started(self, s, p):
        s.extra.pop("may", None)  # the landing's buy/lease/sell chance ends with the turn
        s.extra.pop("on_finish", None)

    def ready_to_move(self, s):
        """Before the player's move: the first turn waits for the cards and the free businesses."""
        self.require_turn_free(s)
        self.check_claims(s)
        if s.phase not in ("setup", "roll"):
            raise RuleViolation("already_rolled", player=s.turn)

    def cmd_roll(self, s, args):
        """`roll D`: I. ROLL & MOVE with the one die; then `move CELL` says where the car stops."""
        (die,) = self.dice_args(args, 1, "roll D")
        self.ready_to_move(s)
        p = s.turn
        s.phase = "moved"
        s.last_dice = (die,)
        s.notes.append(Note("rolled", {"player": p, "dice": [die]}))
        s.pending = Pending("move", player=p, count=die)

    def destinations(self, s, p, steps):
        """Where a car may stop: exactly `steps` spaces on, never reversing onto the space it
        just left (no U-turns), or earlier on a face-up stunt location (and on FINISH when
        the right number is not required)."""
        locations = {self.edition.cell(self.stunt_cell[c]).index for c in s.extra["stunts"]}
        if not self.opt["finish_exact"]:
            locations.add(self.finish)
        frontier = {(s.position[p], None)}
        early = set()
        for k in range(1, steps + 1):
            frontier = {(v, u) for u, prev in frontier for v in self.roads[u] if v != prev}
            if k < steps:
                early |= {v for v, _ in frontier if v in locations}
        return early | {v for v, _ in frontier}

    def cmd_move(self, s, args):
        """`move CELL`: the space where the car stopped."""
        if s.pending is None or s.pending.kind != "move":
            raise RuleViolation("no_move")
        cell = self.edition.cell(args[0])
        if cell is None:
            raise BadCommand("unknown_cell", cell=args[0])
        p, die = s.pending.player, s.pending.count
        if cell.index == 0 or (self.opt["check_moves"] and cell.index not in self.destinations(s, p, die)):
            raise RuleViolation("unreachable", cell=cell.id, steps=die)
        s.pending = None
        s.position[p] = cell.index
        s.notes.append(Note("landed", {"player": p, "cell": cell.id}))
        self.LANDINGS[cell.kind](s, p, cell)
        if s.phase == "over":
            return
        six = die == 6 and self.opt["six_rule"]
        if s.pending is not None:  # a stunt card to turn over first (ROLLING A SIX: reveal, then decide)
            if six:
                s.pending = Pending("reveal", player=p, count=s.pending.count, stage="six")
        elif six:
            self.offer_six(s, p)

    def offer_six(self, s, p):
        s.pending = Pending("six", player=p)
        s.notes.append(Note("six_rolled", {"player": p, "amount": self.opt["six_bonus"]}))

    def land_nothing(self, s, p, cell):
        pass

    def land_business(self, s, p, cell):
        # 4. BUY & LEASE BUSINESSES: the business the car stops next to
        s.extra["may"] = (p, cell.id)
        holder = s.owner.get(cell.id)
        if holder is None:
            s.notes.append(
                Note(
                    "business_offer",
                    {"player": p, "plot": cell.id, "price": cell.price, "lease": self.lease_price[cell.id]},
                )
            )
        else:
            s.notes.append(
                Note("business_offer_taken", {"plot": cell.id, "holder": holder, "tenure": self.tenure(s, cell.id)})
            )

    def land_real_estate(self, s, p, cell):
        # REAL ESTATE: buy or lease one business anywhere OR sell one
        s.extra["may"] = (p, "*")
        s.notes.append(Note("real_estate_offer", {"player": p}))

    def land_finish(self, s, p, cell):
        # WINNING: land on FINISH holding the target
        s.extra["on_finish"] = p
        if not self.check_win(s, p):
            s.notes.append(Note("finish_short", {"player": p, "cash": s.cash(p), "target": self.opt["target"]}))

    def check_win(self, s, p):
        if s.position[p] == self.finish and s.cash(p) >= self.opt["target"]:
            s.winner = p
            s.phase = "over"
            s.pending = None
            s.notes.append(Note("winner", {"player": p}))
            return True
        return False

    def after_command(self, s):
        super().after_command(s)
        if self.opt["finish_late_cash"] and s.phase != "over" and s.extra.get("on_finish") == s.turn:
            self.check_win(s, s.turn)

    def tenure(self, s, pid):
        return "leased" if self.leased(s, pid) else "bought"

    # ----- 2. COMPLETE PUBLICITY STUNTS and 3. COLLECT PAYMENT ---------------------------

    def land_landmark(self, s, p, cell):
        cards = [c for c in s.extra["stunts"] if self.stunt_cell[c] == cell.id]
        if not cards:
            return
        card = cards[0]  # RETURN TO START 2: one lot of payment, one card discarded
        amount, runs = self.income(s, p)
        self.transfer(s, BANK, p, amount)
        s.notes.append(
            Note("stunt_completed", {"player": p, "cell": cell.id, "card": card, "amount": amount, "runs": runs})
        )
        s.extra["stunts"] = tuple(c for c in s.extra["stunts"] if c != card)
        s.discards[STUNT_DECK] = s.discards[STUNT_DECK] + (card,)
        s.pending = Pending("reveal", player=p, count=1)

    def runs(self, s, p):
        """Sizes of p's groups of businesses standing next to each other (bought or leased)."""
        mine = {pid for pid, q in s.owner.items() if q == p}
        sizes = []
        while mine:
            todo = [min(mine)]
            mine.discard(todo[0])
            size = 0
            while todo:
                pid = todo.pop()
                size += 1
                for other in self.near.get(pid, ()):
                    if other in mine:
                        mine.discard(other)
                        todo.append(other)
            sizes.append(size)
        return sorted(sizes, reverse=True)

    def income(self, s, p):
        # 3. COLLECT PAYMENT: n together earn $10k x n, times n
        sizes = self.runs(s, p)
        return sum(n * n * self.opt["stunt_unit"] for n in sizes), sizes

    def cmd_reveal(self, s, args):
        """`reveal [CARD]`: turn over the next Publicity Stunt card (or name the physical one)."""
        if s.pending is None or s.pending.kind != "reveal":
            raise RuleViolation("no_reveal")
        pend = s.pending
        pile = s.decks[STUNT_DECK]
        if not pile:
            # "If you run out of Publicity Stunt cards, shuffle and reuse the same deck."
            pile, s.rng = shuffled(s.discards[STUNT_DECK], s.rng)
            s.discards[STUNT_DECK] = ()
            s.notes.append(Note("stunts_reshuffled", {}))
        card = args[0] if args else (pile[0] if pile else None)
        if not args and card is not None:
            s.command = Command("reveal", (card,)).text()  # stored naming the card, so replays turn over the same one
        if card is None:
            s.pending = None
            s.notes.append(Note("deck_empty", {"deck": STUNT_DECK}))
            return
        if card not in pile:
            raise RuleViolation("card_not_in_deck", card=card, deck=STUNT_DECK)
        s.decks[STUNT_DECK] = tuple(c for c in pile if c != card)
        s.extra["stunts"] = s.extra["stunts"] + (card,)
        where = self.edition.cell(self.stunt_cell[card])
        s.notes.append(Note("stunt_revealed", {"card": card, "cell": where.id}))
        # RETURN TO START 1: a car on the location when its card is turned over goes back
        for q in s.alive:
            if s.position[q] == where.index:
                self.send_home(s, q, "revealed")
        if pend.count > 1:
            s.pending = Pending("reveal", player=pend.player, count=pend.count - 1, stage=pend.stage)
            return
        s.pending = None
        p = pend.player
        if p is not None:
            # RETURN TO START 2: another face-up card shows the place just paid for
            here = self.cells[s.position[p]].id
            if any(self.stunt_cell[c] == here for c in s.extra["stunts"]):
                self.send_home(s, p, "duplicate")
        if pend.stage == "six":
            self.offer_six(s, p)

    def send_home(self, s, q, reason):
        s.position[q] = 0
        s.notes.append(Note("sent_home", {"player": q, "reason": reason}))

    # ----- ROLLING A SIX ----------------------------------------------------------------

    def six_for(self, s):
        if s.pending is None or s.pending.kind != "six":
            raise RuleViolation("no_six")
        return s.pending.player

    def cmd_bonus(self, s, args):
        """`bonus`: take $10k from the bank for the six."""
        p = self.six_for(s)
        s.pending = None
        self.transfer(s, BANK, p, self.opt["six_bonus"])
        s.notes.append(Note("six_bonus", {"player": p, "amount": self.opt["six_bonus"]}))

    def cmd_miss(self, s, args):
        """`miss PLAYER`: the chosen opponent misses a turn (not one already waiting to)."""
        p = self.six_for(s)
        q = self.player_arg(s, args[0])
        if q == p:
            raise RuleViolation("miss_self", player=p)
        if s.skip.get(q):
            raise RuleViolation("already_missing", player=q)
        s.pending = None
        s.skip[q] = 1
        s.notes.append(Note("will_skip", {"player": q}))

    # ----- 4. BUY & LEASE, LEASING, BUYING -------------------------------------------------

    def offered(self, s, args, usage):
        """The business the player may take now: the one landed next to, or any on Real Estate."""
        self.require_turn_free(s)
        p = s.turn
        may = s.extra.get("may")
        if args:
            cell = self.business_arg(args[0])
        elif may and may[0] == p and may[1] != "*":
            cell = self.edition.plots[may[1]]
        else:
            raise BadCommand("usage", usage=usage)
        if not may or may[0] != p or may[1] not in ("*", cell.id):
            raise RuleViolation("not_offered", player=p, plot=cell.id)
        return p, cell

    def cmd_buy(self, s, args):
        """`buy [BUSINESS]`: at the printed price; an opponent's lease ends with a refund;
        one's own lease is bought for the difference."""
        p, cell = self.offered(s, args, "buy BUSINESS")
        holder = s.owner.get(cell.id)
        lease = self.lease_price[cell.id]
        if holder is not None and not self.leased(s, cell.id):
            raise RuleViolation("already_bought", plot=cell.id, holder=holder)
        if holder == p:
            # BUYING A LEASED BUSINESS: pay the difference and flip the sign face up
            self.spend(s, p, BANK, cell.price - lease, cell.id)
            s.extra["leased"] = tuple(x for x in s.extra["leased"] if x != cell.id)
            s.notes.append(Note("lease_converted", {"player": p, "plot": cell.id, "amount": cell.price - lease}))
        else:
            if not s.held(p, "signs"):
                raise RuleViolation("no_sign_left", player=p)
            self.spend(s, p, BANK, cell.price, cell.id)
            if holder is not None:
                # the opponent is forced to end their lease, with a full refund from the bank
                self.remove_sign(s, cell.id)
                self.transfer(s, BANK, holder, lease)
                s.notes.append(Note("lease_bought_out", {"player": holder, "plot": cell.id, "amount": lease}))
            self.place_sign(s, p, cell.id)
            s.notes.append(Note("bought", {"player": p, "plot": cell.id, "price": cell.price}))
        del s.extra["may"]

    def cmd_lease(self, s, args):
        """`lease [BUSINESS]`: at the printed lease price, if it has one and nobody holds it."""
        p, cell = self.offered(s, args, "lease BUSINESS")
        price = self.lease_price[cell.id]
        holder = s.owner.get(cell.id)
        if holder == p:
            raise RuleViolation("own_business", player=p, plot=cell.id)
        if holder is not None:
            raise RuleViolation("business_taken", plot=cell.id)
        if not price:
            raise RuleViolation("no_lease_price", plot=cell.id)
        if not s.held(p, "signs"):
            raise RuleViolation("no_sign_left", player=p)
        self.spend(s, p, BANK, price, cell.id)
        self.place_sign(s, p, cell.id, leased=True)
        s.notes.append(Note("business_leased", {"player": p, "plot": cell.id, "price": price}))
        del s.extra["may"]

    def in_own_turn(self, s):
        """Signs may come off at any time during one's turn (once everybody has claimed)."""
        self.check_claims(s)
        return s.turn

    def check_claims(self, s):
        if s.phase == "setup":
            missing = [p for p in s.alive if p not in s.extra["claimed"]]
            if missing:
                raise RuleViolation("claim_first", players=missing)

    def cmd_end_lease(self, s, args):
        """`end_lease BUSINESS`: ENDING A LEASE, any time in one's turn, full refund."""
        cell = self.business_arg(args[0])
        p = self.in_own_turn(s)
        if s.owner.get(cell.id) != p or not self.leased(s, cell.id):
            raise RuleViolation("not_your_lease", player=p, plot=cell.id)
        self.remove_sign(s, cell.id)
        amount = self.lease_price[cell.id]
        self.transfer(s, BANK, p, amount)
        s.notes.append(Note("lease_ended", {"player": p, "plot": cell.id, "amount": amount}))

    def cmd_abandon(self, s, args):
        """`abandon BUSINESS`: MOVE WITHOUT SELLING, the sign comes off, no money."""
        cell = self.business_arg(args[0])
        p = self.in_own_turn(s)
        if s.owner.get(cell.id) != p or self.leased(s, cell.id):
            raise RuleViolation("not_bought_by_you", player=p, plot=cell.id)
        self.remove_sign(s, cell.id)
        s.notes.append(Note("business_abandoned", {"player": p, "plot": cell.id}))

    # ----- SELLING ------------------------------------------------------------------------

    def sale_price(self, price, face):
        if face == "half":
            unit = self.opt["sale_round"]
            return -(-price // (2 * unit)) * unit if unit else price // 2
        return price * {"full": 1, "double": 2, "triple": 3}[face]

    def cmd_sell(self, s, args):
        """`sell BUSINESS D`: instead of moving, or on a Real Estate space; the die sets the price."""
        self.need(args, 2, "sell BUSINESS D")
        cell = self.business_arg(args[0])
        die = self.int_arg(args[1], "die", 1, 6)
        self.require_turn_free(s)
        p = s.turn
        may = s.extra.get("may")
        on_real_estate = may == (p, "*")
        if not on_real_estate:
            try:
                self.ready_to_move(s)
            except RuleViolation:
                raise RuleViolation("sell_not_now", player=p) from None
        if s.owner.get(cell.id) != p or self.leased(s, cell.id):
            raise RuleViolation("not_bought_by_you", player=p, plot=cell.id)
        face = self.opt["sale_faces"][die - 1]
        amount = self.sale_price(cell.price, face)
        self.remove_sign(s, cell.id)
        self.transfer(s, BANK, p, amount)
        s.last_dice = (die,)
        s.notes.append(
            Note("business_sold", {"player": p, "plot": cell.id, "die": die, "face": face, "amount": amount})
        )
        if on_real_estate:
            del s.extra["may"]
        else:
            s.phase = "moved"  # the sale is this turn's go: no roll and move

    def board_changes(self, before, after):
        # and the Publicity Stunt cards lying face up
        notes = super().board_changes(before, after)
        if before.extra.get("stunts") != after.extra.get("stunts"):
            notes.append(Note("put_stunts", {"cards": list(after.extra.get("stunts", ()))}))
        return notes

    # ----- who may act, and the legal actions (each mirrors its cmd_ method's checks) ----------

    def party(self, s, cmd):
        if self.WHO[cmd.verb] != "revealer":
            return super().party(s, cmd)
        a = s.pending
        if a is None or a.kind != "reveal" or cmd.args:
            return None
        return a.player

    def stunt_pile(self, s):
        """The stunt cards `reveal` turns over from, in order (the discards reshuffled if none are left)."""
        if s.decks[STUNT_DECK]:
            return s.decks[STUNT_DECK]
        pile, _ = shuffled(s.discards[STUNT_DECK], s.rng)
        return pile

    def legal_claim(self, s):
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

    def legal_reveal(self, s):
        a = s.pending
        if a is None or a.kind != "reveal":
            return []
        pile = self.stunt_pile(s)
        party = a.player if a.player is not None else TABLE
        out = [Action("reveal", (), party)]
        if pile:
            # the cards in name order, never the pile's: a list must not tell the next card
            out.append(Action("reveal", (OneOf(tuple(sorted(pile)), "card"),)))
        return out

    def may_move_now(self, s):
        try:
            self.ready_to_move(s)
        except RuleViolation:
            return False
        return True

    def legal_roll(self, s):
        return [Action("roll", dice(1), s.turn)] if self.may_move_now(s) else []

    def legal_move(self, s):
        a = s.pending
        if a is None or a.kind != "move":
            return []
        if self.opt["check_moves"]:
            stops = self.destinations(s, a.player, a.count)
        else:
            stops = range(len(self.cells))
        ids = tuple(c.id for c in self.cells if c.index in stops and c.index != 0)
        return [Action("move", (OneOf(ids, "cell"),), a.player)] if ids else []

    def may_take(self, s):
        """(player, scope) of the landing's buy/lease chance now, or None."""
        may = s.extra.get("may")
        if s.pending is not None or not may or may[0] != s.turn:
            return None
        return may

    def offered_cells(self, s):
        """(player, scope, businesses) of the landing's buy/lease chance now; scope "*": any business."""
        may = self.may_take(s)
        if may is None:
            return None, None, []
        cells = self.edition.plots.values() if may[1] == "*" else [self.edition.plots[may[1]]]
        return may[0], may[1], cells

    def legal_buy(self, s):
        p, scope, cells = self.offered_cells(s)
        out = []
        for cell in cells:
            holder = s.owner.get(cell.id)
            if holder is not None and not self.leased(s, cell.id):
                continue
            if holder == p:
                cost = cell.price - self.lease_price[cell.id]
            elif s.held(p, "signs"):
                cost = cell.price
            else:
                continue
            if s.cash(p) >= cost:
                out.append(Action("buy", (cell.id,), p))
                if scope != "*":
                    out.append(Action("buy", (), p))
        return out

    def legal_lease(self, s):
        p, scope, cells = self.offered_cells(s)
        out = []
        for cell in cells:
            price = self.lease_price[cell.id]
            if s.owner.get(cell.id) is None and price and s.held(p, "signs") and s.cash(p) >= price:
                out.append(Action("lease", (cell.id,), p))
                if scope != "*":
                    out.append(Action("lease", (), p))
        return out

    def own_signs(self, s, leased):
        """The turn player's businesses (leased or bought) whose sign may come off now."""
        try:
            p = self.in_own_turn(s)
        except RuleViolation:
            return []
        return [pid for pid in s.plots_of(p) if self.leased(s, pid) == leased]

    def legal_end_lease(self, s):
        return [Action("end_lease", (pid,), s.turn) for pid in self.own_signs(s, True)]

    def legal_abandon(self, s):
        return [Action("abandon", (pid,), s.turn) for pid in self.own_signs(s, False)]

    def legal_sell(self, s):
        p = s.turn
        if s.pending is not None or not (s.extra.get("may") == (p, "*") or self.may_move_now(s)):
            return []
        return [Action("sell", (pid, Span(1, 6, "die")), p) for pid in s.plots_of(p) if not self.leased(s, pid)]

    def legal_bonus(self, s):
        a = s.pending
        return [Action("bonus", (), a.player)] if a is not None and a.kind == "six" else []

    def legal_miss(self, s):
        a = s.pending
        if a is None or a.kind != "six":
            return []
        others = tuple(q for q in s.alive if q != a.player and not s.skip.get(q))
        return [Action("miss", (OneOf(others, "player"),), a.player)] if others else []

    # ----- the end ------------------------------------------------------------------------

    def wealth(self, s, p):
        """Timed game: cash, bought businesses at their price, leases at their refund."""
        total = s.cash(p)
        for pid in s.plots_of(p):
            total += self.lease_price[pid] if self.leased(s, pid) else self.edition.plots[pid].price
        return total

    def check_invariants(self, s):
        super().check_invariants(s)
        for p in s.players:
            on_board = sum(1 for q in s.owner.values() if q == p)
            check(on_board + s.held(p, "signs") == self.opt["signs"], f"{p} lost a SOLD sign")
        for pid in s.extra.get("leased", ()):
            check(pid in s.owner, f"lease on {pid} without a sign")


def next_to(edition):
    """Business -> businesses whose buildings stand next to it, from `extra.rows`."""
    src = edition.source
    rows = edition.extra.get("rows", [])
    if not isinstance(rows, list):
        raise EditionProblem("edition_rows", src, "extra.rows")
    near = {}
    for i, row in enumerate(rows):
        if not isinstance(row, list) or len(row) < 2:
            raise EditionProblem("edition_row_short", src, f"extra.rows[{i}]")
        for pid in row:
            if not isinstance(pid, str) or pid not in edition.plots:
                raise EditionProblem("edition_row_plot", src, f"extra.rows[{i}]", value=shown(pid))
        for a, b in zip(row, row[1:]):
            if a == b:
                raise EditionProblem("edition_row_self", src, f"extra.rows[{i}]", value=a)
            near.setdefault(a, set()).add(b)
            near.setdefault(b, set()).add(a)
    return {pid: tuple(sorted(others)) for pid, others in near.items()}


def road_map(edition, one_way):
    """For each cell index, the cells a car may drive to next, from `extra.streets`.

    A street lists its spaces in order; cars drive both ways along it unless it
    is `one_way` (then only in the listed order). With the option `one_way` off
    (RULE VARIATIONS 2) every street is two-way, except the drive from beside
    START onto the board.
    """
    src = edition.source
    streets = edition.extra.get("streets", [])
    if not isinstance(streets, list) or not streets:
        raise EditionProblem("edition_streets", src, "extra.streets")
    links = [[] for _ in edition.cells]
    seen = set()
    for i, street in enumerate(streets):
        path = f"extra.streets[{i}]"
        if not isinstance(street, dict) or not isinstance(street.get("cells"), list) or len(street["cells"]) < 2:
            raise EditionProblem("edition_street_short", src, f"{path}.cells")
        for key in street:
            if key not in ("name", "cells", "one_way"):
                raise EditionProblem(
                    "edition_unknown_key_of", src, f"{path}.{keyname(key)}", known="name, cells, one_way"
                )
        if not isinstance(street.get("name", ""), str):
            raise EditionProblem("edition_text", src, f"{path}.name", value=shown(street["name"]))
        idx = []
        for cid in street["cells"]:
            cell = edition.cell(cid) if isinstance(cid, str) else None
            if cell is None:
                raise EditionProblem("edition_not_cell", src, f"{path}.cells", value=cid)
            idx.append(cell.index)
            seen.add(cell.index)
        oneway = street.get("one_way", False)
        if not isinstance(oneway, bool):
            raise EditionProblem("edition_bool", src, f"{path}.one_way")
        for a, b in zip(idx, idx[1:]):
            if a == b:
                raise EditionProblem("edition_street_self", src, f"{path}.cells")
            two_way = not oneway or (not one_way and edition.cells[a].kind != "start")
            if b not in links[a]:
                links[a].append(b)
            if two_way and a not in links[b]:
                links[b].append(a)
    for cell in edition.cells:
        if cell.index not in seen:
            raise EditionProblem("edition_off_street", src, "extra.streets", value=cell.id)
        if cell.kind == "start" and any(cell.index in outs for outs in links):
            raise EditionProblem("edition_start_street", src, "extra.streets", value=cell.id)
        # no U-turns: a car needs a way on that is not the way back
        if not links[cell.index] or (
            len(links[cell.index]) == 1 and cell.kind != "start" and cell.index in links[links[cell.index][0]]
        ):
            raise EditionProblem("edition_dead_end", src, "extra.streets", value=cell.id)
    return tuple(tuple(outs) for outs in links)
