"""Edition files never halt a game from their own data (docs/edition-format.md, "Ranges"):
every number has a range checked when the file loads (and when `--option KEY=VALUE`
sets it), ids can be typed in commands, a file's bytes are read as UTF-8 with a byte
order mark dropped, damaged files give one EditionError, and games played with the
values at the edges of their ranges keep the books."""

import random
import re
import tomllib
from pathlib import Path

import pytest
from helpers import play_checked

from companion.editions import HERE, decode_edition, load_edition, parse_edition, rules_for, set_options, shipped
from companion.engine.board import MONEY, MONEY_MAX, build_edition
from companion.engine.rulesets import RULESETS
from companion.errors import EditionError

EDITIONS = shipped()
ROOT = Path(__file__).resolve().parent.parent
# each rules module with the shipped edition that plays it
SHIPPED_FOR = {load_edition(e).rules: e for e in EDITIONS}
NAMES = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zoya", "Ilya"]


def text_of(edition_id):
    return (HERE / f"{edition_id}.toml").read_text(encoding="utf-8")


def int_options(rules_cls):
    return {k: v for k, v in rules_cls.OPTIONS.items() if isinstance(v, int) and not isinstance(v, bool)}


def with_option_line(text, key, value_text):
    """The file text with `key = value_text` as the only such line in [options]."""
    text = re.sub(rf"^{re.escape(key)}\s*=.*\n", "", text, flags=re.M)
    return text.replace("\n[options]\n", f"\n[options]\n{key} = {value_text}\n", 1)


def edited(edition_id, path, value):
    """The shipped file's data with the value at `path` (keys and list indexes) replaced,
    built as the loader builds it; a path ending in a missing key adds it."""
    data = tomllib.loads(text_of(edition_id))
    node = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    rules = data["edition"]["rules"]
    return build_edition(data, "edited.toml", RULESETS[rules])


# ----- every option has a range; one step outside it is refused ---------------------------------


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_every_integer_option_has_a_range_holding_its_default(rules):
    cls = RULESETS[rules]
    ints = int_options(cls)
    assert set(ints) <= set(cls.OPTION_RANGES), f"no range for {sorted(set(ints) - set(cls.OPTION_RANGES))}"
    assert set(cls.OPTION_RANGES) <= set(ints), "a range for an option that is not a whole number"
    for key, default in ints.items():
        low, high = cls.OPTION_RANGES[key]
        assert low <= default <= high, key
        assert high <= MONEY_MAX, key
    for key, choices in cls.OPTION_CHOICES.items():
        assert cls.OPTIONS[key] in choices, key


OUTSIDE = [
    (rules, key, side)
    for rules in sorted(RULESETS)
    for key in sorted(int_options(RULESETS[rules]))
    for side in ("below", "above")
]


def outside(rules, key, side):
    low, high = RULESETS[rules].OPTION_RANGES[key]
    return low - 1 if side == "below" else high + 1


@pytest.mark.parametrize("rules, key, side", OUTSIDE, ids=[f"{r}-{k}-{s}" for r, k, s in OUTSIDE])
def test_an_option_one_step_outside_its_range_is_refused_on_load(rules, key, side):
    value = outside(rules, key, side)
    text = with_option_line(text_of(SHIPPED_FOR[rules]), key, str(value))
    with pytest.raises(EditionError) as exc:
        parse_edition(text, "edited.toml")
    assert exc.value.key == f"options.{key}"
    assert str(value) in exc.value.problem


