"""The address phones reach the box at NOW: this machine's IPv4 addresses, the default route's first,
watched every few seconds on a thread of its own so the QR codes follow a new DHCP lease or network.

Why an IP address and not the .local name in the QR code: Android resolves mDNS names only in some
browsers and versions, so a code carrying http://<name>.local/ fails on many phones; the name is
shown beside the code as text for those that do (and the avahi service file announces it).
Why polling and not netlink: the unit allows no AF_NETLINK (systemd/companion.service), and reading
/sys/class/net plus one ioctl per interface every 5 s costs next to nothing.
"""

import fcntl
import ipaddress
import logging
import socket
import struct
import threading
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger("companion.daemon")

POLL_SECONDS = 5.0  # how soon a new address reaches the QR code
SIOCGIFADDR = 0x8915  # linux/sockios.h: an interface's IPv4 address
SYS_NET = Path("/sys/class/net")
PROC_ROUTE = Path("/proc/net/route")


def interface_addresses(sys_net: Path = SYS_NET) -> dict[str, str]:
    """Each interface with an IPv4 address, by name (loopback and link-local 169.254/16 left out: no phone
    reaches those)."""
    found: dict[str, str] = {}
    try:
        names = sorted(p.name for p in sys_net.iterdir())
    except OSError:
        return found
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for name in names:
            try:
                packed = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:  # no IPv4 address (or the interface went away)
                continue
            address = ipaddress.IPv4Address(packed[20:24])
            if not (address.is_loopback or address.is_link_local):
                found[name] = str(address)
    return found


def default_route_interfaces(route: Path = PROC_ROUTE) -> list[str]:
    """The interfaces that carry a default route, the lowest metric first (/proc/net/route)."""
    routes: list[tuple[int, str]] = []
    try:
        rows = route.read_text().splitlines()[1:]
    except OSError:
        return []
    for row in rows:
        cols = row.split()
        if len(cols) >= 8 and cols[1] == "00000000" and cols[7:8] == ["00000000"]:
            routes.append((int(cols[6]), cols[0]))
    return [name for _, name in sorted(routes)]


def choose_address(addresses: dict[str, str], defaults: list[str]) -> str:
    """The one address the QR code carries: the default route's interface first (the network the home's
    phones are on), then Wi-Fi (wl*: the box's own access point too), then wired (en*, eth*), then any
    other; "" when there is none."""
    for name in defaults:
        if name in addresses:
            return addresses[name]

    def rank(name: str) -> tuple[int, str]:
        return (0 if name.startswith("wl") else 1 if name.startswith(("en", "eth")) else 2, name)

    for name in sorted(addresses, key=rank):
        return addresses[name]
    return ""


def current_address() -> str:
    """The address phones reach this box at now ("" without any network)."""
    return choose_address(interface_addresses(), default_route_interfaces())


def mdns_name() -> str:
    """This machine's mDNS name (what avahi announces; a -2 after a conflict is `companion doctor`'s)."""
    return socket.gethostname().split(".")[0] + ".local"


class AddressWatch:
    """The current address, looked up again every `every` seconds on its own thread; on_change is called
    (on that thread) when it changes."""

    def __init__(
        self,
        on_change: Callable[[str], None] | None = None,
        every: float = POLL_SECONDS,
        lookup: Callable[[], str] = current_address,
    ):
        self.on_change = on_change
        self.every = every
        self.lookup = lookup
        self.address = lookup()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def refresh(self) -> bool:
        """Look the address up now; True when it changed (on_change has then been called)."""
        try:
            address = self.lookup()
        except OSError as exc:  # never let a strange interface stop the watch
            log.warning("the box's address could not be read: %s", exc)
            return False
        if address == self.address:
            return False
        log.info("the box's address changed: %s -> %s", self.address or "none", address or "none")
        self.address = address
        if self.on_change is not None:
            self.on_change(address)
        return True

    def start(self) -> "AddressWatch":
        self._thread = threading.Thread(target=self._run, name="address-watch", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self.refresh()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2.0)
