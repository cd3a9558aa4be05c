"""Millionaire Elite: shares and the EXCHANGE, taxes, insurance, the AUCTION cell, the JACKPOT.

The authority is the Russian rulebook (../shared/rules/millionaire-elite-ru.txt);
section names in comments are its headings. Ambiguous points are named options
in the edition file and explained in docs/rule-choices.md.
"""

from dataclasses import replace

from companion.engine.actions import Action, Budget, OneOf, Span, dice
from companion.engine.board import MONEY, PERCENT, shown
from companion.engine.command import Command
from companion.engine.core import CORE_EFFECTS, MAX_AMOUNT, Pending, Rules
from companion.engine.millionaire import MillionaireRules
from companion.engine.state import BANK, Debt, Note
from companion.errors import BadCommand, EditionProblem, RuleViolation

POLICIES = ("green", "blue", "orange", "red")
# the colours as a Russian table types them (ПРАВИЛА СТРАХОВАНИЯ: ЗЕЛЁНЫЙ, СИНИЙ, ОРАНЖЕВЫЙ, КРАСНЫЙ)
POLICY_NAMES = {"зелёный": "green", "зеленый": "green", "синий": "blue", "оранжевый": "orange", "красный": "red"}


def policy_arg(word: str) -> str:
    """A policy colour as typed (green or ЗЕЛЁНЫЙ, any case): its id; other words stay as they are."""
    return POLICY_NAMES.get(word.lower(), word.lower())


# keys of a FORTUNE card's cover context besides player names (tuples: never a name)
BLUE_PICKS = ("blue picks",)
EFFECT = ("effect",)
SHORT_TERM = ("green", "blue")

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


