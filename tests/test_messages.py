"""Message codes -> English and Russian text (companion/words/messages.py): every code the
engine can emit has a template in both languages, the templates only use parameters
the engine provides, plot ids are shown by name, and an unknown code still renders."""

import ast
import random
import string
from pathlib import Path

import pytest

import companion.engine
from companion import cli
from companion.bots.autoplay import next_command
from companion.editions import load_edition, rules_for, shipped
from companion.engine.game import Game
from companion.errors import RuleViolation
from companion.words import messages
from companion.words.messages import CATALOGS, DERIVED, EDGE, EDITIONS, render, render_error

ENGINE = Path(companion.engine.__file__).parent
LANGS = messages.LANGUAGES  # every language with a folder of .po files (companion/words/locale/)


def named_calls(paths):
    """(path, call node, the called name) for every call in these Python files."""
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                yield (
                    path,
                    node,
                    func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None,
                )


def emitted_codes():
    """(code, file:line) for every literal code in the engine: Note("code"), RuleViolation("code"),
    BadCommand("code"), and the reason given to self.charge(s, debtor, creditor, amount, "reason")."""
    found = []
    for path, node, name in named_calls(sorted(ENGINE.rglob("*.py"))):
        arg = None
        if name in ("Note", "RuleViolation", "BadCommand") and node.args:
            arg = node.args[0]
        elif name == "charge":
            arg = (
                node.args[4]
                if len(node.args) >= 5
                else next((k.value for k in node.keywords if k.arg == "reason"), None)
            )
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            found.append((arg.value, f"{path.name}:{node.lineno}"))
    return found


CODES = emitted_codes()


def test_the_scan_finds_the_engine_codes():
    codes = {c for c, _ in CODES}
    assert {"rolled", "rent_paid", "undo_blocked", "unknown_command", "circle_tax"} <= codes
    assert len(codes) > 80


@pytest.mark.parametrize("lang", LANGS)
def test_every_emitted_code_has_a_template(lang):
    missing = sorted({f"{code} ({where})" for code, where in CODES if code not in CATALOGS[lang]})
    assert not missing, f"no {lang} template for: {', '.join(missing)}"


def fields(template):
    return {f[1].split(".")[0].split("[")[0] for f in string.Formatter().parse(template) if f[1]}


# ----- the edge's codes: errors of the ledger, the table, scripts and the command line -------------------

COMPANION = ENGINE.parent
EDGE_FILES = sorted(path for folder in ("ledger", "table", "cli") for path in (COMPANION / folder).glob("*.py"))
# calls whose first argument is a message code (ScriptError's is its fourth), and the parameters
# OutcomeUnknown takes by position
CODED_CALLS = {
    "LedgerError",
    "LedgerDamaged",
    "DiskFull",
    "OutcomeUnknown",
    "UsageError",
    "Message",
    "Note",
    "fail",
    "render",
    "__init__",
}
POSITIONAL = {"OutcomeUnknown": ("seq", "request_id", "command")}


def edge_codes():
    """(code, file:line, parameters given or None when not all are literal) for every literal message
    code the edge modules raise or say, and the codes of argparse's messages (cli.USAGE_CODES)."""
    found = []
    for path, node, name in named_calls(EDGE_FILES):
        first = 3 if name == "ScriptError" else 0 if name in CODED_CALLS else None
        if first is None or len(node.args) <= first:
            continue
        arg = node.args[first]
        codes = (
            [arg.value]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            else [a.value for a in (arg.body, arg.orelse) if isinstance(a, ast.Constant)]
            if isinstance(arg, ast.IfExp)
            else []
        )
        given = {k.arg for k in node.keywords}
        given |= set(POSITIONAL.get(name, ())[: len(node.args) - first - 1])
        rest = node.args[first + 1 :]
        if rest and isinstance(rest[0], ast.Dict) and name in ("Note", "render"):
            given |= {k.value for k in rest[0].keys if isinstance(k, ast.Constant)}
        literal = (
            None not in given
            and not any(isinstance(a, ast.Starred) for a in node.args)
            and not any(isinstance(k, ast.Dict) and None in k.keys for k in rest)
            and not (name in ("Note", "render") and rest and not isinstance(rest[0], ast.Dict))
        )
        for code in codes:
            found.append((code, f"{path.name}:{node.lineno}", given if literal else None))
    found += [(code, "cli.py:ARGPARSE_MESSAGES", None) for code in cli.USAGE_CODES]
    return found