@pytest.mark.parametrize("rules, key, side", OUTSIDE, ids=[f"{r}-{k}-{s}" for r, k, s in OUTSIDE])
def test_an_option_one_step_outside_its_range_is_refused_when_chosen(rules, key, side):
    """`companion new ... --option KEY=VALUE` goes through set_options: typed text or a number."""
    value = outside(rules, key, side)
    for given in (str(value), value):
        with pytest.raises(EditionError) as exc:
            load_edition(SHIPPED_FOR[rules], {key: given})
        assert exc.value.key == f"options.{key}"


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_each_bound_of_an_option_range_is_accepted_alone(rules):
    """The bounds themselves are values a table may choose (unless another key limits them)."""
    cls = RULESETS[rules]
    linked = {"jackpot_min_bet", "jackpot_max_bet", "hotel_after_houses", "start_deal", "monopoly_rent_multiplier"}
    for key in int_options(cls):
        if key in linked:
            continue
        for value in cls.OPTION_RANGES[key]:
            ed = load_edition(SHIPPED_FOR[rules], {key: value})
            assert ed.options[key] == value


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_text_and_list_options_have_a_checked_shape(rules):
    """Text options take one of their choices or name a deck or industry of the file; list
    options hold what the rules read (deck names, sale faces, counts)."""
    cls = RULESETS[rules]
    for key, default in cls.OPTIONS.items():
        if isinstance(default, str):
            bad = ["no_such_thing", "", 5]
        elif isinstance(default, list):
            bad = [[12], ["no_such_thing"], "fortune"]  # text is read as TOML: not a value
        else:
            continue
        for value in bad:
            with pytest.raises(EditionError) as exc:
                load_edition(SHIPPED_FOR[rules], {key: value})
            assert exc.value.key.startswith(f"options.{key}"), (key, value, exc.value)


def test_jackpot_bets_and_the_short_games_deal_are_checked_against_the_file():
    with pytest.raises(EditionError) as exc:
        load_edition("elite", {"jackpot_min_bet": 600})  # above jackpot_max_bet 500
    assert exc.value.key == "options.jackpot_min_bet"
    with pytest.raises(EditionError) as exc:
        load_edition("monopoly", {"hotel_after_houses": 5})  # four houses per lot in the box
    assert exc.value.key == "options.hotel_after_houses"
    # dealt 2 deeds each: the dearest two (Boardwalk 400, Park Place 350) must be payable from 1500
    assert load_edition("monopoly", {"start_deal": 2}).options["start_deal"] == 2
    with pytest.raises(EditionError) as exc:
        load_edition("monopoly", {"start_deal": 5})  # 400+350+320+300+300 > 1500
    assert exc.value.key == "options.start_deal"


def test_an_option_typed_on_the_command_line_cannot_write_other_keys():
    """A quote or a newline in a typed text option stays inside the value."""
    for typed in ('ask"\nstart_cash = 5', "ask\nstart_cash = 5", 'auto" # '):
        with pytest.raises(EditionError) as exc:
            load_edition("elite", {"long_term_policies": typed})
        assert exc.value.key == "options.long_term_policies"
    assert load_edition("elite", {"long_term_policies": "auto"}).start_cash == 2000


# ----- every section: negative, too large and wrong-typed values are named --------------------------

TOO_BIG = 10**20  # beyond a 64-bit ledger integer
BAD_MONEY = [-1, MONEY_MAX + 1, TOO_BIG, "abc", 2.5, True]

SECTIONS = [
    # (edition, path to the value, the key the error names)
    ("elite", ("edition", "start_cash"), "edition.start_cash"),
    ("elite", ("supply", "shares"), "supply.shares"),
    ("monopoly", ("cells", 1, "price"), "cells[1].price"),
    ("monopoly", ("cells", 1, "build_cost"), "cells[1].build_cost"),
    ("monopoly", ("cells", 1, "mortgage"), "cells[1].mortgage"),
    ("monopoly", ("cells", 4, "amount"), "cells[4].amount"),  # Income Tax
    ("elite", ("industries", 0, "build_cost"), "industries[0].build_cost"),
    ("monopoly", ("decks", "community_chest", 2, "effects", 0, "amount"), "decks.community_chest[2].effects[0].amount"),
    ("elite", ("slot", "wins", 1, "amount"), "slot.wins[1].amount"),
    ("madmillionaire", ("extra", "lease", "a1"), "extra.lease.a1"),
]


def value_at(edition_id, path):
    node = tomllib.loads(text_of(edition_id))
    for step in path:
        node = node[step]
    return node


@pytest.mark.parametrize("bad", BAD_MONEY, ids=repr)
@pytest.mark.parametrize("edition, path, key", SECTIONS, ids=[s[2] for s in SECTIONS])
def test_a_bad_amount_in_any_section_is_named_on_load(edition, path, key, bad):
    if path[-1] == "amount" and path[0] == "slot":
        assert "amount" not in value_at(edition, path[:-1])  # a multiplier line: make it an amount
        with pytest.raises(EditionError) as exc:
            edited(edition, path[:-1], {"combo": ["bar", "bar", "bar"], "amount": bad})
    elif path[0] == "supply":
        with pytest.raises(EditionError) as exc:
            edited(edition, path, bad if bad != MONEY_MAX + 1 else 1001)
    else:
        with pytest.raises(EditionError) as exc:
            edited(edition, path, bad)
    assert exc.value.key == key, exc.value


