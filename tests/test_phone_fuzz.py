"""Thousands of random and malformed requests on every phone endpoint, from a visitor, a spectator, a
player and the banker, with good and forged tokens, on a real daemon: never a 500, every refusal one line,
nothing booked without the right role (a player's events are all their own, the banker's the table's,
nobody else's at all), and the count of unexpected exceptions stays zero. Seeded: a failure reproduces."""

import json
import random
import secrets

from test_phone_views import ANNA, Phone, box, head

__all__ = ["box"]

REQUESTS = 4000
GET_PATHS = [
    "/phone/",
    "/phone/join",
    "/phone/table",
    "/phone/board",
    "/phone/ledger",
    "/phone/me",
    "/phone/act",
    "/phone/undo",
    "/phone/game",
    "/phone/summary",
    "/phone/export.csv",
    "/phone/export.json",
    "/phone/api/state",
    "/phone/api/me",
    "/phone/api/head",
    "/phone/api/health",
    "/phone/player/1",
    "/phone/static/phone.css",
    "/",
]
POST_PATHS = [
    "/phone/join",
    "/phone/leave",
    "/phone/lang",
    "/phone/pair",
    "/phone/pair/cancel",
    "/phone/claim",
    "/phone/banker",
    "/phone/act",
    "/phone/undo",
    "/phone/seat-pin",
    "/phone/game/start",
    "/phone/game/end",
    "/phone/game/archive",
]
BOOKING = {"/phone/act", "/phone/undo", "/phone/game/start", "/phone/game/end", "/phone/game/archive"}
FIELDS = [
    "csrf",
    "aid",
    "verb",
    "arg",
    "args",
    "give",
    "get",
    "give_cash",
    "get_cash",
    "seq",
    "seat",
    "pin",
    "code",
    "lang",
    "edition",
    "players",
    "before",
    "at",
    "since",
    "part",
]
VERBS = [
    "roll",
    "buy",
    "decline",
    "pay",
    "bid",
    "hammer",
    "undo",
    "trade",
    "accept",
    "end",
    "end_game",
    "mortgage",
    "buy_shares",
    "insure",
    "ROLL",
    "",
    "drop table",
    "x" * 30,
]
WORDS = [
    "Anna",
    "Boris",
    "Vera",
    "table",
    "3",
    "4",
    "100",
    "0",
    "-1",
    "99999999999",
    "food1",
    "green",
    "1e3",
    " ",
    "",
    "Анна",
    "<script>",
    "../../etc",
    "%00",
    "\x00",
    "a b",
    "1.5",
    "None",
    "null",
    "give",
    "get",
]


def junk(rng):
    """A value a careless or hostile client might send."""
    kind = rng.randrange(9)
    if kind == 0:
        return rng.choice(WORDS)
    if kind == 1:
        return str(rng.randint(-(10**12), 10**12))
    if kind == 2:
        return "".join(chr(rng.randrange(0x20, 0x2FFF)) for _ in range(rng.randrange(0, 40)))
    if kind == 3:
        return rng.choice(VERBS)
    if kind == 4:
        return secrets.token_hex(rng.randrange(1, 40))
    if kind == 5:
        return [rng.choice(WORDS) for _ in range(rng.randrange(0, 30))]
    if kind == 6:
        return rng.choice([None, True, 1.5, {}, {"a": 1}, [[1]], -3])
    if kind == 7:
        return "x" * rng.choice([0, 1, 63, 64, 65, 200, 5000])
    return rng.randint(0, 12)


def plausible(rng, phone, actions):
    """A request that could be right: a listed action with values inside or just outside its bounds."""
    fields = {"csrf": phone.csrf, "aid": secrets.token_hex(rng.randrange(3, 20))}
    good = rng.random() < 0.5  # values within the slot's bounds (the rules may still refuse)
    if actions and rng.random() < 0.8:
        group = rng.choice(actions)
        action = rng.choice(group["actions"])
        args = []
        for slot in action["slots"]:
            if slot["kind"] == "fixed":
                args.append(slot["word"])
            elif slot["kind"] == "number":
                args.append(
                    str(
                        rng.randint(slot["low"], min(slot["high"], slot["low"] + 20))
                        if good
                        else rng.choice([slot["low"], slot["high"], slot["low"] - 1, slot["high"] + 1])
                    )
                )
            elif slot["kind"] == "choice":
                args.append(rng.choice([o["word"] for o in slot["options"]] + ([] if good else ["nope"])))
            elif slot["kind"] == "trade":
                fields["give"] = [o["word"] for o in slot["give"] if rng.random() < 0.3]
                fields["get"] = [o["word"] for o in slot["get"] if rng.random() < 0.3]
                fields["give_cash"] = str(rng.choice([0, 10, 99999]))
        fields.update(verb=action["verb"], arg=args)
    else:
        fields.update(verb=rng.choice(VERBS), arg=[rng.choice(WORDS) for _ in range(rng.randrange(0, 5))])
    return "/phone/act", fields


