"""Every rule option of every edition in words, English and Russian, for the box's OLED menu of a new game.

The words themselves are data: companion/words/locale/<lang>/LC_MESSAGES/options.po (msgctxt: the
table below, msgid: the option or value); this module holds what puts them together.

An option's name and each of its values are words a player reads, in the rulebooks' terms
(the Russian Elite rulebook's for the Millionaire family: круговой доход, НАЛОГОВАЯ ИНСПЕКЦИЯ,
полис, ПУНКТ, ФОРТУНА; companion/words/glossary.toml spells them); `option_line` puts the two
together ("Circle income: 200"), short enough for two lines of the 128-pixel screen.

Names and choice words are general (`OPTION_NAMES`, `CHOICE_WORDS`: the Millionaire family's,
Elite first), with overrides where an option means something else in an edition
(`EDITION_OPTION_NAMES`, `EDITION_CHOICE_WORDS`: Monopoly's Jail and GO salary). They are keyed by
the edition's id; an edition file whose id has none takes those of its rules module (a table's
copy of monopoly.toml under another id still reads "Jail").

`settable_options` lists what a table sets from the box, house rules and the rulebook's variants
first. It leaves out (`NOT_SET_AT_THE_BOX`) what is no rule a family argues about but a fact of the
box or of the edition file, which the box's buttons could only break:

- `undo_window`: how far back `undo` reaches, a memory bound, not a rule of play;
- `dice`: the number of dice the box holds (doubles need two; Mad Millionaire rolls one);
- `land_checks_distance`, `check_moves`: guards against a mistyped landing or move;
- `movement_deck`, `central_industry`, `discard_decks`: which deck or industry of the file plays a
  part (the FORTUNE pile is the rulebook's, not a variant), ids of the file;
- `monopoly_rent_multiplier`: checked against the file's rent rows, so a game started with
  another value is refused until the file is edited;
- `sale_faces`, `face_up`: lists of the printed dice pictures and the set-up table, edited in the
  file to match the box.

Every other option is listed; one a rules module adds later comes after the known ones, so the box
never hides a rule nobody sorted. Those left out have their words too, for any screen that lists a
game's options.
"""

from functools import lru_cache
from typing import Any

from companion.editions import load_edition
from companion.engine.board import MONEY_MAX
from companion.engine.rulesets import RULESETS
from companion.words.catalog import Table
from companion.words.grammar import plural
from companion.words.messages import FACES, LANGUAGES, deck_name, industry_name, joined

# the OLED's grouping of a sum (companion/daemon/screens.money, which this layer may not import) with
# the separator its THOUSANDS says it is, a thin no-break space: "13 750". (The character there is a
# plain space, at which the OLED's wrap can split a sum; wrap never breaks at this one.)
THOUSANDS = "\u202f"
# Russian writes a space before the per cent sign («20 %», the Elite rulebook); it never breaks there
PERCENT = Table("options", "PHRASES/PERCENT")
# money as the edition's catalogue shows it: Mad Millionaire's is dollars ("$10 000")
CURRENCY = {"madmillionaire": "${}"}

YES_NO = Table("options", "YES_NO")
NONE = Table("options", "PHRASES/NONE")

# ----- option names ------------------------------------------------------------------------------
OPTION_NAMES = Table("options", "OPTION_NAMES")

# where an option means something else in an edition (by edition id; see the docstring)
EDITION_OPTION_NAMES = {"monopoly": Table("options", "EDITION_OPTION_NAMES/monopoly")}

# ----- the words of a value ------------------------------------------------------------------------
# text choices (OPTION_CHOICES) and the yes/no options a phrase says better than yes or no
CHOICE_WORDS = Table("options", "CHOICE_WORDS")
# an edition's own choice words (by edition id, as EDITION_OPTION_NAMES)
EDITION_CHOICE_WORDS = {"monopoly": Table("options", "EDITION_CHOICE_WORDS/monopoly")}


# whole numbers said with their unit; {n} the number (money grouped, per cent signed), {nth} its ordinal
NUMBER_WORDS = Table("options", "NUMBER_WORDS")
# what a zero means where it switches a rule off or leaves a choice open
ZERO_WORDS = Table("options", "ZERO_WORDS")
# Mad Millionaire's sale prices for the die's faces, as multiples of the buy price
FACE_SIGNS = {"half": "×½", "full": "×1", "double": "×2", "triple": "×3"}


def _lang(language: str) -> str:
    return language if language in LANGUAGES else "en"


@lru_cache(maxsize=None)
def _shipped(edition_id: str):
    return load_edition(edition_id)


def _edition(edition):
    """An Edition, from itself or a shipped edition's id."""
    return _shipped(edition) if isinstance(edition, str) else edition


def _override(table: dict, ed, lang: str) -> dict:
    """The edition's entries of an override table: by its id, else by its rules module."""
    entry = table.get(ed.id) or table.get(ed.rules) or {}
    return entry.get(lang, {})


def option_name(edition, key: str, language: str = "en") -> str:
    """An option's name as a player reads it: "Circle income", «Круговой доход»."""
    ed, lang = _edition(edition), _lang(language)
    own = _override(EDITION_OPTION_NAMES, ed, lang)
    if key in own:
        return own[key]
    return OPTION_NAMES[lang].get(key) or OPTION_NAMES["en"].get(key) or key


