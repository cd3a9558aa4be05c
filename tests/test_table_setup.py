"""The table set up from the box's buttons and the banker's phone alone (issue 22, point 3): a new game
from a running one in eight presses (Millionaire Elite first, the options folded under one line, the old
game kept in the archive with no file path shown), the banker's PIN picked digit by digit at the box and
lasting a restart, the box's language chosen at the box (the OLED follows, the phones too), and the
players' names, the language and the PIN from the banker's phone. Presses are counted through the
box's buttons as the daemon takes them."""

import re

import pytest
from test_phone_views import BANKER_PIN, Phone, config, start_box

from companion.daemon.console import Console
from companion.daemon.main import Daemon, wait_for
from companion.hw.buttons import Press
from companion.table.service import new_game

NEW_GAME_PRESSES = 8  # OK, ▲ (Game…), OK, OK (New game…), OK (Elite), OK (players), OK (Start), OK (ends the old)


class Box:
    """The box's four buttons on a real daemon, each press counted; lines are chosen by what the OLED reads."""

    def __init__(self, daemon):
        self.daemon = daemon
        self.presses = 0

    def press(self, name, long=False):
        self.presses += 1
        self.daemon.owner.call(lambda: self.daemon._press(Press(name, long)))

    def top(self):
        stack = self.daemon.console.stack
        return stack[-1] if stack else None

    def go(self, starts):
        """Move the shortest way (a list wraps round) to the line starting with `starts`, then OK."""
        view = self.top()
        texts = [item.text for item in view.items]
        found = [i for i, text in enumerate(texts) if text.startswith(starts)]
        assert found, f"no line {starts!r} among {texts}"
        down = (found[0] - view.index) % len(texts)
        name, count = ("down", down) if down <= len(texts) - down else ("up", len(texts) - down)
        for _ in range(count):
            self.press(name)
        self.press("ok")

    def oled(self):
        """What the OLED shows now, as text."""
        frame = self.daemon.panel.frame
        return " ".join([frame.title, frame.big, *frame.lines, frame.footer]) if frame is not None else ""


def start(tmp_path, lines=None, **extra):
    daemon = Daemon(config(tmp_path, **extra), out=(lines.append if lines is not None else lambda line: None))
    daemon.start()
    from web.phone import create_phone_app

    daemon.app = create_phone_app(daemon.phone, SSE_POLL=0.05, SSE_KEEPALIVE=0.2, SSE_RETRY_MS=100)
    return daemon


def test_a_new_game_from_a_running_game_in_eight_presses_keeps_the_old_one_in_the_archive(tmp_path):
    daemon = start_box(tmp_path)
    lines = []
    daemon.out = lines.append
    try:
        box = Box(daemon)
        daemon.owner.submit("Anna", "pay Anna Boris 100")  # a game under way
        old = daemon.owner.table.meta["game_id"]
        box.press("ok")  # the table's menu
        box.go("Game…")  # the last line: one ▲
        box.go("New game…")  # the first line of the Game menu, a game running or not
        assert [i.text for i in box.top().items][0] == "Millionaire Elite"  # Elite first, chosen
        box.go("Millionaire Elite")
        box.press("ok")  # as many players as last time (3)
        assert box.top().header == "Anna, Boris, Vera"  # the last game's names, shown before Start
        assert [i.text for i in box.top().items] == ["Start the game", "Options…"]
        box.go("Start the game")
        assert "kept in the archive" in " ".join(box.top().lines)  # the old game ends: said first
        box.press("ok")
        assert box.presses <= NEW_GAME_PRESSES, box.presses
        table = daemon.owner.table
        assert table.meta["game_id"] != old and table.rules.edition.id == "elite"
        assert list(table.state.players) == ["Anna", "Boris", "Vera"] and table.head_seq == 1
        archived = list((tmp_path / "games" / "archive").glob("*.sqlite"))
        assert len(archived) == 1
        assert wait_for(lambda: any("The last game is kept in the archive" in line for line in lines))
        assert not any(".sqlite" in line or "/archive" in line for line in lines), lines  # no file path said
    finally:
        daemon.stop()


