"""Child process of tests/test_crash.py: commits autoplay commands to a ledger until killed.

Usage: python crash_child.py LEDGER ROUND. It reopens the game in LEDGER,
prints `ready N` (N events replayed), then for every command that `submit`
returned prints `seq S`, flushed, so the parent only ever hears of events
whose transaction has committed. Prints `over` and exits when the game ends.
"""

import random
import sys

from companion.bots.autoplay import next_command
from companion.table.service import open_game


def main(path, round_no):
    table = open_game(path)
    print(f"ready {len(table.game.events)}", flush=True)
    rng = random.Random(round_no)
    while table.state.phase != "over":
        line, _ = next_command(table.game, rng)
        if line is None:
            line = "end_game"
        event = table.submit(line, request_id=f"round{round_no}-{len(table.game.events) + 1}")
        print(f"seq {event.seq}", flush=True)
    print("over", flush=True)
    table.close()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
