"""The phone page in Debian's chromium: a real daemon on simulated hardware serves it on loopback (its own
waitress server, phone.host/phone.port), and each phone is a browser context of its own (its own cookies
and localStorage). Two phones join by the table code and claim their seats (a player card on the simulated
reader, through its firmware; a seat PIN the banker's phone set), one pays the other and both pages follow
without a reload; bids in an auction from two phones, hammered down from the banker's phone; a phone
offline during an undo sees the correction and what to put back once it is back (its stream resumed from
Last-Event-ID); a page under 4x CPU throttling still follows within a few seconds; English and Russian
switched on the page, every view's transfer under 100 KB, no internal id shown. Screenshots are kept in
pytest's tmp dir (the path is printed); four of one run, cut to 32 colours, are in tests/phone_shots/."""

import re
import socket
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.daemon.config import Config, defaults
from companion.daemon.main import Daemon, wait_for
from companion.hw.buttons import Press

sys.path.insert(0, str(Path(__file__).parent))
from browser import ARGS, CHROMIUM, require_chromium  # noqa: E402

ANNA, BORIS, VERA = "0A000001", "0A000002", "0A000003"
BANKER_PIN = "2468"
WAIT_MS = 8000  # how long a page may take to show what a commit changed (a loaded 2-core machine)
PAGE_LIMIT = 100 * 1024  # issue 11: under 100 KB a page, with its CSS and script


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def browser():
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    where = tmp_path_factory.mktemp("phone-shots")
    yield where
    print(f"\nphone page screenshots: {where}")


@pytest.fixture
def quiet():
    """phone.auction_quiet_seconds for the box (0: the host closes auctions); a test may override it."""
    return 0.0


@pytest.fixture
def box(tmp_path, quiet):
    values = dict(defaults().values)
    values.update(
        {
            "games_dir": str(tmp_path / "games"),
            "virtual_table.port": 0,
            "phone.host": "127.0.0.1",
            "phone.port": free_port(),
            "phone.banker_pin": BANKER_PIN,
            "phone.auction_quiet_seconds": quiet,
        }
    )
    daemon = Daemon(Config(values, "(test)"), out=lambda line: None).start()
    try:
        assert daemon.phone_server is not None, "the phone page's server did not start"
        assert daemon.handle({"op": "start", "edition": "elite", "players": ["Anna", "Boris", "Vera"], "seed": 1})["ok"]
        for uid, seat in ((ANNA, "1"), (BORIS, "2"), (VERA, "3")):
            assert daemon.handle({"op": "enrol", "kind": "player", "ref": seat, "uid": uid})["ok"]
        assert wait_for(lambda: daemon.link.state.state == "ready", 10.0)
        yield daemon
    finally:
        daemon.stop()


def play(daemon, *lines):
    """Commands submitted through the daemon's single writer, as the buttons and the reader do."""
    for line in lines:
        actor, _, command = line.rpartition(": ")
        daemon.owner.submit(actor or "table", command)  # a refusal raises


def head(daemon) -> int:
    return daemon.owner.table.head_seq


