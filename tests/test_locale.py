"""The words as data (companion/words/catalog.py): the .po files read through Babel, a language is a folder,
and a third language is added by adding files only, what it still lacks named code by code."""

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from babel.messages.pofile import read_po

from companion.words import catalog, messages

ROOT = Path(__file__).parent.parent
DOMAINS = ("messages", "options", "phone", "head")


def test_every_po_file_reads_through_babel_without_a_loss():
    """Each file is a plain gettext catalogue: no fuzzy or untranslated entry, no msgid_plural, and the
    tables read from it hold every entry (the loader skips none)."""
    for lang in catalog.languages():
        for domain in DOMAINS:
            with open(catalog.po_path(domain, lang), "rb") as f:
                po = read_po(f)
            entries = [m for m in po if m.id]
            assert entries, (lang, domain)
            assert not [m.id for m in entries if m.fuzzy or not m.string or m.pluralizable], (lang, domain)
            assert len(catalog.entries(domain, lang)) == len(entries), (lang, domain)


def test_russian_says_every_english_message():
    gaps = catalog.missing("ru")
    assert not {domain: keys for domain, keys in gaps.items() if domain != "options"}, gaps


def test_the_languages_are_the_folders_english_first():
    assert catalog.languages() == ("en", "ru") == messages.LANGUAGES
    assert list(messages.CATALOGS) == ["en", "ru"]


def test_a_table_loads_once_per_language():
    assert messages.REASONS["ru"] is messages.REASONS["ru"]
    assert messages.CATALOGS["ru"] is messages.CATALOGS["ru"] is messages.RU


GERMAN = """\
msgid ""
msgstr ""
"Language: de\\n"
"Content-Type: text/plain; charset=utf-8\\n"

msgid "rolled"
msgstr "{player} würfelt {dice}"

msgid "bought"
msgstr "{player} kauft {plot} für {price}"

msgctxt "REASONS"
msgid "rent_paid"
msgstr "Miete"

msgid "debt"
msgstr "{player} schuldet {to} {amount} ({reason}), hat aber nur {cash}"
"""

SCRIPT = textwrap.dedent(
    """
    import json
    from companion.words import catalog, grammar, messages, phone
    from companion.words.messages import render
    missing = catalog.missing("de")
    print(json.dumps({
        "languages": list(messages.LANGUAGES),
        "lang_of": grammar.language_of("de_DE.UTF-8"),
        "rolled": render("rolled", {"player": "Anna", "dice": [3, 4]}, "de"),
        "landed": render("landed", {"player": "Anna", "cell": "c1"}, "de"),
        "debt": render("debt", {"player": "Anna", "to": "bank", "amount": 5, "reason": "rent_paid", "cash": 1}, "de"),
        "phone": phone.WORDS["de"]["title"],
        "missing": missing,
        "no_template": sorted(c for c in messages.CATALOGS["en"] if c not in messages.CATALOGS["de"])[:3],
    }))
    """
)


def test_a_third_language_is_added_by_adding_files(tmp_path):
    """A partial German messages.po dropped into a copy of the locale folder: German is a language, its
    words are said, what it lacks falls back to English, and `missing` names each code it lacks."""
    locale = tmp_path / "locale"
    shutil.copytree(ROOT / "companion" / "words" / "locale", locale)
    (locale / "de" / "LC_MESSAGES").mkdir(parents=True)
    (locale / "de" / "LC_MESSAGES" / "messages.po").write_text(GERMAN, encoding="utf-8")
    env = {**os.environ, "COMPANION_LOCALE_DIR": str(locale), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, check=True)
    import json

    said = json.loads(done.stdout)
    assert said["languages"] == ["en", "de", "ru"] and said["lang_of"] == "de"
    assert said["rolled"] == "Anna würfelt 3 and 4"
    assert said["landed"] == "Anna lands on c1"  # no German template yet: the English one
    assert said["debt"].startswith("Anna schuldet the bank 5 (Miete)")
    assert said["phone"] == "Millionaire: the table"  # no phone.po in German: the English page
    lacking = said["missing"]
    assert set(lacking) == set(DOMAINS)
    assert "landed" in lacking["messages"] and "rolled" not in lacking["messages"]
    assert "REASONS/circle_tax" in lacking["messages"] and "REASONS/rent_paid" not in lacking["messages"]
    # a code of the catalogue without German words is named, as the .po file keys it (`EDGE/<code>`, ...)
    named = {key.rpartition("/")[2] for key in lacking["messages"]}
    assert said["no_template"] and set(said["no_template"]) <= named
