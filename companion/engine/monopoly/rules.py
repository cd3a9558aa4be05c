"""Monopoly (classic): houses and hotels, railroads and utilities, jail, shortage auctions, bankruptcy.

The authority is shared/rules/monopoly-classic-en.txt, a machine translation
of several Russian articles; section names in comments are its headings
("Lack of buildings", "Pledge", "Bankruptcy", ...). The board's figures are the
US edition's (companion/editions/monopoly.toml). Choices where the text is
ambiguous or the articles disagree are named options, explained in
docs/editions/monopoly.md.

Building levels on a lot: 1..H are houses, H + 1 is the hotel, where H is
`hotel_after_houses` (4; 3 in the short game). A hotel sends its houses back
to the bank, so a lot at H + 1 holds one hotel and no house.
"""

from dataclasses import replace

from companion.engine.actions import TABLE, Action, dice
from companion.engine.board import MONEY, PERCENT
from companion.engine.core import CORE_EFFECTS, Pending, Rules
from companion.engine.shuffle import shuffled
from companion.engine.state import BANK, POT, Note
from companion.errors import BadCommand, EditionProblem, RuleViolation

MONOPOLY_EFFECTS = {
    **CORE_EFFECTS,
    # forward to the nearest lot of a group (railroads, utilities), GO paying on the way;
    # optional rent_multiplier (x the rent) or dice_multiplier (x a fresh throw of the dice)
    "advance_to_nearest": ("industry",),
}
KINDS = ("house", "hotel")