class Wifi:
    """A loopback TCP relay in front of the phone page: one phone's Wi-Fi. cut() drops every open connection
    (the stream included) and refuses new ones until mend(), as a phone asleep or out of range; the browser's
    own offline switch would leave an open event stream flowing."""

    def __init__(self, port: int):
        self.upstream = ("127.0.0.1", port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.up = threading.Event()
        self.up.set()
        self.open: list[socket.socket] = []
        self.lock = threading.Lock()
        self.closed = False
        threading.Thread(target=self._accept, daemon=True, name="wifi").start()

    def _accept(self):
        while not self.closed:
            try:
                phone, _ = self.listener.accept()
            except OSError:
                return
            if not self.up.is_set():
                phone.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                phone.close()  # a reset: the network is gone
                continue
            try:
                box = socket.create_connection(self.upstream)
            except OSError:
                phone.close()
                continue
            with self.lock:
                self.open += [phone, box]
            for a, b in ((phone, box), (box, phone)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source, sink):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def cut(self):
        self.up.clear()
        with self.lock:
            dropped, self.open = self.open, []
        for sock in dropped:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def mend(self):
        self.up.set()

    def close(self):
        self.closed = True
        self.cut()
        self.listener.close()


class Phone:
    """One phone: a browser context of its own (cookies, localStorage), one page, a name for screenshots."""

    def __init__(self, browser, box, name, shots, locale="en-GB", wifi=None):
        self.box, self.name, self.shots = box, name, shots
        self.root = f"http://127.0.0.1:{wifi.port}/phone/" if wifi is not None else box.phone_server.url + "phone/"
        self.context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale)
        self.page = self.context.new_page()
        self.page.set_default_timeout(WAIT_MS)
        self.events_requests: list = []  # the event stream's requests, to read their headers afterwards
        self.page.on("request", lambda r: self.events_requests.append(r) if "/phone/events" in r.url else None)

    def goto(self, path=""):
        self.page.goto(self.root + path)
        return self

    def join(self):
        """The QR code's address: the table code after # fills the join form and submits it."""
        self.page.goto(self.root + "#code=" + self.box.phone.table_code())
        self.page.wait_for_selector("#players")
        assert self.role() == "spectator"
        assert "code" not in self.page.evaluate("location.hash")  # the code left the address bar
        return self

    def pair(self, uid):
        """Ask to pair on the Roles page, then the player's card on the simulated reader (firmware, link, daemon)."""
        self.goto("join")
        self.page.click("#pair-go")
        self.page.wait_for_selector("#pair[data-state=waiting] #pair-code")
        code = self.page.text_content("#pair-code").strip()
        assert re.fullmatch(r"\d{3}", code), code
        self.box.sim.place(uid)
        time.sleep(0.15)
        self.box.sim.remove()
        # the card opened its player's menu on the box, "Phone … is mine" first: OK on it
        assert wait_for(
            lambda: (
                self.box.console.frame is not None and self.box.console.frame.lines[:1] == (f"Phone {code} is mine",)
            ),
            5.0,
        )
        self.box.owner.call(lambda: self.box._press(Press("ok")))
        self.page.wait_for_function("document.body.dataset.role === 'player'")
        return code

    def banker(self):
        self.goto("join")
        self.page.click("#banker summary")
        self.page.fill("#banker-form input[name=pin]", BANKER_PIN)
        self.page.click("#banker-form button")
        self.page.wait_for_function("document.body.dataset.role === 'banker'")
        return self

    def role(self):
        return self.page.evaluate("document.body.dataset.role")

    def mark(self):
        """A mark on the window: it survives live updates and is gone after any reload."""
        self.page.evaluate("window.__notReloaded = true")

    def not_reloaded(self):
        return self.page.evaluate("window.__notReloaded === true")

    def cash(self, seat):
        return int(self.page.get_attribute(f"#player-{seat}", "data-cash"))

    def wait_cash(self, seat, amount):
        self.page.wait_for_selector(f"#player-{seat}[data-cash='{amount}']")

    def act(self, verb, *values, target=None):
        """Fill and send the `verb` form on the Act page (the one naming `target` when several)."""
        if "/phone/act" not in self.page.url:
            self.goto("act")
        form = f'form.act[data-verb="{verb}"]'
        if target is not None:
            form += f':has(input[name=arg][value="{target}"])'
        details = self.page.locator(f'details.group[data-verb="{verb}"]', has=self.page.locator(form))
        if details.get_attribute("open") is None:
            details.locator("summary").click()
        numbers = self.page.locator(f"{form} input[type=number][name=arg]")
        for i, value in enumerate(values):
            numbers.nth(i).fill(str(value))
        before = head(self.box)
        self.page.locator(form).locator("button.do").click()
        # a money action shows what it books first (issue 22): read it, then the second tap books it
        self.page.wait_for_selector(f"#result:not([hidden]), {form} .confirm:not([hidden])")
        confirm = self.page.locator(f"{form} .confirm:not([hidden])")
        if confirm.count():
            self.confirmed = confirm.locator(".confirm-lines").inner_text()
            self.shot(f"confirm-{verb}")
            confirm.locator(".confirm-do").click()
            self.page.wait_for_selector("#result:not([hidden])")
        assert wait_for(lambda: head(self.box) > before, 5.0), self.page.text_content("#result")
        return self.page.text_content("#result")

    def shot(self, label):
        self.page.screenshot(path=str(self.shots / f"{label}-{self.name}.png"), full_page=True)

    def reopen(self):
        """A new page in the same browser (its cookies and localStorage kept)."""
        self.page = self.context.new_page()
        self.page.set_default_timeout(WAIT_MS)
        return self

    def close(self):
        self.context.close()


