"""The `companion` command: start a game, apply commands, show state and history, check and recover ledgers."""

import argparse
import ast
import errno
import json
import os
import random
import re
import sys
import traceback
from datetime import datetime, timezone

from companion.cli.box import add_parsers as add_box_parsers
from companion.cli.box import do_via_daemon, said, through_daemon
from companion.daemon.games import daemon_holding
from companion.editions import load_edition, shipped
from companion.engine.actions import TABLE, issued
from companion.engine.command import Command, parse_command, split_actor
from companion.engine.state import Note
from companion.errors import (
    EXIT_BAD_INPUT,
    EXIT_DISK_FULL,
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_STRANGER,
    EXIT_USAGE,
    BadCommand,
    BadInput,
    CompanionError,
    LedgerError,
    Message,
    OutcomeUnknown,
    RuleViolation,
    UsageError,
    cause_of,
    exit_code,
)
from companion.ledger.anchor import default_state_dir
from companion.table.service import new_game, new_request_id, open_game, recover_game, verify_game
from companion.table.view import event_lines, state_json, state_text
from companion.words import messages
from companion.words.grammar import ENV_LANG, language_from_env
from companion.words.messages import label

DEFAULT_DB = "companion-game.sqlite"
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
OPTION_FORM = {
    "en": "--option takes KEY=VALUE, not '{item}'",
    "ru": "--option ждёт КЛЮЧ=ЗНАЧЕНИЕ, а не «{item}»",
}
AS_CONFLICT = {
    "en": "--as {flag} and the line's {prefix} name two different actors; give one",
    "ru": "--as {flag} и {prefix} в начале строки называют разных участников; укажите одного",
}


def db_path(args):
    return args.db or os.environ.get("COMPANION_DB") or DEFAULT_DB


def out(text=""):
    print(text, flush=True)


def say(line, lang) -> str:
    """A warning or a report line in the language (errors.Message: its code; plain text as it is)."""
    if isinstance(line, Message):
        return messages.render(line.code, line.params, lang)
    return str(line)


def warn(table, lang):
    for warning in table.warnings:
        print(f"{label('warning', lang)}: {say(warning, lang)}", file=sys.stderr)


def stranger(table, lang) -> int:
    """Say why a stranger's game is shown read-only (on stderr); its exit code (EXIT_STRANGER), else EXIT_OK."""
    if table.readonly_reason is None:
        return EXIT_OK
    print(f"{label('warning', lang)}: {say(table.readonly_reason, lang)}", file=sys.stderr)
    return EXIT_STRANGER if table.stranger else EXIT_OK


def cmd_new(args):
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


def option_pairs(items, lang) -> dict[str, str]:
    """`--option KEY=VALUE` words as {key: value}; one line in the language for a word without `=`."""
    options = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise CompanionError(OPTION_FORM[lang].format(item=item))
        options[key] = value
    return options


def actor_of(table, name, lang, where="--as") -> str:
    """The actor `--as NAME` (or a line's `NAME:`) names: TABLE or a player as the game spells them.

    An unknown name is bad input (exit code 4), said in one line naming where it was given.
    """
    if name is None:
        return TABLE
    try:
        return table.actor_name(name)
    except BadCommand as exc:
        raise BadInput(f"{where}: " + messages.render_error(exc, lang)) from None


def parse_do(words) -> tuple[str | None, Command]:
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


def cmd_do(args):
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
            event = table.game.events[exc.seq - 1]
        out(f"#{event.seq} {event_text(event)}")
        for text in event_lines(table.rules, event, args.lang):
            out("  " + text)
        show_head(table, args)
        warn(table, args.lang)
    finally:
        table.close()


def event_text(event) -> str:
    """An event's command as a script writes it: `Anna: accept 1` for a player's, the bare command for the table's."""
    return issued(event.actor, event.command)


def legal_lines(table, actor, lang) -> list[str]:
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


def show_head(table, args):
    seq, head = table.head()
    out(f"{label('head', args.lang)}: #{seq} {table.head_words(args.lang)}")


def cmd_state(args):
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


def cmd_history(args):
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


def cmd_verify(args):
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


def cmd_accept(args):
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


def cmd_recover(args):
    table, report = recover_game(db_path(args), args.to)
    try:
        for line in report:
            out(say(line, args.lang))
        show_head(table, args)
    finally:
        table.close()


def cmd_script(args):
    from companion.table.script import read_script, run_script

    text = read_script(args.file)

    def echo(table, event):
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


