"""Mad Millionaire's 2. COMPLETE PUBLICITY STUNTS and 3. COLLECT PAYMENT, and RETURN TO START."""

from typing import cast

from companion.engine.actions import TABLE, Action, OneOf
from companion.engine.board import Cell, Edition, shown
from companion.engine.command import Command
from companion.engine.core import Pending
from companion.engine.madmillionaire.base import STUNT_DECK, MadBase
from companion.engine.shuffle import shuffled
from companion.engine.state import BANK, Note, State
from companion.errors import EditionProblem, RuleViolation


class MadStunts(MadBase):
    # ----- 2. COMPLETE PUBLICITY STUNTS and 3. COLLECT PAYMENT ---------------------------

    def land_landmark(self, s: State, p: str, cell: Cell) -> None:
        cards = [c for c in s.extra["stunts"] if self.stunt_cell[c] == cell.id]
        if not cards:
            return
        card = cards[0]  # RETURN TO START 2: one lot of payment, one card discarded
        amount, runs = self.income(s, p)
        self.transfer(s, BANK, p, amount)
        s.notes.append(
            Note("stunt_completed", {"player": p, "cell": cell.id, "card": card, "amount": amount, "runs": runs})
        )
        s.extra["stunts"] = tuple(c for c in s.extra["stunts"] if c != card)
        s.discards[STUNT_DECK] = s.discards[STUNT_DECK] + (card,)
        s.pending = Pending("reveal", player=p, count=1)

    def runs(self, s: State, p: str) -> list[int]:
        """Sizes of p's groups of businesses standing next to each other (bought or leased)."""
        mine = {pid for pid, q in s.owner.items() if q == p}
        sizes = []
        while mine:
            todo = [min(mine)]
            mine.discard(todo[0])
            size = 0
            while todo:
                pid = todo.pop()
                size += 1
                for other in self.near.get(pid, ()):
                    if other in mine:
                        mine.discard(other)
                        todo.append(other)
            sizes.append(size)
        return sorted(sizes, reverse=True)

    def income(self, s: State, p: str) -> tuple[int, list[int]]:
        # 3. COLLECT PAYMENT: n together earn $10k x n, times n
        sizes = self.runs(s, p)
        return sum(n * n * self.opt["stunt_unit"] for n in sizes), sizes

    def cmd_reveal(self, s: State, args: tuple[str, ...]) -> None:
        """`reveal [CARD]`: turn over the next Publicity Stunt card (or name the physical one)."""
        if s.pending is None or s.pending.kind != "reveal":
            raise RuleViolation("no_reveal")
        pend = s.pending
        pile = s.decks[STUNT_DECK]
        if not pile:
            # "If you run out of Publicity Stunt cards, shuffle and reuse the same deck."
            pile, s.rng = shuffled(s.discards[STUNT_DECK], s.rng)
            s.discards[STUNT_DECK] = ()
            s.notes.append(Note("stunts_reshuffled", {}))
        card = args[0] if args else (pile[0] if pile else None)
        if not args and card is not None:
            s.command = Command("reveal", (card,)).text()  # stored naming the card, so replays turn over the same one
        if card is None:
            s.pending = None
            s.notes.append(Note("deck_empty", {"deck": STUNT_DECK}))
            return
        if card not in pile:
            raise RuleViolation("card_not_in_deck", card=card, deck=STUNT_DECK)
        s.decks[STUNT_DECK] = tuple(c for c in pile if c != card)
        s.extra["stunts"] = s.extra["stunts"] + (card,)
        where = cast(Cell, self.edition.cell(self.stunt_cell[card]))  # a landmark (check_edition)
        s.notes.append(Note("stunt_revealed", {"card": card, "cell": where.id}))
        # RETURN TO START 1: a car on the location when its card is turned over goes back
        for q in s.alive:
            if s.position[q] == where.index:
                self.send_home(s, q, "revealed")
        if pend.count > 1:
            s.pending = Pending("reveal", player=pend.player, count=pend.count - 1, stage=pend.stage)
            return
        s.pending = None
        p = pend.player
        if p is not None:
            # RETURN TO START 2: another face-up card shows the place just paid for
            here = self.cells[s.position[p]].id
            if any(self.stunt_cell[c] == here for c in s.extra["stunts"]):
                self.send_home(s, p, "duplicate")
        if pend.stage == "six":
            self.offer_six(s, p)

    def send_home(self, s: State, q: str, reason: str) -> None:
        s.position[q] = 0
        s.notes.append(Note("sent_home", {"player": q, "reason": reason}))

    def board_changes(self, before: State, after: State) -> list[Note]:
        # and the Publicity Stunt cards lying face up
        notes = super().board_changes(before, after)
        if before.extra.get("stunts") != after.extra.get("stunts"):
            notes.append(Note("put_stunts", {"cards": list(after.extra.get("stunts", ()))}))
        return notes

    # ----- legal actions of the stunt verbs (each mirrors its cmd_ method's checks) ---------

    def stunt_pile(self, s: State) -> tuple[str, ...]:
        """The stunt cards `reveal` turns over from, in order (the discards reshuffled if none are left)."""
        if s.decks[STUNT_DECK]:
            return s.decks[STUNT_DECK]
        pile: tuple[str, ...]
        pile, _ = shuffled(s.discards[STUNT_DECK], s.rng)
        return pile

    def legal_reveal(self, s: State) -> list[Action]:
        a = s.pending
        if a is None or a.kind != "reveal":
            return []
        pile = self.stunt_pile(s)
        party = a.player if a.player is not None else TABLE
        out = [Action("reveal", (), party)]
        if pile:
            # the cards in name order, never the pile's: a list must not tell the next card
            out.append(Action("reveal", (OneOf(tuple(sorted(pile)), "card"),)))
        return out


def next_to(edition: Edition) -> dict[str, tuple[str, ...]]:
    """Business -> businesses whose buildings stand next to it, from `extra.rows`."""
    src = edition.source
    rows = edition.extra.get("rows", [])
    if not isinstance(rows, list):
        raise EditionProblem("edition_rows", src, "extra.rows")
    near: dict[str, set[str]] = {}
    for i, row in enumerate(rows):
        if not isinstance(row, list) or len(row) < 2:
            raise EditionProblem("edition_row_short", src, f"extra.rows[{i}]")
        for pid in row:
            if not isinstance(pid, str) or pid not in edition.plots:
                raise EditionProblem("edition_row_plot", src, f"extra.rows[{i}]", value=shown(pid))
        for a, b in zip(row, row[1:]):
            if a == b:
                raise EditionProblem("edition_row_self", src, f"extra.rows[{i}]", value=a)
            near.setdefault(a, set()).add(b)
            near.setdefault(b, set()).add(a)
    return {pid: tuple(sorted(others)) for pid, others in near.items()}