@pytest.fixture
def phones(browser, box, shots):
    made = []

    def make(name, **kw):
        phone = Phone(browser, box, name, shots, **kw)
        made.append(phone)
        return phone

    yield make
    for phone in made:
        phone.close()


def test_two_phones_claim_their_seats_and_a_payment_shows_on_both_without_reload(box, phones):
    anna, boris, banker = phones("anna"), phones("boris"), phones("banker")
    boris.join()  # watching the table while Anna pairs
    anna.join()
    code = anna.pair(ANNA)
    assert anna.page.evaluate("document.body.dataset.me") == "Anna"
    # what the box said while Anna's phone waited reached the other phone live: the pairing code to tap for
    boris.page.wait_for_function(f"document.getElementById('notice').textContent.includes('{code}')")
    # Boris's seat by a PIN the banker set on the Game page (a table without a reader)
    banker.join().banker().goto("game")
    banker.page.fill("form.seat-pin:has(input[name=seat][value='2']) input[name=pin]", "7531")
    with banker.page.expect_response(lambda r: r.url.endswith("/phone/seat-pin")) as answer:
        banker.page.click("form.seat-pin:has(input[name=seat][value='2']) button")
    assert answer.value.ok and answer.value.json()["set"] is True
    boris.goto("join")  # joined already
    boris.page.click("#claim summary")
    boris.page.fill("#claim-form input[name=seat]", "2")
    boris.page.fill("#claim-form input[name=pin]", "7531")
    boris.page.click("#claim-form button")
    boris.page.wait_for_function("document.body.dataset.role === 'player' && document.body.dataset.me === 'Boris'")
    boris.goto("table")
    assert (boris.cash(1), boris.cash(2)) == (2000, 2000)
    anna.goto("act")
    assert (
        anna.page.get_attribute('form.act[data-verb="pay"]:has(input[value="Boris"]) input[type=number]', "max")
        == "2000"
    )
    boris.mark(), anna.mark()
    seen = boris.page.text_content("#head-seq")

    said = anna.act("pay", 150, target="Boris")

    assert "Anna" in said and "Boris" in said and "150" in said
    boris.wait_cash(1, 1850)
    boris.wait_cash(2, 2150)
    assert boris.page.text_content("#head-seq") != seen
    # Anna's Act page followed too: the amount she may pay is now her new cash
    anna.page.wait_for_selector(
        'form.act[data-verb="pay"]:has(input[value="Boris"]) input[type=number][max="1850"]', state="attached"
    )
    assert anna.page.text_content("#head-seq") == boris.page.text_content("#head-seq") == str(head(box))
    assert anna.not_reloaded() and boris.not_reloaded()
    assert box.owner.call(lambda: box.owner.table.state.cash("Boris")) == 2150
    # Boris may not pay from Anna's pocket: his Act page offers only his own payments
    boris.goto("act")
    payers = boris.page.eval_on_selector_all(
        'form.act[data-verb="pay"]', "forms => forms.map(f => f.querySelector('input[name=arg]').value)"
    )
    payees = boris.page.eval_on_selector_all(
        'form.act[data-verb="pay"]', "forms => forms.map(f => f.querySelectorAll('input[name=arg]')[1].value)"
    )
    assert payers == ["Boris", "Boris"] and payees == ["Anna", "Vera"]
    anna.shot("a-paid"), boris.shot("a-paid")


