"""What each page of the phone shows: the table, the board, the ledger, a player, the summary, the
banker's undo pages; plain dicts already in words, in the language asked, read on the page's thread."""

import sys
import threading
from typing import Any

from companion.engine.actions import TABLE
from companion.errors import CompanionError
from companion.table.view import event_lines, extra_text
from companion.words import messages
from companion.words.head import head_words

from .. import menus
from ..owner import Owner
from .common import LEDGER_PAGE, MARK_LENGTH, Refused, say
from .reading import Reading, words_of
from .roles import TableRoles


class PhoneViews:
    """The pages' views. `roles` keeps each game's memo, where the share price's history is remembered."""

    def __init__(self, owner: Owner, reading: Reading, roles: TableRoles):
        self.owner = owner
        self.reading = reading
        self.roles = roles
        self._price_lock = threading.Lock()  # the share price's history, scanned by one page at a time

    def head(self, language: str) -> dict[str, Any]:
        """Whose turn, what the table waits for, the ledger's head (seq and words), the game's id."""
        return self.reading.current_head(language)

    def banner(self, language: str, role: str) -> dict[str, Any]:
        """What a page says above everything, read without the writer thread (two attributes of the table):
        "readonly", why nothing can be booked (every role), and "warnings", the table's warnings (the
        banker's role only), each once, in the page's language."""
        table = self.owner.table
        if table is None:
            return {"readonly": "", "warnings": []}
        reason = table.readonly_reason
        edition = table.rules.edition
        readonly = messages.render("table_stopped_booking", {"error": reason}, language, edition) if reason else ""
        warnings = [messages.render(w.code, w.params, language, edition) for w in list(table.warnings)]
        return {"readonly": readonly, "warnings": list(dict.fromkeys(warnings)) if role == "banker" else []}

    def head_at(self, seq: int, language: str) -> dict[str, Any]:
        """The ledger's words at event `seq` (a phone checks the head it remembers is still there)."""

        def look(table: Any) -> dict[str, Any]:
            if table is None or not 1 <= seq <= table.head_seq:
                return {"seq": seq, "words": "", "mark": "", "present": False}
            digest = table.hash_at(seq)
            return {"seq": seq, "words": head_words(digest, language), "mark": digest[:MARK_LENGTH], "present": True}

        return self.reading.read(look)

    def table_view(self, language: str) -> dict[str, Any]:
        """Every balance and net worth, the share price and its history, the jackpot and charity, the
        FORTUNE card in force, the policies and until when, the open offers and debts."""

        def look(table: Any) -> dict[str, Any]:
            out: dict[str, Any] = {
                "head": self.reading.head(table, language),
                "players": [],
                "accounts": [],
                "extra": [],
                "offers": [],
                "debts": [],
                "price": None,
                "prices": [],
                "policies": [],
            }
            if table is None:
                return out
            rules, s, ed = table.rules, table.state, table.rules.edition
            for seat, p in enumerate(s.players, 1):
                out["players"].append(
                    {
                        "seat": seat,
                        "name": p,
                        "cash": s.cash(p),
                        "worth": rules.wealth(s, p),
                        "alive": p in s.alive,
                        "turn": p == s.turn and s.phase != "over",
                        "holdings": [
                            messages.holding_words(k, v, language)
                            for (q, k), v in sorted(s.holdings.items())
                            if q == p and v and k not in messages.POLICIES
                        ],
                        "where": messages.where_words(ed, ed.cells[s.position[p]].id, language),
                    }
                )
            for account, value in sorted(s.balances.items()):
                if account not in s.players and account != "bank":
                    out["accounts"].append(
                        {"name": messages.party(account, language), "amount": value, "account": account}
                    )
            for key, value in sorted(s.extra.items()):
                if key in ("offers", "offer_count", "price"):
                    continue
                text = extra_text(rules, key, value, language)
                if text:
                    out["extra"].append(text)
            if "price" in s.extra:
                out["price"] = s.extra["price"]
                out["prices"] = self._price_history(table)
            short = getattr(_rules_module(rules), "SHORT_TERM", ())
            for (p, item), n in sorted(s.holdings.items()):
                if item in messages.POLICIES and n:
                    until = "until_start" if item in short else "until_used"
                    out["policies"].append(
                        {"player": p, "words": messages.holding_words(item, n, language), "until": until}
                    )
            for o in rules.offers(s):
                out["offers"].append(menus.arg_words(rules, s, "accept", str(o.number), language))
            for d in s.debts:
                out["debts"].append(
                    messages.render(
                        "debt_first", {"player": d.debtor, "creditor": d.creditor, "amount": d.amount}, language, ed
                    )
                )
            return out

        return self.reading.read(look)

    def _price_history(self, table: Any) -> list[tuple[int, int]]:
        """(event, price) from the start: each share_price note; scanned once, then only new events."""
        memo = self.roles.memo(self.reading.table_game_id(table))
        with self._price_lock:
            if memo.scanned > table.head_seq:  # a page holding an older snapshot: what it saw then
                return [(seq, price) for seq, price in memo.prices if seq <= table.head_seq]
            if not memo.prices:
                start = table.rules.opt.get("share_start_price")
                memo.prices = [(1, int(start))] if isinstance(start, int) else []
                memo.scanned = 1
            if memo.scanned < table.head_seq:
                for event in table.game.events[memo.scanned :]:
                    for note in event.notes:
                        if note.code == "share_price" and isinstance(note.params.get("new"), int):
                            memo.prices.append((event.seq, note.params["new"]))
                memo.scanned = table.head_seq
            return list(memo.prices)

    def player_view(self, seat: int, language: str) -> dict[str, Any]:
        """One player: cash, worth, shares, plots with buildings and mortgages, policies, their history."""

        def look(table: Any) -> dict[str, Any]:
            if table is None or not 1 <= seat <= len(table.state.players):
                raise Refused(say("phone_no_seat", language, seat=seat), 404)
            rules, s, ed = table.rules, table.state, table.rules.edition
            p = s.players[seat - 1]
            plots = [
                self._plot(rules, s, pid, language) for pid in sorted(s.plots_of(p), key=lambda i: ed.cell(i).index)
            ]
            history = []
            for event in table.newest_first():
                if (
                    event.actor == p
                    or any(post.account == p for post in event.postings)
                    or any(note.params.get("player") == p for note in event.notes)
                ):
                    amount = sum(post.amount for post in event.postings if post.account == p)
                    history.append({"seq": event.seq, "lines": words_of(table, event, language), "amount": amount})
                    if len(history) >= LEDGER_PAGE:
                        break
            return {
                "head": self.reading.head(table, language),
                "seat": seat,
                "name": p,
                "cash": s.cash(p),
                "worth": rules.wealth(s, p),
                "alive": p in s.alive,
                "where": messages.where_words(ed, ed.cells[s.position[p]].id, language),
                "holdings": [
                    messages.holding_words(k, v, language) for (q, k), v in sorted(s.holdings.items()) if q == p and v
                ],
                "cards": [messages.card_text(ed, c, language) for c in s.kept.get(p, ())],
                "plots": plots,
                "history": history,
            }

        return self.reading.read(look)

    def _plot(self, rules: Any, s: Any, pid: str, language: str) -> dict[str, Any]:
        ed = rules.edition
        cell = ed.cell(pid)
        owner = s.owner.get(pid)
        level = s.level.get(pid, 0)
        rent = None
        if owner is not None and pid not in s.mortgaged:
            try:
                rent = rules.rent(s, cell)
            except (CompanionError, KeyError, IndexError, TypeError):  # a cell whose rent the dice decide, say
                rent = None
        return {
            "id": pid,
            "name": messages.cell_name(ed, pid, language),
            "owner": owner or "",
            "price": getattr(cell, "price", None),
            "rent": rent,
            "mortgaged": pid in s.mortgaged,
            "buildings": messages.buildings_words(level, ed, language) if level else "",
            "industry": messages.industry_name(ed, cell.industry, language) if getattr(cell, "industry", None) else "",
        }

    def board_view(self, language: str) -> dict[str, Any]:
        """Every plot in board order: owner, buildings, current rent, mortgaged or not; and the same plots
        by their industry (a colour group on a Monopoly board), named as the edition names it."""

        def look(table: Any) -> dict[str, Any]:
            if table is None:
                return {"head": self.reading.head(table, language), "plots": []}
            rules, s, ed = table.rules, table.state, table.rules.edition
            plots = [self._plot(rules, s, c.id, language) for c in ed.cells if c.id in ed.plots]
            return {"head": self.reading.head(table, language), "plots": plots, "groups": board_groups(ed, plots)}

        return self.reading.read(look)

    def ledger_view(self, language: str, before: int | None = None) -> dict[str, Any]:
        """Every event, newest first, a page at a time; an undo against what it reverses and vice versa."""

        def look(table: Any) -> dict[str, Any]:
            if table is None:
                return {"head": self.reading.head(table, language), "events": [], "older": None}
            game = table.game
            top = table.head_seq if before is None else max(0, min(before - 1, table.head_seq))
            low = max(0, top - LEDGER_PAGE)
            reversed_by = {}
            for event in game.events[low:]:
                if event.reverses is not None:
                    reversed_by[event.reverses] = event.seq
            out = [
                self.event(table, event, language, reversed_by.get(event.seq))
                for event in reversed(game.events[low:top])
            ]
            return {"head": self.reading.head(table, language), "events": out, "older": low + 1 if low > 0 else None}

        return self.reading.read(look)

    def event(self, table: Any, event: Any, language: str, reversed_by: int | None = None) -> dict[str, Any]:
        actor = "" if event.actor == TABLE else event.actor
        return {
            "seq": event.seq,
            "actor": actor,
            "lines": words_of(table, event, language),
            "postings": [
                {
                    "account": messages.party(p.account, language)
                    if p.account not in table.state.players
                    else p.account,
                    "amount": p.amount,
                }
                for p in event.postings
            ],
            "reverses": event.reverses,
            "reversed_by": reversed_by,
            "command": event.command,
        }

    def summary(self, language: str) -> dict[str, Any]:
        """The end-of-game summary: the winner, everyone's wealth and cash, the ledger's head."""
        view = self.table_view(language)

        def look(table: Any) -> dict[str, Any]:
            if table is None:
                return {}
            first = table.game.events[0]
            return {"events": table.head_seq, "start": event_lines(table.rules, first, language)}

        view.update(self.reading.read(look))
        view["ranking"] = sorted(view["players"], key=lambda p: (-p["worth"], p["seat"]))
        return view

    def undo_list(self, language: str) -> dict[str, Any]:
        """The events an undo may still reach, newest first, each in one line."""

        def look(table: Any) -> dict[str, Any]:
            if table is None:
                return {"head": self.reading.head(table, language), "events": []}
            seqs = menus.undoable(table.game)[:50]
            return {
                "head": self.reading.head(table, language),
                "events": [{"seq": seq, "text": menus.event_summary(table, seq, language)} for seq in seqs],
            }

        return self.reading.on_writer(look)

    def undo_preview(self, seq: int, language: str) -> dict[str, Any]:
        """What undoing `seq` takes: the events undone first, what each undo books, or why not."""

        def look(table: Any) -> dict[str, Any]:
            if table is None or not 1 <= seq <= table.head_seq:
                raise Refused(say("phone_no_event", language, seq=seq), 404)
            plan = menus.undo_plan(table, seq, language)
            return {
                "seq": seq,
                "order": list(plan.order),
                "lines": list(plan.lines),
                "refused": plan.refused,
                "text": menus.event_summary(table, seq, language),
            }

        return self.reading.on_writer(look)


def board_groups(edition: Any, plots: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The plots (board_view's, in board order) grouped by industry, the groups in the order their first
    plot lies on the board: Elite's four central plots under one heading, Monopoly's four railroads under
    theirs. A plot of no industry goes in a group of its own with no name."""
    groups: dict[str, dict[str, Any]] = {}
    for plot in plots:
        ref = getattr(edition.cell(plot["id"]), "industry", None) or ""
        group = groups.setdefault(ref, {"id": ref, "name": plot["industry"], "plots": []})
        group["plots"].append(plot)
    return list(groups.values())


def _rules_module(rules: Any) -> Any:
    return sys.modules.get(type(rules).__module__)