def cmd_editions(args):
    for name in shipped():
        ed = load_edition(name)
        # the edition's name in the screen's language (name_en, name_ru), else as its file writes it
        shown = messages.in_language(ed.name, ed.names, args.lang)
        out(
            label(
                "edition_line", args.lang, id=name, name=shown, low=ed.players_min, high=ed.players_max, rules=ed.rules
            )
        )


def cmd_check_edition(args):
    ed = load_edition(args.file)
    out(
        label(
            "edition_ok",
            args.lang,
            file=args.file,
            name=ed.name,
            cells=len(ed.cells),
            plots=len(ed.plots),
            cards=sum(len(d) for d in ed.decks.values()),
        )
    )
    # names per language: what a screen in another language shows as the file writes it
    own = ed.language.split("-")[0].split("_")[0]
    for lang in messages.LANGUAGES:
        if lang == own:
            continue
        missing = (
            sum(1 for c in ed.cells if lang not in c.names),
            sum(1 for i in ed.industries.values() if lang not in i.names),
            sum(1 for c in ed.cards.values() if lang not in c.texts),
        )
        if any(missing):
            out(
                label(
                    "names_fallback",
                    args.lang,
                    tongue=lang,
                    cells=missing[0],
                    all_cells=len(ed.cells),
                    industries=missing[1],
                    all_industries=len(ed.industries),
                    cards=missing[2],
                    all_cards=len(ed.cards),
                )
            )
    # what is still a placeholder (docs/board-sources.md, the file's [box] marks: companion/editions/boards.py)
    from companion.editions import boards

    counts = boards.counts(ed)
    out(
        messages.render(
            "board_marks",
            {
                "total": counts.total,
                "confirmed": counts.confirmed,
                "placeholder": counts.placeholder,
                "sourced": counts.sourced,
            },
            args.lang,
        )
    )
    for sort, row in counts.by_sort.items():
        out(
            messages.render(
                "board_marks_sort", {"sort": messages.render(f"board_sort_{sort}", {}, args.lang), **row}, args.lang
            )
        )


def cmd_demo(args):
    from companion.daemon.demo import run_demo

    return run_demo(
        args.seed,
        args.lang,
        args.delay,
        args.edition,
        args.events,
        args.dir,
        args.bot,
        args.port,
        args.players,
        args.new,
    )


def cmd_bench(args):
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
    from companion.bench import engine as bench

    bench.main(args.what, args.events, args.runs)


# ----- the command line's own errors, in the chosen language ---------------------------------------
# argparse's messages (their gettext ids, as Python 3.11 to 3.13 word them) and the codes that say
# them in words (companion/words/messages.py); `argument NAME: ...` is taken apart first. A message not
# listed here (a newer Python's) is shown as argparse wrote it (usage_other).
ARGPARSE_MESSAGES = (
    ("unrecognized arguments: %(words)s", "usage_unrecognized"),
    ("the following arguments are required: %(names)s", "usage_required"),
    ("one of the arguments %(names)s is required", "usage_one_of"),
    ("ambiguous option: %(option)s could match %(matches)s", "usage_ambiguous"),
    ("invalid choice: %(value)r (choose from %(choices)s)", "usage_invalid_choice"),
    ("invalid %(type)s value: %(value)r", "usage_invalid_value"),
    ("expected one argument", "usage_expected_one"),
    ("expected at most one argument", "usage_expected_at_most_one"),
    ("expected at least one argument", "usage_expected_at_least_one"),
    ("expected %(count)s argument", "usage_expected_count"),
    ("expected %(count)s arguments", "usage_expected_count"),
    ("not allowed with argument %(other_option)s", "usage_not_allowed"),
    ("ignored explicit argument %(value)r", "usage_explicit_ignored"),
)
USAGE_CODES = sorted(
    {code for _, code in ARGPARSE_MESSAGES} | {"usage_line", "usage_other", "usage_unknown_command", "usage_no_command"}
)
ARGUMENT = re.compile(r"argument (?P<option>[^:]+): (?P<message>.+)", re.S)


def _pattern(msgid):
    """A regular expression matching a message argparse formats from msgid (its %(name)s / %(name)r)."""
    parts = re.split(r"%\((\w+)\)([sr])", msgid)
    regex = "".join(
        re.escape(part) if i % 3 == 0 else f"(?P<{part}>.+?)" if i % 3 == 1 else "" for i, part in enumerate(parts)
    )
    return re.compile(regex + r"\Z", re.S)