class MonopolyRules(Rules):
    OPTIONS = {
        **Rules.OPTIONS,
        # the core's options, at Monopoly's values
        "detention_third_miss": "pay_and_move",
        "monopoly_broken_by_mortgage": True,
        "mortgage_needs_empty_industry": True,
        "redeem_interest_base": "mortgage",
        "auction_opening_percent": 0,
        # Monopoly's own
        "hotel_after_houses": 4,
        "end_at_bankruptcy": 0,
        "start_deal": 0,
        "bankrupt_to_bank": "auction",
        "transfer_interest_percent": 10,
        "trade_mortgaged": True,
        "card_utility_roll": True,
        "building_shortage_auction": True,
        "free_parking_pot": False,
        "go_landing_bonus": 0,
        "jail_blocks_rent": False,
    }
    OPTION_RANGES = {
        **Rules.OPTION_RANGES,
        "hotel_after_houses": (1, 10),  # and at most [buildings] small_max (check_edition)
        "end_at_bankruptcy": (0, 7),  # 0: play to the last player
        "start_deal": (0, 10),  # deeds dealt to each player; start_cash must pay for them
        "transfer_interest_percent": PERCENT,
        "go_landing_bonus": MONEY,
    }
    OPTION_CHOICES = {**Rules.OPTION_CHOICES, "bankrupt_to_bank": ("auction", "return")}
    EFFECT_NUMBERS = {**Rules.EFFECT_NUMBERS, "rent_multiplier": (1, 10), "dice_multiplier": (1, 100)}
    EFFECT_OPTIONAL = {**Rules.EFFECT_OPTIONAL, "advance_to_nearest": ("rent_multiplier", "dice_multiplier")}
    CELL_KINDS = Rules.CELL_KINDS | {"parking"}
    EFFECTS = MONOPOLY_EFFECTS
    SYSTEM_ACCOUNTS = (BANK, POT)
    COMMANDS = {
        **Rules.COMMANDS,
        "rent_roll": "cmd_rent_roll",
        "house_auction": "cmd_house_auction",
        "keep_mortgage": "cmd_keep_mortgage",
    }
    ARITY = {
        **Rules.ARITY,
        "rent_roll": (0, 2, "rent_roll D D"),
        "house_auction": (1, 1, "house_auction PLOT"),
        "keep_mortgage": (1, 1, "keep_mortgage PLOT"),
    }
    DICE_VERBS = {**Rules.DICE_VERBS, "rent_roll": (0, 2)}
    # the shortage auction reads the board, who is still playing, and any open decision (Rules.LEGAL_READS)
    LEGAL_READS = {**Rules.LEGAL_READS, "house_auction": ("alive", "pending")}
    # house_auction is the auction host's, like opening and hammer: the table's alone
    WHO = {**Rules.WHO, "rent_roll": "pending", "house_auction": "table", "keep_mortgage": "pending"}

    def __init__(self, edition):
        super().__init__(edition)
        self.LANDINGS["parking"] = self.land_parking

    @classmethod
    def check_edition(cls, edition):
        super().check_edition(edition)
        src, opt, b = edition.source, edition.options, edition.buildings
        if b["large_max"] != 1 or not b["large_returns_small"]:
            raise EditionProblem("edition_hotel", src, "buildings")
        if not 1 <= opt["hotel_after_houses"] <= b["small_max"]:
            raise EditionProblem("edition_hotel_after", src, "options.hotel_after_houses", high=b["small_max"])
        # the short game's deal is paid from the start cash: even the dearest deeds must be affordable
        dearest = sum(sorted((c.price for c in edition.plots.values()), reverse=True)[: opt["start_deal"]])
        if dearest > edition.start_cash:
            raise EditionProblem(
                "edition_start_deal",
                src,
                "options.start_deal",
                deeds=opt["start_deal"],
                cost=dearest,
                cash=edition.start_cash,
            )
        for card in edition.cards.values():
            for eff in card.effects:
                if eff["do"] == "advance_to_nearest" and not edition.industry_plots(eff["industry"]):
                    raise EditionProblem("edition_no_lots", src, f"decks.{card.deck}.{card.id}", ind=eff["industry"])

    # ----- setup: the short game's deal ------------------------------------------------

    def setup(self, s):
        # Rules of a shortened game, 1: the banker deals title deeds, paid at the printed price
        if not self.opt["start_deal"]:
            return
        deck, s.rng = shuffled(tuple(self.edition.plots), s.rng)
        deck = list(deck)
        for _ in range(self.opt["start_deal"]):
            for p in s.players:
                if not deck:
                    return
                cell = self.edition.plots[deck.pop(0)]
                s.owner[cell.id] = p
                self.transfer(s, p, BANK, cell.price)
                s.notes.append(Note("dealt", {"player": p, "plot": cell.id, "price": cell.price}))

    # ----- building levels: houses, then a hotel -----------------------------------------

    def houses_max(self):
        return self.opt["hotel_after_houses"]

    def max_level(self):
        return self.houses_max() + 1

    def split(self, level):
        """(houses, hotels) standing on a lot at this level."""
        return (0, 1) if level > self.houses_max() else (level, 0)

    def count_buildings(self, levels):
        houses = hotels = 0
        top = self.houses_max()
        for level in levels:  # self.split, inlined: this runs for every build and sale question
            if level > top:
                hotels += 1
            else:
                houses += level
        return houses, hotels

    def player_buildings(self, s, p):
        return self.count_buildings(s.level.get(pid, 0) for pid in s.plots_of(p))

    def left(self, s, kind):
        """How many houses or hotels the bank still holds."""
        houses, hotels = self.buildings_in_use(s)
        if kind == "house":
            return self.edition.supply.get("small", 10**6) - houses
        return self.edition.supply.get("large", 10**6) - hotels

    def rent(self, s, cell):
        # the hotel's rent is the last of the row, also in the short game (hotel after 3 houses)
        if s.level.get(cell.id, 0) > self.houses_max():
            return cell.rent[-1]
        return super().rent(s, cell)

    def group_mortgaged(self, s, industry_id):
        return any(pid in s.mortgaged for pid in self.edition.industry_plots(industry_id))

    def can_build_group(self, s, p, industry_id):
        ind = self.edition.industries[industry_id]
        return ind.buildable and self.industry_owner(s, industry_id) == p and not self.group_mortgaged(s, industry_id)

    def next_kind(self, s, cell):
        return "hotel" if s.level.get(cell.id, 0) >= self.houses_max() else "house"

    def placeable(self, s, p, kind):
        """Lots of p where one building of this kind may go now (evenly, box permitting)."""
        memo = s.memo
        if memo is None:
            return self.find_placeable(s, p, kind)
        key = ("placeable", p, kind)
        found = memo.get(key)
        if found is None:
            found = memo[key] = self.find_placeable(s, p, kind)
        return list(found)

    def find_placeable(self, s, p, kind):
        if self.left(s, kind) < 1:
            return []
        out = []
        for ind_id in self.edition.industries:
            if not self.can_build_group(s, p, ind_id):
                continue
            low = min(self.levels(s, ind_id))
            for pid in self.edition.industry_plots(ind_id):
                level = s.level.get(pid, 0)
                if level == low and level < self.max_level() and self.next_kind(s, self.edition.plots[pid]) == kind:
                    out.append(pid)
        return out

    def rivals(self, s, cell):
        """(owner, kind) of a building wanted on cell, if its owner could place it there now and
        another player could place one of the kind too: the last ones may be contested."""
        p = s.owner.get(cell.id)
        if p is None:
            return None
        kind = self.next_kind(s, cell)
        if cell.id not in self.placeable(s, p, kind):
            return None
        if not any(q != p and self.placeable(s, q, kind) for q in s.alive):
            return None
        return p, kind

    def building_right(self, s):
        a = s.pending
        return a if a is not None and a.kind == "place_building" else None

    def build_terms(self, s, cell):
        p = self.owner_of(s, cell)
        ind = self.edition.industries[cell.industry]
        if ind.buildable and self.industry_owner(s, ind.id) == p and self.group_mortgaged(s, ind.id):
            # Houses: "It is impossible to build houses if at least one plot of this colour group is laid"
            raise RuleViolation("group_mortgaged", plot=cell.id, industry=ind.id)
        kind = self.next_kind(s, cell)
        right = self.building_right(s)
        if right is not None:
            if right.player != p or right.stage != kind:
                raise RuleViolation("place_won_building", player=right.player, kind=right.stage)
        elif s.pending is not None and s.pending.kind == "house_auction" and s.pending.stage == kind:
            raise RuleViolation("building_at_auction", kind=kind)  # the last ones go to the highest bid
        return super().build_terms(s, cell)

    def cmd_build(self, s, args):
        right = self.building_right(s)
        super().cmd_build(s, args)
        if right is not None:
            s.pending = None

    def build_price(self, s, cell):
        # a building won at a shortage auction costs the winning bid
        right = self.building_right(s)
        if right is not None and right.player == s.owner.get(cell.id):
            return right.bid
        return super().build_price(s, cell)

    # a hotel the bank lacks the houses to swap back for: the group's hotels go at once
    # (Rules.sell_large_short, "All hotels of one color group must be sold at the same time")
    SHORT_SALE_NOTE = "hotels_sold_short"

    def small_top(self):
        return self.houses_max()

    def small_left(self, s):
        return self.left(s, "house")

    # ----- Lack of buildings: the shortage auction -----------------------------------------

    def cmd_house_auction(self, s, args):
        """`house_auction PLOT`: the table says someone else wants the last buildings too.

        "Lack of buildings": when two or more players want more houses (or hotels) than
        the bank has left, the banker auctions them, "taking for the initial price the one
        on the deed": PLOT is the lot its owner wants to build on, and the auction opens at
        the building price printed on its deed. Only the table knows who wants what, so it
        holds the auction; otherwise every `build` goes ahead while the bank has buildings.
        """
        cell = self.plot_arg(args[0])
        self.require_turn_free(s)
        if not self.opt["building_shortage_auction"]:
            raise RuleViolation("no_shortage_auctions")
        self.owner_of(s, cell)
        kind = self.next_kind(s, cell)
        left = self.left(s, kind)
        if left < 1:
            raise RuleViolation("supply_out", kind=kind)
        if self.rivals(s, cell) is None:
            raise RuleViolation("no_rival_builder", plot=cell.id, kind=kind)
        opening = cell.build_cost
        s.pending = Pending("house_auction", seller=BANK, stage=kind, opening=opening)
        s.notes.append(Note("house_auction_opened", {"kind": kind, "left": left, "opening": opening}))

    def auction(self, s):
        if s.pending is not None and s.pending.kind == "house_auction":
            return s.pending
        return super().auction(s)

    def cmd_bid(self, s, args):
        a = s.pending
        shortage = a is not None and a.kind == "house_auction"
        if shortage and args:
            p = self.player_arg(s, args[0])
            if not self.placeable(s, p, a.stage):
                raise RuleViolation("cannot_place", player=p, kind=a.stage)
        super().cmd_bid(s, args)
        if shortage:
            b = s.pending
            s.notes[-1] = Note("house_bid", {"player": b.bidder, "amount": b.bid, "kind": b.stage})

    def cmd_hammer(self, s, args):
        a = s.pending
        if a is None or a.kind != "house_auction":
            super().cmd_hammer(s, args)
            return
        s.pending = None
        if a.bidder is None:
            s.notes.append(Note("house_auction_no_bids", {"kind": a.stage}))
            return
        if s.cash(a.bidder) < a.bid or not self.placeable(s, a.bidder, a.stage):
            s.pending = replace(a, bidder=None, bid=0)
            s.notes.append(Note("house_bid_lapsed", {"player": a.bidder, "amount": a.bid, "kind": a.stage}))
            return
        # the winner pays when placing it (build), so the money moves with the building
        s.pending = Pending("place_building", player=a.bidder, stage=a.stage, bid=a.bid)
        s.notes.append(Note("house_auction_won", {"player": a.bidder, "kind": a.stage, "amount": a.bid}))

    def cmd_decline(self, s, args):
        right = self.building_right(s)
        if right is None:
            super().cmd_decline(s, args)
            return
        s.pending = None
        s.notes.append(Note("place_declined", {"player": right.player, "kind": right.stage}))

    # ----- landings -----------------------------------------------------------------------

    def land_start(self, s, p, cell):
        super().land_start(s, p, cell)
        bonus = self.opt["go_landing_bonus"]
        if bonus:
            self.transfer(s, BANK, p, bonus)
            s.notes.append(Note("go_bonus", {"player": p, "amount": bonus}))

    def land_parking(self, s, p, cell):
        # Free parking: nothing happens, unless the table plays the pot house rule
        if self.opt["free_parking_pot"] and s.cash(POT):
            amount = s.cash(POT)
            self.transfer(s, POT, p, amount)
            s.notes.append(Note("pot_collected", {"player": p, "amount": amount}))

    def tax_account(self):
        return POT if self.opt["free_parking_pot"] else BANK

    def fine_account(self):
        return POT if self.opt["free_parking_pot"] else BANK

    def land_plot(self, s, p, cell):
        owner = s.owner.get(cell.id)
        if owner is None or owner == p or cell.id in s.mortgaged:
            super().land_plot(s, p, cell)
            return
        if self.opt["jail_blocks_rent"] and owner in s.detained:
            s.notes.append(Note("no_rent_jailed", {"player": owner, "plot": cell.id}))
            return
        ind = self.edition.industries[cell.industry]
        by_card = "card_move" in s.extra
        times, dice_times = s.extra.get("card_move", (1, 0))
        if ind.dice_multiplier_by_count and (
            dice_times or not s.last_dice or (by_card and self.opt["card_utility_roll"])
        ):
            # Stop on the field of services: sent by a card (or no dice known), throw the dice now
            count = self.owned_in_industry(s, owner, ind.id)
            mult = dice_times or ind.dice_multiplier_by_count[count - 1]
            s.pending = Pending("rent_roll", player=p, plot=cell.id, count=mult)
            s.notes.append(Note("rent_roll_needed", {"player": p, "plot": cell.id, "times": mult}))
            return
        if times != 1:
            s.notes.append(Note("card_rent_multiplied", {"player": p, "plot": cell.id, "times": times}))
        self.charge(s, p, owner, self.rent(s, cell) * times, "rent_paid", plot=cell.id)

    def cmd_rent_roll(self, s, args):
        """`rent_roll D D`: the throw that prices a utility's rent after a card move."""
        dice = self.dice_args(args, 2, "rent_roll D D")
        a = s.pending
        if a is None or a.kind != "rent_roll":
            raise RuleViolation("no_rent_roll")
        s.pending = None
        s.notes.append(Note("rent_dice", {"player": a.player, "dice": list(dice)}))
        owner = s.owner.get(a.plot)
        if owner is None or owner == a.player or a.plot in s.mortgaged:
            return
        self.charge(s, a.player, owner, a.count * sum(dice), "rent_paid", plot=a.plot)

    # ----- cards ------------------------------------------------------------------------------

    def apply_card(self, s, p, card):
        # while a card's effects run, landings know the move came from a card
        s.extra["card_move"] = (1, 0)
        super().apply_card(s, p, card)
        s.extra.pop("card_move", None)

    def apply_effect(self, s, p, eff, card):
        do = eff["do"]
        if do == "advance_to_nearest":
            self.advance_to_nearest(s, p, eff)
        elif do in ("pay", "pay_per_building") and self.opt["free_parking_pot"]:
            # the house rule: what a card makes a player pay goes into the Free Parking pot
            super().apply_effect(s, p, {**eff, "to": eff.get("to", POT)}, card)
        else:
            super().apply_effect(s, p, eff, card)

    def advance_to_nearest(self, s, p, eff):
        pos = s.position[p]
        targets = [self.edition.plots[pid].index for pid in self.edition.industry_plots(eff["industry"])]
        target = min(targets, key=lambda i: (i - pos) % self.n_cells or self.n_cells)
        s.extra["card_move"] = (eff.get("rent_multiplier", 1), eff.get("dice_multiplier", 0))
        self.move_to(s, p, target, collect=self.opt["card_move_collects"])
        s.extra["card_move"] = (1, 0)

    # ----- trades: mortgaged lots and Get Out of Jail Free cards ----------------------------

    def check_tradable(self, s, holder, cell):
        # Property For Sale: no lot of a colour group with buildings on any of its lots
        if s.owner.get(cell.id) != holder:
            raise RuleViolation("not_owner", player=holder, plot=cell.id)
        if any(self.levels(s, cell.industry)):
            raise RuleViolation("group_built", plot=cell.id, industry=cell.industry)
        if cell.id in s.mortgaged and not self.opt["trade_mortgaged"]:
            raise RuleViolation("plot_mortgaged", plot=cell.id)

    def cmd_trade(self, s, args):
        """`trade A B give ITEM... get ITEM...`; items are lots, cash and kept cards."""
        usage = "trade PLAYER PLAYER give ITEM... get ITEM..."
        self.need(args, 3, usage)
        a = self.player_arg(s, args[0])
        b = self.player_arg(s, args[1])
        cards = {"give": [], "get": []}
        rest, side = [], None
        for tok in args[2:]:
            if tok.lower() in cards:
                side = tok.lower()
            elif side is not None and tok in self.edition.cards:
                cards[side].append(tok)
                continue
            rest.append(tok)
        for side, holder in (("give", a), ("get", b)):
            for card_id in cards[side]:
                if cards[side].count(card_id) > 1:
                    raise BadCommand("usage", usage="each card once")
                if card_id not in s.kept.get(holder, ()):
                    raise RuleViolation("card_not_held", player=holder, card=card_id)
        before = dict(s.owner)
        if any(tok.lower() not in cards for tok in rest):
            super().cmd_trade(s, (args[0], args[1], *rest))
        elif a == b or not (cards["give"] or cards["get"]):
            raise BadCommand("usage", usage=usage)
        for frm, to, moved in ((a, b, cards["give"]), (b, a, cards["get"])):
            for card_id in moved:
                self.move_kept_card(s, frm, to, card_id)
        if cards["give"] or cards["get"]:
            s.notes.append(Note("cards_traded", {"player": a, "other": b, "gave": cards["give"], "got": cards["get"]}))
        for pid in self.edition.plots:  # board order
            if pid in s.mortgaged and before.get(pid) != s.owner.get(pid):
                self.queue_mortgage_transfer(s, s.owner[pid], pid)

    def move_kept_card(self, s, frm, to, card_id):
        s.kept[frm] = tuple(c for c in s.kept[frm] if c != card_id)
        if not s.kept[frm]:
            del s.kept[frm]
        s.kept[to] = s.kept.get(to, ()) + (card_id,)

    def transfer_interest(self, cell):
        return (cell.mortgage * self.opt["transfer_interest_percent"] + 99) // 100

    def queue_mortgage_transfer(self, s, p, pid):
        # Pledge: the new owner redeems at once (mortgage + 10%) or pays 10% now and again on redeeming
        if self.opt["transfer_interest_percent"]:
            s.extra["queue"] = s.extra.get("queue", ()) + (("mortgage_transfer", p, pid),)

    def cmd_redeem(self, s, args):
        a = s.pending
        super().cmd_redeem(s, args)
        if a is not None and a.kind == "mortgage_transfer" and a.plot not in s.mortgaged:
            s.pending = None  # redeemed at once: no separate interest

    def cmd_keep_mortgage(self, s, args):
        """`keep_mortgage PLOT`: the new owner of a mortgaged lot pays the interest and keeps it mortgaged."""
        cell = self.plot_arg(args[0])
        a = s.pending
        if a is None or a.kind != "mortgage_transfer" or a.plot != cell.id:
            raise RuleViolation("no_mortgage_transfer", plot=cell.id)
        s.pending = None
        self.charge(s, a.player, BANK, self.transfer_interest(cell), "transfer_interest", plot=cell.id)

    def after_command(self, s):
        super().after_command(s)
        self.open_queued(s)

    def open_queued(self, s):
        """Open the next queued decision (auctions of a bankrupt's lots, mortgaged lots received)."""
        queue = s.extra.get("queue", ())
        while queue and s.pending is None and s.phase != "over":
            item, queue = queue[0], queue[1:]
            if item[0] == "auction" and item[1] not in s.owner:
                self.open_auction(s, self.edition.plots[item[1]], BANK)
            elif item[0] == "mortgage_transfer":
                _, p, pid = item
                if p in s.alive and s.owner.get(pid) == p and pid in s.mortgaged:
                    cell = self.edition.plots[pid]
                    s.pending = Pending("mortgage_transfer", player=p, plot=pid)
                    s.notes.append(
                        Note(
                            "mortgage_transfer_due",
                            {
                                "player": p,
                                "plot": pid,
                                "redeem": self.redeem_price(cell),
                                "interest": self.transfer_interest(cell),
                            },
                        )
                    )
        if queue:
            s.extra["queue"] = queue
        else:
            s.extra.pop("queue", None)

    # ----- legal actions of Monopoly's verbs (each mirrors its cmd_ method's checks) ----------

    def may_bid(self, s, a, p):
        # a shortage auction is only for players with a lot where the building can go now
        return super().may_bid(s, a, p) and (a.kind != "house_auction" or bool(self.placeable(s, p, a.stage)))

    def legal_decline(self, s):
        right = self.building_right(s)
        if right is not None:
            return [Action("decline", (), right.player)]
        return super().legal_decline(s)

    def tradable_cards(self, s, p):
        return s.kept.get(p, ())

    def legal_rent_roll(self, s):
        a = s.pending
        if a is not None and a.kind == "rent_roll":
            return [Action("rent_roll", dice(2), a.player)]
        return []

    def builders(self, s):
        """Players who own a whole buildable, unmortgaged group (only they may want a building)."""
        out = []
        for ind_id in self.edition.industries:
            p = self.industry_owner(s, ind_id)
            if p is not None and p not in out and self.can_build_group(s, p, ind_id):
                out.append(p)
        return out

    def legal_house_auction(self, s):
        if s.pending is not None or not self.opt["building_shortage_auction"]:
            return []
        if len(self.builders(s)) < 2:
            return []  # a shortage auction needs a rival builder (rivals): none without two builders
        out = []
        for pid, cell in self.edition.plots.items():
            if pid in s.owner and self.edition.industries[cell.industry].buildable:
                wanted = self.rivals(s, cell)
                if wanted is not None and self.left(s, wanted[1]) >= 1:
                    out.append(Action("house_auction", (pid,), TABLE))
        return out

    def legal_keep_mortgage(self, s):
        a = s.pending
        if a is not None and a.kind == "mortgage_transfer":
            return [Action("keep_mortgage", (a.plot,), a.player)]
        return []

    # ----- bankruptcy and the end ------------------------------------------------------------

    def liquidate(self, s, p, debts):
        """Bankruptcy: to a player, the creditor takes everything; to the bank, the lots go back.

        The creditor is the one of the first debt (the payment that broke the
        player); any other debts lapse. Buildings go back to the bank at half
        price first, the money joining the bankrupt's cash.
        """
        creditor = debts[0].creditor
        for d in debts[1:]:
            s.notes.append(Note("debt_lapsed", {"player": p, "to": d.creditor, "amount": d.amount}))
        plots = [pid for pid in self.edition.plots if s.owner.get(pid) == p]  # board order
        value = 0
        for pid in plots:
            level = s.level.pop(pid, 0)
            value += level * self.edition.plots[pid].build_cost * self.opt["building_sale_percent"] // 100
        self.transfer(s, BANK, p, value)
        cash = s.cash(p)
        if creditor in s.alive and creditor != p:
            self.transfer(s, p, creditor, cash)
            cards = list(s.kept.get(p, ()))
            for card_id in cards:
                self.move_kept_card(s, p, creditor, card_id)
            for pid in plots:
                s.owner[pid] = creditor
                if pid in s.mortgaged:
                    self.queue_mortgage_transfer(s, creditor, pid)
            s.notes.append(
                Note("bankrupt_to_player", {"player": p, "to": creditor, "cash": cash, "plots": plots, "cards": cards})
            )
            return
        self.transfer(s, p, BANK, cash)
        for pid in plots:
            del s.owner[pid]
        # the bank takes the lots free of their mortgages
        s.mortgaged = frozenset(m for m in s.mortgaged if m in s.owner)
        if self.opt["bankrupt_to_bank"] == "auction":
            s.extra["queue"] = s.extra.get("queue", ()) + tuple(("auction", pid) for pid in plots)
        s.notes.append(Note("bankrupt_to_bank", {"player": p, "plots": plots}))

    def cmd_bankrupt(self, s, args):
        super().cmd_bankrupt(s, args)
        n = self.opt["end_at_bankruptcy"]
        if n and len(s.players) - len(s.alive) >= n and len(s.alive) > 1:
            # Rules of a shortened game, 3: the game ends now and the richest player wins
            s.extra.pop("queue", None)
            s.pending = None
            self.cmd_end_game(s, ())

    def wealth(self, s, p):
        # cash, lots at the printed price (mortgaged: less the mortgage), buildings at cost, less debts
        return super().wealth(s, p) - sum(d.amount for d in s.debts if d.debtor == p)
