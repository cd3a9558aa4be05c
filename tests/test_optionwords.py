"""The rule options in words (companion/words/options.py): every option of every shipped edition has a
name in English and Russian, every value a table can give it reads as words (never an id, None or
True), every menu line fits two lines of the 128x64 OLED, no two options of an edition read alike,
and the box offers the options a table sets, in a sensible order."""

import ast
import dataclasses
import re
from pathlib import Path

import pytest
from test_words import spelling_problems

from companion.daemon.screens import THOUSANDS as SCREEN_THOUSANDS
from companion.daemon.screens import money
from companion.editions import load_edition, rules_for, shipped
from companion.hw.display import wrap
from companion.words.grammar import LATIN_WORDS
from companion.words.options import (
    CHOICE_WORDS,
    EDITION_CHOICE_WORDS,
    EDITION_OPTION_NAMES,
    NOT_SET_AT_THE_BOX,
    OPTION_NAMES,
    THOUSANDS,
    option_line,
    option_name,
    settable_options,
    value_words,
)

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("en", "ru")
EDITIONS = {e: load_edition(e) for e in shipped()}
RULES = {e: rules_for(ed) for e, ed in EDITIONS.items()}
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
REPR_WORDS = re.compile(r"\b(None|True|False)\b")


def values_to_show(rules, key):
    """Every value of an option the box can show: its default, every allowed choice, both booleans,
    and the ends of its range."""
    default = rules.OPTIONS[key]
    values = [default, *rules.OPTION_CHOICES.get(key, ())]
    if isinstance(default, bool):
        values += [True, False]
    if key in rules.OPTION_RANGES:
        values += list(rules.OPTION_RANGES[key])
    return values


def cases():
    for e, rules in RULES.items():
        for key in rules.OPTIONS:
            yield e, key


def leaks(text, key):
    """What in a rendered text is not words: an underscore (every multi-word id has one), Python's
    None/True/False, or the bare one-word id standing where a name belongs ("signs: 7", a name that
    fell back to its key)."""
    found = []
    if "_" in text:
        found.append("an underscore")
    if "_" in key and key in text:
        found.append(f"the id {key}")
    if REPR_WORDS.search(text):
        found.append(f"Python's {REPR_WORDS.search(text).group()}")
    if text.split(":")[0].strip() == key:
        found.append(f"the id {key} as its name")
    return found


@pytest.mark.parametrize("edition,key", list(cases()))
def test_every_option_has_a_name_in_both_languages(edition, key):
    ed = EDITIONS[edition]
    for lang in LANGS:
        own = EDITION_OPTION_NAMES.get(edition, {}).get(lang, {})
        assert key in own or key in OPTION_NAMES[lang], (edition, key, lang)
        name = option_name(ed, key, lang)
        assert name and not leaks(name, key), (edition, key, lang, name, leaks(name, key))
        assert option_name(edition, key, lang) == name  # by id or by the Edition alike
    assert CYRILLIC.search(option_name(ed, key, "ru")), (edition, key, option_name(ed, key, "ru"))


@pytest.mark.parametrize("edition,key", list(cases()))
def test_every_value_reads_as_words(edition, key):
    ed, rules = EDITIONS[edition], RULES[edition]
    for value in values_to_show(rules, key):
        for lang in LANGS:
            words = value_words(ed, key, value, lang)
            assert words, (edition, key, value, lang)
            assert not leaks(words, key), (edition, key, value, lang, words, leaks(words, key))
            if isinstance(value, str):
                assert words != value or value.isupper(), (edition, key, value, lang, words)
            line = option_line(ed, key, value, lang)
            assert not leaks(line, key), (edition, key, value, lang, line)
            if lang == "ru":
                assert not spelling_problems(line), (line, spelling_problems(line))
                latin = set(re.findall(r"[A-Za-z]+", line)) - set(LATIN_WORDS)
                assert not latin, (edition, key, value, line, latin)


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_every_choice_value_has_words_in_both_languages(edition):
    """A text choice never falls back to its id: each allowed value is in the catalogue."""
    rules = RULES[edition]
    for key, choices in rules.OPTION_CHOICES.items():
        for lang in LANGS:
            own = EDITION_CHOICE_WORDS.get(edition, {}).get(lang, {}).get(key, {})
            general = CHOICE_WORDS[lang].get(key, {})
            for value in choices:
                assert value in own or value in general, (edition, key, value, lang)


@pytest.mark.parametrize("edition,key", list(cases()))
def test_every_line_fits_two_lines_of_the_oled(edition, key):
    ed, rules = EDITIONS[edition], RULES[edition]
    for value in values_to_show(rules, key):
        for lang in LANGS:
            line = option_line(ed, key, value, lang)
            lines = wrap(line)
            assert len(lines) <= 2, (edition, key, value, lang, lines)


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_no_two_options_read_alike(edition):
    ed = EDITIONS[edition]
    for lang in LANGS:
        names = {}
        for key in RULES[edition].OPTIONS:
            name = option_name(ed, key, lang).casefold()
            assert name not in names, (edition, lang, key, names.get(name))
            names[name] = key


