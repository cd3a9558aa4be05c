"""Monopoly's landings (GO, Free Parking, rents and the utilities' dice) and its cards."""

from typing import Any

from companion.engine.actions import Action, dice
from companion.engine.board import Card, Cell
from companion.engine.core import CORE_EFFECTS, Pending, Rules
from companion.engine.state import BANK, POT, Note, State
from companion.errors import RuleViolation

MONOPOLY_EFFECTS = {
    **CORE_EFFECTS,
    # forward to the nearest lot of a group (railroads, utilities), GO paying on the way;
    # optional rent_multiplier (x the rent) or dice_multiplier (x a fresh throw of the dice)
    "advance_to_nearest": ("industry",),
}


class MonopolyLandings(Rules):
    # ----- landings -----------------------------------------------------------------------

    def land_start(self, s: State, p: str, cell: Cell) -> None:
        super().land_start(s, p, cell)
        bonus = self.opt["go_landing_bonus"]
        if bonus:
            self.transfer(s, BANK, p, bonus)
            s.notes.append(Note("go_bonus", {"player": p, "amount": bonus}))

    def land_parking(self, s: State, p: str, cell: Cell) -> None:
        # Free parking: nothing happens, unless the table plays the pot house rule
        if self.opt["free_parking_pot"] and s.cash(POT):
            amount = s.cash(POT)
            self.transfer(s, POT, p, amount)
            s.notes.append(Note("pot_collected", {"player": p, "amount": amount}))

    def tax_account(self) -> str:
        return POT if self.opt["free_parking_pot"] else BANK

    def fine_account(self) -> str:
        return POT if self.opt["free_parking_pot"] else BANK

    def land_plot(self, s: State, p: str, cell: Cell) -> None:
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

    def cmd_rent_roll(self, s: State, args: tuple[str, ...]) -> None:
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

    def legal_rent_roll(self, s: State) -> list[Action]:
        a = s.pending
        if a is not None and a.kind == "rent_roll":
            return [Action("rent_roll", dice(2), a.player)]
        return []

    # ----- cards ------------------------------------------------------------------------------

    def apply_card(self, s: State, p: str, card: Card) -> None:
        # while a card's effects run, landings know the move came from a card
        s.extra["card_move"] = (1, 0)
        super().apply_card(s, p, card)
        s.extra.pop("card_move", None)

    def apply_effect(self, s: State, p: str, eff: dict[str, Any], card: Card) -> None:
        do = eff["do"]
        if do == "advance_to_nearest":
            self.advance_to_nearest(s, p, eff)
        elif do in ("pay", "pay_per_building") and self.opt["free_parking_pot"]:
            # the house rule: what a card makes a player pay goes into the Free Parking pot
            super().apply_effect(s, p, {**eff, "to": eff.get("to", POT)}, card)
        else:
            super().apply_effect(s, p, eff, card)

    def advance_to_nearest(self, s: State, p: str, eff: dict[str, Any]) -> None:
        pos = s.position[p]
        targets = [self.edition.plots[pid].index for pid in self.edition.industry_plots(eff["industry"])]
        target = min(targets, key=lambda i: (i - pos) % self.n_cells or self.n_cells)
        s.extra["card_move"] = (eff.get("rent_multiplier", 1), eff.get("dice_multiplier", 0))
        self.move_to(s, p, target, collect=self.opt["card_move_collects"])
        s.extra["card_move"] = (1, 0)
