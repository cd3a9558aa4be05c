"""Edition data as frozen values, built from a parsed edition file with clear errors.

The engine never reads files: the loader in companion.editions parses TOML and
hands the resulting dict to `build_edition`, which checks every key and names
the file, the key and the problem when something is wrong.
"""
from dataclasses import dataclass, field

from companion.errors import EditionError


@dataclass(frozen=True)
class Industry:
    id: str
    name: str
    buildable: bool = True
    build_cost: int = 0
    rent_by_count: tuple = ()          # rent by number of plots of the industry owned
    tax_by_count: tuple = ()           # circle tax by number owned (Elite central industry)
    dice_multiplier_by_count: tuple = ()  # rent = multiplier x dice (Monopoly utilities)


@dataclass(frozen=True)
class Cell:
    id: str
    index: int
    kind: str
    name: str
    industry: str | None = None
    price: int = 0
    rent: tuple = ()       # [printed, monopoly, level 1, level 2, ...]
    tax: tuple = ()        # same shape as rent, for circle tax (Elite)
    build_cost: int = 0
    mortgage: int = 0
    deck: str | None = None
    params: dict = field(default_factory=dict, hash=False)

    @property
    def is_plot(self):
        return self.industry is not None


@dataclass(frozen=True)
class Card:
    id: str
    deck: str
    text: str
    effects: tuple          # tuple of dicts: {"do": verb, ...arguments}
    keep: bool = False      # kept by the player until used (e.g. leave TAX INSPECTION)
    long_term: bool = False  # FORTUNE: in force until the next card is drawn
    favourable: bool | None = None  # Deluxe rating scale: up (True) or down (False)


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
    cells: tuple
    industries: dict = field(hash=False)
    plots: dict = field(hash=False)
    options: dict = field(hash=False)
    supply: dict = field(hash=False)
    buildings: dict = field(hash=False)
    decks: dict = field(hash=False)
    cards: dict = field(hash=False)
    slot: dict = field(hash=False)
    extra: dict = field(hash=False)   # edition-module data ([extra] table), checked by the module
    text: str = ""                    # the file as read, stored in the ledger with the game
    by_id: dict = field(default_factory=dict, hash=False)    # cell id -> Cell
    groups: dict = field(default_factory=dict, hash=False)   # industry id -> plot ids in board order

    def cell(self, ref):
        """A cell by id or index, or None."""
        if isinstance(ref, int) or (isinstance(ref, str) and ref.isascii() and ref.isdigit()):
            i = int(ref)
            return self.cells[i] if 0 <= i < len(self.cells) else None
        return self.by_id.get(ref)

    def industry_plots(self, industry_id):
        return self.groups.get(industry_id, ())

    def cells_of_kind(self, kind):
        return tuple(c.index for c in self.cells if c.kind == kind)


