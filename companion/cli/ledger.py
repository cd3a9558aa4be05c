"""`companion verify`, `accept`, `recover`: check a game's whole ledger, adopt a stranger's, salvage a damaged one."""

import argparse
import os

from companion.cli.common import (
    CommandFactory,
    db_path,
    out,
    said,
    say,
    show_head,
    stranger,
    through_daemon,
    warn,
    with_db,
)
from companion.daemon.games import daemon_holding
from companion.errors import EXIT_OK
from companion.table.service import open_game, recover_game, verify_game
from companion.words import messages
from companion.words.messages import label


def cmd_verify(args: argparse.Namespace) -> int:
    table = verify_game(db_path(args))
    try:
        seq, _ = table.head()
        # "agree" only names what was compared: a stranger's file has nothing on this machine to agree with
        out(label("verified_stranger" if table.stranger else "verified", args.lang, count=seq))
        show_head(table, args)
        warn(table, args.lang)
        return stranger(table, args.lang)
    finally:
        table.close()


def cmd_accept(args: argparse.Namespace) -> int:
    """Make a stranger's game this machine's own, as the file stands (through the box's daemon if it holds it)."""
    path = db_path(args)
    holder = daemon_holding(path)
    if holder is not None:
        answer = through_daemon(holder, path, {"op": "accept", "game": os.path.realpath(path)}, args.lang)
        if not answer.get("ok"):
            return said(answer, args.lang)
        out(answer["message"])
        return EXIT_OK
    table = open_game(path)
    try:
        words = {"game": table.meta["game_id"][:8], "count": table.head_seq, "head": table.head_hash}
        if not table.stranger:
            out(messages.render("accept_not_needed", words, args.lang))
            return EXIT_OK
        out(say(table.readonly_reason, args.lang))
        table.adopt()
        out(messages.render("accepted", words, args.lang))
        show_head(table, args)
    finally:
        table.close()
    return EXIT_OK


def cmd_recover(args: argparse.Namespace) -> None:
    table, report = recover_game(db_path(args), args.to)
    try:
        for line in report:
            out(say(line, args.lang))
        show_head(table, args)
    finally:
        table.close()


def add_parsers(command: CommandFactory, lang: argparse.ArgumentParser) -> None:
    """verify, accept, recover."""
    p = with_db(command("verify", help="replay every event from the start and check the whole ledger"))
    p.set_defaults(func=cmd_verify)

    p = with_db(
        command(
            "accept",
            help="make a stranger's game (a ledger this machine never kept: copied here, "
            "its anchor gone, or another game put in its place) this machine's own, trusting the file "
            "as it stands; until then it is shown read-only and nothing can be booked on it",
        )
    )
    p.set_defaults(func=cmd_accept)

    p = with_db(command("recover", help="copy the verified part of a damaged ledger into a new game"))
    p.add_argument("--to", required=True, help="the new ledger file")
    p.set_defaults(func=cmd_recover)
