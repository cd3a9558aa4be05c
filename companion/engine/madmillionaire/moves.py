"""Mad Millionaire's turn: I. ROLL & MOVE on the streets, ROLLING A SIX, and WINNING on FINISH."""

from collections.abc import Collection
from typing import cast

from companion.engine.actions import Action, OneOf, dice
from companion.engine.board import Cell, Edition, keyname, shown
from companion.engine.core import Pending
from companion.engine.madmillionaire.base import MadBase
from companion.engine.state import BANK, Note, State
from companion.errors import BadCommand, EditionProblem, RuleViolation


class MadMoves(MadBase):
    # ----- the turn: roll, move, land ----------------------------------------------

    def turn_started(self, s: State, p: str) -> None:
        s.extra.pop("may", None)  # the landing's buy/lease/sell chance ends with the turn
        s.extra.pop("on_finish", None)

    def cmd_roll(self, s: State, args: tuple[str, ...]) -> None:
        """`roll D`: I. ROLL & MOVE with the one die; then `move CELL` says where the car stops."""
        (die,) = self.dice_args(args, 1, "roll D")
        self.ready_to_move(s)
        p = s.turn
        s.phase = "moved"
        s.last_dice = (die,)
        s.notes.append(Note("rolled", {"player": p, "dice": [die]}))
        s.pending = Pending("move", player=p, count=die)

    def destinations(self, s: State, p: str, steps: int) -> set[int]:
        """Where a car may stop: exactly `steps` spaces on, never reversing onto the space it
        just left (no U-turns), or earlier on a face-up stunt location (and on FINISH when
        the right number is not required)."""
        # every stunt card names a landmark of the board (check_edition)
        locations = {cast(Cell, self.edition.cell(self.stunt_cell[c])).index for c in s.extra["stunts"]}
        if not self.opt["finish_exact"]:
            locations.add(self.finish)
        frontier: set[tuple[int, int | None]] = {(s.position[p], None)}
        early = set()
        for k in range(1, steps + 1):
            frontier = {(v, u) for u, prev in frontier for v in self.roads[u] if v != prev}
            if k < steps:
                early |= {v for v, _ in frontier if v in locations}
        return early | {v for v, _ in frontier}

    def cmd_move(self, s: State, args: tuple[str, ...]) -> None:
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

    def land_nothing(self, s: State, p: str, cell: Cell) -> None:
        pass

    def land_finish(self, s: State, p: str, cell: Cell) -> None:
        # WINNING: land on FINISH holding the target
        s.extra["on_finish"] = p
        if not self.check_win(s, p):
            s.notes.append(Note("finish_short", {"player": p, "cash": s.cash(p), "target": self.opt["target"]}))

    def check_win(self, s: State, p: str) -> bool:
        if s.position[p] == self.finish and s.cash(p) >= self.opt["target"]:
            s.winner = p
            s.phase = "over"
            s.pending = None
            s.notes.append(Note("winner", {"player": p}))
            return True
        return False

    def after_command(self, s: State) -> None:
        super().after_command(s)
        if self.opt["finish_late_cash"] and s.phase != "over" and s.extra.get("on_finish") == s.turn:
            self.check_win(s, s.turn)

    # ----- ROLLING A SIX ----------------------------------------------------------------

    def six_for(self, s: State) -> str:
        if s.pending is None or s.pending.kind != "six":
            raise RuleViolation("no_six")
        return cast(str, s.pending.player)  # a six is always a player's

    def cmd_bonus(self, s: State, args: tuple[str, ...]) -> None:
        """`bonus`: take $10k from the bank for the six."""
        p = self.six_for(s)
        s.pending = None
        self.transfer(s, BANK, p, self.opt["six_bonus"])
        s.notes.append(Note("six_bonus", {"player": p, "amount": self.opt["six_bonus"]}))

    def cmd_miss(self, s: State, args: tuple[str, ...]) -> None:
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

    # ----- legal actions of the move verbs (each mirrors its cmd_ method's checks) ----------

    def legal_roll(self, s: State) -> list[Action]:
        return [Action("roll", dice(1), s.turn)] if self.may_move_now(s) else []

    def legal_move(self, s: State) -> list[Action]:
        a = s.pending
        if a is None or a.kind != "move":
            return []
        stops: Collection[int]
        if self.opt["check_moves"]:
            stops = self.destinations(s, a.player, a.count)
        else:
            stops = range(len(self.cells))
        ids = tuple(c.id for c in self.cells if c.index in stops and c.index != 0)
        return [Action("move", (OneOf(ids, "cell"),), a.player)] if ids else []

    def legal_bonus(self, s: State) -> list[Action]:
        a = s.pending
        return [Action("bonus", (), a.player)] if a is not None and a.kind == "six" else []

    def legal_miss(self, s: State) -> list[Action]:
        a = s.pending
        if a is None or a.kind != "six":
            return []
        others = tuple(q for q in s.alive if q != a.player and not s.skip.get(q))
        return [Action("miss", (OneOf(others, "player"),), a.player)] if others else []


def road_map(edition: Edition, one_way: bool) -> tuple[tuple[int, ...], ...]:
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
    links: list[list[int]] = [[] for _ in edition.cells]
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
