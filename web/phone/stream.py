"""The live stream (GET /phone/events): server-sent events, id = the ledger's seq (Last-Event-ID resumes)."""

import json
import logging
import time
from collections.abc import Iterator, Mapping
from typing import Any

from flask import Blueprint, Response, g, request

from web.hosts import guesser

from .kit import Kit
from .state import Refused

log = logging.getLogger("companion.web.phone")


def add_stream(bp: Blueprint, kit: Kit) -> None:
    """The stream's route on `bp`."""
    service, state = kit.service, kit.state

    # ----- the live stream ------------------------------------------------------------------------------

    @bp.get("/events")
    def events() -> Response:
        session = g.phone_session
        if session is None or session.role == "visitor":
            raise Refused(kit.say("err_role", role=kit.say("err_role_spectator")), 403)
        kit.heavy()
        language = kit.lang()
        since = _since(request.headers.get("Last-Event-ID"), request.args.get("since"))
        head = service.head(language)
        keepalive, poll = float(state.config["SSE_KEEPALIVE"]), float(state.config["SSE_POLL"])
        retry = int(state.config["SSE_RETRY_MS"])
        client = guesser(request.remote_addr or "")  # a client holding the most streams loses its oldest: per /64
        reset = since is not None and since > head["seq"]
        start = head["seq"] if since is None or reset else since

        def generate() -> Iterator[str]:
            # subscribed only once the server iterates: a response never sent leaves nothing behind, and the
            # subscription replays every event after `start` itself, so none is lost in between
            flag = state.streams.open(client)
            stream = None
            try:
                stream = service.stream(start, language)
                yield f"retry: {retry}\n\n"
                if reset:  # the page saw events the ledger no longer has
                    yield _sse("reset", {"seq": head["seq"], "words": head["words"]})
                quiet_since = time.monotonic()
                while not flag.is_set():
                    item = stream.get(poll)
                    if flag.is_set():
                        break
                    if item is None:
                        if time.monotonic() - quiet_since >= keepalive:
                            yield ": keepalive\n\n"
                            quiet_since = time.monotonic()
                        continue
                    quiet_since = time.monotonic()
                    kind = item.get("kind")
                    if kind == "event":
                        yield _sse("ledger", item, item["id"])
                    elif kind == "notice":
                        yield _sse("notice", item)
                    elif kind == "game":
                        yield _sse("game", {})
                        break
            except Exception:
                state.failed()
                log.exception("phone: the event stream failed")
            finally:
                if stream is not None:
                    stream.close()
                state.streams.done(flag)

        response = Response(generate(), mimetype="text/event-stream")
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Accel-Buffering"] = "no"
        return response


def _since(header: str | None, query: str | None) -> int | None:
    for value in (header, query):
        if value is not None and value.strip().isascii() and value.strip().isdigit() and len(value.strip()) < 10:
            return int(value.strip())
    return None


def _sse(kind: str, data: Mapping[str, Any], ident: int | None = None) -> str:
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    head = f"id: {ident}\n" if ident is not None else ""
    return f"{head}event: {kind}\ndata: {body}\n\n"
