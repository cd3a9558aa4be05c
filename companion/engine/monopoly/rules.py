"""Monopoly (classic): houses and hotels, railroads and utilities, jail, shortage auctions, bankruptcy.

The authority is shared/rules/monopoly-classic-en.txt, a machine translation
of several Russian articles; section names in comments are its headings
("Lack of buildings", "Pledge", "Bankruptcy", ...). The board's figures are the
US edition's (companion/editions/monopoly.toml). Choices where the text is
ambiguous or the articles disagree are named options, explained in
docs/editions/monopoly.md.

MonopolyRules is assembled from one mixin per concern, each in its own module
beside this one: buildings.py (houses, hotels, the shortage auction),
landings.py (GO, Free Parking, rents, cards) and trades.py (trades, mortgaged
lots changing hands, bankruptcy). This module holds the edition's tables, its
checks of the edition file and the short game's deal.
"""

from companion.engine.board import MONEY, PERCENT, Edition
from companion.engine.core import Rules
from companion.engine.monopoly.buildings import MonopolyBuildings
from companion.engine.monopoly.landings import MONOPOLY_EFFECTS, MonopolyLandings
from companion.engine.monopoly.trades import MonopolyTrades
from companion.engine.shuffle import shuffled
from companion.engine.state import BANK, POT, Note, State
from companion.errors import EditionProblem


class MonopolyRules(MonopolyBuildings, MonopolyLandings, MonopolyTrades):
    """The concerns' mixins; each method is defined in one of them only, so their order
    decides nothing but reading order, and every override still comes before Rules."""

    OPTIONS = {
        **Rules.OPTIONS,
        # the core's options, at Monopoly's values
        "detention_third_miss": "pay_and_move",
        "monopoly_broken_by_mortgage": True,
        "mortgage_needs_empty_industry": True,
        "redeem_interest_base": "mortgage",
        "auction_opening_percent": 0,
        # Monopoly's own
        "hotel_after_houses": 4,
        "end_at_bankruptcy": 0,
        "start_deal": 0,
        "bankrupt_to_bank": "auction",
        "transfer_interest_percent": 10,
        "trade_mortgaged": True,
        "card_utility_roll": True,
        "building_shortage_auction": True,
        "free_parking_pot": False,
        "go_landing_bonus": 0,
        "jail_blocks_rent": False,
    }
    OPTION_RANGES = {
        **Rules.OPTION_RANGES,
        "hotel_after_houses": (1, 10),  # and at most [buildings] small_max (check_edition)
        "end_at_bankruptcy": (0, 7),  # 0: play to the last player
        "start_deal": (0, 10),  # deeds dealt to each player; start_cash must pay for them
        "transfer_interest_percent": PERCENT,
        "go_landing_bonus": MONEY,
    }
    OPTION_CHOICES = {**Rules.OPTION_CHOICES, "bankrupt_to_bank": ("auction", "return")}
    EFFECT_NUMBERS = {**Rules.EFFECT_NUMBERS, "rent_multiplier": (1, 10), "dice_multiplier": (1, 100)}
    EFFECT_OPTIONAL = {**Rules.EFFECT_OPTIONAL, "advance_to_nearest": ("rent_multiplier", "dice_multiplier")}
    CELL_KINDS = Rules.CELL_KINDS | {"parking"}
    EFFECTS = MONOPOLY_EFFECTS
    SYSTEM_ACCOUNTS = (BANK, POT)
    COMMANDS = {
        **Rules.COMMANDS,
        "rent_roll": "cmd_rent_roll",
        "house_auction": "cmd_house_auction",
        "keep_mortgage": "cmd_keep_mortgage",
    }
    ARITY = {
        **Rules.ARITY,
        "rent_roll": (0, 2, "rent_roll D D"),
        "house_auction": (1, 1, "house_auction PLOT"),
        "keep_mortgage": (1, 1, "keep_mortgage PLOT"),
    }
    DICE_VERBS = {**Rules.DICE_VERBS, "rent_roll": (0, 2)}
    # the shortage auction reads the board, who is still playing, and any open decision (Rules.LEGAL_READS)
    LEGAL_READS = {**Rules.LEGAL_READS, "house_auction": ("alive", "pending")}
    # house_auction is the auction host's, like opening and hammer: the table's alone
    WHO = {**Rules.WHO, "rent_roll": "pending", "house_auction": "table", "keep_mortgage": "pending"}

    def __init__(self, edition: Edition) -> None:
        super().__init__(edition)
        self.LANDINGS["parking"] = self.land_parking

    @classmethod
    def check_edition(cls, edition: Edition) -> None:
        super().check_edition(edition)
        src, opt, b = edition.source, edition.options, edition.buildings
        if b["large_max"] != 1 or not b["large_returns_small"]:
            raise EditionProblem("edition_hotel", src, "buildings")
        if not 1 <= opt["hotel_after_houses"] <= b["small_max"]:
            raise EditionProblem("edition_hotel_after", src, "options.hotel_after_houses", high=b["small_max"])
        # the short game's deal is paid from the start cash: even the dearest deeds must be affordable
        dearest = sum(sorted((c.price for c in edition.plots.values()), reverse=True)[: opt["start_deal"]])
        if dearest > edition.start_cash:
            raise EditionProblem(
                "edition_start_deal",
                src,
                "options.start_deal",
                deeds=opt["start_deal"],
                cost=dearest,
                cash=edition.start_cash,
            )
        for card in edition.cards.values():
            for eff in card.effects:
                if eff["do"] == "advance_to_nearest" and not edition.industry_plots(eff["industry"]):
                    raise EditionProblem("edition_no_lots", src, f"decks.{card.deck}.{card.id}", ind=eff["industry"])

    # ----- setup: the short game's deal ------------------------------------------------

    def setup(self, s: State) -> None:
        # Rules of a shortened game, 1: the banker deals title deeds, paid at the printed price
        if not self.opt["start_deal"]:
            return
        dealt, s.rng = shuffled(tuple(self.edition.plots), s.rng)
        deck = list(dealt)
        for _ in range(self.opt["start_deal"]):
            for p in s.players:
                if not deck:
                    return
                cell = self.edition.plots[deck.pop(0)]
                s.owner[cell.id] = p
                self.transfer(s, p, BANK, cell.price)
                s.notes.append(Note("dealt", {"player": p, "plot": cell.id, "price": cell.price}))
