"""Monopoly's houses and hotels, and "Lack of buildings": the shortage auction.

Building levels on a lot: 1..H are houses, H + 1 is the hotel, where H is
`hotel_after_houses` (4; 3 in the short game). A hotel sends its houses back
to the bank, so a lot at H + 1 holds one hotel and no house.
"""

from collections.abc import Iterable
from dataclasses import replace
from typing import cast

from companion.engine.actions import TABLE, Action
from companion.engine.board import Cell
from companion.engine.core import Pending, Rules
from companion.engine.state import BANK, Note, State
from companion.errors import RuleViolation

KINDS = ("house", "hotel")


class MonopolyBuildings(Rules):
    # ----- building levels: houses, then a hotel -----------------------------------------

    def houses_max(self) -> int:
        houses: int = self.opt["hotel_after_houses"]
        return houses

    def max_level(self) -> int:
        return self.houses_max() + 1

    def split(self, level: int) -> tuple[int, int]:
        """(houses, hotels) standing on a lot at this level."""
        return (0, 1) if level > self.houses_max() else (level, 0)

    def count_buildings(self, levels: Iterable[int]) -> tuple[int, int]:
        houses = hotels = 0
        top = self.houses_max()
        for level in levels:  # self.split, inlined: this runs for every build and sale question
            if level > top:
                hotels += 1
            else:
                houses += level
        return houses, hotels

    def player_buildings(self, s: State, p: str) -> tuple[int, int]:
        return self.count_buildings(s.level.get(pid, 0) for pid in s.plots_of(p))

    def left(self, s: State, kind: str) -> int:
        """How many houses or hotels the bank still holds."""
        houses, hotels = self.buildings_in_use(s)
        if kind == "house":
            small: int = self.edition.supply.get("small", 10**6) - houses
            return small
        large: int = self.edition.supply.get("large", 10**6) - hotels
        return large

    def rent(self, s: State, cell: Cell) -> int:
        # the hotel's rent is the last of the row, also in the short game (hotel after 3 houses)
        if s.level.get(cell.id, 0) > self.houses_max():
            hotel: int = cell.rent[-1]
            return hotel
        return super().rent(s, cell)

    def group_mortgaged(self, s: State, industry_id: str) -> bool:
        return any(pid in s.mortgaged for pid in self.edition.industry_plots(industry_id))

    def can_build_group(self, s: State, p: str, industry_id: str) -> bool:
        ind = self.edition.industries[industry_id]
        return ind.buildable and self.industry_owner(s, industry_id) == p and not self.group_mortgaged(s, industry_id)

    def next_kind(self, s: State, cell: Cell) -> str:
        return "hotel" if s.level.get(cell.id, 0) >= self.houses_max() else "house"

    def placeable(self, s: State, p: str, kind: str) -> list[str]:
        """Lots of p where one building of this kind may go now (evenly, box permitting)."""
        memo = s.memo
        if memo is None:
            return self.find_placeable(s, p, kind)
        key = ("placeable", p, kind)
        found = memo.get(key)
        if found is None:
            found = memo[key] = self.find_placeable(s, p, kind)
        return list(found)

    def find_placeable(self, s: State, p: str, kind: str) -> list[str]:
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

    def rivals(self, s: State, cell: Cell) -> tuple[str, str] | None:
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

    def building_right(self, s: State) -> Pending | None:
        a = s.pending
        return a if a is not None and a.kind == "place_building" else None

    def build_terms(self, s: State, cell: Cell) -> tuple[str, int]:
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

    def cmd_build(self, s: State, args: tuple[str, ...]) -> None:
        right = self.building_right(s)
        super().cmd_build(s, args)
        if right is not None:
            s.pending = None

    def build_price(self, s: State, cell: Cell) -> int:
        # a building won at a shortage auction costs the winning bid
        right = self.building_right(s)
        if right is not None and right.player == s.owner.get(cell.id):
            return right.bid
        return super().build_price(s, cell)

    # a hotel the bank lacks the houses to swap back for: the group's hotels go at once
    # (Rules.sell_large_short, "All hotels of one color group must be sold at the same time")
    SHORT_SALE_NOTE = "hotels_sold_short"

    def small_top(self) -> int:
        return self.houses_max()

    def small_left(self, s: State) -> int:
        return self.left(s, "house")

    # ----- Lack of buildings: the shortage auction -----------------------------------------

    def cmd_house_auction(self, s: State, args: tuple[str, ...]) -> None:
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

    def auction(self, s: State) -> Pending:
        if s.pending is not None and s.pending.kind == "house_auction":
            shortage: Pending = s.pending
            return shortage
        return super().auction(s)

    def cmd_bid(self, s: State, args: tuple[str, ...]) -> None:
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

    def cmd_hammer(self, s: State, args: tuple[str, ...]) -> None:
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

    def cmd_decline(self, s: State, args: tuple[str, ...]) -> None:
        right = self.building_right(s)
        if right is None:
            super().cmd_decline(s, args)
            return
        s.pending = None
        s.notes.append(Note("place_declined", {"player": right.player, "kind": right.stage}))

    # ----- legal actions of the building verbs (each mirrors its cmd_ method's checks) ------

    def may_bid(self, s: State, a: Pending, p: str) -> bool:
        # a shortage auction is only for players with a lot where the building can go now
        return super().may_bid(s, a, p) and (a.kind != "house_auction" or bool(self.placeable(s, p, a.stage)))

    def legal_decline(self, s: State) -> list[Action]:
        right = self.building_right(s)
        if right is not None:
            return [Action("decline", (), cast(str, right.player))]  # a won building has a winner
        return super().legal_decline(s)

    def builders(self, s: State) -> list[str]:
        """Players who own a whole buildable, unmortgaged group (only they may want a building)."""
        out = []
        for ind_id in self.edition.industries:
            p = self.industry_owner(s, ind_id)
            if p is not None and p not in out and self.can_build_group(s, p, ind_id):
                out.append(p)
        return out

    def legal_house_auction(self, s: State) -> list[Action]:
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
