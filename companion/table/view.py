"""Plain-data and text views of a game state, for JSON output and the terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.engine.board import Edition
from companion.engine.state import Event, Offer, State
from companion.words.messages import (
    buildings_words,
    cell_name,
    holding_words,
    joined,
    label,
    listing,
    party,
    pending_words,
    render,
    where_words,
)

if TYPE_CHECKING:
    from companion.engine.core import Rules


def _plain(value: Any) -> Any:
    if isinstance(value, (tuple, list, frozenset, set)):
        return [_plain(v) for v in (sorted(value) if isinstance(value, (set, frozenset)) else value)]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def state_json(rules: Rules, s: State) -> dict[str, Any]:
    """Everything a screen shows, as JSON-ready data."""
    ed = rules.edition
    players = []
    for p in s.players:
        players.append(
            {
                "name": p,
                "cash": s.cash(p),
                "alive": p in s.alive,
                "position": ed.cells[s.position[p]].id,
                "plots": s.plots_of(p),
                "buildings": {pid: s.level[pid] for pid in s.plots_of(p) if pid in s.level},
                "mortgaged": sorted(pid for pid in s.plots_of(p) if pid in s.mortgaged),
                "holdings": {item: n for (q, item), n in sorted(s.holdings.items()) if q == p},
                "detained": s.detained.get(p),
                "kept_cards": list(s.kept.get(p, ())),
                "flags": sorted(s.flags.get(p, ())),
            }
        )
    pending = None
    if s.pending is not None:
        pending = {k: v for k, v in vars_of(s.pending).items() if v not in (None, "", 0, ())}
    return {
        "edition": ed.id,
        "phase": s.phase,
        "turn": s.turn,
        "winner": s.winner,
        "players": players,
        "accounts": {a: v for a, v in sorted(s.balances.items()) if a not in s.players},
        "pending": _plain(pending),
        "debts": [
            {"debtor": d.debtor, "creditor": d.creditor, "amount": d.amount, "reason": d.reason} for d in s.debts
        ],
        "offers": [offer_json(o) for o in s.extra.get("offers", ())],
        "extra": _plain({k: v for k, v in sorted(s.extra.items()) if k not in OFFER_KEYS}),
        "last_dice": list(s.last_dice),
    }


def offer_json(o: Offer) -> dict[str, Any]:
    """An open trade offer: who offers whom what (`give`: the proposer's items, `get`: the other side's)."""
    sides: dict[str, list[int | str]] = {"give": [], "get": []}
    side = None
    for word in o.terms:
        if word in sides:
            side = word
        elif side is not None:
            sides[side].append(int(word) if word.isdigit() else word)
    return {"number": o.number, "proposer": o.proposer, "to": o.other, **sides}


# trade offers have their own entry in the views, not the edition's `extra` data
OFFER_KEYS = ("offers", "offer_count")


def vars_of(obj: Any) -> dict[str, Any]:
    return {f: getattr(obj, f) for f in obj.__dataclass_fields__}


# dice commands whose notes do not say the dice (the EXCHANGE, the AUCTION's three, the JACKPOT's):
# verb -> how many words before the dice. Their receipts say the dice first, as a roll's does.
DICE_SAID = {"exchange": 0, "auction_roll": 0, "jackpot": 1}


def event_lines(rules: Rules, event: Event, language: str = "en") -> list[str]:
    ed = rules.edition
    lines = [render(n.code, n.params, language, ed) for n in event.notes]
    words = event.command.split()
    if words and words[0] in DICE_SAID and not any(n.code == "rolled" for n in event.notes):
        dice = words[1 + DICE_SAID[words[0]] :]
        if dice and all(d.isdigit() for d in dice):
            thrown = [int(d) for d in dice]
            lines.insert(
                0,
                render("dice_thrown", {"dice": thrown}, language, ed)
                if event.actor == "table"
                else render("rolled", {"player": event.actor, "dice": thrown}, language, ed),
            )
    return lines


def extra_text(rules: Rules, key: str, value: Any, language: str = "en") -> str:
    """One entry of an edition's `extra` state in words ("" when there is nothing to show)."""
    ed = rules.edition
    lang = language
    if value in ((), [], None, ""):
        return ""
    if key == "price":
        return f"{label('price', lang)}: {value}"
    if key == "exchange":  # (player, stage, trades used, buyers)
        return f"{label('exchange', lang)}: {value[0]}"
    if key in ("window", "jackpot", "on_finish"):
        return f"{label(key, lang)}: {value}"
    if key == "claimed":
        return f"{label(key, lang)}: {', '.join(value)}"
    if key == "fortune":  # the cards on the wheel: one or more
        return f"{label('fortune' if len(value) > 1 else 'fortune_one', lang)}: {listing(value, lang, ed)}"
    if key in ("stunts", "leased"):  # card or plot ids
        return f"{label(key, lang)}: {listing(value, lang, ed)}"
    if key == "may":  # (player, plot id or "*")
        where = label("anywhere", lang) if value[1] == "*" else cell_name(ed, value[1], lang)
        return f"{label(key, lang)}: {value[0]} — {where}"
    if key == "queue":  # (kind, [player,] plot) still to settle
        items = [pending_words(q[0], lang, ed, q[-1]) + (f" ({q[1]})" if len(q) > 2 else "") for q in value]
        return f"{label(key, lang)}: {'; '.join(items)}"
    if key == "card_move":  # a card's move in progress: nothing to show
        return ""
    return f"{key.replace('_', ' ')}: {listing(value, lang, ed) if isinstance(value, (list, tuple)) else value}"


