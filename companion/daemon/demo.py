"""`make demo`: the whole daemon on simulated hardware, with the virtual table in the browser.

The daemon starts as on the box (writer thread, control socket, reader link,
OLED, buttons), with the real reader firmware behind a pty, gpiozero's mock
pins for the buttons and luma's dummy OLED. Cards are enrolled for the seats,
the plots and the deck cards, a game is started, and the virtual table
(web/) serves the OLED, the buttons, ROLL and the cards at
http://127.0.0.1:8000/ until Ctrl-C: a newcomer plays with no hardware.
The games folder is ./demo-games (git-ignored, said on start): Ctrl-C and
`make demo` again resumes the game in play, as the box does after a power cut;
a fresh game only when there is none, or with `--new`.

`--bot` plays instead: a seeded bot decides each move (companion/bots/autoplay.py)
and makes it the way a person at the table would: ROLL on the reader for dice,
the plot's card and OK to buy it (the card shows the purchase first), a deck
card to draw it, the player's card and two OK presses to end the turn; what has
no card (a bid, a trade, building) goes in through the control socket. At the
end the ledger is reopened from disk and compared with the game in memory.
"""

import random
import sys
import tempfile
import threading
import time
from pathlib import Path

from companion.bots.autoplay import next_command
from companion.daemon.cards import MAX_SEATS, CardMap, Role
from companion.daemon.config import Config, defaults
from companion.daemon.main import Daemon, wait_for
from companion.daemon.taps import dice_action
from companion.daemon.virtual import VirtualTableService
from companion.engine.command import Command, parse_command
from companion.table.service import open_game
from companion.words.messages import cell_name, label

# the demo's players, as many as the largest table seats (Monopoly's eight); the bot and the benches play four
NAMES = ("Anna", "Boris", "Vera", "Gleb", "Dmitry", "Elena", "Zhenya", "Zoya")
PLAYERS = list(NAMES[:4])
DEMO_DIR = "demo-games"  # the served demo's games folder, under where it runs (the repository for `make demo`)
LIFT_S = 0.3  # a card lifted off the reader is seen gone after four empty scans (firmware/reader.py)


def demo_cards(*chosen) -> dict[str, Role]:
    """Tagged cards for the demo, a full set for every shipped edition and for each `chosen` Edition (the
    one asked for, the game's in play): a 4-byte card per seat up to the most players any edition seats,
    and a 7-byte sticker per plot and deck card, numbered by edition (Elite's first, as the demo starts
    with it) so a new game of another edition from the buttons finds its cards enrolled too. A chosen
    edition takes the place of the shipped one of the same id (a file edited for the box at hand keeps
    "monopoly"): its plots and cards are the ones on the table."""
    from companion.editions import load_edition, shipped

    editions = [load_edition(name) for name in sorted(shipped(), key=lambda name: (name != "elite", name))]
    for edition in chosen:
        if edition is None:
            continue
        same = [i for i, e in enumerate(editions) if e.id == edition.id]
        if same:
            editions[same[0]] = edition
        else:
            editions.append(edition)
    seats = min(MAX_SEATS, max(e.players_max for e in editions))
    cards = {f"0A0000{seat:02X}": Role("player", str(seat)) for seat in range(1, seats + 1)}
    for n, box in enumerate(editions):
        for i, plot in enumerate(sorted(box.plots)):
            cards[f"04A1{n:02X}{i:08X}"] = Role("plot", plot, box.id)
        for i, card in enumerate(sorted(box.cards)):
            cards[f"04C4{n:02X}{i:08X}"] = Role("card", card, box.id)
    return cards


