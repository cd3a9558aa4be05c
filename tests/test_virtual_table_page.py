"""The virtual table's page in Debian's chromium, served by VirtualTableServer (waitress) around the fake box
of tests/test_web_virtual.py: what a newcomer sees and what each click, hold and key reaches.

Screenshots are kept as artefacts in a temporary folder (its path is printed; run with -s to see it).
Without /usr/bin/chromium these tests fail in one line (tests/browser.py)."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from browser import chromium
from test_web_virtual import FakeTable

from web.app import create_app
from web.serve import VirtualTableServer


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = tmp_path_factory.mktemp("virtual-table-screenshots")
    yield folder
    print(f"\nvirtual table screenshots: {folder}")


@pytest.fixture(scope="module")
def browser():
    with chromium() as context:
        yield context


@pytest.fixture
def table():
    return FakeTable()


@pytest.fixture
def server(table):
    server = VirtualTableServer(create_app(table, SSE_POLL=0.1), port=0).start()
    yield server
    began = time.monotonic()
    server.stop()
    assert time.monotonic() - began < 3, "stop() waited on the open page's stream"


@pytest.fixture
def page(browser, server):
    page = browser.new_page()
    page.goto(server.url)
    page.wait_for_function("document.getElementById('oled').complete")
    page.evaluate("window.notReloaded = true")
    yield page
    page.close()


def until(check, timeout=5.0):
    """Wait for check() to be true (the server answers on its own threads); returns its last value."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.02)


def settle(table, count):
    """The calls once `count` have arrived and nothing more came for a while (a late, unwanted press would)."""
    until(lambda: len(table.calls) >= count)
    time.sleep(0.4)
    return list(table.calls)


def test_the_page_shows_the_oled_picture_scaled_up_sharp(page, shots):
    oled = page.locator("#oled")
    assert oled.is_visible()
    natural = page.evaluate("[oled.naturalWidth, oled.naturalHeight]")
    assert natural == [128, 64]
    box = oled.bounding_box()
    assert box["width"] >= 3 * 128 and abs(box["width"] - 2 * box["height"]) < 2
    assert page.evaluate("getComputedStyle(oled).imageRendering") == "pixelated"
    page.screenshot(path=shots / "page.png", full_page=True)


def test_ok_changes_the_picture_on_the_page_without_a_reload(page, table, shots):
    before = page.locator("#oled").screenshot(path=shots / "oled-before-ok.png")
    page.click("#btn-ok")
    assert until(lambda: table.calls) == [("press", "ok", False)]
    page.wait_for_function("oled.src.endsWith('/frame.png?v=2') && oled.complete && oled.naturalWidth === 128")
    after = page.locator("#oled").screenshot(path=shots / "oled-after-ok.png")
    assert after != before
    assert page.evaluate("window.notReloaded") is True


def test_a_picture_drawn_by_the_box_itself_reaches_the_page(page, table):
    table.change()
    table.change()
    page.wait_for_function("oled.src.endsWith('/frame.png?v=3')", timeout=5000)
    assert table.calls == []


def test_a_click_is_a_short_press_and_a_hold_of_a_second_a_long_one(page, table, shots):
    page.click("#btn-up")
    assert settle(table, 1) == [("press", "up", False)]

    box = page.locator("#btn-down").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    assert until(lambda: len(table.calls) == 2, timeout=3) and table.calls[-1] == ("press", "down", True)
    page.screenshot(path=shots / "holding-down.png")  # the long press arrived while the button is still held
    page.mouse.up()
    assert settle(table, 2) == [("press", "up", False), ("press", "down", True)]  # letting go adds nothing


def test_a_short_hold_is_still_a_short_press(page, table):
    box = page.locator("#btn-back").bounding_box()
    page.mouse.move(box["x"] + 5, box["y"] + 5)
    page.mouse.down()
    time.sleep(0.3)
    page.mouse.up()
    assert settle(table, 1) == [("press", "back", False)]


def test_the_hold_controls_and_shift_click_are_long_presses(page, table):
    page.click("#hold-back")
    page.click("#btn-ok", modifiers=["Shift"])
    assert settle(table, 2) == [("press", "back", True), ("press", "ok", True)]


def test_clicking_a_card_taps_it_on_the_reader_and_roll_rolls(page, table):
    page.click('.card[data-uid="04B2C3D4E5F607"]')
    page.click("#btn-roll")
    page.click('.card[data-uid="04A1B2C3"]')
    assert settle(table, 3) == [("tap", "04B2C3D4E5F607"), ("roll",), ("tap", "04A1B2C3")]


