"""The box's commands: `companion run`, `companion game ...`, `companion cards ...`.

With a daemon running each goes through its control socket (companion/cli/common.py: through_daemon);
without one, `game` and `cards` work on the games folder directly (the daemon resumes what they leave)."""

import argparse
import logging
import random
from pathlib import Path
from typing import Any

from companion.cli.common import CommandFactory, option_pairs, said, through_daemon
from companion.daemon.cards import CardMap, Role, check_ref, check_role, normal_uid, role_words
from companion.daemon.config import Config, load_config
from companion.daemon.games import Games, folder_holder
from companion.editions import load_edition
from companion.errors import RuleViolation, SaidInput
from companion.table.view import event_lines, state_text
from companion.words import messages
from companion.words.messages import label


def _config(args: argparse.Namespace) -> Config:
    return load_config(getattr(args, "config", None))


def cmd_run(args: argparse.Namespace) -> int:
    from companion.daemon.main import Daemon

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    config = _config(args)
    daemon = Daemon(config, out=lambda line: print(line, flush=True))
    return daemon.run_until_signal()


def _folder(args: argparse.Namespace) -> tuple[Path, dict[str, Any] | None]:
    """The games folder the configuration names, and the daemon holding it (None: no daemon runs)."""
    folder = _config(args).games_dir
    return folder, folder_holder(folder)


def cmd_game(args: argparse.Namespace) -> int:
    folder, holder = _folder(args)
    lang = args.lang
    if args.action == "start":
        options = option_pairs(args.option, lang)
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
        request = {"op": "start", "edition": args.edition, "players": args.players, "seed": seed, "options": options}
    else:
        request = {"op": args.action}
    if holder is not None:
        answer = through_daemon(holder, str(folder), request, lang)
        if not answer.get("ok"):
            return said(answer, lang)
        _print_game_answer(args.action, answer, lang)
        return 0
    games = Games(folder)
    if args.action == "start":
        table = games.start(args.edition, args.players, request["seed"], request["options"])
        try:
            _print_game_answer(
                "start",
                {
                    "path": table.ledger.path,
                    "seed": request["seed"],
                    "lines": event_lines(table.rules, table.game.events[0], lang),
                },
                lang,
            )
        finally:
            table.close()
        return 0
    current = games.resume()
    if current is None:
        raise RuleViolation("no_game_on_box")
    table = current
    if args.action == "archive":
        path = games.archive(table)
        _print_game_answer("archive", {"path": str(path)}, lang)
        return 0
    try:
        if args.action == "end":
            event = table.submit("end_game")
            for line in event_lines(table.rules, event, lang):
                print("  " + line)
            print(state_text(table.rules, table.state, lang))
        else:
            print(f"{label('ledger', lang)}: {table.ledger.path} (#{table.head_seq})")
            print(state_text(table.rules, table.state, lang))
    finally:
        table.close()
    return 0


def _print_game_answer(action: str, answer: dict[str, Any], lang: str) -> None:
    if action == "start":
        for line in answer.get("lines", []):
            print(line)
        print(f"{label('ledger', lang)}: {answer['path']}")
    elif action == "archive":
        print(messages.render("game_archived", {"path": answer["path"]}, lang))
    elif action == "end":
        for line in answer.get("lines", []):
            print("  " + line)
    elif action == "status":
        if answer.get("game"):
            print(f"{label('ledger', lang)}: {answer['game']} (#{answer.get('seq', '?')})")
        else:
            print(messages.render("no_game_on_box", {}, lang))
        if answer.get("reader") in ("searching", "connecting", "ready", "offline", "refused"):
            print(
                messages.render(
                    "reader_" + answer["reader"], {"info": answer.get("reader_detail") or "?", "ours": "1"}, lang
                )
            )
        if answer.get("enrolling"):
            print(messages.render("enrol_waiting", {"role": answer.get("enrolling_words", "")}, lang))
        if answer.get("halted"):
            print(messages.render("halted", {"why": answer["halted"]}, lang))
        elif answer.get("stopped"):  # the game is only shown: why nothing can be booked (the daemon's words)
            print(answer["stopped"])


