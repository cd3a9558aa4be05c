"""The exception tree: expected operating errors versus broken invariants, and their exit codes.

Errors carry a message code and its parameters; the words are chosen at the edge. This package imports
no wording (the engine imports it, and the words import the engine's board): the words package hands
its `render` to `set_renderer` when it is imported (companion/words/messages.py), and `str()` of a
coded error speaks through it; before that (a process that never imported the words) an error says
its code and parameters.
"""

import errno
from collections.abc import Callable
from typing import Any

# render(code, params, language, edition) -> the line in words; set by companion.words.messages
Renderer = Callable[[str, dict[str, Any], str, Any], str]
_renderer: Renderer | None = None


def set_renderer(render: Renderer | None) -> None:
    """The function that says a code in words (the words package registers its own at import)."""
    global _renderer
    _renderer = render


def said_in(code: str, params: dict[str, Any], language: str = "en", edition: Any = None) -> str:
    """A code and its parameters in words through the registered renderer, else as `code {params}`."""
    if _renderer is None:
        return f"{code} {params}"
    return _renderer(code, params, language, edition)


class CompanionError(Exception):
    """Root of every error the companion raises on purpose."""


class Said(CompanionError):
    """An error said as a message code with parameters, like a refusal (the ledger's, scripts', usage).

    The words are chosen at the edge: `companion.words.messages.render_error(exc, language)` says it in
    the screen's language. `str()` gives the English words (for logs, tracebacks and tests); that
    is the only place an error reaches for the templates itself, and only when it is printed.
    """

    code: str
    params: dict[str, Any]
    language = "en"  # the language str() speaks
    edition: Any = None  # the game's edition, when names in the message are its plots and cells

    def __init__(self, code: str, **params: Any) -> None:
        self.code, self.params = code, params
        super().__init__(code)

    def __str__(self) -> str:
        return said_in(self.code, self.params, self.language, self.edition)


class Message(str):
    """A line for people (a warning, a line of a report) kept as its code and parameters.

    As a str it is the English words; a screen in another language says it again with
    `companion.words.messages.render(line.code, line.params, language)`.
    """

    code: str
    params: dict[str, Any]

    def __new__(cls, code: str, **params: Any) -> "Message":
        line = super().__new__(cls, said_in(code, params, "en"))
        line.code, line.params = code, params
        return line


class RuleViolation(CompanionError, ValueError):
    """A command the rules forbid. Expected: shown to the players, nothing changes.

    The reason is a message code with parameters, rendered to text at the edge
    (see companion.words.messages) so every screen can speak its own language.
    """

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(f"{code} {params}")


class BadCommand(RuleViolation):
    """A command line that does not parse (unknown verb, wrong arguments)."""


class BadInput(CompanionError, ValueError):
    """A damaged, foreign or malformed input file or value (script, edition file, option)."""


class EditionError(BadInput):
    """An edition data file that is missing, malformed or inconsistent."""

    def __init__(self, source: str, key: str, problem: str) -> None:
        self.source, self.key, self._problem = source, key, problem
        super().__init__(f"{source}: {key}: {problem}")

    @property
    def problem(self) -> str:
        """What is wrong, in English words (EditionProblem says it from its code when it is read)."""
        return self._problem


class SaidInput(Said, BadInput):
    """Bad input said as a message code (a configuration file, a card's UID, the card map, the control
    socket): one line in the screen's language at the edge, the English words from str()."""


class EditionProblem(EditionError):
    """An EditionError said as a message code (`edition_*` in companion/words/locale/*/LC_MESSAGES/messages.po), each template
    the whole line with its file and key, so a language may say the key or leave it out.

    `source`, `key` and `problem` stay what an EditionError holds (the English words, as before);
    messages.render_error says it in the screen's language from `code` and `params`. The English
    `problem` is said when it is read, not when the loader raises (the engine's loader raises these,
    and the engine imports no words).
    """

    def __init__(self, code: str, source: str, key: str, **params: Any) -> None:
        self.code, self.params = code, {"source": source, "key": key, **params}
        self.source, self.key = source, key
        BadInput.__init__(self, code)

    @property
    def problem(self) -> str:
        line = said_in(self.code, self.params, "en")
        prefix = f"{self.source}: {self.key}: "
        return line[len(prefix) :] if line.startswith(prefix) else line

    def __str__(self) -> str:
        return f"{self.source}: {self.key}: {self.problem}"


