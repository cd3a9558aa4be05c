"""What a tap or a ROLL means now: the command it stands for, or why it stands for nothing.

The reader knows cards and dice, not the rules; the game knows the rules, not
cards. This is the one place that joins them, and it only ever picks a command
the rules list as legal now (Rules.legal), so a tap can never do something the
command line could not. Its answers are plain values; the daemon submits them.

- a CHANCE/FORTUNE card: `draw <card>` (naming the physical card is the table's);
- a plot card while its owner-to-be decides: `buy` by the player deciding, shown
  for a confirmation first (the plot and its price; OK books it);
- a plot card while the turn's player is to move (a table throwing its own
  dice): `land <plot>`, shown for a confirmation first;
- a player's card: that player's menu on the OLED (the console's business);
- ROLL: the one dice command legal now that needs only dice (`roll`, Elite's
  `exchange` and `auction_roll`), as its party, with the reader's dice; when
  the turn's player has moved and nothing is pending, ROLL first ends their
  turn (end_meaning): the next roll confirms what the last one settled.
"""

from dataclasses import dataclass, field

from companion.engine.actions import TABLE, Action
from companion.engine.command import Command

from .cards import Role

TAP_VERBS = ("buy", "draw", "land")  # all a card can stand for (the reader asks the rules about these alone)


@dataclass(frozen=True)
class Meaning:
    """A tap's or roll's command and actor, or (command None) the refusal's code and params."""

    actor: str = TABLE
    command: Command | None = None
    refusal: str = ""
    params: dict = field(default_factory=dict)
    menu_for: str = ""  # a player's card: open this player's menu
    confirm: bool = False  # shown for a confirmation before it is booked (a purchase, a landing told by a card)


def refused(code: str, **params) -> Meaning:
    return Meaning(refusal=code, params=params)


def dice_action(rules, state) -> Action | None:
    """The legal action the ROLL button serves now: a dice verb whose every argument is a die."""
    if state.phase == "over":
        return None
    for action in rules.legal(state, verbs=rules.DICE_VERBS):
        spec = rules.DICE_VERBS.get(action.verb)
        if spec is not None and spec[0] == 0 and len(action.args) == spec[1]:
            return action
    return None


def dice_needed(rules, state) -> int:
    """How many dice the reader's ROLL button gives now (0: nothing needs dice)."""
    action = dice_action(rules, state)
    return len(action.args) if action else 0


def roll_meaning(rules, state, dice: tuple[int, ...]) -> Meaning:
    action = dice_action(rules, state)
    if action is None:
        return refused("roll_not_now")
    if len(dice) != len(action.args):
        return refused("roll_wrong_count", count=len(dice), needed=len(action.args))
    command = Command(action.verb, tuple(str(d) for d in dice))
    if not action.matches(command):
        return refused("roll_not_now")
    return Meaning(action.party, command)


def held_choice(rules, state) -> str:
    """The turn's player when, held (in jail, at the inspection), they may pay or use a card before they
    roll for doubles; "" otherwise."""
    if state.phase == "over" or state.pending is not None:
        return ""
    if any(a.party == state.turn for a in rules.legal(state, verbs=("pay_fine", "use_card"))):
        return state.turn
    return ""


def jackpot_open(rules, state) -> str:
    """The turn's player when the JACKPOT is on offer to them (a bet not chosen yet); "" otherwise."""
    if state.phase == "over" or "jackpot" not in rules.DICE_VERBS:
        return ""
    return state.turn if any(a.verb == "jackpot" for a in rules.legal(state, verbs=("jackpot",))) else ""


def jackpot_meaning(rules, state, bet: int, dice: tuple[int, ...]) -> Meaning:
    """The JACKPOT thrown by ROLL: the bet chosen on the box, the reader's three dice."""
    if len(dice) != 3:
        return refused("roll_wrong_count", count=len(dice), needed=3)
    command = Command("jackpot", (str(bet), *(str(d) for d in dice)))
    for action in rules.legal(state, verbs=("jackpot",)):
        if action.matches(command):
            return Meaning(action.party, command)
    return refused("roll_not_now")


def end_meaning(rules, state) -> Meaning | None:
    """The turn's end, when ROLL may end it first: the player has moved and nothing is pending."""
    if state.phase == "over":
        return None
    for action in rules.legal(state, verbs=("end",)):
        if action.party == state.turn and not action.args:
            return Meaning(state.turn, Command("end"))
    return None


def tap_meaning(rules, state, role: Role) -> Meaning:
    edition = rules.edition
    if role.kind != "player" and role.edition != edition.id:
        return refused("card_other_edition")
    if state.phase == "over":
        return refused("tap_game_over")
    legal = rules.legal(state, verbs=TAP_VERBS)
    if role.kind == "player":
        seat = int(role.ref)
        if seat > len(state.players):
            return refused("no_such_seat", seat=seat, count=len(state.players))
        return Meaning(menu_for=state.players[seat - 1])
    if role.kind == "plot":
        pending = state.pending
        if pending is not None and getattr(pending, "plot", None) == role.ref:
            for action in legal:
                if action.verb == "buy" and not action.args:  # money moves: read first, OK books (issue 22)
                    return Meaning(action.party, Command("buy"), confirm=True)
        landing = Command("land", (role.ref,))
        if any(a.matches(landing) for a in legal):
            return Meaning(TABLE, landing, confirm=True)
        return refused("nothing_for_plot", plot=role.ref)
    command = Command("draw", (role.ref,))
    if any(a.matches(command) for a in legal):
        return Meaning(TABLE, command)
    return refused("nothing_for_card", card=role.ref)
