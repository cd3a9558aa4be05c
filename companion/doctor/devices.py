"""The doctor's checks of the parts on the Pi's pins and ports: the groups, the device nodes, the reader,
the OLED, the buttons and the reader's firmware."""

from companion.hw.firmware import SHIPPED, is_older
from companion.hw.reader import BY_ID_PATTERN

from .result import Context, Result, fail, ok, warn

SERVICE_USER = "companion"
DEVICE_GROUPS = ("gpio", "i2c", "spi", "dialout")  # the unit's SupplementaryGroups= (systemd/companion.service)
UDEV_NAME = "/dev/companion-reader"  # the installer's udev rule (/etc/udev/rules.d/70-companion-reader.rules)
UDEV_RULE = "/etc/udev/rules.d/70-companion-reader.rules"
I2C_PINS = (2, 3)  # SDA, SCL of /dev/i2c-1
SPI_PINS = (7, 8, 9, 10, 11)  # SPI0: CE1, CE0, MISO, MOSI, SCLK


def check_groups(ctx: Context) -> Result:
    """The service user and the device groups the unit gives it exist (sysusers.d)."""
    sys = ctx.system
    users = {line.split(":", 1)[0] for line in (sys.read("/etc/passwd") or "").splitlines()}
    groups = {line.split(":", 1)[0] for line in (sys.read("/etc/group") or "").splitlines()}
    missing = [g for g in DEVICE_GROUPS if g not in groups]
    fix = "doctor_fix_install"
    if SERVICE_USER not in users:
        return warn("groups", "doctor_no_user", fix, user=SERVICE_USER)
    if missing:
        return fail("groups", "doctor_groups_missing", "doctor_fix_sysusers", groups=missing, user=SERVICE_USER)
    return ok("groups", "doctor_groups_ok", groups=list(DEVICE_GROUPS), user=SERVICE_USER)


def check_nodes(ctx: Context) -> Result:
    """/dev/i2c-N (the OLED on I2C), /dev/spidev0.0 (on SPI) and /dev/gpiochip* (the buttons)."""
    if not ctx.real:
        return ok("nodes", "doctor_simulated")
    sys = ctx.system
    if not sys.glob("/dev/gpiochip*"):
        return fail("nodes", "doctor_no_gpiochip", "doctor_fix_not_a_pi")
    if ctx.config["display.bus"] == "i2c":
        node = f"/dev/i2c-{ctx.config['display.i2c_port']}"
        if not sys.exists(node):
            return fail("nodes", "doctor_node_missing", "doctor_fix_i2c", node=node)
    elif not sys.exists("/dev/spidev0.0"):
        return fail("nodes", "doctor_node_missing", "doctor_fix_spi", node="/dev/spidev0.0")
    return ok("nodes", "doctor_nodes_ok", nodes=[*sys.glob("/dev/gpiochip*"), *_display_nodes(ctx)])


def _display_nodes(ctx: Context) -> list[str]:
    if ctx.config["display.bus"] == "i2c":
        return [f"/dev/i2c-{ctx.config['display.i2c_port']}"]
    return ["/dev/spidev0.0"]


def reader_port(ctx: Context) -> str | None:
    """The reader's device as the daemon would find it (reader.port; `auto`: the first by-id name)."""
    port = str(ctx.config["reader.port"])
    if port == "auto":
        found = ctx.system.glob(BY_ID_PATTERN)
        return found[0] if found else None
    return port if ctx.system.exists(port) else None


def check_reader(ctx: Context) -> Result:
    """The Pico under /dev/serial/by-id (or reader.port), its udev name, and nobody else holding it."""
    if not ctx.real:
        return ok("reader", "doctor_simulated")
    sys = ctx.system
    port = reader_port(ctx)
    modem = [p for p in sys.processes() if p.name == "ModemManager"]
    if port is None:
        found = sys.glob(BY_ID_PATTERN)
        if found:  # reader.port names the udev rule's /dev/companion-reader, and the rule is not there
            return fail(
                "reader",
                "doctor_reader_elsewhere",
                "doctor_fix_install",
                device=ctx.config["reader.port"],
                name=found[0],
            )
        return fail("reader", "doctor_reader_missing", "doctor_fix_plug_reader", device=ctx.config["reader.port"])
    tty = sys.link_target(port) or port
    holders = [h for h in sys.holders({tty, port}) if not ctx.is_daemon(h)]
    for holder in holders:
        if holder.name == "ModemManager":
            return fail("reader", "doctor_reader_modem", "doctor_fix_modem", tty=tty)
    if holders:
        who = holders[0]
        return fail("reader", "doctor_reader_held", "doctor_fix_reader_held", tty=tty, pid=who.pid, name=who.name)
    if modem and not sys.exists(UDEV_RULE):
        return warn("reader", "doctor_reader_no_rule", "doctor_fix_install", tty=tty)
    if not sys.exists(UDEV_NAME):
        return warn("reader", "doctor_reader_no_udev", "doctor_fix_install", device=port, name=UDEV_NAME)
    return ok("reader", "doctor_reader_ok", device=port, tty=tty)