def test_an_auction_with_bids_from_two_phones(box, phones):
    play(box, "roll 3 4", "decline")  # Anna declines the Chocolate factory: it goes to auction
    anna, boris, banker = phones("anna"), phones("boris"), phones("banker")
    anna.join().pair(ANNA)
    boris.join().pair(BORIS)
    banker.join().banker()
    anna.goto("act"), boris.goto("act")
    anna.mark()
    bid = 'form.act[data-verb="bid"] input[type=number][name=arg]'
    first = int(boris.page.get_attribute(bid, "min"))
    boris.act("bid", first + 55)
    # Anna's page follows: the lowest bid she may make rose above Boris's, without a reload
    anna.page.wait_for_function(f"parseInt(document.querySelector('{bid}').min, 10) > {first + 55}")
    assert anna.not_reloaded()
    lowest = int(anna.page.get_attribute(bid, "min"))
    anna.act("bid", lowest)
    # Boris's page now offers at least Anna's bid
    boris.page.wait_for_function(f"parseInt(document.querySelector('{bid}').min, 10) > {lowest}")
    anna.shot("b-bid"), boris.shot("b-bid")
    # the host closes it from the banker's phone; both players' boards show the new owner live
    anna.goto("board"), boris.goto("board")
    boris.mark()
    banker.act("hammer")
    for phone in (anna, boris):
        phone.page.wait_for_selector("#plot-food1[data-owner='Anna']")
    assert boris.not_reloaded()
    assert box.owner.call(lambda: box.owner.table.state.owner.get("food1")) == "Anna"
    assert box.owner.call(lambda: box.owner.table.state.cash("Anna")) == 2000 - lowest
    boris.shot("b-hammered")


@pytest.mark.parametrize("quiet", [3.0])
def test_the_box_closes_a_quiet_auction_and_the_phones_hear_going_once_twice(box, phones):
    anna, boris = phones("anna"), phones("boris")
    anna.join().goto("board")
    boris.join().pair(BORIS)
    boris.goto("act")
    play(box, "roll 3 4", "decline")  # the auction opens (and its quiet time starts) with the phones ready
    boris.page.wait_for_selector('form.act[data-verb="bid"]')
    heard = []
    anna.page.expose_function("heard", lambda text: heard.append(text))
    anna.page.evaluate("""new MutationObserver(() => window.heard(document.getElementById('notice').textContent))
        .observe(document.getElementById('notice'), {childList: true, characterData: true, subtree: true})""")
    boris.act("bid", 60)
    anna.page.wait_for_selector("#plot-food1[data-owner='Boris']")
    assert any("going once" in said for said in heard) and any("going twice" in said for said in heard), heard
    assert [i for i, said in enumerate(heard) if "going once" in said][0] < [
        i for i, said in enumerate(heard) if "going twice" in said
    ][0]
    assert box.owner.table.game.events[-1].command == "hammer"


def test_a_double_tap_pays_once(box, phones):
    anna = phones("anna")
    anna.join().pair(ANNA)
    anna.goto("act")
    form = 'form.act[data-verb="pay"]:has(input[value="Boris"])'
    anna.page.click('details.group[data-verb="pay"] > summary')
    anna.page.fill(f"{form} input[type=number]", "25")
    before = head(box)
    anna.page.click(f"{form} button.do")  # what it books is shown first (issue 22): the double tap confirms
    anna.page.dblclick(f"{form} .confirm-do")
    anna.page.wait_for_selector("#result:not([hidden])")
    time.sleep(0.5)
    assert head(box) == before + 1
    assert box.owner.call(lambda: box.owner.table.state.cash("Anna")) == 1975


def test_the_banker_ends_and_archives_the_game_and_every_phone_goes_back_to_joining(box, phones):
    anna, banker = phones("anna"), phones("banker")
    anna.join().pair(ANNA)
    anna.goto("table")
    banker.join().banker().goto("game")
    banker.page.click("#end-form button")
    anna.page.wait_for_selector("#turn b", state="attached")
    anna.page.wait_for_function("document.getElementById('turn').textContent.includes('over')")
    banker.page.wait_for_selector("#archive-form button:not([disabled])")
    banker.page.click("#archive-form button")
    # the stream says another game (none) is on the box: Anna's page reloads by itself, her session ended
    anna.page.wait_for_selector("#join-form")
    assert anna.role() == "visitor" and anna.page.locator("#players").count() == 0
    assert box.owner.table is None


