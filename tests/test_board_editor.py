"""The banker phone's editor of the table's own board, on a real daemon: only the banker edits; two
phones saving from the same version, the later is told what changed; a value refused in one line in
English and Russian; the board listed and chosen when a game starts, the game says once that it is not
checked against the box; and a fuzz over the editor's endpoints (no 500, nothing saved without the
banker, nothing saved half)."""

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_phone_views import Phone, config, start_box

from companion.daemon.main import Daemon, wait_for
from companion.editions import HERE, boards, load_edition


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    daemon = start_box(tmp_path_factory.mktemp("editor"))
    yield daemon
    daemon.stop()


def board_file(daemon, base="elite"):
    return daemon.boards.path(base)


def save(phone, version, values=None, effects=None, confirm=None, base="elite"):
    return phone.client.post(
        "/phone/our-board/save",
        json={
            "base": base,
            "version": version,
            "values": values or {},
            "effects": effects or {},
            "confirm": confirm or [],
        },
        headers={"X-CSRF-Token": phone.csrf, "Accept-Language": phone.language},
    )


def version_of(daemon, base="elite"):
    return daemon.boards.load(base).version


def test_only_the_banker_sees_or_saves_the_board(box):
    spectator = Phone(box).join()
    assert spectator.open("/phone/our-board?base=elite").status_code == 303
    before = board_file(box).read_bytes() if board_file(box).exists() else None
    answer = save(spectator, version_of(box), {"cells.leisure1.price": "1"})
    assert answer.status_code == 403 and "\n" not in answer.json["error"]
    assert spectator.client.get("/phone/our-board/export?base=elite").status_code == 403
    assert (board_file(box).read_bytes() if board_file(box).exists() else None) == before


def test_the_banker_corrects_a_rent_and_a_card_and_the_page_shows_it(box):
    banker = Phone(box).banker()
    page = banker.open("/phone/our-board?base=elite")
    assert page.status_code == 200 and b"Millionaire Elite" in page.data and b"placeholder" in page.data
    version = version_of(box)
    answer = save(
        banker,
        version,
        {"cells.leisure1.rent": "4, 8, 16, 24, 32, 40", "decks.chance.c01.text": "Bank error in your favour"},
        effects={"decks.chance.c01": [["receive", "amount = 75"]]},
        confirm=["cells.leisure1"],
    )
    assert answer.status_code == 200, answer.json
    ed = box.boards.load("elite").edition
    assert ed.plots["leisure1"].rent == (4, 8, 16, 24, 32, 40)
    assert ed.cards["c01"].effects == ({"do": "receive", "amount": 75},)
    assert boards.marks(ed)["decks.chance.c01"] == "confirmed"
    assert "Bank error in your favour" in banker.open("/phone/our-board?base=elite").data.decode()
    assert load_edition("elite").plots["leisure1"].rent != (4, 8, 16, 24, 32, 40)  # the shipped file stays


@pytest.mark.parametrize("language, words", [("en", "must list 6 amounts"), ("ru", "нужно сумм: 6")])
def test_a_wrong_value_is_one_line_naming_the_plot_and_nothing_is_saved(box, language, words):
    banker = Phone(box, language).banker()
    before = version_of(box)
    answer = save(banker, before, {"cells.leisure1.rent": "4, 8"})
    assert answer.status_code == 400 and words in answer.json["error"] and "\n" not in answer.json["error"]
    assert "Кинотеатр" in answer.json["error"]
    locked = save(banker, before, {"edition.start_cash": "1"})
    assert locked.status_code == 400
    bad_effect = save(banker, before, effects={"decks.chance.c02": [["fly_to_moon", ""]]})
    assert bad_effect.status_code == 400 and "fly_to_moon" in bad_effect.json["error"]
    assert version_of(box) == before


def test_two_banker_phones_the_later_save_is_told_what_changed(box):
    first, second = Phone(box).banker(), Phone(box, "ru").banker()
    version = version_of(box)
    assert save(first, version, {"cells.food1.price": "95"}).status_code == 200
    late = save(second, version, {"cells.food2.price": "105"})
    assert late.status_code == 409
    assert late.json["changed"] == ["cells.food1.price"] and "Другой телефон" in late.json["error"]
    assert "Шоколадная фабрика: цена" in late.json["error"] and "cells." not in late.json["error"]
    ed = box.boards.load("elite").edition
    assert ed.plots["food1"].price == 95 and ed.plots["food2"].price != 105  # neither lost, nothing half
    assert save(second, late.json["version"], {"cells.food2.price": "105"}).status_code == 200


