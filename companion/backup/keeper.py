"""The box's automatic backups: one at each game's end in <games_dir>/backups, the oldest beyond `backup.keep`
removed, and a copy onto a USB stick when `backup.usb` names its mount point (a missing or read-only stick
is one line, never a failure of the game's end)."""

import errno
import os
import shutil
from pathlib import Path

from companion.errors import CompanionError, Message, cause_of

from . import layout
from .archive import make_backup, prune

USB_FOLDER = "companion-backups"  # on the stick: <mount point>/companion-backups/


def box_folder(games_dir: Path) -> Path:
    return Path(games_dir) / layout.BACKUPS


def after_game(
    games_dir: Path, state_dir: Path, keep: int, usb: str = "", config_path: str | None = None
) -> list[Message]:
    """The backup at a game's end: the lines to say (never raises for an OSError or a ledger's refusal)."""
    if keep <= 0:
        return []
    folder = box_folder(games_dir)
    try:
        made = make_backup(Path(games_dir), Path(state_dir), folder, config_path)
    except (OSError, CompanionError) as exc:
        return [Message("backup_auto_failed", detail=_detail(exc), cause=cause_of(exc))]
    prune(folder, keep)
    lines = [Message("backup_made", path=made.path.name, count=len(made.manifest["ledgers"]))]
    lines += [Message("backup_left_out", file=name, why=why) for name, why in made.left_out.items()]
    if usb:
        lines.append(copy_to_usb(made.path, Path(usb), keep))
    return lines


def copy_to_usb(archive: Path, mount: Path, keep: int) -> Message:
    """The archive copied onto the stick (written aside, synced, renamed), the stick's copies kept to `keep`."""
    if not os.path.ismount(mount):  # never onto the SD card under an empty mount point
        return Message("backup_usb_missing", folder=str(mount))
    folder = mount / USB_FOLDER
    tmp = folder / f".{archive.name}.tmp"
    try:
        folder.mkdir(exist_ok=True)
        shutil.copyfile(archive, tmp)
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, folder / archive.name)
        prune(folder, keep)
    except OSError as exc:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        code = "backup_usb_read_only" if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM) else "backup_usb_failed"
        return Message(code, folder=str(mount), detail=_detail(exc), cause=cause_of(exc))
    return Message("backup_usb_copied", folder=str(mount), path=archive.name)


def _detail(exc: BaseException) -> str:
    return str(getattr(exc, "strerror", None) or exc)
