"""The exception tree: expected operating errors versus broken invariants."""


class CompanionError(Exception):
    """Root of every error the companion raises on purpose."""


class RuleViolation(CompanionError, ValueError):
    """A command the rules forbid. Expected: shown to the players, nothing changes.

    The reason is a message code with parameters, rendered to text at the edge
    (see companion.messages) so every screen can speak its own language.
    """

    def __init__(self, code, **params):
        self.code = code
        self.params = params
        super().__init__(f"{code} {params}")


class BadCommand(RuleViolation):
    """A command line that does not parse (unknown verb, wrong arguments)."""


class EditionError(CompanionError, ValueError):
    """An edition data file that is missing, malformed or inconsistent."""

    def __init__(self, source, key, problem):
        self.source, self.key, self.problem = source, key, problem
        super().__init__(f"{source}: {key}: {problem}")


class LedgerError(CompanionError, RuntimeError):
    """The ledger file cannot be used (wrong schema, another game, unreadable)."""


class InvariantViolation(CompanionError, AssertionError):
    """A broken invariant: a bug. The daemon stops writing and says so."""


def check(condition, message):
    """An assertion that stays on under -O (TigerBeetle style)."""
    if not condition:
        raise InvariantViolation(message)
