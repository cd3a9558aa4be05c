"""`companion backup` (write one archive of the box; `backup list`: the archives kept) and `companion restore
ARCHIVE` (checked whole, staged for the daemon's next start, or put in place at once when no daemon runs).
docs/backup.md says what an archive holds."""

import argparse
import json
import zipfile
from pathlib import Path

from companion.backup.archive import make_backup, numbered, prune
from companion.backup.keeper import USB_FOLDER, box_folder
from companion.backup.layout import CONFIG, MANIFEST
from companion.backup.restore import apply_staged, check_and_stage, give_to_owner
from companion.cli.common import CommandFactory, out, say
from companion.daemon.config import Config, load_config
from companion.daemon.games import DaemonLock, folder_holder
from companion.errors import EXIT_LEDGER
from companion.ledger.anchor import default_state_dir
from companion.words import messages


def _config(args: argparse.Namespace) -> Config:
    return load_config(getattr(args, "config", None))


def _config_file(config: Config) -> str | None:
    return config.source if Path(config.source).is_file() else None


def cmd_backup(args: argparse.Namespace) -> int:
    config = _config(args)
    if getattr(args, "action", None) == "list":
        return _list(config, args.lang)
    folder = Path(args.to).expanduser() if args.to else box_folder(config.games_dir)
    made = make_backup(config.games_dir, default_state_dir(), folder, _config_file(config), pins=not args.without_pins)
    if not args.to:
        if config["backup.keep"] > 0:
            prune(folder, config["backup.keep"])
        give_to_owner(config.games_dir, [folder])  # run with sudo: the daemon still writes its own there
    out(messages.render("backup_written", {"path": str(made.path), "count": len(made.manifest["ledgers"])}, args.lang))
    for name, why in made.left_out.items():
        out(messages.render("backup_left_out", {"file": name, "why": why}, args.lang))
    return 0


def _list(config: Config, lang: str) -> int:
    folders = [box_folder(config.games_dir)]
    if config["backup.usb"]:
        folders.append(Path(config["backup.usb"]) / USB_FOLDER)
    for folder in folders:
        found = numbered(folder)
        if not found:
            out(messages.render("backup_list_none", {"folder": str(folder)}, lang))
        for _, path in found:
            out(
                messages.render("backup_list_line", {"path": str(path), "count": _games(path), "size": _kb(path)}, lang)
            )
    return 0


def _games(path: Path) -> int:
    try:
        with zipfile.ZipFile(path) as zf:
            return len(json.loads(zf.read(MANIFEST)).get("ledgers", {}))
    except (OSError, KeyError, ValueError, zipfile.BadZipFile, AttributeError):
        return 0


def _kb(path: Path) -> int:
    try:
        return max(1, round(path.stat().st_size / 1024))
    except OSError:
        return 0


def cmd_restore(args: argparse.Namespace) -> int:
    config = _config(args)
    lang = args.lang
    staged = check_and_stage(Path(args.archive).expanduser(), config.games_dir, lang)
    mine = _config_file(config)
    if mine is not None:
        try:
            with zipfile.ZipFile(Path(args.archive).expanduser()) as zf:
                theirs = zf.read(CONFIG)
            if theirs != Path(mine).read_bytes():
                out(messages.render("restore_config_differs", {"path": mine}, lang))
        except (KeyError, OSError, zipfile.BadZipFile):
            pass
    if folder_holder(config.games_dir) is not None:  # the daemon holds the game: it applies it at its start
        out(messages.render("restore_staged", {"path": Path(args.archive).name, "count": staged.games}, lang))
        return 0
    lock = DaemonLock(config.games_dir)
    lock.acquire("")  # no daemon may start on the folder while its files are swapped
    try:
        lines = apply_staged(config.games_dir, default_state_dir())
    finally:
        lock.release()
    for line in lines:
        out(say(line, lang))
    return 0 if any(line.code.startswith("restore_applied") for line in lines) else EXIT_LEDGER


def add_parsers(command: CommandFactory, lang: argparse.ArgumentParser) -> None:
    """backup (and backup list), restore."""
    conf = argparse.ArgumentParser(add_help=False)
    conf.add_argument(
        "--config", default=argparse.SUPPRESS, help="the daemon's configuration file (to find its games folder)"
    )
    p = command(
        "backup",
        help="write one archive of the box (every game, the archive, the card map, the anchors, the box's files, "
        "the config, a manifest of checksums); `backup list`: the archives kept",
        parents=[conf],
    )
    p.add_argument("--to", help="the folder to write it into (default: <games_dir>/backups, kept to backup.keep)")
    p.add_argument("--without-pins", action="store_true", help="leave the banker's and the seats' PINs out")
    sub = p.add_subparsers(dest="action", required=False)
    sub.add_parser("list", help="the archives in <games_dir>/backups (and on the USB stick)", parents=[conf, lang])
    p.set_defaults(func=cmd_backup)

    p = command(
        "restore",
        help="check an archive whole and put it in place: at the daemon's next start, or at once when none runs",
        parents=[conf],
    )
    p.add_argument("archive")
    p.set_defaults(func=cmd_restore)
