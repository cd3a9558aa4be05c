"""Roles that last (issue 22): a phone's role outlives the box's restart and the browser closed (a lasting cookie
whose token's hash the box keeps per game in its games folder), the table code stays the same for the same game,
the banker revokes a role from the Roles page, a phone leaving is forgotten by the box, a planted token is
worth nothing; the head check is the same in every language (switching English and Russian is no "fork");
`companion demo` keeps its games folder and resumes the game in play."""

import json
import re
import secrets
import signal
import subprocess
import sys

from test_phone_views import ANNA, BORIS, Phone, box, config, head, play, text_of

from companion.daemon.main import Daemon
from web.phone import COOKIE, create_phone_app

__all__ = ["box"]  # the fixture, shared


def restart(daemon, tmp_path):
    """Ctrl-C and start again on the same games folder: the game is resumed, nothing of memory kept."""
    daemon.stop()
    again = Daemon(config(tmp_path), out=lambda line: None).start()
    again.app = create_phone_app(again.phone, SSE_POLL=0.05, SSE_KEEPALIVE=0.2, SSE_RETRY_MS=100)
    return again


def carried(phone, daemon):
    """The same phone (its cookie and the page in hand, CSRF token included) talking to the restarted box."""
    cookie = phone.client.get_cookie(COOKIE, path="/phone")
    moved = Phone.__new__(Phone)
    moved.daemon, moved.language, moved.csrf = daemon, phone.language, phone.csrf
    moved.client = daemon.app.test_client()
    if cookie is not None:
        moved.client.set_cookie(COOKIE, cookie.value, path="/phone")
    return moved


def test_a_players_and_the_bankers_roles_outlive_a_restart_with_the_same_table_code(box, tmp_path):
    anna, banker, watcher = Phone(box).join().pair(ANNA), Phone(box).banker(), Phone(box).join()
    code, seq = box.phone.table_code(), head(box)
    box = restart(box, tmp_path)
    try:
        assert head(box) == seq and box.phone.table_code() == code  # the family's QR code still works
        anna, banker, watcher = carried(anna, box), carried(banker, box), carried(watcher, box)
        me = anna.client.get("/phone/api/me").json
        assert (me["role"], me["player"]) == ("player", "Anna") and me["csrf"] == anna.csrf
        assert banker.role() == "banker" and watcher.role() == "spectator"
        # the page in hand acts at once (its CSRF token is the restored session's)
        answer = anna.act("roll", "3", "4")
        assert answer.status_code == 200, answer.json
        assert head(box) == seq + 1
        # the live stream is open to the restored roles (it was 403 after a restart)
        assert watcher.client.get("/phone/events?since=0", buffered=False).status_code == 200
    finally:
        box.stop()


def test_a_role_cookie_lasts_beyond_the_browser_and_a_visitors_does_not(box):
    phone = Phone(box)
    visitor_cookie = phone.client.get("/phone/").headers.get("Set-Cookie") or ""
    response = phone.post("/phone/join", code=box.phone.table_code())
    joined_cookie = response.headers["Set-Cookie"]
    assert "Max-Age" not in visitor_cookie and "Expires" not in visitor_cookie
    assert (
        re.search(r"Max-Age=\d{7,}", joined_cookie)
        and "HttpOnly" in joined_cookie
        and "SameSite=Strict" in joined_cookie
    )


def test_the_box_keeps_only_a_hash_of_the_token_and_a_planted_token_is_worthless(box, tmp_path):
    phone = Phone(box).join()
    token = phone.client.get_cookie(COOKIE, path="/phone").value
    kept = list((tmp_path / "games" / "phones").glob("*.json"))
    assert len(kept) == 1 and token not in kept[0].read_text()
    stranger = Phone.__new__(Phone)
    stranger.daemon, stranger.language, stranger.csrf = box, "en", ""
    stranger.client = box.app.test_client()
    stranger.client.set_cookie(COOKIE, secrets.token_urlsafe(24), path="/phone")
    assert stranger.role() == "visitor"
    record = json.loads(kept[0].read_text())
    assert all(len(h) == 64 for h in record["roles"])


