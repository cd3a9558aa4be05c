"""Turn message codes (notes and refusals) into English or Russian text at the edge.

The engine speaks in codes with parameters; the OLED, the phone page and the
command line call `render` with the language they show. A code without a
template still renders (as the code and its parameters), and a test checks
that every code the engine emits has a template in every language.

The templates and the tables of words are data, one gettext file a language:
companion/words/locale/<lang>/LC_MESSAGES/messages.po (see companion/words/catalog.py for how
an entry becomes a template or a table's word, and why plural forms stay inline); this module
holds what chooses and fills them. Importing it wires the errors' English words
(errors.set_renderer), so companion/errors imports no words.

Russian is written as a player reads it (tests/test_words.py holds every template to it):
a name is never declined (a player's name is the subject of a present-tense verb, which has
no gender, or stands before a colon or an arrow: «Аня → Боря: 120, аренда за участок
«Пекарня»»; a plot's, cell's or card's name stands «quoted» after a noun that takes the
case); numbers take their noun's plural form (`{count:p:акцию|акции|акций}`, CLDR rules in
companion/words/grammar.py); no «(а)» patches; the game's terms as the rulebooks spell them, from
companion/words/glossary.toml; every code a parameter carries (a pending decision, a debt's
reason, a policy's colour, a building kind, ...) shown in words, never as its id.
"""

import re
from collections.abc import Iterator, Mapping

from companion.engine.board import in_language
from companion.errors import set_renderer
from companion.words.catalog import CORE, SOURCE_LANGUAGE, Table, languages, tables
from companion.words.grammar import Formatter, Word, plural_category, term
from companion.words.head import head_words

# ===== the message catalogue: companion/words/locale/<lang>/LC_MESSAGES/messages.po =====
# A code's template is the .po entry without a context; the tables below are its entries with a context
# (msgctxt "REASONS", "EDGE", ...). The catalogue a language renders from (CATALOGS) is its own codes,
# then each edition's codes where no code of that name is there yet (test_messages checks that no
# edition's code is shadowed so), then the tables of MERGED, each over what came before.

# the editions' own codes (msgctxt "EDITIONS/<id>"), each edition's English and Russian side by side:
# Classic (engine/classic.py; Deluxe uses these too), Deluxe's rating scale, Monopoly, Mad Millionaire
MAD_MILLIONAIRE = Table("messages", "EDITIONS/madmillionaire")
CLASSIC = Table("messages", "EDITIONS/classic")
DELUXE = Table("messages", "EDITIONS/deluxe")
MONOPOLY = Table("messages", "EDITIONS/monopoly")
EDITIONS = {"madmillionaire": MAD_MILLIONAIRE, "classic": CLASSIC, "deluxe": DELUXE, "monopoly": MONOPOLY}
# the tables whose codes join the catalogue, in this order (a later one's code replaces an earlier one's)
MERGED = ("PUT_BACK", "EDGE", "BOX", "MENU", "PHONE", "WALK", "INPUT", "LOADER", "BOARDS", "EFFECT_WORDS")


class Catalogs(Mapping[str, dict[str, str]]):
    """Language -> every code's template, built from the language's messages.po on first use, then kept."""

    def __init__(self) -> None:
        self._built: dict[str, dict[str, str]] = {}

    def __getitem__(self, language: str) -> dict[str, str]:
        try:
            return self._built[language]
        except KeyError:
            if not isinstance(language, str) or language not in languages():
                raise
        own = tables("messages", language)
        codes = dict(own.get(CORE, {}))
        for edition in EDITIONS:
            for code, text in own.get(f"EDITIONS/{edition}", {}).items():
                codes.setdefault(code, text)
        for name in MERGED:
            codes.update(own.get(name, {}))
        return self._built.setdefault(language, codes)

    def __iter__(self) -> Iterator[str]:
        return iter(languages())

    def __len__(self) -> int:
        return len(languages())


CATALOGS = Catalogs()
LANGUAGES = languages()


def __getattr__(name: str) -> dict[str, str]:
    """EN and RU, the English and Russian catalogues as they were named when they were Python dicts."""
    if name in ("EN", "RU"):
        return CATALOGS[name.lower()]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# words for the `reason` parameter, which carries a code too
REASONS = Table("messages", "REASONS")

# what each command does, for refusals that name a command ("Only Anna may roll the dice now")
VERBS = Table("messages", "VERBS")

