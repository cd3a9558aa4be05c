"""What the Millionaire family (Elite, Classic, Deluxe) shares: the JACKPOT and TAX INSPECTION.

Every Millionaire rulebook has the same JACKPOT cell (a bet into the cash box,
one die per column of the slot machine, wins paid by the BANK), the same
200 put into the JACKPOT cash box at the start, the same TAX INSPECTION that
holds a token landing on it (pay 50 or a double within three turns) and the
same "redeem a mortgaged plot only before your own turn". Edition modules
subclass `MillionaireRules` and add their own cells on top.
"""

from companion.engine.actions import Action, Span, dice
from companion.engine.board import MONEY, MONEY_MAX, Cell, Edition, check_number, keyname, shown
from companion.engine.core import Rules
from companion.engine.state import BANK, JACKPOT, Note, State
from companion.errors import EditionProblem, RuleViolation


class MillionaireRules(Rules):
    OPTIONS = {
        **Rules.OPTIONS,
        "start_jackpot": 200,
        "inspection_landing_detains": True,
        "jackpot_min_bet": 10,
        "jackpot_max_bet": 500,
    }
    OPTION_RANGES = {
        **Rules.OPTION_RANGES,
        "start_jackpot": MONEY,
        "jackpot_min_bet": (1, MONEY_MAX),  # and at most jackpot_max_bet (check_edition)
        "jackpot_max_bet": (1, MONEY_MAX),
    }
    READS_SLOT = True
    CELL_KINDS = Rules.CELL_KINDS | {"jackpot"}
    SYSTEM_ACCOUNTS: tuple[str, ...] = (BANK, JACKPOT)
    COMMANDS = {**Rules.COMMANDS, "jackpot": "cmd_jackpot"}
    ARITY = {**Rules.ARITY, "jackpot": (1, 4, "jackpot BET D D D")}
    DICE_VERBS = {**Rules.DICE_VERBS, "jackpot": (1, 3)}
    WHO = {**Rules.WHO, "jackpot": "turn"}

    def __init__(self, edition: Edition) -> None:
        super().__init__(edition)
        self.LANDINGS.update({"jackpot": self.land_jackpot, "detention": self.land_inspection})

    @classmethod
    def check_edition(cls, edition: Edition) -> None:
        super().check_edition(edition)
        check_slot(edition)
        low, high = edition.options["jackpot_min_bet"], edition.options["jackpot_max_bet"]
        if low > high:
            raise EditionProblem(
                "edition_jackpot_bets", edition.source, "options.jackpot_min_bet", high=high, value=low
            )

    # ----- setup and turns ------------------------------------------------------------

    def setup(self, s: State) -> None:
        # ПОДГОТОВКА К ИГРЕ: the banker puts 200 into the JACKPOT cash box
        self.transfer(s, BANK, JACKPOT, self.opt["start_jackpot"])

    def turn_started(self, s: State, p: str) -> None:
        s.extra.pop("jackpot", None)

    def move_started(self, s: State, p: str) -> None:
        # a new move ends the chance to play the JACKPOT
        s.extra.pop("jackpot", None)

    # ----- TAX INSPECTION and redemption ---------------------------------------------

    def land_inspection(self, s: State, p: str, cell: Cell) -> None:
        # НАЛОГОВАЯ ИНСПЕКЦИЯ: a token landing there is held (pay 50 or a double in three turns)
        if self.opt["inspection_landing_detains"] and p in s.alive:
            s.detained[p] = 0
            s.again = False
            s.notes.append(Note("detained", {"player": p, "cell": cell.id}))

    def check_redeem_time(self, s: State, p: str) -> None:
        # ПРАВИЛА ЗАЛОГА: redeem only before one's own turn
        if s.turn == p and s.phase == "moved":
            raise RuleViolation("before_own_turn_only", player=p, action="redeem")

    # ----- the JACKPOT ----------------------------------------------------------------

    def land_jackpot(self, s: State, p: str, cell: Cell) -> None:
        s.extra["jackpot"] = p
        s.notes.append(Note("jackpot_offered", {"player": p}))

    def cmd_jackpot(self, s: State, args: tuple[str, ...]) -> None:
        """`jackpot BET D D D`: bet into the cash box, one die per column."""
        self.need(args, 4, "jackpot BET D D D")
        bet = self.int_arg(args[0], "bet", self.opt["jackpot_min_bet"], self.opt["jackpot_max_bet"])
        dice = self.dice_args(args[1:], 3, "jackpot BET D D D")
        if s.extra.get("jackpot") != s.turn:
            raise RuleViolation("not_on_jackpot", player=s.turn)
        p = s.turn
        del s.extra["jackpot"]
        self.spend(s, p, JACKPOT, bet, "jackpot")
        symbols = [reel[d - 1] for reel, d in zip(self.edition.slot["reels"], dice)]
        s.notes.append(Note("jackpot_played", {"player": p, "bet": bet, "symbols": symbols}))
        for win in self.edition.slot.get("wins", []):
            if all(c in ("*", sym) for c, sym in zip(win["combo"], symbols)):
                if "jackpot" in win:
                    amount = s.cash(JACKPOT)  # the whole cash box, the bet in it
                    self.transfer(s, JACKPOT, p, amount)
                    s.notes.append(Note("jackpot_won", {"player": p, "amount": amount, "symbols": symbols}))
                    return
                # ДЖЕКПОТ: the win comes from the BANK; «Если игрок проиграл, ставка остаётся в
                # кассе»: only a lost bet stays in the box, so a winner takes theirs back
                amount = win["amount"] if "amount" in win else bet * win["multiplier"]
                self.transfer(s, JACKPOT, p, bet)
                self.transfer(s, BANK, p, amount)
                s.notes.append(Note("jackpot_won", {"player": p, "amount": amount, "symbols": symbols}))
                s.notes.append(Note("jackpot_bet_back", {"player": p, "bet": bet}))
                return
        s.notes.append(Note("jackpot_lost", {"player": p, "bet": bet}))

    def legal_jackpot(self, s: State) -> list[Action]:
        p = s.turn
        high = min(self.opt["jackpot_max_bet"], s.cash(p))
        if s.extra.get("jackpot") != p or high < self.opt["jackpot_min_bet"]:
            return []
        return [Action("jackpot", (Span(self.opt["jackpot_min_bet"], high, "bet"), *dice(3)), p)]


