"""Millionaire Deluxe: Classic plus the personal rating scale, whose top also ends the game.

The authority is the Russian rulebook ../shared/rules/millionaire-deluxe-ru.txt;
section names in comments are its headings («Шкала личного рейтинга игроков»,
«Победитель игры»). Everything else is Millionaire Classic (engine/classic.py).
The scale's shape (how many steps, how many places on each) is edition data:
`[extra] rating_places = [places on step 1, step 2, ..., top step]`. A player's
step is the counter `holdings[(player, "rating")]`; 0 is the yellow line beside
the scale where every token starts. Choices are in docs/editions/deluxe.md.
"""

from companion.engine.board import MONEY, PLAYERS, Card, Cell, Edition, check_numbers
from companion.engine.classic import ClassicRules
from companion.engine.state import Note, State
from companion.errors import EditionProblem

RATING = "rating"


class DeluxeRules(ClassicRules):
    OPTIONS = {
        **ClassicRules.OPTIONS,
        "rating_top_wins": True,  # «до тех пор, когда один из игроков не достигнет вершины шкалы»
        "rating_step_value": 100,  # timed game: each step adds this to wealth («оговоренную сумму»)
        "rating_down_when_sent": True,  # sent to TAX INSPECTION (TAX POLICE, three doubles, a card) counts as landing
    }
    OPTION_RANGES = {**ClassicRules.OPTION_RANGES, "rating_step_value": MONEY}
    EXTRA_KEYS = ("rating_places",)
    RATING_STEPS = (1, 20)  # steps on the scale: len(rating_places)

    @classmethod
    def check_edition(cls, edition: Edition) -> None:
        super().check_edition(edition)
        places = edition.extra.get("rating_places")
        low, high = cls.RATING_STEPS
        if not (isinstance(places, list) and low <= len(places) <= high):
            raise EditionProblem(
                "edition_rating_places",
                edition.source,
                "extra.rating_places",
                low=low,
                high=high,
                least=PLAYERS[0],
                most=PLAYERS[1],
            )
        # a step holds at least one token and never more than there are players
        check_numbers(places, PLAYERS, edition.source, "extra.rating_places")

    # ----- the rating scale («Шкала личного рейтинга игроков») ----------------------------

    def places(self) -> list[int]:
        places: list[int] = self.edition.extra["rating_places"]
        return places

    def rate(self, s: State, p: str, direction: int, reason: str) -> None:
        """Move p's extra token one step up (+1) or down (-1), if the target step has room."""
        if p not in s.alive or s.phase == "over":
            return
        step = s.held(p, RATING)
        target = step + direction
        if target < 0:
            s.notes.append(Note("rating_bottom", {"player": p, "reason": reason}))
            return
        if target > len(self.places()):
            return  # already on top (only when the top does not win)
        if target > 0:
            # «Если все клетки ступени ... заняты фишками других игроков, игрок оставляет фишку на месте»
            taken = sum(1 for q in s.alive if q != p and s.held(q, RATING) == target)
            if taken >= self.places()[target - 1]:
                s.notes.append(Note("rating_blocked", {"player": p, "step": step, "target": target, "reason": reason}))
                return
        self.give(s, p, RATING, direction)
        s.notes.append(
            Note("rating_up" if direction > 0 else "rating_down", {"player": p, "step": target, "reason": reason})
        )
        if target == len(self.places()) and self.opt["rating_top_wins"]:
            # «Победитель игры»: reaching the top of the scale ends the game
            s.notes.append(Note("rating_top", {"player": p}))
            s.winner = p
            s.phase = "over"
            s.notes.append(Note("winner", {"player": p}))

    # up: «Белый» бизнес, Благотворительный фонд, a favourable CHANCE instruction
    def land_charity(self, s: State, p: str, cell: Cell) -> None:
        super().land_charity(s, p, cell)
        self.rate(s, p, +1, cell.id)

    def land_white_business(self, s: State, p: str, cell: Cell) -> None:
        super().land_white_business(s, p, cell)
        self.rate(s, p, +1, cell.id)

    # down: «Чёрный» бизнес, Налоговая инспекция, an unfavourable CHANCE instruction
    def land_black_business(self, s: State, p: str, cell: Cell) -> None:
        self.rate(s, p, -1, cell.id)
        super().land_black_business(s, p, cell)

    def land_inspection(self, s: State, p: str, cell: Cell) -> None:
        super().land_inspection(s, p, cell)
        self.rate(s, p, -1, cell.id)

    def send_to_detention(self, s: State, p: str) -> None:
        super().send_to_detention(s, p)
        if self.opt["rating_down_when_sent"]:
            self.rate(s, p, -1, self.cells[self.detention_index()].id)

    def apply_card(self, s: State, p: str, card: Card) -> None:
        before = len(s.notes)
        super().apply_card(s, p, card)
        # a card kept until the player can pay it moves the token on the scale when carried out
        if not any(n.code == "card_kept_until_paid" for n in s.notes[before:]):
            self.rate_card(s, p, card)

    def draw_card(self, s: State, p: str, deck: str, card_id: str | None = None) -> None:
        before = len(s.notes)
        super().draw_card(s, p, deck, card_id)
        # a card kept for later (leave TAX INSPECTION) is not applied now but was still received
        for note in s.notes[before:]:
            if note.code == "card_kept" and note.params["player"] == p:
                self.rate_card(s, p, self.edition.cards[note.params["card"]])

    def rate_card(self, s: State, p: str, card: Card) -> None:
        # cards with no `favourable` key (moves onto a rated cell) leave the step to the cell
        if card.favourable is not None:
            self.rate(s, p, +1 if card.favourable else -1, card.id)

    # ----- the end ------------------------------------------------------------------------

    def wealth(self, s: State, p: str) -> int:
        # a timed game: «игроки, чьи дополнительные фишки находятся на ступенях шкалы
        # рейтинга, прибавляют к своему капиталу оговоренную правилами сумму»
        total: int = super().wealth(s, p) + s.held(p, RATING) * self.opt["rating_step_value"]
        return total