# ----- an undo's notes: what to put back on the board (Rules.board_changes) ------------------
PUT_BACK = Table("messages", "PUT_BACK")

# ===== the edge's own codes: the ledger, the table service, scripts and the command line =====
# The ledger (companion/ledger/) and the table (companion/table/service.py) raise LedgerError and its kinds
# with a code and parameters (errors.Said); scripts (companion/table/script.py) say what failed on which
# line; the command line (companion/cli/__init__.py) says what argparse found. A file's path, a command or
# a word as typed stands as typed; what the machine says (an OS or SQLite error) is said in words
# when its code is known (`detail` with its `cause`), else quoted as the machine said it.
EDGE = Table("messages", "EDGE")
# what the box says: the daemon, its reader and its cards (companion/daemon/, companion/hw/)
BOX = Table("messages", "BOX")


# ----- the box's menus: buttons, cards and the OLED (companion/daemon/console.py, menus.py) -----
MENU = Table("messages", "MENU")

# ----- the phone page (companion/daemon/phone/, web/phone/): what the box and the phones say -----
PHONE = Table("messages", "PHONE")

# issue 23: walking the board with the cards (companion/daemon/walk.py, walkdesk.py; the box and the phones)
WALK = Table("messages", "WALK")


# issue 23: menu lines with the party's name ("Boris → Anna: payment…", never "Boris: Pay: Anna"; a name is
# kept as typed, so the Russian line needs no case on it: «Боря → Аня: платёж…») are MENU's too

# ----- bad input said in the screen's language: edition files and --option values (companion/editions),
# the daemon's configuration, control socket and card map (companion/daemon/config.py, control.py, cards.py,
# cli.py). English is what these errors always said; Russian keeps the values (paths, keys, ids) as typed.
INPUT = Table("messages", "INPUT")

# issue 23: loader words. Every refusal of the edition loader (companion/engine/board.py, core.py and the
# rules modules' check_edition) as an EditionProblem: the English is what the loader always said (logs and
# tests read it from str()); the phone's board editor and `check-edition --lang ru` say it in Russian.
LOADER = Table("messages", "LOADER")

# issue 23: boards (the table's own board: companion/editions/boards.py, check-edition, the game's first notice)
BOARDS = Table("messages", "BOARDS")

# issue 23: effect parameters (a card's effect and each of its parameters on the board editor, in words)
EFFECT_WORDS = Table("messages", "EFFECT_WORDS")


# ----- the words parameters carry as codes or ids ------------------------------------------------
# Each code a parameter may carry becomes words of the glossary (companion/words/glossary.toml) or of
# these tables; plot, cell, card, deck and industry ids become the edition's names.

ACCOUNTS = {"bank": "bank", "jackpot": "jackpot_box", "charity": "charity", "pot": "pot", "table": "table"}
POLICIES = ("green", "blue", "orange", "red")
DECKS = {
    "chance": "chance",
    "fortune": "fortune",
    "movement": "movement",
    "community_chest": "community_chest",
    "stunt": "stunt",
}
BUILDINGS = {"millionaire": ("branch", "enterprise"), "monopoly": ("house", "hotel")}
KINDS = {"house": "house", "hotel": "hotel", "shares": "share"}
PARTY_KEYS = ("player", "other", "actor", "seller", "holder", "winner", "to", "creditor")
# the parameters that are numbers (shown as they are)
NUMBER_KEYS = tuple(
    "amount price cash count held steps tries level cost number event by window limit length position "
    "min max given high low opening minimum bet old new left redeem interest times step target die "
    "lease paid received from_debtor seed could small large".split()
)

# what a number or a payment is (`what` of not_a_number, out_of_range, insufficient_funds)
WHAT = Table("messages", "WHAT")
# what is still to be settled (a pending decision's kind): pending_first, the state view
PENDING = Table("messages", "PENDING")
STAGES = Table("messages", "STAGES")
TENURE = Table("messages", "TENURE")
FACES = Table("messages", "FACES")
SYMBOLS = Table("messages", "SYMBOLS")
# what a player holds (state view; put_items)
ITEMS = Table("messages", "ITEMS")
# a usage parameter that is words, not a command's syntax
USAGE_WORDS = Table("messages", "USAGE_WORDS")
# a board's group of plots, by the family of rules: (after "whole", after "of"); Russian's
# instrumental and genitive
GROUP_WORDS = Table("messages", "GROUP_WORDS")


