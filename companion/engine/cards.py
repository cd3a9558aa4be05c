"""Card decks: drawing, keeping, the card effects every edition understands (CORE_EFFECTS)."""

from typing import Any, cast

from companion.engine.actions import Action, OneOf
from companion.engine.base import RulesBase
from companion.engine.board import MONEY, PERCENT, Card, Cell
from companion.engine.command import Command
from companion.engine.state import BANK, Note, Pending, State
from companion.errors import RuleViolation, check

# A pending `choose` after a card move that pays no circle income (Pending.stage)
NO_INCOME = "no_income"

# effect arguments that are whole numbers, with their ranges (steps and points may be negative)
EFFECT_NUMBERS = {
    # money: per card, per building
    "amount": MONEY,
    "small": MONEY,
    "large": MONEY,
    "steps": (-100, 100),  # cells forward (back when negative)
    "points": (-100, 100),  # share price points (Elite)
    "percent": PERCENT,  # dividend rate (Elite)
    "count": (1, 10),  # FORTUNE cards put on the wheel (Elite)
}
# effect arguments that are text (a cell, a cell kind, a deck, an account, an industry)
EFFECT_TEXTS = {"do", "cell", "kind", "deck", "to", "from", "industry", "plots"}
# optional arguments each effect reads besides its required ones (any other key is refused)
CORE_EFFECT_OPTIONAL: dict[str, tuple[str, ...]] = {
    # a system account instead of the bank
    "pay": ("to",),
    "each_player_pays": ("to",),
    "receive": ("from",),
    "move_to": ("collect",),  # false: no START income on the way
    "move_steps": ("collect",),  # forward steps: the same
    "move_nearest": ("deck", "collect"),  # the nearest card cell of this deck; collect as above
}

# Effects every edition understands: verb -> required argument keys.
CORE_EFFECTS: dict[str, tuple[str, ...]] = {
    "pay": ("amount",),  # the drawing player pays the bank
    "receive": ("amount",),  # the bank pays the drawing player
    "pay_each_player": ("amount",),  # the drawing player pays every other player
    "collect_from_each": ("amount",),  # every other player pays the drawing player
    "each_player_pays": ("amount",),  # every player pays the bank (collective cards)
    "each_player_receives": ("amount",),  # the bank pays every player
    "pay_per_building": ("small", "large"),
    "move_to": ("cell",),  # optional: collect = false (no START income)
    "move_steps": ("steps",),  # negative steps move back
    "move_nearest": ("kind",),  # nearest cell of that kind, ahead or behind
    "go_to_detention": (),
    "release": (),  # keep this card to leave detention for free
    "skip_turn": (),
}


