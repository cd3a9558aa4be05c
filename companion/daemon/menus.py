"""What the box's menus offer, from the engine's legal actions: each line in catalogue words, each
free value a choice among what the rules allow, each command previewed as the event it would book.

Pure functions of a rules object and a state (and, for previews and undo, the
game): the console (companion/daemon/console.py) turns them into screens and
presses into choices. Nothing here knows a button or a frame.

- A menu groups the legal actions by verb and party ("Anna: build"); a group of
  one action with no free value is a single line.
- A free value is chosen: a number (`Span`) stepped up and down, a word
  (`OneOf`) from a list in words, a trade's `Terms` item by item.
- Before anything is booked the screen shows the event's own lines, computed by
  the engine on the side (Game.propose), so "what will happen" is never a
  paraphrase. A draw from the deck is not previewed: that would show the next card.
- An undo names every later event that depends on it and is undone first, newest
  first (undo_plan), and what to put back on the board.
"""

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from companion.engine.actions import TABLE, Action, OneOf, Span, Terms
from companion.engine.command import Command
from companion.errors import RuleViolation
from companion.table.view import event_lines, offer_json
from companion.words import messages

from .screens import auction_words, event_words, money

# Verbs a player may use at any moment of the game (between turns, during an auction): a waiting
# table is not offered these on its own; a player's menu and the table's menu list them.
ANYTIME = frozenset(
    {
        "pay",
        "trade",
        "accept",
        "reject",
        "withdraw",
        "build",
        "sell_building",
        "mortgage",
        "redeem",
        "buy_shares",
        "sell_shares",
        "commission",
        "insure",
        "lease",
        "end_lease",
        "abandon",
        "sell",
        "end_game",
        "land",
    }
)
# Drawing from the deck or turning a stunt card over: the preview would tell the hidden card.
HIDDEN = frozenset({"draw", "reveal"})
# Verbs booked at one press or tap with no confirmation: they move no money (a roll's rent is booked with
# no press at all), or a preview would tell the hidden card. Every other action shows what it books first.
ONE_PRESS = frozenset({"roll", "end", "decline", "reject", "withdraw", "draw", "reveal", "skip_policy"})
# The verbs a player's own card brings first in their menu (what they most likely came to do).
FIRST = (
    "buy",
    "decline",
    "bid",
    "accept",
    "reject",
    "pay_fine",
    "use_card",
    "use_policy",
    "skip_policy",
    "bankrupt",
    "end",
)
MAX_UNDO_CHAIN = 64  # dependants undone before the chosen event, at most (the undo window is 50)


def words(code: str, language: str, **params) -> str:
    """One of the box's phrases (messages.MENU), its blanks filled."""
    return messages.render(code, params, language)


def verb_words(verb: str, language: str) -> str:
    text = messages.VERBS.get(language, messages.VERBS["en"]).get(verb, verb.replace("_", " "))
    return text[:1].upper() + text[1:]


def arg_words(rules, state, verb: str, word: str, language: str) -> str:
    """One argument word as the table reads it: a name, a plot, a card, a policy, an offer."""
    edition = rules.edition
    if word in state.players:
        return word
    if verb in ("accept", "reject", "withdraw") and word.isdigit():
        offer = next((o for o in rules.offers(state) if str(o.number) == word), None)
        return offer_words(rules, offer, language) if offer is not None else word
    if word == "double":
        return words("menu_double", language)
    if word in messages.POLICIES:
        return messages.kind_word(word, language)
    if word in getattr(edition, "industries", {}):
        return messages.industry_name(edition, word, language)
    if word in edition.cards:
        return messages.thing_name(edition, word, language)
    if edition.cell(word) is not None:
        return cell_words(rules, word, language)
    return word


def offer_words(rules, offer, language: str) -> str:
    """An open trade offer by its terms, so nobody accepts it blind: "#46: Anna gives Boris Arbat for 300"
    (a side handing over nothing said so: "for nothing")."""
    sides = offer_json(offer)
    edition = rules.edition
    gave, got = sides["give"], sides["get"]
    code = "menu_offer" if gave and got else "menu_offer_gift" if gave else "menu_offer_ask"
    return words(
        code,
        language,
        number=offer.number,
        player=offer.proposer,
        other=offer.other,
        gave=messages.listing(gave, language, edition),
        got=messages.listing(got, language, edition),
    )


