"""The board walk on the box: the one walk the daemon holds, fed by the reader's taps, the buttons and the
banker's phones, kept in the games folder after every step, and saved as a table board (companion/daemon/walk.py
holds the walk itself).

Every change runs on the writer thread (taps, presses and the phone's requests reach it there), so the walk,
the card map and the game never disagree; phone pages read it on their own threads under the walk's lock. While a walk is on, every card tapped goes to the walk and ROLL is
refused: nothing is booked to the game. Leaving the walk, or a walk left alone for IDLE_S (the tap that finds it
so is refused too, said, and the next one goes to the game), gives the reader back to the game. A walk kept when
the daemon stopped is resumed when it starts again, or said to be dropped when its file or its board is gone;
then the first tap or ROLL within DROPPED_GRACE_S (a reader's line resent after the restart, meant for the walk)
is refused and said, never booked to the game.
"""

import functools
import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.editions import rules_for, shipped
from companion.editions.boards import BoardStore
from companion.errors import CompanionError, SaidInput
from companion.words import messages

from .cards import Role, role_words
from .walk import IDLE_S, Walk, kept_walk, save_walk

log = logging.getLogger("companion.walk")
DROPPED_GRACE_S = 60.0  # after a walk dropped at start, the first tap or ROLL this soon is refused, never booked


def _locked(method: Callable[..., Any]) -> Callable[..., Any]:
    """The walk is changed on the writer thread and read by phone pages on theirs: one at a time."""

    @functools.wraps(method)
    def locked(self: "BoardWalk", *args: Any, **kwargs: Any) -> Any:
        with self.lock:
            return method(self, *args, **kwargs)

    return locked


