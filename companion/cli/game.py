"""`companion new`, `do`, `state`, `history`: start a game in a ledger file, book commands on it, show it."""

import argparse
import json
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.cli.common import (
    CommandFactory,
    db_path,
    event_text,
    option_pairs,
    out,
    said,
    show_head,
    stranger,
    through_daemon,
    warn,
    with_db,
)
from companion.daemon.games import daemon_holding
from companion.engine.actions import TABLE
from companion.engine.command import Command, parse_command, split_actor
from companion.errors import BadCommand, BadInput, LedgerError, OutcomeUnknown, check
from companion.table.service import new_game, new_request_id, open_game
from companion.table.view import event_lines, state_json, state_text
from companion.words import messages
from companion.words.messages import label

if TYPE_CHECKING:
    from companion.table.service import Table

REQUEST_LINE = {
    "en": "request: {id} (to retry safely: companion do --request-id {id} ...)",
    "ru": "запрос: {id} (повторить без двойной записи: companion do --request-id {id} ...)",
}
LEGAL_HEADING = {
    "en": {"table": "what may be done now (by whom):", "player": "what {player} may do now:", "none": "  nothing now"},
    "ru": {
        "table": "что можно сделать сейчас (и кто):",
        "player": "что {player} может сделать сейчас:",
        "none": "  сейчас ничего",
    },
}
AS_CONFLICT = {
    "en": "--as {flag} and the line's {prefix} name two different actors; give one",
    "ru": "--as {flag} и {prefix} в начале строки называют разных участников; укажите одного",
}