def cmd_cards(args: argparse.Namespace) -> int:
    folder, holder = _folder(args)
    lang = args.lang
    if args.action == "enrol":
        request: dict[str, Any] = {"op": "enrol", "kind": args.kind, "ref": args.ref}
        if args.uid:
            request["uid"] = normal_uid(args.uid)
        if args.edition:
            request["edition"] = args.edition
    elif args.action == "forget":
        request = {"op": "forget", "uid": normal_uid(args.uid)}
    else:
        request = {"op": "cards"}
    if holder is not None:
        answer = through_daemon(holder, str(folder), request, lang)
        if not answer.get("ok"):
            return said(answer, lang)
    else:
        answer = _cards_here(folder, request)
    if "message" in answer:
        print(answer["message"])
    elif args.action == "enrol":
        edition = load_edition(args.edition) if args.edition else None
        role_text = role_words(Role(args.kind, args.ref, args.edition or ""), edition, lang)
        lost = answer.get("replaced")
        code = "enrolled_replacing" if lost else "enrolled"
        print(messages.render(code, {"uid": answer["uid"], "role": role_text, "lost": lost}, lang))
    elif args.action == "forget":
        print(messages.render("card_forgotten", {"uid": normal_uid(args.uid)}, lang))
    elif args.action == "list":
        for uid, role in answer.get("cards", {}).items():
            print(
                f"{uid}  {messages.render('role_' + role['kind'], {'ref': role['ref']}, lang)}"
                f"{'  (' + role['edition'] + ')' if role.get('edition') else ''}"
            )
        for old, new in answer.get("replaced", {}).items():
            print(f"{old}  -> {new}")
    return 0


def _cards_here(folder: Path, request: dict[str, Any]) -> dict[str, Any]:
    """The card requests without a daemon: straight on the map file."""
    cards = CardMap.load(folder / "cards.json")
    if request["op"] == "enrol":
        if "uid" not in request:
            raise SaidInput("cards_need_uid")
        if request["kind"] != "player" and not request.get("edition"):
            raise SaidInput("cards_need_edition")
        role = Role(request["kind"], request["ref"], request.get("edition", "") if request["kind"] != "player" else "")
        check_role(role)
        if role.kind != "player":
            check_ref(role, load_edition(role.edition))
        lost = cards.saved_or_undone(lambda: cards.enrol(request["uid"], role))
        return {"uid": request["uid"], "replaced": lost}
    if request["op"] == "forget":
        role = cards.saved_or_undone(lambda: cards.forget(request["uid"]))
        return {"kind": role.kind, "ref": role.ref}
    return {
        "cards": {uid: {"kind": r.kind, "ref": r.ref, "edition": r.edition} for uid, r in cards.roles.items()},
        "replaced": dict(cards.replaced),
    }


def add_parsers(command: CommandFactory, lang: argparse.ArgumentParser) -> None:
    """run, game, cards (lang: the --lang parent, given to the actions under `game` and `cards` too)."""
    # --config may come before or after the action (`game --config F start ...`, `game start --config F`)
    conf = argparse.ArgumentParser(add_help=False)
    conf.add_argument(
        "--config", default=argparse.SUPPRESS, help="the daemon's configuration file (to find its games folder)"
    )

    p = command("run", help="run the box's daemon: it owns the current game, the reader and the control socket")
    p.add_argument("--config", help="the configuration file (docs/configuration.md); default: every default")
    p.set_defaults(func=cmd_run)

    p = command(
        "game", help="the game on the box: start, end, archive, status (through the daemon if it runs)", parents=[conf]
    )
    sub = p.add_subparsers(dest="action", required=True)
    s = sub.add_parser("start", help="start a game: start EDITION PLAYER...", parents=[conf, lang])
    s.add_argument("edition")
    s.add_argument("players", nargs="+")
    s.add_argument("--seed", type=int)
    s.add_argument("--option", action="append", metavar="KEY=VALUE")
    sub.add_parser("end", help="end the game: count everyone's wealth (end_game)", parents=[conf, lang])
    sub.add_parser("archive", help="move the finished game into the archive", parents=[conf, lang])
    sub.add_parser("status", help="the game, the reader and the daemon", parents=[conf, lang])
    p.set_defaults(func=cmd_game)

    p = command("cards", help="the card map: enrol a card as a player, plot or deck card; list; forget", parents=[conf])
    sub = p.add_subparsers(dest="action", required=True)
    s = sub.add_parser("enrol", help="enrol KIND REF: the next card tapped (or --uid) becomes it", parents=[conf, lang])
    s.add_argument("kind", choices=("player", "plot", "card"))
    s.add_argument("ref", help="the seat number (1 is the first player), the plot id or the card id")
    s.add_argument("--uid", help="the card's UID (hex), instead of tapping it")
    s.add_argument("--edition", help="the box a plot or deck card belongs to (default: the open game's)")
    sub.add_parser("list", help="every enrolled card", parents=[conf, lang])
    s = sub.add_parser("forget", help="forget a card", parents=[conf, lang])
    s.add_argument("uid")
    p.set_defaults(func=cmd_cards)