def test_export_and_import_through_the_phone(box, tmp_path):
    banker = Phone(box).banker()
    exported = banker.client.get("/phone/our-board/export?base=elite")
    assert exported.status_code == 200 and b"[box]" in exported.data
    shared = banker.client.get("/phone/api/our-board/share?base=elite").json
    assert shared["text"].startswith("MB1:")
    version = version_of(box)
    answer = banker.client.post(
        "/phone/our-board/import",
        data={"csrf": banker.csrf, "version": str(version), "base": "elite", "text": shared["text"]},
    )
    assert answer.status_code == 200, answer.json
    for junk in (b"\x89PNG\r\n\x1a\nbinary", b"just some words", (HERE / "elite.toml").read_bytes()[:3000]):
        refused = banker.client.post(
            "/phone/our-board/import",
            data={
                "csrf": banker.csrf,
                "version": str(version_of(box)),
                "base": "elite",
                "file": (__import__("io").BytesIO(junk), "board.toml"),
            },
            content_type="multipart/form-data",
        )
        assert refused.status_code == 400 and refused.json["error"] and "\n" not in refused.json["error"]


def test_the_board_is_listed_and_a_game_started_on_it_says_once_it_is_not_checked(tmp_path):
    lines = []
    daemon = Daemon(config(tmp_path), out=lines.append).start()
    try:
        daemon.boards.edit("elite", 0, {"cells.leisure1.rent": [4, 8, 16, 24, 32, 40]})
        listed = list(daemon.editions())
        ids = [e for e, _ in listed]
        assert ids.index("our-elite") == ids.index("elite") + 1  # beside the shipped one
        assert dict(listed)["our-elite"] == "Millionaire Elite — our box"
        started = daemon.handle({"op": "start", "edition": "our-elite", "players": ["Anna", "Boris"], "seed": 1})
        assert started["ok"], started
        assert daemon.owner.table.rules.edition.plots["leisure1"].rent[0] == 4
        assert wait_for(
            lambda: any(
                "New game of Millionaire Elite — our box: Anna, Boris. This board is not "
                "checked against your box: 68 of 185" in line
                for line in lines
            )
        )
        assert sum("not checked against your box" in line for line in lines) == 1
        # a board damaged by hand cannot start a game, and the refusal says where
        assert daemon.handle({"op": "do", "command": "end_game"})["ok"] or daemon.handle({"op": "end"})["ok"]
        assert daemon.handle({"op": "archive"})["ok"]
        path = board_file(daemon)
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("price = 60", "price = -60", 1), encoding="utf-8")
        refused = daemon.handle({"op": "start", "edition": "our-elite", "players": ["Anna", "Boris"], "seed": 1})
        assert not refused["ok"] and "price" in refused["message"] and "cells[" in refused["message"]
        assert daemon.owner.table is None
    finally:
        daemon.stop()


# ----- the fuzz ----------------------------------------------------------------------------------

PATHS = [
    "cells.leisure1.price",
    "cells.leisure1.rent",
    "cells.leisure1.name",
    "cells.chance1.kind",
    "decks.chance.c01.text",
    "decks.fortune.f01.keep",
    "slot.reels",
    "extra.x",
    "options.jackpot_max_bet",
    "edition.start_cash",
    "cells.nosuch.price",
    "cells..x",
    "a" * 200,
    "industries.central.rent_by_count",
]
VALUES = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "1",
            "-1",
            "10, 20",
            "[1,2,3,4,5,6]",
            "true",
            '"x"',
            "1e999",
            "{a=1}",
            "[" * 50,
            "99999999999",
            "[" * 480 + "]" * 480,
        ]
    ),
    st.integers().map(str),
)
BODIES = st.one_of(
    st.fixed_dictionaries(
        {
            "base": st.sampled_from(["elite", "classic", "nope", "", "../x"]),
            "version": st.one_of(
                st.just("current"), st.just("current"), st.integers(-2, 40), st.text(max_size=5), st.none()
            ),
            "values": st.one_of(
                st.dictionaries(st.sampled_from(PATHS), VALUES, max_size=4),
                st.text(max_size=10),
                st.lists(st.integers(), max_size=3),
                st.none(),
            ),
            "effects": st.one_of(
                st.dictionaries(
                    st.sampled_from(["decks.chance.c01", "decks.x.y", "cells.start"]),
                    st.lists(st.lists(st.text(max_size=12), min_size=2, max_size=2), max_size=2),
                    max_size=2,
                ),
                st.none(),
                st.integers(),
            ),
            "confirm": st.one_of(st.lists(st.text(max_size=40), max_size=5), st.none(), st.text(max_size=5)),
        }
    ),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=10),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
        max_leaves=10,
    ),
)