def cmd_new(args: argparse.Namespace) -> None:
    path = db_path(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    options = option_pairs(args.option, args.lang)
    table = new_game(path, args.edition, args.players, seed, options)
    try:
        for line in event_lines(table.rules, table.game.events[0], args.lang):
            out(line)
        out(f"{label('ledger', args.lang)}: {path}")
        show_head(table, args)
    finally:
        table.close()


def actor_of(table: "Table", name: str | None, lang: str, where: str = "--as") -> str:
    """The actor `--as NAME` (or a line's `NAME:`) names: TABLE or a player as the game spells them.

    An unknown name is bad input (exit code 4), said in one line naming where it was given.
    """
    if name is None:
        return TABLE
    try:
        return table.actor_name(name)
    except BadCommand as exc:
        raise BadInput(f"{where}: " + messages.render_error(exc, lang)) from None


def parse_do(words: list[str]) -> tuple[str | None, Command]:
    """The `do` words as one line, parsed once: (the actor a leading `NAME:` gives, the Command)."""
    if len(words) > 1:
        # the shell took the quotes off a word with spaces (`do build "ночной клуб"`): put them back;
        # a single argument is a whole line as typed (`do "roll 1 2"`)
        words = [f'"{w}"' if any(c.isspace() for c in w) and '"' not in w else w for w in words]
    prefix, text = split_actor(" ".join(words))
    command = parse_command(text)
    if command is None:
        raise BadCommand("empty_command")
    return prefix, command


def do_via_daemon(
    holder: dict[str, Any], path: str, actor: str | None, command: Command, request_id: str, lang: str
) -> int:
    """`do` on a game the box's daemon holds: the daemon books it; its answer printed as the direct path would."""
    answer = through_daemon(
        holder,
        path,
        {
            "op": "do",
            "actor": actor or TABLE,
            "command": command.text(),
            "request_id": request_id,
            "game": str(Path(path).resolve()),
        },
        lang,
    )
    if not answer.get("ok"):
        return said(answer, lang)
    who = "" if answer["actor"] == TABLE else f"{answer['actor']}: "
    print(f"#{answer['seq']} {who}{answer['command']}")
    for line in answer.get("lines", []):
        print("  " + line)
    print(f"{label('head', lang)}: #{answer['seq']} {answer.get('head', '')}")
    return 0


def cmd_do(args: argparse.Namespace) -> int | None:
    holder = daemon_holding(db_path(args))
    if holder is not None:  # the box's daemon owns this game: it books the command (docs/daemon.md)
        prefix, command = parse_do(args.command)
        if prefix is not None and args.as_player is not None and prefix.lower() != args.as_player.lower():
            raise BadInput(AS_CONFLICT[args.lang].format(flag=args.as_player, prefix=prefix + ":"))
        request_id = new_request_id() if args.request_id is None else args.request_id  # "" is refused, not replaced
        if args.request_id is None:
            print(REQUEST_LINE[args.lang].format(id=request_id), file=sys.stderr, flush=True)
        return do_via_daemon(holder, db_path(args), prefix or args.as_player, command, request_id, args.lang)
    table = open_game(db_path(args))
    args.edition = table.rules.edition  # a refusal names plots and cards as the board does
    try:
        actor = actor_of(table, args.as_player, args.lang)
        prefix, command = parse_do(args.command)
        if prefix is not None:
            named = actor_of(table, prefix, args.lang, where=prefix)
            if args.as_player is not None and named != actor:
                raise BadInput(AS_CONFLICT[args.lang].format(flag=args.as_player, prefix=prefix + ":"))
            actor = named
        request_id = args.request_id
        if request_id is None:
            request_id = new_request_id()
            # on stderr, before the write: whatever happens next, the id to retry with is on screen
            print(REQUEST_LINE[args.lang].format(id=request_id), file=sys.stderr, flush=True)
        line = command.text()
        retry = ("" if actor == TABLE else f"--as {actor} ") + line
        try:
            event = table.submit(command, request_id=request_id, actor=actor, rng=random.SystemRandom())
        except OutcomeUnknown as exc:
            # a later synced look tells which; only if that fails too is the outcome left unknown
            try:
                stored = table.resolve()
            except OutcomeUnknown:
                raise OutcomeUnknown("do_unknown_retry", exc.seq, request_id, line, unknown=exc, retry=retry) from None
            if not stored:
                raise LedgerError("do_not_stored", command=line, request_id=request_id, retry=retry) from None
            print(
                f"{label('warning', args.lang)}: {messages.render('do_stored', {'seq': exc.seq}, args.lang)}",
                file=sys.stderr,
            )
            seq = exc.seq
            check(seq is not None, "an event found stored after an unknown outcome has its number")
            assert seq is not None  # for the type checker: check() above stays on under -O
            event = table.game.events[seq - 1]
        out(f"#{event.seq} {event_text(event)}")
        for text in event_lines(table.rules, event, args.lang):
            out("  " + text)
        show_head(table, args)
        warn(table, args.lang)
    finally:
        table.close()
    return None


def legal_lines(table: "Table", actor: str, lang: str) -> list[str]:
    """What `actor` may do now, one action pattern a line; for the table each is marked with whose it is."""
    heading = LEGAL_HEADING[lang]
    actions = table.rules.legal(table.state, actor)
    lines = [heading["table"] if actor == TABLE else heading["player"].format(player=actor)]
    width = max((len(a.party) for a in actions), default=0) + 2
    for action in actions:
        if actor == TABLE:
            lines.append(f"  {'[' + action.party + ']':<{width}} {action.text()}")
        else:
            lines.append(f"  {action.text()}")
    if not actions:
        lines.append(heading["none"])
    return lines


def cmd_state(args: argparse.Namespace) -> int:
    table = open_game(db_path(args), readonly=True)
    try:
        warn(table, args.lang)  # a stranger's game is said after it is shown (the exit code says it too)
        legal = args.legal or args.as_player is not None
        actor = actor_of(table, args.as_player, args.lang)
        if args.json:
            data = state_json(table.rules, table.state)
            seq, head = table.head()
            data["head"] = {"seq": seq, "hash": head, "words": table.head_words(args.lang)}
            if "recovered_from" in table.meta:
                data["recovered_from"] = table.meta["recovered_from"]
            if legal:
                data["legal"] = {
                    "actor": actor,
                    "actions": [
                        {"party": a.party, "verb": a.verb, "pattern": a.text()}
                        for a in table.rules.legal(table.state, actor)
                    ],
                }
            out(json.dumps(data, ensure_ascii=False, indent=2))
        else:
            out(state_text(table.rules, table.state, args.lang))
            if "recovered_from" in table.meta:
                out(f"  {label('recovered', args.lang)} {table.meta['recovered_from']}")
            show_head(table, args)
            if legal:
                for line in legal_lines(table, actor, args.lang):
                    out(line)
        return stranger(table, args.lang)
    finally:
        table.close()


def cmd_history(args: argparse.Namespace) -> int:
    table = open_game(db_path(args), readonly=True)
    try:
        rows = table.stored_events()
        undone = table.reversed_events()
        if args.json:
            out(
                json.dumps(
                    [
                        {
                            "seq": r.event.seq,
                            "command": r.event.command,
                            "submitted": r.submitted,
                            "actor": r.actor,
                            "request_id": r.request_id,
                            "reverses": r.event.reverses,
                            "undone": r.event.seq in undone,
                            "at": r.created_at,
                            "postings": [[p.account, p.amount] for p in r.event.postings],
                            "notes": [n.as_json() for n in r.event.notes],
                        }
                        for r in rows
                    ],
                    ensure_ascii=False,
                    indent=2,
                )
            )
            return stranger(table, args.lang)
        for r in rows:
            mark = " " + label("undone", args.lang) if r.event.seq in undone else ""
            out(f"#{r.event.seq} {event_text(r.event)}{mark}")
            for text in event_lines(table.rules, r.event, args.lang):
                out("    " + text)
        return stranger(table, args.lang)
    finally:
        table.close()


def add_parsers(command: CommandFactory, lang: argparse.ArgumentParser) -> None:
    """new, do, state, history."""
    p = with_db(command("new", help="start a game: new EDITION PLAYER..."))
    p.add_argument("edition", help="shipped edition id or path to an edition file")
    p.add_argument("players", nargs="+", help="player names, in turn order")
    p.add_argument("--seed", type=int, help="deck shuffle seed, 0 to 2^64-1 (random if omitted)")
    p.add_argument(
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help="a rule option for this game (see the edition's docs), e.g. long_term_policies=auto",
    )
    p.set_defaults(func=cmd_new)

    p = with_db(command("do", help="apply one command, e.g. `do roll` or `do buy`"))
    p.add_argument(
        "--request-id",
        help="the request's id: a retry with the same id and command is "
        "answered from the ledger, never booked twice (one is made and printed if omitted)",
    )
    p.add_argument(
        "--as",
        dest="as_player",
        metavar="PLAYER",
        help="issue the command as this player (any case; docs/actors.md); default: the table",
    )
    p.add_argument(
        "command",
        nargs="+",
        help="the command and its arguments (docs/script-language.md); "
        "a leading `NAME:` names the actor too, like a script line",
    )
    p.set_defaults(func=cmd_do)

    p = with_db(command("state", help="show the table (read-only)"))
    p.add_argument("--json", action="store_true", help="as JSON")
    p.add_argument(
        "--legal",
        action="store_true",
        help="also list what may be done now, one action pattern a line (docs/actors.md)",
    )
    p.add_argument(
        "--as",
        dest="as_player",
        metavar="PLAYER",
        help="with --legal: only what this player may do (implies --legal); default: the table, "
        "which sees every action marked with whose it is",
    )
    p.set_defaults(func=cmd_state)

    p = with_db(command("history", help="show every event (read-only)"))
    p.add_argument("--json", action="store_true", help="as JSON")
    p.set_defaults(func=cmd_history)
