"""How the phone page's service reads the open game: on the page's own thread, never the writer's.

Everything a page shows is read from the writer's latest Snapshot (Owner.snapshot) and, for past
events, through a read-only ledger connection borrowed for the read (companion/table/history.py):
a page, an export or a stream never waits for the writer nor holds it. `Reading` is handed to every
part of the service (views, actions, streams, roles): the one place that knows how to look.
"""

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any, TypeVar

from companion.errors import CompanionError
from companion.table.history import GameChanged, History, Readers, StoredEvents
from companion.words import messages
from companion.words.head import head_words

from .. import menus
from ..owner import Owner, Snapshot
from ..screens import event_words
from ..taps import dice_needed, end_meaning
from .common import MARK_LENGTH, READ_CHUNK, Refused

T = TypeVar("T")


class Seen:
    """The open game as a page reads it, shaped as much like a Table as the views need (rules, state, head,
    game.events): the writer's Snapshot, and the stored events through a read-only connection borrowed on
    first use (`borrow`), never the writer's own."""

    def __init__(self, snapshot: Snapshot, borrow: Callable[[], History]):
        self.snapshot = snapshot
        self.rules = snapshot.rules
        self.state = snapshot.state
        self.head_seq = snapshot.head_seq
        self.head_hash = snapshot.head_hash
        self.game_id = snapshot.game_id
        self._borrow = borrow
        self._history: History | None = None
        self._events: StoredEvents | None = None

    @property
    def history(self) -> History:
        if self._history is None:
            self._history = self._borrow()
        return self._history

    @property
    def game(self) -> "Seen":  # event_words(rules, game, ...) reads game.events
        return self

    @property
    def events(self) -> StoredEvents:
        if self._events is None:
            self._events = StoredEvents(self.history, self.head_seq)
        return self._events

    def head_words(self, language: str) -> str:
        return head_words(self.head_hash, language)

    def hash_at(self, seq: int) -> str:
        return self.head_hash if seq == self.head_seq else self.history.hash_at(seq)

    def newest_first(self, top: int | None = None) -> Iterator[Any]:
        """The events from `top` (the head) down to the first, read a chunk at a time."""
        upto = self.head_seq if top is None else top
        while upto > 0:
            low = max(0, upto - READ_CHUNK)
            yield from reversed(self.history.events(low, upto))
            upto = low


def words_of(table: Any, event: Any, language: str) -> list[str]:
    """An event's lines in `language`, as every view, answer and stream item shows them."""
    return event_words(table.rules, table.game, event, language)


class Reading:
    """The open game as the pages read it: `read(work)` on the page's thread, `on_writer(work)` for the few
    looks that need the writer's own table, the head every page shows, a refusal's line."""

    def __init__(self, owner: Owner, readers: Readers, language: Callable[[], str]):
        self.owner = owner
        self._readers = readers
        self._language = language  # the box's language (a refusal said to no phone in particular)
        self._table_key: tuple[Any, str] | None = None  # (the Table object, its game id)

    def game_id(self) -> str | None:
        return self.owner.snapshot.game_id  # every page asks: the snapshot answers, never the writer thread

    def table_game_id(self, table: Any) -> str | None:
        """A short id of the open game: the first 12 hex digits of its first event's hash (writer thread, or
        what a page reads)."""
        if table is None:
            return None
        if isinstance(table, Seen):
            return table.game_id
        key = self._table_key
        if key is not None and key[0] is table:
            return key[1]
        rows = table.ledger.rows(0, 1)
        gid = rows[0].hash[:12] if rows else "0"
        self._table_key = (table, gid)
        return gid

    def read(self, work: Callable[[Any], T]) -> T:
        """`work(seen)` on this thread: a Seen of the writer's latest snapshot (None when no game is open),
        whose past events come from a read-only connection borrowed when first asked for and given back
        after. A new game put in place meanwhile (the file holds another) is read again, once."""
        for attempt in (1, 2):
            snapshot = self.owner.snapshot
            if not snapshot.open:
                return work(None)
            if snapshot.memory:  # an in-memory ledger (tests): only the writer's connection can read it

                def on_writer() -> T:
                    table: Any = self.owner.table  # open: the snapshot said so, on this same thread
                    now = self.owner.snapshot
                    return work(Seen(now, lambda: History.beside(table.ledger, now.first_hash)))

                done: T = self.owner.call(on_writer)
                return done
            with ExitStack() as stack:

                def borrow(snapshot: Snapshot = snapshot) -> History:
                    return stack.enter_context(self._readers.borrow(snapshot.path, snapshot.first_hash))

                try:
                    return work(Seen(snapshot, borrow))
                except GameChanged as exc:
                    if attempt == 2:  # the file holds another game than the writer's: say so, in one line
                        raise Refused(self.error(exc, self._language()), 409) from None
        raise AssertionError("unreachable")

    def on_writer(self, work: Callable[[Any], T]) -> T:
        """`work(table)` on the writer thread: only the banker's undo pages, which try undos on a fork of the
        game (its states after the last events live with the writer); short, and never a spectator's."""
        done: T = self.owner.call(lambda: work(self.owner.table))
        return done

    def head(self, table: Any, language: str) -> dict[str, Any]:
        """The head every page shows for `table` (a Seen, or the writer's Table; None: no game open)."""
        if table is None:
            return {
                "game": None,
                "seq": 0,
                "words": "",
                "turn": "",
                "waiting": "",
                "over": False,
                "edition": "",
                "players": [],
            }
        rules, s = table.rules, table.state
        waiting = menus.waiting_about(rules, s, language)
        who = s.pending.player if s.pending is not None and s.pending.player else ""
        # after "Waiting for:" a dash, not a second colon: "Waiting for: Anna — roll the dice" (issue 22)
        verbs = messages.VERBS.get(language, messages.VERBS["en"])
        if waiting and who:
            waiting = f"{who} — {waiting}"
        elif not waiting and s.phase != "over" and s.turn in s.players:  # the ordinary turn: dice, or its end
            if dice_needed(rules, s):
                waiting = f"{s.turn} — {verbs['roll']}"
            elif end_meaning(rules, s) is not None:
                waiting = f"{s.turn} — {verbs['end']}"
            else:  # a move of the turn's player's own choosing (build, trade, shares...) before the end
                waiting = messages.render("turn", {"player": s.turn}, language, rules.edition)
        ed = rules.edition
        return {
            "game": self.table_game_id(table),
            "seq": table.head_seq,
            "words": table.head_words(language),
            "mark": str(table.head_hash)[:MARK_LENGTH] if table.head_seq else "",
            "turn": s.turn if s.phase != "over" else "",
            "waiting": waiting,
            "over": s.phase == "over",
            "edition": ed.names.get(language, ed.name),
            "players": list(s.players),
            "winner": messages.joined(s.winner.split(","), language) if s.winner else "",
        }

    def error(self, exc: CompanionError, language: str) -> str:
        table = self.owner.table
        return messages.render_error(exc, language, table.rules.edition if table is not None else None)

    def current_head(self, language: str) -> dict[str, Any]:
        """Whose turn, what the table waits for, the ledger's head (seq and words), the game's id."""
        return self.read(lambda table: self.head(table, language))
