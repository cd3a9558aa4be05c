"""Edition data as frozen values, built from a parsed edition file with clear errors.

The engine never reads files: the loader in companion.editions parses TOML and
hands the resulting dict to `build_edition`, which checks every key and names
the file, the key and the problem when something is wrong. Every number has a
range (docs/edition-format.md): a value the engine would choke on mid-game (a
negative price, an amount SQLite cannot store, text where a number belongs) is
refused when the file loads, never when a player first lands on it.
"""

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.errors import EditionProblem

if TYPE_CHECKING:  # the rules import this module: only the checker reads the name
    from companion.engine.core import Rules

# Every amount of money an edition file holds (prices, rents, fines, incomes, start
# cash, option amounts, card amounts) lies in 0..MONEY_MAX: far above any box's
# figures, and far below what a 64-bit ledger integer holds even after a long game.
MONEY_MAX = 1_000_000_000
MONEY = (0, MONEY_MAX)
PERCENT = (0, 100)
PLAYERS = (1, 8)  # seats around one board
BOX_ITEMS = (0, 1000)  # how many of one item the box holds ([supply])
BUILDING_LEVELS = (0, 10)  # small_max, large_max: buildings of one kind on one plot
DICE_MULTIPLIER = (0, 100)  # dice_multiplier_by_count: rent = multiplier x the dice
# An edition id travels in the first event's command line (`new EDITION SEED PLAYER...`).
EDITION_ID = re.compile(r"[a-z0-9_-]{1,32}")
# Cell, industry, deck and card ids are typed in commands and stored in the ledger's
# command lines: one word; never all digits (a number is a cell index or an amount).
REF = re.compile(r"[A-Za-z0-9_-]{1,32}")
LANGUAGE = re.compile(r"[a-z]{2,3}([-_][A-Za-z0-9]{2,8})?")  # en, ru, pt-BR
# the languages a name may be given in besides the file's own (name_en, name_ru, text_en ...)
NAME_LANGUAGES = ("en", "ru")


@dataclass(frozen=True)
class Industry:
    id: str
    name: str
    buildable: bool = True
    build_cost: int = 0
    rent_by_count: tuple[int, ...] = ()  # rent by number of plots of the industry owned
    tax_by_count: tuple[int, ...] = ()  # circle tax by number owned (Elite central industry)
    dice_multiplier_by_count: tuple[int, ...] = ()  # rent = multiplier x dice (Monopoly utilities)
    names: dict[str, str] = field(default_factory=dict, hash=False, compare=False)  # language -> name (name_en = ...)


@dataclass(frozen=True)
class Cell:
    id: str
    index: int
    kind: str
    name: str
    industry: str | None = None
    price: int = 0
    rent: tuple[int, ...] = ()  # [printed, monopoly, level 1, level 2, ...]
    tax: tuple[int, ...] = ()  # same shape as rent, for circle tax (Elite)
    build_cost: int = 0
    mortgage: int = 0
    deck: str | None = None
    params: dict[str, Any] = field(default_factory=dict, hash=False)
    names: dict[str, str] = field(default_factory=dict, hash=False, compare=False)  # language -> name (name_en = ...)

    @property
    def is_plot(self) -> bool:
        return self.industry is not None


@dataclass(frozen=True)
class Card:
    id: str
    deck: str
    text: str
    effects: tuple[dict[str, Any], ...]  # tuple of dicts: {"do": verb, ...arguments}
    keep: bool = False  # kept by the player until used (e.g. leave TAX INSPECTION)
    long_term: bool = False  # FORTUNE: in force until the next card is drawn
    favourable: bool | None = None  # Deluxe rating scale: up (True) or down (False)
    texts: dict[str, str] = field(default_factory=dict, hash=False, compare=False)  # language -> text (text_en = ...)


