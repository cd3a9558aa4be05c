"""`companion bench WHAT`: run one of the benchmarks in companion/bench/ (each its own module) and print its figures."""

import argparse
import sys

from companion.cli.common import CommandFactory
from companion.errors import EXIT_BAD_INPUT, EXIT_USAGE
from companion.words.messages import label

BENCHES = ("ledger", "engine", "open", "link", "table", "sim", "web", "daemon")


def cmd_bench(args: argparse.Namespace) -> int | None:
    from companion.sim.report import say as sim_say

    if args.events is None:
        args.events = 10_000 if args.what == "daemon" else 1000

    # a sim-only argument given to another bench was ignored without a word (--peer to bench web)
    for option, value in (("--peer", args.peer), ("--baseline", args.baseline), ("--edition", args.edition)):
        if value is not None and args.what != "sim":
            print(
                f"{label('usage', args.lang)}: " + sim_say("bench_sim_only", args.lang, option=option, what=args.what),
                file=sys.stderr,
            )
            return EXIT_USAGE
    if args.what == "web" and args.pages < 1:  # was measured as 1 page without a word
        print(
            f"{label('usage', args.lang)}: "
            + sim_say("bench_number", args.lang, option="--pages", low=1, value=args.pages),
            file=sys.stderr,
        )
        return EXIT_USAGE
    if args.what == "sim":
        from companion.bench import sim as bench_sim

        try:
            bench_sim.main(args.games, args.peer, [args.edition] if args.edition else None, args.repeats, args.baseline)
        except bench_sim.BenchError as exc:
            # a row that failed to run is an error of the run; everything else is the command line's
            if exc.key == "bench_row_failed":
                print(f"{label('error', args.lang)}: {exc.say(args.lang)}", file=sys.stderr)
                return EXIT_BAD_INPUT
            print(f"{label('usage', args.lang)}: {exc.say(args.lang)}", file=sys.stderr)
            return EXIT_USAGE
        return 0
    if args.what == "link":
        from companion.bench import link as bench_link

        return bench_link.main(max(20, min(args.events, 200)), max(1, args.runs * 2))
    if args.what == "table":
        from companion.bench import table as bench_table

        return bench_table.main(max(20, min(args.events, 200)))
    if args.what == "daemon":
        from companion.bench import daemon as bench_daemon

        return bench_daemon.main(events=max(1000, min(args.events, 20_000)), rolls=max(10, min(args.runs * 12, 200)))
    if args.what == "web":
        from companion.bench import web as bench_web

        return bench_web.main(
            pages=max(1, min(args.pages, 56)), commits=max(10, min(args.events, 200)), rounds=max(1, min(args.runs, 20))
        )
    if args.what == "open":
        from companion.bench import open as bench_open

        bench_open.main(args.runs)
    elif args.what == "engine":
        from companion.bench import engine as bench_engine

        bench_engine.main(args.events, args.runs)
    else:
        from companion.bench import ledger as bench_ledger

        bench_ledger.main(args.events, args.runs)
    return None


def add_parsers(command: CommandFactory, lang: argparse.ArgumentParser) -> None:
    """bench."""
    p = command(
        "bench",
        help="benchmarks: ledger (durable commands/s), engine, open (reopen times), "
        "link (reader frame to ledger commit, replug to ready), table (tap to OLED frame rendered), "
        "web (the phone page: table view req/s against a static file, commit to 50 live pages), "
        "daemon (ROLL to booked while 8 phones export a 10,000-event game, and in a stream storm)",
    )
    p.add_argument("what", choices=BENCHES)
    # daemon: --events the game's length (default 10,000), --runs x 12 the ROLLs timed a round (docs/daemon.md)
    p.add_argument("--events", type=int, default=None, help="default 1000 (daemon: 10,000)")
    p.add_argument("--runs", type=int, default=5)
    # sim: whole simulated games per second (companion/bench/sim.py, docs/simulation-speed.md)
    p.add_argument("--games", type=int, default=20, help="sim: games a row")
    p.add_argument("--repeats", type=int, default=3, help="sim: runs of each row (medians)")
    p.add_argument("--edition", help="sim: one edition (default: every edition)")
    p.add_argument("--peer", help="sim: a copy of gamescomputersplay/monopoly to play beside ours")
    p.add_argument("--baseline", help="sim: another checkout whose engine plays the same games (the ratio)")
    # web: the phone page under load (companion/bench/web.py, docs/bench-web.md); --events: commits, --runs: rounds
    p.add_argument("--pages", type=int, default=50, help="web: live pages following the ledger")
    p.set_defaults(func=cmd_bench)
