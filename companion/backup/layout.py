"""What a backup holds of the box: the names in the games folder and the anchor folder, and where each lies
inside the archive (the one list both the backup and the restore read)."""

from pathlib import Path

from companion.daemon.games import ARCHIVE, BOARDS, CURRENT
from companion.daemon.phonekeep import FOLDER as PHONES
from companion.daemon.settings import FILE as BOX_FILE
from companion.daemon.walk import WALK_FILE

CARDS = "cards.json"  # the card map (companion/daemon/main.py opens it by this name)
MANIFEST = "manifest.json"
GAMES = "games/"  # the games folder's entries, under these names, inside the archive
ANCHORS = "anchors/"  # this machine's anchors of the games in the archive (one per game id)
CONFIG = "config/companion.toml"  # the configuration the box ran with (kept, never written back)

# the games folder's entries a backup carries and a restore puts back whole (each replaced as one)
LEDGER_ENTRIES = (CURRENT, ARCHIVE)
FILE_ENTRIES = (CARDS, BOX_FILE, WALK_FILE)
FOLDER_ENTRIES = (PHONES, BOARDS)
ENTRIES = LEDGER_ENTRIES + FILE_ENTRIES + FOLDER_ENTRIES

BACKUPS = "backups"  # <games_dir>/backups: the box's own archives, at most backup.keep of them
STAGED = "restore-staged"  # <games_dir>/restore-staged: a checked restore waiting for the daemon's start
PENDING = "restore.pending"  # the marker naming it; renamed to APPLYING before anything moves
APPLYING = "restore.applying"
REPLACED = "before-restore"  # <games_dir>/before-restore-<n>: what a restore put aside, never deleted


def ledgers_in(games_dir: Path) -> list[str]:
    """The ledgers of the games folder, as archive names: the current game, then the archive's by name."""
    names = [CURRENT] if (games_dir / CURRENT).is_file() else []
    archive = games_dir / ARCHIVE
    if archive.is_dir():
        names += [f"{ARCHIVE}/{p.name}" for p in sorted(archive.glob("*.sqlite")) if p.is_file()]
    return names


def small_files_in(games_dir: Path) -> list[str]:
    """The box's own small files (card map, box.json, the walk, phone roles, boards), as archive names;
    temporary files of a write in flight (`.name.tmp`) are left out."""
    names = [name for name in FILE_ENTRIES if (games_dir / name).is_file()]
    for folder in FOLDER_ENTRIES:
        root = games_dir / folder
        if root.is_dir():
            for path in sorted(root.rglob("*")):
                if path.is_file() and not path.is_symlink() and not path.name.startswith("."):
                    names.append(path.relative_to(games_dir).as_posix())
    return names