def test_a_phone_offline_during_an_undo_sees_it_announced_when_it_is_back(box, phones):
    wifi = Wifi(box.phone_server.port)
    watcher, banker = phones("watcher", wifi=wifi), phones("banker")
    watcher.join().goto("ledger")
    banker.join().banker()
    play(box, "roll 3 4", "buy")  # Anna buys the Chocolate factory (#3)
    bought = head(box)
    watcher.page.wait_for_selector(f"#event-{bought}")
    watcher.mark()
    asked = len(watcher.events_requests)

    wifi.cut()
    # the page notices it lost the stream (onerror: "reconnecting") before anything else happens
    watcher.page.wait_for_selector("#notice:not([hidden])")
    banker.goto(f"undo?seq={bought}")
    banker.page.wait_for_selector("#undo-plan")
    assert "Chocolate factory" in banker.page.text_content("#undo-plan")
    banker.page.click("#undo-form button")
    assert wait_for(lambda: head(box) == bought + 1, 5.0)
    undo = head(box)
    time.sleep(1.0)
    assert watcher.page.locator(f"#event-{undo}").count() == 0  # offline: it could not know yet
    watcher.shot("c-offline")

    wifi.mend()
    watcher.page.wait_for_selector("#announce:not([hidden])", timeout=15000)
    said = watcher.page.text_content("#announce")
    assert "Undone: #3" in said and "Chocolate factory" in said and "Put back:" in said
    watcher.page.wait_for_selector(f"#event-{undo}.correction")
    watcher.page.wait_for_selector(f"#event-{bought}.reversed")
    assert watcher.not_reloaded()
    # it came back by its own reconnection, naming the last event it had seen
    resumed = [h for h in (r.all_headers() for r in watcher.events_requests[asked:]) if h.get("last-event-id")]
    assert resumed and resumed[-1]["last-event-id"] == str(bought)
    watcher.shot("c-back")
    watcher.page.click("#announce-ok")
    assert watcher.page.locator("#announce").is_hidden()
    wifi.close()


def test_a_page_under_4x_cpu_throttling_still_follows_within_seconds(box, phones):
    slow = phones("slow")
    slow.join()
    cdp = slow.context.new_cdp_session(slow.page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    try:
        slow.goto("table")
        slow.page.wait_for_selector("#players")
        took = []
        for n in range(1, 4):
            play(box, "Anna: pay Anna Boris 10")
            started = time.monotonic()
            slow.wait_cash(1, 2000 - 10 * n)
            took.append(time.monotonic() - started)
        slow.shot("d-throttled")
        print(f"\n4x throttled page: a commit shown after {', '.join(f'{t * 1000:.0f}' for t in took)} ms")
        assert slow.cash(2) == 2030
    finally:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})


VIEWS_ANY = ("table", "board", "ledger", "player/1", "summary", "join")


def page_weight(phone, path):
    """Bytes that crossed the wire for one view, cache off: the document, its CSS, script and images."""
    sizes = []

    def seen(response):
        if response.request.resource_type in ("document", "stylesheet", "script", "image", "font"):
            sizes.append(response)

    phone.page.on("response", seen)
    try:
        phone.goto(path)
        phone.page.wait_for_load_state("load")
    finally:
        phone.page.remove_listener("response", seen)
    total = 0
    for response in sizes:
        size = response.request.sizes()
        total += size["responseBodySize"] + size["responseHeadersSize"]
    return total


