"""What every part of the phone page's service shares: its refusals, its one-line wording, a few limits."""

from typing import Any

from companion.words import messages

# a phone remembers the head it saw as its seq and this many hex digits of its hash: the same in every language
# (the head's words are the phone's language's, so comparing them across a language switch cried "forked")
MARK_LENGTH = 12
LEDGER_PAGE = 100  # events on one page of the ledger view
CACHE_LIMIT = 2000  # converted events and remembered action results kept
READ_CHUNK = 500  # events read from the ledger at a time by a long read (an export, a player's history)


class Refused(ValueError):
    """A refusal in one line: bad input or the rules said no (HTTP 400, or `status`)."""

    def __init__(self, line: str, status: int = 400):
        super().__init__(" ".join(line.split()))
        self.status = status


class WrongRole(PermissionError):
    """The phone's role may not do this (HTTP 403)."""

    def __init__(self, line: str):
        super().__init__(" ".join(line.split()))
        self.status = 403


def say(code: str, language: str, **params: Any) -> str:
    return messages.render(code, params, language)
