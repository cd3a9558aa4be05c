"""The table's own boards: edition files matched to the family's box, kept in the games folder.

A table's board is an edition file (docs/edition-format.md) made from a shipped
one, say "Elite — our box", kept as `boards/<base>.toml` in the daemon's games
folder. The shipped files are never written. A game stores the text of the
board it started on, so a board changed later never changes a game under way.

Marks (the file's `[box]` table): every item of a board (a cell's place and
name, each plot's numbers, each card, the slot machine, an `[extra]` table) is
*confirmed* (checked against a box: listed in `[box] confirmed`), a
*placeholder* (a guess: matched by `[box] placeholder`, else by
docs/board-sources.md's list for the edition it was made from, PLACEHOLDERS
below) or *sourced* (from public sources, not yet checked against a box).

The store's API (the `walk` of point 1 and the phone's editor use only this):

    store = daemon.boards             (the daemon's one store: its lock orders the saves; on its own,
                                       BoardStore(games_dir / "boards"))
    store.list()                      -> [BoardInfo(ref, base, name, version, counts)]
    store.ref_of(base)                -> "our-elite": the id the edition lists show and start
    store.base_of_ref("our-elite")    -> "elite", or None when the ref is not a table's board
    store.load(base)                  -> Board(base, version, text, edition); a fresh copy of the
                                         shipped file (version 0, nothing saved) when none is kept
    store.data(base)                  -> (version, the board as a dict: tomllib's parse)
    store.save_data(base, data, version, confirmed=(items...)) -> Board (new version)
    store.save_text(base, text, version)                       -> Board (new version)
    store.edit(base, version, {path: value}, confirm=(items...)) -> Board: the phone's corrections;
                                         a path is "cells.ID.KEY", "decks.DECK.ID.KEY", "slot.KEY",
                                         "extra.KEY", "industries.ID.KEY" or "options.KEY"; each value
                                         changed is marked confirmed (it was read off the box)
    store.export(base)                -> bytes of the file, to save as my-board.toml
    store.import_file(raw, version, expect=base) -> Board: validated like any edition, saved over its
                                         base's board (version: the one replaced, None: whatever is kept)
    store.share(base) / store.import_share(text, version): the compact share text (QR where it fits)
    store.edition_path(ref)           -> the saved file's Path, for load_edition / Games.start
    marks(edition) -> {item: state}; counts(edition) -> Counts; describe(edition) -> the items' values
    items: "cells.ID" (a cell's place, kind, name), "cells.ID.price|rent|tax|build_cost|KEY",
           "industries.ID.rent_by_count|...", "decks.DECK.ID" (a card), "slot", "extra.KEY"

Every save is checked as the loader checks any edition (parse_edition): a board
with a mistake is refused naming the key, and nothing is written. A save names
the version it was made from: when another phone saved in between, it is refused
as BoardConflict, which lists the items that phone changed (nothing is lost
silently). A file is written whole or not at all (temp file, fsync, rename,
fsync of the folder).
"""

import base64
import json
import os
import re
import threading
import tomllib
import zlib
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from companion.editions import HERE, decode_edition, parse_edition, shipped, toml_value
from companion.engine.board import Edition
from companion.errors import EditionError, Message, SaidInput
from companion.files.wholefile import write_whole

REF_PREFIX = "our-"  # a table's board in the edition lists: "our-elite"
SHARE_PREFIX = "MB1:"  # a share text: the prefix, then base64url of zlib'd JSON
QR_BYTES = 2331  # what one QR code (version 40, level M) holds in byte mode
STATES = ("confirmed", "placeholder", "sourced")
HISTORY_KEEP = 20  # saved versions kept to tell a later save what changed
MAX_DEPTH = 12  # lists and tables nested in a board: the shipped files nest 6 at most

# docs/board-sources.md's "to check against the box", item by item ("*" is one word of an item)
PLACEHOLDERS: dict[str, tuple[str, ...]] = {
    "elite": (
        "cells.*",  # the order of the 40 cells and where CHANCE, FORTUNE, EXCHANGE ... stand
        "decks.chance.*",
        *(f"decks.fortune.f{n}" for n in range(25, 31)),
        "slot",
        "industries.central.tax_by_count",
    ),
    "classic": ("cells.*.rent", "decks.*.*", "slot", "cells.movement4"),
    "deluxe": ("cells.*.rent", "decks.*.*", "slot", "cells.movement4", "extra.rating_places"),
    "madmillionaire": ("cells.*", "cells.*.*", "industries.*.*", "decks.*.*", "extra.*"),
    "monopoly": (),
}