def test_english_and_russian_on_the_page_and_every_view_under_100_kb(box, phones):
    play(box, "roll 3 4", "buy", "end", "roll 5 6")
    banker = phones("banker")
    banker.join().banker()
    cdp = banker.context.new_cdp_session(banker.page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    weights = {}
    for path in VIEWS_ANY + ("act", "undo", "game"):
        weights[path] = page_weight(banker, path)
    print("\nphone page transfer, bytes: " + ", ".join(f"{p} {w}" for p, w in weights.items()))
    assert all(0 < w < PAGE_LIMIT for w in weights.values()), weights

    banker.goto("ledger")
    assert banker.page.get_attribute("html", "lang") == "en"
    assert banker.page.text_content("#nav-table") == "Table"
    english = banker.page.text_content("#event-2")
    assert "rolls" in english
    banker.page.click("#lang-ru")
    banker.page.wait_for_selector("html[lang=ru]")
    assert banker.page.text_content("#nav-table") == "Стол"
    assert banker.page.text_content("#turn").startswith("Ход")
    russian = banker.page.text_content("#event-2")
    assert re.search("[а-яё]", russian) and "rolls" not in russian  # the game's words too, from the catalogues
    banker.shot("e-ru-ledger")
    banker.goto("table")
    banker.shot("e-ru-table")
    banker.page.click("#lang-en")
    banker.page.wait_for_selector("html[lang=en]")  # and back
    assert banker.page.text_content("#nav-table") == "Table"
    # a phone whose language is Russian gets Russian from its first page
    ru = phones("ru-phone", locale="ru-RU")
    ru.join()
    assert ru.page.get_attribute("html", "lang") == "ru" and ru.page.text_content("#nav-board") == "Поле"


INTERNAL = re.compile(r"\bNone\b|built-in method|<function |object at 0x|\{\w+\}")


def test_no_view_shows_an_internal_id_in_either_language(box, phones):
    """What a person reads on every view, as a player and as the banker: never None, a Python repr or a
    template's unfilled {field}."""
    play(box, "roll 3 4", "buy", "end")
    anna, banker = phones("anna"), phones("banker")
    anna.join().pair(ANNA)
    banker.join().banker()
    found = []
    for phone in (anna, banker):
        for lang in ("en", "ru"):
            phone.goto("table")
            if phone.page.get_attribute("html", "lang") != lang:
                phone.page.click(f"#lang-{lang}")
                phone.page.wait_for_selector(f"html[lang={lang}]")
            for path in VIEWS_ANY + ("act", "me") + (("undo", "game") if phone is banker else ()):
                phone.goto(path)
                shown = phone.page.evaluate("document.body.textContent")  # closed <details> too
                hit = INTERNAL.search(shown)
                if hit:
                    found.append(
                        f"{phone.name} {lang} /phone/{path}: {' '.join(shown[max(0, hit.start() - 30) : hit.end() + 20].split())!r}"
                    )
    assert not found, "\n".join(found)


# ----- what a person at the table would notice; these found faults in the page (see each docstring) -----------


def test_the_banker_sees_a_seat_pin_was_set(box, phones):
    """Setting a seat's PIN on the Game page says so, naming the player, so the banker can tell it took."""
    banker = phones("banker")
    banker.join().banker().goto("game")
    form = "form.seat-pin:has(input[name=seat][value='2'])"
    banker.page.fill(f"{form} input[name=pin]", "7531")
    banker.page.click(f"{form} button")
    banker.page.wait_for_selector("#result:not([hidden])")
    assert "Boris" in banker.page.text_content("#result")


def test_a_live_update_whose_refresh_failed_is_fetched_again(box, phones):
    """The event arrives on the open stream but fetching the view's live part fails (a Wi-Fi blip): once
    the network is back the page shows the commit (it tries again), not the old figures until the next event."""
    watcher = phones("watcher")
    watcher.join().goto("table")
    watcher.page.wait_for_function("document.body.dataset.live === '1'")  # the stream is open (it flows on)
    watcher.context.set_offline(True)  # chromium keeps an open event stream flowing; new requests fail
    play(box, "Anna: pay Anna Boris 10")
    watcher.page.wait_for_function(f"document.body.dataset.seq === '{head(box)}'")  # the event came in
    watcher.context.set_offline(False)
    watcher.page.wait_for_selector("#player-1[data-cash='1990']")


def test_a_page_reopened_after_an_undo_announces_it(box, phones):
    """A phone's browser that dropped the page while locked (mobile browsers discard background tabs) opens
    it again: the page remembers the last head it saw (localStorage), so it can and must announce the
    correction it missed and what to put back, as a page that kept its stream does."""
    watcher, banker = phones("watcher"), phones("banker")
    watcher.join().goto("ledger")
    banker.join().banker()
    play(box, "roll 3 4", "buy")
    watcher.page.wait_for_selector(f"#event-{head(box)}")
    watcher.page.close()
    banker.goto("undo?seq=3")
    banker.page.click("#undo-form button")
    assert wait_for(lambda: head(box) == 4, 5.0)
    watcher.reopen().goto("ledger")
    watcher.page.wait_for_selector("#event-4.correction")
    watcher.page.wait_for_selector("#announce:not([hidden])")
    assert "Put back:" in watcher.page.text_content("#announce")


@pytest.mark.parametrize(
    "seen, says",
    [
        (9, "went back"),  # the box restored from an older copy: this phone saw more than the box now holds
        (2, "forked"),  # the same number with other head words: the history was rewritten, not extended
    ],
)
def test_a_phone_whose_remembered_head_the_box_no_longer_has_warns(box, phones, seen, says):
    """The phone says so in the words of the head it saw, rather than quietly following the ledger."""
    watcher = phones("watcher")
    watcher.join().goto("table")
    play(box, "roll 3 4", "buy")
    watcher.page.wait_for_function(f"document.body.dataset.seq === '{head(box)}'")
    game = watcher.page.evaluate("document.body.dataset.game")
    watcher.page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        [f"companion.head.{game}", f'{{"seq": {seen}, "words": "apple river stone lamp"}}'],
    )
    watcher.goto("table")
    watcher.page.wait_for_selector("#warning:not([hidden])")
    warning = watcher.page.text_content("#warning")
    assert says in warning and f"#{seen}" in warning and "apple river stone lamp" in warning


