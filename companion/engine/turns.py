"""Turn order and movement on the ring board: rolling, landing, START, detention, the next turn."""

from collections.abc import Callable

from companion.engine.actions import Action, OneOf, dice
from companion.engine.base import RulesBase
from companion.engine.board import Cell
from companion.engine.state import BANK, Note, State
from companion.errors import BadCommand, RuleViolation


class Turns(RulesBase):
    """The turn: rolling or reporting a landing, moving round the board, START, detention, ending."""

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

    def require_turn_free(self, s: State) -> None:
        if s.pending is not None:
            raise RuleViolation("pending_first", pending=s.pending.kind, player=s.pending.player, plot=s.pending.plot)

    def cmd_roll(self, s: State, args: tuple[str, ...]) -> None:
        n = self.opt["dice"]
        dice = self.dice_args(args, n, "roll" + " D" * n)
        self.require_turn_free(s)
        p = s.turn
        if not (s.phase in ("setup", "roll") or (s.phase == "moved" and s.again)):
            raise RuleViolation("already_rolled", player=p)
        s.last_dice = dice
        s.notes.append(Note("rolled", {"player": p, "dice": list(dice)}))
        self.move(s, p, n == 2 and dice[0] == dice[1], lambda: self.advance(s, p, sum(dice)))

    def cmd_land(self, s: State, args: tuple[str, ...]) -> None:
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

    def landing(self, s: State, p: str, cell: Cell, double: bool) -> tuple[int, bool]:
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

    def move(self, s: State, p: str, double: bool, go: Callable[[], None]) -> None:
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

    def move_started(self, s: State, p: str) -> None:
        """Edition hook: what a new move of the current player ends (a visit, a chance)."""

    def advance(self, s: State, p: str, steps: int) -> None:
        """Move forward, booking every cell passed, then land."""
        pos = s.position[p]
        for k in range(1, steps):
            self.on_pass(s, p, self.cells[(pos + k) % self.n_cells])
            if p not in s.alive:
                return
        self.place(s, p, (pos + steps) % self.n_cells)

    def place(self, s: State, p: str, index: int) -> None:
        s.position[p] = index
        cell = self.cells[index]
        s.notes.append(Note("landed", {"player": p, "cell": cell.id}))
        self.LANDINGS[cell.kind](s, p, cell)

    def move_to(self, s: State, p: str, index: int, collect: bool = True, forward: bool = True) -> None:
        """Card movement: forward (passing cells as usual) or straight back."""
        if forward:
            steps = (index - s.position[p]) % self.n_cells or self.n_cells
            if collect:
                self.advance(s, p, steps)
                return
            self.place(s, p, index)
        else:
            self.place(s, p, index)

    def on_pass(self, s: State, p: str, cell: Cell) -> None:
        if cell.kind == "start":
            self.pass_start(s, p)

    def pass_start(self, s: State, p: str) -> None:
        fixed, dividend = self.circle_income_parts(s, p)
        self.transfer(s, BANK, p, fixed + dividend)
        # a dividend part is named, so the screens can show the sum's parts (Elite: 200 + shares)
        params = {"player": p, "amount": fixed + dividend, **({"dividend": dividend} if dividend else {})}
        s.notes.append(Note("circle_income", params))

    def circle_income_parts(self, s: State, p: str) -> tuple[int, int]:
        """The circle income: (the fixed sum, a dividend on shares); no shares in the core."""
        return self.opt["circle_income"], 0

    def cmd_end(self, s: State, args: tuple[str, ...]) -> None:
        self.require_turn_free(s)
        p = s.turn
        if s.phase != "moved":
            raise RuleViolation("roll_first", player=p)
        if s.again:
            raise RuleViolation("roll_again", player=p)
        self.next_turn(s)

    def next_turn(self, s: State) -> None:
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

    def turn_started(self, s: State, p: str) -> None:
        """Edition hook: anything that happens as a turn begins."""

    def detention_index(self) -> int:
        return self.edition.cells_of_kind("detention")[0]

    def send_to_detention(self, s: State, p: str) -> None:
        s.position[p] = self.detention_index()
        s.detained[p] = 0
        s.again = False
        s.notes.append(Note("detained", {"player": p, "cell": self.cells[s.position[p]].id}))

    def land_go_to_detention(self, s: State, p: str, cell: Cell) -> None:
        self.send_to_detention(s, p)

    def miss_frees(self, s: State, p: str) -> bool:
        """Whether this turn's move leaves detention even without a double (the fine is due)."""
        tries = s.detained[p]
        frees: bool = tries >= self.opt["detention_tries"] or (
            tries + 1 >= self.opt["detention_tries"] and self.opt["detention_third_miss"] == "pay_and_move"
        )
        return frees

    def detained_move(self, s: State, p: str, double: bool, go: Callable[[], None]) -> None:
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

    def cmd_pay_fine(self, s: State, args: tuple[str, ...]) -> None:
        p = s.turn
        if p not in s.detained:
            raise RuleViolation("not_detained", player=p)
        if s.phase == "moved":
            raise RuleViolation("before_roll_only", player=p)
        self.spend(s, p, self.fine_account(), self.opt["detention_fine"], "fine")
        del s.detained[p]
        s.notes.append(Note("fine_paid", {"player": p, "amount": self.opt["detention_fine"]}))

    def fine_account(self) -> str:
        return BANK

    def cmd_use_card(self, s: State, args: tuple[str, ...]) -> None:
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

    def land_start(self, s: State, p: str, cell: Cell) -> None:
        self.pass_start(s, p)

    def land_free(self, s: State, p: str, cell: Cell) -> None:
        pass

    def land_tax(self, s: State, p: str, cell: Cell) -> None:
        self.charge(s, p, self.tax_account(), int(cell.params.get("amount", 0)), "tax_paid", cell=cell.id)

    def tax_account(self) -> str:
        return BANK