def family_of(edition) -> str:
    """monopoly or millionaire: which board's words an edition's messages take."""
    return "monopoly" if edition is not None and getattr(edition, "rules", None) == "monopoly" else "millionaire"


# one side of a trade: what it hands over, or that it hands over nothing
GIVES = Table("messages", "GIVES")
# a policy that expires: one, or several of a colour
EXPIRED = Table("messages", "EXPIRED")
# single phrases (msgctxt "PHRASES"): a circle income's two parts (Elite: the fixed sum and the dividend
# on shares), nothing or nobody, the joiners of a list, no buildings; the actor's usage line in Russian
INCOME_PARTS = Table("messages", "PHRASES/INCOME_PARTS")
NOTHING = Table("messages", "PHRASES/NOTHING")
UNKNOWN = Table("messages", "PHRASES/UNKNOWN")
AND = Table("messages", "PHRASES/AND")
OR = Table("messages", "PHRASES/OR")
NOTHING_READABLE = Table("messages", "PHRASES/NOTHING_READABLE")
NO_BUILDINGS = Table("messages", "PHRASES/NO_BUILDINGS")
AND_LAST = Table("messages", "PHRASES/AND_LAST")  # before the last of a list: a, b and c; а, б и в
ACTOR_USAGE = Table("messages", "PHRASES/ACTOR_USAGE")
# the placeholders of a command's syntax as a Russian table reads them (the verbs stay: they are typed)
USAGE_PLACEHOLDERS = Table("messages", "USAGE_PLACEHOLDERS")

# ----- the edge's parameters (EDGE above) ---------------------------------------------------------
# what the ledger was doing when it failed (`doing`)
DOING = Table("messages", "DOING")
# what the operating system or SQLite said (`detail`), by its code (`cause`: an errno name, an SQLite
# error name, or one of ours); a code not listed shows the machine's own words (quoted in Russian)
DETAILS = Table("messages", "DETAILS")
# a schema entry that was removed (genitive: «нет таблицы») or added (nominative)
SCHEMA_ENTRIES = Table("messages", "SCHEMA_ENTRIES")
# `expect mortgaged|detained|alive`, and the yes/no/none of expected values
FLAGS = Table("messages", "FLAGS")
ANSWERS = Table("messages", "ANSWERS")
# the value argparse wanted (`invalid int value`)
VALUE_TYPES = Table("messages", "VALUE_TYPES")
# words as typed (commands, options, argparse's names): listed plainly in English, `quoted` in Russian
TYPED_LISTS = ("choices", "known", "accounts", "names", "matches", "codes")

# the terminal's own labels (companion/cli/__init__.py, companion/table/view.py, companion/table/script.py)
LABELS = Table("messages", "LABELS")


def label(key, language="en", **params):
    """One of the terminal's fixed labels in the language (params fill its blanks)."""
    text = LABELS.get(language, LABELS["en"]).get(key) or LABELS["en"][key]
    # through the catalogues' formatter: a count takes its noun's plural form ("1 event", "2 events")
    return Formatter(_lang(language)).format(text, **params) if params else text


def _lang(language):
    return language if language in LANGUAGES else SOURCE_LANGUAGE


def inner_quotes(text, language):
    """A name shown «quoted» in Russian has its own «» turned into „“ (ёлочки outside, лапки inside)."""
    if language == "ru" and isinstance(text, str) and "«" in text:
        return text.replace("«", "„").replace("»", "“")
    return text


def cell_name(edition, ref, language=None):
    """A plot's or cell's name in the language (the file's `name_en`...), else as the file writes it;
    an id the edition does not know stays as given: what was typed."""
    if edition is None or not isinstance(ref, str):
        return ref
    cell = edition.cell(ref)
    return in_language(cell.name, cell.names, language and _lang(language)) if cell is not None else ref


def card_text(edition, ref, language="en"):
    """A card's text as the box prints it (in Russian without the closing full stop, as it is quoted)."""
    if edition is None or ref not in getattr(edition, "cards", {}):
        return ref
    card = edition.cards[ref]
    text = in_language(card.text, card.texts, _lang(language))
    return inner_quotes(text.rstrip("."), language) if language == "ru" else text


