"""A typo never pays a wrong amount: every command line is parsed once (companion/engine/command.py)
and every verb of every edition takes exactly its arguments (the ARITY tables beside COMMANDS).

docs/script-language.md, "Command syntax": double quotes, `#` comments, numbers of ASCII
digits within bounds, the 200-character line, no control or invisible characters.
"""

import random

import pytest
from helpers import new
from hypothesis import given
from hypothesis import strategies as st

from companion.bots.autoplay import next_command
from companion.editions import load_edition, rules_for, shipped
from companion.engine.command import MAX_LINE, Command, parse_command
from companion.engine.core import MAX_AMOUNT, parse_line
from companion.engine.game import Game
from companion.engine.rulesets import RULESETS
from companion.errors import BadCommand, RuleViolation
from companion.words.messages import CATALOGS

# one shipped edition per rules class (RULESETS), so every class's verbs are played
EDITION_OF = {load_edition(e).rules: e for e in shipped()}


def rules_of(name):
    return rules_for(load_edition(EDITION_OF[name]))


def refused(game, line, code):
    """The line is refused with this code and nothing changes; returns the refusal."""
    before = (len(game.events), game.state.signature())
    with pytest.raises(RuleViolation) as info:
        game.apply(line)
    assert info.value.code == code, (line, info.value.code, info.value.params)
    assert (len(game.events), game.state.signature()) == before
    return info.value


# ----- the one parse at the edge ---------------------------------------------------------------


def test_a_blank_or_comment_line_is_no_command():
    for line in ("", "   ", "# only a comment", "   # indented comment", '# a "quoted comment'):
        assert parse_command(line) is None
        assert parse_line(line) == (None, ())


def test_words_verb_lower_cased_and_the_comment_dropped():
    assert parse_command("  PAY Anna  Boris 5   # a deal") == Command("pay", ("Anna", "Boris", "5"))
    assert parse_line("Roll 3 4#comment") == ("roll", ("3", "4"))


def test_double_quotes_hold_spaces_and_hashes():
    assert parse_command('buy_shares "Anna Maria" 2') == Command("buy_shares", ("Anna Maria", "2"))
    assert parse_command('mortgage "oil #3" # the third') == Command("mortgage", ("oil #3",))
    assert parse_command('pay "Anna" Boris 5') == Command("pay", ("Anna", "Boris", "5"))


@pytest.mark.parametrize(
    "line, code",
    [
        ('pay "Anna Boris 5', "unbalanced_quote"),
        ('pay Anna Boris 5"', "stray_quote"),
        ('pay An"na" Boris 5', "stray_quote"),
        ('pay "An"na Boris 5', "stray_quote"),
        ('pay "" Boris 5', "empty_word"),
        ("pay Anna\tBoris 5", "bad_character"),
        ("pay Anna Boris 5\x00", "bad_character"),
        ("pay Anna Boris 5\r", "bad_character"),
        ("pay Anna Boris 1\u00a0000", "bad_character"),  # a non-breaking space inside the amount
        ("pay Anna Boris 1\u2009000", "bad_character"),  # a thin space
        ("pay Anna\u200b Boris 5", "bad_character"),  # zero-width space
        ("pay \u202eannA Boris 5", "bad_character"),  # right-to-left override
        ("roll 3 4 # \x1b[31m", "bad_character"),  # even inside a comment
        ("pay Anna Boris 5 " + "#" * MAX_LINE, "line_too_long"),
    ],
)
def test_malformed_lines_are_refused(line, code):
    with pytest.raises(BadCommand) as info:
        parse_command(line)
    assert info.value.code == code
    for lang in ("en", "ru"):
        assert code in CATALOGS[lang]


def test_the_line_limit_is_exact():
    line = "end" + " " * (MAX_LINE - 3)
    assert len(line) == MAX_LINE and parse_command(line) == Command("end")
    with pytest.raises(BadCommand):
        parse_command(line + " ")