@dataclass(frozen=True)
class Edition:
    id: str
    name: str
    language: str
    rules: str
    source: str
    players_min: int
    players_max: int
    start_cash: int
    cells: tuple[Cell, ...]
    industries: dict[Any, Industry] = field(hash=False)  # looked up by a cell's industry (str | None)
    plots: dict[str, Cell] = field(hash=False)
    options: dict[str, Any] = field(hash=False)
    supply: dict[str, int] = field(hash=False)
    buildings: dict[str, Any] = field(hash=False)  # small_max, large_max, large_returns_small
    decks: dict[str, tuple[str, ...]] = field(hash=False)
    cards: dict[str, Card] = field(hash=False)
    slot: dict[str, Any] = field(hash=False)
    extra: dict[str, Any] = field(hash=False)  # edition-module data ([extra] table), checked by the module
    text: str = ""  # the file as read, stored in the ledger with the game
    by_id: dict[str, Cell] = field(default_factory=dict, hash=False)  # cell id -> Cell
    by_name: dict[str, Cell] = field(default_factory=dict, hash=False)  # a cell's name, lower-case -> Cell (if unique)
    names: dict[str, str] = field(default_factory=dict, hash=False)  # language -> the edition's name (name_en = ...)
    groups: dict[Any, tuple[str, ...]] = field(
        default_factory=dict, hash=False
    )  # industry id -> plot ids in board order
    # [box]: what a table checked against its box (companion/editions/boards.py reads it; the rules never do)
    box: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    def cell(self, ref: int | str) -> Cell | None:
        """A cell by id, index or its name as shown (any case; only a name no other cell has), or None."""
        if isinstance(ref, int) or (isinstance(ref, str) and ref.isascii() and ref.isdigit()):
            i = int(ref)
            return self.cells[i] if 0 <= i < len(self.cells) else None
        found = self.by_id.get(ref)
        if found is None and isinstance(ref, str):
            found = self.by_name.get(ref.lower())
        return found

    def industry_plots(self, industry_id: str | None) -> tuple[str, ...]:
        return self.groups.get(industry_id, ())

    def cells_of_kind(self, kind: str) -> tuple[int, ...]:
        return tuple(c.index for c in self.cells if c.kind == kind)


# ----- value checks shared by the loader and the rules modules' check_edition -------------


def shown(value: object) -> str:
    """A value as an error message quotes it: repr, cut short (a message stays one short line)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def keyname(key: object) -> str:
    """A key as an error's key path shows it: as written when it is a plain word, else quoted."""
    return key if isinstance(key, str) and re.fullmatch(r"[A-Za-z0-9_-]+", key) else shown(key)