class BoardWalk:
    """The daemon's walk (None: no walk on) and what the box, the phones and the reader do to it."""

    def __init__(self, daemon: Any, clock: Callable[[], float] = time.monotonic):
        self.daemon = daemon
        self.clock = clock
        self.walk: Walk | None = None
        self.touched = 0.0
        self.said: tuple[str, dict] | None = None  # the last thing said about the walk (a refusal, a step)
        self.refused = False  # whether `said` is a refusal (the phone shows it in red)
        self.lock = threading.RLock()
        self.dropped_at: float | None = None  # when a walk kept at the last stop was dropped at this start

    @property
    def store(self) -> BoardStore:
        """The table's boards (companion/editions/boards.py), the daemon's one store: its saves are one at a time."""
        return self.daemon.boards

    @property
    def folder(self) -> Path:
        return Path(self.daemon.config.games_dir)

    def on(self) -> bool:
        return self.walk is not None

    # ----- life ---------------------------------------------------------------------------------------------

    @_locked
    def resume(self) -> None:
        """At the daemon's start: the walk kept in the games folder goes on, or is said to be dropped."""
        try:
            data = kept_walk(self.folder)
            if data is None:
                return
            edition = self._edition_of(str(data.get("base", "")))
            self.walk = Walk.from_json(data, edition)
        except (ValueError, KeyError, TypeError, CompanionError) as exc:
            log.warning("the board walk kept could not be resumed: %s", exc)
            self.walk = None
            save_walk(self.folder, None)
            self.daemon.say("walk_dropped")
            self.dropped_at = self.clock()
            return
        self.touched = self.clock()
        self.daemon.say("walk_resumed", at=self.walk.at, size=self.walk.size)

    @_locked
    def start(self, base: str) -> None:
        """Begin walking the table's board of `base` (a shipped edition's id, or the board's "our-elite"): the one
        kept, with any corrections made to it, else a fresh copy of the shipped file."""
        if self.walk is not None:
            raise SaidInput("walk_already_on")
        base = self.store.base_of_ref(base) or base
        edition = self._edition_of(base)
        self.walk = Walk(edition, base)
        self.daemon.console.close()  # the walk's screen comes up at once, whatever menu was open
        self._keep()
        self._tell("walk_started", name=self._board_name(edition, self.daemon.lang))

    @_locked
    def leave(self) -> None:
        if self.walk is None:
            raise SaidInput("walk_none")
        self.walk = None
        self.said = None
        save_walk(self.folder, None)
        self.daemon.say("walk_left")
        self._changed()

    @_locked
    def just_dropped(self) -> bool:
        """Whether this tap or ROLL comes right after a walk was dropped at start (it may be the reader's line
        for the walk, resent): then it is refused, said, once."""
        if self.dropped_at is None:
            return False
        recent = self.clock() - self.dropped_at <= DROPPED_GRACE_S
        self.dropped_at = None
        if recent:
            self.daemon.reading.refuse("walk_dropped_input")
        return recent

    @_locked
    def expired(self) -> bool:
        """Whether the walk was left alone too long: then it ends here, said (the caller refuses its input)."""
        if self.walk is None or self.clock() - self.touched <= IDLE_S:
            return False
        self.walk = None
        self.said = None
        save_walk(self.folder, None)
        self.daemon.reading.refuse("walk_timed_out", minutes=int(IDLE_S // 60))
        self._changed()
        return True

    # ----- steps -------------------------------------------------------------------------------------------

    @_locked
    def tap(self, uid: str) -> bool:
        """A card on the reader while the walk is on: a plot card places its plot at the next cell."""
        walk = self._walk()
        edition = walk.edition
        plot = walk.enrolments().get(uid)
        role = self.daemon.cards.role(uid)
        if plot is None and role is None:
            if uid in self.daemon.cards.replaced:
                self._refuse("replaced_card", uid=uid)
                return False
            return self._step(lambda: walk.unknown_card(uid), "walk_which_plot")
        if plot is None and role is not None:
            if role.kind != "plot":
                self._refuse("walk_not_plot_card", role=role_words(role, edition, self.daemon.lang))
                return False
            if role.edition != edition.id:
                self._refuse("walk_other_box")
                return False
            plot = role.ref
        assert plot is not None
        return self._step(lambda: walk.plot(plot), "walk_placed")

    @_locked
    def cell(self, key: str, version: int | None = None) -> bool:
        walk = self._walk(version)
        return self._step(lambda: walk.choose(key), "walk_placed")

    @_locked
    def name_card(self, plot: str, version: int | None = None) -> bool:
        walk = self._walk(version)
        return self._step(lambda: walk.name_pending(plot), "walk_placed")

    @_locked
    def back(self, version: int | None = None) -> bool:
        walk = self._walk(version)
        try:
            step = walk.back()
        except SaidInput as exc:
            self._refuse(exc.code, **exc.params)
            return False
        self._keep()
        if step is None:
            self._tell("walk_card_forgotten")
        else:
            self._tell("walk_taken_back", cell=step.cell, index=walk.at)
        return True

    @_locked
    def save(self, version: int | None = None) -> dict:
        """The walked order saved into the table's board (the store's version check: nothing half-written, a
        board saved meanwhile by another phone keeps its corrections, only the order of its cells changes),
        each cell's place marked confirmed, and the cards enrolled in this pass; the walk ends."""
        walk = self._walk(version)
        if not walk.complete:
            raise SaidInput("walk_not_complete", left=walk.size - walk.at)
        kept, data = self.store.data(walk.base)
        cells = {c.get("id"): c for c in data.get("cells", []) if isinstance(c, dict)}
        order = walk.order()
        if set(cells) != set(order) or len(cells) != len(data["cells"]):
            raise SaidInput("walk_board_changed")
        data["cells"] = [cells[c] for c in order]
        board = self.store.save_data(walk.base, data, kept, confirmed=[f"cells.{c}" for c in order])
        enrolments = walk.enrolments()
        if enrolments:
            cards = self.daemon.cards

            def enrol_all() -> None:
                for uid, plot in enrolments.items():
                    cards.enrol(uid, Role("plot", plot, board.edition.id))

            cards.saved_or_undone(enrol_all)
        self.walk = None
        self.said = None
        save_walk(self.folder, None)
        self.daemon.say("walk_saved", name=self._board_name(board.edition, self.daemon.lang))
        self.daemon.reading.booked()
        self._changed()
        return {
            "ref": self.store.ref_of(walk.base),
            "version": board.version,
            "enrolled": len(enrolments),
            "names": {"": board.edition.name, **board.edition.names},
        }

    # ----- what the screens show -----------------------------------------------------------------------------

    def view(self, lang: str) -> dict:
        """The walk as the phone and the box show it, in words: where it stands, what is asked, what was said;
        with no walk on, the boards one may start from (read outside the lock: files, never a tap's wait)."""
        with self.lock:
            if self.walk is not None:
                return self._view(self.walk, lang)
        return {"on": False, "version": -1, "bases": self.bases(lang)}

    @_locked
    def brief(self, lang: str) -> dict:
        """What a phone polls each second: whether a walk is on, its version and the last thing said."""
        walk = self.walk
        said = messages.render(self.said[0], self.said[1], lang, walk.edition) if walk and self.said else ""
        return {"on": walk is not None, "version": walk.version if walk is not None else -1, "said": said}

    def _view(self, walk: Walk, lang: str) -> dict:
        edition = walk.edition
        said = ""
        if self.said is not None:
            code, params = self.said
            said = messages.render(code, params, lang, edition)
        kinds = [
            {"key": key, "name": messages.cell_name(edition, cells[0], lang), "left": len(cells)}
            for key, cells in walk.kinds_left().items()
        ]
        cells = [
            {"index": i, "name": messages.cell_name(edition, c, lang), "plot": edition.cell(c).is_plot}
            for i, c in enumerate(walk.order())
        ]
        return {
            "on": True,
            "version": walk.version,
            "at": walk.at,
            "size": walk.size,
            "complete": walk.complete,
            "board": self._board_name(edition, lang),
            "said": said,
            "refused": self.refused,
            "said_code": self.said[0] if self.said is not None else "",
            "pending": bool(walk.pending),
            "kinds": kinds,
            "cells": cells,
            "plots_left": [{"id": p, "name": messages.cell_name(edition, p, lang)} for p in walk.plots_left()],
            "save_as": self._board_name(edition, lang),
        }

    def bases(self, lang: str) -> list[dict]:
        """The boards a walk may start from: each shipped edition, by its table board's name when one is kept."""
        out = []
        for base in shipped():
            try:
                edition = self.store.load(base).edition
            except CompanionError as exc:  # a damaged board: the editor names its mistake; walk the shipped one
                log.warning("the table board of %s cannot be read: %s", base, exc)
                continue
            out.append({"ref": base, "name": self._board_name(edition, lang)})
        return out

    # ----- inside ----------------------------------------------------------------------------------------------

    def _walk(self, version: int | None = None) -> Walk:
        if self.walk is None or self.expired():
            raise SaidInput("walk_none")
        if version is not None and version != self.walk.version:
            raise SaidInput("walk_moved_on", at=self.walk.at)
        return self.walk

    def _step(self, change: Callable[[], Any], code: str) -> bool:
        """Make one step; a refusal is said (the box, the phones) and changes nothing. Whether it was made."""
        walk = self.walk
        assert walk is not None
        try:
            change()
        except SaidInput as exc:
            self._refuse(exc.code, **exc.params)
            return False
        self._keep()
        if code == "walk_placed":
            index = walk.at - 1
            self._tell(code, cell=walk.order()[index], index=index)
        else:
            self._tell(code)
        return True

    def _keep(self) -> None:
        self.touched = self.clock()
        save_walk(self.folder, self.walk)

    def _tell(self, code: str, **params: Any) -> None:
        self.said, self.refused = (code, params), False
        self.daemon.reading.booked()
        self._changed()

    def _refuse(self, code: str, **params: Any) -> None:
        """A wrong or repeated tap: said at once on the box (a notice and the "no" buzz) and on the phones."""
        self.said, self.refused = (code, params), True
        edition = self.walk.edition if self.walk is not None else None
        self.daemon.reading.refuse("walk_said", text=messages.render(code, params, self.daemon.lang, edition))
        self._changed()

    def _changed(self) -> None:
        console = self.daemon.console
        console.refresh()

    def _edition_of(self, base: str) -> Any:
        edition = self.store.load(base).edition  # SaidInput for a base no box ships
        rules_for(edition)  # the board's own rules check it
        return edition

    def _board_name(self, edition: Any, lang: str) -> str:
        return str(edition.names.get(lang, edition.name))
