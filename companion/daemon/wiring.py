"""The box's parts built from its config: the reader's port, the OLED, the four buttons, and the web
servers of the virtual table and the phone page. Each is handed what it needs; a part that is missing
here (no display, no GPIO, a port taken) is said on the box and left out, never simulated."""

import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.hw import buttons as box_buttons
from companion.hw.display import DisplayMissing, FontMissing, Screen, open_device
from companion.hw.reader import BY_ID_PATTERN
from companion.hw.simreader import SimulatedReader

from .config import Config
from .hotspot import Hotspot, default_ssid, kept_password
from .owner import Owner
from .panel import Panel

if TYPE_CHECKING:
    from .console import Console

Say = Callable[..., None]  # the box's `say(code, **params)`: a notice on every screen and in the journal

# logind's PowerOff straight over D-Bus (what `systemctl poweroff` asks for too, without its fallbacks); the
# service's user may only because of the polkit rule systemd/install.sh writes. false: never ask a password
POWER_OFF = [
    "busctl", "call", "org.freedesktop.login1", "/org/freedesktop/login1",
    "org.freedesktop.login1.Manager", "PowerOff", "b", "false",
]  # fmt: skip


def open_hotspot(config: Config, runner: Callable[[list[str]], Any]) -> Hotspot:
    """The box's own Wi-Fi as the config asks (off by default: it then never runs anything); the password
    is made and kept only when it is on."""
    mode = config["network.hotspot"]
    on = mode != "off"
    password = config["network.hotspot_password"] or (kept_password(config.games_dir) if on else "")
    ssid = config["network.hotspot_ssid"] or default_ssid()
    return Hotspot(mode, ssid, password, config["network.hotspot_wait_seconds"], runner)


def reader_port(config: Config, sim: SimulatedReader | None) -> str:
    """The serial port the reader link opens: the simulated reader's pty, or the config's (auto: by id)."""
    if sim is not None:
        return sim.path
    return BY_ID_PATTERN if config["reader.port"] == "auto" else config["reader.port"]


def open_panel(config: Config, owner: Owner, lang: str, console: "Console", say: Say) -> Panel | None:
    """The OLED (luma's dummy device with simulated hardware); a missing one is said, not simulated."""
    real = config["hardware"] == "real"
    try:
        device = open_device(
            "real" if real else "dummy",
            driver=config["display.driver"],
            bus=config["display.bus"],
            address=config["display.i2c_address"],
            port=config["display.i2c_port"],
        )
        screen = Screen(device)
    except (DisplayMissing, FontMissing) as exc:
        say("display_missing", info=str(exc))
        return None
    return Panel(screen, owner, lang, console=console).start()


def open_buttons(
    config: Config, on_press: Callable[[box_buttons.Press], None], say: Say
) -> tuple[box_buttons.Buttons | None, Any]:
    """The four buttons and the pin factory behind them: GPIO pins from the config, or gpiozero's mock pins
    with simulated hardware (the factory the virtual table presses them through; None on real pins)."""
    pins = {name: config[f"buttons.{name}"] for name in ("ok", "back", "up", "down")}
    if config["hardware"] == "simulated":
        buttons, pin_factory = box_buttons.mock(on_press, pins)
        return buttons, pin_factory
    try:
        with warnings.catch_warnings():  # gpiozero warns of each pin library it tries; the line below says it
            warnings.simplefilter("ignore")
            return box_buttons.Buttons(on_press, pins), None
    except Exception as exc:  # no GPIO here (gpiozero finds no pin library): the cards still work
        say("buttons_missing", info=" ".join(str(exc).split()))
        return None, None


def serve_virtual_table(config: Config, service: Any, phone: Any, say: Say) -> Any:
    """The virtual table (web/): the OLED, the buttons, ROLL and the cards in a browser, over its service
    (companion/daemon/virtual.py); the phone page beside it when there is one. None: the port is taken."""
    from web.app import create_app
    from web.serve import VirtualTableServer

    # the names it may be asked for under besides localhost and this machine's (DNS rebinding, web/hosts.py)
    names = (*str(config["phone.allowed_hosts"]).split(","), str(config["virtual_table.host"]))
    app = create_app(service, ALLOWED_HOSTS=names)
    threads = 8
    if phone is not None:  # the phone page beside it, at /phone/ (docs/phone.md): a few more threads
        from web.phone import register_phone

        register_phone(app, phone, MAX_STREAMS=12)
        threads += 16
    server = VirtualTableServer(
        app, host=config["virtual_table.host"], port=config["virtual_table.port"], threads=threads
    )
    try:
        server.start()
    except OSError as exc:
        say("virtual_table_failed", info=" ".join(str(exc).split()))
        return None
    say("virtual_table_ready", url=server.url)
    if phone is not None:  # the table code to join is on the box's Game → Phone page screen
        say("phone_ready", url=server.url + "phone/")
    return server


def serve_phone(config: Config, phone: Any, page_url: str, say: Say) -> Any:
    """The phone page (web/phone/) on its own server, where the config says (docs/phone.md). page_url: the
    address phones use, said when the server listens on every network. None: the port is taken."""
    from web.phone import create_phone_app
    from web.serve import VirtualTableServer

    threads = config["phone.threads"]
    # every open page's live stream holds a thread: leave a few for the pages' own requests
    app = create_phone_app(phone, MAX_STREAMS=max(1, threads - max(4, threads // 8)))
    server = VirtualTableServer(
        app, host=config["phone.host"], port=config["phone.port"], threads=threads, what="the phone page"
    )
    try:
        server.start()
    except OSError as exc:
        say("phone_failed", info=" ".join(str(exc).split()))
        return None
    url = server.url + "phone/"
    if config["phone.host"] in ("0.0.0.0", "::", ""):  # every network: say the name phones use
        url = page_url
    say("phone_ready", url=url)
    return server