def deck_name(edition, deck, language="en"):
    """A deck's name: the name of the board's cell that deals it where the edition names that cell in
    the language (in Russian as `cell_words` quotes it: ШАНС bare, «Шанс» quoted), else the glossary's."""
    lang = _lang(language)
    cells = [c for c in getattr(edition, "cells", ()) if c.deck == deck]
    if cells and (edition.language.split("-")[0] == lang or deck not in DECKS or lang in cells[0].names):
        # a Monopoly board names its decks «Шанс», «Общественная казна», not Millionaire's ШАНС
        if lang != "ru":
            return cell_name(edition, cells[0].id, lang)
        name = cell_words(edition, cells[0].id, lang)
        if deck in DECKS and name == term(DECKS[deck], lang):
            return term(DECKS[deck], lang)  # the rulebook's word with its cases: «карточку ФОРТУНЫ»
        return name
    if deck in DECKS:
        return term(DECKS[deck], lang)
    return cell_name(edition, cells[0].id, lang) if cells else deck


def party(value, language="en"):
    """A player's name as typed; a system account or the table in words; nobody as a dash."""
    if value is None:
        return UNKNOWN[_lang(language)]
    if value in ACCOUNTS:
        return term(ACCOUNTS[value], _lang(language))
    return value


def policy_word(colour, language="en"):
    """A policy's colour as the rulebook writes it: ЗЕЛЁНЫЙ (`{policy} полис`), GREEN (`{policy} policy`)."""
    return term(colour, _lang(language)) if colour in POLICIES else colour


def kind_word(kind, language="en", edition=None):
    """What the box runs out of or what is auctioned: a building, shares, a policy of a colour."""
    lang = _lang(language)
    if kind in ("small", "large"):
        family = family_of(edition)
        return term(BUILDINGS[family][kind == "large"], lang)
    if kind in KINDS:
        return term(KINDS[kind], lang)
    if kind in POLICIES:
        colour, policy = term(kind, lang), term("policy", lang)
        if lang == "ru":
            forms = {case: f"{colour.form(case)} {policy.form(case)}" for case in ("gen", "acc", "gen_pl")}
            forms["few"] = f"{colour.form('gen_pl')} {policy.form('gen')}"  # 2 СИНИХ полиса
            return Word(f"{colour} {policy}", forms)
        return Word(f"{colour} {policy}", {"pl": f"{colour} policies", "gen_pl": f"{colour} policies"})
    return kind


def building_word(level, edition, language="en"):
    """The building at a level of a plot: a branch up to small_max, then an enterprise (house, hotel)."""
    small_max = (edition.buildings.get("small_max", 4) if edition is not None else 4) or 4
    return kind_word("small" if int(level) <= small_max else "large", language, edition)


def joined(items, language):
    """a, b and c; а, б и в."""
    last = AND_LAST[_lang(language)]
    return ", ".join(items[:-1]) + last + items[-1] if len(items) > 1 else "".join(items)


def with_article(word, language):
    """An English noun with its indefinite article (a house, an enterprise); Russian has none."""
    if language != "en":
        return word
    return ("an " if str(word)[:1].lower() in "aeiou" else "a ") + str(word)


def where_words(edition, ref, language):
    """Where a token stands, after «на»: «участке «Кинотеатр»» for a plot, «клетке ШАНС» for the
    board's capitalised cells, which the rulebook writes without quotes (English: the name)."""
    if language != "ru":
        return cell_name(edition, ref, language)
    cell = edition.cell(ref) if edition is not None and isinstance(ref, str) else None
    return ("участке " if cell is not None and cell.is_plot else "клетке ") + cell_words(edition, ref, language)


def cell_words(edition, ref, language):
    """A cell in Russian as the rulebook writes it: «Кинотеатр» (a plot, a named cell), but ШАНС, БИРЖА
    bare (the board's capitalised cells); what the edition does not know stays «as typed»."""
    name = cell_name(edition, ref, language)
    cell = edition.cell(ref) if edition is not None and isinstance(ref, str) else None
    if cell is not None and not cell.is_plot and isinstance(name, str) and name.upper() == name:
        return name
    return f"«{inner_quotes(name, language)}»"


# the ways a debtor can raise money, as the rules of the edition allow
WAYS = Table("messages", "WAYS")


def start_name(edition, language):
    """The START cell's name as the board prints it (GO on a Monopoly board)."""
    cells = [c for c in getattr(edition, "cells", ()) if c.kind == "start"]
    if cells:
        return cell_name(edition, cells[0].id, language)
    return term("start", _lang(language))