def check_oled(ctx: Context) -> Result:
    """The OLED answers at its I2C address (i2cdetect probes one address); on SPI only its node is seen."""
    if not ctx.real:
        return ok("oled", "doctor_simulated")
    if ctx.config["display.bus"] == "spi":
        return ok("oled", "doctor_oled_spi")
    bus = int(ctx.config["display.i2c_port"])
    address = int(ctx.config["display.i2c_address"])
    where = {"address": f"0x{address:02X}", "bus": f"/dev/i2c-{bus}"}
    if not ctx.system.exists(where["bus"]):
        return fail("oled", "doctor_oled_no_bus", "doctor_fix_i2c", **where)
    code, out = ctx.system.run("i2cdetect", "-y", "-r", str(bus), hex(address), hex(address))
    if code == 127:
        return warn("oled", "doctor_oled_unprobed", "doctor_fix_i2c_tools", **where)
    cells = [w.lower() for line in out.splitlines()[1:] for w in line.split()[1:]]
    if f"{address:02x}" in cells or "uu" in cells:  # UU: a kernel driver has it (answering)
        return ok("oled", "doctor_oled_ok", **where)
    return fail("oled", "doctor_oled_silent", "doctor_fix_oled", **where)


def check_buttons(ctx: Context) -> Result:
    """The four buttons' GPIO numbers: all different and clear of the display's bus."""
    pins = {name: int(ctx.config[f"buttons.{name}"]) for name in ("ok", "back", "up", "down")}
    seen: dict[int, str] = {}
    for name, pin in pins.items():
        if pin in seen:
            return fail(
                "buttons",
                "doctor_buttons_same",
                "doctor_fix_buttons",
                first=seen[pin].upper(),
                second=name.upper(),
                pin=pin,
            )
        seen[pin] = name
    bus_pins = I2C_PINS if ctx.config["display.bus"] == "i2c" else SPI_PINS
    for name, pin in pins.items():
        if pin in bus_pins:
            return fail("buttons", "doctor_buttons_bus", "doctor_fix_buttons", button=name.upper(), pin=pin)
    return ok("buttons", "doctor_buttons_ok", pins=[f"{name.upper()} GPIO{pin}" for name, pin in pins.items()])


def check_firmware(ctx: Context) -> Result:
    """The reader's firmware version (the daemon's status, else the reader asked while its port is free)."""
    if not ctx.real:
        return ok("firmware", "doctor_firmware_simulated", shipped=SHIPPED)
    said: str | None = None
    if ctx.status is not None:
        if ctx.status.get("reader") in ("ready", "refused"):
            said = str(ctx.status.get("reader_firmware") or "")
    else:
        port = reader_port(ctx)
        if port is not None and not ctx.system.holders({ctx.system.link_target(port) or port, port}):
            # nobody has the port open (a daemon would): the reader answers our HELLO with its own
            said = ctx.system.ask_firmware(port)
    if said is None:
        return warn("firmware", "doctor_firmware_unheard", "doctor_fix_plug_reader", shipped=SHIPPED)
    if said == "":
        return warn("firmware", "doctor_firmware_unknown", "doctor_fix_firmware", shipped=SHIPPED)
    if said == SHIPPED:
        return ok("firmware", "doctor_firmware_ok", version=said)
    older = is_older(said)
    code = "doctor_firmware_older" if older or older is None else "doctor_firmware_newer"
    return warn("firmware", code, "doctor_fix_firmware", version=said, shipped=SHIPPED)