def check_number(value: object, bounds: tuple[int, int], source: str, key: str) -> int:
    """A whole number within bounds (low, high), or an EditionError naming the key."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise EditionProblem("edition_whole", source, key, value=shown(value))
    low, high = bounds
    if not low <= value <= high:
        raise EditionProblem("edition_range", source, key, low=low, high=high, value=value)
    return value


def check_numbers(value: object, bounds: tuple[int, int], source: str, key: str) -> tuple[int, ...]:
    """A list of whole numbers, each within bounds; the error names the item (key[i])."""
    if not isinstance(value, list):
        raise EditionProblem("edition_whole_list", source, key, value=shown(value))
    return tuple(check_number(v, bounds, source, f"{key}[{i}]") for i, v in enumerate(value))


def check_text(value: object, source: str, key: str) -> str:
    """Non-empty text (names, labels)."""
    if not isinstance(value, str):
        raise EditionProblem("edition_text", source, key, value=shown(value))
    if not value.strip():
        raise EditionProblem("edition_empty", source, key)
    return value


def check_ref(value: object, source: str, key: str) -> str:
    """An id typed in commands: 1 to 32 letters, digits, '_' or '-', not all digits."""
    if not isinstance(value, str):
        raise EditionProblem("edition_text", source, key, value=shown(value))
    if not REF.fullmatch(value) or value.isdigit():
        raise EditionProblem("edition_ref", source, key, value=shown(value))
    return value


def check_option(rules_cls: "type[Rules]", rules_name: str, key: str, value: object, source: str) -> object:
    """One [options] value: a known option, of its default's type, within its range or choices.

    Cross-checks that need the rest of the file (a deck that must exist, a minimum
    below a maximum) are the rules module's check_edition.
    """
    options = rules_cls.OPTIONS
    if key not in options:
        raise EditionProblem(
            "edition_unknown_option", source, f"options.{keyname(key)}", rules=rules_name, known=sorted(options)
        )
    default = options[key]
    if type(value) is not type(default):
        kind = {str: "text", bool: "bool", list: "list", dict: "table", int: "whole"}.get(type(default), "text")
        raise EditionProblem(
            f"edition_option_{kind}", source, f"options.{key}", default=shown(default), value=shown(value)
        )
    if key in rules_cls.OPTION_RANGES:
        check_number(value, rules_cls.OPTION_RANGES[key], source, f"options.{key}")
    if key in rules_cls.OPTION_CHOICES and value not in rules_cls.OPTION_CHOICES[key]:
        raise EditionProblem(
            "edition_option_choice",
            source,
            f"options.{key}",
            choices=list(rules_cls.OPTION_CHOICES[key]),
            value=shown(value),
        )
    return value


class _Reader:
    """Typed access to one table of the file, reporting the key path on error."""

    def __init__(self, source: str, path: str, table: object) -> None:
        if not isinstance(table, dict):
            raise EditionProblem("edition_table", source, path)
        self.source, self.path, self.table = source, path, table
        self.used: set[str] = set()

    def key(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def get(self, key: str, kind: type, default: Any = ...) -> Any:
        self.used.add(key)
        if key not in self.table:
            if default is ...:
                raise EditionProblem("edition_missing", self.source, self.key(key))
            return default
        value = self.table[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise EditionProblem("edition_whole", self.source, self.key(key), value=shown(value))
        if kind is not int and not isinstance(value, kind):
            raise EditionProblem(f"edition_kind_{_kind_code(kind)}", self.source, self.key(key), value=shown(value))
        return value

    def number(self, key: str, bounds: tuple[int, int], default: Any = ...) -> Any:
        value = self.get(key, int, default)
        return value if key not in self.table else check_number(value, bounds, self.source, self.key(key))

    def money(self, key: str, default: Any = ...) -> Any:
        return self.number(key, MONEY, default)

    def numbers(self, key: str, bounds: tuple[int, int], default: Any = ...) -> tuple[int, ...]:
        value = self.get(key, list, default)
        return check_numbers(value, bounds, self.source, self.key(key))

    def money_list(self, key: str, default: Any = ...) -> tuple[int, ...]:
        return self.numbers(key, MONEY, default)

    def text(self, key: str, default: Any = ...) -> Any:
        """Non-empty text."""
        value = self.get(key, str, default)
        return value if key not in self.table else check_text(value, self.source, self.key(key))

    def translations(self, key: str) -> dict[str, str]:
        """language -> text of the `KEY_LANG` keys beside KEY (name_en, text_ru ...): names per language."""
        return {lang: self.text(f"{key}_{lang}") for lang in NAME_LANGUAGES if f"{key}_{lang}" in self.table}

    def ref(self, key: str, default: Any = ...) -> Any:
        value = self.get(key, str, default)
        return value if key not in self.table else check_ref(value, self.source, self.key(key))

    def done(self, allowed_extra: tuple[str, ...] = ()) -> None:
        unknown = set(self.table) - self.used - set(allowed_extra)
        if unknown:
            raise EditionProblem("edition_unknown_key", self.source, self.key(keyname(sorted(unknown)[0])))


def _kind_code(kind: type) -> str:
    """The message code's tail for a value kind (edition_kind_*): what a key must hold."""
    return {str: "text", bool: "bool", list: "list", dict: "table", int: "whole"}.get(kind, "text")


def names_of(cells: list[Cell]) -> dict[str, Cell]:
    """Cell name (lower case, in any of its languages) -> cell, for names no other cell shares."""
    owners: dict[str, list[Cell]] = {}
    for c in cells:
        for name in {c.name.lower(), *(n.lower() for n in c.names.values())}:
            owners.setdefault(name, []).append(c)
    return {name: found[0] for name, found in owners.items() if len(found) == 1}


def in_language(text: str, translations: dict[str, str], language: str | None) -> str:
    """A name or text in the language asked for, else as the file writes it."""
    return translations.get(language, text) if language else text


# a [box] mark names one item of the board ("cells.ID", "cells.ID.rent", "decks.DECK.ID", "slot"):
# dot-separated words, `*` standing for one word in a placeholder pattern
BOX_ITEM = re.compile(r"[A-Za-z0-9_*-]{1,32}(\.[A-Za-z0-9_*-]{1,32}){0,3}")


def _box(r: "_Reader") -> dict[str, Any]:
    """The [box] table: the edition it was made from, its saved version and the marks (docs/edition-format.md)."""
    box: dict[str, Any] = {}
    if "base" in r.table:
        box["base"] = r.get("base", str)
        if not EDITION_ID.fullmatch(box["base"]):
            raise EditionProblem("edition_box_base", r.source, "box.base", value=shown(box["base"]))
    box["version"] = r.number("version", (0, MONEY_MAX), 0)
    for key in ("confirmed", "placeholder"):
        if key not in r.table:
            continue
        marks = r.get(key, list)
        for i, mark in enumerate(marks):
            if not isinstance(mark, str) or not BOX_ITEM.fullmatch(mark):
                raise EditionProblem("edition_box_mark", r.source, f"box.{key}[{i}]", value=shown(mark))
        box[key] = tuple(marks)
    r.done()
    return box


