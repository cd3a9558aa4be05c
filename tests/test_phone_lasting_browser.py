"""Roles that last and a head check in any language, in Debian's chromium (issue 22): a phone left open while the
box restarts rejoins by itself with its role and follows live again; one the box no longer knows (or whose role
the banker revoked) says so plainly and shows the join page; switching English and Russian raises no "forked"
banner, while a real fork still does. Screenshots are kept in pytest's tmp dir (the path is printed)."""

import shutil
import sys
from pathlib import Path

import pytest
from test_phone_browser import ANNA, BANKER_PIN, Phone, browser, free_port, head, play, shots

from companion.daemon.config import Config, defaults
from companion.daemon.main import Daemon, wait_for

sys.path.insert(0, str(Path(__file__).parent))

__all__ = ["browser", "shots"]  # the fixtures, shared
RESTART_MS = 30000  # a restarted box and a phone's stream reconnecting, on a loaded 2-core machine


class Box:
    """The daemon under test, restartable on the same games folder and the same phone port (as the box itself)."""

    def __init__(self, tmp_path):
        values = dict(defaults().values)
        values.update(
            {
                "games_dir": str(tmp_path / "games"),
                "virtual_table.port": 0,
                "phone.host": "127.0.0.1",
                "phone.port": free_port(),
                "phone.banker_pin": BANKER_PIN,
                "phone.auction_quiet_seconds": 0.0,
            }
        )
        self.config = Config(values, "(test)")
        self.games = tmp_path / "games"
        self.daemon = Daemon(self.config, out=lambda line: None).start()

    def restart(self, forget_phones=False):
        self.daemon.stop()
        if forget_phones:  # a box that lost what it kept of the phones (a games folder restored without it)
            shutil.rmtree(self.games / "phones")
        self.daemon = Daemon(self.config, out=lambda line: None).start()
        assert self.daemon.owner.table is not None  # the game was resumed
        for phone in self.phones:
            phone.box = self.daemon

    def stop(self):
        self.daemon.stop()


@pytest.fixture
def table(tmp_path):
    made = Box(tmp_path)
    daemon = made.daemon
    assert daemon.handle({"op": "start", "edition": "elite", "players": ["Anna", "Boris", "Vera"], "seed": 1})["ok"]
    assert daemon.handle({"op": "enrol", "kind": "player", "ref": "1", "uid": ANNA})["ok"]
    assert wait_for(lambda: daemon.link.state.state == "ready", 10.0)
    made.phones = []
    try:
        yield made
    finally:
        for phone in made.phones:
            phone.close()
        made.stop()


def phone(browser, table, shots, name, **kw):
    made = Phone(browser, table.daemon, name, shots, **kw)
    table.phones.append(made)
    return made


def test_switching_between_english_and_russian_raises_no_forked_banner(browser, table, shots):
    watcher = phone(browser, table, shots, "lang")
    watcher.join().goto("table")
    play(table.daemon, "roll 3 4", "buy")
    watcher.page.wait_for_function(f"document.body.dataset.seq === '{head(table.daemon)}'")
    watcher.page.click("#lang-ru")
    watcher.page.wait_for_selector("html[lang=ru]")  # the page again in Russian, against the head seen in English
    watcher.page.wait_for_function("document.body.dataset.live === '1'")
    watcher.shot("lang-ru")
    assert watcher.page.is_hidden("#warning"), watcher.page.text_content("#warning")  # was "the ledger forked"
    watcher.goto("ledger")
    watcher.page.wait_for_function("document.body.dataset.live === '1'")
    play(table.daemon, "end")
    watcher.page.wait_for_function(f"document.body.dataset.seq === '{head(table.daemon)}'")
    watcher.page.click("#lang-en")
    watcher.page.wait_for_selector("html[lang=en]")  # and back, the head seen last in Russian (live)
    watcher.page.wait_for_function("document.body.dataset.live === '1'")
    watcher.shot("lang-back-en")
    assert watcher.page.is_hidden("#warning"), watcher.page.text_content("#warning")


def test_a_real_fork_still_warns_whatever_the_language(browser, table, shots):
    watcher = phone(browser, table, shots, "fork", locale="ru-RU")
    watcher.join().goto("table")
    play(table.daemon, "roll 3 4", "buy")
    watcher.page.wait_for_function(f"document.body.dataset.seq === '{head(table.daemon)}'")
    game = watcher.page.evaluate("document.body.dataset.game")
    watcher.page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        [f"companion.head.{game}", '{"seq": 2, "words": "apple river stone lamp", "mark": "000000000000"}'],
    )
    watcher.goto("table")
    watcher.page.wait_for_selector("#warning:not([hidden])")
    assert "apple river stone lamp" in watcher.page.text_content("#warning")


def test_a_phone_left_open_rejoins_after_a_restart_and_follows_live(browser, table, shots):
    anna = phone(browser, table, shots, "restart")
    anna.join().pair(ANNA)
    anna.goto("table")
    anna.page.wait_for_function("document.body.dataset.live === '1'")
    anna.mark()
    table.restart()
    play(table.daemon, "roll 3 4", "buy")
    seq = head(table.daemon)
    # the stream reconnects by itself to the restarted box, which knows the phone's role again
    anna.page.wait_for_function(f"document.body.dataset.seq === '{seq}'", timeout=RESTART_MS)
    anna.page.wait_for_selector(
        f"#player-1[data-cash='{table.daemon.owner.table.state.cash('Anna')}']", timeout=RESTART_MS
    )
    assert anna.role() == "player" and anna.page.evaluate("document.body.dataset.me") == "Anna"
    assert anna.not_reloaded()
    anna.shot("after-restart")
    # closing the browser's page and opening the address again: still Anna's phone
    anna.reopen().goto("")
    assert anna.role() == "player"


def test_a_phone_the_restarted_box_does_not_know_says_so_and_shows_the_join_page(browser, table, shots):
    watcher = phone(browser, table, shots, "forgotten")
    watcher.join().goto("table")
    watcher.page.wait_for_function("document.body.dataset.live === '1'")
    table.restart(forget_phones=True)
    watcher.page.wait_for_selector("#warning:not([hidden])", timeout=RESTART_MS)
    assert "join again" in watcher.page.text_content("#warning")
    watcher.shot("forgotten")
    watcher.page.wait_for_selector("#join-form", timeout=RESTART_MS)
    # the QR code scanned again joins at the first try
    watcher.join()


@pytest.mark.parametrize("locale", ["en-GB", "ru-RU"])
def test_a_phone_whose_role_the_banker_revoked_is_told_and_shown_the_join_page(browser, table, shots, locale):
    anna = phone(browser, table, shots, f"revoked-{locale}", locale=locale)
    banker = phone(browser, table, shots, f"banker-{locale}", locale=locale)
    anna.join().pair(ANNA)
    anna.goto("table")
    banker.join().banker().goto("join")
    banker.page.wait_for_selector("#kept li[data-role=player]")
    banker.shot("kept")
    banker.page.click("#kept li[data-role=player] form.revoke button")
    # the Roles page reloads without her
    banker.page.wait_for_function("!document.querySelector('#kept li[data-role=player]')")
    play(table.daemon, "roll 3 4")  # the next event refreshes Anna's page: her role is gone, said plainly
    anna.page.wait_for_selector("#warning:not([hidden])", timeout=RESTART_MS)
    anna.shot("role-lost")
    anna.page.wait_for_selector("#join-form", timeout=RESTART_MS)
    assert anna.role() == "visitor"