def priced(rules, state, action: Action) -> int | None:
    """What buying the plot on offer or building on a plot costs (the rules set it: never asked), for the
    action's own line ("Buy the plot: Arbat for 1 200"); None for any other action."""
    try:
        if (
            action.verb == "buy"
            and not action.args
            and state.pending is not None
            and state.pending.kind == "offer"
            and state.pending.plot in rules.edition.plots
        ):
            return int(rules.edition.plots[state.pending.plot].price)
        if action.verb == "build" and len(action.args) == 1 and isinstance(action.args[0], str):
            return int(rules.build_price(state, rules.edition.plots[action.args[0]]))
    except (KeyError, AttributeError, TypeError, ValueError, RuleViolation):
        return None
    return None


def cell_words(rules, cell: str, language: str) -> str:
    """A cell by its name; one of several cells of that name (four CHANCE cells) also by the nearest
    cell before it whose name is its own, as a player finds it on the board: "CHANCE (after Arbat)";
    by its number on the board when even that is shared (two roads after one shop)."""
    return _cell_labels(rules, language)[cell]


@lru_cache(maxsize=16)
def _cell_labels(rules, language: str) -> dict[str, str]:
    """Every cell's words (cell_words), made once per edition and language: a landing list asks for all."""
    edition = rules.edition
    names = [messages.thing_name(edition, c.id, language) for c in rules.cells]
    counts = Counter(names)

    def after(i: int) -> str:
        if counts[names[i]] < 2:
            return names[i]
        for back in range(1, len(names)):
            before = names[(i - back) % len(names)]
            if counts[before] == 1:
                return words("menu_after", language, name=names[i], before=before)
        return names[i]

    shown = [after(i) for i in range(len(names))]
    repeated = Counter(shown)
    return {
        c.id: (words("menu_cell_number", language, name=names[i], number=i + 1) if repeated[shown[i]] > 1 else shown[i])
        for i, c in enumerate(rules.cells)
    }


def party_prefix(action: Action) -> str:
    return "" if action.party == TABLE else f"{action.party}: "


# verbs whose other player receives what the party gives: said "Boris → Anna: payment", not "Boris: Pay: Anna"
TO_PLAYER = ("pay", "trade")


def action_words(rules, state, action: Action, language: str, party: bool = True, verb: bool = True) -> str:
    """A menu line for one action: its verb's phrase and its fixed words ("Anna: Build: «Arbat»"). verb=False:
    the fixed words alone ("«Arbat»"), for a list whose title already says the verb, so a long plot name is
    not pushed off the OLED's line by words every line repeats."""
    # the party's own name is already in front ("Anna: Pay: Boris", never "Anna: Pay: Anna, Boris")
    fixed = [
        arg_words(rules, state, action.verb, w, language)
        for w in action.args
        if isinstance(w, str) and w != action.party
    ]
    if action.verb == "buy" and not action.args and state.pending is not None and getattr(state.pending, "plot", None):
        fixed = [arg_words(rules, state, action.verb, state.pending.plot, language)]  # which plot is bought
    text = verb_words(action.verb, language)
    others = [w for w in action.args if isinstance(w, str) and w in state.players and w != action.party]
    named = party and verb and action.party != TABLE and action.verb in TO_PLAYER and len(others) == 1
    if named:  # the party's name, an arrow, the other's: no case on either name, no second colon
        rest = [w for w in fixed if w != others[0]]
        text = words(
            "menu_to_player",
            language,
            player=action.party,
            other=others[0],
            deal=", ".join([words(f"menu_deal_{action.verb}", language), *rest]),
        )
    elif fixed and verb and party and action.party != TABLE:  # one colon, after the name (issue 23)
        text = words("menu_party_line", language, player=action.party, doing=text, objects=", ".join(fixed))
        named = True  # the name is in the line already
    elif fixed:
        text = ", ".join(fixed) if not verb else text + ": " + ", ".join(fixed)
    price = priced(rules, state, action)
    if price is not None:
        text = words("menu_priced", language, what=text, price=money(price))
    if free_slots(action):  # a value still to choose: "Turn over a stunt card…" beside the plain one
        text += "…"
    return (party_prefix(action) if party and not named else "") + text


