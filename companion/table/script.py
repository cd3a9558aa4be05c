"""Game scripts: one command per line, plus `expect` lines that check the table.

The first command is `new EDITION SEED PLAYER...`; every other line is a
command the buttons, the reader or the phone would issue, or an `expect` check
(docs/script-language.md). A command line may begin with `NAME:`, the player
who issues it (or `table`, the default): `Boris: accept 1` (docs/actors.md).
Scenario tests are scripts with hand-computed expected balances. Whatever a
script file holds, running it ends in success or one ScriptError naming the
file, the line and the problem: never a traceback.
"""

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn

from companion.engine.actions import TABLE
from companion.engine.command import needs_quotes, parse_command, split_actor
from companion.engine.game import Game
from companion.engine.state import Event, Note
from companion.errors import CompanionError, RuleViolation, Said, cause_of
from companion.table.service import PathArg, Table, new_game
from companion.words.messages import render

BOM = b"\xef\xbb\xbf"
SHOWN = 80  # characters of a failed line quoted in the error
# called with every event stored, the first (`new`) included
OnEvent = Callable[[Table, Event], object]


class ScriptError(Said, AssertionError):
    """A script that cannot run on: one line naming the file, the line number and the problem.

    The problem is a message code with its parameters (companion/words/messages.py: script_*, expect_*),
    said at the edge in the screen's language (messages.render_error); str() says it in the
    language run_script was given (`language`), English by default.
    """

    def __init__(self, source: str, line_no: int, text: str, problem: str, **params: Any) -> None:
        self.source, self.line_no, self.text = source, line_no, text
        self.reason = Note(problem, params)
        where = f"{source}:{line_no}" if line_no else f"{source}"
        if text:
            super().__init__("script_line", where=where, line=shown(text), problem=self.reason)
        else:
            super().__init__("script_file", where=where, problem=self.reason)

    @property
    def problem(self) -> str:
        """The problem alone, in the error's language."""
        words: str = render(self.reason.code, self.reason.params, self.language, self.edition)
        return words


def shown(text: str) -> str:
    """A line as it can be printed on one terminal line: escaped if odd, cut if long."""
    if not text.isprintable():
        text = text.encode("unicode_escape").decode("ascii")
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


def read_script(path: str) -> str:
    """The text of a script file, or of standard input for "-": UTF-8, a byte order mark dropped."""
    source = "<stdin>" if path == "-" else path
    data: bytes
    try:
        if path == "-":
            stream = getattr(sys.stdin, "buffer", None)
            if stream is not None:
                data = stream.read()
            elif sys.stdin is not None:
                data = sys.stdin.read().encode("utf-8", "surrogateescape")
            else:
                raise ScriptError(source, 0, "", "script_no_stdin")
        else:
            data = Path(path).read_bytes()
    except OSError as exc:
        raise ScriptError(
            source, 0, "", "script_unreadable", detail=exc.strerror or str(exc), cause=cause_of(exc)
        ) from None
    except ValueError as exc:  # a path holding a NUL byte
        raise ScriptError(source, 0, "", "script_unreadable", detail=str(exc), cause="nul_in_path") from None
    skipped = 0
    if data.startswith(BOM):
        data, skipped = data[len(BOM) :], len(BOM)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_no = data.count(b"\n", 0, exc.start) + 1
        raise ScriptError(
            source, line_no, "", "script_not_utf8", byte=f"{data[exc.start]:02x}", offset=exc.start + skipped
        ) from None


def script_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) pairs; lines end at "\\n" (a "\\r" before it is dropped), as editors count them."""
    for line_no, raw in enumerate(text.split("\n"), 1):
        yield line_no, raw[:-1] if raw.endswith("\r") else raw


def run_script(
    text: str,
    source: str = "<script>",
    db: PathArg = ":memory:",
    on_event: OnEvent | None = None,
    language: str = "en",
) -> Table:
    """Run a script; returns the Table. Raises ScriptError at the first failed line.

    on_event(table, event) is called with every event stored, the first (`new`) included.

    The ScriptError's str() is said in `language` (the command line's --lang), plots and cards
    named as the game's board names them."""
    table: Table | None = None
    try:
        for line_no, raw in script_lines(text):
            table = run_line(table, raw, line_no, source, db, on_event, language)
        if table is None:
            raise ScriptError(source, 0, "", "script_no_game")
    except BaseException as exc:
        if isinstance(exc, ScriptError):
            exc.language = language
            if exc.edition is None and table is not None:
                exc.edition = table.rules.edition
        if table is not None:
            table.close()
        raise
    return table


