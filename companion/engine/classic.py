"""Millionaire Classic: 24 plots, CHANCE and MOVEMENT, the CHARITY FUND, white and black business.

The authority is the Classic part of ../shared/rules/millionaire-classic-elite-en.txt
(a machine translation: "forfeits"/"phantoms" are the game's money); section
names in comments are its headings ("Surprise" cells, Tax office, Black
business, ...). The JACKPOT, TAX INSPECTION and redemption timing are the
Millionaire family's (engine/millionaire.py). Ambiguous points are named options
in the edition file and explained in docs/editions/classic.md.
"""

from typing import Any

from companion.engine.board import MONEY, Card, Cell, Edition, shown
from companion.engine.millionaire import MillionaireRules
from companion.engine.state import BANK, CHARITY, JACKPOT, Note, State
from companion.errors import EditionProblem

CARD_MOVES = ("move_to", "move_steps", "move_nearest")  # the effects that move the token


class ClassicRules(MillionaireRules):
    OPTIONS = {
        **MillionaireRules.OPTIONS,
        "card_move_collects": True,  # a CHANCE card moving past START pays circle income
        "movement_deck": "movement",  # the deck whose moves never pay circle income
        "movement_collects": False,  # "If between these cells there is a START cell, the circular income is not paid"
        "monopoly_rent_multiplier": 2,  # "If the plot is in monopoly possession ... the rent is doubled"
        "black_business_fine": 50,
        "black_business_lands_on_fund": False,  # True: after the fine the fund cell acts as a landing
        # "If the player cannot this moment follow the instruction, then the card remains with him
        # until he completes the task": a card whose payments the player cannot make now is kept
        # and carried out as soon as the cash allows (False: the payment becomes a debt)
        "unpayable_card_kept": True,
    }
    OPTION_RANGES = {
        **MillionaireRules.OPTION_RANGES,
        "monopoly_rent_multiplier": (1, 10),
        "black_business_fine": MONEY,
    }
    CELL_KINDS = MillionaireRules.CELL_KINDS | {"charity", "white_business", "black_business"}
    SYSTEM_ACCOUNTS = (BANK, JACKPOT, CHARITY)

    def __init__(self, edition: Edition) -> None:
        super().__init__(edition)
        self.LANDINGS.update(
            {
                "charity": self.land_charity,
                "white_business": self.land_white_business,
                "black_business": self.land_black_business,
            }
        )

    @classmethod
    def check_edition(cls, edition: Edition) -> None:
        super().check_edition(edition)  # the slot machine and the bets: MillionaireRules
        source = edition.source
        if edition.options["movement_deck"] not in edition.decks:
            raise EditionProblem(
                "edition_movement_deck" if edition.decks else "edition_movement_no_decks",
                source,
                "options.movement_deck",
                value=shown(edition.options["movement_deck"]),
                known=", ".join(edition.decks),
            )
        factor = edition.options["monopoly_rent_multiplier"]
        for cell in edition.plots.values():
            # Stop at a "foreign" site: the monopoly rent is the printed rent doubled,
            # so the file's second rent amount must say exactly that
            if len(cell.rent) > 1 and cell.rent[1] != cell.rent[0] * factor:
                raise EditionProblem(
                    "edition_monopoly_rent",
                    source,
                    f"cells[{cell.index}].rent",
                    factor=factor,
                    need=cell.rent[0] * factor,
                    value=cell.rent[1],
                )
        kinds = [c.kind for c in edition.cells]
        if ("white_business" in kinds or "black_business" in kinds) and kinds.count("charity") != 1:
            raise EditionProblem("edition_one_charity", source, "cells")
        if kinds.count("jackpot") > 1:
            raise EditionProblem("edition_jackpot_cells", source, "cells")
        if len(edition.cells_of_kind("detention")) != 1:
            raise EditionProblem("edition_one_inspection", source, "cells")

    # ----- setup -----------------------------------------------------------------------

    def setup(self, s: State) -> None:
        super().setup(s)  # 200 into the JACKPOT cash box
        # the CHARITY FUND BANK is an account of its own, empty at the start
        s.balances.setdefault(CHARITY, 0)

    # ----- the CHARITY FUND, "white" and "black" business --------------------------------

    def charity_index(self) -> int:
        index: int = self.edition.cells_of_kind("charity")[0]
        return index

    def take_fund(self, s: State, p: str) -> None:
        # Charitable foundation, "white" business: "he takes all the money located there"
        amount = s.cash(CHARITY)
        if amount:
            self.transfer(s, CHARITY, p, amount)
            s.notes.append(Note("fund_taken", {"player": p, "amount": amount}))
        else:
            s.notes.append(Note("fund_empty", {"player": p}))

    def land_charity(self, s: State, p: str, cell: Cell) -> None:
        self.take_fund(s, p)

    def land_white_business(self, s: State, p: str, cell: Cell) -> None:
        self.take_fund(s, p)

    def land_black_business(self, s: State, p: str, cell: Cell) -> None:
        # Black business: "go to the CHARITY FOUNDATION cell and pay a fine of 50 to the
        # CHARITY FUND BANK". The token is sent there (START is not counted on the way)
        # and, by default, the fund cell does not pay out: the player is there to pay,
        # not to collect (option black_business_lands_on_fund).
        s.notes.append(Note("black_business", {"player": p}))
        fund = self.cells[self.charity_index()]
        s.position[p] = fund.index
        self.charge(s, p, CHARITY, self.opt["black_business_fine"], "black_business_fine")
        if self.opt["black_business_lands_on_fund"] and p in s.alive:
            self.LANDINGS[fund.kind](s, p, fund)

    # ----- MOVEMENT cards ----------------------------------------------------------------

    def apply_effect(self, s: State, p: str, eff: dict[str, Any], card: Card) -> None:
        if eff["do"] in CARD_MOVES and card.deck == self.opt["movement_deck"]:
            # "Surprise" cells: the MOVEMENT card moves the pawn; if START lies between, no
            # circle income (not even when the named cell is START itself), whatever kind
            # of move the card makes (to a cell, some steps, the nearest cell of a kind)
            eff = {**eff, "collect": eff.get("collect", self.opt["movement_collects"])}
        super().apply_effect(s, p, eff, card)

    # ----- a CHANCE card the player cannot carry out now is kept ("Surprise" cells) ------------

    def card_cost(self, s: State, p: str, card: Card) -> int:
        """What carrying out the card costs p from their own cash now (0: nothing to pay)."""
        total = 0
        for eff in card.effects:
            if eff["do"] in ("pay", "each_player_pays"):
                total += eff["amount"]
            elif eff["do"] == "pay_each_player":
                total += eff["amount"] * len(self.others(s, p))
            elif eff["do"] == "pay_per_building":
                small, large = self.player_buildings(s, p)
                total += small * eff["small"] + large * eff["large"]
        return total

    def apply_card(self, s: State, p: str, card: Card) -> None:
        cost = self.card_cost(s, p, card)
        if self.opt["unpayable_card_kept"] and cost and s.cash(p) < cost and not card.keep:
            # the card stays with the player, out of the deck, until they can carry it out
            s.decks[card.deck] = tuple(c for c in s.decks[card.deck] if c != card.id)
            s.discards[card.deck] = tuple(c for c in s.discards[card.deck] if c != card.id)
            s.kept[p] = s.kept.get(p, ()) + (card.id,)
            s.extra["due_cards"] = s.extra.get("due_cards", ()) + ((p, card.id),)
            s.notes.append(Note("card_kept_until_paid", {"player": p, "card": card.id, "amount": cost}))
            return
        super().apply_card(s, p, card)

    def after_command(self, s: State) -> None:
        super().after_command(s)
        if s.extra.get("due_cards") and s.phase != "over":
            self.carry_out_due_cards(s)

    def carry_out_due_cards(self, s: State) -> None:
        """Kept cards whose holder can now pay are carried out, and go back under their deck."""
        waiting = []
        for p, card_id in s.extra["due_cards"]:
            card = self.edition.cards[card_id]
            if p not in s.alive or card_id not in s.kept.get(p, ()):
                continue  # the holder left the game: the card went back
            if s.cash(p) < self.card_cost(s, p, card) or s.debts or s.pending is not None:
                waiting.append((p, card_id))
                continue
            s.kept[p] = tuple(c for c in s.kept[p] if c != card_id)
            if not s.kept[p]:
                del s.kept[p]
            s.decks[card.deck] = s.decks[card.deck] + (card_id,)
            s.notes.append(Note("card_carried_out", {"player": p, "card": card_id}))
            self.apply_card(s, p, card)
        if waiting:
            s.extra["due_cards"] = tuple(waiting)
        else:
            s.extra.pop("due_cards", None)

    def move_to(self, s: State, p: str, index: int, collect: bool = True, forward: bool = True) -> None:
        if not collect and self.cells[index].kind == "start":
            s.position[p] = index
            s.notes.append(Note("landed", {"player": p, "cell": self.cells[index].id}))
            s.notes.append(Note("no_circle_income", {"player": p, "cell": self.cells[index].id}))
            return
        super().move_to(s, p, index, collect, forward)
