"""The ledger's head as a few short words a person can read aloud and compare across screens.

Four words carry 32 bits of the head hash: enough for a family to notice that
two screens disagree, or that the ledger went back, without reading hex. The 256 words of each
language are data: companion/words/locale/<lang>/LC_MESSAGES/head.po (msgctxt "WORDS", msgid 0 to 255).
"""

from companion.words.catalog import Table

WORDS = Table("head", "WORDS")


def head_words(head_hash: str, language: str = "en") -> str:
    """Four words for the first 32 bits of a head hash (hex)."""
    words = WORDS.get(language, WORDS["en"])
    if len(words) != 256:  # a language still translating its list says the head in English's words
        words = WORDS["en"]
    value = bytes.fromhex(head_hash[:8])
    return " ".join(words[b] for b in value)