def board_index(ed: Edition, pid: str) -> int:
    """Where a plot the game holds lies on its board (counted from START)."""
    cell = ed.cell(pid)
    assert cell is not None, pid  # a plot in the state is one of the edition's
    return cell.index


def state_text(rules: Rules, s: State, language: str = "en") -> str:
    """A compact table for the terminal, in the language: names and words, never ids."""
    data = state_json(rules, s)
    ed = rules.edition
    lang = language
    lines = []
    for p in data["players"]:
        mark = ">" if p["name"] == s.turn and s.phase != "over" else " "
        out = "" if p["alive"] else "  " + label("out", lang)
        # plots in board order from START, each with its buildings in words
        owned = sorted(p["plots"], key=lambda pid: board_index(ed, pid))
        plots = ", ".join(
            cell_name(ed, pid, lang)
            + (f" ({buildings_words(s.level[pid], ed, lang)})" if s.level.get(pid) else "")
            + (" " + label("mortgaged", lang) if pid in s.mortgaged else "")
            for pid in owned
        )
        held = ", ".join(holding_words(k, v, lang) for k, v in p["holdings"].items() if v)
        where = f"{label('at', lang)} {where_words(ed, p['position'], lang)}"
        lines.append(f"{mark} {p['name']:<10} {p['cash']:>7}  {where}" + (f"; {held}" if held else "") + out)
        if plots:
            lines.append(f"    {plots}")
    # the bank's own balance means nothing at the table (it never runs out): the other boxes only
    for k, v in data["accounts"].items():
        if k != "bank":
            lines.append(f"  {party(k, lang)}: {v}")
    for k, v in sorted(s.extra.items()):
        text = extra_text(rules, k, v, lang) if k not in OFFER_KEYS else ""
        if text:
            lines.append(f"  {text}")
    for o in data["offers"]:
        lines.append(
            "  "
            + render(
                "offer_open",
                {"number": o["number"], "player": o["proposer"], "other": o["to"], "gave": o["give"], "got": o["get"]},
                lang,
                ed,
            )
        )
    if s.pending is not None:
        who = f" — {s.pending.player}" if s.pending.player else ""
        lines.append(f"  {label('waiting', lang)}: {pending_words(s.pending.kind, lang, ed, s.pending.plot)}{who}")
    for d in s.debts:
        lines.append(
            "  " + render("debt_first", {"player": d.debtor, "creditor": d.creditor, "amount": d.amount}, lang, ed)
        )
    if s.winner:
        lines.append(f"  {label('winner', lang)}: {joined(s.winner.split(','), lang)}")
    return "\n".join(lines)