class _Reader:
    """Typed access to one table of the file, reporting the key path on error."""

    def __init__(self, source, path, table):
        if not isinstance(table, dict):
            raise EditionError(source, path, "must be a table")
        self.source, self.path, self.table = source, path, table
        self.used = set()

    def _key(self, key):
        return f"{self.path}.{key}" if self.path else key

    def get(self, key, kind, default=...):
        self.used.add(key)
        if key not in self.table:
            if default is ...:
                raise EditionError(self.source, self._key(key), "is missing")
            return default
        value = self.table[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise EditionError(self.source, self._key(key), f"must be a whole number, not {value!r}")
        if kind is not int and not isinstance(value, kind):
            raise EditionError(self.source, self._key(key), f"must be {_kind_name(kind)}, not {value!r}")
        return value

    def money(self, key, default=...):
        value = self.get(key, int, default)
        if value is not None and value < 0:
            raise EditionError(self.source, self._key(key), f"must not be negative, not {value}")
        return value

    def money_list(self, key, default=...):
        value = self.get(key, list, default)
        for i, v in enumerate(value):
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise EditionError(self.source, f"{self._key(key)}[{i}]",
                                   f"must be a whole non-negative number, not {v!r}")
        return tuple(value)

    def done(self, allowed_extra=()):
        unknown = set(self.table) - self.used - set(allowed_extra)
        if unknown:
            raise EditionError(self.source, self._key(sorted(unknown)[0]), "is not a known key here")


def _kind_name(kind):
    return {str: "text", bool: "true or false", list: "a list", dict: "a table",
            int: "a whole number"}.get(kind, kind.__name__)


def build_edition(data, source, rules_cls, text=""):
    """Check a parsed edition file against the rules module and return an Edition."""
    top = _Reader(source, "", data)
    head = _Reader(source, "edition", top.get("edition", dict))
    ed_id = head.get("id", str)
    name = head.get("name", str)
    language = head.get("language", str, "en")
    rules = head.get("rules", str)
    players_min = head.get("players_min", int, 2)
    players_max = head.get("players_max", int, 6)
    start_cash = head.money("start_cash")
    head.get("check_against_box", str, "")
    head.done()
    if not 1 <= players_min <= players_max <= 8:
        raise EditionError(source, "edition.players_min", "players_min..players_max must lie within 1..8")

    options = dict(rules_cls.OPTIONS)
    given = top.get("options", dict, {})
    for key, value in given.items():
        if key not in options:
            raise EditionError(source, f"options.{key}", "is not an option of the "
                               f"'{rules}' rules (known: {', '.join(sorted(options))})")
        default = options[key]
        if type(value) is not type(default):
            raise EditionError(source, f"options.{key}",
                               f"must be {_kind_name(type(default))} like the default {default!r}, not {value!r}")
        options[key] = value

    supply = {}
    for key, value in top.get("supply", dict, {}).items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise EditionError(source, f"supply.{key}", f"must be a whole non-negative number, not {value!r}")
        supply[key] = value

    b = _Reader(source, "buildings", top.get("buildings", dict, {}))
    buildings = {
        "small_max": b.get("small_max", int, 0),
        "large_max": b.get("large_max", int, 0),
        "large_returns_small": b.get("large_returns_small", bool, False),
    }
    b.done()

    industries = {}
    for i, raw in enumerate(top.get("industries", list, [])):
        r = _Reader(source, f"industries[{i}]", raw)
        ind = Industry(
            id=r.get("id", str), name=r.get("name", str),
            buildable=r.get("buildable", bool, True),
            build_cost=r.money("build_cost", 0),
            rent_by_count=r.money_list("rent_by_count", []),
            tax_by_count=r.money_list("tax_by_count", []),
            dice_multiplier_by_count=r.money_list("dice_multiplier_by_count", []))
        r.done()
        if ind.id in industries:
            raise EditionError(source, f"industries[{i}].id", f"'{ind.id}' is used twice")
        industries[ind.id] = ind

    levels = 2 + buildings["small_max"] + buildings["large_max"]
    cells, seen = [], set()
    for i, raw in enumerate(top.get("cells", list)):
        r = _Reader(source, f"cells[{i}]", raw)
        cid = r.get("id", str)
        kind = r.get("kind", str)
        if cid in seen:
            raise EditionError(source, f"cells[{i}].id", f"'{cid}' is used twice")
        seen.add(cid)
        if kind not in rules_cls.CELL_KINDS:
            raise EditionError(source, f"cells[{i}].kind", f"'{kind}' is not a cell kind of the "
                               f"'{rules}' rules (known: {', '.join(sorted(rules_cls.CELL_KINDS))})")
        industry = r.get("industry", str, None)
        if kind == "plot":
            if industry not in industries:
                raise EditionError(source, f"cells[{i}].industry", f"'{industry}' is not a listed industry")
            ind = industries[industry]
            price = r.money("price")
            rent = r.money_list("rent", [])
            if not rent and not ind.rent_by_count and not ind.dice_multiplier_by_count \
                    and rules_cls.PLOTS_PAY_RENT:
                raise EditionError(source, f"cells[{i}].rent", "is missing (and the industry has no rent_by_count)")
            if ind.buildable and rent and len(rent) != levels:
                raise EditionError(source, f"cells[{i}].rent", f"must list {levels} amounts "
                                   "(printed, monopoly, then one per building level), "
                                   f"not {len(rent)}")
            tax = r.money_list("tax", [])
            if tax and ind.buildable and len(tax) != levels:
                raise EditionError(source, f"cells[{i}].tax", f"must list {levels} amounts, not {len(tax)}")
            cell = Cell(id=cid, index=i, kind=kind, name=r.get("name", str), industry=industry,
                        price=price, rent=rent, tax=tax,
                        build_cost=r.money("build_cost", ind.build_cost),
                        mortgage=r.money("mortgage", price // 2))
            r.done()
        else:
            if industry is not None:
                raise EditionError(source, f"cells[{i}].industry", "only plots belong to an industry")
            deck = r.get("deck", str, None)
            params = {k: v for k, v in raw.items() if k not in ("id", "kind", "name", "deck")}
            cell = Cell(id=cid, index=i, kind=kind, name=r.get("name", str), deck=deck, params=params)
        cells.append(cell)
    for ind in industries.values():
        count = sum(1 for c in cells if c.industry == ind.id)
        for key in ("rent_by_count", "tax_by_count", "dice_multiplier_by_count"):
            listed = getattr(ind, key)
            if listed and len(listed) != count:
                raise EditionError(source, f"industries.{ind.id}.{key}",
                                   f"must list one amount per plot owned, 1 to {count}, not {len(listed)}")
    if not cells or cells[0].kind != "start":
        raise EditionError(source, "cells[0].kind", "the first cell must be the START cell (kind = \"start\")")

    decks, cards = {}, {}
    for deck_name, raw_cards in top.get("decks", dict, {}).items():
        if not isinstance(raw_cards, list) or not raw_cards:
            raise EditionError(source, f"decks.{deck_name}", "must be a non-empty list of cards")
        ids = []
        for j, raw in enumerate(raw_cards):
            path = f"decks.{deck_name}[{j}]"
            r = _Reader(source, path, raw)
            card_id = r.get("id", str)
            if card_id in cards:
                raise EditionError(source, f"{path}.id", f"'{card_id}' is used twice")
            effects = r.get("effects", list)
            for k, eff in enumerate(effects):
                rules_cls.check_effect(eff, source, f"{path}.effects[{k}]")
            card = Card(id=card_id, deck=deck_name, text=r.get("text", str), effects=tuple(effects),
                        keep=r.get("keep", bool, False), long_term=r.get("long_term", bool, False),
                        favourable=r.get("favourable", bool, None))
            r.done()
            cards[card_id] = card
            ids.append(card_id)
        decks[deck_name] = tuple(ids)
    for cell in cells:
        if cell.deck is not None and cell.deck not in decks:
            raise EditionError(source, f"cells[{cell.index}].deck", f"'{cell.deck}' is not a deck in [decks]")

    slot = top.get("slot", dict, {})
    extra = top.get("extra", dict, {})
    top.done()
    edition = Edition(
        id=ed_id, name=name, language=language, rules=rules, source=source,
        players_min=players_min, players_max=players_max, start_cash=start_cash,
        cells=tuple(cells), industries=industries,
        plots={c.id: c for c in cells if c.kind == "plot"}, options=options, supply=supply,
        buildings=buildings, decks=decks, cards=cards, slot=slot, extra=extra, text=text,
        by_id={c.id: c for c in cells},
        groups={i: tuple(c.id for c in cells if c.industry == i) for i in industries})
    rules_cls.check_edition(edition)
    return edition