# what the rulebook itself fixes: shown as the rulebook's and never edited on a table's board
LOCKED_OPTIONS_EDITABLE = ("jackpot_min_bet", "jackpot_max_bet")  # the box's bet limits, not the rulebook's


@dataclass(frozen=True)
class Counts:
    """How many items of a board are in each state, in all and by sort (cells, numbers, cards)."""

    total: int
    confirmed: int
    placeholder: int
    sourced: int
    by_sort: dict  # "cells" | "numbers" | "cards" -> {"total", "confirmed", "placeholder", "sourced"}


@dataclass(frozen=True)
class Board:
    base: str  # the shipped edition it was made from
    version: int  # 0: not saved yet (a copy of the shipped file)
    text: str
    edition: Edition


@dataclass(frozen=True)
class BoardInfo:
    ref: str
    base: str
    name: str
    names: dict
    version: int
    counts: Counts


class BoardConflict(SaidInput):
    """A save made from an older version: another phone saved in between (`changed`: its items)."""

    def __init__(self, version: int, changed: list[str]):
        super().__init__("board_conflict", version=version, changed=", ".join(changed[:12]) or "-", count=len(changed))
        self.version, self.changed = version, changed


# ----- items and their marks ------------------------------------------------------------------------


def sort_of(item: str) -> str:
    """cells (a cell's place, kind and name), cards, or numbers (every other item)."""
    parts = item.split(".")
    if parts[0] == "cells" and len(parts) == 2:
        return "cells"
    return "cards" if parts[0] == "decks" else "numbers"


def describe(edition: Edition) -> dict[str, Any]:
    """Every item of the board and its value, in board order (what marks and conflicts compare)."""
    out: dict[str, Any] = {}
    for c in edition.cells:
        out[f"cells.{c.id}"] = [c.index, c.kind, c.name, sorted(c.names.items()), c.deck]
        if c.kind == "plot":
            out[f"cells.{c.id}.price"] = c.price
            if c.rent:
                out[f"cells.{c.id}.rent"] = list(c.rent)
            if c.tax:
                out[f"cells.{c.id}.tax"] = list(c.tax)
            ind = edition.industries[c.industry]
            if ind.buildable:
                out[f"cells.{c.id}.build_cost"] = c.build_cost
        for key, value in sorted(c.params.items()):
            out[f"cells.{c.id}.{key}"] = value
    for ind in edition.industries.values():
        for key in ("rent_by_count", "tax_by_count", "dice_multiplier_by_count"):
            if getattr(ind, key):
                out[f"industries.{ind.id}.{key}"] = list(getattr(ind, key))
    for deck, ids in edition.decks.items():
        for cid in ids:
            card = edition.cards[cid]
            out[f"decks.{deck}.{cid}"] = [
                card.text,
                sorted(card.texts.items()),
                list(card.effects),
                card.keep,
                card.long_term,
                card.favourable,
            ]
    if edition.slot:
        out["slot"] = edition.slot
    for key, value in edition.extra.items():
        out[f"extra.{key}"] = value
    return out


def base_of(edition: Edition) -> str:
    return edition.box.get("base") or edition.id


def _matches(pattern: str, item: str) -> bool:
    p, i = pattern.split("."), item.split(".")
    return len(p) == len(i) and all(fnmatchcase(b, a) for a, b in zip(p, i, strict=True))


def marks(edition: Edition) -> dict[str, str]:
    """item -> "confirmed" | "placeholder" | "sourced" for every item of the board."""
    confirmed = set(edition.box.get("confirmed", ()))
    patterns = edition.box.get("placeholder")
    if patterns is None:  # unmarked: docs/board-sources.md's list for the edition it was made from
        patterns = PLACEHOLDERS.get(base_of(edition), ())
    out = {}
    for item in describe(edition):
        if item in confirmed:
            out[item] = "confirmed"
        elif any(_matches(p, item) for p in patterns):
            out[item] = "placeholder"
        else:
            out[item] = "sourced"
    return out


