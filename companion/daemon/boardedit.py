"""The banker phone's editor of the table's own board: views in words, corrections checked as the loader checks.

web/phone/ reaches it through PhoneService (board_*): the page never imports the store. Each
value typed on the phone is read as the edition file would write it, the whole board is checked
by the edition loader (companion/editions/boards.py saves nothing else), and a refusal is one line in the
phone's language naming the plot, card or key. Numbers the rulebook fixes are shown, locked.
"""

import re
import tomllib
from typing import Any

from companion.editions import boards, load_edition, shipped
from companion.editions.boards import BoardConflict, BoardStore
from companion.engine.core import EFFECT_TEXTS
from companion.engine.elite import ORDINALS
from companion.engine.rulesets import RULESETS
from companion.errors import CompanionError, EditionError
from companion.words import messages

TEXT_KEYS = ("name", "name_en", "name_ru", "text", "text_en", "text_ru", "kind", "deck")
PLOT_KEYS = ("price", "rent", "tax", "build_cost")
MAX_CHANGES = 400  # values in one save (a whole board has about 200 items)
MAX_VALUE = 2000  # characters in one typed value


class BoardRefused(ValueError):
    """One line in the phone's language; `status` 400 (a mistake), 409 (another phone saved first)."""

    def __init__(self, line: str, status: int = 400, **extra: Any):
        super().__init__(line)
        self.line, self.status, self.extra = line, status, extra


def say(code: str, language: str, **params: Any) -> str:
    return messages.render(code, params, language)