class EliteRules(MillionaireRules):
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

    def __init__(self, edition):
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
    def check_edition(cls, edition):
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

    def setup(self, s):
        super().setup(s)  # 200 into the JACKPOT cash box
        s.extra["price"] = self.opt["share_start_price"]
        s.extra["fortune"] = ()

    def price(self, s):
        return s.extra["price"]

    # ----- turn hooks -----------------------------------------------------------------

    def turn_started(self, s, p):
        super().turn_started(s, p)  # the JACKPOT chance ends
        s.extra.pop("window", None)
        s.extra.pop("exchange", None)

    def move_started(self, s, p):
        # a new move ends the share window and the exchange visit (and, in super, the jackpot chance)
        super().move_started(s, p)
        s.extra.pop("window", None)
        s.extra.pop("exchange", None)

    def on_pass(self, s, p, cell):
        super().on_pass(s, p, cell)
        if cell.kind == "detention":
            self.circle_tax(s, p)  # КРУГОВОЙ НАЛОГ: passing TAX INSPECTION

    def pass_start(self, s, p):
        super().pass_start(s, p)  # КРУГОВОЙ ДОХОД: 200 and the dividend
        for colour in SHORT_TERM:  # short-term policies go back to the bank
            if s.held(p, colour):
                s.notes.append(Note("policy_expired", {"player": p, "policy": colour, "count": s.held(p, colour)}))
                self.give(s, p, colour, -s.held(p, colour))
        s.extra["window"] = p  # shares may be bought on passing START

    def in_force(self, s, effect):
        """The first FORTUNE card in force with this effect (first drawn wins)."""
        for card_id in s.extra["fortune"]:
            for eff in self.edition.cards[card_id].effects:
                if eff["do"] == effect:
                    return eff
        return None

    def on_plot(self, s, cell, verbs):
        """The first FORTUNE point in force (first drawn wins) of these verbs that names this plot."""
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

    def fortune_value(self, eff, computed, printed):
        """A FORTUNE card's rent or tax on a plot whose table value is `computed`."""
        if eff["do"] == "double_tax":
            return 2 * computed
        if self.opt["fortune_sets"] == "printed" and printed:
            # the card replaces the printed value; the RENT or TAX TABLE still multiplies it
            return eff["amount"] * computed // printed
        return eff["amount"]

    def rent(self, s, cell):
        computed = super().rent(s, cell)
        eff = self.on_plot(s, cell, ("set_rent",))
        if eff is None:
            return computed
        ind = self.edition.industries[cell.industry]
        return self.fortune_value(eff, computed, first(cell.rent) or first(ind.rent_by_count))

    def circle_income_parts(self, s, p):
        """КРУГОВОЙ ДОХОД: (the fixed sum, the dividend on shares), as FORTUNE cards in force say."""
        base = self.in_force(s, "circle_income")
        rate = self.in_force(s, "dividend_percent")
        percent = rate["percent"] if rate else self.opt["dividend_percent"]
        fixed = base["amount"] if base else self.opt["circle_income"]
        return fixed, s.held(p, "shares") * self.price(s) * percent // 100

    # ----- taxes and TAX INSPECTION ----------------------------------------------------

    def table_tax(self, s, p, cell):
        """The plot's circle tax from the TAX TABLE (no FORTUNE card)."""
        ind = self.edition.industries[cell.industry]
        if ind.tax_by_count:
            # by the central plots the owner pays tax on (the calculator leaves out mortgaged ones)
            taxed = [
                pid
                for pid in self.edition.industry_plots(ind.id)
                if s.owner.get(pid) == p and (self.opt["tax_on_mortgaged"] or pid not in s.mortgaged)
            ]
            return ind.tax_by_count[max(len(taxed), 1) - 1]
        if not cell.tax:
            return 0
        level = s.level.get(cell.id, 0)
        if level:
            return cell.tax[1 + level]
        return cell.tax[1] if self.is_monopoly(s, p, cell.industry) else cell.tax[0]

    def plot_tax(self, s, p, cell):
        computed = self.table_tax(s, p, cell)
        eff = self.on_plot(s, cell, ("set_tax", "double_tax"))
        if eff is None:
            return computed
        ind = self.edition.industries[cell.industry]
        return self.fortune_value(eff, computed, first(cell.tax) or first(ind.tax_by_count))

    def circle_tax_amount(self, s, p):
        rate = self.in_force(s, "share_tax")
        total = s.held(p, "shares") * (rate["amount"] if rate else self.opt["share_tax"])
        central = self.opt["central_industry"]
        once = self.opt["central_tax"] == "per_owner"
        counted = False
        for pid in s.plots_of(p):
            if pid in s.mortgaged and not self.opt["tax_on_mortgaged"]:
                continue
            cell = self.edition.plots[pid]
            if once and cell.industry == central:
                if counted:
                    continue  # the central row's tax is the owner's, not each plot's
                counted = True
            total += self.plot_tax(s, p, cell)
        return total

    def circle_tax(self, s, p):
        flags = s.flags.get(p, frozenset())
        if "tax_exempt" in flags:
            s.flags[p] = flags - {"tax_exempt"}
            if not s.flags[p]:
                del s.flags[p]
            s.notes.append(Note("tax_exempted", {"player": p}))
            return
        self.charge(s, p, BANK, self.circle_tax_amount(s, p), "circle_tax")

    def land_inspection(self, s, p, cell):
        self.circle_tax(s, p)
        super().land_inspection(s, p, cell)  # then held there

    def send_to_detention(self, s, p):
        # НАЛОГОВАЯ ПОЛИЦИЯ and three doubles: straight there, no circle income
        super().send_to_detention(s, p)
        if self.opt["circle_tax_when_sent"]:
            self.circle_tax(s, p)

    def land_tax_exemption(self, s, p, cell):
        s.flags[p] = s.flags.get(p, frozenset()) | {"tax_exempt"}
        s.notes.append(Note("tax_exemption", {"player": p}))

    # ----- shares (АКЦИИ) -----------------------------------------------------------------

    def exchange_visit(self, s, p):
        ex = s.extra.get("exchange")
        return ex if ex and ex[0] == p else None

    def cmd_buy_shares(self, s, args):
        """`buy_shares PLAYER N`: before the game, on passing START, or on EXCHANGE."""
        p = self.player_arg(s, args[0])
        n = self.int_arg(args[1], "shares", 1)
        visit = self.exchange_visit(s, p)
        if not (s.phase == "setup" or s.extra.get("window") == p or visit):
            raise RuleViolation("no_share_window", player=p)
        if s.phase != "setup" and s.extra.get("window") == p:
            # the purchase on passing START (one, of any size); it uses no EXCHANGE trade
            del s.extra["window"]
        elif visit:
            self.use_exchange_trade(s, visit)
        self.sell_to(s, p, n)

    def sell_to(self, s, p, n):
        price = self.price(s)
        if price == 0:
            raise RuleViolation("bank_not_selling")
        left = self.edition.supply.get("shares", 48) - self.in_use(s, "shares")
        if n > left:
            raise RuleViolation("supply_out", kind="shares", left=left)
        self.spend(s, p, BANK, n * price, "shares")
        self.give(s, p, "shares", n)
        s.notes.append(Note("shares_bought", {"player": p, "count": n, "price": price, "amount": n * price}))

    def use_exchange_trade(self, s, visit):
        p, stage, used, buyers = visit
        bit = 1 if stage == "before" else 2
        if used & bit:
            raise RuleViolation("exchange_trade_used", player=p, stage=stage)
        s.extra["exchange"] = (p, stage, used | bit, buyers)

    def cmd_sell_shares(self, s, args):
        """`sell_shares PLAYER N`: to the bank, any time before one's own turn."""
        p = self.player_arg(s, args[0])
        n = self.int_arg(args[1], "shares", 1)
        if n > s.held(p, "shares"):
            raise RuleViolation("not_enough_shares", player=p, count=n, held=s.held(p, "shares"))
        in_debt = any(d.debtor == p for d in s.debts)
        visit = self.exchange_visit(s, p)
        if s.turn == p and s.phase == "moved" and not visit and not (in_debt and self.opt["sell_shares_in_debt"]):
            raise RuleViolation("before_own_turn_only", player=p, action="sell_shares")
        if visit and not in_debt:
            self.use_exchange_trade(s, visit)
        price = self.price(s)
        self.give(s, p, "shares", -n)
        self.transfer(s, BANK, p, n * price)
        s.notes.append(Note("shares_sold", {"player": p, "count": n, "price": price, "amount": n * price}))

    def cmd_commission(self, s, args):
        """`commission BUYER N FEE`: buy shares through the player on EXCHANGE, once each."""
        q = self.player_arg(s, args[0])
        n = self.int_arg(args[1], "shares", 1)
        fee = self.int_arg(args[2], "fee", 0)
        ex = s.extra.get("exchange")
        if not ex:
            raise RuleViolation("nobody_on_exchange")
        p, stage, used, buyers = ex
        if q == p:
            raise RuleViolation("commission_self", player=q)
        if q in buyers:
            raise RuleViolation("commission_used", player=q)
        self.spend(s, q, p, fee, "commission")
        self.sell_to(s, q, n)
        s.extra["exchange"] = (p, stage, used, buyers + (q,))
        s.notes.append(Note("commission_paid", {"player": q, "to": p, "amount": fee}))

    def land_exchange(self, s, p, cell):
        s.extra["exchange"] = (p, "before", 0, ())
        s.notes.append(Note("on_exchange", {"player": p}))

    def cmd_exchange(self, s, args):
        """`exchange D D`: ИГРА НА БИРЖЕ. Even first die: up, odd: down; second die: points."""
        up, points = self.dice_args(args, 2, "exchange D D")
        ex = s.extra.get("exchange")
        if not ex or ex[0] != s.turn:
            raise RuleViolation("not_on_exchange", player=s.turn)
        if ex[1] != "before":
            raise RuleViolation("exchange_played", player=s.turn)
        s.extra["exchange"] = (ex[0], "after", ex[2], ex[3])
        self.move_price(s, points if up % 2 == 0 else -points)

    def move_price(self, s, points):
        old = self.price(s)
        new = max(0, old + points * self.opt["share_point"])
        s.extra["price"] = new
        s.notes.append(Note("share_price", {"old": old, "new": new}))

    # ----- insurance (ПРАВИЛА СТРАХОВАНИЯ) ----------------------------------------------

    def cmd_insure(self, s, args):
        """`insure PLAYER COLOUR`: buy a policy from the bank."""
        p = self.player_arg(s, args[0])
        colour = policy_arg(args[1])
        if colour not in POLICIES:
            raise BadCommand("unknown_policy", policy=colour)
        if self.in_use(s, colour) >= self.edition.supply.get(colour, 12):
            raise RuleViolation("supply_out", kind=colour)
        price = self.opt[f"policy_{colour}"]
        self.spend(s, p, BANK, price, colour)
        self.give(s, p, colour, 1)
        s.notes.append(Note("insured", {"player": p, "policy": colour, "amount": price}))

    def cmd_use_policy(self, s, args):
        """`use_policy PLAYER COLOUR [WHAT]`: a long-term policy covers the event the holder picks.

        ORANGE or RED: the auction of the player's plot, or a FORTUNE card's
        payments held as a claim (WHAT = the card, else the first card waiting).
        RED also cancels one unbearable rent or circle tax (WHAT = tax, rent, or
        the owner owed the rent; else the first such debt): «игрок сам вправе
        выбирать, какой случай считать страховым».
        """
        p = self.player_arg(s, args[0])
        colour = policy_arg(args[1])
        what = args[2] if len(args) > 2 else None
        if colour not in ("orange", "red"):
            raise RuleViolation("policy_not_for_debt", policy=args[1])
        if not s.held(p, colour):
            raise RuleViolation("no_policy", player=p, policy=colour)
        if s.pending is not None and s.pending.kind == "claim" and s.pending.player == p and what is None:
            plot = s.pending.plot
            s.pending = None
            self.give(s, p, colour, -1)
            s.notes.append(Note("policy_used", {"player": p, "policy": colour, "reason": "auction"}))
            s.notes.append(Note("auction_cancelled", {"reason": "insured", "plot": plot, "player": p}))
            return
        claims = [d for d in s.debts if d.debtor == p and d.claim and what in (None, d.claim)]
        if claims:
            covered = [d for d in claims if d.claim == claims[0].claim]
            s.debts = tuple(d for d in s.debts if d not in covered)
            self.give(s, p, colour, -1)
            s.notes.append(
                Note(
                    "policy_used",
                    {"player": p, "policy": colour, "reason": "fortune", "amount": sum(d.amount for d in covered)},
                )
            )
            return
        debts = [d for d in s.debts if d.debtor == p and not d.claim and self.red_covers(d, what)]
        if colour != "red" or not debts:
            raise RuleViolation("nothing_to_cover", player=p)
        d = debts[0]
        s.debts = tuple(x for x in s.debts if x is not d)
        self.give(s, p, "red", -1)
        s.notes.append(Note("policy_used", {"player": p, "policy": "red", "reason": d.reason, "amount": d.amount}))
        if d.creditor in s.alive and self.opt["red_policy_pays_owner"]:
            self.transfer(s, BANK, d.creditor, d.amount)
            s.notes.append(Note("insurer_paid", {"player": d.creditor, "amount": d.amount}))

    @staticmethod
    def red_covers(debt, what):
        if debt.reason not in ("rent_paid", "circle_tax"):
            return False
        if what is None:
            return True
        if what.lower() == "tax":
            return debt.reason == "circle_tax"
        if what.lower() == "rent":
            return debt.reason == "rent_paid"
        return debt.reason == "rent_paid" and debt.creditor.lower() == what.lower()

    def cmd_skip_policy(self, s, args):
        """`skip_policy PLAYER [CARD]`: keep the long-term policy; the auction or the payment goes ahead."""
        p = self.player_arg(s, args[0])
        what = args[1] if len(args) > 1 else None
        if s.pending is not None and s.pending.kind == "claim" and s.pending.player == p and what is None:
            cell = self.edition.plots[s.pending.plot]
            s.notes.append(Note("policy_kept", {"player": p}))
            self.open_auction(s, cell, p)
            return
        claims = [d for d in s.debts if d.debtor == p and d.claim and what in (None, d.claim)]
        if not claims:
            raise RuleViolation("nothing_to_cover", player=p)
        s.debts = tuple(replace(d, claim="") if d in claims else d for d in s.debts)
        s.notes.append(Note("policy_kept", {"player": p}))

    def covers(self, s, p, ctx):
        """Whether p's insurance covers one adverse point of the current FORTUNE card now.

        Blue covers one point per card. ORANGE and RED cover every point of
        the card and are used up: with long_term_policies = "ask" the payment
        waits as a claim until the holder says (use_policy / skip_policy); with
        "auto" the policy is used the first time it would cover.
        """
        used = ctx.get(p)
        if used in ("orange", "red"):
            return True
        picked = ctx.get(BLUE_PICKS, {}).get(p, ctx.get(EFFECT))
        if s.held(p, "blue") and used != "blue" and picked == ctx.get(EFFECT):
            ctx[p] = "blue"
            s.notes.append(Note("policy_covered", {"player": p, "policy": "blue"}))
            return True
        if self.opt["long_term_policies"] != "auto":
            return False
        for colour in ("orange", "red"):
            if s.held(p, colour):
                self.give(s, p, colour, -1)
                ctx[p] = colour
                s.notes.append(Note("policy_used", {"player": p, "policy": colour, "reason": "fortune"}))
                return True
        return False

    def fortune_payment(self, s, p, amount, card, ctx):
        """An adverse FORTUNE point for p: covered, held as a claim, or charged."""
        if not amount or self.covers(s, p, ctx):
            return
        if self.opt["long_term_policies"] == "ask" and (s.held(p, "orange") or s.held(p, "red")):
            s.debts = s.debts + (Debt(p, BANK, amount, "card_paid", claim=card.id),)
            s.notes.append(Note("policy_claim", {"player": p, "amount": amount, "card": card.id}))
            return
        self.charge(s, p, BANK, amount, "card_paid", card=card.id)

    # ----- cards: CHANCE and FORTUNE --------------------------------------------------

    def cmd_draw(self, s, args):
        """`draw [CARD]`; after a CHANCE card that puts N FORTUNE cards on the wheel, `draw [CARD x N]`."""
        a = s.pending
        if a is None or a.kind != "draw" or not a.count:
            if len(args) > 1:
                raise BadCommand("usage", usage="draw [CARD]")
            super().cmd_draw(s, args)
            return
        if args and (len(args) > a.count or len(set(args)) != len(args)):
            raise BadCommand("usage", usage="draw" + " CARD" * a.count)
        s.pending = None
        drawn = []
        for i in range(a.count):
            if a.player not in s.alive:
                break
            # Each card is checked against the deck as it is at its own turn: the first may be the
            # deck's last, and the second then comes from the discards turned over. (Checking every
            # named card against the deck before the first draw refused, on replay, a draw that had
            # been booked so: a stored game that would not open.)
            top = s.decks["fortune"] or s.discards["fortune"]
            if args and i >= len(args):
                if top:  # fewer cards named than the wheel takes, and cards are left to turn
                    raise BadCommand("usage", usage="draw" + " CARD" * a.count)
                card = None  # the deck ran out: stored so, and replayed so
            elif args:
                card = args[i]
                if card not in top:
                    raise RuleViolation("card_not_in_deck", card=card, deck="fortune")
            else:
                card = top[0] if top else None
            if card is not None:
                drawn.append(card)
            Rules.draw_card(self, s, a.player, "fortune", card)  # one after another, the wheel kept
        s.command = Command("draw", tuple(drawn)).text()  # stored naming the cards, as every draw

    def legal_draw(self, s):
        a = s.pending
        if a is None or a.kind != "draw" or not a.count:
            return super().legal_draw(s)
        order = s.decks["fortune"] or s.discards["fortune"]
        out = [Action("draw", (), a.player)]
        if len(order) >= a.count:
            cards = OneOf(tuple(sorted(order)), "card")
            out.append(Action("draw", (cards,) * a.count, distinct=True))
        return out

    def draw_card(self, s, p, deck, card_id=None):
        if deck == "fortune":
            # a FORTUNE card ends the long-term card in force before it
            s.extra["fortune"] = ()
        super().draw_card(s, p, deck, card_id)

    def apply_card(self, s, p, card):
        if card.long_term:
            s.extra["fortune"] = s.extra["fortune"] + (card.id,)
            s.notes.append(Note("fortune_in_force", {"card": card.id}))
        ctx: dict = {}
        if card.deck == "fortune":
            ctx[BLUE_PICKS] = self.blue_picks(s, card)
        for i, eff in enumerate(card.effects):
            if p not in s.alive:
                return
            ctx[EFFECT] = i
            if card.deck == "fortune":
                self.apply_fortune_effect(s, eff, card, ctx)
            else:
                self.apply_effect(s, p, eff, card)

    def fortune_costs(self, s, q, eff):
        """What one point of a FORTUNE card makes q pay (0: nothing)."""
        do = eff["do"]
        if do == "each_player_pays":
            return eff["amount"]
        if do == "each_pays_per_share":
            return eff["amount"] * s.held(q, "shares")
        if do == "each_pays_per_building":
            small, large = self.player_buildings(s, q)
            return small * eff["small"] + large * eff["large"]
        return 0

    def blue_picks(self, s, card):
        """Player -> the point of the card their BLUE policy covers: the dearest for them.

        ПРАВИЛА СТРАХОВАНИЯ: «если на карточке ФОРТУНА оба пункта неблагоприятны для игрока,
        синий страховой полис страхует только от одного», and the holder picks which:
        the point that costs them most, the pick every holder makes (the first on a tie).
        """
        picks = {}
        for q in s.alive:
            if s.held(q, "blue"):
                costs = [self.fortune_costs(s, q, eff) for eff in card.effects]
                if any(costs):
                    picks[q] = costs.index(max(costs))
        return picks

    def apply_fortune_effect(self, s, eff, card, ctx):
        do = eff["do"]
        if do in IN_FORCE:
            return  # read while the card is in force
        if do == "share_price":
            self.move_price(s, eff["points"])
            return
        for q in s.alive:
            if do == "each_player_pays":
                amount = eff["amount"]
            elif do == "each_pays_per_share":
                amount = eff["amount"] * s.held(q, "shares")
            elif do == "each_pays_per_building":
                small, large = self.player_buildings(s, q)
                amount = small * eff["small"] + large * eff["large"]
            elif do == "each_player_receives":
                self.transfer(s, BANK, q, eff["amount"])
                s.notes.append(Note("card_received", {"player": q, "amount": eff["amount"], "card": card.id}))
                continue
            elif do == "each_receives_per_share":
                amount = eff["amount"] * s.held(q, "shares")
                self.transfer(s, BANK, q, amount)
                if amount:
                    s.notes.append(Note("card_received", {"player": q, "amount": amount, "card": card.id}))
                continue
            else:
                raise EditionProblem(
                    "edition_not_collective", self.edition.source, f"decks.fortune.{card.id}", effect=do
                )
            self.fortune_payment(s, q, amount, card, ctx)

    def apply_effect(self, s, p, eff, card):
        do = eff["do"]
        if do == "tax_exemption":
            self.land_tax_exemption(s, p, None)
        elif do == "share_price":
            self.move_price(s, eff["points"])
        elif do == "draw_fortune":
            # the FORTUNE cards go on the wheel with the next `draw`, which the table may
            # give the physical cards it turned (every other draw can be named too)
            s.extra["fortune"] = ()
            s.pending = Pending("draw", player=p, stage="fortune", count=eff["count"])
            s.notes.append(Note("draw_card", {"player": p, "deck": "fortune"}))
        elif do in ("each_pays_per_share", "each_receives_per_share", "each_pays_per_building"):
            self.apply_fortune_effect(s, eff, card, {})
        else:
            super().apply_effect(s, p, eff, card)

    # ----- the AUCTION cell (ПРАВИЛА АУКЦИОНА) -------------------------------------------

    def land_auction(self, s, p, cell):
        s.pending = Pending("auction_roll", player=p)
        s.notes.append(Note("auction_roll_needed", {"player": p}))

    def cmd_auction_roll(self, s, args):
        """`auction_roll D D D`: side (5-6 cancels), direction, plot."""
        side, direction, pick = self.dice_args(args, 3, "auction_roll D D D")
        if s.pending is None or s.pending.kind != "auction_roll":
            raise RuleViolation("no_auction_roll")
        s.pending = None
        if side > 4:
            s.notes.append(Note("auction_cancelled", {"reason": "side", "die": side}))
            return
        clockwise, counter = self.sides[side - 1]
        plots = clockwise if direction % 2 == 0 else counter
        index = (pick - 1) * len(plots) // 6
        cell = self.edition.plots[plots[index]]
        s.notes.append(Note("auction_selected", {"plot": cell.id, "dice": [side, direction, pick]}))
        owner = s.owner.get(cell.id)
        if cell.id in s.mortgaged:
            s.notes.append(Note("auction_cancelled", {"reason": "mortgaged", "plot": cell.id}))
            return
        if s.level.get(cell.id, 0):
            s.notes.append(Note("auction_cancelled", {"reason": "built", "plot": cell.id}))
            return
        if owner is not None and (s.held(owner, "green") or s.held(owner, "blue")):
            s.notes.append(Note("auction_cancelled", {"reason": "insured", "plot": cell.id, "player": owner}))
            return
        if (
            owner is not None
            and self.opt["long_term_policies"] == "ask"
            and (s.held(owner, "orange") or s.held(owner, "red"))
        ):
            # the holder decides whether this auction is the insured event
            s.pending = Pending("claim", player=owner, plot=cell.id)
            s.notes.append(Note("policy_question", {"player": owner, "plot": cell.id}))
            return
        if owner is not None and self.used_up_against_auction(s, owner):
            s.notes.append(Note("auction_cancelled", {"reason": "insured", "plot": cell.id, "player": owner}))
            return
        self.open_auction(s, cell, owner or BANK)

    def used_up_against_auction(self, s, p):
        for colour in ("orange", "red"):
            if s.held(p, colour):
                self.give(s, p, colour, -1)
                s.notes.append(Note("policy_used", {"player": p, "policy": colour, "reason": "auction"}))
                return True
        return False

    def raisable(self, s, p):
        # and the shares, sold to the bank at the price (АКЦИИ: «в любой момент ... перед своим ходом»,
        # and by a debtor at any time: sell_shares_in_debt)
        total = super().raisable(s, p)
        if self.opt["sell_shares_in_debt"]:
            total += s.held(p, "shares") * self.price(s)
        return total

    def board_changes(self, before, after):
        # and the share price marker and the FORTUNE cards on the wheel
        notes = super().board_changes(before, after)
        if before.extra.get("price") != after.extra.get("price"):
            notes.append(Note("put_price", {"price": after.extra["price"]}))
        if before.extra.get("fortune") != after.extra.get("fortune"):
            notes.append(Note("put_fortune", {"cards": list(after.extra.get("fortune", ()))}))
        return notes

    # ----- legal actions of Elite's verbs (each mirrors its cmd_ method's checks) ---------

    def shares_left(self, s):
        return self.edition.supply.get("shares", 48) - self.in_use(s, "shares")

    @staticmethod
    def trade_used(visit):
        """Whether the EXCHANGE visit's trade of its stage (before or after the roll) is used."""
        return bool(visit[2] & (1 if visit[1] == "before" else 2))

    def legal_buy_shares(self, s):
        price = self.price(s)
        if price == 0:
            return []
        out = []
        for p in s.alive:
            visit = self.exchange_visit(s, p)
            if s.phase != "setup" and s.extra.get("window") == p:
                pass  # the purchase on passing START
            elif visit:
                if self.trade_used(visit):
                    continue
            elif s.phase != "setup":
                continue
            most = min(self.shares_left(s), s.cash(p) // price, MAX_AMOUNT)
            if most >= 1:
                out.append(Action("buy_shares", (p, Span(1, most, "shares")), p))
        return out

    def legal_sell_shares(self, s):
        out = []
        for p in s.alive:
            held = s.held(p, "shares")
            if not held:
                continue
            in_debt = any(d.debtor == p for d in s.debts)
            visit = self.exchange_visit(s, p)
            if s.turn == p and s.phase == "moved" and not visit and not (in_debt and self.opt["sell_shares_in_debt"]):
                continue
            if visit and not in_debt and self.trade_used(visit):
                continue
            out.append(Action("sell_shares", (p, Span(1, held, "shares")), p))
        return out

    def legal_commission(self, s):
        ex = s.extra.get("exchange")
        price = self.price(s)
        if not ex or price == 0:
            return []
        broker, _, _, buyers = ex
        most = self.shares_left(s)
        out = []
        for q in s.alive:
            cash = s.cash(q)
            n = min(most, cash // price)
            if q == broker or q in buyers or n < 1:
                continue
            # N shares at the price, plus a fee of 0 or more, within the buyer's cash
            out.append(
                Action(
                    "commission",
                    (q, Span(1, n, "shares"), Span(0, min(cash - price, MAX_AMOUNT), "fee")),
                    q,
                    budget=Budget((0, price, 1), cash),
                )
            )
        return out

    def legal_exchange(self, s):
        ex = s.extra.get("exchange")
        if ex and ex[0] == s.turn and ex[1] == "before":
            return [Action("exchange", dice(2), s.turn)]
        return []

    def legal_insure(self, s):
        out = []
        for colour in POLICIES:
            if self.in_use(s, colour) >= self.edition.supply.get(colour, 12):
                continue
            price = self.opt[f"policy_{colour}"]
            out.extend(Action("insure", (p, colour), p) for p in s.alive if s.cash(p) >= price)
        return out

    def claim_waiting(self, s, p):
        return s.pending is not None and s.pending.kind == "claim" and s.pending.player == p

    def legal_use_policy(self, s):
        if not s.debts and not (s.pending is not None and s.pending.kind == "claim"):
            return []  # a policy answers a claim or covers a debt: neither is open
        out = []
        for p in s.alive:
            claims = list(dict.fromkeys(d.claim for d in s.debts if d.debtor == p and d.claim))
            reds = [d for d in s.debts if d.debtor == p and not d.claim and self.red_covers(d, None)]
            for colour in ("orange", "red"):
                if not s.held(p, colour):
                    continue
                covers = reds if colour == "red" else []
                if self.claim_waiting(s, p) or claims or covers:
                    out.append(Action("use_policy", (p, colour), p))
                whats = list(claims)
                for d in covers:
                    whats += ["tax"] if d.reason == "circle_tax" else ["rent", d.creditor]
                out.extend(Action("use_policy", (p, colour, w), p) for w in dict.fromkeys(whats))
        return out

    def legal_skip_policy(self, s):
        if not s.debts and not (s.pending is not None and s.pending.kind == "claim"):
            return []  # nothing to skip a policy for
        out = []
        for p in s.alive:
            claims = list(dict.fromkeys(d.claim for d in s.debts if d.debtor == p and d.claim))
            if self.claim_waiting(s, p) or claims:
                out.append(Action("skip_policy", (p,), p))
            out.extend(Action("skip_policy", (p, c), p) for c in claims)
        return out

    def legal_auction_roll(self, s):
        a = s.pending
        if a is not None and a.kind == "auction_roll":
            return [Action("auction_roll", dice(3), a.player)]
        return []

    # ----- the end -----------------------------------------------------------------------

    def wealth(self, s, p):
        total = super().wealth(s, p)
        if self.opt["wealth_counts_shares"]:
            total += s.held(p, "shares") * self.price(s)
        return total


def first(row):
    """A table row's printed (first) value; 0 when the row is empty."""
    return row[0] if row else 0


def plot_ordinals(edition, central):
    """Plot id -> its place (1, 2, 3) in its industry counted from START; central plots have none."""
    seen: dict = {}
    out = {}
    for cell in edition.cells:
        if cell.is_plot and cell.industry != central:
            seen[cell.industry] = seen.get(cell.industry, 0) + 1
            out[cell.id] = seen[cell.industry]
    return out


def check_plot_selector(edition, eff, where):
    """A FORTUNE point on plots names exactly one of: an industry, or an ordinal."""
    keys = [k for k in ("industry", "plots") if k in eff]
    if len(keys) != 1:
        raise EditionProblem("edition_plot_selector", edition.source, where, effect=eff["do"])
    if "industry" in eff and eff["industry"] not in edition.industries:
        raise EditionProblem("edition_not_industry", edition.source, where, value=shown(eff["industry"]))
    if "plots" in eff and eff["plots"] not in ORDINALS:
        raise EditionProblem("edition_ordinal", edition.source, where, value=shown(eff["plots"]))


def side_layout(edition, central):
    """For each side 1-4: (plots clockwise of its centre, plots counter-clockwise).

    The AUCTION cell's second roll picks the industry on one side of the central
    plot; the board must therefore hold one central plot and one industry on
    each side of it on every side.
    """
    n = len(edition.cells)
    if n % 4:
        raise EditionProblem("edition_square", edition.source, "cells", value=n)
    per_side = n // 4
    sides = []
    for k in range(4):
        cells = edition.cells[k * per_side : (k + 1) * per_side]
        centre = [c for c in cells if c.industry == central]
        if len(centre) != 1:
            raise EditionProblem("edition_side_central", edition.source, "cells", side=k + 1, ind=central)
        mid = centre[0].index
        before = [c for c in cells if c.is_plot and c.industry != central and c.index < mid]
        after = [c for c in cells if c.is_plot and c.industry != central and c.index > mid]
        for group, where in ((before, "before"), (after, "after")):
            if len({c.industry for c in group}) != 1 or len(group) not in (2, 3):
                raise EditionProblem(f"edition_side_{where}", edition.source, "cells", side=k + 1)
        sides.append((tuple(c.id for c in after), tuple(c.id for c in before)))
    return tuple(sides)
