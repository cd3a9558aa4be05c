"""The doctor's checks of the box itself: the unit, the phone page's port, the disk, the ledger, the
power supply, the addresses the phones reach and the mDNS name."""

import contextlib
import os
import shutil
import sqlite3
import tempfile
from pathlib import Path

from companion.daemon.games import CURRENT
from companion.errors import CompanionError
from companion.table.service import verify_game

from .result import Context, Result, fail, ok, warn

UNIT = "companion"
DISK_FAIL_BYTES = 50 * 1024 * 1024  # below this a game's ledger, a backup or an update may not fit
DISK_WARN_BYTES = 200 * 1024 * 1024
THROTTLED_FILE = "/sys/devices/platform/soc/soc:firmware/get_throttled"
# the Pi firmware's get_throttled bits (raspberrypi.com docs, vcgencmd): now, and since boot
UNDERVOLTAGE_NOW, CAPPED_NOW, THROTTLED_NOW, SOFT_TEMP_NOW = 0x1, 0x2, 0x4, 0x8
UNDERVOLTAGE_SINCE, CAPPED_SINCE, THROTTLED_SINCE, SOFT_TEMP_SINCE = 0x10000, 0x20000, 0x40000, 0x80000
# the daemon's exit codes a person must look at (docs/exit-codes.md; the unit does not restart on them)
EXIT_WORDS = {2: "usage", 4: "config", 6: "ledger", 9: "halted"}


def check_unit(ctx: Context) -> Result:
    """The unit's state and its last exit code (systemctl show)."""
    sys = ctx.system
    if not sys.exists("/run/systemd/system"):
        return warn("unit", "doctor_no_systemd", "doctor_fix_run_by_hand")
    code, out = sys.run("systemctl", "show", UNIT, "-p", "LoadState,ActiveState,Result,ExecMainStatus")
    if code == 127:
        return warn("unit", "doctor_no_systemd", "doctor_fix_run_by_hand")
    props = dict(line.partition("=")[::2] for line in out.splitlines() if "=" in line)
    if props.get("LoadState") == "not-found":
        return fail("unit", "doctor_unit_missing", "doctor_fix_install")
    state, result = props.get("ActiveState", "?"), props.get("Result", "?")
    status = int(props["ExecMainStatus"]) if props.get("ExecMainStatus", "").isdigit() else 0
    if state == "active":
        return ok("unit", "doctor_unit_active")
    if state in ("activating", "reloading"):
        return warn("unit", "doctor_unit_starting", "doctor_fix_journal", state=state)
    if state == "failed" or status != 0:
        why = EXIT_WORDS.get(status, "other")
        return fail("unit", f"doctor_unit_failed_{why}", "doctor_fix_journal", result=result, status=status)
    return warn("unit", "doctor_unit_stopped", "doctor_fix_start", state=state)


def check_port(ctx: Context) -> Result:
    """Who listens on the phone page's port (/proc/net/tcp, /proc/*/fd)."""
    port = int(ctx.config["phone.port"])
    if port == 0:
        return ok("port", "doctor_port_off")
    sys = ctx.system
    sockets = sys.listeners(port)
    if not sockets:
        if ctx.holder is not None:
            return fail("port", "doctor_port_silent", "doctor_fix_journal", port=port)
        return warn("port", "doctor_port_free", "doctor_fix_start", port=port)
    holders = sys.holders(sockets)
    others = [h for h in holders if not ctx.is_daemon(h)]
    if len(others) < len(holders):
        return ok("port", "doctor_port_ours", port=port)
    if others:
        who = others[0]
        return fail("port", "doctor_port_taken", "doctor_fix_port", port=port, pid=who.pid, name=who.name)
    if os.geteuid() != 0:  # another user's process: only root may look into its descriptors
        return warn("port", "doctor_port_unseen", "doctor_fix_games_dir", port=port)
    return fail("port", "doctor_port_taken_unknown", "doctor_fix_port", port=port)


def check_disk(ctx: Context) -> Result:
    """Free space where the ledger lives."""
    folder = ctx.config.games_dir
    free = ctx.system.free_bytes(folder)
    if free is None:
        return warn("disk", "doctor_disk_unknown", "doctor_fix_games_dir", folder=str(folder))
    mb = free // (1024 * 1024)
    if free < DISK_FAIL_BYTES:
        return fail("disk", "doctor_disk_full", "doctor_fix_disk", folder=str(folder), mb=mb)
    if free < DISK_WARN_BYTES:
        return warn("disk", "doctor_disk_low", "doctor_fix_disk", folder=str(folder), mb=mb)
    return ok("disk", "doctor_disk_ok", folder=str(folder), mb=mb)