def counts(edition: Edition) -> Counts:
    by_sort: dict = {s: dict.fromkeys(("total", *STATES), 0) for s in ("cells", "numbers", "cards")}
    for item, state in marks(edition).items():
        row = by_sort[sort_of(item)]
        row["total"] += 1
        row[state] += 1
    total = {k: sum(r[k] for r in by_sort.values()) for k in ("total", *STATES)}
    return Counts(total["total"], total["confirmed"], total["placeholder"], total["sourced"], by_sort)


def changed_items(old: Edition | None, new: Edition) -> list[str]:
    """The items whose values differ between two versions of a board (added and removed ones too)."""
    a = describe(old) if old is not None else {}
    b = describe(new)
    return [k for k in dict.fromkeys([*a, *b]) if a.get(k) != b.get(k)]


# ----- TOML out -------------------------------------------------------------------------------------

_BARE = re.compile(r"[A-Za-z0-9_-]+")


def _key(key: str) -> str:
    return key if _BARE.fullmatch(key) else toml_value(key)


def _inline(value) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_inline(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    return toml_value(value)


def _is_table_list(value) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def dump_toml(data: dict) -> str:
    """A parsed edition as TOML text that parses back to the same dict (comments are not kept)."""
    lines: list[str] = []

    def table(path: list[str], body: dict, header: str | None) -> None:
        plain = [(k, v) for k, v in body.items() if not isinstance(v, dict) and not _is_table_list(v)]
        if header is not None and (plain or not any(isinstance(v, dict) for v in body.values())):
            lines.extend(["", header])
        lines.extend(f"{_key(k)} = {_inline(v)}" for k, v in plain)
        for k, v in body.items():
            sub = [*path, _key(k)]
            if isinstance(v, dict):
                table(sub, v, f"[{'.'.join(sub)}]")
            elif _is_table_list(v):
                for entry in v:
                    lines.extend(["", f"[[{'.'.join(sub)}]]"])
                    lines.extend(f"{_key(ek)} = {_inline(ev)}" for ek, ev in entry.items())

    table([], data, None)
    return "\n".join(lines).lstrip("\n") + "\n"


# ----- the store --------------------------------------------------------------------------------------


class BoardStore:
    """A folder of the table's boards, one per shipped edition (`<base>.toml`), and their last versions."""

    def __init__(self, folder: str | os.PathLike):
        self.folder = Path(folder)
        self._lock = threading.Lock()  # one save at a time: the version check and the write are one step

    # -- names --
    @staticmethod
    def ref_of(base: str) -> str:
        return REF_PREFIX + base

    @staticmethod
    def base_of_ref(ref: str) -> str | None:
        if isinstance(ref, str) and ref.startswith(REF_PREFIX) and ref[len(REF_PREFIX) :] in shipped():
            return ref[len(REF_PREFIX) :]
        return None

    def path(self, base: str) -> Path:
        self._check_base(base)
        return self.folder / f"{base}.toml"

    def edition_path(self, ref: str) -> Path | None:
        """The saved board's file for `ref` ("our-elite"), or None (not a table's board, or none saved)."""
        base = self.base_of_ref(ref)
        if base is None:
            return None
        path = self.path(base)
        return path if path.exists() else None

    @staticmethod
    def _check_base(base: str) -> None:
        if base not in shipped():
            raise SaidInput("board_no_base", base=str(base)[:40], shipped=", ".join(shipped()))

    # -- reading --
    def list(self) -> list[BoardInfo]:
        """The boards kept here (a damaged file is left out: load() names its mistake)."""
        out = []
        for base in shipped():
            path = self.folder / f"{base}.toml"
            if not path.exists():
                continue
            try:
                board = self.load(base)
            except EditionError:
                continue
            ed = board.edition
            out.append(BoardInfo(self.ref_of(base), base, ed.name, dict(ed.names), board.version, counts(ed)))
        return out

    def load(self, base: str) -> Board:
        """The kept board, or a fresh copy of the shipped file (version 0). A damaged file: EditionError."""
        path = self.path(base)
        if not path.exists():
            return self._fresh(base)
        text = decode_edition(path.read_bytes(), str(path))
        edition = parse_edition(text, str(path))
        return Board(base, int(edition.box.get("version", 0)), text, edition)

    def data(self, base: str) -> tuple[int, dict]:
        board = self.load(base)
        return board.version, tomllib.loads(board.text)

    def _fresh(self, base: str) -> Board:
        from companion.words import messages  # the board's name in both languages, by the catalogue's words

        shipped_path = HERE / f"{base}.toml"
        text = decode_edition(shipped_path.read_bytes(), str(shipped_path))
        data = tomllib.loads(text)
        head = data["edition"]
        ed = parse_edition(text, str(shipped_path))
        for lang in messages.LANGUAGES:
            head[f"name_{lang}"] = messages.render("board_own_name", {"edition": ed.names.get(lang, ed.name)}, lang)
        head["name"] = head.get(f"name_{ed.language}", head["name_en"])
        data["box"] = {"base": base, "version": 0, "confirmed": [], "placeholder": list(PLACEHOLDERS.get(base, ()))}
        text = dump_toml(data)
        return Board(base, 0, text, parse_edition(text, f"{self.ref_of(base)}"))

    def export(self, base: str) -> bytes:
        return self.load(base).text.encode("utf-8")

    # -- writing --
    def save_text(self, base: str, text: str, version: int) -> Board:
        """Save the board's text if `version` is the one kept; checked whole as any edition first."""
        return self.save_data(base, _parse(text, self.ref_of(base)), version)

    def save_data(self, base: str, data: dict, version: int, confirmed=()) -> Board:
        """Save the board (a parsed edition dict) made from `version`; `confirmed`: items to mark confirmed."""
        self._check_base(base)
        if not isinstance(data, dict):
            raise SaidInput("board_not_edition", problem=Message("board_not_a_table"))
        if _depth(data) > MAX_DEPTH:  # a value nested deeper than any edition writes (and than recursion goes)
            raise SaidInput("board_too_deep", limit=MAX_DEPTH)
        data = json.loads(json.dumps(data))  # our own copy, plain values only
        box: dict = data["box"] if isinstance(data.get("box"), dict) else {}
        data["box"] = box
        marked = list(box.get("confirmed", [])) if isinstance(box.get("confirmed"), list) else []
        box["confirmed"] = list(dict.fromkeys([*marked, *confirmed]))
        box["base"] = base
        with self._lock:
            current = self.load(base)
            if version != current.version:
                raise BoardConflict(current.version, changed_items(self._version(base, version), current.edition))
            box["version"] = current.version + 1
            if "placeholder" not in box and "placeholder" not in current.edition.box:
                box["placeholder"] = list(PLACEHOLDERS.get(base, ()))
            text = dump_toml(data)
            edition = parse_edition(text, self.ref_of(base))  # a mistake: refused naming the key, nothing written
            if edition.rules != current.edition.rules:
                raise SaidInput("board_other_rules", rules=edition.rules, base=base, plays=current.edition.rules)
            known = set(describe(edition))
            box["confirmed"] = [i for i in box["confirmed"] if i in known]
            text = dump_toml(data)
            edition = parse_edition(text, self.ref_of(base))
            self._keep_history(base, current)
            write_whole(self.path(base), text, private=False)
            return Board(base, box["version"], text, edition)

    def edit(self, base: str, version: int, changes: dict, confirm=()) -> Board:
        """Corrections from the phone: {path: value}; each item changed (and each in `confirm`) is confirmed."""
        _, data = self.data(base)
        touched = []
        for path, value in changes.items():
            touched.append(_apply(data, path, value))
        return self.save_data(base, data, version, confirmed=[*touched, *confirm])

    def import_file(self, raw: bytes, version: int | None, source: str = "import", expect: str | None = None) -> Board:
        """An edition file from elsewhere, validated like any edition, saved as the table's board of its base.

        `version`: the version of the board `expect` the phone showed (a save in between is a
        BoardConflict); None, no `expect`, or a file of another base replaces whatever is kept.
        """
        text = decode_edition(raw, source)
        edition = parse_edition(text, source)
        base = base_of(edition)
        if base not in shipped():
            raise SaidInput("board_no_base", base=base, shipped=", ".join(shipped()))
        if version is None or expect is None or base != expect:  # not the board the phone showed: replaced
            version = self.load(base).version
        return self.save_data(base, tomllib.loads(text), version)

    def share(self, base: str) -> str:
        """The board as one line of text (a link's tail; a QR code's content when it fits: fits_qr).

        Only what differs from the shipped file travels: cells, industries and cards unchanged are
        named by id, and the confirmed marks are one bit per item of the board.
        """
        board = self.load(base)
        data, fresh = tomllib.loads(board.text), tomllib.loads(self._fresh(base).text)
        box = data.pop("box", {})
        fresh.pop("box", None)
        patch: dict[str, Any] = {"b": base}
        for key, value in data.items():
            if key in ("cells", "industries"):
                entries = _by_ids(value, fresh.get(key, []))
                if entries != [e.get("id") for e in fresh.get(key, [])]:
                    patch[key] = entries
            elif key == "decks":
                decks = {d: _by_ids(cards, fresh.get("decks", {}).get(d, [])) for d, cards in value.items()}
                changed = {
                    d: cards
                    for d, cards in decks.items()
                    if cards != [c.get("id") for c in fresh.get("decks", {}).get(d, [])]
                }
                if changed or set(decks) != set(fresh.get("decks", {})):
                    patch["decks"] = {**changed, **{d: None for d in fresh.get("decks", {}) if d not in decks}}
            elif value != fresh.get(key):
                patch[key] = value
        gone = [key for key in fresh if key not in data]
        if gone:
            patch["-"] = gone
        items = list(describe(board.edition))
        confirmed = set(box.get("confirmed", []))
        bits = sum(1 << i for i, item in enumerate(items) if item in confirmed)
        patch["c"] = format(bits, "x")
        if "placeholder" in box and list(box["placeholder"]) != list(PLACEHOLDERS.get(base, ())):
            patch["p"] = box["placeholder"]
        packed = zlib.compress(json.dumps(patch, ensure_ascii=False, separators=(",", ":")).encode(), 9)
        return SHARE_PREFIX + base64.urlsafe_b64encode(packed).decode().rstrip("=")

    @staticmethod
    def fits_qr(share: str) -> bool:
        return len(share) <= QR_BYTES

    def import_share(self, text: str, version: int | None, expect: str | None = None) -> Board:
        text = text.strip()
        if "#" in text:  # a whole link: the share text is its fragment
            text = text.rsplit("#", 1)[1].removeprefix("board=")
        if not text.startswith(SHARE_PREFIX):
            raise SaidInput("board_not_share")
        try:
            body = text[len(SHARE_PREFIX) :]
            inflate = zlib.decompressobj()
            raw = inflate.decompress(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)), 4 << 20)
            if inflate.unconsumed_tail:
                raise ValueError("too large")
            patch = json.loads(raw)
            data = self._unshare(patch)
        except (ValueError, zlib.error, RecursionError, TypeError, KeyError, AttributeError):
            raise SaidInput("board_not_share") from None
        return self.import_file(dump_toml(data).encode(), version, "share", expect)

    def _unshare(self, patch: dict) -> dict:
        """The board a share text stands for: the shipped file with the patch applied (KeyError etc.: not one)."""
        base = patch["b"]
        if base not in shipped():
            raise ValueError("no such base")
        fresh = tomllib.loads(self._fresh(base).text)
        fresh_box = fresh.pop("box")
        data = json.loads(json.dumps(fresh))
        for key in patch.get("-", []):
            data.pop(key, None)
        for key, value in patch.items():
            if key in ("b", "c", "p", "-"):
                continue
            if key in ("cells", "industries"):
                data[key] = _from_ids(value, fresh.get(key, []))
            elif key == "decks":
                decks = data.setdefault("decks", {})
                for deck, cards in value.items():
                    if cards is None:
                        decks.pop(deck, None)
                    else:
                        decks[deck] = _from_ids(cards, fresh.get("decks", {}).get(deck, []))
            elif key in ("edition", "options", "supply", "buildings", "slot", "extra"):
                data[key] = value
            else:
                raise ValueError(f"unknown key {key}")
        items = list(describe(parse_edition(dump_toml(data), "share")))
        bits = int(patch.get("c", "0"), 16)
        data["box"] = {
            "base": base,
            "version": 0,
            "confirmed": [item for i, item in enumerate(items) if bits >> i & 1],
            "placeholder": patch.get("p", fresh_box.get("placeholder", [])),
        }
        return data

    def _keep_history(self, base: str, board: Board) -> None:
        if board.version == 0:
            return
        folder = self.folder / "history"
        write_whole(folder / f"{base}.{board.version}.toml", board.text, private=False)
        kept = sorted(folder.glob(f"{base}.*.toml"), key=lambda p: int(p.stem.rsplit(".", 1)[1]))
        for old in kept[:-HISTORY_KEEP]:
            old.unlink(missing_ok=True)

    def _version(self, base: str, version: int) -> Edition | None:
        """An earlier saved version (to tell what changed since), or None when it is not kept."""
        if version == 0:
            return self._fresh(base).edition
        path = self.folder / "history" / f"{base}.{int(version)}.toml"
        try:
            return parse_edition(path.read_text(encoding="utf-8"), str(path))
        except (OSError, EditionError, ValueError):
            return None


