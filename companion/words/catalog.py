"""The words as data: gettext .po files under companion/words/locale/, read through Babel, once per language.

Each language is a folder, `locale/<lang>/LC_MESSAGES/`, holding one .po file per domain (`messages`:
events, refusals and the edge's errors; `options`: the rule options; `phone`: the phone page; `head`:
the ledger head's words). A third language is added by adding that folder: `LANGUAGES` lists the
folders found (English first), and `missing` names what a language lacks against English.

How a .po entry maps to the tables the wording code reads:

- an entry without `msgctxt` is a message code of the main catalogue: msgid = the code, msgstr = its
  template with its {placeholders};
- an entry with `msgctxt "TABLE"` (or `"TABLE/sub/..."`) is one word of a table of words keyed by
  code (`REASONS`, `LABELS`, `EDITIONS/classic`, `CHOICE_WORDS/three_doubles_detain`, ...): msgid =
  the last key. A table whose keys are 0, 1, ... is a tuple (`GIVES`: the two forms of a trade's
  side); the keys True and False are the booleans of a yes/no option.

Why the plural forms stay inline (`{count:p:акцию|акции|акций}`, the CLDR rules of
companion/words/grammar.py) rather than gettext's msgid_plural: msgid_plural picks one form for the
whole message from one number, but our messages count several things in one line ("{count} shares at
{price} ({amount})", a sale of 2 branches and 1 enterprise), and the nouns' case forms (`{policy:gen}`)
come from the glossary; the inline forms keep each number with its own noun, in the template a
translator reads. The .po header's Plural-Forms is therefore informational only.

Loading is lazy: nothing is parsed at import; a language's file of a domain is parsed on the first
word asked of it and kept for the life of the process (`functools.cache`).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

# $COMPANION_LOCALE_DIR: another folder of the same shape, for a translator trying a language's files
LOCALE_DIR = Path(os.environ.get("COMPANION_LOCALE_DIR") or Path(__file__).with_name("locale"))
SOURCE_LANGUAGE = "en"  # the language every other falls back to, table by table and code by code
_ABSENT = object()
CORE = ""  # the table name of the main catalogue's entries (no msgctxt)


@functools.cache
def languages(locale_dir: Path = LOCALE_DIR) -> tuple[str, ...]:
    """The languages that have a folder of .po files: English first, then by code."""
    found = sorted(p.name for p in locale_dir.iterdir() if (p / "LC_MESSAGES").is_dir())
    return tuple(sorted(found, key=lambda lang: lang != SOURCE_LANGUAGE))


def po_path(domain: str, language: str, locale_dir: Path = LOCALE_DIR) -> Path:
    return locale_dir / language / "LC_MESSAGES" / f"{domain}.po"


@functools.cache
def entries(domain: str, language: str, locale_dir: Path = LOCALE_DIR) -> dict[tuple[str, str], str]:
    """(context, msgid) -> msgstr of one .po file, in the file's order; {} when the language has no such file.

    An empty msgstr (an entry not yet translated) is left out, so the word falls back to English."""
    path = po_path(domain, language, locale_dir)
    if not path.is_file():
        return {}
    from babel.messages.pofile import read_po  # here, not at import: only a process that speaks pays for it

    with open(path, "rb") as f:
        catalog = read_po(f, locale=None, domain=domain)
    found: dict[tuple[str, str], str] = {}
    for message in catalog:
        if not message.id or not isinstance(message.id, str) or not isinstance(message.string, str):
            continue  # the header, or a msgid_plural entry (the catalogues use none)
        if message.string:
            found[(message.context or CORE, message.id)] = message.string
    return found


def _key(text: str) -> Any:
    """A msgid back to the key it stands for: True/False are a yes/no option's values."""
    return {"True": True, "False": False}.get(text, text)


def _build(node: dict[Any, Any]) -> Any:
    """Nested dicts with keys 0..n-1 become tuples (a table of forms), bottom up."""
    built = {k: _build(v) if isinstance(v, dict) else v for k, v in node.items()}
    if built and all(isinstance(k, str) and k.isdigit() for k in built):
        return tuple(built[str(i)] for i in range(len(built)))
    return built


@functools.cache
def tables(domain: str, language: str, locale_dir: Path = LOCALE_DIR) -> dict[str, Any]:
    """Every table of a domain in one language, by its name (`REASONS`, `EDITIONS/classic`; CORE the codes)."""
    tree: dict[Any, Any] = {}
    for (context, msgid), text in entries(domain, language, locale_dir).items():
        node = tree
        for part in context.split("/") if context else [CORE]:
            node = node.setdefault(part, {})
        node[_key(msgid)] = text
    found: dict[str, Any] = {}

    def walk(path: str, node: dict[Any, Any]) -> None:
        found[path] = _build(node)
        for key, value in node.items():
            if isinstance(value, dict):
                walk(f"{path}/{key}", value)
            else:
                found[f"{path}/{key}"] = value  # a single phrase: PHRASES/NOTHING

    for name, node in tree.items():
        if name == CORE:
            found[CORE] = dict(node)
        else:
            walk(name, node)
    return found


class Table(Mapping[str, Any]):
    """One table of words by language, read from the .po files when a language is first asked for.

    `REASONS["ru"]` is Russian's table; a language whose files lack the table entirely takes
    English's (a partial new language still says every word); a language with no files at all is
    not in the table, so `REASONS.get(lang, REASONS["en"])` works as it did on the Python dicts.
    """

    def __init__(self, domain: str, name: str, locale_dir: Path = LOCALE_DIR):
        self.domain, self.name, self.locale_dir = domain, name, locale_dir
        self._by_language: dict[str, Any] = {}

    def __getitem__(self, language: str) -> Any:
        try:
            return self._by_language[language]
        except KeyError:
            pass
        if not isinstance(language, str) or language not in languages(self.locale_dir):
            raise KeyError(language)
        own = tables(self.domain, language, self.locale_dir)
        if self.name in own:
            value = own[self.name]
        elif language != SOURCE_LANGUAGE and self.name in tables(self.domain, SOURCE_LANGUAGE, self.locale_dir):
            value = self[SOURCE_LANGUAGE]
        else:
            raise KeyError(language)
        self._by_language[language] = value
        return value

    def get(self, language: str, default: Any = None) -> Any:
        # the renderer's hot path (every parameter of every line): a dict's get once a language is loaded
        found = self._by_language.get(language, _ABSENT)
        if found is not _ABSENT:
            return found
        try:
            return self[language]
        except KeyError:
            return default

    def __iter__(self) -> Iterator[str]:
        return (lang for lang in languages(self.locale_dir) if lang in self)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __contains__(self, language: object) -> bool:
        if language in self._by_language:
            return True
        try:
            self[language]  # type: ignore[index]
        except KeyError:
            return False
        return True

    def __repr__(self) -> str:
        return f"Table({self.domain!r}, {self.name!r})"


def missing(
    language: str, domains: tuple[str, ...] = ("messages", "options", "phone", "head"), locale_dir: Path = LOCALE_DIR
) -> dict[str, list[str]]:
    """What a language's files lack against English, by domain: message codes as they are, a table's
    words as `TABLE/key` (the test of every code in every language names these)."""
    gaps: dict[str, list[str]] = {}
    for domain in domains:
        own = entries(domain, language, locale_dir)
        lacking = [
            f"{context}/{msgid}" if context else msgid
            for (context, msgid) in entries(domain, SOURCE_LANGUAGE, locale_dir)
            if (context, msgid) not in own
        ]
        if lacking:
            gaps[domain] = lacking
    return gaps
