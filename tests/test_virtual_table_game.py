"""A whole short game on the virtual table, in Debian's chromium: the real daemon on simulated hardware
(the reader's firmware behind a pty, gpiozero's mock pins, luma's dummy OLED), a new game started with
the page's buttons, turns played with ROLL, the plot cards and OK, the game ended and archived from the
Game menu. The test clicks only the page; it reads the daemon in-process only to decide what a person
looking at the OLED would press next, and checks the ledger at the end. Screenshots are kept."""

import socket
import sys
import time
from pathlib import Path

import pytest

from companion.daemon.cards import Role
from companion.daemon.config import Config, defaults
from companion.daemon.main import Daemon, wait_for
from companion.editions import load_edition

sys.path.insert(0, str(Path(__file__).parent))
from browser import chromium  # noqa: E402

EDITION = "monopoly"


@pytest.fixture
def box(tmp_path):
    values = dict(defaults().values)
    with socket.socket() as probe:  # a free port on loopback (0 in the config means no virtual table)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    values.update({"games_dir": str(tmp_path / "games"), "virtual_table.port": port})
    lines = []
    daemon = Daemon(Config(values, "(test)"), out=lines.append).start()
    daemon.lines = lines
    edition = load_edition(EDITION)
    roles = {f"0A0000{seat:02X}": Role("player", str(seat)) for seat in (1, 2)}
    roles.update({f"04A1{i:010X}": Role("plot", plot, EDITION) for i, plot in enumerate(sorted(edition.plots))})
    for uid, role in roles.items():
        daemon.cards.enrol(uid, role)
    daemon.cards.save()
    assert wait_for(lambda: daemon.link.state.state == "ready")
    daemon.plot_uid = {role.ref: uid for uid, role in roles.items() if role.kind == "plot"}
    yield daemon
    daemon.stop()


def top(daemon):
    stack = daemon.console.stack
    return stack[-1] if stack else None


def click(page, button):
    page.click(f"#btn-{button}")
    time.sleep(0.25)  # the press is held and let go on the box's mock pin, then the writer answers


def choose(page, daemon, starts):
    """Press DOWN until the chosen line starts with `starts` (as read on the OLED), then OK."""
    for _ in range(40):
        view = top(daemon)
        if view is not None and view.items[view.index].text.startswith(starts):
            click(page, "ok")
            return
        click(page, "down")
    raise AssertionError(f"no menu line {starts!r}")


def last(daemon):
    return daemon.owner.table.game.events[-1].command


def head(daemon):
    table = daemon.owner.table
    return table.head_seq if table is not None else 0


def test_a_whole_short_game_with_the_page_alone(box, tmp_path_factory):
    shots = tmp_path_factory.mktemp("virtual-table-game")
    with chromium() as context:
        page = context.new_page()
        page.goto(box.virtual.url)
        page.wait_for_selector("#oled")
        # a new game from the buttons: OK, Game…, New game…, the edition, how many, Start
        click(page, "ok")
        choose(page, box, "Game")
        choose(page, box, "New game")
        choose(page, box, "Monopoly")
        for _ in range(5):
            click(page, "down")
        click(page, "ok")  # two players, the fewest
        choose(page, box, "Start the game")
        assert wait_for(lambda: box.owner.table is not None)
        page.screenshot(path=str(shots / "1-started.png"))
        table = box.owner.table
        assert list(table.state.players) == ["Anna", "Boris"]
        # six turns: ROLL (which also ends the turn before), a plot on offer bought by its card or declined
        for turn in range(6):
            before = head(box)
            page.click("#btn-roll")
            # the roll itself, not only the end of the turn before it that the same press booked
            assert wait_for(lambda b=before: head(box) > b and last(box).startswith("roll"), timeout=5), "\n".join(
                box.lines[-15:]
            )
            pending = box.owner.table.state.pending
            if pending is not None and getattr(pending, "plot", None) and turn % 2 == 0:
                before = head(box)
                page.click(f'.card[data-uid="{box.plot_uid[pending.plot]}"]')
                # the card shows the purchase (the plot, its price) and OK books it (issue 22)
                assert wait_for(lambda: top(box) is not None and getattr(top(box), "books", None), timeout=5)
                assert head(box) == before
                click(page, "ok")
                assert wait_for(lambda b=before: head(box) > b, timeout=5), "\n".join(box.lines[-15:])
            while box.owner.table.state.pending is not None:  # what remains comes up by itself: OK takes it
                before = head(box)
                assert wait_for(lambda: top(box) is not None and getattr(top(box), "by_itself", False))
                choose(page, box, top(box).items[-1].text)
                if (
                    not wait_for(lambda b=before: head(box) > b, timeout=2)
                    and top(box) is not None
                    and not hasattr(top(box), "items")
                ):  # a money choice shows what it books: OK books it
                    click(page, "ok")
                wait_for(lambda b=before: head(box) > b, timeout=5)
            page.screenshot(path=str(shots / f"2-turn-{turn}.png"))
        # the game ends from the Game menu, after its warning, and is archived
        click(page, "ok")
        choose(page, box, "Game")
        choose(page, box, "End the game")
        click(page, "ok")
        assert wait_for(lambda: box.owner.table.state.phase == "over", timeout=5)
        page.screenshot(path=str(shots / "3-over.png"))
        click(page, "ok")
        choose(page, box, "Game")
        choose(page, box, "Archive the game")
        assert wait_for(lambda: box.owner.table is None, timeout=5)
        page.screenshot(path=str(shots / "4-archived.png"))
    print(f"screenshots: {shots}")
    archived = list((Path(box.config.games_dir) / "archive").glob("*.sqlite"))
    assert len(archived) == 1
    assert any("wins" in line or "Wealth" in line for line in box.lines)
