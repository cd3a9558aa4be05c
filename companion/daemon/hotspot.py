"""The box's own Wi-Fi (optional, off by default: `network.hotspot`): when no known Wi-Fi answers, the box
opens an access point through NetworkManager and the OLED shows a Wi-Fi QR code to join it first.

Everything goes through one runner (companion/daemon/runner.py), so the tests read the nmcli lines
without a radio. NetworkManager itself decides which known network "answers": the box only asks it, once
the wait is over, whether it is connected (`nmcli -t -f STATE general`)."""

import logging
import secrets
import socket
import threading
from collections.abc import Callable
from pathlib import Path

from .runner import Ran, Runner, run

log = logging.getLogger("companion.daemon")

CONNECTION = "companion-hotspot"  # the NetworkManager connection the box makes (and reuses)
KEY_FILE = "hotspot.key"  # the generated Wi-Fi password, kept beside the games (mode 600)
CONNECTED = ("connected", "connected (site only)", "connected (local only)")


def wifi_qr(ssid: str, password: str) -> str:
    """The Wi-Fi QR code's text (the ZXing format phones' cameras join from), special characters escaped."""

    def esc(text: str) -> str:
        return "".join("\\" + c if c in '\\;,:"' else c for c in text)

    return f"WIFI:T:WPA;S:{esc(ssid)};P:{esc(password)};;"


def default_ssid() -> str:
    return "companion-" + socket.gethostname().split(".")[0]


def kept_password(folder: Path) -> str:
    """The hotspot's password: made once (12 letters and digits a person can type) and kept in folder."""
    path = folder / KEY_FILE
    try:
        kept = path.read_text(encoding="ascii").strip()
        if len(kept) >= 8:
            return kept
    except (OSError, UnicodeError):
        pass
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read off a screen
    made = "".join(secrets.choice(alphabet) for _ in range(12))
    folder.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".new")
    tmp.write_text(made + "\n", encoding="ascii")
    tmp.chmod(0o600)
    tmp.replace(path)
    return made


class Hotspot:
    """The access point's life: nothing at all unless enabled; once the wait is over and NetworkManager
    says it is not connected, the access point is opened (and kept open while the box runs)."""

    def __init__(
        self,
        mode: str,
        ssid: str,
        password: str,
        wait: float,
        runner: Runner = run,
        ifname: str = "wlan0",
    ):
        self.enabled = mode == "when_offline"
        self.ssid, self.password, self.wait, self.runner, self.ifname = ssid, password, wait, runner, ifname
        self.active = False
        self.problem = ""  # what nmcli said when the access point could not be opened
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def qr(self) -> str:
        """The Wi-Fi QR code's text while the access point is open, else ""."""
        return wifi_qr(self.ssid, self.password) if self.active else ""

    def check(self) -> bool:
        """Open the access point when NetworkManager is not connected; True when it is open now."""
        if not self.enabled or self.active:
            return self.active
        state = self.runner(["nmcli", "-t", "-f", "STATE", "general"])
        if state.code == 0 and state.output.strip() in CONNECTED:
            return False
        ran: Ran = self.runner(
            [
                "nmcli", "device", "wifi", "hotspot", "ifname", self.ifname, "con-name", CONNECTION,
                "ssid", self.ssid, "password", self.password,
            ]
        )  # fmt: skip
        if ran.code != 0:
            self.problem = ran.output or f"nmcli: exit {ran.code}"
            log.warning("the box's own Wi-Fi could not be opened: %s", self.problem)
            return False
        self.active = True
        return True

    def start(self, on_open: Callable[[], None] | None = None) -> "Hotspot":
        """After the wait (NetworkManager's own time to join a known network), check once on a thread."""
        if not self.enabled:
            return self

        def later() -> None:
            if not self._stop.wait(self.wait) and self.check() and on_open is not None:
                on_open()

        self._thread = threading.Thread(target=later, name="hotspot", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