def _choice(ed, key: str, value, lang: str) -> str | None:
    if not isinstance(value, (bool, str)):
        return None
    for table in (_override(EDITION_CHOICE_WORDS, ed, lang), CHOICE_WORDS[lang]):
        words = table.get(key, {})
        if value in words and type(value) is type(next(iter(words))):
            return words[value]
    return None


def money(amount: int, edition=None) -> str:
    """A sum as the OLED shows it, digits in groups of three ("13 750"; "$10 000" in Mad Millionaire)."""
    digits = ("-" if amount < 0 else "") + f"{abs(amount):,}".replace(",", THOUSANDS)
    return CURRENCY.get(getattr(edition, "rules", ""), "{}").format(digits)


def _ordinal(n: int, lang: str) -> str:
    if lang == "ru":
        return f"{n}-го"
    suffix = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _number(ed, key: str, value: int, lang: str) -> str:
    if value == 0 and key in ZERO_WORDS[lang]:
        return ZERO_WORDS[lang][key]
    high = RULESETS[ed.rules].OPTION_RANGES.get(key, (0, 0))[1]
    if key.endswith("_percent"):
        shown = PERCENT[lang].format(n=value)
    elif high == MONEY_MAX:
        shown = money(value, ed)
    else:
        shown = str(value)
    template = NUMBER_WORDS[lang].get(key)
    if template is None:
        return shown
    return plural(value, template).format(n=shown, nth=_ordinal(value, lang))


def value_words(edition, key: str, value, language: str = "en") -> str:
    """An option's value in words: yes/no or a phrase, a number with its unit, deck names, never an id."""
    ed, lang = _edition(edition), _lang(language)
    chosen = _choice(ed, key, value, lang)
    if chosen is not None:
        return chosen
    if isinstance(value, bool):
        return YES_NO[lang][value]
    if isinstance(value, int):
        return _number(ed, key, value, lang)
    if key in ("movement_deck", "discard_decks"):
        decks = [value] if isinstance(value, str) else list(value)
        return joined([str(deck_name(ed, d, lang)) for d in decks], lang) if decks else NONE[lang]
    if key == "central_industry":
        return str(industry_name(ed, value, lang))
    if key == "face_up":
        return "/".join(str(v) for v in value)  # one number per player count: 2/2/2/3/4/4
    if key == "sale_faces":
        return " ".join(FACE_SIGNS.get(face, FACES[lang].get(face, face)) for face in value)
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) if value else NONE[lang]
    return str(value)


def option_line(edition, key: str, value, language: str = "en") -> str:
    """One menu line: "GO salary: 200", «Круговой доход: 200»."""
    return f"{option_name(edition, key, language)}: {value_words(edition, key, value, language)}"


# ----- what a table sets from the box ------------------------------------------------------------
# house rules and the rulebook's variants first, then the figures of the rules, then the fine print
SETTABLE_ORDER = (
    # Monopoly's house rules and short game
    "free_parking_pot",
    "go_landing_bonus",
    "jail_blocks_rent",
    "end_at_bankruptcy",
    "start_deal",
    "hotel_after_houses",
    # Mad Millionaire's RULE VARIATIONS
    "target",
    "finish_exact",
    "one_way",
    "six_rule",
    # the readings a family argues about
    "three_doubles_detain",
    "inspection_landing_detains",
    "monopoly_broken_by_mortgage",
    "decline_opens_auction",
    "auction_opening_percent",
    "card_move_collects",
    "movement_collects",
    "black_business_lands_on_fund",
    "unpayable_card_kept",
    "rating_top_wins",
    "rating_down_when_sent",
    "circle_tax_when_sent",
    "tax_on_mortgaged",
    "fortune_sets",
    "central_tax",
    "long_term_policies",
    "red_policy_pays_owner",
    "sell_shares_in_debt",
    "wealth_counts_shares",
    "bankrupt_to_bank",
    "trade_mortgaged",
    "building_shortage_auction",
    "card_utility_roll",
    "finish_late_cash",
    # the rules' figures
    "circle_income",
    "start_jackpot",
    "jackpot_min_bet",
    "jackpot_max_bet",
    "share_start_price",
    "share_point",
    "dividend_percent",
    "share_tax",
    "policy_green",
    "policy_blue",
    "policy_orange",
    "policy_red",
    "detention_fine",
    "detention_tries",
    "detention_third_miss",
    "black_business_fine",
    "rating_step_value",
    "signs",
    "stunt_unit",
    "six_bonus",
    "sale_round",
    # mortgage and sale terms
    "mortgage_needs_empty_industry",
    "redeem_interest_percent",
    "redeem_interest_base",
    "transfer_interest_percent",
    "building_sale_percent",
)
NOT_SET_AT_THE_BOX = (
    "undo_window",
    "dice",
    "land_checks_distance",
    "check_moves",
    "movement_deck",
    "central_industry",
    "discard_decks",
    "monopoly_rent_multiplier",
    "sale_faces",
    "face_up",
)


def settable_options(rules: Any) -> list[str]:
    """The options a table sets from the box for a new game of these rules (a class or an instance),
    in the menu's order; see the module's docstring for those left out."""
    options = rules.OPTIONS  # a class attribute: the same on the class and on an instance
    known = [key for key in SETTABLE_ORDER if key in options]
    later = [key for key in options if key not in SETTABLE_ORDER and key not in NOT_SET_AT_THE_BOX]
    return known + later
