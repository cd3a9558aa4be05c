"""The `companion` command: start a game, apply commands, show state and history, run scripts."""
import argparse
import json
import os
import random
import sys
from pathlib import Path

from companion import messages
from companion.editions import load_edition, shipped
from companion.errors import CompanionError, InvariantViolation, RuleViolation
from companion.ledger.store import new_game, open_game
from companion.view import event_lines, fill_dice, state_json, state_text

DEFAULT_DB = "companion-game.sqlite"


def db_path(args):
    return args.db or os.environ.get("COMPANION_DB") or DEFAULT_DB


def out(text=""):
    print(text, flush=True)


def cmd_new(args):
    path = db_path(args)
    if Path(path).exists() and Path(path).stat().st_size:
        raise CompanionError(f"{path} already exists: choose another --db for a new game")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 32)
    options = {}
    for item in args.option or ():
        key, sep, value = item.partition("=")
        if not sep:
            raise CompanionError(f"--option takes KEY=VALUE, not '{item}'")
        options[key] = value
    table = new_game(path, args.edition, args.players, seed, options)
    for line in event_lines(table.rules, table.game.events[0], args.lang):
        out(line)
    out(f"ledger: {path}")
    table.close()


def cmd_do(args):
    table = open_game(db_path(args))
    try:
        line = fill_dice(table.rules, " ".join(args.command), random.SystemRandom())
        event = table.submit(line)
        out(f"#{event.seq} {event.command}")
        for text in event_lines(table.rules, event, args.lang):
            out("  " + text)
    finally:
        table.close()


def cmd_state(args):
    table = open_game(db_path(args))
    try:
        show_state(table, args)
    finally:
        table.close()


def show_state(table, args):
    if args.json:
        out(json.dumps(state_json(table.rules, table.state), ensure_ascii=False, indent=2))
    else:
        out(state_text(table.rules, table.state, args.lang))


def cmd_history(args):
    table = open_game(db_path(args))
    try:
        events = table.game.events
        if args.json:
            stamps = table.ledger.created_at()
            out(json.dumps([{
                "seq": e.seq, "command": e.command, "reverses": e.reverses,
                "undone": e.seq in table.game.reversed, "at": stamps.get(e.seq),
                "postings": [[p.account, p.amount] for p in e.postings],
                "notes": [n.as_json() for n in e.notes]} for e in events], ensure_ascii=False, indent=2))
            return
        for e in events:
            mark = " (undone)" if e.seq in table.game.reversed else ""
            out(f"#{e.seq} {e.command}{mark}")
            for text in event_lines(table.rules, e, args.lang):
                out("    " + text)
    finally:
        table.close()


def cmd_script(args):
    from companion.script import run_script
    text = Path(args.file).read_text(encoding="utf-8")
    def echo(event):
        out(f"#{event.seq} {event.command}")
    table = run_script(text, args.file, db=args.db or ":memory:", on_event=echo if args.verbose else None)
    try:
        show_state(table, args)
    finally:
        table.close()


def cmd_editions(args):
    for name in shipped():
        ed = load_edition(name)
        out(f"{name:<10} {ed.name} ({ed.players_min}-{ed.players_max} players, rules '{ed.rules}')")


def cmd_check_edition(args):
    ed = load_edition(args.file)
    out(f"{args.file}: ok ({ed.name}, {len(ed.cells)} cells, {len(ed.plots)} plots, "
        f"{sum(len(d) for d in ed.decks.values())} cards)")


def cmd_demo(args):
    from companion.demo import run_demo
    run_demo(args.db, args.seed, args.lang, args.delay, args.edition, args.events)


def cmd_bench(args):
    from companion import bench
    bench.main(args.what, args.events, args.runs)


def build_parser():
    ap = argparse.ArgumentParser(prog="companion", description=__doc__)
    ap.add_argument("--lang", default="en", choices=messages.LANGUAGES, help="language of messages")
    sub = ap.add_subparsers(dest="cmd", required=True)

    def with_db(p):
        p.add_argument("--db", help=f"game ledger file (default $COMPANION_DB or {DEFAULT_DB})")
        return p

    p = with_db(sub.add_parser("new", help="start a game: new EDITION PLAYER..."))
    p.add_argument("edition", help="shipped edition id or path to an edition file")
    p.add_argument("players", nargs="+")
    p.add_argument("--seed", type=int, help="deck shuffle seed (random if omitted)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE",
                   help="a rule option for this game (see the edition's docs), e.g. long_term_policies=auto")
    p.set_defaults(func=cmd_new)

    p = with_db(sub.add_parser("do", help="apply one command, e.g. `do roll` or `do buy`"))
    p.add_argument("command", nargs="+")
    p.set_defaults(func=cmd_do)

    p = with_db(sub.add_parser("state", help="show the table"))
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_state)

    p = with_db(sub.add_parser("history", help="show every event"))
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_history)

    p = sub.add_parser("script", help="run a game script and print the final state")
    p.add_argument("file")
    p.add_argument("--db", help="keep the ledger in this file (default: in memory)")
    p.add_argument("--json", action="store_true")
    p.add_argument("-v", "--verbose", action="store_true", help="print each event")
    p.set_defaults(func=cmd_script)

    sub.add_parser("editions", help="list shipped editions").set_defaults(func=cmd_editions)
    p = sub.add_parser("check-edition", help="validate an edition file")
    p.add_argument("file")
    p.set_defaults(func=cmd_check_edition)

    p = sub.add_parser("demo", help="play a sample game through the engine on an SQLite ledger")
    p.add_argument("--db", help="ledger file (default: a fresh file in a temporary folder)")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--edition", default="elite")
    p.add_argument("--delay", type=float, default=0.0, help="seconds between events")
    p.add_argument("--events", type=int, default=400, help="stop and count wealth after this many events")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("bench", help="benchmarks: ledger (durable commands/s) or engine")
    p.add_argument("what", choices=("ledger", "engine"))
    p.add_argument("--events", type=int, default=1000)
    p.add_argument("--runs", type=int, default=5)
    p.set_defaults(func=cmd_bench)
    return ap


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        args.func(args)
    except RuleViolation as exc:
        print("refused: " + messages.render_error(exc, args.lang), file=sys.stderr)
        return 2
    except InvariantViolation as exc:
        print(f"BANK HALTED (a bug, nothing more is written): {exc}", file=sys.stderr)
        return 3
    except (CompanionError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0