LISTS = [
    ("elite", ("cells", 1, "rent"), "cells[1].rent[2]"),
    ("elite", ("cells", 1, "tax"), "cells[1].tax[2]"),
    ("elite", ("industries", 8, "rent_by_count"), "industries[8].rent_by_count[2]"),
    ("elite", ("industries", 8, "tax_by_count"), "industries[8].tax_by_count[2]"),
]


@pytest.mark.parametrize("bad", BAD_MONEY, ids=repr)
@pytest.mark.parametrize("edition, path, key", LISTS, ids=[s[2] for s in LISTS])
def test_a_bad_amount_in_a_table_row_names_its_place(edition, path, key, bad):
    row = list(value_at(edition, path))
    row[2] = bad
    with pytest.raises(EditionError) as exc:
        edited(edition, path, row)
    assert exc.value.key == key, exc.value


NUMBERS = [
    # (edition, path, values refused, key)
    ("elite", ("edition", "players_min"), [0, 9, "2"], "edition.players_min"),
    ("monopoly", ("edition", "players_max"), [9, -1, 1], "edition"),  # 1 < players_min 2 names players_min
    ("elite", ("buildings", "small_max"), [-1, 11, "3"], "buildings.small_max"),
    ("elite", ("buildings", "large_max"), [-1, 11], "buildings.large_max"),
    (
        "monopoly",
        ("industries", 9, "dice_multiplier_by_count"),
        [[4, -1], [4, 101], [4, "10"]],
        "industries[9].dice_multiplier_by_count[1]",
    ),
    ("monopoly", ("supply", "small"), [-1, 1001, "32"], "supply.small"),
    (
        "elite",
        ("decks", "chance", 19, "effects", 0, "steps"),
        [-101, 101, "3", 1.0],
        "decks.chance[19].effects[0].steps",
    ),
    (
        "elite",
        ("decks", "fortune", 24, "effects", 0, "points"),
        [-101, 101, "3"],
        "decks.fortune[24].effects[0].points",
    ),
    ("elite", ("decks", "fortune", 22, "effects", 0, "percent"), [-1, 101], "decks.fortune[22].effects[0].percent"),
    (
        "elite",
        ("decks", "fortune", 0, "effects", 0, "amount"),
        [-1, 10**9 + 1, "3"],
        "decks.fortune[0].effects[0].amount",
    ),
    ("elite", ("decks", "chance", 13, "effects", 0, "count"), [0, 11, 10**9], "decks.chance[13].effects[0].count"),
    (
        "monopoly",
        ("decks", "chance", 4, "effects", 0, "rent_multiplier"),
        [0, 11, "2"],
        "decks.chance[4].effects[0].rent_multiplier",
    ),
    (
        "monopoly",
        ("decks", "chance", 3, "effects", 0, "dice_multiplier"),
        [0, 101],
        "decks.chance[3].effects[0].dice_multiplier",
    ),
    ("elite", ("slot", "wins", 1, "multiplier"), [0, 1001, "10"], "slot.wins[1].multiplier"),
    ("elite", ("slot", "wins", 0, "jackpot"), [False, "yes", 1], "slot.wins[0].jackpot"),
    ("deluxe", ("extra", "rating_places"), [[4, 0], [4, 9], [4, "3"], [True]], "extra.rating_places"),
    ("deluxe", ("extra", "rating_places"), [[], [1] * 21, "7"], "extra.rating_places"),
    (
        "madmillionaire",
        ("options", "face_up"),
        [[2, 2, 2, 3, 4, 0], [2, 2, 2, 3, 4, 101], [2, 2, 2, 3, 4, 32]],
        "options.face_up",
    ),
]


@pytest.mark.parametrize("edition, path, values, key", NUMBERS, ids=[f"{n[2]}" for n in NUMBERS])
def test_counts_dice_percentages_and_steps_have_their_own_ranges(edition, path, values, key):
    value_at(edition, path[:-1])
    for bad in values:
        with pytest.raises(EditionError) as exc:
            edited(edition, path, bad)
        assert exc.value.key.startswith(key), (bad, exc.value)


