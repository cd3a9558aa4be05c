"""The words of the box: language choice, plural forms, and the game's terms (companion/words/glossary.toml).

Templates (companion/words/locale/<lang>/LC_MESSAGES/*.po) are `str.format` strings with two additions
(see `Formatter`):

- `{count:p:акцию|акции|акций}` renders the number and the noun in the plural
  form the number takes ("21 акцию", "5 акций"; in English
  `{count:p:share|shares}` gives "1 share", "2 shares"); `{count:w:...}` gives
  the noun alone.
- `{policy:gen}` renders a glossary word in a case (nom, gen, dat, acc, ins, pre,
  pl, gen_pl); a player's name has no cases, so it always stands as typed.

The plural rules are CLDR's cardinal rules for the two languages (integers only):
Russian one (n mod 10 = 1, n mod 100 != 11), few (n mod 10 in 2..4, n mod 100
not in 12..14), many (the rest); English one (n = 1), other.
"""

import os
import string
import tomllib
from collections.abc import Mapping
from pathlib import Path

from companion.words.catalog import languages

GLOSSARY_FILE = Path(__file__).with_name("glossary.toml")
LANGUAGE_CODES = languages()  # a folder of .po files each (companion/words/locale/): en, ru
ENV_LANG = "COMPANION_LANG"


def load_glossary(path: Path = GLOSSARY_FILE) -> dict:
    with open(path, "rb") as f:
        return tomllib.load(f)


GLOSSARY = load_glossary()
LATIN_WORDS = tuple(GLOSSARY["latin"]["words"])


# ----- which language -------------------------------------------------------------------------


def language_of(value: str | None) -> str | None:
    """'ru', 'ru_RU.UTF-8', 'RU' -> 'ru'; 'en_GB' -> 'en'; anything else (or nothing) -> None."""
    if not value:
        return None
    head = value.strip().lower().replace("-", "_").split("_")[0].split(".")[0]
    return head if head in LANGUAGE_CODES else None


def language_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The language when no --lang is given: $COMPANION_LANG, else the locale, else English.

    The locale is read as POSIX does for messages: LC_ALL, then LC_MESSAGES, then LANG
    (the first one set and not empty); a locale of a language with words (ru_RU.UTF-8, ru*) gives
    that language, any other English.
    """
    env = os.environ if environ is None else environ
    chosen = language_of(env.get(ENV_LANG))
    if chosen:
        return chosen
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var)
        if value:
            return language_of(value) or ("ru" if value.strip().lower().startswith("ru") else "en")
    return "en"


# ----- plural forms -------------------------------------------------------------------------


def plural_category(n: int, language: str) -> str:
    """CLDR cardinal plural category of a whole number: ru one/few/many, en one/other."""
    n = abs(int(n))
    if language == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "other"


def plural(n: int, forms) -> str:
    """The form that goes with n: three forms are Russian's one|few|many, two are English's one|other."""
    forms = forms.split("|") if isinstance(forms, str) else list(forms)
    if len(forms) >= 3:
        return forms[("one", "few", "many").index(plural_category(n, "ru"))]
    if len(forms) == 2:
        return forms[0] if plural_category(n, "en") == "one" else forms[1]
    return forms[0]


# ----- words with cases ------------------------------------------------------------------------


class Word(str):
    """A word as shown (its nominative), with its other case forms: `{kind:gen}`, `{policy:acc}`."""

    forms: dict

    def __new__(cls, text, forms=None):
        word = super().__new__(cls, text)
        word.forms = dict(forms or {})
        return word

    def form(self, case: str) -> str:
        return self.forms.get(case) or str(self)


def term(key: str, language: str) -> Word:
    """A glossary term in a language (nominative, with its case forms in Russian)."""
    entry = GLOSSARY["term"][key]
    if language == "ru":
        forms = entry["ru"]
        return Word(forms["nom"], forms)
    plural_en = entry.get("en_pl")
    return Word(entry["en"], {"pl": plural_en, "gen_pl": plural_en} if plural_en else {})


def has_term(key: str) -> bool:
    return key in GLOSSARY["term"]


class Formatter(string.Formatter):
    """str.format with plural forms (`{n:p:one|few|many}`, `{n:w:...}`) and cases (`{word:gen}`)."""

    def __init__(self, language: str):
        super().__init__()
        self.language = language

    def format_field(self, value, format_spec):
        if format_spec.startswith(("p:", "w:")):
            forms = format_spec[2:]
            try:
                n = int(value)
            except (TypeError, ValueError):
                word = forms.split("|")[-1]
                return word if format_spec.startswith("w:") else f"{value} {word}"
            word = plural(n, forms)
            return word if format_spec.startswith("w:") else f"{value} {word}"
        if isinstance(value, Word):
            return value.form(format_spec) if format_spec else str(value)
        if format_spec.isalpha() and format_spec.islower() and isinstance(value, str):
            return value  # a case asked of a name: a name stays as typed
        return super().format_field(value, format_spec)
