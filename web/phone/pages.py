"""The phone's pages (GET): the join page, the table, the board, the ledger, a player, the actions, the
banker's undo, game and walk pages, the summary, the exports, and the JSON the page's script asks for."""

import json
from typing import Any

from flask import Blueprint, Response, g, jsonify, request

from companion.words.phone import WORDS

from .kit import Kit
from .state import ACTORS, VIEWERS, loopback
from .svg import qr_svg


def add_pages(bp: Blueprint, kit: Kit) -> None:
    """The pages' routes on `bp`."""
    service, state = kit.service, kit.state

    @bp.get("/")
    def index() -> Any:
        return join_page() if kit.role() == "visitor" else table()

    @bp.get("/join")
    def join_page() -> Any:
        """The table code, pairing with a player's card, a seat's PIN, the banker's PIN."""
        session = g.phone_session
        pairing = service.pair_status(session.pairing) if session.pairing else {"state": ""}
        if pairing.get("state") == "bound":
            kit.bind(session, str(pairing["player"]), pairing.get("game"))
        kept = service.roles_kept(kit.lang(), session.token) if session.role == "banker" else []
        return kit.page("join.html", pairing=pairing, kept=kept)

    @bp.get("/table")
    @kit.shown_to(*VIEWERS)
    def table() -> Any:
        view = service.table_view(kit.lang())
        base = service.phone_url().rstrip("/")
        url = (base if base.endswith("/phone") else base + "/phone") + "/#code=" + service.table_code()
        return kit.page(
            "table.html",
            view=view,
            head=view["head"],
            code=service.table_code(),
            qr=qr_svg(url),
            name=service.phone_name(),
        )

    @bp.get("/board")
    @kit.shown_to(*VIEWERS)
    def board() -> Any:
        view = service.board_view(kit.lang())
        return kit.page("board.html", view=view, head=view["head"])

    @bp.get("/ledger")
    @kit.shown_to(*VIEWERS)
    def ledger() -> Any:
        before = request.args.get("before")
        start = None
        if before is not None:
            start = kit.number({"before": before}, "before", 1, 10**9)
        kit.heavy()
        view = service.ledger_view(kit.lang(), start)
        return kit.page("ledger.html", view=view, head=view["head"])

    @bp.get("/player/<int:seat>")
    @kit.shown_to(*VIEWERS)
    def player(seat: int) -> Any:
        kit.heavy()
        view = service.player_view(seat, kit.lang())
        return kit.page("player.html", view=view, head=view["head"])

    @bp.get("/me")
    @kit.shown_to(*ACTORS)
    def me() -> Any:
        session = g.phone_session
        if session.role == "player":
            head = service.head(kit.lang())
            seat = head["players"].index(session.player) + 1 if session.player in head["players"] else 0
            if seat:
                return player(seat)
        return act()

    @bp.get("/act")
    @kit.shown_to(*ACTORS)
    def act() -> Any:
        return kit.page("act.html", groups=service.actions(kit.actor(), kit.lang()))

    @bp.get("/undo")
    @kit.shown_to("banker")
    def undo_page() -> Any:
        seq = request.args.get("seq")
        plan = service.undo_preview(kit.number({"seq": seq}, "seq", 1, 10**9), kit.lang()) if seq is not None else None
        return kit.page("undo.html", view=service.undo_list(kit.lang()), plan=plan)

    @bp.get("/game")
    @kit.shown_to("banker")
    def game_page() -> Any:
        return kit.page(
            "game.html",
            editions=service.editions(kit.lang()),
            form=service.new_game_form(),
            languages=[(code, WORDS[code]["language_own"]) for code in WORDS],
            box_language=service.box_language() or service.language,
        )

    # issue 23: walking the board with the cards (the banker's; every banker phone sees the one walk)
    @bp.get("/walk")
    @kit.shown_to("banker")
    def walk_page() -> Any:
        return kit.page("walk.html", walk=service.walk_view(kit.lang()))

    @bp.get("/api/walk")
    def api_walk() -> Response:
        kit.need("banker")
        return jsonify(**service.walk_brief(kit.lang()))

    @bp.get("/summary")
    @kit.shown_to(*VIEWERS)
    def summary() -> Any:
        kit.heavy()
        view = service.summary(kit.lang())
        return kit.page("summary.html", view=view, head=view["head"])

    @bp.get("/export.json")
    def export_json() -> Response:
        kit.viewer()
        kit.heavy()
        data = service.export(kit.lang())
        data.pop("csv", None)
        text = data.pop("json", None)  # the service's own text, built once per event (docs/phone.md)
        response = Response(
            state.encoded("json", text) if isinstance(text, str) else json.dumps(data, ensure_ascii=False, indent=1),
            mimetype="application/json",
        )
        response.headers["Content-Disposition"] = f'attachment; filename="ledger-{data["head"]["game"]}.json"'
        return response

    @bp.get("/export.csv")
    def export_csv() -> Response:
        kit.viewer()
        kit.heavy()
        data = service.export(kit.lang())
        response = Response(state.encoded("csv", data["csv"]), mimetype="text/csv")
        response.headers["Content-Disposition"] = f'attachment; filename="ledger-{data["head"]["game"]}.csv"'
        return response

    # ----- JSON -------------------------------------------------------------------------------------

    @bp.get("/api/state")
    def api_state() -> Response:
        kit.viewer()
        return jsonify(service.table_view(kit.lang()))

    @bp.get("/api/me")
    def api_me() -> Response:
        session = g.phone_session
        pairing = service.pair_status(session.pairing) if session.pairing else {"state": ""}
        if pairing.get("state") == "bound":
            kit.bind(session, str(pairing["player"]), pairing.get("game"))
        return jsonify(
            role=session.role,
            player=session.player,
            lang=kit.lang(),
            csrf=session.csrf,
            pairing={"state": pairing.get("state", ""), "code": pairing.get("code", "")},
        )

    @bp.get("/api/head")
    def api_head() -> Response:
        kit.viewer()
        at = kit.number({"at": request.args.get("at")}, "at", 1, 10**9)
        return jsonify(service.head_at(at, kit.lang()))

    @bp.get("/api/health")
    def api_health() -> Response:
        # the banker's, or the box's own (a monitoring script on loopback): how often it failed and how many
        # pages are open is nobody else's business
        if not loopback(request.remote_addr):
            kit.need("banker")
        return jsonify(failures=state.failures, streams=state.streams.count())
