"""Edition data files: the shipped ones live here; a table may load its own."""

import codecs
import re
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path

from companion.engine.board import Edition, build_edition, check_option, shown
from companion.engine.core import Rules
from companion.engine.rulesets import RULESETS
from companion.errors import EditionError

HERE = Path(__file__).parent


def shipped() -> list[str]:
    """Ids of the edition files that ship with the companion."""
    return sorted(p.stem for p in HERE.glob("*.toml"))


def load_edition(ref: str | Path, options: Mapping[str, object] | None = None) -> Edition:
    """Load an edition by shipped id ('elite') or by path to a TOML file.

    `options` ({key: value}) are rule options chosen as the game starts; they
    are written into the edition text, which the ledger stores with the game.
    """
    path = Path(ref)
    if not path.suffix:
        path = HERE / f"{ref}.toml"
        if not path.exists():
            raise EditionError(str(ref), "edition", f"no such edition (shipped: {', '.join(shipped())})")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise EditionError(str(path), "file", f"cannot be read: {exc.strerror or exc}") from None
    text = decode_edition(raw, str(path))
    if options:
        text = set_options(text, options, str(path))
    return parse_edition(text, str(path))


def decode_edition(raw: bytes, source: str) -> str:
    """An edition file's bytes as text: UTF-8, a leading byte order mark dropped.

    Editors on Windows write the mark; the stored copy of the file never has it.
    Bytes that are not UTF-8 are one EditionError naming the first bad byte's offset.
    """
    start = len(codecs.BOM_UTF8) if raw.startswith(codecs.BOM_UTF8) else 0
    try:
        return raw[start:].decode("utf-8")
    except UnicodeDecodeError as exc:
        offset = start + exc.start
        line = raw[:offset].count(b"\n") + 1
        raise EditionError(
            source, "file", f"is not UTF-8 text: byte {offset} (line {line}) is 0x{raw[offset]:02x}"
        ) from None


def _toml(text: str, source: str) -> dict:
    """Parsed TOML, or one EditionError whose problem is one line."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise EditionError(source, "syntax", "tables or lists nested too deeply") from None
    except ValueError as exc:  # TOMLDecodeError, or an integer of thousands of digits
        raise EditionError(source, "syntax", " ".join(str(exc).split())) from None


def _rules_name(data: dict):
    head = data.get("edition") if isinstance(data, dict) else None
    return head.get("rules") if isinstance(head, dict) else None


def _rules_class(data: dict, source: str):
    name = _rules_name(data)
    if not isinstance(name, str) or name not in RULESETS:
        raise EditionError(
            source,
            "edition.rules",
            f"must name one of the rules modules: {', '.join(sorted(RULESETS))} (not {shown(name)})",
        )
    return name, RULESETS[name]


def toml_value(value):
    """A Python value as the edition file writes it (true/false, "text", numbers, lists)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        # a TOML basic string: quotes, backslashes and control characters escaped, so a
        # typed option can never end the string and write another key into the file
        return (
            '"'
            + "".join(
                "\\" + ch
                if ch in '"\\'
                else f"\\u{ord(ch):04x}"
                if ord(ch) < 0x20 or ord(ch) == 0x7F or 0xD800 <= ord(ch) <= 0xDFFF
                else ch
                for ch in value
            )
            + '"'
        )
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return str(value)


def _from_text(text, default, source, key):
    """A value typed on the command line, read as the type of the option's default."""
    if isinstance(default, str):
        return text
    try:
        value = tomllib.loads(f"v = {text}")["v"]
    except (ValueError, RecursionError, KeyError):
        raise EditionError(source, f"options.{key}", f"{shown(text)} is not a value") from None
    return value


# the [options] header line (spaces and a comment may follow) and the next table's header
_OPTIONS_HEADER = re.compile(r"^[ \t]*\[[ \t]*options[ \t]*\][ \t]*(#.*)?$", re.M)
_NEXT_TABLE = re.compile(r"^[ \t]*\[", re.M)


def set_options(text: str, options: Mapping[str, object], source: str) -> str:
    """The edition text with [options] keys set; unknown keys, wrong types and values out of
    range are EditionErrors naming `options.KEY` (the file is checked again as it loads)."""
    text = text.replace("\r\n", "\n")
    name, rules_cls = _rules_class(_toml(text, source), source)
    lines = []
    for key, value in options.items():
        if isinstance(value, str) and key in rules_cls.OPTIONS:
            value = _from_text(value, rules_cls.OPTIONS[key], source, key)
        check_option(rules_cls, name, key, value, source)
        lines.append((key, f"{key} = {toml_value(value)}"))
    header = _OPTIONS_HEADER.search(text)
    if header is None:
        head, body, tail = text.rstrip("\n") + "\n\n[options]\n", "", ""
    else:
        head, rest = text[: header.end() + 1], text[header.end() + 1 :]
        nxt = _NEXT_TABLE.search(rest)  # only the [options] table is edited
        body, tail = (rest[: nxt.start()], rest[nxt.start() :]) if nxt else (rest, "")
    for key, line in lines:
        # the new line is the replacement as it stands (a function, so no backslash is read as an escape)
        body, n = re.subn(rf"^[ \t]*{re.escape(key)}[ \t]*=.*$", _literally(line), body, count=1, flags=re.M)
        if not n:
            body = line + "\n" + body
    return head + body + tail


def _literally(text: str) -> Callable[[re.Match[str]], str]:
    return lambda _match: text


def parse_edition(text: str, source: str) -> Edition:
    """Build an Edition from file text (also used to restore a game's stored copy)."""
    text = text.removeprefix("\ufeff")
    return edition_from_data(_toml(text, source), source, text)


def edition_from_data(data: dict, source: str, text: str) -> Edition:
    """Build an Edition from the parsed file (a ledger keeps it as JSON: reopening skips the TOML parse)."""
    name, rules_cls = _rules_class(data, source)
    return build_edition(data, source, rules_cls, text=text)


def rules_for(edition: Edition) -> Rules:
    """The rules module the edition names, set up for it."""
    return RULESETS[edition.rules](edition)