class BoardEditor:
    def __init__(self, store: BoardStore):
        self.store = store

    # ----- reading ---------------------------------------------------------------------------------

    def bases(self, language: str) -> list[dict]:
        saved = {i.base: i for i in self.store.list()}
        out = []
        for base in shipped():
            info = saved.get(base)
            if info is not None:
                name = info.names.get(language, info.name)
            else:
                try:
                    fresh = self.store.load(base).edition  # none saved: the shipped one, named ours
                    name = fresh.names.get(language, fresh.name)
                except EditionError as exc:  # a file damaged by hand: its page says where
                    name = f"{base}: {self._problem(exc, None, language)}"
            out.append({"base": base, "name": name, "saved": info is not None, "version": info.version if info else 0})
        return out

    def view(self, base: str, language: str) -> dict:
        """The board as the box prints it: cells, plots' deeds, cards, slot, extra; each with its mark."""
        base = self._base(base, language)
        try:
            board = self.store.load(base)
        except EditionError as exc:  # a file damaged by hand: say where, offer a fresh start from the shipped one
            return {"base": base, "broken": self._problem(exc, None, language), "version": None}
        ed = board.edition
        marks = boards.marks(ed)
        rules_cls = RULESETS[ed.rules]
        kinds = effect_kinds(ed, rules_cls, language)
        counts = boards.counts(ed)
        cells = []
        for c in ed.cells:
            row: dict[str, Any] = {
                "id": c.id,
                "index": c.index,
                "kind": c.kind,
                "state": marks[f"cells.{c.id}"],
                "name": messages.cell_name(ed, c.id, language),
                "item": f"cells.{c.id}",
                "fields": [],
            }
            if c.kind == "plot":
                for key in PLOT_KEYS:
                    item = f"cells.{c.id}.{key}"
                    if item in marks:
                        value = getattr(c, key)
                        row["fields"].append(
                            {
                                "path": item,
                                "item": item,
                                "key": key,
                                "state": marks[item],
                                "value": _shown(list(value) if isinstance(value, tuple) else value),
                                "label": say(f"board_field_{key}", language),
                            }
                        )
                row["fields"].append(
                    {
                        "path": f"cells.{c.id}.mortgage",
                        "key": "mortgage",
                        "locked": True,
                        "value": str(c.mortgage),
                        "label": say("board_field_mortgage", language),
                    }
                )
            for key, value in sorted(c.params.items()):
                item = f"cells.{c.id}.{key}"
                row["fields"].append(
                    {"path": item, "item": item, "key": key, "state": marks[item], "value": _shown(value), "label": key}
                )
            cells.append(row)
        cards = []
        for deck, ids in ed.decks.items():
            for cid in ids:
                card = ed.cards[cid]
                item = f"decks.{deck}.{cid}"
                cards.append(
                    {
                        "deck": deck,
                        "deck_name": messages.deck_name(ed, deck, language),
                        "id": cid,
                        "item": item,
                        "state": marks[item],
                        "text": card.texts.get(language, card.text),
                        "own_text": card.text,
                        "effects": [self._effect_row(kinds, e) for e in card.effects],
                    }
                )
        industries = [
            {
                "path": f"industries.{i}.{key}",
                "item": f"industries.{i}.{key}",
                "state": marks[f"industries.{i}.{key}"],
                "name": messages.industry_name(ed, i, language),
                "label": key,
                "value": _shown(list(getattr(ind, key))),
            }
            for i, ind in ed.industries.items()
            for key in ("rent_by_count", "tax_by_count", "dice_multiplier_by_count")
            if f"industries.{i}.{key}" in marks
        ]
        extra = [
            {
                "path": f"extra.{k}",
                "item": f"extra.{k}",
                "state": marks[f"extra.{k}"],
                "label": k,
                "value": _shown_toml(v),
            }
            for k, v in ed.extra.items()
        ]
        slot = (
            {
                "item": "slot",
                "state": marks["slot"],
                "reels": _shown_toml(ed.slot.get("reels", [])),
                "wins": _shown_toml(ed.slot.get("wins", [])),
            }
            if "slot" in marks
            else None
        )
        locked = [{"label": say("board_locked_start_cash", language), "value": str(ed.start_cash)}]
        locked += [
            {"label": key, "value": _shown_toml(value)}
            for key, value in sorted(ed.options.items())
            if key not in boards.LOCKED_OPTIONS_EDITABLE
        ]
        editable_options = [
            {"path": f"options.{key}", "label": key, "value": _shown_toml(ed.options[key])}
            for key in boards.LOCKED_OPTIONS_EDITABLE
            if key in ed.options
        ]
        return {
            "base": base,
            "version": board.version,
            "name": ed.names.get(language, ed.name),
            "broken": "",
            "counts": {
                "total": counts.total,
                "confirmed": counts.confirmed,
                "placeholder": counts.placeholder,
                "sourced": counts.sourced,
            },
            "counts_line": _capital(
                say(
                    "board_marks",
                    language,
                    total=counts.total,
                    confirmed=counts.confirmed,
                    placeholder=counts.placeholder,
                    sourced=counts.sourced,
                ).strip()
            ),
            "cells": cells,
            "cards": cards,
            "industries": industries,
            "extra": extra,
            "slot": slot,
            "locked": locked,
            "options": editable_options,
            "effects": list(kinds.values()),
            "kinds": sorted(rules_cls.CELL_KINDS),
            "ref": self.store.ref_of(base),
        }

    # ----- writing ---------------------------------------------------------------------------------

    def save(self, base: str, version: int, values: dict, effects: dict, confirm: list, language: str) -> dict:
        """Typed values ({path: text}), card effects ({card item: [(verb, args text)]}) and items to confirm."""
        base = self._base(base, language)
        if len(values) + len(effects) + len(confirm) > MAX_CHANGES:
            raise BoardRefused(say("board_too_many", language, limit=MAX_CHANGES))
        try:
            _, data = self.store.data(base)
        except EditionError as exc:
            raise BoardRefused(self._problem(exc, None, language)) from None
        changes: dict[str, Any] = {}
        for path, text in values.items():
            value = self._value(path, text, language)
            if _current(data, path) != value:
                changes[path] = value
        rules_cls = RULESETS[load_edition(base).rules] if effects else None
        for item, rows in effects.items():
            changes[f"{item}.effects"] = [
                self._effect(base, rules_cls, item, verb, args, language) for verb, args in rows
            ]
            if _current(data, f"{item}.effects") == changes[f"{item}.effects"]:
                del changes[f"{item}.effects"]
        confirm = [c for c in confirm if isinstance(c, str) and len(c) <= 140]
        try:
            board = self.store.edit(base, version, changes, confirm=confirm)
        except BoardConflict as exc:
            raise self._conflict(exc, base, language) from None
        except EditionError as exc:
            raise BoardRefused(self._problem(exc, data, language)) from None
        except CompanionError as exc:
            raise BoardRefused(messages.render_error(exc, language)) from None
        counts = boards.counts(board.edition)
        return {
            "version": board.version,
            "changed": sorted(changes),
            "line": say(
                "board_saved", language, version=board.version, count=len(changes), placeholder=counts.placeholder
            ),
        }

    def import_file(self, raw: bytes, version: int, language: str, share: bool = False, expect: str = "") -> dict:
        """A board file or share text; `version` is of the board `expect` the phone showed."""
        try:
            if share:
                board = self.store.import_share(raw.decode("utf-8", "replace"), version, expect or None)
            else:
                board = self.store.import_file(raw, version, say("board_import_source", language), expect or None)
        except BoardConflict as exc:
            raise self._conflict(exc, expect if expect in shipped() else "", language) from None
        except EditionError as exc:
            raise BoardRefused(self._problem(exc, None, language)) from None
        except CompanionError as exc:
            raise BoardRefused(messages.render_error(exc, language)) from None
        return {
            "version": board.version,
            "base": board.base,
            "line": say(
                "board_imported",
                language,
                name=board.edition.names.get(language, board.edition.name),
                version=board.version,
            ),
        }

    def export(self, base: str, language: str) -> tuple[str, bytes]:
        base = self._base(base, language)
        try:
            return f"{base}-our-box.toml", self.store.export(base)
        except EditionError as exc:
            raise BoardRefused(self._problem(exc, None, language)) from None

    def share(self, base: str, language: str) -> dict:
        base = self._base(base, language)
        text = self.store.share(base)
        fits = self.store.fits_qr(text)
        return {
            "text": text,
            "fits_qr": fits,
            "length": len(text),
            "line": say("board_share_fits" if fits else "board_share_long", language, length=len(text)),
        }

    # ----- words -----------------------------------------------------------------------------------

    def _conflict(self, exc: BoardConflict, base: str, language: str) -> BoardRefused:
        """Another phone saved first: the items it changed, named as the page shows them (409)."""
        words = [self.item_words(base, item, language) for item in exc.changed]
        line = say(
            "board_conflict", language, version=exc.version, count=len(words), changed="; ".join(words[:12]) or "-"
        )
        return BoardRefused(line, 409, version=exc.version, changed=exc.changed, changed_words=words)

    def item_words(self, base: str, item: str, language: str) -> str:
        """An item of the board as the page names it: "Кинотеатр: рента ...", a card's text, "slot machine"."""
        try:
            ed = self.store.load(base).edition
        except (EditionError, CompanionError):
            return item
        parts = item.split(".")
        if parts[0] == "cells" and ed.cell(parts[1]) is not None:
            name = messages.cell_name(ed, parts[1], language)
            if len(parts) == 2:
                return name
            key = parts[2]
            field = say(f"board_field_{key}", language) if key in PLOT_KEYS else key
            return f"{name}: {field}"
        if parts[0] == "decks" and len(parts) == 3 and parts[2] in ed.cards:
            card = ed.cards[parts[2]]
            text = card.texts.get(language, card.text)
            return "«" + (text if len(text) <= 40 else text[:39] + "…") + "»"
        if parts[0] == "industries" and len(parts) == 3 and parts[1] in ed.industries:
            return f"{messages.industry_name(ed, parts[1], language)}: {parts[2]}"
        if item == "slot":
            return say("board_slot", language)
        return item

    def _base(self, base: Any, language: str) -> str:
        if not isinstance(base, str) or base not in shipped():
            raise BoardRefused(say("board_no_base", language, base=str(base)[:40], shipped=", ".join(shipped())))
        return base

    def _value(self, path: Any, text: Any, language: str) -> Any:
        """A typed value as the file would hold it: text for names and card texts, else a TOML value
        (a bare list of numbers "10, 20, 30" is read as a list)."""
        if not isinstance(path, str) or not isinstance(text, str) or len(text) > MAX_VALUE:
            raise BoardRefused(say("board_bad_value", language, path=str(path)[:60]))
        key = path.rsplit(".", 1)[-1]
        if key in TEXT_KEYS:
            return text.strip()
        body = text.strip()
        if "," in body and not body.startswith(("[", "{", '"')):
            body = f"[{body}]"
        try:
            return tomllib.loads(f"v = {body}")["v"]
        except (ValueError, RecursionError, KeyError):
            raise BoardRefused(say("board_bad_value", language, path=path[:60])) from None

    @staticmethod
    def _effect_row(kinds: dict[str, dict], effect: dict) -> dict:
        """A card's effect as the page shows it: its kind, and each parameter the kind takes with its value."""
        kind = kinds.get(effect.get("do", ""), {"do": effect.get("do"), "name": effect.get("do"), "params": []})
        params = [{**p, "value": _param_text(effect[p["key"]]) if p["key"] in effect else ""} for p in kind["params"]]
        return {"do": kind["do"], "params": params}

    def _effect(self, base: str, rules_cls: Any, item: str, verb: Any, args: Any, language: str) -> dict:
        """One effect row from the page: (verb, {parameter: typed text}) or, as before, (verb, "key = value, ...")."""
        if isinstance(args, dict) and isinstance(verb, str) and len(args) <= 20:
            return self._effect_params(base, rules_cls, item, verb, args, language)
        if not isinstance(verb, str) or not isinstance(args, str) or len(args) > MAX_VALUE:
            raise BoardRefused(say("board_bad_value", language, path=item[:60]))
        try:
            effect = tomllib.loads(f"e = {{ {args.strip()} }}")["e"] if args.strip() else {}
        except (ValueError, RecursionError):
            raise BoardRefused(say("board_bad_value", language, path=f"{item}.effects")) from None
        return {"do": verb, **{k: v for k, v in effect.items() if k != "do"}}

    def _effect_params(self, base: str, rules_cls: Any, item: str, verb: str, args: dict, language: str) -> dict:
        """Each parameter typed in its own input: a number read as a whole number (a wrong one refused in one
        line naming the card and the parameter in words), a choice or a flag as the file writes it; an empty
        input is an optional parameter left out. Ranges and names are then checked by the edition loader."""
        effect: dict[str, Any] = {"do": verb}
        for key, text in args.items():
            if not isinstance(key, str) or not isinstance(text, str) or len(text) > 200 or len(key) > 40:
                raise BoardRefused(say("board_bad_value", language, path=f"{item}.effects"[:60]))
            text = text.strip()
            if not text or key == "do":
                continue
            what = param_label(key, None, language) if key in PARAMS else key
            if key in rules_cls.EFFECT_NUMBERS:
                try:
                    effect[key] = int(text.replace(" ", "").replace("\u00a0", "").replace("\u2212", "-"))
                except ValueError:
                    raise BoardRefused(
                        say(
                            "effect_bad_number",
                            language,
                            where=self.item_words(base, item, language),
                            what=what,
                            value=text[:40],
                        )
                    ) from None
            elif key in EFFECT_TEXTS:
                effect[key] = text
            elif text in ("true", "false"):
                effect[key] = text == "true"
            else:
                raise BoardRefused(
                    say(
                        "effect_bad_choice",
                        language,
                        where=self.item_words(base, item, language),
                        what=what,
                        value=text[:40],
                    )
                )
        return effect

    def _problem(self, exc: EditionError, data: dict | None, language: str) -> str:
        """The loader's refusal in the phone's language, the cell or card named as the phone shows it."""
        if getattr(exc, "code", None) is None:  # not the loader's (none is left uncoded): its own words
            return say("board_problem", language, where=_where(exc.key, data, language), problem=exc.problem)
        line = messages.render_error(exc, language)
        # the catalogue's line starts with the file and the key; the phone names the cell or card instead
        for prefix in (f"{exc.source}: `{exc.key}`: ", f"{exc.source}: {exc.key}: "):
            if line.startswith(prefix):
                return say(
                    "board_problem",
                    language,
                    where=_where(exc.key, data, language),
                    problem=_lower(line[len(prefix) :]),
                )
        return line