EDGE_CODES = edge_codes()


def test_the_scan_finds_the_edge_codes():
    codes = {c for c, _, _ in EDGE_CODES}
    assert {
        "ledger_no_game",
        "ledger_folder",
        "ledger_not_sqlite",
        "ledger_exists",
        "ledger_hash_mismatch",
        "stranger_copied",
        "recover_done",
        "script_no_game",
        "expect_cash",
        "script_refused",
        "usage_unrecognized",
        "usage_unknown_command",
        "do_stored",
        "file_error",
    } <= codes
    assert len(codes) > 100


@pytest.mark.parametrize("lang", LANGS)
def test_every_code_of_the_edge_has_a_template(lang):
    """What the ledger, the table, scripts and the command line raise or say is in every language."""
    missing = sorted({f"{code} ({where})" for code, where, _ in EDGE_CODES if code not in CATALOGS[lang]})
    assert not missing, f"no {lang} template for: {', '.join(missing)}"
    assert set(EDGE[lang]) <= set(CATALOGS[lang]) and all(CATALOGS[lang][c] == t for c, t in EDGE[lang].items())


def test_the_edge_templates_use_only_parameters_given():
    """Each raise gives every parameter its code's templates ask for (derived ones from their sources)."""
    problems = []
    for code, where, given in EDGE_CODES:
        if given is None or code not in CATALOGS["en"]:
            continue
        for lang in LANGS:
            asked = fields(CATALOGS[lang][code])
            derived = {d for d, src in DERIVED.items() if set(src) <= given}
            if not asked <= given | derived:
                problems.append(f"{code} ({lang}, {where}) needs {sorted(asked - given - derived)}")
    assert not problems, "\n".join(problems)


def test_edge_codes_shadow_no_engine_code():
    assert not set(EDGE["en"]) & {c for c, _ in CODES}


def test_english_and_russian_catalogues_match():
    """Same codes in both languages, and the same parameters in each template."""
    en, ru = CATALOGS["en"], CATALOGS["ru"]
    assert sorted(set(en) ^ set(ru)) == []
    differ = [c for c in en if fields(en[c]) != fields(ru[c])]
    assert not differ, differ


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_edition_codes_are_in_the_catalogues_unshadowed(edition):
    """An edition's own codes (messages.EDITIONS) have English and Russian text, and each
    is the text the catalogues render: no shared or other edition's template shadows it."""
    texts = EDITIONS[edition]
    assert set(texts) == set(LANGS) and set(texts["en"]) == set(texts["ru"])
    for lang in LANGS:
        shadowed = [code for code, text in texts[lang].items() if CATALOGS[lang].get(code) != text]
        assert not shadowed, f"{edition} {lang}: {shadowed}"


# ----- templates against what the engine really says ------------------------------------------


def collect_messages(edition, seeds=3, events=400):
    """Notes of autoplay games, and refusals of probe commands along the way."""
    rules = rules_for(load_edition(edition))
    notes, refusals = [], []
    probes = [
        "buy",
        "end",
        "hammer",
        "draw",
        "bid Anna 1",
        "build {plot}",
        "mortgage {plot}",
        "redeem {plot}",
        "sell_building {plot}",
        "pay Anna Boris 999999",
        "roll 1 2",
        "roll 9",
        "trade Anna Boris give {plot} get 5",
        "bankrupt Boris",
        "pay_fine",
        "use_card x",
        "choose {plot}",
        "opening 0",
        "undo 1",
        "undo 2",
        "frobnicate",
    ]
    probes += [f"{verb} Anna 1" for verb in sorted(rules.COMMANDS) if verb != "end_game"]
    for seed in range(seeds):
        ed = rules.edition
        n = max(ed.players_min, min(3, ed.players_max))
        game = Game.start(rules, seed, ["Anna", "Boris", "Vera"][:n])
        rng = random.Random(seed)
        while len(game.events) < events and game.state.phase != "over":
            if len(game.events) % 7 == 0:
                plot = rng.choice(list(ed.plots))
                for probe in probes:
                    try:
                        game.propose(probe.format(plot=plot))
                    except RuleViolation as exc:
                        refusals.append(exc)
            line, _ = next_command(game, rng)
            if line is None:
                break
            event = game.apply(line)
            notes.extend(event.notes)
        notes.extend(game.events[0].notes)
    return rules, notes, refusals