class UsageError(Said):
    """A command line that does not fit the `companion` command (unknown command, missing or
    unrecognized arguments): what argparse found, said as a message code (see companion/cli/__init__.py)."""


class LedgerError(Said, RuntimeError):
    """The ledger file cannot be used now (no game in it, locked, read-only, another writer).

    Said as a message code with parameters (the file's path among them): `LedgerError("no_game",
    path=...)`; companion/words/locale/ holds the words in every language.
    """


class LedgerDamaged(LedgerError):
    """The file is not an intact ledger: foreign, corrupt, truncated or tampered with.

    Nothing is written to it; `companion recover` starts a visible new game
    from the last verified event.
    """


class StrangerGame(LedgerError):
    """A ledger this machine never kept (no anchor here, or another game at this place): shown read-only,
    nothing booked on it until a person accepts it (`companion accept`)."""


class DiskFull(LedgerError):
    """The disk holding the ledger is full: nothing was written."""


class OutcomeUnknown(LedgerError):
    """An error struck at or after COMMIT: the event may or may not be stored.

    The table writes nothing more until a later sync of the file tells which;
    a retry with the same request id is always answered from the ledger.
    """

    def __init__(
        self,
        code: str,
        seq: int | None = None,
        request_id: str | None = None,
        command: str | None = None,
        **params: Any,
    ) -> None:
        self.seq, self.request_id, self.command = seq, request_id, command
        self.write_failed = False  # the -wal write itself ran out of space (see Table.submit)
        known = {"seq": seq, "request_id": request_id, "command": command}
        super().__init__(code, **{k: v for k, v in known.items() if v is not None}, **params)


class InvariantViolation(CompanionError, AssertionError):
    """A broken invariant: a bug. The daemon stops writing and says so."""


def check(condition: object, message: str) -> None:
    """An assertion that stays on under -O (TigerBeetle style)."""
    if not condition:
        raise InvariantViolation(message)


# Exit codes of the `companion` command (docs/exit-codes.md); distinct so scripts can tell them apart.
EXIT_OK = 0
EXIT_USAGE = 2  # the command line itself is wrong (argparse)
EXIT_REFUSED = 3  # the rules refused the command; nothing changed
EXIT_BAD_INPUT = 4  # a damaged or malformed input: script, edition file, option, missing file
EXIT_LEDGER = 5  # the ledger cannot be used now: no game, locked, read-only, another writer
EXIT_DAMAGED = 6  # the ledger is damaged, foreign or tampered with: see `companion recover`
EXIT_UNKNOWN = 7  # the outcome of the last write is unknown: retry with the same request id
EXIT_DISK_FULL = 8  # the disk is full: nothing was written
EXIT_HALTED = 9  # a broken invariant halted the bank (a bug)
EXIT_STRANGER = 10  # a stranger's game: shown (and checked) read-only, not this machine's until accepted
EXIT_INTERNAL = 70  # an unexpected exception: "internal error", traceback in the log


def cause_of(exc: BaseException) -> str | None:
    """The code naming what the OS or SQLite said (ENOENT, SQLITE_IOERR_SHORT_READ), for a message's
    `detail` to be said in words (companion.words.messages.DETAILS); None when there is none."""
    name = getattr(exc, "sqlite_errorname", None)
    if isinstance(name, str):
        return name
    number = getattr(exc, "errno", None)
    return errno.errorcode.get(number) if isinstance(number, int) else None


def exit_code(exc: BaseException) -> int:
    """The exit code for an error the companion raised on purpose (most specific first)."""
    for kind, code in (
        (UsageError, EXIT_USAGE),
        (OutcomeUnknown, EXIT_UNKNOWN),
        (DiskFull, EXIT_DISK_FULL),
        (StrangerGame, EXIT_STRANGER),
        (LedgerDamaged, EXIT_DAMAGED),
        (LedgerError, EXIT_LEDGER),
        (InvariantViolation, EXIT_HALTED),
        (RuleViolation, EXIT_REFUSED),
        (BadInput, EXIT_BAD_INPUT),
        (CompanionError, EXIT_BAD_INPUT),
    ):
        if isinstance(exc, kind):
            return code
    return EXIT_INTERNAL