def _lower(words: str) -> str:
    """A problem after the cell's name goes on in lower case ("…: нужно сумм: 6"), a word in capitals stays."""
    first = words.split(" ", 1)[0]
    return words[:1].lower() + words[1:] if len(first) == 1 or not first.isupper() else words


def _capital(line: str) -> str:
    return line[:1].upper() + line[1:]


def _where(key: str, data: dict | None, language: str = "en") -> str:
    """A loader's key path ("cells[7].rent") with the cell's or card's name beside it; a card's effect
    parameter ("decks.chance[3].effects[0].steps") as the card's text and the parameter in words."""
    found = re.fullmatch(r"decks\.(\w+)\[(\d+)\]\.effects\[\d+\]\.(\w+)", key)
    if found and data is not None and found.group(3) in PARAMS:
        try:
            entry = data["decks"][found.group(1)][int(found.group(2))]
        except (KeyError, IndexError, TypeError):
            entry = None
        said = _card_words(entry, language) or (entry.get("id") if isinstance(entry, dict) else None)
        return f"{f'«{said}»' if said else key}: {param_label(found.group(3), None, language)}"
    found = re.match(r"cells\[(\d+)\]", key)
    if found and data is not None and isinstance(data.get("cells"), list):
        i = int(found.group(1))
        if i < len(data["cells"]) and isinstance(data["cells"][i], dict):
            return f"{data['cells'][i].get('name', '?')} ({key})"
    # a card: "decks.chance[0].effects[0].amount" (the loader's) or "decks.chance.c01" (a cross-check's)
    found = re.match(r"decks\.([\w-]+)(?:\[(\d+)\]|\.([\w-]+))", key)
    decks = data.get("decks") if data is not None else None
    deck = decks.get(found.group(1)) if found and isinstance(decks, dict) else None
    if found and isinstance(deck, list):
        if found.group(2) is not None:
            card = deck[int(found.group(2))] if int(found.group(2)) < len(deck) else None
        else:
            card = next((c for c in deck if isinstance(c, dict) and c.get("id") == found.group(3)), None)
        said = _card_words(card, language)
        if said and isinstance(card, dict):
            label = f"{found.group(1)} {card.get('id', '')}".strip()  # as the page's legend: "chance c01"
            return f"{say('board_card', language, label=label, text=messages.inner_quotes(said, language))} ({key})"
    return key