def run_line(
    table: Table | None,
    raw: str,
    line_no: int,
    source: str,
    db: PathArg,
    on_event: OnEvent | None,
    language: str = "en",
) -> Table | None:
    """One script line; returns the table (new after the `new` line)."""
    try:
        name, text = split_actor(raw)
        cmd = parse_command(text)
    except RuleViolation as exc:
        raise ScriptError(source, line_no, raw, "script_bad_line", refusal=exc) from None
    if cmd is None:
        if name is not None:
            raise ScriptError(source, line_no, raw, "script_what", name=name)
        return table
    line = cmd.text() if name is None else f"{name}: {cmd.text()}"
    try:
        if name is not None and cmd.verb in ("new", "expect"):
            raise ScriptError(source, line_no, line, "script_no_actor", keyword=cmd.verb)
        if cmd.verb == "new":
            if table is not None:
                raise ScriptError(source, line_no, line, "script_one_game")
            edition, seed, words = Game.parse_start(line)
            options = dict(w.split("=", 1) for w in words if "=" in w)
            players = [w for w in words if "=" not in w]
            table = new_game(db, edition, players, seed, options)
            if on_event:
                on_event(table, table.game.events[0])
            return table
        if table is None:
            raise ScriptError(source, line_no, line, "script_start")
        if cmd.verb == "expect":
            check_expect(table, cmd.args, source, line_no, line)
            return table
        event = table.submit(cmd, actor=TABLE if name is None else name)
        if on_event:
            on_event(table, event)
        return table
    except RuleViolation as exc:
        raise ScriptError(source, line_no, line, "script_refused", refusal=exc) from None
    except ScriptError:
        raise
    except CompanionError as exc:
        raise ScriptError(source, line_no, line, "script_error", error=exc) from None


# what -> (words after it, usage); `expect refused[:CODE] COMMAND...` is handled on its own
EXPECTS = {
    "cash": (2, "expect cash ACCOUNT N"),
    "owner": (2, "expect owner PLOT PLAYER|none"),
    "position": (2, "expect position PLAYER CELL"),
    "level": (2, "expect level PLOT N"),
    "held": (3, "expect held PLAYER ITEM N"),
    "extra": (2, "expect extra KEY VALUE"),
    "turn": (1, "expect turn PLAYER"),
    "pending": (1, "expect pending KIND|none"),
    "debt": (2, "expect debt PLAYER N"),
    "mortgaged": (2, "expect mortgaged PLOT yes|no"),
    "detained": (2, "expect detained PLAYER yes|no"),
    "alive": (2, "expect alive PLAYER yes|no"),
    "winner": (1, "expect winner PLAYER|none"),
    "note": (1, "expect note CODE"),
}


