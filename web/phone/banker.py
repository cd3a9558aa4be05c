"""The banker's own routes: the game's life (start, end, archive), the box's PIN and language, and the
table's own board (issue 23), which only the banker sees or changes."""

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, g, jsonify, request, send_file

from companion.words.phone import WORDS

from .kit import Kit, json_text
from .state import Refused

BOARD_BODY = 256 * 1024  # an edition file or a whole board's corrections (the table's own board, issue 23)


def add_banker(bp: Blueprint, kit: Kit) -> None:
    """The banker's routes on `bp`."""
    service = kit.service

    @bp.post("/game/start")
    def game_start() -> Response:
        data = kit.fields()
        session = kit.need("banker")
        players = data.get("players")
        if isinstance(players, str):
            players = players.splitlines()
        if "player" in data:  # the form's name fields, one a player: the first `count` of them play
            players = data.get("player")
            if not isinstance(players, list) or len(players) > 16:
                raise Refused(kit.say("err_field", field="player"))
            count = kit.number(data, "count", 2, 8)
            stock = service.new_game_form()["names"]  # a name left blank: the one the form offered there
            players = [p if isinstance(p, str) and p.strip() else stock[i] for i, p in enumerate(players[:count])]
            players += stock[len(players) : count]
        if not isinstance(players, list) or len(players) > 16:
            raise Refused(kit.say("err_field", field="players"))
        replace = data.get("replace") in ("1", "on", True)  # the form's tick: end and archive the game on the box
        result = service.start_game(kit.text(data, "edition", 32), players, kit.aid(data), kit.lang(), replace=replace)
        session.game = service.game_id()  # the banker who started it keeps the role in the new game
        kit.keep(session)
        g.phone_new = True  # the lasting cookie again, for the new game's role
        return kit.done(**result)

    @bp.post("/banker-pin")
    def banker_pin() -> Response:
        """The banker changes the banker's PIN (the first one is set at the box: a phone needs it to get here)."""
        data = kit.fields()
        kit.need("banker")
        return kit.done(**service.set_banker_pin(kit.text(data, "pin", 16), kit.lang()))

    @bp.post("/box-language")
    def box_language() -> Response:
        """The banker sets the box's language: the OLED's, and every phone's that has chosen none."""
        data = kit.fields()
        kit.need("banker")
        value = kit.text(data, "lang", 8)
        if value not in WORDS:
            raise Refused(kit.say("err_field", field="lang"))
        return kit.done(**service.set_box_language(value, kit.lang()))

    # ----- the table's own board (issue 23): only the banker sees or changes it --------------------------

    @bp.get("/our-board")
    @kit.shown_to("banker")
    def our_board_page() -> Any:
        base = request.args.get("base", "")
        bases = service.our_boards(kit.lang())
        if not base:
            return kit.page("ourboard.html", bases=bases, view=None)
        return kit.page("ourboard.html", bases=bases, view=service.our_board(base[:32], kit.lang()))

    @bp.get("/api/our-board")
    def our_board_json() -> Response:
        kit.need("banker")
        return jsonify(service.our_board(request.args.get("base", "")[:32], kit.lang()))

    @bp.get("/our-board/export")
    def our_board_export() -> Response:
        kit.need("banker")
        name, raw = service.our_board_export(request.args.get("base", "")[:32], kit.lang())
        response = Response(raw, mimetype="application/toml")
        response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
        return response

    @bp.get("/api/our-board/share")
    def our_board_share() -> Response:
        kit.need("banker")
        return jsonify(service.our_board_share(request.args.get("base", "")[:32], kit.lang()))

    def answered(work: Callable[[], dict[str, Any]]) -> Response | tuple[Response, int]:
        """The editor's answer; a refusal carries what another phone changed (409), never a 500."""
        try:
            return kit.done(**work())
        except ValueError as exc:
            status, extra = getattr(exc, "status", None), getattr(exc, "extra", None)
            if isinstance(status, int) and isinstance(extra, dict):
                return jsonify(error=" ".join(str(exc).split()), **extra), status
            raise

    @bp.post("/our-board/save")
    def our_board_save() -> Any:
        data = kit.fields()
        kit.need("banker")
        base, version = kit.text(data, "base", 32), kit.number(data, "version", 0, 10**9)
        values: dict[str, Any] = {}
        effects: dict[str, list[Any]] = {}
        confirm: list[str] = []
        raw_values = data.get("values")
        if isinstance(raw_values, str):  # the form sends its values as one JSON text
            raw_values = json_text(raw_values)
        if raw_values is not None and not isinstance(raw_values, dict):
            raise Refused(kit.say("err_field", field="values"))
        for key, value in (raw_values or {}).items():
            if not isinstance(value, str):
                raise Refused(kit.say("err_field", field="values"))
            values[key] = value
        raw_effects = data.get("effects")
        if isinstance(raw_effects, str):
            raw_effects = json_text(raw_effects)
        if raw_effects is not None and not isinstance(raw_effects, dict):
            raise Refused(kit.say("err_field", field="effects"))
        for item, rows in (raw_effects or {}).items():
            if not isinstance(rows, list) or not all(isinstance(r, list) and len(r) == 2 for r in rows):
                raise Refused(kit.say("err_field", field="effects"))
            effects[item] = [tuple(r) for r in rows]
        raw_confirm = data.get("confirm")
        if isinstance(raw_confirm, str):
            raw_confirm = json_text(raw_confirm)
        if raw_confirm is not None and not (
            isinstance(raw_confirm, list) and all(isinstance(c, str) for c in raw_confirm)
        ):
            raise Refused(kit.say("err_field", field="confirm"))
        confirm = list(raw_confirm or [])
        return answered(lambda: service.our_board_save(base, version, values, effects, confirm, kit.lang()))

    @bp.post("/our-board/import")
    def our_board_import() -> Any:
        data = kit.fields()
        kit.need("banker")
        version = kit.number(data, "version", 0, 10**9)
        upload = request.files.get("file")
        if upload is not None:
            raw, share = upload.read(BOARD_BODY + 1), False
        else:
            given = data.get("text")
            if not isinstance(given, str) or not given.strip():
                raise Refused(kit.say("err_field", field="text"))
            raw, share = given.encode("utf-8", "replace"), given.strip().startswith("MB1:") or "#board=" in given
        given_base = data.get("base")
        base = given_base if isinstance(given_base, str) else ""
        return answered(lambda: service.our_board_import(raw, version, share, base[:32], kit.lang()))

    @bp.post("/game/end")
    def game_end() -> Response:
        data = kit.fields()
        kit.need("banker")
        return kit.done(**service.end_game(kit.aid(data), kit.lang()))

    @bp.post("/game/archive")
    def game_archive() -> Response:
        data = kit.fields()
        session = kit.need("banker")
        result = service.archive_game(kit.aid(data), kit.lang())
        session.game = service.game_id()
        kit.keep(session)
        return kit.done(**result)

    # ----- issue 25: a backup of the box, only for the banker (docs/backup.md) -----------------------------

    @bp.get("/backup")
    def backup_download() -> Response:
        """One zip of the box (every game, the archive, the card map, the box's files; no PINs), streamed."""
        kit.need("banker")
        kit.heavy()
        name, handle = service.backup_archive(kit.lang())
        return send_file(handle, mimetype="application/zip", as_attachment=True, download_name=name, max_age=0)