def test_the_banker_revokes_a_phones_role_and_it_stays_revoked_after_a_restart(box, tmp_path):
    banker, anna = Phone(box).banker(), Phone(box).join().pair(ANNA)
    page = banker.open("/phone/join")
    assert "Phones with a role" in text_of(page) and "playing as Anna" in text_of(page)
    assert "the banker since" in text_of(page) and "· this phone" in text_of(page)
    found = re.search(rb'<li data-id="([0-9a-f]+)" data-role="player">', page.data)
    assert found, page.data
    answer = banker.post("/phone/roles/revoke", id=found.group(1).decode())
    assert answer.status_code == 200 and answer.json["lines"] == ["Revoked: that phone must join again"]
    assert anna.role() == "visitor"
    assert anna.act("roll", "3", "4").status_code == 403
    # a player may not revoke; an unknown id is one line
    boris = Phone(box).join().pair(BORIS)
    assert boris.post("/phone/roles/revoke", id="deadbeef").status_code == 403
    assert banker.post("/phone/roles/revoke", id="deadbeef").status_code == 404
    box = restart(box, tmp_path)
    try:
        assert carried(anna, box).role() == "visitor" and carried(boris, box).role() == "player"
    finally:
        box.stop()


def test_a_phone_that_leaves_is_forgotten_by_the_box(box, tmp_path):
    anna = Phone(box).join().pair(ANNA)
    assert anna.post("/phone/leave").status_code == 200
    box = restart(box, tmp_path)
    try:
        assert carried(anna, box).role() == "visitor"
    finally:
        box.stop()


def test_a_seat_pin_outlives_a_restart(box, tmp_path):
    banker = Phone(box).banker()
    assert banker.post("/phone/seat-pin", seat="2", pin="8642").status_code == 200
    box = restart(box, tmp_path)
    try:
        boris = Phone(box).join()
        assert boris.post("/phone/claim", seat="2", pin="8642").status_code == 200
        assert boris.role() == "player"
    finally:
        box.stop()


def test_the_head_mark_is_the_same_in_every_language(box):
    """What a phone compares (the mark) does not change with the language; the words do."""
    play(box, "roll 3 4", "buy")
    en, ru = box.phone.head("en"), box.phone.head("ru")
    assert en["words"] != ru["words"] and en["mark"] == ru["mark"] and len(en["mark"]) == 12
    at_en, at_ru = box.phone.head_at(1, "en"), box.phone.head_at(1, "ru")
    assert at_en["mark"] == at_ru["mark"] != en["mark"]


def demo_run(folder, *extra):
    """`companion demo` in its own process until it serves, then Ctrl-C: what it said."""
    from test_phone_views import free_port

    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "demo", "--port", str(free_port()), *extra],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    said = []
    try:
        for line in proc.stdout:
            said.append(line.rstrip("\n"))
            if "Ctrl-C" in line:
                break
    finally:
        proc.send_signal(signal.SIGINT)
        rest, _ = proc.communicate(timeout=60)
    return said + rest.splitlines()


def test_the_demo_keeps_its_games_folder_and_resumes_the_game_after_a_restart(tmp_path):
    first = demo_run(tmp_path)
    folder = tmp_path / "demo-games"
    assert f"Games folder: {folder} (kept between runs; --new starts a fresh game)" in first
    assert any(line.startswith("No game in play, so a new one started") for line in first), first
    again = demo_run(tmp_path)  # Ctrl-C and `make demo` again: the same game, said so
    assert any(line.startswith("The game in play was resumed at #1") for line in again), again
    fresh = demo_run(tmp_path, "--new")
    assert any(line.startswith("A new game started (--new") for line in fresh), fresh
    assert len(list((folder / "archive").iterdir())) >= 1