class Hands:
    """The demo's hands on the simulated reader: tap a card, press ROLL, wait for the daemon."""

    def __init__(self, daemon: Daemon, cards: dict[str, Role], out, language: str):
        self.daemon = daemon
        self.language = language
        self.uid = {role.key(): uid for uid, role in cards.items()}
        self.out = out
        self.buttons = VirtualTableService(daemon)  # the mock pins, pressed as the page presses them

    def end_turn(self, seat: int, player: str) -> bool:
        """The player's card opens their menu ("End the turn" first), OK chooses, OK books."""
        before = self.head()
        self.tap(Role("player", str(seat)), label("demo_player_card", self.language, player=player))
        for _ in range(2):
            wait_for(lambda: self.daemon.console.stack != [], timeout=2)
            self.out(f"        ({label('demo_ok', self.language)})")
            self.buttons.press("ok", False)
        return self.booked(before)

    def tap(self, role: Role, what: str, confirm: bool = False) -> bool:
        """The card on the reader and lifted; confirm: what it books is shown first, and OK books it."""
        sim = self.daemon.sim
        assert sim is not None
        before = self.head()
        self.out(f"        ({what})")
        sim.place(self.uid[role.key()])
        if confirm:  # a purchase is shown before it is booked (the plot and its price): read, then OK
            shown = wait_for(
                lambda: (
                    bool(self.daemon.console.stack)
                    and getattr(self.daemon.console.stack[-1], "books", None) is not None
                ),
                timeout=5,
            )
            sim.remove()
            time.sleep(LIFT_S)
            if not shown:
                return False
            self.out(f"        ({label('demo_ok', self.language)})")
            self.buttons.press("ok", False)
            return self.booked(before)
        moved = self.booked(before, timeout=5 if role.kind != "player" else 0.5)
        sim.remove()
        time.sleep(LIFT_S)
        return moved

    def roll(self) -> bool:
        sim = self.daemon.sim
        assert sim is not None
        before = self.head()
        self.out(f"        ({label('demo_roll', self.language)})")
        sim.press_roll()
        return self.booked(before)

    def booked(self, before: int, timeout: float = 5) -> bool:
        """Wait until the move is booked and printed (False: the reader's move was refused or lost)."""
        return wait_for(lambda: self.head() != before and self.daemon.shown >= self.head(), timeout=timeout)

    def head(self) -> int:
        table = self.daemon.owner.table
        return table.head_seq if table is not None else 0


def run_demo(
    seed=2026,
    language="en",
    delay=0.0,
    edition="elite",
    max_events=150,
    games_dir=None,
    bot: bool = False,
    port: int = 8000,
    players: int | None = None,
    new: bool = False,
) -> int:
    # the bot's game is a throwaway; the served table keeps its folder so a restart resumes the game
    folder = Path(games_dir or (tempfile.mkdtemp(prefix="companion-demo-") if bot else DEMO_DIR)).resolve()

    printing = threading.Lock()

    def out(line: str) -> None:
        with printing:  # the daemon's printer thread and the demo's hands share the terminal
            sys.stdout.write(line + "\n")
            sys.stdout.flush()
        if delay:
            time.sleep(delay)

    values = dict(defaults().values)
    values.update({"games_dir": str(folder), "language": language, "virtual_table.port": 0 if bot else port})
    if not bot:
        folder.mkdir(parents=True, exist_ok=True)
        out(label("demo_folder", language, path=folder))
        return serve(Config(values, "(demo)"), out, seed, edition, language, 3 if players is None else players, new)
    daemon = Daemon(Config(values, "(demo)"), out=out, sim_seed=seed)
    daemon.start()
    try:
        names = PLAYERS if players is None else demo_names(players)
        answer = daemon.handle({"op": "start", "edition": edition, "players": names, "seed": seed})
        if not answer["ok"]:
            out(answer["message"])
            return 1
        table = daemon.owner.table
        assert table is not None
        edition_name = table.rules.edition.names.get(language, table.rules.edition.name)
        out(label("demo", language, edition=edition_name, players=", ".join(names), seed=seed))
        out(f"{label('ledger', language)}: {answer['path']}")
        cards = demo_cards(table.rules.edition)
        card_map = CardMap(folder / "cards.json", cards)
        card_map.save()
        daemon.cards = card_map
        if not wait_for(lambda: daemon.link is not None and daemon.link.state.state == "ready", timeout=10):
            out("the simulated reader did not answer")
            return 1
        play(daemon, Hands(daemon, cards, out, language), seed, max_events)
        wait_for(lambda: False, timeout=0.5)  # let the printer finish the last event
        signature, n, path = table.state.signature(), len(table.game.events), table.ledger.path
    finally:
        daemon.stop()
    reopened = open_game(path)
    same = reopened.state.signature() == signature
    out("\n" + label("demo_end", language, count=n, result=label("identical" if same else "different", language)))
    out(
        f"{label('head', language)}: #{reopened.head()[0]} {reopened.head_words(language)} "
        f"{label('demo_head', language)}"
    )
    reopened.close()
    return 0 if same else 1