def test_a_trade_is_accepted_after_reading_its_terms_and_the_auctions_lead_shows_live(box, phones):
    """Issue 22: the offer's line names its terms, the tap shows what will be booked and books nothing until
    the second tap; every phone's header follows an auction's leading bid without a reload (English, Russian)."""
    anna, boris, vera = phones("anna"), phones("boris", locale="ru-RU"), phones("vera")
    anna.join().pair(ANNA)
    boris.join().pair(BORIS)
    vera.join().goto("board")
    play(box, "roll 3 4", "buy")
    offer = box.owner.submit("Anna", "trade Anna Boris give food1 get 100").seq
    boris.goto("act")
    form = f'form.act[data-verb="accept"]:has(input[name=arg][value="{offer}"])'
    assert f"№ {offer} (Anna → Boris: «Шоколадная фабрика» в обмен на 100)" in boris.page.text_content(form)
    before = head(box)
    boris.page.locator(form).locator("button.do").click()
    boris.page.wait_for_selector(f"{form} .confirm:not([hidden])")
    boris.shot("confirm-accept-ru")
    assert "Шоколадная фабрика" in boris.page.text_content(f"{form} .confirm-lines") and head(box) == before
    boris.page.locator(form).locator(".confirm-do").click()
    assert wait_for(lambda: head(box) == before + 1, 5.0)
    assert box.owner.call(lambda: box.owner.table.state.owner["food1"]) == "Boris"
    play(box, "Anna: end", "roll 1 2", "decline")  # Boris declines: an auction opens
    vera.page.wait_for_selector("#waiting:has-text('no bids yet')")
    vera.mark()
    play(box, "bid Anna 70")
    vera.page.wait_for_selector("#waiting:has-text('leading bid: Anna, 70')")
    boris.goto("table")
    boris.page.wait_for_selector("#waiting:has-text('высшая ставка: Anna, 70')")
    assert vera.not_reloaded()
    vera.shot("auction-lead"), boris.shot("auction-lead-ru")
