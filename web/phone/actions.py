"""Acting from a phone (POST): the rules' actions, the banker's undo and seats' PINs, a step of the walk."""

from flask import Blueprint, Response

from .kit import Kit
from .state import Refused


def add_actions(bp: Blueprint, kit: Kit) -> None:
    """The acting routes on `bp`."""
    service = kit.service

    @bp.post("/walk")
    def walk_do() -> Response:
        data = kit.fields()
        kit.need("banker")
        op = kit.text(data, "op", 8)
        if op not in ("start", "cell", "name", "back", "leave", "save"):
            raise Refused(kit.say("err_field", field="op"))
        wanted = {k: kit.text(data, k, 64) for k in ("base", "key", "plot", "version") if data.get(k) not in (None, "")}
        return kit.done(**service.walk_do(op, wanted, kit.lang()))

    # ----- acting ---------------------------------------------------------------------------------------

    @bp.post("/act")
    def do_act() -> Response:
        data = kit.fields()
        who = kit.actor()
        return kit.done(**service.act(who, dict(data), kit.aid(data), kit.lang()))

    @bp.post("/undo")
    def do_undo() -> Response:
        data = kit.fields()
        kit.need("banker")
        return kit.done(**service.undo(kit.number(data, "seq", 1, 10**9), kit.aid(data), kit.lang()))

    @bp.post("/seat-pin")
    def seat_pin() -> Response:
        data = kit.fields()
        kit.need("banker")
        return kit.done(
            **service.set_seat_pin(
                kit.number(data, "seat", 1, 8), kit.text(data, "pin", 16, allow_empty=True), kit.lang()
            )
        )
