"""Edition data files: the shipped ones live here; a table may load its own."""
import re
import tomllib
from pathlib import Path

from companion.errors import EditionError
from companion.engine.board import build_edition
from companion.engine.rulesets import RULESETS

HERE = Path(__file__).parent


def shipped():
    """Ids of the edition files that ship with the companion."""
    return sorted(p.stem for p in HERE.glob("*.toml"))


def load_edition(ref, options=None):
    """Load an edition by shipped id ('elite') or by path to a TOML file.

    `options` ({key: value}) are rule options chosen as the game starts; they
    are written into the edition text, which the ledger stores with the game.
    """
    path = Path(ref)
    if not path.suffix:
        path = HERE / f"{ref}.toml"
        if not path.exists():
            raise EditionError(str(ref), "edition", f"no such edition (shipped: {', '.join(shipped())})")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise EditionError(str(path), "file", f"cannot be read: {exc.strerror or exc}") from None
    if options:
        text = set_options(text, options, str(path))
    return parse_edition(text, str(path))


def toml_value(value):
    """A Python value as the edition file writes it (true/false, "text", numbers, lists)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return str(value)


def _from_text(text, default, source, key):
    """A value typed on the command line, read as the type of the option's default."""
    if isinstance(default, str):
        return text
    try:
        value = tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        raise EditionError(source, f"options.{key}", f"'{text}' is not a value") from None
    return value


def set_options(text, options, source):
    """The edition text with [options] keys set; unknown keys and wrong types are EditionErrors."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise EditionError(source, "syntax", str(exc)) from None
    rules_name = data.get("edition", {}).get("rules")
    if rules_name not in RULESETS:
        raise EditionError(source, "edition.rules", f"must name one of the rules modules, not {rules_name!r}")
    known = RULESETS[rules_name].OPTIONS
    head, header, rest = text.partition("\n[options]\n")
    if not header:
        head, header, rest = text.rstrip("\n") + "\n", "\n[options]\n", ""
    body, next_table, tail = rest.partition("\n[")       # only the [options] table is edited
    for key, value in options.items():
        if key not in known:
            raise EditionError(source, f"options.{key}", f"is not an option of the '{rules_name}' rules "
                               f"(known: {', '.join(sorted(known))})")
        if isinstance(value, str):
            value = _from_text(value, known[key], source, key)
        line = f"{key} = {toml_value(value)}"
        body, n = re.subn(rf"^{re.escape(key)}\s*=.*$", lambda m: line, body, count=1, flags=re.M)
        if not n:
            body = line + "\n" + body
    return head + header + body + next_table + tail


def parse_edition(text, source):
    """Build an Edition from file text (also used to restore a game's stored copy)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise EditionError(source, "syntax", str(exc)) from None
    rules_name = data.get("edition", {}).get("rules") if isinstance(data.get("edition"), dict) else None
    if rules_name not in RULESETS:
        raise EditionError(source, "edition.rules",
                           f"must name one of the rules modules: {', '.join(sorted(RULESETS))} (not {rules_name!r})")
    return build_edition(data, source, RULESETS[rules_name], text=text)


def rules_for(edition):
    return RULESETS[edition.rules](edition)
