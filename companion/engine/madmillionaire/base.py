"""What every section of Mad Millionaire reaches: SOLD signs, and whether the player may move now."""

from companion.engine.board import Cell
from companion.engine.core import Pending, Rules
from companion.engine.state import Note, State
from companion.errors import BadCommand, RuleViolation

SALE_FACES = ("half", "full", "double", "triple")
SMALL = "small"  # the industry of the six small single buildings (one is free at the start)
STUNT_DECK = "stunt"


class MadBase(Rules):
    """The core rules plus what the sections share (they are mixins on this class,
    assembled into MadMillionaireRules in madmillionaire/rules.py)."""

    # set by MadMillionaireRules.__init__ from the edition
    lease_price: dict[str, int]  # business -> its printed lease price (0: none)
    near: dict[str, tuple[str, ...]]  # business -> the businesses next to it (next_to)
    roads: tuple[tuple[int, ...], ...]  # cell index -> the cells a car may drive to next (road_map)
    finish: int  # the FINISH cell's index
    stunt_cell: dict[str, str]  # stunt card -> the landmark it names

    # ----- argument helpers and SOLD signs ------------------------------------------

    def business_arg(self, ref: str) -> Cell:
        cell: Cell | None = self.edition.cell(ref)
        if cell is None or cell.kind != "plot":
            raise BadCommand("unknown_business", plot=ref)
        return cell

    def leased(self, s: State, pid: str) -> bool:
        return pid in s.extra["leased"]

    def place_sign(self, s: State, p: str, pid: str, leased: bool = False) -> None:
        if not s.held(p, "signs"):
            raise RuleViolation("no_sign_left", player=p)
        self.give(s, p, "signs", -1)
        s.owner[pid] = p
        if leased:
            s.extra["leased"] = tuple(sorted(s.extra["leased"] + (pid,)))

    def remove_sign(self, s: State, pid: str) -> str:
        p = s.owner.pop(pid)
        self.give(s, p, "signs", 1)
        s.extra["leased"] = tuple(x for x in s.extra["leased"] if x != pid)
        return p

    def tenure(self, s: State, pid: str) -> str:
        return "leased" if self.leased(s, pid) else "bought"

    # ----- whether the turn player may move (or sell instead) now ----------------------

    def check_claims(self, s: State) -> None:
        if s.phase == "setup":
            missing = [p for p in s.alive if p not in s.extra["claimed"]]
            if missing:
                raise RuleViolation("claim_first", players=missing)

    def in_own_turn(self, s: State) -> str:
        """Signs may come off at any time during one's turn (once everybody has claimed)."""
        self.check_claims(s)
        return s.turn

    def ready_to_move(self, s: State) -> None:
        """Before the player's move: the first turn waits for the cards and the free businesses."""
        self.require_turn_free(s)
        self.check_claims(s)
        if s.phase not in ("setup", "roll"):
            raise RuleViolation("already_rolled", player=s.turn)

    def may_move_now(self, s: State) -> bool:
        try:
            self.ready_to_move(s)
        except RuleViolation:
            return False
        return True

    def offer_six(self, s: State, p: str) -> None:
        s.pending = Pending("six", player=p)
        s.notes.append(Note("six_rolled", {"player": p, "amount": self.opt["six_bonus"]}))
