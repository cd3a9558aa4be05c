"""Game scripts: one command per line, plus `expect` lines that check the table.

The first command is `new EDITION SEED PLAYER...`; every other line is a
command the buttons, the reader or the phone would issue, or an `expect` check
(docs/script-language.md). Scenario tests are scripts with hand-computed
expected balances.
"""
from companion.errors import CompanionError, RuleViolation
from companion.engine.core import parse_line
from companion.engine.game import Game
from companion.ledger.store import new_game
from companion.messages import render_error


class ScriptError(CompanionError, AssertionError):
    def __init__(self, source, line_no, text, problem):
        self.source, self.line_no, self.text, self.problem = source, line_no, text, problem
        super().__init__(f"{source}:{line_no}: {text}\n    {problem}")


def run_script(text, source="<script>", db=":memory:", on_event=None):
    """Run a script; returns the Table. Raises ScriptError at the first failed line."""
    table = None
    for line_no, raw in enumerate(text.splitlines(), 1):
        verb, args = parse_line(raw)
        if verb is None:
            continue
        line = raw.split("#", 1)[0].strip()
        try:
            if verb == "new":
                if table is not None:
                    raise ScriptError(source, line_no, line, "a script plays one game")
                edition, seed, words = Game.parse_start(line)
                options = dict(w.split("=", 1) for w in words if "=" in w)
                players = [w for w in words if "=" not in w]
                table = new_game(db, edition, players, seed, options)
                if on_event:
                    on_event(table.game.events[0])
                continue
            if table is None:
                raise ScriptError(source, line_no, line, "the script must start with `new EDITION SEED PLAYER...`")
            if verb == "expect":
                check_expect(table, args, source, line_no, line)
                continue
            event = table.submit(line)
            if on_event:
                on_event(event)
        except RuleViolation as exc:
            edition = table.rules.edition if table else None
            raise ScriptError(source, line_no, line, "refused: " + render_error(exc, "en", edition)) from None
        except ScriptError:
            raise
        except CompanionError as exc:
            raise ScriptError(source, line_no, line, str(exc)) from None
    if table is None:
        raise ScriptError(source, 0, "", "the script holds no game")
    return table


def check_expect(table, args, source, line_no, line):
    s = table.state
    rules = table.rules

    def fail(problem):
        raise ScriptError(source, line_no, line, problem)

    if not args:
        fail("expect what?")
    what, rest = args[0], args[1:]
    if what == "refused" or what.startswith("refused:"):
        code = what.split(":", 1)[1] if ":" in what else None
        command = " ".join(rest)
        try:
            table.game.propose(command)
        except RuleViolation as exc:
            if code and exc.code != code:
                fail(f"refused with {exc.code} {exc.params}, expected {code}")
            return
        fail("the command was accepted")
    if what == "cash" and len(rest) == 2:
        account = next((p for p in s.players if p.lower() == rest[0].lower()), rest[0])
        got = s.cash(account)
        if got != int(rest[1]):
            fail(f"{account} has {got}, expected {rest[1]}")
    elif what == "owner" and len(rest) == 2:
        cell = rules.edition.cell(rest[0])
        got = s.owner.get(cell.id if cell else rest[0]) or "none"
        if got.lower() != rest[1].lower():
            fail(f"{rest[0]} is owned by {got}, expected {rest[1]}")
    elif what == "position" and len(rest) == 2:
        got = rules.edition.cells[s.position[rest[0]]].id
        if got != rest[1]:
            fail(f"{rest[0]} is on {got}, expected {rest[1]}")
    elif what == "level" and len(rest) == 2:
        got = s.level.get(rest[0], 0)
        if got != int(rest[1]):
            fail(f"{rest[0]} has level {got}, expected {rest[1]}")
    elif what == "held" and len(rest) == 3:
        got = s.held(rest[0], rest[1])
        if got != int(rest[2]):
            fail(f"{rest[0]} holds {got} {rest[1]}, expected {rest[2]}")
    elif what == "extra" and len(rest) == 2:
        got = s.extra.get(rest[0])
        if str(got) != rest[1]:
            fail(f"{rest[0]} is {got}, expected {rest[1]}")
    elif what == "turn" and len(rest) == 1:
        if s.turn != rest[0]:
            fail(f"it is {s.turn}'s turn, expected {rest[0]}")
    elif what == "pending" and len(rest) == 1:
        got = s.pending.kind if s.pending else "none"
        if got != rest[0]:
            fail(f"waiting for {got}, expected {rest[0]}")
    elif what == "debt" and len(rest) == 2:
        got = sum(d.amount for d in s.debts if d.debtor == rest[0])
        if got != int(rest[1]):
            fail(f"{rest[0]} owes {got}, expected {rest[1]}")
    elif what in ("mortgaged", "detained", "alive") and len(rest) == 2:
        members = {"mortgaged": s.mortgaged, "detained": s.detained, "alive": s.alive}[what]
        got = "yes" if rest[0] in members else "no"
        if got != rest[1]:
            fail(f"{rest[0]} {what}: {got}, expected {rest[1]}")
    elif what == "winner" and len(rest) == 1:
        if (s.winner or "none") != rest[0]:
            fail(f"winner is {s.winner}, expected {rest[0]}")
    elif what == "note" and len(rest) == 1:
        last = table.game.events[-1]
        codes = [n.code for n in last.notes]
        if rest[0] not in codes:
            fail(f"the last event says {codes}, not {rest[0]}")
    else:
        fail("unknown expectation (see docs/script-language.md)")