@dataclass(frozen=True)
class Group:
    """The actions of one verb and party: one menu line, then (if several) a choice among them."""

    verb: str
    party: str
    actions: tuple[Action, ...]

    def text(self, rules, state, language: str, party: bool = True) -> str:
        if len(self.actions) == 1:
            return action_words(rules, state, self.actions[0], language, party)
        return (party_prefix(self.actions[0]) if party else "") + verb_words(self.verb, language) + "…"


def groups(actions: list[Action], first: tuple[str, ...] = FIRST) -> list[Group]:
    """The actions grouped by (verb, party) in the rules' order, the `first` verbs moved to the top."""
    keyed: dict[tuple[str, str], list[Action]] = {}
    for action in actions:
        keyed.setdefault((action.verb, action.party), []).append(action)
    out = [Group(verb, who, tuple(acts)) for (verb, who), acts in keyed.items()]
    rank = {verb: i for i, verb in enumerate(first)}
    return sorted(out, key=lambda g: rank.get(g.verb, len(rank)))


def waiting_actions(rules, state) -> list[Action]:
    """What the table is waiting for now (a decision, an auction, a debt), without what ROLL serves;
    empty when nothing but dice or the ordinary turn is expected."""
    if state.phase == "over" or (state.pending is None and not state.debts):
        return []
    out = []
    for action in rules.legal(state):
        if action.verb in ANYTIME or action.verb == "end":
            continue
        if action.verb in rules.DICE_VERBS and all(isinstance(s, Span) and s.what == "die" for s in action.args):
            continue  # the ROLL button's (or "enter the dice" in the table's menu)
        out.append(action)
    if state.debts:  # a debtor raises money with what they may always do
        debtors = {d.debtor for d in state.debts}
        out += [a for a in rules.legal(state) if a.party in debtors and a.verb in ANYTIME and a.verb != "end_game"]
    return out


def waiting_about(rules, state, language: str) -> str:
    """What the waiting choice is about, in words ("the decision to buy or decline: Chocolate factory");
    an auction with its leading bid, so the box and every phone follow it."""
    if state.pending is not None:
        about = messages.pending_words(
            state.pending.kind, language, rules.edition, getattr(state.pending, "plot", None)
        )
        bid = auction_words(state, language)
        return f"{about}; {bid}" if bid else about
    if state.debts:
        debtors = ", ".join(dict.fromkeys(d.debtor for d in state.debts))
        return words("waiting_debt", language, player=debtors)
    return ""


def player_actions(rules, state, player: str) -> list[Action]:
    """Everything `player` may do now, their own decisions first."""
    return [a for a in rules.legal(state, player) if a.verb != "end_game"]


def free_slots(action: Action) -> list[int]:
    """The positions of the values still to choose (numbers, words from a list, a trade's terms)."""
    return [i for i, slot in enumerate(action.args) if not isinstance(slot, str)]


def slot_title(action: Action, index: int, language: str) -> str:
    """What is being chosen, in words: "Amount", "Die 2", "Card"."""
    slot = action.args[index]
    what = getattr(slot, "what", "")
    if what == "die":
        number = sum(1 for s in action.args[: index + 1] if getattr(s, "what", "") == "die")
        return words("what_die", language, n=number)
    code = "what_" + (what or "item")
    text = words(code, language)
    return text if text != code else words("what_item", language)


def picker_title(action: Action, index: int, language: str) -> str:
    """A number picker's title: its own question where the catalogue has one ("How many shares to buy?",
    never "Buy shares: shares"), else the verb and what is chosen ("Pay: amount")."""
    code = f"ask_{action.verb}_{getattr(action.args[index], 'what', '')}"
    if code in messages.MENU.get(language, messages.MENU["en"]):
        return words(code, language)
    return f"{verb_words(action.verb, language)}: {slot_title(action, index, language)}"


