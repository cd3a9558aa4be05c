"""Walking the board with the cards: the table's own order of the cells, from plot cards tapped in the order the
board shows and answers for the cells between plots; then the board saved as an edition file of the table's.

The walk is a plain state machine over the base edition (shipped or the table's): it places the base board's own
cells in a new order, so every cell keeps its id, deck, parameters and numbers, and nothing is invented. START
stays first. Each step places one cell at the next place: a plot (its card tapped on the reader) or a cell of
another kind (CHANCE, the EXCHANGE, ...) chosen on the phone or the box among those of the base board not placed
yet. A wrong or repeated tap is refused and changes nothing; BACK takes the last step back. A plot card never
enrolled is asked for on the phone or the box ("which plot is this card?"); its enrolment is written with the
board, so BACK and leaving the walk leave the card map as it was. The daemon keeps the walk in `walk.json` in
the games folder after every step, so a restart resumes it; the walked order is saved into the table's board
(companion/editions/boards.py) by companion/daemon/walkdesk.py.
"""

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.errors import SaidInput
from companion.files.wholefile import write_whole

WALK_FILE = "walk.json"
FILE_VERSION = 1
IDLE_S = 900.0  # a walk nobody touched for this long is left: the next tap is refused, the one after goes to the game


@dataclass(frozen=True)
class Step:
    """One place of the board walked: the base board's cell put there, and the card enrolled in this pass."""

    cell: str
    uid: str = ""


@dataclass
class Walk:
    """The walk over `edition` (loaded from `base`, a shipped id or a table board's reference)."""

    edition: Any
    base: str
    steps: list[Step] = field(default_factory=list)
    pending: str = ""  # an unknown card's UID waiting to be told its plot
    version: int = 0  # every change adds one (a phone's answer names the version it saw)

    # ----- what it stands at ----------------------------------------------------------------------

    @property
    def size(self) -> int:
        return len(self.edition.cells)

    @property
    def at(self) -> int:
        """The board index asked about now (1: the first cell after START); `size` when complete."""
        return 1 + len(self.steps)

    @property
    def complete(self) -> bool:
        return self.at >= self.size

    def placed(self) -> dict[str, int]:
        return {step.cell: i + 1 for i, step in enumerate(self.steps)}

    def order(self) -> list[str]:
        """The cell ids in the walked order, START first (the whole board once complete)."""
        return [self.edition.cells[0].id] + [step.cell for step in self.steps]

    def enrolments(self) -> dict[str, str]:
        """The plot cards first enrolled in this pass: UID -> plot id."""
        return {step.uid: step.cell for step in self.steps if step.uid}

    def plots_left(self) -> list[str]:
        placed = self.placed()
        return [p for p in self.edition.plots if p not in placed]

    def kinds_left(self) -> dict[str, list[str]]:
        """The cells between plots still to place, by what stands there (kind and deck), in the base board's
        order: {"card:chance:ШАНС": ["chance1", ...], ...} (START is never asked)."""
        placed = self.placed()
        out: dict[str, list[str]] = {}
        for cell in self.edition.cells[1:]:
            if not cell.is_plot and cell.id not in placed:
                out.setdefault(kind_key(cell), []).append(cell.id)
        return out

    # ----- steps ------------------------------------------------------------------------------------

    def plot(self, plot: str, uid: str = "") -> int:
        """The plot `plot` stands at the next place (its card tapped; `uid` if enrolled in this pass); its index."""
        if plot not in self.edition.plots:
            raise SaidInput("walk_not_plot")
        self._not_complete()
        where = self.placed().get(plot)
        if where is not None:
            raise SaidInput("walk_repeated", plot=plot, index=where)
        self.steps.append(Step(plot, uid))
        self.pending = ""
        self.version += 1
        return len(self.steps)

    def choose(self, key: str) -> int:
        """A cell of kind `key` (kinds_left) stands at the next place: the base board's next such cell; its index."""
        self._not_complete()
        left = self.kinds_left().get(key)
        if not left:
            raise SaidInput("walk_no_such_cell")
        self.steps.append(Step(left[0]))
        self.pending = ""
        self.version += 1
        return len(self.steps)

    def unknown_card(self, uid: str) -> None:
        """A card never enrolled was tapped: the walk asks which plot it is (a second one replaces the question)."""
        self._not_complete()
        self.pending = uid
        self.version += 1

    def name_pending(self, plot: str) -> int:
        """The unknown card tapped is `plot`'s: it is placed (and enrolled when the board is saved)."""
        if not self.pending:
            raise SaidInput("walk_no_card_waits")
        return self.plot(plot, self.pending)

    def back(self) -> Step | None:
        """Take the last step back (or the question about an unknown card); None when that was the question."""
        if self.pending:
            self.pending = ""
            self.version += 1
            return None
        if not self.steps:
            raise SaidInput("walk_nothing_back")
        self.version += 1
        return self.steps.pop()

    def _not_complete(self) -> None:
        if self.complete:
            raise SaidInput("walk_complete")

    # ----- kept across a restart ----------------------------------------------------------------------

    def to_json(self) -> dict:
        return {
            "version": FILE_VERSION,
            "base": self.base,
            "steps": [[s.cell, s.uid] for s in self.steps],
            "pending": self.pending,
            "changes": self.version,
        }

    @classmethod
    def from_json(cls, data: dict, edition: Any) -> "Walk":
        """The walk kept in `data` over `edition`; ValueError when it does not fit that board."""
        if not isinstance(data, dict) or data.get("version") != FILE_VERSION:
            raise ValueError("not a walk of this version")
        walk = cls(
            edition, str(data["base"]), pending=str(data.get("pending", "")), version=int(data.get("changes", 0))
        )
        for cell, uid in data["steps"]:
            cell_obj = edition.cell(cell)
            if cell_obj is None or cell in walk.placed() or cell == edition.cells[0].id:
                raise ValueError(f"cell {cell!r} does not fit the board")
            walk.steps.append(Step(str(cell), str(uid)))
        if len(walk.steps) >= walk.size:
            raise ValueError("more steps than cells")
        return walk


def kind_key(cell: Any) -> str:
    """What stands on a cell that is not a plot, as the walk asks it: its kind, deck and name (Monopoly's Income
    Tax and Luxury Tax are both tax cells, of other amounts: never one for the other)."""
    return f"{cell.kind}:{cell.deck or ''}:{cell.name}"


def save_walk(folder: Path, walk: Walk | None) -> None:
    """Keep the walk in `folder` (atomically), or remove the file when there is none."""
    path = Path(folder) / WALK_FILE
    if walk is None:
        path.unlink(missing_ok=True)
        return
    write_whole(path, json.dumps(walk.to_json(), ensure_ascii=False))


def kept_walk(folder: Path) -> dict | None:
    """The walk kept in `folder` as read (None: none kept); ValueError for a damaged file."""
    path = Path(folder) / WALK_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(str(exc)) from None
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("not an object")
    return data