def _card_words(card: Any, language: str) -> str:
    """A card's text as the phone names it (cut at 40 characters), or "" when the file gives none."""
    if not isinstance(card, dict):
        return ""
    said = card.get(f"text_{language}") or card.get("text")
    if not isinstance(said, str) or not said.strip():
        return ""
    return said if len(said) <= 40 else said[:39] + "…"


def _shown(value: Any) -> str:
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        return ", ".join(str(v) for v in value)
    return value if isinstance(value, str) else _shown_toml(value)


def _shown_toml(value: Any) -> str:
    return boards._inline(value)


def _current(data: dict, path: str) -> Any:
    """The value at a path of the parsed board, or None (to skip a value typed as it already was)."""
    parts = path.split(".")
    try:
        if parts[0] == "cells":
            entry = next(e for e in data["cells"] if e.get("id") == parts[1])
            return entry.get(parts[2])
        if parts[0] == "decks":
            entry = next(e for e in data["decks"][parts[1]] if e.get("id") == parts[2])
            return entry.get(parts[3])
        if parts[0] == "industries":
            entry = next(e for e in data["industries"] if e.get("id") == parts[1])
            return entry.get(parts[2])
        return data.get(parts[0], {}).get(parts[1])
    except (KeyError, StopIteration, IndexError, AttributeError, TypeError):
        return None


