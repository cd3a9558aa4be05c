"""The control socket's requests (`companion do`, `state`, `game start`, `card enrol`, ...): each op read
from its JSON, worked on the writer thread where it touches the game, and answered in the asker's language.

The socket's server (companion/daemon/control.py) calls `handle` on its own threads.
"""

import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.editions import load_edition
from companion.engine.actions import TABLE
from companion.engine.command import parse_command
from companion.errors import BadCommand, BadInput, CompanionError, RuleViolation, SaidInput, exit_code
from companion.hw import protocol
from companion.hw.reader import LinkState
from companion.table.view import event_lines, state_text
from companion.words import messages

from .cards import Role, check_ref, check_role, normal_uid
from .owner import NoGame

if TYPE_CHECKING:
    from .main import Daemon

Request = dict[str, Any]  # a request as the socket decoded it (JSON)
Answer = dict[str, Any]  # its answer, before "ok" is added


class ControlRequests:
    """The ops the control socket serves, over the box's parts."""

    def __init__(self, box: "Daemon"):
        self.box = box

    def handle(self, request: Request) -> Answer:
        """One request's answer: {"ok": True, ...} or {"ok": False, "message", "exit", "refused"}."""
        lang = request["lang"] if request.get("lang") in messages.LANGUAGES else self.box.lang
        op = request.get("op")
        work = OPS.get(op) if isinstance(op, str) else None
        try:
            if work is None:
                raise BadInput(f"unknown request {op!r} (known: {', '.join(sorted(OPS))})")
            return {"ok": True, **work(self, request, lang)}
        except CompanionError as exc:
            return {
                "ok": False,
                "message": messages.render_error(exc, lang, self.box.edition()),
                "exit": exit_code(exc),
                "refused": isinstance(exc, RuleViolation),
            }
        except OSError as exc:  # the archive folder, the card map: a file the request needed
            where = f"{exc.filename}: " if exc.filename else ""
            return {"ok": False, "message": f"{where}{exc.strerror or exc}", "exit": 4, "refused": False}
        except (TypeError, ValueError, KeyError) as exc:  # a malformed request from a client
            return {"ok": False, "message": f"malformed request: {exc}", "exit": 4, "refused": False}

    def _op_do(self, request: Request, lang: str) -> Answer:
        text = _text(request, "command")
        command = parse_command(text)
        if command is None:
            raise BadCommand("empty_command")
        actor = _text(request, "actor", TABLE)
        request_id = request.get("request_id")
        if request_id is not None and not isinstance(request_id, str):
            raise BadInput("request_id must be text")
        if request_id is not None and not request_id.strip():  # never replaced by a fresh id: a retry would book twice
            raise SaidInput("request_id_empty")
        game = request.get("game")
        table = self.box.owner.table
        if game is not None and (
            table is None or Path(_text(request, "game")).resolve() != Path(table.ledger.path).resolve()
        ):
            raise BadInput(
                f"this daemon holds {table.ledger.path if table else 'no game'}, not {game}: nothing was booked"
            )
        event = self.box.owner.submit(actor, command, request_id, rng=random.SystemRandom())
        return self._event_answer(event, lang)

    def _event_answer(self, event: Any, lang: str) -> Answer:
        table = self.box.owner.table
        assert table is not None
        return {
            "seq": event.seq,
            "actor": event.actor,
            "command": event.command,
            "lines": event_lines(table.rules, event, lang),
            "head": table.head_words(lang),
        }

    def _op_state(self, request: Request, lang: str) -> Answer:
        def look() -> Answer:
            table = self.box.owner.table
            if table is None:
                raise NoGame()
            return {
                "text": state_text(table.rules, table.state, lang),
                "path": table.ledger.path,
                "seq": table.head_seq,
            }

        return self.box.owner.call(look)

    def _op_start(self, request: Request, lang: str) -> Answer:
        edition = _text(request, "edition")
        players = request.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise BadInput("players must be a list of names")
        seed = request.get("seed")
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        if not isinstance(seed, int):
            raise BadInput("seed must be a whole number")
        options = request.get("options") or {}
        if not isinstance(options, dict):
            raise BadInput("options must be an object")

        return self.box.owner.call(lambda: self.box.life.start_game(edition, players, seed, options, lang))

    def _op_end(self, request: Request, lang: str) -> Answer:
        if self.box.owner.table is None:
            raise RuleViolation("no_game_on_box")
        event = self.box.owner.submit(TABLE, "end_game")
        return self._event_answer(event, lang)

    def _op_archive(self, request: Request, lang: str) -> Answer:
        return self.box.owner.call(self.box.life.archive_game)

    def _op_accept(self, request: Request, lang: str) -> Answer:
        """A person accepts the stranger's game the box shows read-only: it becomes the box's own, as it stands
        (issue 21; `companion accept` asks this; the box's buttons and the phone do not offer it yet)."""
        return self.box.owner.call(lambda: self.box.life.accept(lang))

    def _op_status(self, request: Request, lang: str) -> Answer:
        table = self.box.owner.table
        link = self.box.link.state if self.box.link is not None else LinkState("none")
        enrolling = self.box.reading.enrolling
        return {
            "game": table.ledger.path if table is not None else None,
            "seq": table.head_seq if table is not None else 0,
            "reader": link.state,
            "reader_detail": link.detail,
            # the reader's firmware as its HELLO said it ("": not heard, or too old to say), and this version's
            "reader_firmware": self.box.link.firmware if self.box.link is not None else "",
            "firmware_shipped": protocol.FIRMWARE_VERSION,
            "enrolling": enrolling.kind + " " + enrolling.ref if enrolling else None,
            "enrolling_words": self.box.role_words(enrolling, lang) if enrolling else None,
            "halted": self.box.owner.halted,
            "stopped": messages.render("table_stopped_booking", {"error": stopped}, lang)
            if table is not None and (stopped := table.readonly_reason) is not None
            else None,
        }

    def _op_enrol(self, request: Request, lang: str) -> Answer:
        role = _role(request, self.box.edition())
        uid = request.get("uid")
        if uid is not None:
            done = self.box.owner.call(lambda: self.box.reading.enrol(normal_uid(_text(request, "uid")), role))
            code = "enrolled_replacing" if done["replaced"] else "enrolled"
            words = {"uid": done["uid"], "role": self.box.role_words(role, lang), "lost": done["replaced"]}
            return {**done, "message": messages.render(code, words, lang)}

        self.box.owner.call(lambda: self.box.reading.expect_card(role))
        return {
            "waiting": True,
            "message": messages.render("enrol_waiting", {"role": self.box.role_words(role, lang)}, lang),
        }

    def _op_cards(self, request: Request, lang: str) -> Answer:
        return {
            "cards": {
                uid: {"kind": r.kind, "ref": r.ref, "edition": r.edition}
                for uid, r in sorted(self.box.cards.roles.items())
            },
            "replaced": dict(self.box.cards.replaced),
        }

    def _op_forget(self, request: Request, lang: str) -> Answer:
        def forget() -> Answer:
            role = self.box.cards.saved_or_undone(lambda: self.box.cards.forget(_text(request, "uid")))
            return {"kind": role.kind, "ref": role.ref}

        return self.box.owner.call(forget)

    def _op_sim(self, request: Request, lang: str) -> Answer:
        """The simulated reader's hands (a test's or the demo's): place, remove, roll, unplug, replug."""
        if self.box.sim is None:
            raise BadInput("the reader is real here: put a card on it")
        action = _text(request, "action")
        if action == "place":
            self.box.sim.place(normal_uid(_text(request, "uid")))
        elif action in ("remove", "press_roll", "unplug", "replug"):
            getattr(self.box.sim, action)()
        else:
            raise BadInput(f"unknown simulated action {action!r}")
        return {}