def test_another_card_is_tapped_by_its_uid(page, table):
    page.fill("#tap-uid", "04C0FFEE")
    page.press("#tap-uid", "Enter")  # typing in the box presses no OK
    page.click("#btn-new-card")
    calls = settle(table, 2)
    assert calls[0] == ("tap", "04C0FFEE") and len(calls) == 2
    assert calls[1][0] == "tap" and len(calls[1][1]) == 8 and calls[1][1] != "04C0FFEE"


def test_the_filter_finds_a_card_by_its_words_and_typing_presses_nothing(page, table):
    page.click("#card-filter")
    page.keyboard.type("CARD")  # R and Enter typed here are no ROLL, no OK
    page.keyboard.press("Enter")
    assert page.locator(".card:visible").all_inner_texts() == ["Anna's card"]
    assert page.locator('.group[data-kind="plot"]').is_hidden()
    page.fill("#card-filter", "cinema")
    page.click('.card[data-uid="0A0B0C0D"]')
    assert settle(table, 1) == [("tap", "0A0B0C0D")]
    page.fill("#card-filter", "")
    assert page.locator(".card:visible").count() == 3


def test_the_keyboard_presses_the_buttons_and_rolls(page, table):
    for key in ("ArrowUp", "ArrowDown", "Enter", "Backspace", "Escape", "r", "Shift+Enter"):
        page.keyboard.press(key)
    page.keyboard.down("ArrowDown")
    time.sleep(1.0)
    page.keyboard.up("ArrowDown")
    assert settle(table, 8) == [
        ("press", "up", False),
        ("press", "down", False),
        ("press", "ok", False),
        ("press", "back", False),
        ("press", "back", False),
        ("roll",),
        ("press", "ok", True),
        ("press", "down", True),
    ]
    assert page.evaluate("window.notReloaded") is True  # Backspace did not go back a page


def test_enter_on_a_focused_button_is_ok_alone_and_space_presses_the_focused_button(page, table):
    page.focus("#btn-up")
    page.keyboard.press("Enter")
    page.focus("#btn-back")
    page.keyboard.press("Space")
    assert settle(table, 2) == [("press", "ok", False), ("press", "back", False)]


def test_cards_enrolled_during_the_game_appear_and_the_status_follows_the_reader(page, table, shots):
    table.cards_list.append({"uid": "04D00D00", "words": "Vera's card", "kind": "player"})
    table.reader = "offline"
    table.words = "the reader is offline: check its cable"
    new_card = page.locator('.card[data-uid="04D00D00"]')
    new_card.wait_for(timeout=6000)
    assert "Vera's card" in new_card.inner_text()
    page.wait_for_function("document.getElementById('reader').textContent === 'reader: offline'", timeout=4000)
    assert page.inner_text("#status-words") == "the reader is offline: check its cable"
    page.screenshot(path=shots / "reader-offline.png", full_page=True)
    new_card.click()
    assert until(lambda: table.calls) == [("tap", "04D00D00")]


def test_a_refusal_is_shown_on_the_page(page, table):
    table.refuse["tap"] = ValueError("not one of this box's cards: enrol it first")
    page.click('.card[data-uid="04A1B2C3"]')
    page.wait_for_function("document.getElementById('message').textContent.includes('enrol it first')")


def test_the_page_says_when_the_box_is_gone(browser, table):
    server = VirtualTableServer(create_app(table, SSE_POLL=0.1), port=0).start()
    page = browser.new_page()
    try:
        page.goto(server.url)
        server.stop()
        page.wait_for_function(
            "document.getElementById('reader').textContent === 'the box is not answering'", timeout=5000
        )
        page.click("#btn-ok")
        page.wait_for_function("document.getElementById('message').textContent === 'the box is not answering'")
    finally:
        page.close()
        server.stop()


def test_a_taken_port_is_one_line_naming_it(server):
    with pytest.raises(OSError) as caught:
        VirtualTableServer(create_app(FakeTable()), port=server.port).start()
    assert str(caught.value) == (
        f"the virtual table cannot listen on 127.0.0.1 port {server.port}: the port is already in use"
    )


def test_without_chromium_a_browser_test_fails_in_one_line(tmp_path):
    """Not a skip: a machine without the browser must not pass the page's tests having run none of them."""
    (tmp_path / "test_needs_chromium.py").write_text(
        "import browser\n"
        "browser.CHROMIUM = '/nonexistent/chromium'\n"
        "def test_page():\n"
        "    with browser.chromium():\n"
        "        pass\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path), str(tmp_path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parent)},
    )
    assert done.returncode == 1, done.stdout
    assert "1 failed" in done.stdout and "skipped" not in done.stdout
    failure = [line for line in done.stdout.splitlines() if "chromium is missing" in line]
    assert failure and failure[0].endswith("chromium is missing: apt-get install chromium"), done.stdout
    assert "Traceback" not in done.stdout