# where a detained player is held, by the family of rules (as BUILDINGS): the glossary's term
DETENTION = {"millionaire": "tax_inspection", "monopoly": "jail"}


def jail_words(edition, language):
    """(in, out of) detention as the rulebook declines it: «в НАЛОГОВОЙ ИНСПЕКЦИИ», «из НАЛОГОВОЙ
    ИНСПЕКЦИИ»; Monopoly's «в тюрьме»; English "in Jail", "Jail"."""
    lang = _lang(language)
    family = family_of(edition)
    place = term(DETENTION[family], lang)
    if lang == "ru":
        return f"в {place.form('pre')}", f"из {place.form('gen')}"
    return f"in {place}", str(place)


def handed(items, cash, language, edition):
    """What one side of a trade hands over: plots and cards, then money (or that it gives nothing)."""
    lang = _lang(language)
    shown = [thing_name(edition, v, lang) for v in items] + ([str(cash)] if cash else [])
    gives, nothing = GIVES[lang]
    return gives.format(items=", ".join(shown)) if shown else nothing


def counted(n, word, language):
    """A number with its noun in the right form: 1 акция, 2 акции, 5 акций; 2 СИНИХ полиса (an
    adjective goes to the genitive plural after 2-4); 1 share, 2 shares."""
    lang = _lang(language)
    if not isinstance(word, Word):
        return f"{n} {word}"
    if lang != "ru":
        return f"{n} {word if n == 1 else word.form('pl')}"
    category = plural_category(n, "ru")
    if category == "one":
        return f"{n} {word}"
    if category == "few":
        return f"{n} {word.forms.get('few') or word.form('gen')}"
    return f"{n} {word.form('gen_pl')}"


def holding_words(item, n, language="en"):
    """What a player holds, counted as a native says it: 5 акций, 2 СИНИХ полиса, 1 RED policy."""
    lang = _lang(language)
    if item == "shares":
        return counted(n, term("share", lang), lang)
    if item in POLICIES:
        return counted(n, kind_word(item, lang), lang)
    return f"{item_word(item, lang)} {n}"


def buildings_words(level, edition, language="en"):
    """A plot's buildings in words: 2 филиала, предприятие; 3 houses, a hotel."""
    lang = _lang(language)
    small_max = (edition.buildings.get("small_max", 4) if edition is not None else 4) or 4
    if level <= small_max:
        return counted(level, kind_word("small", lang, edition), lang)
    return str(kind_word("large", lang, edition))


def standing(small, large, edition, language):
    """The buildings that stand on a plot: 2 филиала; 1 предприятие; no buildings."""
    lang = _lang(language)
    parts = [counted(n, kind_word(kind, lang, edition), lang) for n, kind in ((small, "small"), (large, "large")) if n]
    return AND[lang].join(parts) if parts else NO_BUILDINGS[lang]


def expired_words(colour, count, language):
    lang = _lang(language)
    one, several = EXPIRED[lang]
    policy = policy_word(colour, lang)
    if count == 1:
        return one.format(policy=policy)
    if lang == "ru":
        if plural_category(count, "ru") == "one":  # 21 СИНИЙ полис больше не действует
            return f"{counted(count, kind_word(colour, lang), lang)} больше не действует и возвращается в БАНК"
        return several.format(count=counted(count, kind_word(colour, lang), lang))
    return several.format(count=count, policy=policy)


def item_word(item, language="en"):
    lang = _lang(language)
    if item in POLICIES:
        return kind_word(item, lang)
    return ITEMS[lang].get(item, item)


def industry_name(edition, ref, language=None):
    if edition is None or ref not in getattr(edition, "industries", {}):
        return ref
    ind = edition.industries[ref]
    return in_language(ind.name, ind.names, language and _lang(language))


def thing_name(edition, ref, language="en"):
    """An item of a trade or a list: a card's text, a plot's name (quoted in Russian), or a sum."""
    lang = _lang(language)
    if edition is not None and isinstance(ref, str) and ref in edition.cards:
        name = card_text(edition, ref, lang)
    elif isinstance(ref, str):
        name = cell_name(edition, ref, lang)
    else:
        return str(ref)
    return f"«{inner_quotes(name, lang)}»" if lang == "ru" else name


