"""Whether this machine's clock can be trusted for a time of day (a Pi has no real-time clock: until NTP
answers, it starts near the last shutdown's time, or 1970).

The box never needs the time of day for the game (events are numbered, the ledger chains them); the only
places a time of day reaches a person are the phone page's list of lasting roles ("since") and the file
names of archived games and exports, and those ask `clock_synchronized()` (docs/daemon.md says what is
shown instead)."""

import ctypes
import ctypes.util
from pathlib import Path

TIMESYNC = Path("/run/systemd/timesync")  # systemd-timesyncd (Raspberry Pi OS): `synchronized` once NTP answered
TIME_ERROR = 5  # adjtimex's answer while STA_UNSYNC is set: the kernel knows the clock is not disciplined


def clock_synchronized(timesync: Path = TIMESYNC) -> bool:
    """True when the clock was set from the network since boot.

    systemd-timesyncd touches /run/systemd/timesync/synchronized when it first syncs (readable under the
    unit's sandbox, where adjtimex is forbidden by ProtectClock=); without timesyncd (chrony, ntpd, a
    laptop) the kernel's own flag is read through adjtimex(2), as `timedatectl show -p NTPSynchronized`
    does. Unknown counts as not synchronised."""
    if timesync.is_dir():
        return (timesync / "synchronized").exists()
    return _kernel_synchronized()


def _kernel_synchronized() -> bool:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        timex = ctypes.create_string_buffer(512)  # struct timex, modes = 0: read only
        state = libc.adjtimex(timex)
    except (OSError, AttributeError):
        return False
    return bool(0 <= state != TIME_ERROR)
