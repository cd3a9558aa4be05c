"""Elite's insurance (ПРАВИЛА СТРАХОВАНИЯ): the four policies, what each covers, claims."""

from dataclasses import replace
from typing import Any

from companion.engine.actions import Action
from companion.engine.board import Card
from companion.engine.elite.base import EliteBase
from companion.engine.state import BANK, Debt, Note, State
from companion.errors import BadCommand, RuleViolation

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


class EliteInsurance(EliteBase):
    # ----- insurance (ПРАВИЛА СТРАХОВАНИЯ) ----------------------------------------------

    def cmd_insure(self, s: State, args: tuple[str, ...]) -> None:
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

    def cmd_use_policy(self, s: State, args: tuple[str, ...]) -> None:
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
    def red_covers(debt: Debt, what: str | None) -> bool:
        if debt.reason not in ("rent_paid", "circle_tax"):
            return False
        if what is None:
            return True
        if what.lower() == "tax":
            return debt.reason == "circle_tax"
        if what.lower() == "rent":
            return debt.reason == "rent_paid"
        return debt.reason == "rent_paid" and debt.creditor.lower() == what.lower()

    def cmd_skip_policy(self, s: State, args: tuple[str, ...]) -> None:
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

    def covers(self, s: State, p: str, ctx: dict[Any, Any]) -> bool:
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

    def fortune_payment(self, s: State, p: str, amount: int, card: Card, ctx: dict[Any, Any]) -> None:
        """An adverse FORTUNE point for p: covered, held as a claim, or charged."""
        if not amount or self.covers(s, p, ctx):
            return
        if self.opt["long_term_policies"] == "ask" and (s.held(p, "orange") or s.held(p, "red")):
            s.debts = s.debts + (Debt(p, BANK, amount, "card_paid", claim=card.id),)
            s.notes.append(Note("policy_claim", {"player": p, "amount": amount, "card": card.id}))
            return
        self.charge(s, p, BANK, amount, "card_paid", card=card.id)

    def fortune_costs(self, s: State, q: str, eff: dict[str, Any]) -> int:
        """What one point of a FORTUNE card makes q pay (0: nothing)."""
        do = eff["do"]
        cost: int = 0
        if do == "each_player_pays":
            cost = eff["amount"]
        elif do == "each_pays_per_share":
            cost = eff["amount"] * s.held(q, "shares")
        elif do == "each_pays_per_building":
            small, large = self.player_buildings(s, q)
            cost = small * eff["small"] + large * eff["large"]
        return cost

    def blue_picks(self, s: State, card: Card) -> dict[str, int]:
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

    # ----- legal actions of the policy verbs (each mirrors its cmd_ method's checks) ------

    def legal_insure(self, s: State) -> list[Action]:
        out: list[Action] = []
        for colour in POLICIES:
            if self.in_use(s, colour) >= self.edition.supply.get(colour, 12):
                continue
            price = self.opt[f"policy_{colour}"]
            out.extend(Action("insure", (p, colour), p) for p in s.alive if s.cash(p) >= price)
        return out

    def claim_waiting(self, s: State, p: str) -> bool:
        return s.pending is not None and s.pending.kind == "claim" and s.pending.player == p

    def legal_use_policy(self, s: State) -> list[Action]:
        if not s.debts and not (s.pending is not None and s.pending.kind == "claim"):
            return []  # a policy answers a claim or covers a debt: neither is open
        out: list[Action] = []
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

    def legal_skip_policy(self, s: State) -> list[Action]:
        if not s.debts and not (s.pending is not None and s.pending.kind == "claim"):
            return []  # nothing to skip a policy for
        out = []
        for p in s.alive:
            claims = list(dict.fromkeys(d.claim for d in s.debts if d.debtor == p and d.claim))
            if self.claim_waiting(s, p) or claims:
                out.append(Action("skip_policy", (p,), p))
            out.extend(Action("skip_policy", (p, c), p) for c in claims)
        return out
