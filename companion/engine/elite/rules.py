"""Millionaire Elite: shares and the EXCHANGE, taxes, insurance, the AUCTION cell, the JACKPOT.

The authority is the Russian rulebook (../shared/rules/millionaire-elite-ru.txt);
section names in comments are its headings. Ambiguous points are named options
in the edition file and explained in docs/rule-choices.md.

EliteRules is assembled from one mixin per section of the rulebook, each in its
own module beside this one: taxes.py, exchange.py (shares), insurance.py,
cards.py (CHANCE and FORTUNE) and auction.py, on base.py (the share price and the
FORTUNE cards in force, which every section reads). This module holds the
edition's tables (options, verbs, who may issue them), its checks of the edition
file, and the turn hooks that touch several sections at once.
"""

from companion.engine.board import MONEY, PERCENT, Edition, shown
from companion.engine.core import Rules
from companion.engine.elite.auction import EliteAuction, side_layout
from companion.engine.elite.base import (
    ELITE_EFFECT_OPTIONAL,
    ELITE_EFFECTS,
    FORTUNE_EFFECTS,
    IN_FORCE,
    PLOT_EFFECTS,
    check_plot_selector,
    plot_ordinals,
)
from companion.engine.elite.cards import EliteCards
from companion.engine.elite.exchange import EliteExchange
from companion.engine.elite.insurance import POLICIES, SHORT_TERM, EliteInsurance
from companion.engine.elite.taxes import EliteTaxes
from companion.engine.millionaire import MillionaireRules
from companion.engine.state import Note, State
from companion.errors import EditionProblem


