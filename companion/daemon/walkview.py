"""The board walk on the box's screen (Game → Our board): where the walk stands, what was said, and the
buttons: OK asks what stands on a cell that is not a plot (or which plot an unknown card is, or saves the walked
board), BACK takes the last step back (on the first cell: leave the walk)."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.errors import SaidInput
from companion.hw.display import Frame, line_room, wrap

from .menus import words
from .views import Item, ListView, TextView, View

if TYPE_CHECKING:
    from .console import Console


def walk_menu(console: "Console") -> ListView:
    """Which board to walk: the editions the box ships and the table's own boards."""
    walking = console.desk.walking  # type: ignore[attr-defined]

    def start(ref: str) -> Callable[[], None]:
        def chosen() -> None:
            console.close()
            try:
                walking.start(ref)
            except SaidInput as exc:
                walking.daemon.reading.refuse(exc.code, **exc.params)

        return chosen

    return ListView(
        words("walk_start_title", console.lang), [Item(name, start(ref)) for ref, name in console.desk.editions()]
    )


@dataclass
class WalkView(View):
    """The walk on, as the box shows it; it reads the daemon's walk at every frame."""

    walking: Any
    lang: str

    def frame(self) -> Frame:
        v = self.walking.view(self.lang)
        if not v["on"]:
            return Frame(title=words("walk_none", self.lang), inverse_title=True)
        title = (
            words("walk_title_done", self.lang, size=v["size"])
            if v["complete"]
            else words("walk_title", self.lang, at=v["at"], size=v["size"])
        )
        if v["complete"]:
            hint = words("walk_done_hint", self.lang, name=v["save_as"])
        elif v["pending"]:
            hint = words("walk_which_hint", self.lang)
        else:
            hint = words("walk_tap_hint", self.lang, at=v["at"])
        room = max(1, line_room(True))
        # the start's long line and the unknown card's question are the title's and the hint's business here
        said = wrap(v["said"])[:2] if v["said"] and v["said_code"] not in ("walk_started", "walk_which_plot") else []
        lines = said + wrap(hint)
        last = v["cells"][-1] if len(v["cells"]) > 1 else None
        if last is not None and len(lines) < room and (not v["said"] or v["refused"]):  # a step says its cell
            lines.append(words("walk_last", self.lang, index=last["index"], name=last["name"]))
        return Frame(title=title, lines=tuple(lines[:room]), inverse_title=True)

    def press(self, console: "Console", name: str, long: bool) -> None:
        walking = self.walking
        if not walking.on():
            console.pop(self)
            return
        v = walking.view(self.lang)
        if name == "ok":
            if v["complete"]:
                console.pop(self)
                walking.save()
            elif v["pending"]:
                console.push(
                    ListView(
                        words("walk_which_title", self.lang),
                        [Item(p["name"], self._then(console, walking.name_card, p["id"])) for p in v["plots_left"]],
                    )
                )
            else:
                items = [
                    Item(
                        words("walk_kind_line", self.lang, name=k["name"], left=k["left"]),
                        self._then(console, walking.cell, k["key"]),
                    )
                    for k in v["kinds"]
                ]
                items.append(Item(words("walk_leave", self.lang), lambda: self._leave(console)))
                console.push(ListView(words("walk_kind_title", self.lang, at=v["at"]), items))
        elif name == "back":
            if v["at"] == 1 and not v["pending"]:
                self._leave(console)
            else:
                walking.back()

    def _then(self, console: "Console", step: Callable[[str], bool], arg: str) -> Callable[[], None]:
        def chosen() -> None:
            console.pop()
            step(arg)

        return chosen

    def _leave(self, console: "Console") -> None:
        def leave() -> None:
            console.close()
            self.walking.leave()

        console.push(
            TextView(
                words("walk_leave", self.lang),
                [words("walk_leave_warning", self.lang)],
                leave,
                footer=words("confirm_footer", self.lang),
            )
        )