def test_the_shipped_effects_used_by_the_range_tests_are_the_ones_meant():
    """The paths above point at the effects they name (guarding the tests against file edits)."""
    assert value_at("elite", ("decks", "chance", 19, "effects", 0))["do"] == "move_steps"
    assert value_at("elite", ("decks", "fortune", 24, "effects", 0))["do"] == "share_price"
    assert value_at("elite", ("decks", "fortune", 22, "effects", 0))["do"] == "dividend_percent"
    assert value_at("elite", ("decks", "fortune", 0, "effects", 0))["do"] == "set_rent"
    assert value_at("elite", ("decks", "chance", 13, "effects", 0))["do"] == "draw_fortune"
    assert "rent_multiplier" in value_at("monopoly", ("decks", "chance", 4, "effects", 0))
    assert "dice_multiplier" in value_at("monopoly", ("decks", "chance", 3, "effects", 0))
    assert value_at("monopoly", ("decks", "community_chest", 2, "effects", 0))["do"] == "pay"
    assert value_at("monopoly", ("cells", 4, "kind")) == "tax"
    assert value_at("elite", ("industries", 8, "id")) == "central"
    assert value_at("monopoly", ("industries", 9, "dice_multiplier_by_count")) == [4, 10]


@pytest.mark.parametrize(
    "edition, path, value, key",
    [
        ("monopoly", ("cells", 4, "amont"), 200, "cells[4].amont"),  # a typo is not ignored
        ("monopoly", ("cells", 0, "amount"), 200, "cells[0].amount"),  # START takes no amount
        (
            "monopoly",
            ("decks", "community_chest", 2, "effects", 0, "colect"),
            False,
            "decks.community_chest[2].effects[0].colect",
        ),
        (
            "monopoly",
            ("decks", "community_chest", 2, "effects", 0, "to"),
            ["bank"],
            "decks.community_chest[2].effects[0].to",
        ),
        (
            "monopoly",
            ("decks", "chance", 4, "effects", 0, "industry"),
            ["railroad"],
            "decks.chance[4].effects[0].industry",
        ),
        ("elite", ("decks", "chance", 0, "effects", 0, "do"), ["receive"], "decks.chance[0].effects[0].do"),
        ("elite", ("decks", "chance", 0, "effects", 0, "amount"), "100", "decks.chance[0].effects[0].amount"),
        ("elite", ("supply", "houses"), 12, "supply.houses"),
        ("monopoly", ("slot",), {"reels": []}, "slot"),
        ("elite", ("extra",), {"rating_places": [1]}, "extra.rating_places"),
        ("elite", ("slot", "wins"), [1], "slot.wins[0]"),
        ("elite", ("slot", "wins", 0, "combo"), ["seven", 7, "seven"], "slot.wins[0].combo"),
        ("elite", ("slot", "reels", 0), [1, 2, 3, 4, 5, 6], "slot.reels"),
        ("elite", ("options", "discard_decks"), [["fortune"]], "options.discard_decks[0]"),
        ("madmillionaire", ("extra", "rows", 0), ["a1", ["a2"]], "extra.rows[0]"),
        ("madmillionaire", ("extra", "streets", 0, "name"), 5, "extra.streets[0].name"),
        ("classic", ("options", "movement_deck"), "moves", "options.movement_deck"),
        ("elite", ("options", "central_industry"), "centre", "options.central_industry"),
        ("elite", ("cells", 1, "mortgage"), 10**6, "cells[1].mortgage"),  # more than the price
        ("elite", ("cells", 6, "deck"), "chance", "cells[6].deck"),  # EXCHANGE draws no card
    ],
)
def test_keys_the_rules_would_misread_are_named(edition, path, value, key):
    with pytest.raises(EditionError) as exc:
        edited(edition, path, value)
    assert exc.value.key == key, exc.value


def test_a_card_cell_without_a_deck_is_refused():
    data = tomllib.loads(text_of("elite"))
    card_cell = next(i for i, c in enumerate(data["cells"]) if c["kind"] == "card")
    del data["cells"][card_cell]["deck"]
    with pytest.raises(EditionError) as exc:
        build_edition(data, "edited.toml", RULESETS["elite"])
    assert exc.value.key == f"cells[{card_cell}].deck"


