"""`companion script FILE`: play a game script (docs/script-language.md) and print the final state."""

import argparse
import json
from typing import Any

from companion.cli.common import CommandFactory, event_text, out
from companion.table.view import event_lines, state_json, state_text


def cmd_script(args: argparse.Namespace) -> None:
    from companion.table.script import read_script, run_script

    text = read_script(args.file)

    def echo(table: Any, event: Any) -> None:
        # each event as a script writes it, then what happened, in the chosen language
        out(f"#{event.seq} {event_text(event)}")
        for line in event_lines(table.rules, event, args.lang):
            out(f"    {line}")

    table = run_script(
        text, args.file, db=args.db or ":memory:", on_event=echo if args.verbose else None, language=args.lang
    )
    try:
        if args.json:
            out(json.dumps(state_json(table.rules, table.state), ensure_ascii=False, indent=2))
        else:
            out(state_text(table.rules, table.state, args.lang))
    finally:
        table.close()


def add_parsers(command: CommandFactory, lang: argparse.ArgumentParser) -> None:
    """script."""
    p = command("script", help="run a game script and print the final state")
    p.add_argument("file", help="the script, or - for standard input")
    p.add_argument("--db", help="keep the ledger in this file (default: in memory)")
    p.add_argument("--json", action="store_true", help="as JSON")
    p.add_argument("-v", "--verbose", action="store_true", help="print each event and its notes")
    p.set_defaults(func=cmd_script)