def _depth(value: Any) -> int:
    """How deep lists and tables nest in a value (counted without recursion)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level)
            if level <= MAX_DEPTH:
                todo.extend((v, level + 1) for v in item)
    return deepest


def _by_ids(entries: list, fresh: list) -> list:
    """Entries as a share text sends them: an entry as shipped by its id alone, a changed one whole."""
    shipped_entries = {e.get("id"): e for e in fresh if isinstance(e, dict)}
    return [e["id"] if isinstance(e, dict) and shipped_entries.get(e.get("id")) == e else e for e in entries]


def _from_ids(entries: list, fresh: list) -> list:
    shipped_entries = {e.get("id"): e for e in fresh if isinstance(e, dict)}
    return [shipped_entries[e] if isinstance(e, str) else e for e in entries]


def _parse(text: str, source: str) -> dict:
    try:
        data = tomllib.loads(text)
    except (ValueError, RecursionError):
        parse_edition(text, source)  # raises the loader's one line
        raise
    return data


_PATH = re.compile(r"[A-Za-z0-9_-]{1,32}")


def _apply(data: dict, path: str, value) -> str:
    """Set one value of the parsed board at `path`; the item it belongs to (marked confirmed)."""
    if not isinstance(path, str) or len(path) > 140:
        raise SaidInput("board_bad_path", path=str(path)[:60])
    parts = path.split(".")
    if not all(_PATH.fullmatch(p) for p in parts):
        raise SaidInput("board_bad_path", path=path[:60])
    head = parts[0]
    if head == "cells" and len(parts) == 3:
        entry = _find(data.get("cells"), parts[1], path)
        if parts[2] in ("mortgage", "id", "industry"):
            raise SaidInput("board_locked", path=path)
        entry[parts[2]] = value
        item = f"cells.{parts[1]}" if parts[2] in ("name", "kind", "deck") or parts[2].startswith("name_") else path
        return item
    if head == "decks" and len(parts) == 4:
        deck = data.get("decks", {}).get(parts[1]) if isinstance(data.get("decks"), dict) else None
        entry = _find(deck, parts[2], path)
        if parts[3] == "id":
            raise SaidInput("board_locked", path=path)
        entry[parts[3]] = value
        return f"decks.{parts[1]}.{parts[2]}"
    if head == "industries" and len(parts) == 3:
        entry = _find(data.get("industries"), parts[1], path)
        if parts[2] == "id":
            raise SaidInput("board_locked", path=path)
        entry[parts[2]] = value
        return path if parts[2].endswith("_by_count") else f"industries.{parts[1]}"
    if head in ("slot", "extra") and len(parts) == 2:
        data.setdefault(head, {})[parts[1]] = value
        return "slot" if head == "slot" else path
    if head == "options" and len(parts) == 2 and parts[1] in LOCKED_OPTIONS_EDITABLE:
        data.setdefault("options", {})[parts[1]] = value
        return path
    if head in ("options", "edition", "buildings", "supply"):
        raise SaidInput("board_locked", path=path)
    raise SaidInput("board_bad_path", path=path[:60])


def _find(entries, ident: str, path: str) -> dict:
    if isinstance(entries, list):
        for entry in entries:
            if isinstance(entry, dict) and entry.get("id") == ident:
                return entry
    raise SaidInput("board_bad_path", path=path[:60])