def test_an_unbuildable_plot_lists_two_rents():
    """Printed and monopoly: a longer row would never be read, a shorter one fails when landed on."""
    data = tomllib.loads(text_of("elite"))
    data["industries"][8]["rent_by_count"] = []
    central = next(i for i, c in enumerate(data["cells"]) if c.get("industry") == "central")
    data["cells"][central]["rent"] = [50]
    with pytest.raises(EditionError) as exc:
        build_edition(data, "edited.toml", RULESETS["elite"])
    assert exc.value.key == f"cells[{central}].rent" and "2 amounts" in exc.value.problem


# ----- ids and names --------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["my elite", "", "Elite", "élite", "a" * 33, "elite#2", "x\n", 5])
def test_an_edition_id_that_a_command_line_cannot_carry_is_refused(bad):
    """The id is written in the game's first command, `new EDITION SEED PLAYER...`."""
    with pytest.raises(EditionError) as exc:
        edited("elite", ("edition", "id"), bad)
    assert exc.value.key == "edition.id"


@pytest.mark.parametrize("good", ["elite", "a", "my-elite_2", "x" * 32, "2024"])
def test_edition_ids_of_lower_case_letters_digits_dash_and_underscore_load(good):
    assert edited("elite", ("edition", "id"), good).id == good


@pytest.mark.parametrize(
    "path, key",
    [
        (("edition", "name"), "edition.name"),
        (("industries", 0, "name"), "industries[0].name"),
        (("cells", 1, "name"), "cells[1].name"),
        (("cells", 0, "name"), "cells[0].name"),
    ],
)
def test_names_must_not_be_empty(path, key):
    for bad in ("", "   "):
        with pytest.raises(EditionError) as exc:
            edited("elite", path, bad)
        assert exc.value.key == key


@pytest.mark.parametrize(
    "path, key",
    [
        (("cells", 1, "id"), "cells[1].id"),
        (("industries", 0, "id"), "industries[0].id"),
        (("decks", "chance", 0, "id"), "decks.chance[0].id"),
    ],
)
@pytest.mark.parametrize("bad", ["two words", "", "12", "a#b", "x" * 33])
def test_ids_typed_in_commands_are_one_word(path, key, bad):
    """Cells, industries and cards are named in commands and stored command lines (`draw CARD`)."""
    with pytest.raises(EditionError) as exc:
        edited("elite", path, bad)
    assert exc.value.key == key


# ----- every shipped edition; bytes, byte order marks and damaged files ------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_shipped_edition_loads_within_its_ranges(edition):
    ed = load_edition(edition)
    assert 0 <= ed.start_cash <= MONEY_MAX
    cls = RULESETS[ed.rules]
    for key, (low, high) in cls.OPTION_RANGES.items():
        assert low <= ed.options[key] <= high, key
    for cell in ed.cells:
        for amount in (cell.price, cell.build_cost, cell.mortgage, *cell.rent, *cell.tax):
            assert 0 <= amount <= MONEY_MAX, cell.id


def test_a_byte_order_mark_is_dropped_and_never_stored(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + text_of("elite").encode("utf-8"))
    ed = load_edition(str(path))
    assert not ed.text.startswith("\ufeff") and ed.text == text_of("elite")
    chosen = load_edition(str(path), {"long_term_policies": "auto"})
    assert not chosen.text.startswith("\ufeff") and chosen.options["long_term_policies"] == "auto"
    assert parse_edition("\ufeff" + text_of("elite"), "stored").text == text_of("elite")


@pytest.mark.parametrize(
    "bad, where",
    [
        (b"\xff", "start"),
        (b"\xc3", "a cut two-byte letter"),
        (b"\xed\xa0\x80", "a surrogate"),
    ],
)
def test_bytes_that_are_not_utf8_are_one_error_naming_the_offset(tmp_path, bad, where):
    raw = text_of("elite").encode("utf-8")
    offset = raw.index(b"[options]")
    path = tmp_path / "latin.toml"
    path.write_bytes(raw[:offset] + bad + b" " + raw[offset:])
    with pytest.raises(EditionError) as exc:
        load_edition(str(path))
    assert exc.value.key == "file" and f"byte {offset} " in exc.value.problem, (where, exc.value)
    assert "\n" not in str(exc.value)
    with_bom = tmp_path / "bom-latin.toml"
    with_bom.write_bytes(b"\xef\xbb\xbf" + raw[:offset] + bad + raw[offset:])
    with pytest.raises(EditionError) as exc:
        load_edition(str(with_bom))
    assert f"byte {offset + 3} " in exc.value.problem  # the offset in the file, mark included