def listing(items, language="en", edition=None, joiner=", "):
    lang = _lang(language)
    shown = [thing_name(edition, v, lang) for v in items]
    return joiner.join(shown) if shown else NOTHING[lang]


def pending_words(kind, language="en", edition=None, plot=None):
    """A pending decision in words (`waiting for`, pending_first)."""
    lang = _lang(language)
    text = PENDING[lang].get(kind)
    if text is None:
        text = kind.replace("_", " ")
    if plot:
        name = cell_name(edition, plot, lang)
        text += f": «{name}»" if lang == "ru" else f": {name}"
    return text


def _reason(value, language, edition):
    lang = _lang(language)
    words = REASONS.get(lang, REASONS["en"])
    if value in words:
        return words[value]
    if edition is not None and value in edition.cards:
        return thing_name(edition, value, lang)  # a card as the reason (Deluxe rating)
    if edition is not None and edition.cell(value) is not None:
        return thing_name(edition, value, lang)  # a cell as the reason
    return value


def _what(value, language, edition):
    lang = _lang(language)
    if value in WHAT[lang]:
        return WHAT[lang][value]
    if value in POLICIES:
        return kind_word(value, lang)
    if edition is not None and isinstance(value, str) and edition.cell(value) is not None:
        return thing_name(edition, value, lang)
    return value


def _usage(value, language):
    lang = _lang(language)
    if value in USAGE_WORDS[lang]:
        return USAGE_WORDS[lang][value]
    if lang == "ru":
        if value.startswith("NAME: COMMAND"):
            return ACTOR_USAGE["ru"]
        words = re.sub(r"\b[A-Z]+\b", lambda m: USAGE_PLACEHOLDERS["ru"].get(m.group(0), m.group(0)), value)
        return f"`{words}`"
    return value


def _bounds(params, language):
    low, high = params.get("low"), params.get("high")
    if language == "ru":
        return f"от {low} до {high}" if high is not None else f"не меньше {low}"
    return f"{low} to {high}" if high is not None else f"at least {low}"


def said(value, language="en", edition=None):
    """A message inside a message (an error's cause, a script line's problem) in the language: a coded
    error, refusal, Note or errors.Message in words; any other error as its own one-line text."""
    if hasattr(value, "code") and hasattr(value, "params") and isinstance(value.params, dict):
        return render(value.code, value.params, language, getattr(value, "edition", None) or edition)
    if isinstance(value, BaseException):
        return " ".join(str(value).split())
    return value


def detail_words(value, cause, language="en"):
    """What the operating system or SQLite said, in words when its code (`cause`) is known: the
    longest known prefix of an SQLite extended code (SQLITE_IOERR_SHORT_READ is an SQLITE_IOERR);
    else as the machine said it (quoted in Russian: it is not Russian)."""
    words = DETAILS[_lang(language)]
    name = cause or ""
    while name:
        if name in words:
            return words[name]
        name = name.rpartition("_")[0] if name.startswith("SQLITE_") else ""
    text = " ".join(str(value or "").split())
    return f"`{text}`" if language == "ru" and text else text


def _typed_list(values, language, joiner=", "):
    values = [str(v) for v in values]
    if not values:
        return NOTHING[language]
    return joiner.join(f"`{v}`" for v in values) if language == "ru" else joiner.join(values)


def _edge_param(code, key, value, params, lang, edition):
    """A parameter of the edge's codes (EDGE) as shown; NotImplemented for any other."""
    ru = lang == "ru"
    if value is None:
        return UNKNOWN[lang]
    if key in ("unknown", "error", "refusal", "problem"):
        return said(value, lang, edition)
    if key == "errors":
        return "; ".join(str(said(v, lang, edition)) for v in value) or NOTHING_READABLE[lang]
    if key == "detail":
        return detail_words(value, params.get("cause"), lang)
    if key == "doing":
        return DOING[lang].get(value, value)
    if key == "head":
        return head_words(value, lang)
    if key == "codes" and isinstance(value, (list, tuple)):  # message codes: the script language
        return ", ".join(f"`{v}`" for v in value) or NOTHING[lang]
    if key in TYPED_LISTS and isinstance(value, (list, tuple)):
        return _typed_list(value, lang)
    if key == "words" and isinstance(value, (list, tuple)):
        return f"`{' '.join(value)}`" if ru else " ".join(value)
    if key in ("got_cell", "want_cell"):
        return inner_quotes(cell_name(edition, value, lang), lang)
    if not ru:
        return value  # the rest are shown as typed in English
    if key == "account":
        return party(value, lang)
    if key in ("actual", "wanted") and isinstance(value, str):
        return ANSWERS["ru"].get(value, value)
    if key == "got_pending":
        return NOTHING[lang] if value == "none" else pending_words(value, lang, edition)
    if key == "held_item":
        return item_word(value, lang) if value in ITEMS[lang] or value in POLICIES else f"`{value}`"
    if key == "flag":
        return FLAGS["ru"].get(value, value)
    if key == "type":
        return VALUE_TYPES["ru"].get(value, "другое значение")
    return value