def _text(request: Request, key: str, default: str | None = None) -> str:
    value = request.get(key, default)
    if not isinstance(value, str):
        raise BadInput(f"{key} must be text")
    return value


def _role(request: Request, edition: Any) -> Role:
    kind = _text(request, "kind")
    ref = _text(request, "ref")
    if kind == "player":
        role = Role("player", ref)
        check_role(role)
        return role
    name = request.get("edition") or (edition.id if edition is not None else "")
    if not isinstance(name, str) or not name:
        raise BadInput("a plot or deck card needs the edition it belongs to (no game is open to tell)")
    role = Role(kind, ref, name)
    check_role(role)
    check_ref(role, edition if edition is not None and edition.id == name else load_edition(name))
    return role


OPS: dict[str, Callable[[ControlRequests, Request, str], Answer]] = {
    "do": ControlRequests._op_do,
    "state": ControlRequests._op_state,
    "start": ControlRequests._op_start,
    "end": ControlRequests._op_end,
    "archive": ControlRequests._op_archive,
    "status": ControlRequests._op_status,
    "accept": ControlRequests._op_accept,
    "enrol": ControlRequests._op_enrol,
    "cards": ControlRequests._op_cards,
    "forget": ControlRequests._op_forget,
    "sim": ControlRequests._op_sim,
}