def choices(rules, state, action: Action, index: int, language: str) -> list[tuple[str, str]]:
    """The words a OneOf slot may take, as (shown text, word), in the rules' order."""
    slot = action.args[index]
    assert isinstance(slot, OneOf)
    return [(arg_words(rules, state, action.verb, w, language), w) for w in slot.words]


def step_for(span: Span) -> int:
    """How much one press moves a number: 1 for dice and small counts, then so a range takes ~100 presses."""
    size = span.high - span.low
    for step in (1, 5, 10, 50, 100, 500, 1000, 5000, 10000):
        if size <= step * 100:
            return step
    return 10000


def start_at(span: Span, step: int) -> int:
    """Where a number picker starts with nothing better known: the first round number of its step within
    the bounds (50 for 1..2000 by 50, not 1, whose next steps would be 51, 101 ...), else the low bound."""
    first = -(-span.low // step) * step
    return first if first <= span.high else span.low


def trade_items(side) -> list[str]:
    """The plots and cards a trade's side may hand over."""
    return [*side.plots, *side.cards]


def trade_words(give: list[str], give_cash: int, get: list[str], get_cash: int) -> tuple[str, ...]:
    """A trade's `give ... get ...` words from the chosen items (a side's cash only when not 0)."""
    out: list[str] = []
    if give or give_cash:
        out += ["give", *give] + ([str(give_cash)] if give_cash else [])
    if get or get_cash:
        out += ["get", *get] + ([str(get_cash)] if get_cash else [])
    return tuple(out)


def terms_of(action: Action) -> Terms | None:
    slot = action.args[-1] if action.args else None
    return slot if isinstance(slot, Terms) else None


@dataclass(frozen=True)
class Preview:
    """What a command would book, or why it would be refused."""

    lines: tuple[str, ...]
    refused: str = ""


def preview(table, actor: str, command: Command, language: str) -> Preview:
    """The command's event as its lines, computed on the side; a refusal in words."""
    rules = table.rules
    if command.verb in HIDDEN and not command.args:
        return Preview((verb_words(command.verb, language),))
    try:
        proposal = table.game.propose(command, actor)
    except RuleViolation as exc:
        return Preview((), messages.render_error(exc, language, rules.edition))
    return Preview(tuple(event_lines(rules, proposal.event, language)))


def undoable(game) -> list[int]:
    """The events an undo may still reach, newest first (not the start, not an undo, not undone)."""
    out = []
    for event in reversed(game.events):
        seq = event.seq
        if seq == 1 or seq not in game.after:
            continue
        if event.reverses is None and seq not in game.reversed:
            out.append(seq)
    return out


@dataclass(frozen=True)
class UndoPlan:
    """The events to undo, newest first, ending with the one chosen; their undo events' lines."""

    target: int
    order: tuple[int, ...]
    lines: tuple[str, ...]
    refused: str = ""


def undo_plan(table, target: int, language: str) -> UndoPlan:
    """Undo `target` and, first, every later event that depends on it (each blocking event found by
    trying the undo on a fork of the game, as the engine itself decides)."""
    game = table.game.fork()
    order: list[int] = []
    lines: list[str] = []

    def undo(seq: int, depth: int) -> None:
        while True:
            try:
                proposal = game.propose_undo((str(seq),))
            except RuleViolation as exc:
                blocker = exc.params.get("by")
                if exc.code != "undo_blocked" or depth >= MAX_UNDO_CHAIN or not isinstance(blocker, int):
                    raise
                undo(blocker, depth + 1)
                continue
            game.accept(proposal)
            order.append(seq)
            lines.extend(event_words(table.rules, game, proposal.event, language, "undo_reverses"))
            return

    try:
        undo(target, 0)
    except RuleViolation as exc:
        return UndoPlan(target, (), (), messages.render_error(exc, language, table.rules.edition))
    return UndoPlan(target, tuple(order), tuple(lines))


def event_summary(table, seq: int, language: str) -> str:
    """An event in one line: its number and its first line of words."""
    event = table.game.events[seq - 1]
    lines = event_lines(table.rules, event, language)
    who = "" if event.actor == TABLE else f"{event.actor}: "
    return f"#{seq} " + (lines[0] if lines else who + verb_words(event.command.split()[0], language))