def check_slot(edition: Edition) -> None:
    """The slot machine table: three columns of six symbols and the winning lines.

    A win pays `multiplier` x the bet (1..1000), a fixed `amount` (money) or, with
    `jackpot = true`, the whole JACKPOT cash box.
    """
    src, slot = edition.source, edition.slot
    for key in slot:
        if key not in ("reels", "wins"):
            raise EditionProblem("edition_unknown_key_of", src, f"slot.{keyname(key)}", known="reels, wins")
    reels = slot.get("reels")
    if not (
        isinstance(reels, list)
        and len(reels) == 3
        and all(isinstance(r, list) and len(r) == 6 and all(isinstance(x, str) and x for x in r) for r in reels)
    ):
        raise EditionProblem("edition_reels", src, "slot.reels")
    wins = slot.get("wins", [])
    if not isinstance(wins, list):
        raise EditionProblem("edition_wins", src, "slot.wins")
    for i, win in enumerate(wins):
        path = f"slot.wins[{i}]"
        if not isinstance(win, dict):
            raise EditionProblem("edition_win_table", src, path)
        for key in win:
            if key not in ("combo", "multiplier", "amount", "jackpot"):
                raise EditionProblem(
                    "edition_unknown_key_of", src, f"{path}.{keyname(key)}", known="combo, multiplier, amount, jackpot"
                )
        combo = win.get("combo")
        if not (isinstance(combo, list) and len(combo) == 3 and all(isinstance(x, str) and x for x in combo)):
            raise EditionProblem("edition_combo", src, f"{path}.combo")
        kinds = [k for k in ("multiplier", "amount", "jackpot") if k in win]
        if len(kinds) != 1:
            raise EditionProblem("edition_win_kind", src, path)
        if "multiplier" in win:
            check_number(win["multiplier"], (1, 1000), src, f"{path}.multiplier")
        if "amount" in win:
            check_number(win["amount"], MONEY, src, f"{path}.amount")
        if "jackpot" in win and win["jackpot"] is not True:
            raise EditionProblem("edition_win_jackpot", src, f"{path}.jackpot", value=shown(win["jackpot"]))