def send(rng, phone, path, method, fields):
    """The request, and the CSRF token the page would have carried (the header's, else the body's field)."""
    headers = {}
    if rng.random() < 0.1:
        headers["Origin"] = rng.choice(["http://evil.example", "null", "http://localhost", "http://"])
    if rng.random() < 0.1:
        headers["Last-Event-ID"] = str(junk(rng))[:50]
    if rng.random() < 0.1:
        headers["Accept-Language"] = str(junk(rng))[:60]
    if rng.random() < 0.1:
        headers["X-CSRF-Token"] = phone.csrf if rng.random() < 0.5 else str(junk(rng))[:80]
    client = phone.client
    if method == "GET":
        query = "&".join(f"{rng.choice(FIELDS)}={str(junk(rng))[:30]}" for _ in range(rng.randrange(0, 3)))
        return client.get(path + ("?" + query if query else ""), headers=headers), None
    body = rng.randrange(5)
    token = headers.get("X-CSRF-Token") or (fields.get("csrf") if body in (0, 1) else None)
    return _post(rng, client, path, fields, headers, body), token


def _post(rng, client, path, fields, headers, body):
    if body == 0:
        return client.post(path, json=fields, headers=headers)
    if body == 1:
        flat = {k: v if isinstance(v, (str, list)) else json.dumps(v) for k, v in fields.items()}
        flat = {
            k: [str(x) if not isinstance(x, str) else x for x in v] if isinstance(v, list) else v
            for k, v in flat.items()
        }
        return client.post(path, data=flat, headers=headers)
    if body == 2:
        return client.post(
            path,
            data=bytes(rng.randrange(256) for _ in range(rng.randrange(0, 300))),
            content_type=rng.choice(
                [
                    "application/json",
                    "application/octet-stream",
                    "text/plain",
                    "application/x-www-form-urlencoded",
                    "multipart/form-data",
                ]
            ),
            headers=headers,
        )
    if body == 3:
        return client.post(path, data=json.dumps(junk(rng)), content_type="application/json", headers=headers)
    return client.open(path, method=rng.choice(["PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]), headers=headers)


def test_thousands_of_random_requests_no_500_no_change_without_the_right_role(box):
    rng = random.Random(11)
    visitor, spectator = Phone(box), Phone(box).join()
    anna = Phone(box).join().pair(ANNA)
    banker = Phone(box).banker()
    roles = {"visitor": visitor, "spectator": spectator, "Anna": anna, "banker": banker}
    state = box.app.extensions["phone"]
    statuses: dict[int, int] = {}
    booked_by: dict[str, int] = {}
    for n in range(REQUESTS):
        who = rng.choice(list(roles))
        if who == "banker" and rng.random() < 0.3:
            who = rng.choice(["visitor", "spectator", "Anna"])  # the banker may do anything: keep them rarer
        phone = roles[who]
        before = head(box)
        if who in ("Anna", "banker") and rng.random() < 0.5:
            actor = "Anna" if who == "Anna" else "table"
            actions = [g for g in box.phone.actions(actor, "en") if g["verb"] != "end_game"]  # keep it going
            path, fields = plausible(rng, phone, actions)
            method = "POST"
            if rng.random() < 0.15:
                fields["csrf"] = "forged" + phone.csrf[6:]
        else:
            method = rng.choice(["GET", "POST"])
            path = rng.choice(GET_PATHS if method == "GET" else POST_PATHS)
            if rng.random() < 0.1:
                path = rng.choice(
                    [
                        "/phone/player/" + str(junk(rng))[:12],
                        "/phone/" + str(junk(rng))[:20],
                        "/phone/events/x",
                        "/phone/static/../phone.py",
                    ]
                )
            fields = {rng.choice(FIELDS): junk(rng) for _ in range(rng.randrange(0, 6))}
            if rng.random() < 0.6:
                fields["csrf"] = phone.csrf
        if path in ("/phone/game/end", "/phone/game/archive", "/phone/game/start", "/phone/leave"):
            path = "/phone/pair/cancel" if who == "banker" or rng.random() < 0.5 else path  # keep the game going
        answer, token = send(rng, phone, path, method, fields)
        statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
        assert answer.status_code != 500, (n, who, method, path, fields, answer.data[:300])
        if answer.status_code >= 400 and answer.mimetype == "application/json" and answer.request.method != "HEAD":
            line = answer.json["error"]
            assert isinstance(line, str) and line and "\n" not in line and "Traceback" not in line
        after = head(box)
        if after != before:
            booked_by[who] = booked_by.get(who, 0) + 1
            assert who in ("Anna", "banker"), (n, who, path, fields)
            assert token == phone.csrf and answer.status_code == 200 and path in BOOKING, (n, who, path)
            for event in box.owner.table.game.events[before:after]:
                assert event.actor == ("Anna" if who == "Anna" else "table"), (n, who, event)
        if roles["Anna"].role() != "player":  # a fuzzed /leave took her role: pair again, alone
            for pending in roles.values():
                pending.post("/phone/pair/cancel")
            box.phone.pairing._pairings.clear()  # a page the fuzz left waiting would make her wait her turn
            box.phone._pair_next = None
            roles["Anna"] = Phone(box).join().pair(ANNA)
        if roles["banker"].role() != "banker":
            roles["banker"] = Phone(box).banker()
    assert state.failures == 0
    assert statuses.get(200, 0) > REQUESTS // 10 and statuses.get(403, 0) > 100 and statuses.get(400, 0) > 100
    # the fuzz did reach the ledger, for both roles that may
    assert booked_by.get("Anna", 0) >= 3 and booked_by.get("banker", 0) >= 3, (booked_by, statuses)
    from companion.table.service import verify_game

    verify_game(box.owner.table.ledger.path)