ARGPARSE_PATTERNS = [(_pattern(msgid), code) for msgid, code in ARGPARSE_MESSAGES]
LIST_PARAMS = ("names", "choices", "matches")


def _unquoted(text):
    """'foo' (a repr argparse wrote) -> foo; anything else as it is."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text
    return value if isinstance(value, str) else text


def usage_problem(message, commands=()):
    """What argparse said, as a Note (a code with parameters) the messages say in any language."""
    found = ARGUMENT.fullmatch(message)
    option, text = (found["option"], found["message"]) if found else (None, message)
    for pattern, code in ARGPARSE_PATTERNS:
        match = pattern.match(text)
        if not match:
            continue
        params = {k: _unquoted(v) for k, v in match.groupdict().items()}
        for key in LIST_PARAMS:
            if key in params:
                params[key] = [_unquoted(w.strip()) for w in params[key].split(",") if w.strip()]
        if code == "usage_expected_count" and not str(params["count"]).isdigit():
            break
        if "count" in params:
            params["count"] = int(params["count"])
        if option is not None:
            params["option"] = option
        if code == "usage_invalid_choice" and option == "cmd":  # the subcommand
            code, params = "usage_unknown_command", {"value": params["value"], "choices": params["choices"]}
        if code == "usage_required" and "cmd" in params["names"]:
            code, params = "usage_no_command", {"choices": list(commands)}
        if code == "usage_unrecognized":
            params["words"] = params["words"].split()
        return Note(code, params)
    return Note("usage_other", {"detail": message})


class Parser(argparse.ArgumentParser):
    """argparse, its errors raised as UsageError (one line in the chosen language, exit code 2)."""

    def error(self, message):
        commands = next((tuple(a.choices) for a in self._actions if a.dest == "cmd" and a.choices), ())
        raise UsageError("usage_line", prog=self.prog, problem=usage_problem(message, commands))

    def parse_args(self, args=None, namespace=None):
        parsed, extra = self.parse_known_args(args, namespace)
        if extra:  # what argparse says here; the hint names the subcommand whose arguments they are
            prog = f"{self.prog} {parsed.cmd}" if getattr(parsed, "cmd", None) else self.prog
            raise UsageError("usage_line", prog=prog, problem=Note("usage_unrecognized", {"words": list(extra)}))
        return parsed


def language_in(argv) -> str:
    """The language a command line asks for (its last valid --lang), before argparse reads it: a
    usage error is said in it too. Else $COMPANION_LANG, else the locale."""
    chosen = None
    for i, word in enumerate(argv):
        if word == "--":
            break
        value = (
            argv[i + 1]
            if word == "--lang" and i + 1 < len(argv)
            else word.partition("=")[2]
            if word.startswith("--lang=")
            else None
        )
        if value in messages.LANGUAGES:
            chosen = value
    return chosen or language_from_env()


def build_parser():
    ap = Parser(prog="companion", description=__doc__, epilog="exit codes: docs/exit-codes.md")
    lang = Parser(add_help=False)
    # --lang may come before or after the subcommand; without it, $COMPANION_LANG, then the locale
    lang.add_argument(
        "--lang", choices=messages.LANGUAGES, default=argparse.SUPPRESS, help="language of messages and labels (en, ru)"
    )
    ap.add_argument(
        "--lang",
        default=None,
        choices=messages.LANGUAGES,
        help=f"language of messages and labels (default ${ENV_LANG}, else the locale: "
        "LC_ALL, LC_MESSAGES or LANG ru* gives ru, anything else en)",
    )
    sub = ap.add_subparsers(dest="cmd", required=True)

    def command(name, parents=(), **kw):
        return sub.add_parser(name, parents=[lang, *parents], **kw)

    def with_db(p):
        p.add_argument("--db", help=f"game ledger file (default $COMPANION_DB or {DEFAULT_DB})")
        return p

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

    p = command("script", help="run a game script and print the final state")
    p.add_argument("file", help="the script, or - for standard input")
    p.add_argument("--db", help="keep the ledger in this file (default: in memory)")
    p.add_argument("--json", action="store_true", help="as JSON")
    p.add_argument("-v", "--verbose", action="store_true", help="print each event and its notes")
    p.set_defaults(func=cmd_script)

    command("editions", help="list shipped editions").set_defaults(func=cmd_editions)
    p = command("check-edition", help="validate an edition file")
    p.add_argument("file")
    p.set_defaults(func=cmd_check_edition)

    p = command(
        "demo",
        help="the daemon on simulated hardware and the virtual table at http://127.0.0.1:8000/ "
        "(--bot: a sample game played through the reader instead)",
    )
    p.add_argument(
        "--dir",
        help="the games folder (default: ./demo-games, kept between runs so a restart "
        "resumes the game; --bot: a fresh temporary folder)",
    )
    p.add_argument("--new", action="store_true", help="end and archive the game in play and start a fresh one")
    p.add_argument("--bot", action="store_true", help="a seeded bot plays a game through the reader and exits")
    p.add_argument("--port", type=int, default=8000, help="the virtual table's port (127.0.0.1)")
    p.add_argument(
        "--players", type=int, default=None, help="players in the game the demo starts (default 3; --bot: 4)"
    )
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--edition", default="elite")
    p.add_argument("--delay", type=float, default=0.0, help="seconds between events")
    p.add_argument("--events", type=int, default=150, help="stop and count wealth after this many events")
    p.set_defaults(func=cmd_demo)

    add_box_parsers(command, lang)

    p = command(
        "bench",
        help="benchmarks: ledger (durable commands/s), engine, open (reopen times), "
        "link (reader frame to ledger commit, replug to ready), table (tap to OLED frame rendered), "
        "web (the phone page: table view req/s against a static file, commit to 50 live pages), "
        "daemon (ROLL to booked while 8 phones export a 10,000-event game, and in a stream storm)",
    )
    p.add_argument("what", choices=("ledger", "engine", "open", "link", "table", "sim", "web", "daemon"))
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

    from companion.cli.sim import add_parser as add_sim_parser  # `companion sim` (docs/simulation.md)

    add_sim_parser(command)
    return ap


def log_internal_error(exc: BaseException) -> str:
    """Append the traceback to the internal-error log; returns where it went."""
    text = "".join(traceback.format_exception(exc))
    stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
    try:
        folder = default_state_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "internal-errors.log"
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"--- {stamp} companion {' '.join(sys.argv[1:])}\n{text}")
        return str(path)
    except OSError:
        return "standard error (the log could not be written)"


def language(args) -> str:
    """--lang if given (before or after the subcommand), else $COMPANION_LANG, else the locale."""
    return args.lang if getattr(args, "lang", None) else language_from_env()


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = build_parser().parse_args(argv)
    except UsageError as exc:
        lang = language_in(argv)
        print(f"{label('usage', lang)}: " + " ".join(messages.render_error(exc, lang).split()), file=sys.stderr)
        return EXIT_USAGE
    args.lang = language(args)
    try:
        code = args.func(args)
    except RuleViolation as exc:
        edition = getattr(args, "edition", None)
        print(f"{label('refused', args.lang)}: " + messages.render_error(exc, args.lang, edition), file=sys.stderr)
        return exit_code(exc)
    except CompanionError as exc:
        key = {6: "ledger damaged", 7: "outcome unknown", 8: "disk full", 9: "halted"}.get(exit_code(exc), "error")
        print(f"{label(key, args.lang)}: {' '.join(messages.render_error(exc, args.lang).split())}", file=sys.stderr)
        return exit_code(exc)
    except BrokenPipeError:
        # `companion history | head`: the reader left; nothing to say
        sys.stderr.close()
        return EXIT_OK
    except OSError as exc:
        # a file the command was pointed at (not the ledger, whose errors are LedgerErrors)
        full = exc.errno == errno.ENOSPC
        params = {"detail": exc.strerror or str(exc), "cause": cause_of(exc)}
        text = (
            messages.render("file_error", {"path": exc.filename, **params}, args.lang)
            if exc.filename
            else messages.render("os_error", params, args.lang)
        )
        print(f"{label('disk full' if full else 'error', args.lang)}: {text}", file=sys.stderr)
        return EXIT_DISK_FULL if full else EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print(label("interrupted", args.lang), file=sys.stderr)
        return 130
    except Exception as exc:  # the one broad catch: a bug, reported as one line and logged
        where = log_internal_error(exc)
        if where.startswith("standard error"):
            traceback.print_exception(exc, file=sys.stderr)
        print(label("internal", args.lang, kind=type(exc).__name__, where=where), file=sys.stderr)
        return EXIT_INTERNAL
    return code if isinstance(code, int) else EXIT_OK