class Cards(RulesBase):
    """Cards: drawing from a deck, kept cards, and the core card effects."""

    def legal_draw(self, s: State) -> list[Action]:
        a = s.pending
        if a is None or a.kind != "draw":
            return []
        order = s.decks[a.stage] or s.discards[a.stage]
        out = [Action("draw", (), a.player)]
        if order:
            # the cards in name order, never the deck's: a list must not tell the next card
            out.append(Action("draw", (OneOf(tuple(sorted(order)), "card"),)))
        return out

    def drawer(self, s: State, args: tuple[str, ...]) -> str | None:
        """Who may `draw` now: the pending player draws the deck's next card; naming one is the table's."""
        a: Pending | None = s.pending
        if a is None or a.kind != "draw" or args:
            return None
        return a.player

    def legal_choose(self, s: State) -> list[Action]:
        a = s.pending
        if a is None or a.kind != "choose":
            return []
        return [Action("choose", (OneOf(tuple(self.cells[i].id for i in a.options), "cell"),), a.player)]

    def return_kept_card(self, s: State, p: str, card_id: str) -> None:
        s.kept[p] = tuple(c for c in s.kept[p] if c != card_id)
        if not s.kept[p]:
            del s.kept[p]
        deck = self.edition.cards[card_id].deck
        s.decks[deck] = s.decks[deck] + (card_id,)

    def land_card(self, s: State, p: str, cell: Cell) -> None:
        s.pending = Pending("draw", player=p, stage=cast(str, cell.deck))  # a card cell names its deck
        s.notes.append(Note("draw_card", {"player": p, "deck": cell.deck}))

    def cmd_draw(self, s: State, args: tuple[str, ...]) -> None:
        """Draw the top card of the pending deck, or name the physical card: `draw [CARD]`."""
        if s.pending is None or s.pending.kind != "draw":
            raise RuleViolation("no_draw")
        deck = s.pending.stage
        p = s.pending.player
        if not args and (s.decks[deck] or s.discards[deck]):
            top = (s.decks[deck] or s.discards[deck])[0]
            s.command = Command("draw", (top,)).text()  # stored naming the card, so replays deal it again
            args = (top,)
        self.draw_card(s, p, deck, args[0] if args else None)

    def draw_card(self, s: State, p: str, deck: str, card_id: str | None = None) -> None:
        order = s.decks[deck]
        if not order:
            # a discarded deck turned over: the same order it was discarded in
            order, s.discards[deck] = s.discards[deck], ()
        if not order:
            s.pending = None
            s.notes.append(Note("deck_empty", {"deck": deck}))
            return
        if card_id is None:
            card_id = order[0]
        elif card_id not in order:
            raise RuleViolation("card_not_in_deck", card=card_id, deck=deck)
        rest = tuple(c for c in order if c != card_id)
        card = self.edition.cards[card_id]
        s.pending = None
        s.notes.append(Note("card", {"player": p, "deck": deck, "card": card_id}))
        if card.keep:
            s.decks[deck] = rest
            s.kept[p] = s.kept.get(p, ()) + (card_id,)
            s.notes.append(Note("card_kept", {"player": p, "card": card_id}))
            return
        if deck in self.opt["discard_decks"]:
            s.decks[deck] = rest
            s.discards[deck] = s.discards[deck] + (card_id,)
        else:
            s.decks[deck] = rest + (card_id,)
        self.apply_card(s, p, card)

    def apply_card(self, s: State, p: str, card: Card) -> None:
        for eff in card.effects:
            if p not in s.alive:
                return
            self.apply_effect(s, p, eff, card)

    def others(self, s: State, p: str) -> list[str]:
        return [q for q in s.alive if q != p]

    def apply_effect(self, s: State, p: str, eff: dict[str, Any], card: Card) -> None:
        do = eff["do"]
        if do == "pay":
            self.charge(s, p, eff.get("to", BANK), eff["amount"], "card_paid", card=card.id)
        elif do == "receive":
            self.transfer(s, eff.get("from", BANK), p, eff["amount"])
            s.notes.append(Note("card_received", {"player": p, "amount": eff["amount"], "card": card.id}))
        elif do == "pay_each_player":
            for q in self.others(s, p):
                self.charge(s, p, q, eff["amount"], "card_paid", card=card.id)
        elif do == "collect_from_each":
            for q in self.others(s, p):
                self.charge(s, q, p, eff["amount"], "card_paid", card=card.id)
        elif do == "each_player_pays":
            for q in s.alive:
                self.charge(s, q, eff.get("to", BANK), eff["amount"], "card_paid", card=card.id)
        elif do == "each_player_receives":
            for q in s.alive:
                self.transfer(s, BANK, q, eff["amount"])
                s.notes.append(Note("card_received", {"player": q, "amount": eff["amount"], "card": card.id}))
        elif do == "pay_per_building":
            small, large = self.player_buildings(s, p)
            amount = small * eff["small"] + large * eff["large"]
            if not amount:  # say so: a silent card leaves the table asking whether anything was paid
                s.notes.append(Note("nothing_to_pay", {"player": p}))
            self.charge(s, p, eff.get("to", BANK), amount, "card_paid", card=card.id)
        elif do == "move_to":
            target = cast(Cell, self.edition.cell(eff["cell"])).index  # check_edition: the cell exists
            self.move_to(s, p, target, collect=eff.get("collect", self.opt["card_move_collects"]))
        elif do == "move_steps":
            steps = eff["steps"]
            # a card move pays circle income on passing START only if the card (or the option) says so
            collect = eff.get("collect", self.opt["card_move_collects"])
            if steps >= 0 and collect:
                self.advance(s, p, steps)
            elif steps >= 0:
                self.move_to(s, p, (s.position[p] + steps) % self.n_cells, collect=False)
            else:
                self.place(s, p, (s.position[p] + steps) % self.n_cells)
        elif do == "move_nearest":
            self.move_nearest(s, p, eff["kind"], eff.get("deck"), eff.get("collect", self.opt["card_move_collects"]))
        elif do == "go_to_detention":
            self.send_to_detention(s, p)
        elif do == "skip_turn":
            s.skip[p] = s.skip.get(p, 0) + 1
            s.notes.append(Note("will_skip", {"player": p}))
        else:
            check(False, f"effect {do} has no handler")

    def player_buildings(self, s: State, p: str) -> tuple[int, int]:
        b = self.edition.buildings
        small = large = 0
        for pid, level in s.level.items():
            if s.owner.get(pid) == p:
                big = max(0, level - b["small_max"])
                large += big
                if not (big and b["large_returns_small"]):
                    small += min(level, b["small_max"])
        return small, large

    def move_nearest(self, s: State, p: str, kind: str, deck: str | None = None, collect: bool = True) -> None:
        """Nearest cell of a kind ahead or behind; on a tie the player chooses.

        collect: whether passing START on the way pays circle income (a card says)."""
        pos = s.position[p]
        targets = [
            c.index for c in self.cells if c.kind == kind and (deck is None or c.deck == deck) and c.index != pos
        ]
        if not targets:
            return
        ahead = min(targets, key=lambda i: (i - pos) % self.n_cells)
        behind = min(targets, key=lambda i: (pos - i) % self.n_cells)
        d_ahead, d_behind = (ahead - pos) % self.n_cells, (pos - behind) % self.n_cells
        if d_ahead < d_behind:
            self.move_to(s, p, ahead, collect=collect)
        elif d_behind < d_ahead:
            self.move_to(s, p, behind, forward=False)
        else:
            # the choice remembers whether the move ahead may pay circle income
            s.pending = Pending("choose", player=p, options=(ahead, behind), stage="" if collect else NO_INCOME)
            s.notes.append(Note("choose_cell", {"player": p, "cells": [self.cells[ahead].id, self.cells[behind].id]}))

    def cmd_choose(self, s: State, args: tuple[str, ...]) -> None:
        """Pick one of the offered cells: `choose CELL`."""
        if s.pending is None or s.pending.kind != "choose":
            raise RuleViolation("no_choice")
        cell = self.edition.cell(args[0])
        if cell is None or cell.index not in s.pending.options:
            raise RuleViolation("not_an_option", cell=args[0])
        p = s.pending.player
        ahead = s.pending.options[0]
        collect = s.pending.stage != NO_INCOME
        s.pending = None
        self.move_to(s, p, cell.index, collect=collect, forward=(cell.index == ahead))
