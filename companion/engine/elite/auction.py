"""Elite's AUCTION cell (ПРАВИЛА АУКЦИОНА): three dice pick a plot, which goes to auction."""

from companion.engine.actions import Action, dice
from companion.engine.board import Cell, Edition
from companion.engine.core import Pending
from companion.engine.elite.base import EliteBase
from companion.engine.state import BANK, Note, State
from companion.errors import EditionProblem, RuleViolation


class EliteAuction(EliteBase):
    # ----- the AUCTION cell (ПРАВИЛА АУКЦИОНА) -------------------------------------------

    def land_auction(self, s: State, p: str, cell: Cell) -> None:
        s.pending = Pending("auction_roll", player=p)
        s.notes.append(Note("auction_roll_needed", {"player": p}))

    def cmd_auction_roll(self, s: State, args: tuple[str, ...]) -> None:
        """`auction_roll D D D`: side (5-6 cancels), direction, plot."""
        side, direction, pick = self.dice_args(args, 3, "auction_roll D D D")
        if s.pending is None or s.pending.kind != "auction_roll":
            raise RuleViolation("no_auction_roll")
        s.pending = None
        if side > 4:
            s.notes.append(Note("auction_cancelled", {"reason": "side", "die": side}))
            return
        clockwise, counter = self.sides[side - 1]
        plots = clockwise if direction % 2 == 0 else counter
        index = (pick - 1) * len(plots) // 6
        cell = self.edition.plots[plots[index]]
        s.notes.append(Note("auction_selected", {"plot": cell.id, "dice": [side, direction, pick]}))
        owner = s.owner.get(cell.id)
        if cell.id in s.mortgaged:
            s.notes.append(Note("auction_cancelled", {"reason": "mortgaged", "plot": cell.id}))
            return
        if s.level.get(cell.id, 0):
            s.notes.append(Note("auction_cancelled", {"reason": "built", "plot": cell.id}))
            return
        if owner is not None and (s.held(owner, "green") or s.held(owner, "blue")):
            s.notes.append(Note("auction_cancelled", {"reason": "insured", "plot": cell.id, "player": owner}))
            return
        if (
            owner is not None
            and self.opt["long_term_policies"] == "ask"
            and (s.held(owner, "orange") or s.held(owner, "red"))
        ):
            # the holder decides whether this auction is the insured event
            s.pending = Pending("claim", player=owner, plot=cell.id)
            s.notes.append(Note("policy_question", {"player": owner, "plot": cell.id}))
            return
        if owner is not None and self.used_up_against_auction(s, owner):
            s.notes.append(Note("auction_cancelled", {"reason": "insured", "plot": cell.id, "player": owner}))
            return
        self.open_auction(s, cell, owner or BANK)

    def used_up_against_auction(self, s: State, p: str) -> bool:
        for colour in ("orange", "red"):
            if s.held(p, colour):
                self.give(s, p, colour, -1)
                s.notes.append(Note("policy_used", {"player": p, "policy": colour, "reason": "auction"}))
                return True
        return False

    def legal_auction_roll(self, s: State) -> list[Action]:
        a = s.pending
        if a is not None and a.kind == "auction_roll":
            return [Action("auction_roll", dice(3), a.player)]
        return []


def side_layout(edition: Edition, central: str) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """For each side 1-4: (plots clockwise of its centre, plots counter-clockwise).

    The AUCTION cell's second roll picks the industry on one side of the central
    plot; the board must therefore hold one central plot and one industry on
    each side of it on every side.
    """
    n = len(edition.cells)
    if n % 4:
        raise EditionProblem("edition_square", edition.source, "cells", value=n)
    per_side = n // 4
    sides = []
    for k in range(4):
        cells = edition.cells[k * per_side : (k + 1) * per_side]
        centre = [c for c in cells if c.industry == central]
        if len(centre) != 1:
            raise EditionProblem("edition_side_central", edition.source, "cells", side=k + 1, ind=central)
        mid = centre[0].index
        before = [c for c in cells if c.is_plot and c.industry != central and c.index < mid]
        after = [c for c in cells if c.is_plot and c.industry != central and c.index > mid]
        for group, where in ((before, "before"), (after, "after")):
            if len({c.industry for c in group}) != 1 or len(group) not in (2, 3):
                raise EditionProblem(f"edition_side_{where}", edition.source, "cells", side=k + 1)
        sides.append((tuple(c.id for c in after), tuple(c.id for c in before)))
    return tuple(sides)
