"""The archive's manifest (manifest.json): the versions it was made by, each file's size and SHA-256, each
ledger's game and head; read back with every field checked and a newer version refused."""

import hashlib
import json
import re
from importlib import metadata
from pathlib import Path
from typing import Any

from companion.engine.rulesets import RULES_VERSION
from companion.errors import SaidInput
from companion.ledger.schema import VERSION as SCHEMA_VERSION

FORMAT = 1  # the archive's own layout; a newer one is refused like a newer companion
KIND = "companion-backup"
# a name inside the archive: plain relative parts, never "..", a leading "/" or a backslash
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}(/[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}){0,4}")
_HEX = re.compile(r"[0-9a-f]{64}")
MAX_FILE = 2 * 1024**3  # a file the manifest may name: a ledger of a very long evening is a few MB


def companion_version() -> str:
    """This companion's version (pyproject's, from the installed metadata; "0" in a bare source tree)."""
    try:
        return metadata.version("companion")
    except metadata.PackageNotFoundError:
        return "0"


def version_key(text: str) -> tuple[int, ...]:
    """ "0.10.2" -> (0, 10, 2): compared part by part, so 0.10 is newer than 0.9; a part that is not a
    number (a tag) counts as 0."""
    return tuple(int(p) if p.isdigit() else 0 for p in re.split(r"[.+-]", text)[:4])


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def good_name(name: object) -> bool:
    return isinstance(name, str) and bool(_NAME.fullmatch(name)) and ".." not in name.split("/")


def new_manifest(counter: int, clock: str, pins: bool) -> dict[str, Any]:
    """The manifest's head; files and ledgers are added as they are written."""
    return {
        "kind": KIND,
        "format": FORMAT,
        "companion": companion_version(),
        "rules_version": RULES_VERSION,
        "schema_version": SCHEMA_VERSION,
        "counter": counter,
        "clock": clock,  # a hint only: a Pi without network keeps no time (nothing is ordered by it)
        "pins": "kept" if pins else "removed",
        "files": {},  # archive name -> {"size", "sha256"}
        "ledgers": {},  # archive name -> {"game", "events", "head", "first", "anchored"}
        "left_out": {},  # archive name -> why it is not in the archive (a ledger that would not open)
    }


def text_of(manifest: dict[str, Any]) -> str:
    return json.dumps(manifest, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def read_manifest(raw: bytes, archive: str) -> dict[str, Any]:
    """The manifest checked field by field (SaidInput `backup_*` naming what is wrong); a newer companion's,
    rules' or ledger schema's archive refused in one line."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise SaidInput("backup_manifest_unreadable", path=archive) from None
    if not isinstance(data, dict) or data.get("kind") != KIND:
        raise SaidInput("backup_manifest_unreadable", path=archive)
    for key in ("format", "rules_version", "schema_version", "counter"):
        if not isinstance(data.get(key), int) or isinstance(data.get(key), bool):
            raise SaidInput("backup_manifest_field", path=archive, setting=key)
    for key in ("companion", "clock", "pins"):
        if not isinstance(data.get(key), str):
            raise SaidInput("backup_manifest_field", path=archive, setting=key)
    ours = companion_version()
    newer: list[tuple[str, object, object]] = [
        (what, theirs, mine)
        for what, theirs, mine in (
            ("format", data["format"], FORMAT),
            ("rules", data["rules_version"], RULES_VERSION),
            ("schema", data["schema_version"], SCHEMA_VERSION),
        )
        if theirs > mine
    ]
    if version_key(data["companion"]) > version_key(ours):
        newer.insert(0, ("companion", data["companion"], ours))
    if newer:
        what, theirs, mine = newer[0]
        raise SaidInput("backup_newer_" + what, path=archive, found=str(theirs), supported=str(mine))
    files, ledgers = data.get("files"), data.get("ledgers")
    if not isinstance(files, dict) or not isinstance(ledgers, dict):
        raise SaidInput("backup_manifest_field", path=archive, setting="files")
    for name, entry in files.items():
        if (
            not good_name(name)
            or not isinstance(entry, dict)
            or not isinstance(entry.get("size"), int)
            or not 0 <= entry["size"] <= MAX_FILE
            or not isinstance(entry.get("sha256"), str)
            or not _HEX.fullmatch(entry["sha256"])
        ):
            raise SaidInput("backup_manifest_entry", path=archive, file=str(name)[:100])
    for name, entry in ledgers.items():
        if "games/" + str(name) not in files or not isinstance(entry, dict) or not isinstance(entry.get("game"), str):
            raise SaidInput("backup_manifest_entry", path=archive, file=str(name)[:100])
        if not re.fullmatch(r"[0-9a-f]{1,64}", entry["game"]) or not isinstance(entry.get("anchored"), bool):
            raise SaidInput("backup_manifest_entry", path=archive, file=str(name)[:100])
    return data