EDGE_KEYS = {
    "unknown",
    "error",
    "refusal",
    "problem",
    "errors",
    "detail",
    "doing",
    "head",
    "words",
    "account",
    "actual",
    "wanted",
    "got_pending",
    "got_cell",
    "want_cell",
    "held_item",
    "flag",
    "type",
    *TYPED_LISTS,
}


def shown_params(code, params, language="en", edition=None):
    """The parameters of a message as its templates show them: names, words, and derived ones."""
    lang = _lang(language)
    shown = {}
    for key, value in params.items():
        if key in EDGE_KEYS:
            value = _edge_param(code, key, value, params, lang, edition)
        elif key == "cell" and lang == "ru":
            value = cell_words(edition, value, lang)
        elif key in ("plot", "cell"):
            value = inner_quotes(cell_name(edition, value, lang), lang)
        elif key in PARTY_KEYS:
            value = party(value, lang)
        elif key == "reason":
            value = _reason(value, lang, edition)
        elif key == "winners":
            value = joined(str(value).split(","), lang)
        elif key == "card":
            value = card_text(edition, value, lang)
        elif key == "deck":
            value = deck_name(edition, value, lang)
        elif key == "verb" and code != "unknown_command":
            value = VERBS[lang].get(value, value)
        elif key == "action":
            value = VERBS[lang].get(value, value)
        elif key == "policy":
            value = policy_word(value, lang)
        elif key == "kind":
            value = kind_word(value, lang, edition)
        elif key == "item":
            value = item_word(value, lang)
        elif key == "what":
            value = _what(value, lang, edition)
        elif key == "pending":
            value = pending_words(value, lang, edition, params.get("plot"))
        elif key == "stage":
            value = STAGES[lang].get(value, value)
        elif key == "tenure":
            value = TENURE[lang].get(value, value)
        elif key == "face":
            value = FACES[lang].get(value, value)
        elif key == "industry":
            value = industry_name(edition, value, lang)
        elif key == "edition":
            value = (
                in_language(edition.name, edition.names, lang) if edition is not None and value == edition.id else value
            )
        elif key == "usage":
            value = _usage(value, lang)
        elif key == "symbols" and isinstance(value, (list, tuple)):
            value = ", ".join(SYMBOLS[lang].get(v, v) for v in value)
        elif key == "dice" and isinstance(value, (list, tuple)):
            value = joined([str(v) for v in value], lang)
        elif key in ("players", "amounts", "runs") and isinstance(value, (list, tuple)):
            value = ", ".join(str(party(v, lang)) for v in value) or NOTHING[lang]
        elif key == "cells" and isinstance(value, (list, tuple)):
            value = listing(value, lang, edition, OR[lang])
        elif isinstance(value, (list, tuple)):  # plots, cards, a trade's items
            value = listing(value, lang, edition)
        elif isinstance(value, dict):  # wealth: player -> amount
            value = ", ".join(f"{party(k, lang)} {v}" for k, v in value.items())
        elif value is None:
            value = UNKNOWN[lang]
        shown[key] = value
    # derived parameters, shown in words
    if code in ("built", "building_sold") and "level" in params:
        level = params["level"] + (1 if code == "building_sold" else 0)
        shown["building"] = building_word(level, edition, lang)
        shown["a_building"] = with_article(shown["building"], lang)
    if code == "landed":
        shown["on_cell"] = where_words(edition, params.get("cell"), lang)
    if code in ("circle_income", "go_salary"):
        shown["start_cell"] = start_name(edition, lang)
        dividend = params.get("dividend", 0)
        shown["parts"] = (
            INCOME_PARTS[lang].format(fixed=params.get("amount", 0) - dividend, dividend=dividend) if dividend else ""
        )
    if code in ("detained", "still_detained", "released_by_double", "released_by_card", "roll_held_first"):
        shown["jail_in"], shown["jail_from"] = jail_words(edition, lang)
    if code in ("need_monopoly", "build_evenly", "sell_evenly"):
        # "whole" takes the instrumental in Russian (владея всей группой), "of" the genitive
        shown["group"] = GROUP_WORDS[lang][family_of(edition)][0 if code == "need_monopoly" else 1]
    if code in ("traded", "cards_traded"):
        shown["gave_all"] = handed(params.get("gave", ()), params.get("paid", 0), lang, edition)
        shown["got_all"] = handed(params.get("got", ()), params.get("received", 0), lang, edition)
    if code in ("debt", "debt_first"):
        # shares are a way out where the box has them and the table may sell them in debt
        sells_shares = (
            edition is not None
            and bool(edition.supply.get("shares"))
            and bool(edition.options.get("sell_shares_in_debt"))
        )
        shown["ways"] = WAYS[lang][sells_shares]
    if code == "put_buildings":
        shown["buildings"] = standing(params.get("small", 0), params.get("large", 0), edition, lang)
    if code == "put_items" and "item" in params:
        shown["held_words"] = holding_words(params["item"], params.get("count", 0), lang)
    if code == "policy_expired":
        shown["expired"] = expired_words(params.get("policy"), params.get("count", 1), lang)
    if code == "out_of_range":
        shown["bounds"] = _bounds(params, lang)
    if code == "pending_first":
        who = params.get("player")
        shown["whose"] = f" ({who})" if who else ""
    if code in ("ledger_schema_missing", "ledger_schema_added"):
        entry, name = params.get("entry"), params.get("name")
        if lang == "ru" and entry in SCHEMA_ENTRIES["ru"]:
            forms = SCHEMA_ENTRIES["ru"][entry]
            shown["object"] = f"{forms[code == 'ledger_schema_missing']} `{name}`"
        else:
            shown["object"] = f"{entry} {name}" if lang == "en" else f"`{entry} {name}`"
    return shown