def test_the_edition_list_opens_on_millionaire_elite_with_the_options_folded(tmp_path):
    daemon = start_box(tmp_path)
    try:
        box = Box(daemon)
        box.press("ok")
        box.go("Game…")
        box.go("New game…")
        view = box.top()
        assert view.items[view.index].text == "Millionaire Elite"
        box.go("Monopoly")
        for _ in range(3):
            box.press("up")  # three players (the last game's) and three more: six
        box.press("ok")
        assert len(box.top().items) == 2 and box.top().header == "Anna, Boris, Vera, Gleb, Dina, Egor"
        box.go("Options…")  # the house rules, folded: defaults unless opened
        assert len(box.top().items) > 5
        box.press("back")
        box.go("Start the game")
        box.press("ok")
        assert daemon.owner.table.rules.edition.id == "monopoly"
        assert len(daemon.owner.table.state.players) == 6
    finally:
        daemon.stop()


def test_a_pin_set_at_the_box_lets_a_phone_become_the_banker_after_a_restart(tmp_path):
    daemon = start_box(tmp_path, **{"phone.banker_pin": ""})  # none in the config file
    try:
        refused = Phone(daemon).join().post("/phone/banker", pin="2580")
        assert refused.status_code == 403 and "set one at the box" in refused.json["error"]
        box = Box(daemon)
        box.press("ok")
        box.go("Game…")
        before = box.presses
        box.go("Banker's PIN…")
        for digit in map(int, "2580"):  # each digit starts at 0 and wraps round: ▲ or ▼, the shorter
            for _ in range(min(digit, 10 - digit)):
                box.press("up" if digit <= 5 else "down")
            box.press("ok")
        assert "2580" in " ".join(box.top().lines)  # the confirmation says the PIN and what it is for
        box.press("ok")
        assert box.presses - before == 4 + (2 + 5 + 2 + 0) + 4 + 1
    finally:
        daemon.stop()
    daemon = start(tmp_path, **{"phone.banker_pin": ""})
    try:
        phone = Phone(daemon).join()
        assert phone.post("/phone/banker", pin="2581").status_code == 403
        answer = phone.post("/phone/banker", pin="2580")
        assert answer.status_code == 200, answer.json
        assert phone.role() == "banker"
    finally:
        daemon.stop()


def test_the_language_chosen_at_the_box_changes_the_oled_and_the_phones_and_lasts(tmp_path):
    daemon = start_box(tmp_path)
    try:
        box = Box(daemon)
        assert wait_for(lambda: "Anna" in box.oled() or "Ledger" in box.oled())
        box.press("ok")
        box.go("Game…")
        box.go("Language: English")
        box.go("Русский")  # each language named in its own words
        assert wait_for(lambda: "Коробка теперь говорит по-русски" in box.oled()), box.oled()
        box.press("ok")
        assert box.top().title == "Миллионер-Elite"  # the menus too
        box.press("back")
        page = Phone(daemon, language="en").open("/phone/")  # a phone that chose no language: the box's
        assert "Присоединиться к столу" in page.data.decode()
    finally:
        daemon.stop()
    daemon = start(tmp_path)
    try:
        assert daemon.lang == "ru"
        assert wait_for(lambda: re.search("[А-Яа-я]", Box(daemon).oled()) is not None), Box(daemon).oled()
    finally:
        daemon.stop()


def test_names_from_the_banker_phone_are_on_the_oled_and_the_ledger_and_the_next_game_from_the_box(tmp_path):
    daemon = start_box(tmp_path)
    lines = []
    daemon.out = lines.append
    try:
        banker = Phone(daemon).banker()
        page = banker.open("/phone/game").data.decode()
        assert 'id="start-form"' in page and 'name="player"' in page and 'name="replace"' in page
        assert re.search(r'<option value="elite" selected>', page)  # Elite first, chosen
        names = ["Маша", "Петя", "Оля", "Ваня", "", "", "", ""]
        refused = banker.post("/phone/game/start", aid="start-names-0", edition="elite", count="4", player=names)
        assert refused.status_code == 409  # a game is on the box and the tick is not given: nothing changes
        assert list(daemon.owner.table.state.players) == ["Anna", "Boris", "Vera"]
        answer = banker.post(
            "/phone/game/start", aid="start-names-1", edition="elite", count="4", player=names, replace="1"
        )
        assert answer.status_code == 200, answer.json
        table = daemon.owner.table
        assert list(table.state.players) == ["Маша", "Петя", "Оля", "Ваня"]
        assert banker.role() == "banker"
        box = Box(daemon)
        assert wait_for(lambda: "Маша" in box.oled() or "Петя" in box.oled(), timeout=15), box.oled()
        assert "Маша" in banker.open("/phone/ledger").data.decode()
        # the next game from the box keeps these names
        box.press("ok")
        box.go("Game…")
        box.go("New game…")
        box.go("Millionaire Elite")
        box.press("ok")
        box.go("Start the game")
        box.press("ok")
        assert daemon.owner.table is not None, "\n".join(lines[-3:])
        assert list(daemon.owner.table.state.players) == ["Маша", "Петя", "Оля", "Ваня"]
    finally:
        daemon.stop()


