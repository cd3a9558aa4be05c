"""What every section of Elite reads: the share price marker and the FORTUNE cards in force."""

from typing import Any

from companion.engine.board import Cell, Edition, shown
from companion.engine.core import CORE_EFFECTS
from companion.engine.millionaire import MillionaireRules
from companion.engine.state import Note, State
from companion.errors import EditionProblem

ELITE_EFFECTS = {
    **CORE_EFFECTS,
    "share_price": ("points",),  # FORTUNE: the share price moves by points x 10
    "each_pays_per_share": ("amount",),  # every holder pays the bank per share held
    "each_receives_per_share": ("amount",),
    "each_pays_per_building": ("small", "large"),
    "dividend_percent": ("percent",),  # long-term: dividends at this rate while in force
    "circle_income": ("amount",),  # long-term: the fixed part of circle income
    "tax_exemption": (),  # skip the next circle tax
    "draw_fortune": ("count",),  # CHANCE: put FORTUNE cards on the wheel
    # long-term FORTUNE points on plots: each names an industry or an ordinal
    # ("first", "second", "third": each industry's n-th plot from START)
    "set_rent": ("amount",),  # the rent owed there is this amount
    "set_tax": ("amount",),  # the circle tax there is this amount (0: exempt)
    "double_tax": (),  # the circle tax there is doubled
    "share_tax": ("amount",),  # the circle tax per share
}
ELITE_EFFECT_OPTIONAL = {
    "set_rent": ("industry", "plots"),
    "set_tax": ("industry", "plots"),
    "double_tax": ("industry", "plots"),
}
PLOT_EFFECTS = ("set_rent", "set_tax", "double_tax")
ORDINALS = {"first": 1, "second": 2, "third": 3}
# FORTUNE cards are collective instructions («коллективных инструкций»): only these
FORTUNE_EFFECTS = {
    "share_price",
    "each_player_pays",
    "each_player_receives",
    "each_pays_per_share",
    "each_receives_per_share",
    "each_pays_per_building",
    "dividend_percent",
    "circle_income",
    *PLOT_EFFECTS,
    "share_tax",
}
# the FORTUNE points read while their card is in force, not when it is drawn
IN_FORCE = {"dividend_percent", "circle_income", *PLOT_EFFECTS, "share_tax"}


# an EXCHANGE visit: (player, "before" or "after" the roll, the trades used as bits 1 and 2,
# the players who bought through the visitor)
Visit = tuple[str, str, int, tuple[str, ...]]


class EliteBase(MillionaireRules):
    """The Millionaire family's rules plus the state every Elite section reads (the sections
    are mixins on this class, assembled into EliteRules in elite/rules.py)."""

    # set by EliteRules.__init__ from the edition's board
    sides: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]  # the AUCTION cell's sides (side_layout)
    ordinal: dict[str, int]  # plot id -> its place in its industry (plot_ordinals)

    # ----- the share price marker (АКЦИИ) -------------------------------------------------

    def price(self, s: State) -> int:
        price: int = s.extra["price"]
        return price

    def move_price(self, s: State, points: int) -> None:
        old = self.price(s)
        new = max(0, old + points * self.opt["share_point"])
        s.extra["price"] = new
        s.notes.append(Note("share_price", {"old": old, "new": new}))

    # ----- the FORTUNE cards on the wheel -----------------------------------------------

    def in_force(self, s: State, effect: str) -> dict[str, Any] | None:
        """The first FORTUNE card in force with this effect (first drawn wins)."""
        eff: dict[str, Any]
        for card_id in s.extra["fortune"]:
            for eff in self.edition.cards[card_id].effects:
                if eff["do"] == effect:
                    return eff
        return None

    def on_plot(self, s: State, cell: Cell, verbs: tuple[str, ...]) -> dict[str, Any] | None:
        """The first FORTUNE point in force (first drawn wins) of these verbs that names this plot."""
        eff: dict[str, Any]
        for card_id in s.extra["fortune"]:
            for eff in self.edition.cards[card_id].effects:
                if eff["do"] not in verbs:
                    continue
                if "industry" in eff and eff["industry"] == cell.industry:
                    return eff
                # an ordinal names no central plot (they have none: never compare two absences)
                if "plots" in eff and ORDINALS[eff["plots"]] == self.ordinal.get(cell.id):
                    return eff
        return None

    def fortune_value(self, eff: dict[str, Any], computed: int, printed: int) -> int:
        """A FORTUNE card's rent or tax on a plot whose table value is `computed`."""
        if eff["do"] == "double_tax":
            return 2 * computed
        if self.opt["fortune_sets"] == "printed" and printed:
            # the card replaces the printed value; the RENT or TAX TABLE still multiplies it
            replaced: int = eff["amount"] * computed // printed
            return replaced
        value: int = eff["amount"]
        return value


def first(row: tuple[int, ...]) -> int:
    """A table row's printed (first) value; 0 when the row is empty."""
    return row[0] if row else 0


def plot_ordinals(edition: Edition, central: str) -> dict[str, int]:
    """Plot id -> its place (1, 2, 3) in its industry counted from START; central plots have none."""
    seen: dict[str | None, int] = {}  # industry -> plots counted (a plot's industry is never None)
    out = {}
    for cell in edition.cells:
        if cell.is_plot and cell.industry != central:
            seen[cell.industry] = seen.get(cell.industry, 0) + 1
            out[cell.id] = seen[cell.industry]
    return out


def check_plot_selector(edition: Edition, eff: dict[str, Any], where: str) -> None:
    """A FORTUNE point on plots names exactly one of: an industry, or an ordinal."""
    keys = [k for k in ("industry", "plots") if k in eff]
    if len(keys) != 1:
        raise EditionProblem("edition_plot_selector", edition.source, where, effect=eff["do"])
    if "industry" in eff and eff["industry"] not in edition.industries:
        raise EditionProblem("edition_not_industry", edition.source, where, value=shown(eff["industry"]))
    if "plots" in eff and eff["plots"] not in ORDINALS:
        raise EditionProblem("edition_ordinal", edition.source, where, value=shown(eff["plots"]))