def test_canonical_text():
    assert Command("PAY", ["Anna", "Boris", "5"]).text() == "pay Anna Boris 5"
    assert parse_command('  trade  Anna "Boris B"  give "oil #3" ').text() == 'trade Anna "Boris B" give "oil #3"'
    with pytest.raises(BadCommand):
        Command("pay", ('An"na',))
    with pytest.raises(BadCommand):
        Command("pay", ("",))
    with pytest.raises(BadCommand):
        Command("pay", ("x" * MAX_LINE,))


WORD = st.text(
    st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"), blacklist_characters='"\u00a0'),
    min_size=1,
    max_size=12,
).filter(lambda w: w.isprintable())


@given(st.builds(lambda v, a: (v, tuple(a)), WORD, st.lists(WORD, max_size=6)))
def test_text_parses_back_to_the_same_command(parts):
    verb, args = parts
    cmd = Command(verb, args)
    assert parse_command(cmd.text()) == cmd


@given(st.text(max_size=MAX_LINE + 20))
def test_any_line_parses_to_a_stable_command_or_is_refused(line):
    try:
        cmd = parse_command(line)
    except BadCommand:
        return
    if cmd is not None:
        assert parse_command(cmd.text()) == cmd
        assert len(cmd.text()) <= MAX_LINE


@given(st.text(alphabet=' "#ab\t', max_size=30))
def test_quotes_and_comments_in_any_arrangement(line):
    try:
        cmd = parse_command(line)
    except BadCommand:
        return
    if cmd is not None:
        assert parse_command(cmd.text()) == cmd


# ----- exact arity: every verb of every edition ---------------------------------------------------


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_verb_has_an_arity_entry(name):
    cls = RULESETS[name]
    assert set(cls.COMMANDS) == set(cls.ARITY), name
    for verb, (fewest, most, usage) in cls.ARITY.items():
        assert usage.split()[0] == verb, (verb, usage)
        assert 0 <= fewest and (most is None or fewest <= most), verb
    for verb, (before, dice) in cls.DICE_VERBS.items():
        # the dice a reader or the CLI adds come last and are counted in the most
        assert cls.ARITY[verb][1] == before + dice, verb


def fill(args_count):
    return " ".join(["1"] * args_count)


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_one_word_too_many_is_refused_with_the_usage(name):
    rules = rules_of(name)
    game = new(rules)
    checked = 0
    for verb in sorted(rules.COMMANDS):
        fewest, most, usage = rules.ARITY[verb]
        if most is None:
            continue
        exc = refused(game, f"{verb} {fill(most)} extra".replace("  ", " "), "usage")
        assert exc.params["usage"] == usage
        checked += 1
        if fewest:
            exc = refused(game, f"{verb} {fill(fewest - 1)}".strip(), "usage")
            assert exc.params["usage"] == usage
    assert checked >= len(rules.COMMANDS) - 1


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_accepted_command_with_a_word_more_is_refused(name):
    """Real lines of a seeded game: each is refused (usage) with one extra word, then accepted as it was."""
    rules = rules_of(name)
    ed = rules.edition
    game = Game.start(rules, 3, ["Anna", "Boris", "Vera"][: max(ed.players_min, min(3, ed.players_max))])
    rng = random.Random(3)
    seen = set()
    while len(game.events) < 300 and game.state.phase != "over":
        line, _ = next_command(game, rng)
        if line is None:
            break
        verb, args = parse_line(line)
        most = rules.ARITY[verb][1]
        if most is not None and len(args) == most:
            refused(game, line + " 0", "usage")
            seen.add(verb)
        game.apply(line)
    assert len(seen) >= 4, seen


def test_roll_takes_the_dice_the_edition_plays_with():
    elite = new(rules_of("elite"))
    assert refused(elite, "roll 1 2 3", "usage").params["usage"] == "roll D D"
    refused(elite, "roll 1", "dice_count")
    mad = new(rules_of("madmillionaire"))
    assert refused(mad, "roll 1 2", "usage").params["usage"] == "roll D"


def test_the_typo_never_pays():
    game = new(rules_of("elite"))
    refused(game, "pay Anna Boris 1 000", "usage")
    refused(game, "pay Anna Boris 10 0", "usage")
    game.apply("pay Anna Boris 1000")
    assert game.state.cash("Boris") - game.state.cash("Anna") == 2000


