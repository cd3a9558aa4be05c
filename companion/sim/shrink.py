"""A broken invariant in a simulated game, shrunk to a 1-minimal script that still breaks it.

The game's lines up to the failing one are cut down by delta debugging (Zeller's ddmin:
drop chunks, then single lines) until removing any one line stops the failure from
happening: a line is refused, or the game ends without breaking the same invariant. The
result is a `companion script` file (the `new` line keeps the edition, seed, players and
options); `confirm` runs it through the script runner, exactly as `companion script` does.
"""

from __future__ import annotations

from functools import lru_cache

from companion.editions import load_edition, rules_for
from companion.engine.actions import TABLE
from companion.engine.command import parse_command, split_actor
from companion.engine.game import Game
from companion.errors import CompanionError, InvariantViolation

MAX_TESTS = 20000  # replays one shrink may spend (a long game shrinks in seconds; this only bounds it)


@lru_cache(maxsize=16)
def _rules(edition: str, options: tuple):
    return rules_for(load_edition(edition, dict(options) or None))


def start(first: str) -> Game:
    """The game a script's `new EDITION SEED PLAYER... KEY=VALUE...` line starts."""
    edition, seed, words = Game.parse_start(first)
    options = tuple(sorted(w.split("=", 1) for w in words if "=" in w))
    players = [w for w in words if "=" not in w]
    return Game.start(_rules(edition, tuple(tuple(o) for o in options)), seed, players)


def failure_of(lines: list[str]) -> str | None:
    """The invariant message the lines end in (replayed on the engine alone), or None: a refused
    line, a bad line, or no broken invariant."""
    try:
        game = start(lines[0])
        for raw in lines[1:]:
            name, text = split_actor(raw)
            cmd = parse_command(text)
            if cmd is None:
                return None
            game.apply(cmd, TABLE if name is None else name)
    except InvariantViolation as exc:
        return str(exc)
    except CompanionError:
        return None
    except Exception as exc:  # a crash in the rules is a bug too: shrunk the same way
        return crash_message(exc)
    return None


def crash_message(exc: BaseException) -> str:
    """How a crash (an exception that is no CompanionError) is named in a failure."""
    return f"{type(exc).__name__}: {exc}"


def shrink(lines: list[str], message: str, budget: int = MAX_TESTS) -> list[str]:
    """A 1-minimal subsequence of `lines` (the first, `new`, always kept) that still ends in `message`."""
    tests = 0

    def still(body: list[str]) -> bool:
        nonlocal tests
        tests += 1
        return failure_of([lines[0], *body]) == message

    body = list(lines[1:])
    if not still(body):
        raise ValueError("the lines do not reproduce the failure")
    n = 2
    while len(body) >= 2 and tests < budget:
        chunk = max(1, len(body) // n)
        reduced = False
        for start_at in range(0, len(body), chunk):
            rest = body[:start_at] + body[start_at + chunk :]
            if rest and still(rest):
                body, n, reduced = rest, max(n - 1, 2), True
                break
        if not reduced:
            if chunk == 1:
                break
            n = min(len(body), 2 * n)
    # the last pass: no single line may go (ddmin's end state, checked once more line by line)
    changed = True
    while changed and tests < budget:
        changed = False
        for i in range(len(body)):
            rest = body[:i] + body[i + 1 :]
            if still(rest):
                body, changed = rest, True
                break
    return [lines[0], *body]


def confirm(lines: list[str]) -> str | None:
    """What `companion script` says the lines end in: the broken invariant's message, or None."""
    from companion.table.script import ScriptError, run_script

    try:
        table = run_script("\n".join(lines) + "\n", source="<shrunk>")
    except ScriptError as exc:
        error = exc.reason.params.get("error")
        return str(error) if isinstance(error, InvariantViolation) else None
    except CompanionError:
        return None
    except Exception as exc:
        return crash_message(exc)
    table.close()
    return None
