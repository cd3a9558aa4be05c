"""Edition data files: the shipped ones live here; a table may load its own."""

import codecs
import re
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path

from companion.engine.board import Edition, build_edition, check_option, keyname, shown
from companion.engine.core import Rules
from companion.engine.rulesets import RULESETS
from companion.errors import EditionError, EditionProblem, cause_of
from companion.words.parse import toml_problem

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
            raise EditionProblem("edition_unknown", str(ref), "edition", shipped=", ".join(shipped()))
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise EditionProblem(
            "edition_unreadable", str(path), "file", detail=exc.strerror or str(exc), cause=cause_of(exc)
        ) from None
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
        raise EditionProblem(
            "edition_not_utf8", source, "file", offset=offset, line_no=line, byte=f"{raw[offset]:02x}"
        ) from None


def _toml(text: str, source: str) -> dict:
    """Parsed TOML, or one EditionError whose problem is one line."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise EditionProblem("edition_too_deep", source, "syntax") from None
    except ValueError as exc:  # TOMLDecodeError, or an integer of thousands of digits
        raise EditionProblem("edition_syntax", source, "syntax", problem=toml_problem(exc)) from None


def _rules_name(data: dict):
    head = data.get("edition") if isinstance(data, dict) else None
    return head.get("rules") if isinstance(head, dict) else None


def _rules_class(data: dict, source: str):
    name = _rules_name(data)
    if not isinstance(name, str) or name not in RULESETS:
        raise EditionProblem("edition_bad_rules", source, "edition.rules", known=sorted(RULESETS), value=shown(name))
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
        raise EditionProblem("edition_not_a_value", source, f"options.{key}", value=shown(text)) from None
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
        _check_option(rules_cls, name, key, value, source)
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


def _check_option(rules_cls, rules_name: str, key: str, value, source: str) -> None:
    """check_option, its refusal said as a message code: the same test, the same English words."""
    try:
        check_option(rules_cls, rules_name, key, value, source)
    except EditionError as exc:
        raise (_option_problem(rules_cls, rules_name, key, value, source) or exc) from None


# the type an option's default has, as the code of the words saying it (engine/board.py's _kind_code)
OPTION_KINDS = {str: "text", bool: "bool", list: "list", dict: "table", int: "whole"}


def _option_problem(rules_cls, rules_name: str, key: str, value, source: str) -> EditionError | None:
    """Which of check_option's tests `value` fails, as an EditionProblem; None if none of these."""
    options = rules_cls.OPTIONS
    if key not in options:
        return EditionProblem(
            "edition_unknown_option", source, f"options.{keyname(key)}", rules=rules_name, known=sorted(options)
        )
    default, where = options[key], f"options.{key}"
    if type(value) is not type(default):
        kind = OPTION_KINDS.get(type(default))
        if kind is None:
            return None
        return EditionProblem(f"edition_option_{kind}", source, where, default=shown(default), value=shown(value))
    bounds = rules_cls.OPTION_RANGES.get(key)
    if bounds is not None and isinstance(value, int) and not bounds[0] <= value <= bounds[1]:
        return EditionProblem("edition_option_range", source, where, low=bounds[0], high=bounds[1], value=value)
    choices = rules_cls.OPTION_CHOICES.get(key)
    if choices is not None and value not in choices:
        return EditionProblem("edition_option_choice", source, where, choices=list(choices), value=shown(value))
    return None


def _literally(text: str) -> Callable[[re.Match[str]], str]:
    return lambda _match: text


def parse_edition(text: str, source: str) -> Edition:
    """Build an Edition from file text (also used to restore a game's stored copy)."""
    text = text.removeprefix("\ufeff")
    return edition_from_data(_toml(text, source), source, text)


def edition_from_data(data: dict, source: str, text: str) -> Edition:
    """Build an Edition from the parsed file (a ledger keeps it as JSON: reopening skips the TOML parse)."""
    name, rules_cls = _rules_class(data, source)
    try:
        return build_edition(data, source, rules_cls, text=text)
    except EditionProblem:
        raise
    except EditionError as exc:
        raise (_file_option_problem(exc, data, rules_cls, name, source) or exc) from None


def _file_option_problem(exc: EditionError, data: dict, rules_cls, rules_name: str, source: str):
    """An [options] value the file itself writes, refused by check_option, as an EditionProblem (None:
    another key's problem, or a cross-check of the rules module, left in the loader's words)."""
    options = data.get("options")
    if not isinstance(options, dict) or not exc.key.startswith("options."):
        return None
    for key, value in options.items():
        if exc.key == f"options.{keyname(key)}" or exc.key == f"options.{key}":
            return _option_problem(rules_cls, rules_name, key, value, source)
    return None


def rules_for(edition: Edition) -> Rules:
    """The rules module the edition names, set up for it."""
    return RULESETS[edition.rules](edition)
