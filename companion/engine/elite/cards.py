"""Elite's cards: CHANCE, and FORTUNE's collective instructions, some of them in force for a while."""

from typing import Any

from companion.engine.actions import Action, OneOf
from companion.engine.board import Card, Cell
from companion.engine.command import Command
from companion.engine.core import Pending, Rules
from companion.engine.elite.base import IN_FORCE, first
from companion.engine.elite.insurance import BLUE_PICKS, EFFECT, EliteInsurance
from companion.engine.elite.taxes import EliteTaxes
from companion.engine.state import BANK, Note, State
from companion.errors import BadCommand, EditionProblem, RuleViolation


class EliteCards(EliteTaxes, EliteInsurance):
    """Cards build on taxes (a CHANCE card exempts from the next circle tax) and insurance
    (a FORTUNE card's payments are covered by policies)."""

    # ----- the FORTUNE cards in force: rents and circle income ---------------------------

    def rent(self, s: State, cell: Cell) -> int:
        computed = super().rent(s, cell)
        eff = self.on_plot(s, cell, ("set_rent",))
        if eff is None:
            return computed
        ind = self.edition.industries[cell.industry]
        return self.fortune_value(eff, computed, first(cell.rent) or first(ind.rent_by_count))

    def circle_income_parts(self, s: State, p: str) -> tuple[int, int]:
        """КРУГОВОЙ ДОХОД: (the fixed sum, the dividend on shares), as FORTUNE cards in force say."""
        base = self.in_force(s, "circle_income")
        rate = self.in_force(s, "dividend_percent")
        percent = rate["percent"] if rate else self.opt["dividend_percent"]
        fixed = base["amount"] if base else self.opt["circle_income"]
        return fixed, s.held(p, "shares") * self.price(s) * percent // 100

    # ----- cards: CHANCE and FORTUNE --------------------------------------------------

    def cmd_draw(self, s: State, args: tuple[str, ...]) -> None:
        """`draw [CARD]`; after a CHANCE card that puts N FORTUNE cards on the wheel, `draw [CARD x N]`."""
        a = s.pending
        if a is None or a.kind != "draw" or not a.count:
            if len(args) > 1:
                raise BadCommand("usage", usage="draw [CARD]")
            super().cmd_draw(s, args)
            return
        if args and (len(args) > a.count or len(set(args)) != len(args)):
            raise BadCommand("usage", usage="draw" + " CARD" * a.count)
        s.pending = None
        drawn = []
        for i in range(a.count):
            if a.player not in s.alive:
                break
            # Each card is checked against the deck as it is at its own turn: the first may be the
            # deck's last, and the second then comes from the discards turned over. (Checking every
            # named card against the deck before the first draw refused, on replay, a draw that had
            # been booked so: a stored game that would not open.)
            top = s.decks["fortune"] or s.discards["fortune"]
            if args and i >= len(args):
                if top:  # fewer cards named than the wheel takes, and cards are left to turn
                    raise BadCommand("usage", usage="draw" + " CARD" * a.count)
                card = None  # the deck ran out: stored so, and replayed so
            elif args:
                card = args[i]
                if card not in top:
                    raise RuleViolation("card_not_in_deck", card=card, deck="fortune")
            else:
                card = top[0] if top else None
            if card is not None:
                drawn.append(card)
            Rules.draw_card(self, s, a.player, "fortune", card)  # one after another, the wheel kept
        s.command = Command("draw", tuple(drawn)).text()  # stored naming the cards, as every draw

    def legal_draw(self, s: State) -> list[Action]:
        a = s.pending
        if a is None or a.kind != "draw" or not a.count:
            return super().legal_draw(s)
        order = s.decks["fortune"] or s.discards["fortune"]
        out = [Action("draw", (), a.player)]
        if len(order) >= a.count:
            cards = OneOf(tuple(sorted(order)), "card")
            out.append(Action("draw", (cards,) * a.count, distinct=True))
        return out

    def draw_card(self, s: State, p: str, deck: str, card_id: str | None = None) -> None:
        if deck == "fortune":
            # a FORTUNE card ends the long-term card in force before it
            s.extra["fortune"] = ()
        super().draw_card(s, p, deck, card_id)

    def apply_card(self, s: State, p: str, card: Card) -> None:
        if card.long_term:
            s.extra["fortune"] = s.extra["fortune"] + (card.id,)
            s.notes.append(Note("fortune_in_force", {"card": card.id}))
        ctx: dict[Any, Any] = {}
        if card.deck == "fortune":
            ctx[BLUE_PICKS] = self.blue_picks(s, card)
        for i, eff in enumerate(card.effects):
            if p not in s.alive:
                return
            ctx[EFFECT] = i
            if card.deck == "fortune":
                self.apply_fortune_effect(s, eff, card, ctx)
            else:
                self.apply_effect(s, p, eff, card)

    def apply_fortune_effect(self, s: State, eff: dict[str, Any], card: Card, ctx: dict[Any, Any]) -> None:
        do = eff["do"]
        if do in IN_FORCE:
            return  # read while the card is in force
        if do == "share_price":
            self.move_price(s, eff["points"])
            return
        for q in s.alive:
            if do == "each_player_pays":
                amount = eff["amount"]
            elif do == "each_pays_per_share":
                amount = eff["amount"] * s.held(q, "shares")
            elif do == "each_pays_per_building":
                small, large = self.player_buildings(s, q)
                amount = small * eff["small"] + large * eff["large"]
            elif do == "each_player_receives":
                self.transfer(s, BANK, q, eff["amount"])
                s.notes.append(Note("card_received", {"player": q, "amount": eff["amount"], "card": card.id}))
                continue
            elif do == "each_receives_per_share":
                amount = eff["amount"] * s.held(q, "shares")
                self.transfer(s, BANK, q, amount)
                if amount:
                    s.notes.append(Note("card_received", {"player": q, "amount": amount, "card": card.id}))
                continue
            else:
                raise EditionProblem(
                    "edition_not_collective", self.edition.source, f"decks.fortune.{card.id}", effect=do
                )
            self.fortune_payment(s, q, amount, card, ctx)

    def apply_effect(self, s: State, p: str, eff: dict[str, Any], card: Card) -> None:
        do = eff["do"]
        if do == "tax_exemption":
            self.land_tax_exemption(s, p, None)
        elif do == "share_price":
            self.move_price(s, eff["points"])
        elif do == "draw_fortune":
            # the FORTUNE cards go on the wheel with the next `draw`, which the table may
            # give the physical cards it turned (every other draw can be named too)
            s.extra["fortune"] = ()
            s.pending = Pending("draw", player=p, stage="fortune", count=eff["count"])
            s.notes.append(Note("draw_card", {"player": p, "deck": "fortune"}))
        elif do in ("each_pays_per_share", "each_receives_per_share", "each_pays_per_building"):
            self.apply_fortune_effect(s, eff, card, {})
        else:
            super().apply_effect(s, p, eff, card)
