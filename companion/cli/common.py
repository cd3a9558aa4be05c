"""What every command group shares: the parser and its usage errors in words, the language, output, the daemon's socket."""

import argparse
import ast
import os
import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn, Protocol

from companion.daemon.control import Unanswered, ask
from companion.engine.actions import issued
from companion.engine.state import Note
from companion.errors import (
    EXIT_OK,
    EXIT_STRANGER,
    CompanionError,
    LedgerError,
    Message,
    OutcomeUnknown,
    UsageError,
)
from companion.words import messages
from companion.words.grammar import language_from_env
from companion.words.messages import label

if TYPE_CHECKING:
    from companion.table.service import Table

DEFAULT_DB = "companion-game.sqlite"
OPTION_FORM = {
    "en": "--option takes KEY=VALUE, not '{item}'",
    "ru": "--option ждёт КЛЮЧ=ЗНАЧЕНИЕ, а не «{item}»",
}
# longer than the daemon's longest wait for its writer (daemon.answer_seconds, at most 50 s), so its own
# answer ("nothing was done" or "outcome unknown") comes first
ASK_TIMEOUT_S = 60.0


class CommandFactory(Protocol):
    """`companion`'s subparser factory handed to every group's add_parsers: each subcommand gets --lang too."""

    def __call__(
        self, name: str, parents: Sequence[argparse.ArgumentParser] = (), **kw: Any
    ) -> argparse.ArgumentParser: ...


# ----- a game's ledger file and what is said about it --------------------------------------------------------


def with_db(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The --db option of a command that works on one game's ledger file."""
    p.add_argument("--db", help=f"game ledger file (default $COMPANION_DB or {DEFAULT_DB})")
    return p


def db_path(args: argparse.Namespace) -> str:
    return str(args.db or os.environ.get("COMPANION_DB") or DEFAULT_DB)


def out(text: str = "") -> None:
    print(text, flush=True)


def say(line: object, lang: str) -> str:
    """A warning or a report line in the language (errors.Message: its code; plain text as it is)."""
    if isinstance(line, Message):
        return str(messages.render(line.code, line.params, lang))
    return str(line)


def warn(table: "Table", lang: str) -> None:
    for warning in table.warnings:
        print(f"{label('warning', lang)}: {say(warning, lang)}", file=sys.stderr)


def stranger(table: "Table", lang: str) -> int:
    """Say why a stranger's game is shown read-only (on stderr); its exit code (EXIT_STRANGER), else EXIT_OK."""
    if table.readonly_reason is None:
        return EXIT_OK
    print(f"{label('warning', lang)}: {say(table.readonly_reason, lang)}", file=sys.stderr)
    return EXIT_STRANGER if table.stranger else EXIT_OK


def show_head(table: "Table", args: argparse.Namespace) -> None:
    seq, head = table.head()
    out(f"{label('head', args.lang)}: #{seq} {table.head_words(args.lang)}")


def event_text(event: Any) -> str:
    """An event's command as a script writes it: `Anna: accept 1` for a player's, the bare command for the table's."""
    return issued(event.actor, event.command)


def option_pairs(items: Sequence[str] | None, lang: str) -> dict[str, str]:
    """`--option KEY=VALUE` words as {key: value}; one line in the language for a word without `=`."""
    options = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise CompanionError(OPTION_FORM[lang].format(item=item))
        options[key] = value
    return options


# ----- the box's daemon, when it holds the game ------------------------------------------------------------


def through_daemon(holder: dict[str, Any], where: str, request: dict[str, Any], lang: str) -> dict[str, Any]:
    """Ask the daemon; its answer, or one line saying it holds `where` and did not answer (or, for a
    booking that may have reached it, that its outcome is unknown)."""
    try:
        answer: dict[str, Any] = ask(holder.get("socket", ""), {**request, "lang": lang}, timeout=ASK_TIMEOUT_S)
    except TimeoutError:
        if request.get("request_id"):  # it may be under way: only the ledger can say, by its id
            raise OutcomeUnknown("owner_late", request_id=request["request_id"], seconds=f"{ASK_TIMEOUT_S:g}") from None
        raise LedgerError(
            "daemon_silent", path=where, pid=holder.get("pid", "?"), socket=holder.get("socket", "?")
        ) from None
    except Unanswered:
        if request.get("request_id"):  # it took the line and went (killed, stopped): it may have booked it
            raise OutcomeUnknown("daemon_gone", request_id=request["request_id"]) from None
        raise LedgerError(
            "daemon_silent", path=where, pid=holder.get("pid", "?"), socket=holder.get("socket", "?")
        ) from None
    except (OSError, ValueError):
        raise LedgerError(
            "daemon_silent", path=where, pid=holder.get("pid", "?"), socket=holder.get("socket", "?")
        ) from None
    return answer


def said(answer: dict[str, Any], lang: str) -> int:
    """Print a daemon's refusal or error as the direct path would; its exit code."""
    code = answer.get("exit", 4)
    code = code if isinstance(code, int) else 4
    key = (
        "refused"
        if answer.get("refused")
        else {6: "ledger damaged", 7: "outcome unknown", 8: "disk full", 9: "halted"}.get(code, "error")
    )
    print(f"{label(key, lang)}: {' '.join(str(answer.get('message', '?')).split())}", file=sys.stderr)
    return code


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


def _pattern(msgid: str) -> re.Pattern[str]:
    """A regular expression matching a message argparse formats from msgid (its %(name)s / %(name)r)."""
    parts = re.split(r"%\((\w+)\)([sr])", msgid)
    regex = "".join(
        re.escape(part) if i % 3 == 0 else f"(?P<{part}>.+?)" if i % 3 == 1 else "" for i, part in enumerate(parts)
    )
    return re.compile(regex + r"\Z", re.S)


ARGPARSE_PATTERNS = [(_pattern(msgid), code) for msgid, code in ARGPARSE_MESSAGES]
LIST_PARAMS = ("names", "choices", "matches")


def _unquoted(text: str) -> str:
    """'foo' (a repr argparse wrote) -> foo; anything else as it is."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text
    return value if isinstance(value, str) else text


def usage_problem(message: str, commands: Sequence[str] = ()) -> Note:
    """What argparse said, as a Note (a code with parameters) the messages say in any language."""
    found = ARGUMENT.fullmatch(message)
    option, text = (found["option"], found["message"]) if found else (None, message)
    for pattern, code in ARGPARSE_PATTERNS:
        match = pattern.match(text)
        if not match:
            continue
        params: dict[str, Any] = {k: _unquoted(v) for k, v in match.groupdict().items()}
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

    def error(self, message: str) -> NoReturn:
        commands = next((tuple(a.choices) for a in self._actions if a.dest == "cmd" and a.choices), ())
        raise UsageError("usage_line", prog=self.prog, problem=usage_problem(message, commands))

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        parsed, extra = self.parse_known_args(args, namespace)
        if extra:  # what argparse says here; the hint names the subcommand whose arguments they are
            prog = f"{self.prog} {parsed.cmd}" if getattr(parsed, "cmd", None) else self.prog
            raise UsageError("usage_line", prog=prog, problem=Note("usage_unrecognized", {"words": list(extra)}))
        return parsed


# ----- the language ------------------------------------------------------------------------------------------


def language_in(argv: Sequence[str]) -> str:
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


def language(args: argparse.Namespace) -> str:
    """--lang if given (before or after the subcommand), else $COMPANION_LANG, else the locale."""
    return str(args.lang) if getattr(args, "lang", None) else language_from_env()
