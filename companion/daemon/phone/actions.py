"""What a phone may do: the actions open to its player (or to the banker, as the table), each booked
through Owner.submit with a request id made from the phone's action id, so a retried tap is answered
from the ledger and pays once. The same commands and refusals as the box's buttons and the reader: the
engine decides, this only translates. Refusals are Refused (HTTP 400, or 409 when the rules said no)."""

import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from companion.engine.actions import TABLE, Action, OneOf, Span, Terms
from companion.engine.command import Command
from companion.errors import CompanionError, OutcomeUnknown, RuleViolation
from companion.words import messages

from .. import menus
from ..owner import Owner, WriterBusy
from ..taps import jackpot_open
from .common import CACHE_LIMIT, Refused, say
from .reading import Reading, words_of
from .views import PhoneViews

log = logging.getLogger("companion.phone")

MAX_WORD = 48  # characters in one word of a command from a phone
MAX_WORDS = 24
_WORD = re.compile(r"[^\s]{1,%d}" % MAX_WORD)
_VERB = re.compile(r"[a-z_]{1,24}")
BET_ONLY = ("jackpot",)  # verbs a phone sends with their first value alone: the reader's ROLL throws the dice


class PhoneActions:
    """The actions a phone is offered and books. The daemon is handed in for the JACKPOT's bet, which the
    box's menu takes (`jackpot_ready`); the views for the undo plan."""

    def __init__(self, daemon: Any, owner: Owner, reading: Reading, views: PhoneViews):
        self.daemon = daemon
        self.owner = owner
        self.reading = reading
        self.views = views
        self._lock = threading.Lock()  # the remembered results (never held while calling the owner)
        self._results: OrderedDict[tuple[str | None, str, str], tuple[str, dict[str, Any]]] = OrderedDict()

    def actions(self, actor: str, language: str) -> list[dict[str, Any]]:
        """What `actor` (a player, or TABLE for the banker) may do now, grouped as the box's menus group
        it, every line a catalogue phrase, every free value a slot the page turns into a field."""

        def look(table: Any) -> list[dict[str, Any]]:
            if table is None:
                return []
            rules, s = table.rules, table.state
            acts = rules.legal(s) if actor == TABLE else menus.player_actions(rules, s, actor)
            out = []
            for group in menus.groups(acts):
                out.append(
                    {
                        "title": group.text(rules, s, language, party=actor == TABLE),
                        "verb": group.verb,
                        "party": group.party,
                        "actions": [self._action(rules, s, a, language, actor) for a in group.actions],
                    }
                )
            return out

        return self.reading.read(look)

    def _action(self, rules: Any, s: Any, action: Action, language: str, actor: str) -> dict[str, Any]:
        slots: list[dict[str, Any]] = []
        hint = ""
        for i, slot in enumerate(action.args):
            if action.verb in BET_ONLY and i > 0:
                # the JACKPOT's dice are the reader's ROLL's (issue 22): the phone places the bet alone
                hint = say("phone_jackpot_hint", language)
                break
            if isinstance(slot, str):
                slots.append({"kind": "fixed", "word": slot})
            elif isinstance(slot, Span):
                slots.append(
                    {
                        "kind": "number",
                        "low": slot.low,
                        "high": slot.high,
                        "title": menus.slot_title(action, i, language),
                        "step": 1,
                    }
                )
            elif isinstance(slot, OneOf):
                slots.append(
                    {
                        "kind": "choice",
                        "title": menus.slot_title(action, i, language),
                        "options": [{"text": t, "word": w} for t, w in menus.choices(rules, s, action, i, language)],
                    }
                )
            elif isinstance(slot, Terms):
                ed = rules.edition
                slots.append(
                    {
                        "kind": "trade",
                        "give": [
                            {"text": messages.thing_name(ed, w, language), "word": w}
                            for w in menus.trade_items(slot.give)
                        ],
                        "get": [
                            {"text": messages.thing_name(ed, w, language), "word": w}
                            for w in menus.trade_items(slot.get)
                        ],
                        "give_cash": [slot.give.cash.low, slot.give.cash.high] if slot.give.cash else None,
                        "get_cash": [slot.get.cash.low, slot.get.cash.high] if slot.get.cash else None,
                    }
                )
        return {
            "text": menus.action_words(rules, s, action, language, party=actor == TABLE),
            "verb": action.verb,
            "slots": slots,
            "hint": hint,
        }

    def remembered(
        self,
        who: str,
        action_id: str,
        fingerprint: str,
        language: str,
        work: Callable[[], dict[str, Any]],
        per_game: bool = True,
    ) -> dict[str, Any]:
        """Do `work` once per (game, who, action id): a replay gets the first result; another request under
        the same id is refused. Per game: an id from an earlier game (a player of the same name) is not
        answered with that game's result, nothing booked; starting and archiving change the game, so
        they are remembered across games (per_game=False) to be answered as the first time."""
        key = (self.reading.game_id() if per_game else "", who, action_id)
        with self._lock:
            found = self._results.get(key)
        if found is not None:
            if found[0] != fingerprint:
                raise Refused(say("phone_action_reused", language))
            return {**found[1], "replayed": True}
        result = work()
        with self._lock:
            self._results[key] = (fingerprint, result)
            while len(self._results) > CACHE_LIMIT:
                self._results.popitem(last=False)
        return result

    def act(self, actor: str, fields: dict[str, Any], action_id: str, language: str) -> dict[str, Any]:
        """Book one command for `actor` from the page's fields (verb, args; a trade's give/get and cash).
        The same id again pays once and answers as the first time. The page's forms send step=preview:
        a money action is then answered with what it would book ("preview"), nothing booked, and booked
        by the next tap, which sends back the previewed command as `confirm` (changed fields: a new preview)."""
        command = self.command_from(fields, language)
        if command.verb in BET_ONLY:
            return self.remembered(
                actor, action_id, command.text(), language, lambda: self.jackpot_bet(actor, command, language)
            )
        if (
            fields.get("step") == "preview"
            and command.verb not in menus.ONE_PRESS
            and fields.get("confirm") != command.text()
        ):
            return self.preview(actor, command, language)
        request_id = f"phone:{actor}:{action_id}"[:100]

        def work() -> dict[str, Any]:
            return self.submit(actor, command, request_id, language)

        return self.remembered(actor, action_id, command.text(), language, work)

    def jackpot_bet(self, actor: str, command: Command, language: str) -> dict[str, Any]:
        """The JACKPOT's bet from a phone (`jackpot BET`), handed to the box as its menu hands it: the reader's
        ROLL then throws the three dice and books the play. Nothing is booked here and nothing of the outcome
        is shown (a preview would let a player back out and pick other dice); dice typed on a phone are
        refused, as the rulebook has the player throw them."""
        if len(command.args) != 1:
            raise Refused(say("phone_jackpot_dice", language))

        def work(table: Any) -> dict[str, Any]:
            if table is None:
                raise Refused(say("menu_nothing", language), 409)
            player = jackpot_open(table.rules, table.state) or table.state.turn
            if actor not in (TABLE, player):  # another's JACKPOT: the rules' own words say whose it is
                player = actor
            # the bet checked as the rules check it, with dice the throw will replace (only the refusal is read)
            try:
                seen = menus.preview(table, player, Command("jackpot", (command.args[0], "1", "1", "1")), language)
            except CompanionError as exc:  # a bet that is no number: the rules' own line
                raise Refused(self.reading.error(exc, language), 409) from None
            if seen.refused:
                raise Refused(seen.refused, 409)
            bet = int(command.args[0])
            self.daemon.jackpot_ready(player, bet)
            # the box says "Anna bets 50 ... press ROLL" to every screen; this phone is told what to do next
            return {"lines": [say("phone_jackpot_placed", language, bet=bet)]}

        return self.reading.on_writer(work)

    def preview(self, actor: str, command: Command, language: str) -> dict[str, Any]:
        """What `command` would book, in the event's own lines, computed on a side copy by the writer (as
        the box's confirmation and the undo pages are); a command the rules refuse is refused now."""

        def look(table: Any) -> dict[str, Any]:
            if table is None:
                raise Refused(say("menu_nothing", language), 409)
            seen = menus.preview(table, actor, command, language)
            if seen.refused:
                raise Refused(seen.refused, 409)
            return {
                "preview": True,
                "lines": list(seen.lines) or [menus.verb_words(command.verb, language)],
                "confirm": command.text(),
            }

        return self.reading.on_writer(look)

    def command_from(self, fields: dict[str, Any], language: str) -> Command:
        verb = fields.get("verb")
        if not isinstance(verb, str) or not _VERB.fullmatch(verb):
            raise Refused(say("phone_bad_verb", language))
        words = fields.get("args") or []
        if isinstance(words, str):
            words = [words]
        if not isinstance(words, list) or len(words) > MAX_WORDS:
            raise Refused(say("phone_bad_args", language))
        words = [w.strip() if isinstance(w, str) else w for w in words]
        if any(not isinstance(w, str) or not _WORD.fullmatch(w) for w in words):
            raise Refused(say("phone_bad_args", language))
        if verb == "trade":
            give, get = _word_list(fields.get("give"), language), _word_list(fields.get("get"), language)
            give_cash, get_cash = _amount(fields.get("give_cash"), language), _amount(fields.get("get_cash"), language)
            words += list(menus.trade_words(give, give_cash, get, get_cash))
        if len(words) > MAX_WORDS:
            raise Refused(say("phone_bad_args", language))
        try:  # the command's own checks: a control character, a stray quote, a line too long
            return Command(verb, tuple(words))
        except CompanionError as exc:
            raise Refused(self.reading.error(exc, language)) from None

    def submit(self, actor: str, command: Command, request_id: str, language: str) -> dict[str, Any]:
        try:
            event = self.owner.submit(actor, command, request_id)
        except OutcomeUnknown as exc:  # the writer was late: the page keeps its action id, so a retry pays once
            log.warning("phone: the outcome of %s is unknown: %s", request_id, exc)
            raise Refused(say("phone_unknown", language), 503) from None
        except WriterBusy as exc:  # withdrawn before the writer took it: nothing was done
            raise Refused(self.reading.error(exc, language), 503) from None
        except RuleViolation as exc:
            raise Refused(self.reading.error(exc, language), 409) from None
        except CompanionError as exc:
            raise Refused(self.reading.error(exc, language), 409) from None
        return self.reading.read(
            lambda table: {
                "seq": event.seq,
                "lines": words_of(table, event, language),
                "head": self.reading.head(table, language),
            }
        )

    def undo(self, seq: int, action_id: str, language: str) -> dict[str, Any]:
        """The banker's undo: the events that depend on `seq` first, newest first, then `seq` itself."""

        def work() -> dict[str, Any]:
            plan = self.views.undo_preview(seq, language)
            if plan["refused"]:
                raise Refused(plan["refused"], 409)
            booked: list[dict[str, Any]] = []
            for i, target in enumerate(plan["order"]):
                booked.append(
                    self.submit(TABLE, Command("undo", (str(target),)), f"phone:undo:{action_id}:{i}"[:100], language)
                )
            return {
                "undone": plan["order"],
                "lines": [line for b in booked for line in b["lines"]],
                "seq": booked[-1]["seq"] if booked else 0,
            }

        return self.remembered(TABLE, action_id, f"undo {seq}", language, work)


def _word_list(value: Any, language: str) -> list[str]:
    if value is None or value == "":
        return []
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or len(items) > MAX_WORDS:
        raise Refused(say("phone_bad_args", language))
    out = []
    for w in items:
        if not isinstance(w, str) or not _WORD.fullmatch(w.strip()):
            raise Refused(say("phone_bad_args", language))
        out.append(w.strip())
    return out


def _amount(value: Any, language: str) -> int:
    if value is None or value == "" or value == 0:
        return 0
    text = str(value).strip() if isinstance(value, (str, int)) and not isinstance(value, bool) else None
    if text is None or not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise Refused(say("phone_bad_amount", language))
    return int(text)
