"""The phone page's own words (labels, buttons, warnings) in English and Russian; the game's words come
from the service, already in the phone's language.

The words are data: companion/words/locale/<lang>/LC_MESSAGES/phone.po (msgctxt "WORDS", msgid: the
word's key); `WORDS[lang]` is a language's table, `list(WORDS)` the languages that have one."""

from companion.words.catalog import Table

WORDS = Table("phone", "WORDS")
