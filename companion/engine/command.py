"""One command line parsed once at the edge: words, double quotes, comments, and the canonical text.

The syntax (docs/script-language.md): words are separated by spaces; a word
holding spaces or `#` is written in double quotes ("Anna Maria"); `#` outside
quotes starts a comment; a line is at most MAX_LINE characters and holds no
control or invisible character (tab, NUL, non-breaking space, zero-width or
direction marks). The verb is lower-cased. Anything else is refused with a
BadCommand, never guessed at, so a typo cannot turn into a different command.
"""

from dataclasses import dataclass

from companion.errors import BadCommand

MAX_LINE = 200  # characters in one line, comment included: longer is refused, not cut
QUOTE = '"'
COMMENT = "#"


@dataclass(frozen=True)
class Command:
    """A parsed command: the lower-case verb and its argument words, quotes removed."""

    verb: str
    args: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # normalised and checked here so every Command has a text that parses back to it
        # (one join and a few scans of it: every command of the hot path is built here)
        if not isinstance(self.verb, str):
            raise TypeError(f"a command verb must be text, not {self.verb!r}")
        object.__setattr__(self, "verb", self.verb.lower())
        if type(self.args) is not tuple:
            object.__setattr__(self, "args", tuple(self.args))
        words = (self.verb, *self.args)
        joined = " ".join(words)  # a TypeError for a word that is not text
        if QUOTE in joined or "" in words or not joined.isprintable():
            for word in words:
                check_word(word)
        if len(joined) + 2 * len(words) > MAX_LINE and len(self.text()) > MAX_LINE:
            raise BadCommand("line_too_long", length=len(self.text()), limit=MAX_LINE)

    def text(self) -> str:
        """The canonical line: one space between words, quotes only where a word needs them."""
        return " ".join(f'"{w}"' if needs_quotes(w) else w for w in (self.verb, *self.args))


def needs_quotes(word: str) -> bool:
    return " " in word or COMMENT in word


def check_word(word: str) -> None:
    if not word:
        raise BadCommand("empty_word", position=0)
    if QUOTE in word:
        raise BadCommand("stray_quote", position=word.index(QUOTE) + 1)
    if not word.isprintable():
        check_characters(word)


def check_characters(text: str) -> None:
    """Refuse control characters and invisible ones (only the plain space separates words)."""
    for i, ch in enumerate(text):
        if not ch.isprintable():
            raise BadCommand("bad_character", char=f"U+{ord(ch):04X}", position=i + 1)


def parse_command(text: str) -> Command | None:
    """The Command on this line, or None for a blank or comment-only line; BadCommand if malformed."""
    if len(text) > MAX_LINE:
        raise BadCommand("line_too_long", length=len(text), limit=MAX_LINE)
    if not text.isprintable():
        check_characters(text)
    if QUOTE in text:
        words = split_quoted(text)
    else:
        # the common case; after the check above the only whitespace left is the plain space
        words = text.split(COMMENT, 1)[0].split()
    if not words:
        return None
    return Command(words[0], tuple(words[1:]))


def split_quoted(text: str) -> list[str]:
    """Words of a line holding double quotes; a quote must open and close a whole word."""
    words = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == " ":
            i += 1
        elif ch == COMMENT:
            break
        elif ch == QUOTE:
            end = text.find(QUOTE, i + 1)
            if end < 0:
                raise BadCommand("unbalanced_quote", position=i + 1)
            if end == i + 1:
                raise BadCommand("empty_word", position=i + 1)
            if end + 1 < n and text[end + 1] not in (" ", COMMENT):
                raise BadCommand("stray_quote", position=end + 2)
            words.append(text[i + 1 : end])
            i = end + 1
        else:
            j = i
            while j < n and text[j] not in (" ", COMMENT, QUOTE):
                j += 1
            if j < n and text[j] == QUOTE:
                raise BadCommand("stray_quote", position=j + 1)
            words.append(text[i:j])
            i = j
    return words


ACTOR_MARK = ":"
ACTOR_USAGE = "NAME: COMMAND... (NAME: a player's name, or table)"


def is_name(word: str) -> bool:
    """Letters, digits, `_` and `-` only: a player's name (or `table`) as a line's actor."""
    return bool(word) and word.replace("_", "").replace("-", "").isalnum()


def split_actor(text: str) -> tuple[str | None, str]:
    """(actor, command text) of a line that may begin with `NAME:` (docs/actors.md).

    The actor is the word before a colon that ends the line's first word
    (`Anna: roll 3 4`, `Boris:accept 1`); a line without one gives (None, text).
    The command text keeps the line's length (the name and colon become spaces),
    so positions in refusals count from the start of the line.
    A colon inside quotes or a comment never marks an actor. A first word
    ending in a colon whose name is empty or not a name (`: roll`, `"Anna": roll`,
    `An@na: roll`) is refused with the usage, never read as a command. The name is
    not looked up here: the table matches it to a player (any case) or `table`.
    """
    if len(text) > MAX_LINE:
        raise BadCommand("line_too_long", length=len(text), limit=MAX_LINE)
    if ACTOR_MARK not in text:
        return None, text
    start = len(text) - len(text.lstrip(" "))
    i, n = start, len(text)
    if i < n and text[i] == QUOTE:
        end = text.find(QUOTE, i + 1)
        if end >= 0 and end + 1 < n and text[end + 1] == ACTOR_MARK:
            raise BadCommand("usage", usage=ACTOR_USAGE)  # a quoted name: names never need quotes
        return None, text
    j = i
    while j < n and text[j] not in (" ", COMMENT, QUOTE, ACTOR_MARK):
        j += 1
    if j == n or text[j] != ACTOR_MARK:
        return None, text
    name = text[i:j]
    if not text[:j].isprintable():
        check_characters(text[:j])  # an invisible character in the name: say which, and where
    if not is_name(name):
        raise BadCommand("usage", usage=ACTOR_USAGE)
    # the name and colon become spaces: the command keeps its place, so a position in a
    # refusal (a tab, a stray quote) counts from the start of the line as typed
    return name, " " * (j + 1) + text[j + 1 :]