def test_a_game_archived_after_phones_read_its_ledger_leaves_nothing_at_the_current_path(tmp_path):
    """A phone's ledger page keeps a read connection to the game's file: archiving the game moved the file
    but left its -wal behind, and the next game was refused ("left over from another game")."""
    daemon = start_box(tmp_path)
    try:
        banker = Phone(daemon).banker()
        assert banker.open("/phone/ledger").status_code == 200
        assert banker.post("/phone/game/end", aid="end-game-wal").status_code == 200
        assert banker.open("/phone/ledger").status_code == 200
        assert banker.post("/phone/game/archive", aid="archive-wal").status_code == 200
        started = banker.post("/phone/game/start", aid="start-game-wal", edition="elite", players="Ann\nBob")
        assert started.status_code == 200, started.json
        assert list(daemon.owner.table.state.players) == ["Ann", "Bob"]
    finally:
        daemon.stop()


def test_the_banker_phone_sets_the_language_and_the_pin_and_nobody_else_does(tmp_path):
    daemon = start_box(tmp_path)
    try:
        watcher, banker = Phone(daemon).join(), Phone(daemon).banker()
        assert watcher.post("/phone/box-language", lang="ru").status_code == 403
        assert watcher.post("/phone/banker-pin", pin="1357").status_code == 403
        assert banker.post("/phone/banker-pin", pin="12").status_code == 400  # 4 to 8 digits
        assert banker.post("/phone/box-language", lang="xx").status_code == 400
        assert banker.post("/phone/banker-pin", pin="1357").status_code == 200
        assert banker.post("/phone/box-language", lang="ru").status_code == 200
        assert daemon.lang == "ru" and daemon.panel.language == "ru"
        other = Phone(daemon).join()
        assert other.post("/phone/banker", pin=BANKER_PIN).status_code == 403  # the new PIN holds
        assert other.post("/phone/banker", pin="1357").status_code == 200
        # a name field left blank gets the name the form offered there (the last game's: Anna, Boris, Vera)
        started = banker.post(
            "/phone/game/start",
            aid="start-blank-1",
            edition="monopoly",
            count="3",
            player=["Лиза", "", "", "", "", "", "", ""],
            replace="1",
        )
        assert started.status_code == 200, started.json
        assert list(daemon.owner.table.state.players) == ["Лиза", "Boris", "Vera"]
        twice = banker.post(
            "/phone/game/start", aid="start-twice-1", edition="elite", count="2", player=["Лиза", "Лиза"], replace="1"
        )
        assert twice.status_code == 400 and "без повторов" in twice.json["error"]  # the box speaks Russian now
        assert list(daemon.owner.table.state.players) == ["Лиза", "Boris", "Vera"]
    finally:
        daemon.stop()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_new_screen_of_the_setup_is_words(lang, tmp_path, monkeypatch):
    """The PIN picker, the language list and the new game's screens: words in the box's language, no id."""
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "state"))
    from test_console import Desk, Owner

    owner = Owner(new_game(":memory:", "elite", ["Anna", "Boris"], 1))
    desk = Desk(owner, lang)
    console = Console(owner, desk)
    console.press("ok")
    console.press("up")
    console.press("ok")
    seen = [item.text for item in console.stack[-1].items]
    assert not any("_" in text or "None" in text for text in seen), seen
    console.stack[-1].index = 3  # the banker's PIN
    console.press("ok")
    frame = console.frame
    assert frame.big == "0---" and "_" not in " ".join(frame.lines)
