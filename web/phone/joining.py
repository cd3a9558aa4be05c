"""Joining and roles (POST): the table code, leaving, the language, pairing with a player's card, a seat's
PIN, the banker's PIN, and the banker revoking a phone's lasting role."""

from flask import Blueprint, Response, g

from companion.words.phone import WORDS

from .kit import Kit
from .state import VIEWERS, Refused


def add_joining(bp: Blueprint, kit: Kit) -> None:
    """The joining routes on `bp`."""
    service, state = kit.service, kit.state

    @bp.post("/join")
    def join() -> Response:
        data = kit.fields()
        code = kit.text(data, "code", 16)
        if not service.check_code(code):
            raise Refused(kit.say("err_code"), 403)
        session = g.phone_session
        if session.role == "visitor":
            session.role, session.game = "spectator", service.game_id()
            kit.promote(session)
        return kit.done(role=session.role)

    @bp.post("/leave")
    def leave() -> Response:
        kit.fields()
        session = g.phone_session
        if session.pairing:
            service.pair_cancel(session.pairing)
        service.keep_role(session.token, "visitor", "", "", service.game_id())  # forgotten by the box too
        session.role, session.player, session.game, session.pairing = "visitor", "", None, ""
        return kit.done(role="visitor")

    @bp.post("/lang")
    def set_lang() -> Response:
        value = kit.text(kit.fields(), "lang", 8)
        if value not in WORDS:
            raise Refused(kit.say("err_field", field="lang"))
        g.phone_session.lang = value
        return kit.done(lang=value)

    @bp.post("/pair")
    def pair() -> Response:
        kit.fields()
        # the table code first: only someone at the table (who can read the box's screen) may wait for a card
        session = kit.need(*VIEWERS)
        # this phone's new ask replaces its old one; turned away, it gets a place in line (one per address)
        started = service.pair_start(kit.lang(), session.sid, kit.client())
        session.pairing = started["pairing"]
        return kit.done(code=started["code"])

    @bp.post("/pair/cancel")
    def pair_cancel() -> Response:
        kit.fields()
        session = g.phone_session
        if session.pairing:
            service.pair_cancel(session.pairing)
        session.pairing = ""
        return kit.done()

    @bp.post("/pair/clear")
    def pair_clear() -> Response:
        kit.fields()
        kit.need("banker")  # the banker can always free the pairing from phones holding it in turns
        return kit.done(code=service.pair_clear())

    @bp.post("/claim")
    def claim() -> Response:
        data = kit.fields()
        session = kit.need(*VIEWERS)
        got = service.claim_seat(kit.number(data, "seat", 1, 8), kit.text(data, "pin", 16), kit.lang(), kit.client())
        kit.bind(session, str(got["player"]), got.get("game"))
        return kit.done(role="player", player=session.player)

    @bp.post("/banker")
    def banker() -> Response:
        data = kit.fields()
        # the table code first: someone merely on the Wi-Fi may not even guess
        session = kit.need(*VIEWERS)
        service.check_banker(kit.text(data, "pin", 32), kit.lang(), kit.client())
        session.role, session.player, session.game = "banker", "", service.game_id()
        kit.promote(session)
        return kit.done(role="banker")

    @bp.post("/roles/revoke")
    def revoke() -> Response:
        """The banker revokes a phone's lasting role (the Roles page's list): that phone is a visitor again."""
        data = kit.fields()
        kit.need("banker")
        hashed = service.revoke_role(kit.text(data, "id", 16))
        if not hashed:
            raise Refused(kit.say("err_no_role"), 404)
        state.demote(hashed)
        return kit.done(lines=[kit.say("revoked")])
