"""`make demo`: a sample game played through the engine onto an SQLite ledger, shown as it goes.

Until the table's hardware exists this is the companion's main job in
miniature: every move is a command, every command one durable event, and the
game is reopened from the ledger at the end to show it survives a restart.
"""
import tempfile
import time
from pathlib import Path

from companion.autoplay import play
from companion.messages import label
from companion.table import new_game, open_game
from companion.view import event_lines, state_text

PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]


def run_demo(db=None, seed=2026, language="en", delay=0.0, edition="elite", max_events=400):
    if db is None:
        db = str(Path(tempfile.mkdtemp(prefix="companion-demo-")) / "demo.sqlite")
    table = new_game(db, edition, PLAYERS, seed)
    rules = table.rules
    print(label("demo", language, edition=rules.edition.name, players=", ".join(PLAYERS), seed=seed))
    print(f"{label('ledger', language)}: {db}\n")

    def show(event):
        print(f"#{event.seq:<4} {event.command}")
        for line in event_lines(rules, event, language):
            print(f"        {line}")
        if event.command == "end" and table.state.turns % 8 == 0:
            print()
            print(state_text(rules, table.state, language))
            print()
        if delay:
            time.sleep(delay)

    for line in event_lines(rules, table.game.events[0], language):
        print(f"#1    {line}")
    play(table.submit, table.game, seed, max_events=max_events, on_event=show)
    print()
    print(state_text(rules, table.state, language))
    n = len(table.game.events)
    table.close()
    reopened = open_game(db)
    same = reopened.state.signature() == table.state.signature()
    print("\n" + label("demo_end", language, count=n, result=label("identical" if same else "different", language)))
    print(f"{label('head', language)}: #{reopened.head()[0]} {reopened.head_words(language)} "
          f"{label('demo_head', language)}")
    reopened.close()
    return 0 if same else 1
