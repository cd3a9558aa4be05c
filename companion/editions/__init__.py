"""Edition data files: the shipped ones live here; a table may load its own."""
import tomllib
from pathlib import Path

from companion.errors import EditionError
from companion.engine.board import build_edition
from companion.engine.rulesets import RULESETS

HERE = Path(__file__).parent


def shipped():
    """Ids of the edition files that ship with the companion."""
    return sorted(p.stem for p in HERE.glob("*.toml"))


def load_edition(ref):
    """Load an edition by shipped id ('elite') or by path to a TOML file."""
    path = Path(ref)
    if not path.suffix:
        path = HERE / f"{ref}.toml"
        if not path.exists():
            raise EditionError(str(ref), "edition", f"no such edition (shipped: {', '.join(shipped())})")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise EditionError(str(path), "file", f"cannot be read: {exc.strerror or exc}") from None
    return parse_edition(text, str(path))


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
