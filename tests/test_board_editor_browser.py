"""The banker's Our board page in Debian's chromium: a rent and a card corrected and saved from the page, a
wrong value refused in one line (English and Russian), two banker phones saving from the same version (the
later is told what the other changed, nothing lost), the counts of placeholders going down. Screenshots
are kept in pytest's tmp dir (the path is printed)."""

import sys
from pathlib import Path

from test_phone_browser import Phone, box, browser, quiet, shots

sys.path.insert(0, str(Path(__file__).parent))

__all__ = ["box", "browser", "quiet", "shots"]


def open_board(phone, base="elite"):
    phone.goto(f"our-board?base={base}")
    phone.page.wait_for_selector("#board-form")


def save_and_wait(phone):
    with phone.page.expect_response(lambda r: r.url.endswith("/phone/our-board/save")) as answer:
        phone.page.click("#board-save")
    return answer.value


def refusal(phone):
    """The refusal as the page shows it: the answer reaches the test before the page's script has written it."""
    phone.page.wait_for_selector("#result.error:not([hidden])")
    return phone.page.text_content("#result")


def test_the_banker_checks_the_board_on_the_phone(browser, box, shots):
    banker = Phone(browser, box, "banker", shots).join().banker()
    banker.goto("game")
    banker.page.click("#our-board-link")
    banker.page.wait_for_selector("#our-boards")
    open_board(banker)
    before = banker.page.text_content("#board-counts")
    assert before.startswith("Checked against a box") and "placeholders still: 68" in before
    banker.page.screenshot(path=str(shots / "our-board-en.png"), full_page=False)

    banker.page.fill('#cell-leisure1 input[data-path="cells.leisure1.rent"]', "4, 8, 16, 24, 32, 40")
    banker.page.check('#cell-leisure1 input.box-ok[value="cells.leisure1"]')
    banker.page.fill('#card-c01 textarea[data-path="decks.chance.c01.text"]', "Our CHANCE card")
    banker.page.select_option("#card-c01 .effect-do", "receive")
    banker.page.fill("#card-c01 .effect-param[data-key=amount]", "75")
    banker.page.locator("#card-c01").screenshot(path=str(shots / "our-board-card-en.png"))
    assert save_and_wait(banker).status == 200
    banker.page.wait_for_function("!document.getElementById('result').hidden")
    banker.page.wait_for_load_state("load")
    banker.page.wait_for_function(
        "document.getElementById('board-counts') && /placeholders still: 66/.test("
        "document.getElementById('board-counts').textContent)"
    )
    ed = box.boards.load("elite").edition
    assert ed.plots["leisure1"].rent == (4, 8, 16, 24, 32, 40)
    assert ed.cards["c01"].text == "Our CHANCE card" and ed.cards["c01"].effects == ({"do": "receive", "amount": 75},)

    # a wrong value: one line naming the plot, nothing saved
    version = box.boards.load("elite").version
    banker.page.fill('#cell-leisure2 input[data-path="cells.leisure2.rent"]', "4, 8")
    assert save_and_wait(banker).status == 400
    said = refusal(banker)
    assert "Casino (cells[2].rent)" in said or "cells[2].rent" in said
    assert box.boards.load("elite").version == version

    # two banker phones from the same version: the later one is told what changed
    second = Phone(browser, box, "banker2", shots, locale="ru-RU").join().banker()
    assert second.page.evaluate("document.body.dataset.lang") == "ru"  # the phone's own language
    open_board(second)
    open_board(banker)
    banker.page.fill('#cell-food1 input[data-path="cells.food1.price"]', "95")
    assert save_and_wait(banker).status == 200
    second.page.fill('#cell-food2 input[data-path="cells.food2.price"]', "105")
    assert save_and_wait(second).status == 409
    second.page.wait_for_selector("#board-changed:not([hidden])")
    assert "Шоколадная фабрика: цена" in second.page.text_content("#board-changed")  # in words, no internal id
    assert "Другой телефон" in refusal(second)
    second.page.screenshot(path=str(shots / "our-board-ru-conflict.png"), full_page=False)
    ed = box.boards.load("elite").edition
    assert ed.plots["food1"].price == 95 and ed.plots["food2"].price != 105


def test_a_cards_effect_is_typed_parameter_by_parameter(browser, box, shots):
    """Another effect kind chosen: its own parameters appear, each labelled in words; a wrong value is one line."""
    for language, locale, steps, refused in (
        ("en", "en-US", "Steps (back when negative)", "from -100 to 100"),
        ("ru", "ru-RU", "Клеток (назад, если меньше нуля)", "от -100 до 100"),
    ):
        banker = Phone(browser, box, f"effects-{language}", shots, locale=locale).join().banker()
        open_board(banker)
        banker.page.locator("#card-c03").screenshot(path=str(shots / f"our-board-effect-{language}.png"))
        assert banker.page.locator("#card-c03 .effect-param[data-key=cell]").count() == 1
        banker.page.select_option("#card-c03 .effect-do", "move_steps")
        banker.page.wait_for_selector("#card-c03 .effect-param[data-key=steps]")
        assert banker.page.locator("#card-c03 .effect-param[data-key=cell]").count() == 0
        assert steps in banker.page.text_content("#card-c03 .effect-params")
        version = box.boards.load("elite").version
        banker.page.fill("#card-c03 .effect-param[data-key=steps]", "500")
        assert save_and_wait(banker).status == 400
        said = refusal(banker)
        assert refused in said and steps in said and "\n" not in said.strip()
        banker.page.locator("#card-c03").screenshot(path=str(shots / f"our-board-effect-steps-{language}.png"))
        assert box.boards.load("elite").version == version
        banker.page.fill("#card-c03 .effect-param[data-key=steps]", "-3")
        assert save_and_wait(banker).status == 200
        assert box.boards.load("elite").edition.cards["c03"].effects == ({"do": "move_steps", "steps": -3},)
        banker.page.wait_for_load_state("load")
        banker.page.wait_for_selector("#board-form")
        assert banker.page.input_value("#card-c03 .effect-param[data-key=steps]") == "-3"
        box.boards.edit(
            "elite",
            box.boards.load("elite").version,
            {"decks.chance.c03.effects": [{"do": "move_to", "cell": "start"}]},
        )