def check_expect(table: Table, args: tuple[str, ...], source: str, line_no: int, line: str) -> None:
    """Check one `expect` line against the table; a ScriptError says what differs or what is wrong."""
    s = table.state
    rules = table.rules

    def fail(problem: str, **params: Any) -> NoReturn:
        raise ScriptError(source, line_no, line, problem, **params)

    def player(name: str) -> str:
        for p in s.players:
            if p.lower() == name.lower():
                return p
        fail("expect_no_player", name=name, players=list(s.players))

    def account(name: str) -> str:
        for a in (*s.players, *rules.SYSTEM_ACCOUNTS, *s.balances):
            if a.lower() == name.lower():
                return a
        fail("expect_no_account", name=name, players=list(s.players), accounts=list(rules.SYSTEM_ACCOUNTS))

    def plot(ref: str) -> str:
        cell = rules.edition.cell(ref)
        if cell is None or cell.kind != "plot":
            fail("expect_no_plot", ref=ref)
        found: str = cell.id
        return found

    def number(text: str, signed: bool = False) -> int:
        digits = text[1:] if signed and text.startswith("-") else text
        if not (digits.isascii() and digits.isdigit()):
            fail("expect_not_number", word=text)
        return int(text)

    def yes_no(text: str) -> bool:
        if text not in ("yes", "no"):
            fail("expect_yes_no", word=text)
        return text == "yes"

    if not args:
        fail("expect_what")
    what, rest = args[0], args[1:]
    if what == "refused" or what.startswith("refused:"):
        code = what.split(":", 1)[1] if ":" in what else None
        if not rest:
            fail("expect_usage", usage="expect refused[:CODE] [NAME:] COMMAND...")
        name, text = split_actor(" ".join(f'"{w}"' if needs_quotes(w) else w for w in rest))
        command = parse_command(text)
        if command is None:
            fail("expect_usage", usage="expect refused[:CODE] [NAME:] COMMAND...")
        actor = TABLE if name is None else table.actor_name(name)
        try:
            table.game.propose(command, actor)
        except RuleViolation as exc:
            if code and exc.code != code:
                fail("expect_refused_other", actual=exc.code, refusal=exc, expected=code)
            return
        fail("expect_accepted")
    if what not in EXPECTS:
        fail("expect_unknown", expectation=what, known=["refused", *EXPECTS])
    count, usage = EXPECTS[what]
    if len(rest) != count:
        fail("expect_usage", usage=usage)
    want: object  # what the line expects and what the game has: a number, a name or yes/no
    got: object
    if what == "cash":
        name, want = account(rest[0]), number(rest[1], signed=True)
        got = s.cash(name)
        if got != want:
            fail("expect_cash", account=name, actual=got, wanted=want)
    elif what == "owner":
        pid = plot(rest[0])
        want = "none" if rest[1].lower() == "none" else player(rest[1])
        got = s.owner.get(pid) or "none"
        if got != want:
            fail("expect_owner", ref=rest[0], actual=got, wanted=want)
    elif what == "position":
        p = player(rest[0])
        cell = rules.edition.cell(rest[1])
        if cell is None:
            fail("expect_no_cell", ref=rest[1])
        at = rules.edition.cells[s.position[p]]
        if at.index != cell.index:
            fail("expect_position", player=p, got_cell=at.id, want_cell=cell.id)
    elif what == "level":
        pid, want = plot(rest[0]), number(rest[1])
        got = s.level.get(pid, 0)
        if got != want:
            fail("expect_level", ref=rest[0], actual=got, wanted=want)
    elif what == "held":
        p, item, want = player(rest[0]), rest[1], number(rest[2])
        got = s.held(p, item)
        if got != want:
            fail("expect_held", player=p, actual=got, held_item=item, wanted=want)
    elif what == "extra":
        got = s.extra.get(rest[0])
        if str(got) != rest[1]:
            fail("expect_extra", key=rest[0], actual=None if got is None else str(got), wanted=rest[1])
    elif what == "turn":
        p = player(rest[0])
        if s.turn != p:
            fail("expect_turn", actual=s.turn, wanted=p)
    elif what == "pending":
        got = s.pending.kind if s.pending else "none"
        if got != rest[0]:
            fail("expect_pending", got_pending=got, want_pending=rest[0])
    elif what == "debt":
        p, want = player(rest[0]), number(rest[1])
        got = sum(d.amount for d in s.debts if d.debtor == p)
        if got != want:
            fail("expect_debt", player=p, actual=got, wanted=want)
    elif what in ("mortgaged", "detained", "alive"):
        key = plot(rest[0]) if what == "mortgaged" else player(rest[0])
        want = yes_no(rest[1])
        members = {"mortgaged": s.mortgaged, "detained": s.detained, "alive": s.alive}[what]
        got = key in members
        if got != want:
            fail("expect_flag", subject=rest[0], flag=what, actual="yes" if got else "no", wanted=rest[1])
    elif what == "winner":
        got = s.winner or "none"
        if got.lower() != rest[0].lower():
            fail("expect_winner", actual=got, wanted=rest[0])
    elif what == "note":
        last = table.game.events[-1]
        codes = [n.code for n in last.notes]
        if rest[0] not in codes:
            fail("expect_note", codes=codes, note=rest[0])