@pytest.mark.parametrize(
    "content",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        b"hello world\nthis is not toml\n",
        b"",
        b"[edition\n",
        b"a = " + b"[" * 5000,
        b"x = " + b"9" * 5000,
        b"[edition]\nid = 'x'\n" * 2,
    ],
    ids=["png", "prose", "empty", "open-bracket", "deep", "long-number", "twice"],
)
def test_a_file_that_is_not_an_edition_is_one_line(tmp_path, content):
    path = tmp_path / "not.toml"
    path.write_bytes(content)
    with pytest.raises(EditionError) as exc:
        load_edition(str(path))
    assert "\n" not in str(exc.value) and len(str(exc.value)) < 400


def test_windows_line_endings_load_and_take_options():
    crlf = text_of("elite").replace("\n", "\r\n")
    assert parse_edition(crlf, "crlf.toml").start_cash == 2000
    ed = parse_edition(set_options(crlf, {"long_term_policies": "auto"}, "crlf.toml"), "crlf.toml")
    assert ed.options["long_term_policies"] == "auto"


def load_bytes(raw, source):
    """What load_edition does with a file's bytes."""
    return parse_edition(decode_edition(raw, source), source)


def must_load_or_refuse(raw, source):
    try:
        return load_bytes(raw, source)
    except EditionError as exc:
        assert "\n" not in str(exc), str(exc)
        return None


@pytest.mark.parametrize("edition", EDITIONS)
def test_truncated_and_byte_flipped_files_load_or_give_an_edition_error(edition):
    """Seeded damage to every shipped file: cut anywhere, or bytes changed anywhere."""
    raw = (HERE / f"{edition}.toml").read_bytes()
    rng = random.Random(f"fuzz-{edition}")
    for cut in sorted(rng.sample(range(len(raw)), 30)):
        must_load_or_refuse(raw[:cut], f"{edition}-cut{cut}")
    for _ in range(60):
        damaged = bytearray(raw)
        for _ in range(rng.choice((1, 1, 2, 5))):
            i = rng.randrange(len(damaged))
            damaged[i] = rng.choice(
                (rng.randrange(256), damaged[i] ^ (1 << rng.randrange(8)), ord(rng.choice('-0"[]{}=.,\n#')))
            )
        must_load_or_refuse(bytes(damaged), f"{edition}-flipped")


NUMBER = re.compile(rb"(?<=[=,\[] )-?\d+(?=[ ,\]\n])")
ODD_VALUES = [
    b"-1",
    b"0",
    b"-0",
    b"1000000001",
    b"100000000000000000000",
    b"9223372036854775808",
    b'"12"',
    b"1.5",
    b"true",
    b"[]",
    b"{}",
    b"-9999",
    b"1_000",
]


@pytest.mark.parametrize("edition", EDITIONS)
def test_numbers_replaced_by_odd_values_load_or_give_an_edition_error_and_loaded_games_play(edition):
    """Every number in a file may be replaced by a negative, a huge, a text or a list value:
    the file loads (and then a game with it keeps the books) or is refused naming a key."""
    raw = (HERE / f"{edition}.toml").read_bytes()
    spots = [m.span() for m in NUMBER.finditer(raw)]
    rng = random.Random(f"values-{edition}")
    played = 0
    for trial in range(50):
        start, end = rng.choice(spots)
        damaged = raw[:start] + rng.choice(ODD_VALUES) + raw[end:]
        ed = must_load_or_refuse(damaged, f"{edition}-value{trial}")
        if ed is not None and played < 5:
            players = NAMES[: ed.players_min]
            play_checked(rules_for(ed), trial, players, max_events=150)
            played += 1


# ----- games with the values at the edges of their ranges --------------------------------------------


def at_edge(edition_id, side):
    """The shipped file's data with start_cash and every whole-number option at one end of its range
    (options that another key limits stay within it)."""
    data = tomllib.loads(text_of(edition_id))
    cls = RULESETS[data["edition"]["rules"]]
    opts = data.setdefault("options", {})
    for key, (low, high) in cls.OPTION_RANGES.items():
        opts[key] = high if side == "high" else low
    data["edition"]["start_cash"] = MONEY_MAX if side == "high" else 0
    if "hotel_after_houses" in opts:
        opts["hotel_after_houses"] = min(opts["hotel_after_houses"], data["buildings"]["small_max"])
    if "monopoly_rent_multiplier" in opts:  # Classic: the file's monopoly rents follow it
        for cell in data["cells"]:
            if cell.get("rent"):
                cell["rent"][1] = cell["rent"][0] * opts["monopoly_rent_multiplier"]
    return data