def build_edition(data: dict[str, Any], source: str, rules_cls: "type[Rules]", text: str = "") -> "Edition":
    """Check a parsed edition file against the rules module and return an Edition."""
    top = _Reader(source, "", data)
    head = _Reader(source, "edition", top.get("edition", dict))
    ed_id = head.get("id", str)
    if not EDITION_ID.fullmatch(ed_id):
        raise EditionProblem("edition_id", source, "edition.id", value=shown(ed_id))
    name = head.text("name")
    edition_names = head.translations("name")
    language = head.get("language", str, "en")
    if not LANGUAGE.fullmatch(language):
        raise EditionProblem("edition_language", source, "edition.language", value=shown(language))
    rules = head.get("rules", str)
    players_min = head.number("players_min", PLAYERS, 2)
    players_max = head.number("players_max", PLAYERS, 6)
    start_cash = head.money("start_cash")
    head.get("check_against_box", str, "")
    head.done()
    if players_min > players_max:
        raise EditionProblem("edition_players", source, "edition.players_min", high=players_max, value=players_min)

    options = dict(rules_cls.OPTIONS)
    for key, value in top.get("options", dict, {}).items():
        options[key] = check_option(rules_cls, rules, key, value, source)

    supply: dict[str, int] = {}
    for key, value in top.get("supply", dict, {}).items():
        if key not in rules_cls.SUPPLY:
            raise EditionProblem(
                "edition_supply", source, f"supply.{keyname(key)}", rules=rules, known=", ".join(rules_cls.SUPPLY)
            )
        supply[key] = check_number(value, BOX_ITEMS, source, f"supply.{key}")

    b = _Reader(source, "buildings", top.get("buildings", dict, {}))
    buildings = {
        "small_max": b.number("small_max", BUILDING_LEVELS, 0),
        "large_max": b.number("large_max", BUILDING_LEVELS, 0),
        "large_returns_small": b.get("large_returns_small", bool, False),
    }
    b.done()

    industries: dict[str, Industry] = {}
    for i, raw in enumerate(top.get("industries", list, [])):
        r = _Reader(source, f"industries[{i}]", raw)
        ind = Industry(
            id=r.ref("id"),
            name=r.text("name"),
            names=r.translations("name"),
            buildable=r.get("buildable", bool, True),
            build_cost=r.money("build_cost", 0),
            rent_by_count=r.money_list("rent_by_count", []),
            tax_by_count=r.money_list("tax_by_count", []),
            dice_multiplier_by_count=r.numbers("dice_multiplier_by_count", DICE_MULTIPLIER, []),
        )
        r.done()
        if ind.id in industries:
            raise EditionProblem("edition_twice", source, f"industries[{i}].id", id=ind.id)
        industries[ind.id] = ind

    levels = 2 + buildings["small_max"] + buildings["large_max"]
    cells: list[Cell] = []
    seen: set[str] = set()
    for i, raw in enumerate(top.get("cells", list)):
        r = _Reader(source, f"cells[{i}]", raw)
        cid = r.ref("id")
        kind = r.get("kind", str)
        if cid in seen:
            raise EditionProblem("edition_twice", source, f"cells[{i}].id", id=cid)
        seen.add(cid)
        if kind not in rules_cls.CELL_KINDS:
            raise EditionProblem(
                "edition_cell_kind",
                source,
                f"cells[{i}].kind",
                value=shown(kind),
                rules=rules,
                known=", ".join(sorted(rules_cls.CELL_KINDS)),
            )
        industry = r.get("industry", str, None)
        if kind == "plot":
            if industry not in industries:
                raise EditionProblem("edition_no_industry", source, f"cells[{i}].industry", value=shown(industry))
            ind = industries[industry]
            price = r.money("price")
            rent = r.money_list("rent", [])
            if not rent and not ind.rent_by_count and not ind.dice_multiplier_by_count and rules_cls.PLOTS_PAY_RENT:
                raise EditionProblem("edition_rent_missing", source, f"cells[{i}].rent")
            # the rent row is read by building level; an unbuildable plot has two levels
            # of rent only: printed and monopoly
            row = levels if ind.buildable else 2
            if rent and len(rent) != row:
                raise EditionProblem(
                    "edition_rent_count" if ind.buildable else "edition_rent_count_flat",
                    source,
                    f"cells[{i}].rent",
                    need=row,
                    listed=len(rent),
                )
            tax = r.money_list("tax", [])
            if tax and len(tax) != row:
                raise EditionProblem("edition_tax_count", source, f"cells[{i}].tax", need=row, listed=len(tax))
            mortgage = r.money("mortgage", price // 2)
            if mortgage > price:
                raise EditionProblem("edition_mortgage", source, f"cells[{i}].mortgage", price=price, value=mortgage)
            cell = Cell(
                id=cid,
                index=i,
                kind=kind,
                name=r.text("name"),
                names=r.translations("name"),
                industry=industry,
                price=price,
                rent=rent,
                tax=tax,
                build_cost=r.money("build_cost", ind.build_cost),
                mortgage=mortgage,
            )
            r.done()
        else:
            if industry is not None:
                raise EditionProblem("edition_industry_plots", source, f"cells[{i}].industry")
            deck = r.ref("deck", None)
            # the other keys are the kind's own parameters, checked by the rules module
            named = ("id", "kind", "name", "deck", *(f"name_{lang}" for lang in NAME_LANGUAGES))
            params = {k: v for k, v in raw.items() if k not in named}
            cell = Cell(
                id=cid, index=i, kind=kind, name=r.text("name"), names=r.translations("name"), deck=deck, params=params
            )
        cells.append(cell)
    for ind in industries.values():
        count = sum(1 for c in cells if c.industry == ind.id)
        for key in ("rent_by_count", "tax_by_count", "dice_multiplier_by_count"):
            listed = getattr(ind, key)
            if listed and len(listed) != count:
                raise EditionProblem(
                    "edition_by_count", source, f"industries.{ind.id}.{key}", count=count, listed=len(listed)
                )
    if not cells or cells[0].kind != "start":
        raise EditionProblem("edition_first_start", source, "cells[0].kind")

    decks: dict[str, tuple[str, ...]] = {}
    cards: dict[str, Card] = {}
    for deck_name, raw_cards in top.get("decks", dict, {}).items():
        check_ref(deck_name, source, f"decks.{keyname(deck_name)}")
        if not isinstance(raw_cards, list) or not raw_cards:
            raise EditionProblem("edition_deck_empty", source, f"decks.{deck_name}")
        ids: list[str] = []
        for j, raw in enumerate(raw_cards):
            path = f"decks.{deck_name}[{j}]"
            r = _Reader(source, path, raw)
            card_id = r.ref("id")
            if card_id in cards:
                raise EditionProblem("edition_twice", source, f"{path}.id", id=card_id)
            effects = r.get("effects", list)
            for k, eff in enumerate(effects):
                rules_cls.check_effect(eff, source, f"{path}.effects[{k}]")
            card = Card(
                id=card_id,
                deck=deck_name,
                text=r.get("text", str),
                texts=r.translations("text"),
                effects=tuple(effects),
                keep=r.get("keep", bool, False),
                long_term=r.get("long_term", bool, False),
                favourable=r.get("favourable", bool, None),
            )
            r.done()
            cards[card_id] = card
            ids.append(card_id)
        decks[deck_name] = tuple(ids)
    for cell in cells:
        if cell.deck is not None and cell.deck not in decks:
            raise EditionProblem("edition_no_deck", source, f"cells[{cell.index}].deck", value=f"'{cell.deck}'")

    slot = top.get("slot", dict, {})
    extra = top.get("extra", dict, {})
    box = _box(_Reader(source, "box", top.get("box", dict, {})))
    top.done()
    edition = Edition(
        id=ed_id,
        name=name,
        language=language,
        rules=rules,
        source=source,
        players_min=players_min,
        players_max=players_max,
        start_cash=start_cash,
        cells=tuple(cells),
        industries=industries,
        plots={c.id: c for c in cells if c.kind == "plot"},
        options=options,
        supply=supply,
        buildings=buildings,
        decks=decks,
        cards=cards,
        slot=slot,
        extra=extra,
        text=text,
        by_id={c.id: c for c in cells},
        by_name=names_of(cells),
        names=edition_names,
        groups={i: tuple(c.id for c in cells if c.industry == i) for i in industries},
        box=box,
    )
    rules_cls.check_edition(edition)
    return edition