def test_land_says_double_or_nothing():
    game = new(rules_of("elite"))
    refused(game, "land leisure3 dbl", "usage")
    refused(game, "land leisure3 double please", "usage")
    game.apply("land leisure3")
    assert game.state.position["Anna"] == 3


# ----- numbers --------------------------------------------------------------------------------


@pytest.mark.parametrize("amount", ["+5", "1_000", "-3", "5.0", "１２", "0x10", "1e3", "٣", "²", "$5", "5$"])
def test_a_number_is_ascii_digits_only(amount):
    game = new(rules_of("elite"))
    exc = refused(game, f"pay Anna Boris {amount}", "not_a_number")
    assert exc.params["value"] == amount


def test_money_is_bounded_by_one_constant():
    game = new(rules_of("elite"))
    exc = refused(game, f"pay Anna Boris {MAX_AMOUNT + 1}", "out_of_range")
    assert exc.params["high"] == MAX_AMOUNT
    refused(game, "pay Anna Boris " + "9" * 150, "out_of_range")
    # within bounds it is the rules that answer (Anna has 2000)
    refused(game, f"pay Anna Boris {MAX_AMOUNT}", "insufficient_funds")
    game.apply("pay Anna Boris 0007")
    assert game.state.cash("Boris") == game.state.cash("Anna") + 14


@pytest.mark.parametrize(
    "line, code",
    [
        ("roll ３ 4", "not_a_number"),
        ("roll +3 4", "not_a_number"),
        ("roll 3 7", "out_of_range"),
        ("buy_shares Anna 1_0", "not_a_number"),
        ("commission Anna 1 -5", "not_a_number"),
        ("jackpot 5.0 1 1 1", "not_a_number"),
    ],
)
def test_dice_counts_bets_and_fees_are_numbers_too(line, code):
    game = new(rules_of("elite"))
    refused(game, line, code)


def test_leading_zeros_are_still_digits():
    game = new(rules_of("elite"))
    game.apply("roll 01 002")
    assert game.state.last_dice == (1, 2)


def test_a_trade_takes_one_amount_per_side():
    rules = rules_of("elite")
    game = new(rules)
    game.apply("land leisure3")
    game.apply("buy")
    exc = refused(game, "trade Anna Boris give leisure3 get 1 000", "trade_one_amount")
    assert exc.params["amounts"] == ["1", "000"]
    refused(game, "trade Anna Boris give leisure3 get +150", "not_a_number")
    refused(game, "trade Anna Boris give leisure3 get $150", "not_a_number")
    refused(game, "trade Anna Boris give leisure3 get 0", "out_of_range")
    game.apply("trade Anna Boris give leisure3 get 150")
    assert game.state.owner["leisure3"] == "Boris"


# ----- quoted names, stored with their quotes ----------------------------------------------------


def test_quoted_words_are_one_word_and_stored_canonically():
    rules = rules_of("elite")
    game = new(rules)
    exc = refused(game, 'pay "Anna Maria" Boris 5', "unknown_player")
    assert exc.params["player"] == "Anna Maria"  # one word, not "Anna" and a stray "Maria"
    refused(game, 'pay Anna Boris "5 0"', "not_a_number")
    game.apply("roll 1 2")
    game.apply("buy")
    refused(game, 'mortgage "leisure 3"', "unknown_plot")
    refused(game, "mortgage leisure #3", "unknown_plot")  # `#3` is a comment
    event = game.apply('MORTGAGE   "leisure3"   # quotes are allowed around any word')
    assert event.command == "mortgage leisure3"
    assert "leisure3" in game.state.mortgaged
    assert Game.replay(rules, game.events).state.signature() == game.state.signature()


def test_apply_takes_a_parsed_command():
    rules = rules_of("elite")
    game = new(rules)
    s = rules.apply(game.state, Command("pay", ("Anna", "Boris", "5")))
    assert s.cash("Boris") == game.state.cash("Boris") + 5
    with pytest.raises(BadCommand) as info:
        rules.apply(game.state, Command("pay", ("Anna", "Boris", "5", "0")))
    assert info.value.code == "usage"