# derived parameter -> the engine's parameters it is made from (tests: templates ask only for these)
DERIVED = {
    "building": ("level",),
    "bounds": ("low",),
    "whose": ("pending",),
    "object": ("entry", "name"),
    "a_building": ("level",),
    "on_cell": ("cell",),
    "start_cell": (),
    "parts": (),
    "jail_in": (),
    "jail_from": (),
    "gave_all": ("gave",),
    "got_all": ("got",),
    "expired": ("policy", "count"),
    "buildings": ("small", "large"),
    "held_words": ("item", "count"),
    "ways": (),
    "group": (),
}


def render(code, params, language="en", edition=None):
    """One line of text for a message code, in the language: names for ids, words for codes."""
    lang = _lang(language)
    if code == "winner" and "," in str(params.get("player", "")):
        # a tie on wealth: the state keeps the winners as one word "Anna,Boris"
        code, params = "winners", {"winners": params["player"]}
    if code == "circle_income" and family_of(edition) == "monopoly":
        code = "go_salary"  # Monopoly's salary for passing GO: no "circle income" on its board
    shown = shown_params(code, params, lang, edition)
    template = CATALOGS[lang].get(code) or CATALOGS[SOURCE_LANGUAGE].get(code)
    if template is None:
        return code + (" " + ", ".join(f"{k}={v}" for k, v in shown.items()) if shown else "")
    try:
        return Formatter(lang).format(template, **shown)
    except (KeyError, IndexError, ValueError):
        return code + " " + ", ".join(f"{k}={v}" for k, v in shown.items())


def render_error(exc, language="en", edition=None):
    """An error in words: a refusal or a coded error (errors.Said) from its code; any other error
    (an edition file's, a bad option's) as its own text, on one line."""
    if getattr(exc, "code", None) is None:
        return " ".join(str(exc).split())
    return render(exc.code, exc.params, language, getattr(exc, "edition", None) or edition)


# str() of a coded error and errors.Message speak English through this module (companion/errors imports no words)
set_renderer(render)


# ----- `companion sim`: the study's summary (companion/sim/report.py) ------------------------------
# Counts follow a colon in Russian ("партий: 200") where a plural would otherwise need agreeing;
# games_forms are the plural forms of "game" for the heading (words.plural).
SIM = Table("messages", "SIM")