def check_ledger(ctx: Context) -> Result:
    """The current game's file: SQLite's integrity check, then its hash chain replayed, never writing to it."""
    path = ctx.system.path(ctx.config.games_dir) / CURRENT
    if path.parent.is_dir() and not os.access(path.parent, os.R_OK | os.X_OK):
        # the service's folder (0750): another user cannot even see whether a game is there
        return warn("ledger", "doctor_ledger_unreadable", "doctor_fix_games_dir", path=str(path.parent))
    if not path.exists():
        return ok("ledger", "doctor_ledger_none")
    if not os.access(path, os.R_OK):
        return warn("ledger", "doctor_ledger_unreadable", "doctor_fix_games_dir", path=str(path))
    where = {"path": str(path)}
    with tempfile.TemporaryDirectory(prefix="companion-doctor-") as scratch:
        checked = path
        if ctx.holder is None:
            # no daemon: a copy is checked, because SQLite leaves -wal and -shm files beside a WAL ledger a
            # read-only reader opened (owned by root under sudo, they would lock the service out of its game)
            checked = Path(scratch) / CURRENT
            for suffix in ("", "-wal"):
                if Path(f"{path}{suffix}").exists():
                    shutil.copyfile(f"{path}{suffix}", f"{checked}{suffix}")
        # else the daemon holds the game: read-only in place, as `companion verify` does (a WAL reader never
        # blocks the writer, and the daemon's own connection keeps its -wal and -shm files)
        problem = _integrity(checked)
        if problem is not None:
            return fail("ledger", "doctor_ledger_corrupt", "doctor_fix_recover", where, detail=problem, **where)
        try:
            # the anchors: $COMPANION_STATE_DIR as the unit sets it, else the games folder (one folder by default)
            table = verify_game(str(checked), os.environ.get("COMPANION_STATE_DIR") or str(path.parent))
        except CompanionError as exc:
            return fail("ledger", "doctor_ledger_chain", "doctor_fix_recover", where, why=exc, **where)
        try:
            seq, stranger = table.head_seq, table.stranger
        finally:
            table.close()
    if stranger:
        return warn("ledger", "doctor_ledger_stranger", "doctor_fix_accept", where, count=seq, **where)
    return ok("ledger", "doctor_ledger_ok", count=seq, **where)


def _integrity(path: Path) -> str | None:
    """SQLite's integrity check of a ledger file opened read-only: None when it says ok, else its first line."""
    try:
        with contextlib.closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as db:
            verdict = [row[0] for row in db.execute("PRAGMA integrity_check")]
    except sqlite3.Error as exc:
        return str(exc)
    return None if verdict == ["ok"] else str(verdict[0])


def throttled_flags(ctx: Context) -> int | None:
    """The firmware's throttled bits: `vcgencmd get_throttled`, else the file the kernel driver offers."""
    code, out = ctx.system.run("vcgencmd", "get_throttled")
    text = out.partition("=")[2].strip() if code == 0 and "=" in out else (ctx.system.read(THROTTLED_FILE) or "")
    try:
        return int(text.strip(), 16)
    except ValueError:
        return None


def check_power(ctx: Context) -> Result:
    """Undervoltage and throttling, now and since boot (the Pi firmware's flags)."""
    flags = throttled_flags(ctx)
    if flags is None:
        return warn("power", "doctor_power_unknown", "doctor_fix_vcgencmd")
    now = [
        w
        for bit, w in (
            (UNDERVOLTAGE_NOW, "undervoltage"),
            (THROTTLED_NOW, "throttled"),
            (CAPPED_NOW, "capped"),
            (SOFT_TEMP_NOW, "hot"),
        )
        if flags & bit
    ]
    since = [
        w
        for bit, w in (
            (UNDERVOLTAGE_SINCE, "undervoltage"),
            (THROTTLED_SINCE, "throttled"),
            (CAPPED_SINCE, "capped"),
            (SOFT_TEMP_SINCE, "hot"),
        )
        if flags & bit
    ]
    hex_flags = f"0x{flags:X}"
    if "undervoltage" in now:
        return fail("power", "doctor_power_low_now", "doctor_fix_power", flags=hex_flags)
    if now:
        return warn("power", "doctor_power_throttled_now", "doctor_fix_cooling", flags=hex_flags)
    if "undervoltage" in since:
        return warn("power", "doctor_power_low_since", "doctor_fix_power", flags=hex_flags)
    if since:
        return warn("power", "doctor_power_throttled_since", "doctor_fix_cooling", flags=hex_flags)
    return ok("power", "doctor_power_ok")


def addresses(ctx: Context) -> list[tuple[str, str]]:
    """(interface, IPv4 address) of every up interface but loopback (`ip -4 -o addr show up`)."""
    code, out = ctx.system.run("ip", "-4", "-o", "addr", "show", "up")
    found = []
    for line in out.splitlines() if code == 0 else []:
        words = line.split()
        if len(words) >= 4 and words[2] == "inet":
            address = words[3].partition("/")[0]
            if not address.startswith("127."):
                found.append((words[1], address))
    return found


def check_addresses(ctx: Context) -> Result:
    """The addresses a phone on the same network can open the phone page at."""
    found = addresses(ctx)
    port = int(ctx.config["phone.port"])
    if not found:
        return fail("addresses", "doctor_no_address", "doctor_fix_wifi")
    urls = [f"http://{address}:{port}/ ({name})" for name, address in found]
    return ok("addresses", "doctor_addresses_ok", urls=urls)


def avahi_name(ctx: Context) -> str | None:
    """The name avahi announces (its process title: `avahi-daemon: running [NAME.local]`), or None."""
    for process in ctx.system.processes():
        if process.name == "avahi-daemon" and "[" in process.command:
            return process.command.rpartition("[")[2].partition("]")[0]
    return None


def check_mdns(ctx: Context) -> Result:
    """The .local name phones may use, and avahi's `-2` rename after a name conflict."""
    host = (ctx.system.read("/etc/hostname") or "").strip()
    if not host:
        code, out = ctx.system.run("hostname")
        host = out.strip() if code == 0 else "?"
    announced = avahi_name(ctx)
    if announced is None:
        return warn("mdns", "doctor_no_avahi", "doctor_fix_avahi", host=host)
    wanted = f"{host}.local"
    if announced.lower() != wanted.lower():
        return warn("mdns", "doctor_mdns_renamed", "doctor_fix_mdns_conflict", name=announced, wanted=wanted)
    return ok("mdns", "doctor_mdns_ok", name=announced)