MONEY_KEYS = {
    "price",
    "rent",
    "tax",
    "build_cost",
    "mortgage",
    "amount",
    "small",
    "large",
    "rent_by_count",
    "tax_by_count",
    "start_cash",
}


def scaled(node, factor, key=None):
    """Every amount of money in the data times factor."""
    if isinstance(node, dict):
        return {k: scaled(v, factor, k) for k, v in node.items()}
    if isinstance(node, list):
        return [scaled(v, factor, key) for v in node]
    if key in MONEY_KEYS and isinstance(node, int) and not isinstance(node, bool):
        return node * factor
    return node


def largest_amount(node, key=None):
    if isinstance(node, dict):
        return max((largest_amount(v, k) for k, v in node.items()), default=0)
    if isinstance(node, list):
        return max((largest_amount(v, key) for v in node), default=0)
    return node if key in MONEY_KEYS and isinstance(node, int) and not isinstance(node, bool) else 0


def money_at_the_top(edition_id):
    """Every amount (board, cards, slot, leases, money options) times the whole factor that
    brings the largest as near MONEY_MAX as it goes; ratios the rules check are kept."""
    data = tomllib.loads(text_of(edition_id))
    cls = RULESETS[data["edition"]["rules"]]
    board = {k: v for k, v in data.items() if k not in ("supply", "options", "extra")}
    factor = MONEY_MAX // largest_amount(board)
    data.update(scaled(board, factor))
    extra = data.get("extra", {})
    if "lease" in extra:
        extra["lease"] = {pid: v * factor for pid, v in extra["lease"].items()}
    opts = data.setdefault("options", {})
    for key, (_, high) in cls.OPTION_RANGES.items():
        if high == MONEY_MAX:
            opts[key] = min(MONEY_MAX, opts.get(key, cls.OPTIONS[key]) * factor) or MONEY_MAX
    assert largest_amount(data) > MONEY_MAX // 2
    return data


EDGES = [(e, side) for e in EDITIONS for side in ("high", "low", "money")]


@pytest.mark.parametrize("edition, side", EDGES, ids=[f"{e}-{s}" for e, s in EDGES])
def test_a_game_with_values_at_the_edges_keeps_the_books(edition, side):
    """A few hundred autoplay commands: no broken invariant, no number a ledger cannot store."""
    data = money_at_the_top(edition) if side == "money" else at_edge(edition, side)
    ed = build_edition(data, f"{edition}-{side}.toml", RULESETS[data["edition"]["rules"]])
    rules = rules_for(ed)
    for seed in (1, 2):
        players = NAMES[: ed.players_max if seed == 1 else ed.players_min]
        game = play_checked(rules, seed, players, max_events=300)
        for event in game.events:
            assert all(abs(p.amount) < 2**63 for p in event.postings)
        assert all(abs(v) < 2**63 for v in game.state.balances.values())


# ----- the documentation says every range ----------------------------------------------------------

# each rules module's page, and its parent's (Deluxe is Classic plus the scale)
DOCS = {
    rules: [ROOT / ("docs/rule-choices.md" if rules == "elite" else f"docs/editions/{rules}.md")] for rules in RULESETS
}
DOCS["deluxe"].append(ROOT / "docs/editions/classic.md")


def table_rows(path):
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("|")]


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_the_docs_say_every_option_range(rules):
    """docs/edition-format.md (core and Millionaire options) or the edition's own page: a table
    row naming the option gives its range ("money" for 0..MONEY_MAX)."""
    rows = [row for page in [ROOT / "docs/edition-format.md", *DOCS[rules]] for row in table_rows(page)]
    cls = RULESETS[rules]
    for key, (low, high) in cls.OPTION_RANGES.items():
        said = "money" if (low, high) == MONEY else f"{low}..{high}"
        mine = [row for row in rows if f"`{key}`" in row]
        assert any(said in row for row in mine), f"{rules}: no table row gives `{key}` {said}"