class EliteRules(EliteCards, EliteTaxes, EliteInsurance, EliteExchange, EliteAuction):
    """The sections' mixins, first to last; each method is defined in one of them only, so
    their order decides nothing but reading order, and every override still comes before
    MillionaireRules and Rules (EliteBase's bases) in the method resolution order."""

    # the JACKPOT, TAX INSPECTION and redemption timing come from MillionaireRules
    OPTIONS = {
        **MillionaireRules.OPTIONS,
        "share_start_price": 100,
        "share_point": 10,
        "dividend_percent": 20,
        "share_tax": 10,
        "circle_tax_when_sent": True,
        "tax_on_mortgaged": False,
        "sell_shares_in_debt": True,
        "wealth_counts_shares": True,
        "policy_green": 100,
        "policy_blue": 200,
        "policy_orange": 300,
        "policy_red": 500,
        "long_term_policies": "ask",  # or "auto": used up the first time they would cover
        "red_policy_pays_owner": True,  # the insurer pays the rent a RED policy cancels
        "central_industry": "central",
        "central_tax": "per_plot",  # or "per_owner": the central row's tax once per owner
        "fortune_sets": "value",  # or "printed": a FORTUNE rent or tax replaces the printed value
        "discard_decks": ["fortune"],
    }
    OPTION_RANGES = {
        **MillionaireRules.OPTION_RANGES,
        "share_start_price": MONEY,
        "share_point": MONEY,  # the price moves by points x share_point
        "dividend_percent": PERCENT,
        "share_tax": MONEY,
        "policy_green": MONEY,
        "policy_blue": MONEY,
        "policy_orange": MONEY,
        "policy_red": MONEY,
    }
    OPTION_CHOICES = {
        **MillionaireRules.OPTION_CHOICES,
        "long_term_policies": ("ask", "auto"),
        "central_tax": ("per_plot", "per_owner"),
        "fortune_sets": ("value", "printed"),
    }
    SUPPLY = (*MillionaireRules.SUPPLY, "shares", *POLICIES)
    CELL_KINDS = MillionaireRules.CELL_KINDS | {"exchange", "auction", "tax_exemption"}
    EFFECTS = ELITE_EFFECTS
    EFFECT_OPTIONAL = {**Rules.EFFECT_OPTIONAL, **ELITE_EFFECT_OPTIONAL}
    COMMANDS = {
        **MillionaireRules.COMMANDS,
        "buy_shares": "cmd_buy_shares",
        "sell_shares": "cmd_sell_shares",
        "commission": "cmd_commission",
        "exchange": "cmd_exchange",
        "insure": "cmd_insure",
        "use_policy": "cmd_use_policy",
        "skip_policy": "cmd_skip_policy",
        "auction_roll": "cmd_auction_roll",
    }
    ARITY = {
        **MillionaireRules.ARITY,
        "buy_shares": (2, 2, "buy_shares PLAYER N"),
        "sell_shares": (2, 2, "sell_shares PLAYER N"),
        "commission": (3, 3, "commission PLAYER N FEE"),
        "exchange": (0, 2, "exchange D D"),
        "insure": (2, 2, "insure PLAYER green|blue|orange|red"),
        "draw": (0, 10, "draw [CARD...]"),
        "use_policy": (2, 3, "use_policy PLAYER orange|red [CARD|tax|rent|OWNER]"),
        "skip_policy": (1, 2, "skip_policy PLAYER [CARD]"),
        "auction_roll": (0, 3, "auction_roll D D D"),
    }
    DEBT_COMMANDS = MillionaireRules.DEBT_COMMANDS | {"sell_shares", "use_policy", "skip_policy"}
    DICE_VERBS = {**MillionaireRules.DICE_VERBS, "exchange": (0, 2), "auction_roll": (0, 3)}
    WHO = {
        **MillionaireRules.WHO,
        "buy_shares": "named",
        "sell_shares": "named",
        "commission": "named",
        "exchange": "turn",
        "insure": "named",
        "use_policy": "named",
        "skip_policy": "named",
        "auction_roll": "pending",
    }

    def __init__(self, edition: Edition) -> None:
        super().__init__(edition)
        self.LANDINGS.update(
            {
                "exchange": self.land_exchange,
                "auction": self.land_auction,
                "tax_exemption": self.land_tax_exemption,
            }
        )
        self.sides = side_layout(edition, self.opt["central_industry"])
        self.ordinal = plot_ordinals(edition, self.opt["central_industry"])

    @classmethod
    def check_edition(cls, edition: Edition) -> None:
        super().check_edition(edition)  # the slot machine and the bets: MillionaireRules
        central = edition.options["central_industry"]
        if central not in edition.industries:
            raise EditionProblem(
                "edition_not_industry", edition.source, "options.central_industry", value=shown(central)
            )
        side_layout(edition, central)
        for card_id in edition.decks.get("fortune", ()):
            for eff in edition.cards[card_id].effects:
                if eff["do"] not in FORTUNE_EFFECTS:
                    raise EditionProblem(
                        "edition_fortune_effect",
                        edition.source,
                        f"decks.fortune.{card_id}",
                        effect=eff["do"],
                        known=", ".join(sorted(FORTUNE_EFFECTS)),
                    )
        for card in edition.cards.values():
            for eff in card.effects:
                if eff["do"] in PLOT_EFFECTS:
                    check_plot_selector(edition, eff, f"decks.{card.deck}.{card.id}")
                if eff["do"] in IN_FORCE and card.deck != "fortune":
                    # it would do nothing: only FORTUNE cards lie on the wheel and stay in force
                    raise EditionProblem(
                        "edition_fortune_only", edition.source, f"decks.{card.deck}.{card.id}", effect=eff["do"]
                    )

    # ----- setup ------------------------------------------------------------------

    def setup(self, s: State) -> None:
        super().setup(s)  # 200 into the JACKPOT cash box
        s.extra["price"] = self.opt["share_start_price"]
        s.extra["fortune"] = ()

    # ----- turn hooks -----------------------------------------------------------------

    def turn_started(self, s: State, p: str) -> None:
        super().turn_started(s, p)  # the JACKPOT chance ends
        s.extra.pop("window", None)
        s.extra.pop("exchange", None)

    def move_started(self, s: State, p: str) -> None:
        # a new move ends the share window and the exchange visit (and, in super, the jackpot chance)
        super().move_started(s, p)
        s.extra.pop("window", None)
        s.extra.pop("exchange", None)

    def pass_start(self, s: State, p: str) -> None:
        super().pass_start(s, p)  # КРУГОВОЙ ДОХОД: 200 and the dividend
        for colour in SHORT_TERM:  # short-term policies go back to the bank
            if s.held(p, colour):
                s.notes.append(Note("policy_expired", {"player": p, "policy": colour, "count": s.held(p, colour)}))
                self.give(s, p, colour, -s.held(p, colour))
        s.extra["window"] = p  # shares may be bought on passing START

    def board_changes(self, before: State, after: State) -> list[Note]:
        # and the share price marker and the FORTUNE cards on the wheel
        notes = super().board_changes(before, after)
        if before.extra.get("price") != after.extra.get("price"):
            notes.append(Note("put_price", {"price": after.extra["price"]}))
        if before.extra.get("fortune") != after.extra.get("fortune"):
            notes.append(Note("put_fortune", {"cards": list(after.extra.get("fortune", ()))}))
        return notes