@pytest.fixture(scope="module")
def fuzz_phones(box):
    return {"banker": Phone(box).banker(), "spectator": Phone(box).join(), "visitor": Phone(box)}


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    who=st.sampled_from(["banker", "spectator", "visitor"]),
    body=BODIES,
    endpoint=st.sampled_from(["/phone/our-board/save", "/phone/our-board/import"]),
    forged=st.booleans(),
)
def test_fuzz_the_editors_endpoints(box, fuzz_phones, who, body, endpoint, forged):
    phone = fuzz_phones[who]
    path = board_file(box)
    before = path.read_bytes() if path.exists() else None
    headers = {"X-CSRF-Token": "forged" if forged else phone.csrf}
    if isinstance(body, dict) and body.get("version") == "current":  # the version the page showed
        body = {**body, "version": box.boards.load(body["base"]).version if body["base"] in ("elite", "classic") else 0}
    if endpoint.endswith("import") and isinstance(body, dict):
        data = {k: json.dumps(v) if not isinstance(v, str) else v for k, v in body.items() if v is not None}
        data["text"] = str(body.get("values"))
        answer = phone.client.post(endpoint, data=data, headers=headers)
    else:
        answer = phone.client.post(
            endpoint, data=json.dumps(body), headers={**headers, "Content-Type": "application/json"}
        )
    assert answer.status_code != 500, answer.data
    assert answer.is_json and ("error" in answer.json) != (answer.status_code == 200)
    if answer.status_code != 200:
        assert "\n" not in answer.json["error"]
    after = path.read_bytes() if path.exists() else None
    if who != "banker" or forged or answer.status_code != 200:
        assert after == before  # nothing saved without the banker, nothing saved by a refusal
    if after is not None:  # whatever is kept is a whole board the loader takes
        load_edition(path)
    assert not [n for n in os.listdir(path.parent) if n.endswith(".tmp")] if path.parent.exists() else True
    assert box.app.extensions["phone"].failures == 0
    SEEN[(who, forged, answer.status_code)] = SEEN.get((who, forged, answer.status_code), 0) + 1


SEEN: dict = {}  # (role, forged token, status) -> answers: the fuzz reached saves that pass, not only refusals


def test_the_fuzz_reached_both_saves_and_refusals():
    assert SEEN.get(("banker", False, 200), 0) > 0 and SEEN.get(("banker", False, 400), 0) > 0, SEEN
    assert SEEN.get(("spectator", False, 403), 0) > 0


def test_the_banker_phone_starts_a_game_on_the_table_board_and_is_told_it_is_not_checked(tmp_path):
    daemon = start_box(tmp_path)
    try:
        banker = Phone(daemon, "ru").banker()
        assert daemon.handle({"op": "end"})["ok"] and daemon.handle({"op": "archive"})["ok"]
        assert "our-elite" not in banker.open("/phone/game").data.decode()
        daemon.boards.edit("elite", 0, {"cells.leisure1.price": 65})
        banker = Phone(daemon, "ru").banker()  # the role ended with the game: the banker joins again
        page = banker.open("/phone/game").data.decode()
        assert 'value="our-elite"' in page and "Миллионер-Elite — наша коробка" in page
        answer = banker.post("/phone/game/start", edition="our-elite", players="Аня\nБорис", aid="a" * 16)
        assert answer.status_code == 200, answer.json
        assert any("не сверено с вашей коробкой: заглушек 68 из 185" in line for line in answer.json["lines"])
        assert daemon.owner.table.rules.edition.plots["leisure1"].price == 65
    finally:
        daemon.stop()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_box_has_its_page_in_words(box, language):
    banker = Phone(box, language).banker()
    listing = banker.open("/phone/our-board")
    assert listing.status_code == 200
    for base in ("elite", "classic", "deluxe", "madmillionaire", "monopoly"):
        page = banker.open(f"/phone/our-board?base={base}")
        assert page.status_code == 200, base
        words = page.data.decode()
        assert 'id="board-form"' in words and ">None<" not in words and "(None)" not in words
        assert ("заглушек" if language == "ru" else "placeholders") in words
    assert banker.open("/phone/our-board?base=chess").status_code == 400


