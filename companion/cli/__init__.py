"""The `companion` command: start a game, apply commands, show state and history, check and recover ledgers."""

# The first line above is `companion --help`'s description. This module holds only the entry point: the
# parser is assembled from the command groups (each module's add_parsers, in the order --help lists
# them), and main turns what a command raises into one line in the chosen language and an exit code
# (docs/exit-codes.md). What the groups share is in common.py; no group imports another.

import argparse
import errno
import sys
import traceback
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any

from companion.cli import backup, bench, box, demo, doctor, editions, firmware, game, ledger, script, sim
from companion.cli.common import USAGE_CODES, Parser, language, language_in
from companion.errors import (
    EXIT_BAD_INPUT,
    EXIT_DISK_FULL,
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_USAGE,
    CompanionError,
    RuleViolation,
    UsageError,
    cause_of,
    exit_code,
)
from companion.ledger.anchor import default_state_dir
from companion.words import messages
from companion.words.grammar import ENV_LANG
from companion.words.messages import label

__all__ = ["USAGE_CODES", "build_parser", "main"]  # USAGE_CODES: read by tests/test_messages.py

GROUPS = (game, ledger, script, editions, demo, box, backup, doctor, firmware, bench, sim)


def build_parser() -> Parser:
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

    def command(name: str, parents: Any = (), **kw: Any) -> argparse.ArgumentParser:
        return sub.add_parser(name, parents=[lang, *parents], **kw)

    for group in GROUPS:
        group.add_parsers(command, lang)
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


def main(argv: Sequence[str] | None = None) -> int:
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
