"""A parser's English words (tomllib's, the json module's) as message codes with parameters, so a
damaged edition, configuration or card file is said in the screen's language (companion/words/messages.py,
INPUT). Words a later Python may say that are not listed are shown as they are (machine_words)."""

from __future__ import annotations

import json
import re

from companion.errors import Message

# tomllib's words (Python 3.11) as message codes, so a TOML mistake is said in the screen's language;
# words it may say in a later Python that are not listed here are shown as they are (machine_words)
TOML_WORDS = {
    "Invalid value": "toml_invalid_value",
    "Invalid statement": "toml_invalid_statement",
    "Expected '=' after a key in a key/value pair": "toml_expected_equals",
    "Expected newline or end of document after a statement": "toml_expected_newline",
    "Expected ']' at the end of a table declaration": "toml_table_bracket",
    "Expected ']]' at the end of an array declaration": "toml_array_bracket",
    "Unclosed array": "toml_unclosed_array",
    "Unclosed inline table": "toml_unclosed_table",
    "Unterminated string": "toml_unterminated_string",
    "Cannot overwrite a value": "toml_overwrite",
    "Unescaped '\\' in a string": "toml_backslash",
    "Invalid initial character for a key part": "toml_key_start",
    "Invalid date or datetime": "toml_invalid_date",
    "Invalid hex value": "toml_invalid_hex",
    "Escaped character is not a Unicode scalar value": "toml_not_scalar",
}
# the words that name a character or a key, the part in parentheses kept as a value
TOML_PATTERNS = (
    (re.compile(r"Illegal character (.+)"), "toml_illegal_char", "char"),
    (re.compile(r"Found invalid character (.+)"), "toml_invalid_char", "char"),
    (re.compile(r"Cannot declare (.+) twice"), "toml_declared_twice", "name"),
    (re.compile(r"Cannot mutate immutable namespace (.+)"), "toml_closed_table", "name"),
    (re.compile(r"Cannot redefine namespace (.+)"), "toml_redefined", "name"),
    (re.compile(r"Duplicate inline table key (.+)"), "toml_duplicate_key", "name"),
    (re.compile(r"Expected (.+)"), "toml_expected", "text"),
)
_TOML_AT = re.compile(r"(.*) \(at line (\d+), column (\d+)\)", re.S)
_TOML_END = " (at end of document)"


def toml_problem(exc: BaseException) -> Message:
    """What tomllib (or int() on a huge number) said, as a message: its words by code and where it
    stopped (the English templates keep close to tomllib's own words)."""
    if isinstance(exc, RecursionError):
        return Message("toml_too_deep")
    text = " ".join(str(exc).split())
    at = _TOML_AT.fullmatch(text)
    words = at.group(1) if at else text.removesuffix(_TOML_END)
    problem = _toml_words(words)
    if at:
        return Message("toml_at", problem=problem, line_no=int(at.group(2)), column=int(at.group(3)))
    if text.endswith(_TOML_END):
        return Message("toml_at_end", problem=problem)
    return problem


def _toml_words(words: str) -> Message:
    if words in TOML_WORDS:
        return Message(TOML_WORDS[words])
    for pattern, code, name in TOML_PATTERNS:
        found = pattern.fullmatch(words)
        if found:
            return Message(code, **{name: found.group(1)})
    return Message("machine_words", text=words)


# the json module's words as message codes, so a damaged map is said in the screen's language
JSON_WORDS = {
    "Expecting value": "json_expecting_value",
    "Expecting property name enclosed in double quotes": "json_expecting_name",
    "Expecting ':' delimiter": "json_expecting_colon",
    "Expecting ',' delimiter": "json_expecting_comma",
    "Extra data": "json_extra_data",
    "Unterminated string starting at": "json_unterminated",
    "Invalid control character at": "json_control_char",
}


def json_problem(exc: json.JSONDecodeError) -> Message:
    """Where the json module stopped and what it said (its English words unchanged)."""
    words = Message(JSON_WORDS[exc.msg]) if exc.msg in JSON_WORDS else Message("machine_words", text=exc.msg)
    return Message("json_at", problem=words, line_no=exc.lineno, column=exc.colno, pos=exc.pos)