# ----- a card's effect: each parameter its own labelled input, in words (issue 23) ----------------------


@pytest.mark.parametrize(
    "language, amount, cell, kind, start",
    [("en", "Amount", "Cell", "Kind of cell", "START"), ("ru", "Сумма", "Клетка", "Вид клетки", "СТАРТ")],
)
def test_each_effect_parameter_is_its_own_labelled_input_in_words(box, language, amount, cell, kind, start):
    import re

    page = Phone(box, language).banker().open("/phone/our-board?base=elite").data.decode()
    card = page[page.index('id="card-c02"') : page.index('id="card-c03"')]  # pay 50
    assert re.search(amount + r'\s*<input type="number" class="effect-param" data-key="amount"[^>]*value="50"', card)
    assert "amount =" not in page and "effect-args" not in page  # no one text of keys and values any more
    card = page[page.index('id="card-c03"') : page.index('id="card-c04"')]  # move to START, collect optional
    assert re.search(cell + r'\s*<select class="effect-param" data-key="cell">', card)
    assert re.search(r'<option value="start" selected>' + start, card)
    card = page[page.index('id="card-c04"') : page.index('id="card-c05"')]  # the nearest EXCHANGE
    assert re.search(kind + r'\s*<select class="effect-param" data-key="kind">', card)
    labels = re.findall(r'<label class="param">([^<]*)', page)
    assert labels and all(label.strip()[:1].isupper() for label in labels)  # words, never a key like `amount`
    assert ">move_to<" not in page and ">receive<" not in page  # the effect kinds in words too


def test_every_effect_and_parameter_of_every_rules_has_its_words():
    from companion.daemon.boardedit import PARAMS
    from companion.engine.rulesets import RULESETS
    from companion.words import messages

    for rules in RULESETS.values():
        for verb, needed in rules.EFFECTS.items():
            for language in ("en", "ru"):
                assert f"effect_do_{verb}" in messages.CATALOGS[language], (verb, language)
            for key in (*needed, *rules.EFFECT_OPTIONAL.get(verb, ())):
                assert key in PARAMS and f"effect_param_{key}" in messages.CATALOGS["ru"], key


@pytest.mark.parametrize(
    "language, words",
    [
        (
            "en",
            (
                "«Speeding fine. Pay 50.»: Amount must be a whole number, not lots",
                "«Speeding fine. Pay 50.»: Steps (back when "
                "negative): must be a whole number from -100 to 100, not 500",
            ),
        ),
        (
            "ru",
            (
                "Сумма — нужно целое число, а не lots",
                "Клеток (назад, если меньше нуля): нужно целое число от -100 до 100, а не 500",
            ),
        ),
    ],
)
def test_a_wrong_parameter_value_is_refused_in_one_line(box, language, words):
    banker = Phone(box, language).banker()
    before = version_of(box)
    for rows, said in (([["pay", {"amount": "lots"}]], words[0]), ([["move_steps", {"steps": "500"}]], words[1])):
        answer = save(banker, before, effects={"decks.chance.c02": rows})
        assert answer.status_code == 400, answer.json
        assert said in answer.json["error"] and "\n" not in answer.json["error"], answer.json["error"]
    assert version_of(box) == before and box.boards.load("elite").edition.cards["c02"].effects[0]["amount"] == 50


def test_effect_parameters_typed_one_by_one_are_saved_as_the_file_writes_them(box):
    banker = Phone(box).banker()
    answer = save(
        banker,
        version_of(box),
        effects={
            "decks.chance.c03": [["move_to", {"cell": "start", "collect": "false"}]],
            "decks.chance.c05": [["move_nearest", {"kind": "card", "deck": "chance", "collect": ""}]],
        },
    )
    assert answer.status_code == 200, answer.json
    ed = box.boards.load("elite").edition
    assert ed.cards["c03"].effects == ({"do": "move_to", "cell": "start", "collect": False},)
    assert ed.cards["c05"].effects == ({"do": "move_nearest", "kind": "card", "deck": "chance"},)


def test_the_walk_page_links_to_the_editor(box):
    for language, words in (("en", "Check the numbers and cards"), ("ru", "Сверить числа и карточки")):
        page = Phone(box, language).banker().open("/phone/walk").data.decode()
        assert 'id="walk-editor-link" href="/phone/our-board"' in page and words in page
