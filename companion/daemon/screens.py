"""What the OLED shows, as plain frames: the idle carousel of players, a receipt for every event, a
notice; each in the screen's language, wrapped and paged so nothing is ever cut.

Pure composition: a state or an event in, frames (companion/hw/display.Frame)
out. The words come from the catalogues through companion/table/view.py, the same
lines the terminal prints, so the screen never shows an id or a raw command.
"""

from companion.hw.display import Frame, fits, line_room, wrap
from companion.table.view import event_lines, extra_text, pending_words, state_json
from companion.words import messages
from companion.words.messages import label, party

IDLE_SECONDS = 1.5  # each page of the carousel stays this long: six players and two pages of the
# table in 12 s, eight and two in 15 s
SUMMARY_FROM = 4  # this many players or more: the carousel opens with one page of every balance (issue 22:
# six big-digit pages took 10.5 s to come round; the summary shows all six at once)
THOUSANDS = "\u202f"  # a thin no-break space: "13 750", never "13,750" (which reads as a decimal in Russian)


def money(amount: int) -> str:
    """A sum as digits in groups of three: 13 750."""
    sign = "-" if amount < 0 else ""
    return sign + f"{abs(amount):,}".replace(",", THOUSANDS)


def pages(title: str, texts: list[str], footer: str = "", big: str = "") -> list[Frame]:
    """Frames holding every text, each wrapped to the width and as many lines a page as the layout has
    room for (wrap keeps every line within the width, so nothing needs drawing to be measured)."""
    lines = [line for text in texts for line in wrap(text)]
    room = max(1, line_room(bool(title), bool(big), bool(footer)))
    return [
        Frame(title=title, big=big, lines=tuple(lines[i : i + room]), footer=footer)
        for i in range(0, max(len(lines), 1), room)
    ]


def auction_words(state, language: str) -> str:
    """An open auction's leading bid and bidder ("leading bid: Boris, 1 200"), or its opening price while
    nobody has bid; "" when no auction is open."""
    a = state.pending
    if a is None or a.kind not in ("auction", "house_auction"):
        return ""
    if a.bidder is not None:
        return messages.render("auction_leading", {"player": a.bidder, "amount": money(a.bid)}, language)
    return messages.render("auction_no_bid_yet", {"amount": money(a.opening)}, language)


def waiting_words(rules, state, language: str) -> str:
    """What the table waits for now, in words ("waiting for: Boris's roll"-like), or ""."""
    if state.phase == "over":
        return ""
    if state.pending is not None:
        who = f" — {state.pending.player}" if state.pending.player else ""
        bid = auction_words(state, language)  # the auction's lead, on the idle screen too
        return (
            f"{label('waiting', language)}: "
            f"{pending_words(state.pending.kind, language, rules.edition, state.pending.plot)}{who}"
            + (f"; {bid}" if bid else "")
        )
    return messages.render("turn", {"player": state.turn}, language, rules.edition)


def idle_frames(rules, state, language: str, head: str = "", footer: str = "") -> list[Frame]:
    """The idle carousel: with four players or more, first one page of every balance in small type; then
    each player's balance in big digits (the turn's player marked), then the
    table's boxes, the share price, the FORTUNE card in force, what the table waits for and the
    ledger's head words (head: "#41 rabbit easel cannon river"). footer: a state every page shows
    ("Reader offline")."""
    data = state_json(rules, state)
    on_turn = [p["name"] == state.turn and state.phase != "over" for p in data["players"]]
    frames = [player_frame(p["name"], p["cash"], turn, footer) for p, turn in zip(data["players"], on_turn)]
    if len(frames) >= SUMMARY_FROM:
        lines = [
            ("▶ " if turn else "") + f"{p['name']}: {money(p['cash'])}" for p, turn in zip(data["players"], on_turn)
        ]
        frames = pages("", lines, footer) + frames
    texts = [f"{party(k, language)}: {money(v)}" for k, v in data["accounts"].items() if k != "bank"]
    for key, value in sorted(state.extra.items()):
        if key in ("price", "fortune", "jackpot"):  # the share price, the FORTUNE card in force
            text = extra_text(rules, key, value, language)
            if text:
                texts.append(text)
    wait = waiting_words(rules, state, language)
    if wait:
        texts.append(wait)
    if head:
        texts.append(f"{label('ledger', language)}: {head}")
    return frames + (pages("", texts, footer) if texts else [])


def player_frame(name: str, cash: int, on_turn: bool, footer: str = "") -> Frame:
    """A name over a balance; a name too long for the title line goes whole under the digits."""
    title = ("▶ " if on_turn else "") + name
    frame = Frame(title=title, big=money(cash), footer=footer)
    if fits(frame):
        frame = Frame(big=money(cash), lines=tuple(wrap(title)), footer=footer)
    return frame


def event_words(rules, game, event, language: str, code: str = "undone_event") -> list[str]:
    """An event's lines; an undo names what it reverses by that event's own first line ("Undone: #3
    Anna pays Boris 550"), never by its stored command."""
    lines = event_lines(rules, event, language)
    if event.reverses is None or game is None or not event.notes or event.notes[0].code != "undone":
        return lines
    original = event_lines(rules, game.events[event.reverses - 1], language)
    what = original[0] if original else ""
    return [messages.render(code, {"seq": event.reverses, "what": what}, language), *lines[1:]]


def receipt_frames(rules, state, event, language: str, game=None) -> list[Frame]:
    """Every line of an event in words, paged, ending with the current player's balance."""
    texts = event_words(rules, game, event, language) or ["—"]
    who = state.turn if state.turn in state.players else ""
    if who and state.phase != "over":
        texts = [*texts, f"{who}: {money(state.balances.get(who, 0))}"]
    return pages(f"#{event.seq}", texts)


def notice_frames(text: str) -> list[Frame]:
    """A line the box says (the reader went offline, a tap was refused), wrapped and paged."""
    return pages("", [text])