@pytest.mark.parametrize("amount", [0, 200, 13750, 1000000, 1000000000])
def test_money_is_grouped_as_the_oled_groups_it(amount):
    """The OLED's grouping (companion/daemon/screens.money), with a separator the menu never breaks a
    sum at: a thin no-break space, as screens.THOUSANDS's comment says it means to be."""
    shown = value_words("elite", "circle_income", amount, "en")
    assert shown.replace(THOUSANDS, SCREEN_THOUSANDS) == money(amount)
    assert THOUSANDS == "\u202f" and len(wrap(shown)) == 1


def test_money_and_percent_in_words():
    assert value_words("elite", "circle_income", 13750, "ru") == "13\u202f750"
    assert value_words("monopoly", "circle_income", 200, "en") == "200"
    assert value_words("madmillionaire", "target", 1000000, "en") == "$1\u202f000\u202f000"
    assert value_words("elite", "dividend_percent", 20, "en") == "20%"
    assert value_words("elite", "dividend_percent", 20, "ru") == "20\u00a0%"  # «20 %», as the rulebook
    assert option_line("monopoly", "circle_income", 200, "en") == "GO salary: 200"
    assert option_line("elite", "circle_income", 200, "ru") == "Круговой доход: 200"


def test_numbers_that_switch_a_rule_off_say_so():
    assert value_words("monopoly", "auction_opening_percent", 0, "en") == "any"
    assert value_words("monopoly", "end_at_bankruptcy", 0, "ru") == "остался один"
    assert value_words("monopoly", "end_at_bankruptcy", 2, "en") == "at the 2nd bankruptcy"
    assert value_words("monopoly", "end_at_bankruptcy", 2, "ru") == "после 2-го банкротства"
    assert value_words("monopoly", "start_deal", 2, "ru") == "по 2 каждому"
    assert value_words("elite", "undo_window", 21, "ru") == "21 событие"
    assert value_words("elite", "undo_window", 1, "en") == "1 event"


def test_decks_are_named_as_the_board_names_them():
    assert value_words("elite", "discard_decks", ["fortune"], "ru") == "ФОРТУНА"
    assert value_words("elite", "discard_decks", ["fortune", "chance"], "en") == "FORTUNE and CHANCE"
    assert value_words("monopoly", "discard_decks", [], "en") == "none"
    assert value_words("classic", "movement_deck", "movement", "ru") == "ПЕРЕМЕЩЕНИЕ"


def test_an_options_words_follow_its_edition():
    assert option_name("monopoly", "detention_fine", "en") == "Fine to leave Jail"
    assert option_name("elite", "detention_fine", "en") == "TAX INSPECTION fine"
    assert value_words("monopoly", "three_doubles_detain", True, "ru") == "в тюрьму"
    assert value_words("classic", "three_doubles_detain", True, "ru") == "НАЛОГОВАЯ ИНСПЕКЦИЯ"
    # a table's copy of an edition file under another id reads as its rules module
    copy = dataclasses.replace(EDITIONS["monopoly"], id="monopoly-uk")
    assert option_name(copy, "circle_income", "en") == "GO salary"


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_the_box_offers_every_option_but_the_boxs_own_facts(edition):
    rules = RULES[edition]
    offered = settable_options(rules)
    assert offered == settable_options(type(rules))  # a class or an instance alike
    assert len(offered) == len(set(offered))
    assert set(offered) | (set(NOT_SET_AT_THE_BOX) & set(rules.OPTIONS)) == set(rules.OPTIONS)
    assert not set(offered) & set(NOT_SET_AT_THE_BOX)
    for key in offered:
        # the box's buttons toggle a yes/no, cycle a choice or enter a number in its range
        default = rules.OPTIONS[key]
        assert isinstance(default, (bool, int)) or key in rules.OPTION_CHOICES, (edition, key)
        if isinstance(default, int) and not isinstance(default, bool):
            assert key in rules.OPTION_RANGES, (edition, key)


def test_house_rules_and_variants_come_first():
    monopoly = settable_options(RULES["monopoly"])
    assert monopoly[:3] == ["free_parking_pot", "go_landing_bonus", "jail_blocks_rent"]
    assert monopoly.index("end_at_bankruptcy") < monopoly.index("circle_income")
    elite = settable_options(RULES["elite"])
    assert elite.index("three_doubles_detain") < elite.index("policy_red")
    assert elite.index("fortune_sets") < elite.index("redeem_interest_percent")
    assert settable_options(RULES["madmillionaire"])[:4] == ["target", "finish_exact", "one_way", "six_rule"]


def test_the_catalogue_reaches_no_daemon_hardware_or_web():
    tree = ast.parse((ROOT / "companion" / "words" / "options.py").read_text(encoding="utf-8"))
    modules = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module]
    modules += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [m for m in modules if m.startswith(("companion.daemon", "companion.hw", "companion.web"))]