def serve(config: Config, out, seed: int, edition: str, language: str, players: int, new: bool = False) -> int:
    """The daemon and its virtual table, the game in play resumed (or one started) with `players` seats and
    every card enrolled, the chosen edition's and the game's own, until Ctrl-C."""
    from companion.editions import load_edition

    names = demo_names(players)
    chosen = load_edition(edition)

    def ready(daemon: Daemon) -> int:
        playing = daemon.owner.table
        archived = new and playing is not None
        if new and playing is not None:  # --new: the game in play goes to the archive first
            if playing.state.phase != "over":
                daemon.handle({"op": "end"})
            answer = daemon.handle({"op": "archive"})
            if not answer["ok"]:
                out(answer["message"])
                return 1
        table = daemon.owner.table
        if table is None:
            answer = daemon.handle({"op": "start", "edition": edition, "players": names, "seed": seed})
            if not answer["ok"]:
                out(answer["message"])
                return 1
            table = daemon.owner.table
            assert table is not None
            out(
                label(
                    "demo_new" if archived else "demo_started",
                    language,
                    edition=_edition_name(table, language),
                    players=", ".join(table.state.players),
                )
            )
        else:
            out(
                label(
                    "demo_resumed",
                    language,
                    seq=table.head_seq,
                    edition=_edition_name(table, language),
                    players=", ".join(table.state.players),
                )
            )
        # the card map is written once this daemon holds the folder (never under another's feet), for the
        # edition asked for and the game's own, which a resumed game keeps whatever --edition says now
        cards = CardMap(config.games_dir / "cards.json", demo_cards(chosen, table.rules.edition))
        cards.save()
        daemon.cards = cards
        if daemon.virtual is None:
            out(label("demo_no_page", language))
            return 1
        out(label("demo_serving", language, url=daemon.virtual.url))
        return 0

    return Daemon(config, out=out, sim_seed=seed).run_until_signal(ready)


def demo_names(players: int) -> list[str]:
    """The names of a demo game of `players` seats; past the demo's names, numbers, so the rules' own
    refusal says how many the edition seats (a count below two is the rules' to refuse too)."""
    return [NAMES[i] if i < len(NAMES) else str(i + 1) for i in range(max(0, players))]


def _edition_name(table, language: str) -> str:
    return str(table.rules.edition.names.get(language, table.rules.edition.name))


def play(daemon: Daemon, hands: Hands, seed: int, max_events: int) -> None:
    """The bot's moves, made with the reader where the table has a card for them."""
    rng = random.Random(seed)
    table = daemon.owner.table
    assert table is not None
    # past max_events the wealth is counted as soon as no decision is open (as autoplay.play does)
    while table.state.phase != "over" and len(table.game.events) < max_events + 1000:
        if len(table.game.events) >= max_events and daemon.handle({"op": "end"})["ok"]:
            return
        line, _ = next_command(table.game, rng)
        if line is None:
            return
        command = parse_command(line)
        assert command is not None
        if not by_hand(table, hands, command):
            answer = daemon.handle({"op": "do", "command": line})
            if not answer["ok"]:
                return


def by_hand(table, hands: Hands, command: Command) -> bool:
    """Make the move on the reader if a card or ROLL makes it; False if it needs the buttons."""
    rules, state = table.rules, table.state
    action = dice_action(rules, state)
    if action is not None and command.verb == action.verb and len(command.args) == len(action.args):
        return hands.roll()
    pending = state.pending
    edition = rules.edition
    if command.verb == "buy" and pending is not None and pending.plot:
        name = cell_name(edition, pending.plot, hands.language)
        return hands.tap(
            Role("plot", pending.plot, edition.id), label("demo_plot_card", hands.language, plot=name), confirm=True
        )
    if command.verb == "draw" and not command.args and pending is not None:
        deck = state.decks.get(pending.stage) or ()
        if deck:
            return hands.tap(Role("card", deck[0], edition.id), label("demo_deck_card", hands.language))
    if command.verb == "end" and not command.args:
        return hands.end_turn(state.players.index(state.turn) + 1, state.turn)
    return False