@pytest.mark.parametrize("edition", shipped())
def test_templates_use_only_parameters_the_engine_gives(edition):
    """Every note and refusal met in autoplay games renders from its own template in both
    languages: no template asks for a parameter the message lacks."""
    rules, notes, refusals = collect_messages(edition)
    problems = set()
    for code, params in [(n.code, n.params) for n in notes] + [(e.code, e.params) for e in refusals]:
        for lang in LANGS:
            template = CATALOGS[lang].get(code)
            if template is None:
                problems.add(f"{code}: no {lang} template")
            elif not fields(template) <= set(params) | {d for d, src in DERIVED.items() if set(src) <= set(params)}:
                problems.add(f"{code} ({lang}) needs {sorted(fields(template) - set(params))}, has {sorted(params)}")
            else:
                text = render(code, params, lang, rules.edition)
                assert text and not text.startswith(code + " "), (code, lang, text)
    assert not problems, "\n".join(sorted(problems))
    assert len({n.code for n in notes}) > 15 and len({e.code for e in refusals}) > 10


# ----- rendering ----------------------------------------------------------------------------------

ELITE = load_edition("elite")


def test_render_shows_plot_names_not_ids():
    # a plot by its name in the screen's language (elite.toml: name and name_en)
    assert (
        render("bought", {"player": "Anna", "plot": "leisure3", "price": 70}, "en", ELITE)
        == "Anna buys Nightclub for 70"
    )
    assert (
        render("bought", {"player": "Anna", "plot": "leisure3", "price": 70}, "ru", ELITE)
        == "Anna покупает участок «Ночной клуб» за 70"
    )
    # lists of plots or cells, and a card id shown by its text
    traded = render(
        "traded",
        {"player": "Anna", "other": "Boris", "gave": ["leisure1", "leisure2"], "got": [], "paid": 0, "received": 50},
        "en",
        ELITE,
    )
    assert "Cinema" in traded and "Casino" in traded and "leisure1" not in traded
    card = next(iter(ELITE.cards.values()))
    assert card.text.rstrip(".") in render("card", {"player": "Anna", "deck": card.deck, "card": card.id}, "ru", ELITE)
    assert "Lottery win" in render("card", {"player": "Anna", "deck": card.deck, "card": card.id}, "en", ELITE)


def test_render_without_an_edition_keeps_ids():
    assert render("landed", {"player": "Anna", "cell": "leisure3"}) == "Anna lands on leisure3"


def test_unknown_code_still_renders():
    assert (
        render("a_code_nobody_wrote", {"player": "Anna", "amount": 5}, "ru")
        == "a_code_nobody_wrote player=Anna, amount=5"
    )
    assert render("a_code_nobody_wrote", {}) == "a_code_nobody_wrote"


def test_missing_parameter_still_renders():
    text = render("bought", {"player": "Anna"}, "en", ELITE)
    assert text.startswith("bought") and "Anna" in text


def test_unknown_language_falls_back_to_english():
    assert render("turn", {"player": "Anna"}, "de") == "Anna's turn"


def test_render_error_of_a_refusal():
    exc = RuleViolation("insufficient_funds", player="Anna", amount=120, cash=100, what="media1")
    assert render_error(exc, "en", ELITE) == "Anna has 100, not the 120 needed (Publishing house)"
    assert render_error(exc, "ru", ELITE) == "Anna: наличных 100, а нужно 120 («Издательский дом»)"


def test_reasons_inside_messages_are_translated_too():
    """A player reading Russian sees no internal code words (debt: ПРАВИЛА БАНКРОТСТВА)."""
    cases = [
        ("debt", {"player": "Anna", "to": "Boris", "amount": 120, "reason": "rent_paid", "cash": 50}),
        ("policy_used", {"player": "Anna", "policy": "red", "reason": "fortune"}),
        ("auction_cancelled", {"reason": "side", "die": 5}),
    ]
    for code, params in cases:
        text = render(code, params, "ru", ELITE)
        assert params["reason"] not in text, text


def test_the_boxs_words_never_replace_a_games_words():
    """The daemon's catalogue is merged into the game's: a code in both would change an event's note."""
    from companion.words.catalog import entries

    # every key of the English messages.po before the box's own (the game's codes and their tables)
    keys = list(entries("messages", "en"))
    before = {msgid for context, msgid in keys[: [c for c, _ in keys].index("BOX")]}
    assert [k for k in messages.BOX["en"] if k in before] == []
    assert set(messages.BOX["en"]) == set(messages.BOX["ru"])