# ----- a card's effect kinds and their parameters, from what the rules declare (issue 23) -------------

# every parameter any rules module's effects take, read from what they declare (Rules.EFFECTS, EFFECT_OPTIONAL),
# so a new effect's parameter is here without a second list to keep; each has a label in the catalogues
# (effect_param_KEY), which tests/test_board_editor.py checks
PARAMS = tuple(
    dict.fromkeys(
        key
        for rules in RULESETS.values()
        for verb, needed in rules.EFFECTS.items()
        for key in (*needed, *rules.EFFECT_OPTIONAL.get(verb, ()))
        if key != "do"
    )
)


def param_label(key: str, edition: Any, language: str) -> str:
    """A parameter named in words: "Amount", «Сумма»; per building in the edition's own building words."""
    return messages.render(f"effect_param_{key}", {"kind": key}, language, edition)


def param_choices(edition: Any, rules_cls: Any, key: str, language: str) -> list[dict]:
    """The values a text or flag parameter may take on this board, each in words (a cell, a deck, ...)."""
    if key == "cell":
        pairs = [(c.id, messages.cell_name(edition, c.id, language)) for c in edition.cells]
    elif key == "kind":
        pairs = []
        for kind in sorted({c.kind for c in edition.cells}):
            names = dict.fromkeys(messages.cell_name(edition, c.id, language) for c in edition.cells if c.kind == kind)
            shown = say("effect_kind_card", language) if kind == "card" else ", ".join(names)
            pairs.append((kind, shown if len(shown) <= 60 else shown[:59] + "…"))
    elif key == "deck":
        pairs = [(d, messages.deck_name(edition, d, language)) for d in edition.decks]
    elif key in ("to", "from"):
        pairs = [(a, messages.party(a, language)) for a in rules_cls.SYSTEM_ACCOUNTS]
    elif key == "industry":
        pairs = [(i, messages.industry_name(edition, i, language)) for i in edition.industries]
    elif key == "plots":
        pairs = [(o, say(f"effect_plots_{o}", language)) for o in ORDINALS]
    else:  # a flag (collect)
        pairs = [("true", say("effect_param_yes", language)), ("false", say("effect_param_no", language))]
    return [{"value": v, "name": n} for v, n in pairs]


def effect_kinds(edition: Any, rules_cls: Any, language: str) -> dict[str, dict]:
    """verb -> the effect kind in words with its parameters: required ones (Rules.EFFECTS), then optional ones
    (EFFECT_OPTIONAL); a number with its range (EFFECT_NUMBERS), a cell, deck, kind, ... as a choice."""
    kinds = {}
    for verb, needed in rules_cls.EFFECTS.items():
        params = []
        for key in (*needed, *rules_cls.EFFECT_OPTIONAL.get(verb, ())):
            param: dict[str, Any] = {
                "key": key,
                "label": param_label(key, edition, language),
                "required": key in needed,
            }
            if key in rules_cls.EFFECT_NUMBERS:
                param.update(type="number", low=rules_cls.EFFECT_NUMBERS[key][0], high=rules_cls.EFFECT_NUMBERS[key][1])
            else:
                param.update(type="choice", choices=param_choices(edition, rules_cls, key, language))
            params.append(param)
        kinds[verb] = {"do": verb, "name": say(f"effect_do_{verb}", language), "params": params}
    return dict(sorted(kinds.items(), key=lambda kv: kv[1]["name"].lower()))


def _param_text(value: Any) -> str:
    """A parameter's value as its input holds it: a number, an id, or true/false."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
