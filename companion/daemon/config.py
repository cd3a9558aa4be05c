"""The daemon's configuration: one TOML file, every key listed here with its type, default and meaning.

KEYS is the single source: `load_config` refuses an unknown key or a bad value
naming the key and the file, and docs/configuration.md is checked against it
(tests/test_config.py). The defaults run on a laptop: simulated hardware, games
in the user's state folder.
"""

import math
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.errors import SaidInput, cause_of
from companion.ledger.anchor import default_state_dir
from companion.words.parse import toml_problem

HARDWARE = ("simulated", "real")
LANGUAGES = ("en", "ru")


@dataclass(frozen=True)
class Key:
    """One configuration key: where it lives, what it holds and what it means."""

    section: str  # "" for the top level
    name: str
    kind: type
    default: Any
    doc: str
    choices: tuple = ()
    low: float | None = None
    high: float | None = None

    @property
    def path(self) -> str:
        return f"{self.section}.{self.name}" if self.section else self.name


KEYS = (
    Key(
        "",
        "hardware",
        str,
        "simulated",
        "`simulated`: a simulated reader behind a pty (a laptop); "
        "`real`: the Pico on USB, never replaced by a simulation when it is missing",
        HARDWARE,
    ),
    Key(
        "",
        "language",
        str,
        "en",
        "the language of the daemon's lines and the screens until one is chosen in the "
        "box's menu (Game… → Language), which is kept in box.json and wins",
        LANGUAGES,
    ),
    Key(
        "",
        "games_dir",
        str,
        "",
        "where the current game, the archive and the card map live; "
        "empty: $STATE_DIRECTORY (systemd's StateDirectory), else the user's state folder "
        "($COMPANION_STATE_DIR or ~/.local/state/companion)",
    ),
    Key(
        "reader",
        "port",
        str,
        "auto",
        "the reader's serial device; `auto`: the first "
        "/dev/serial/by-id/usb-MicroPython* (a by-id name survives replugging into another port)",
    ),
    Key(
        "reader",
        "retry_seconds",
        float,
        0.5,
        "how often a missing or unplugged reader is looked for again",
        low=0.05,
        high=10.0,
    ),
    Key("display", "driver", str, "ssd1306", 'the OLED\'s controller (hardware = "real")', ("ssd1306", "sh1106")),
    Key("display", "bus", str, "i2c", "how the OLED is wired: `i2c` (hardware/pins.md) or `spi`", ("i2c", "spi")),
    Key(
        "display",
        "i2c_address",
        int,
        0x3C,
        "the OLED's I2C address (60 = 0x3C; some boards use 61 = 0x3D)",
        low=0x03,
        high=0x77,
    ),
    Key("display", "i2c_port", int, 1, "the I2C bus number (/dev/i2c-1 on a Pi)", low=0, high=20),
    Key("buttons", "ok", int, 17, "GPIO number of the OK button (to GND, internal pull-up)", low=0, high=27),
    Key("buttons", "back", int, 27, "GPIO number of the BACK button", low=0, high=27),
    Key("buttons", "up", int, 22, "GPIO number of the UP (PREV) button", low=0, high=27),
    Key("buttons", "down", int, 23, "GPIO number of the DOWN (NEXT) button", low=0, high=27),
    Key(
        "control",
        "socket",
        str,
        "",
        "the socket `companion do` and the game commands reach the daemon "
        "through; empty: $RUNTIME_DIRECTORY/companion.sock (systemd's RuntimeDirectory), else "
        "<games_dir>/companion.sock",
    ),
    Key(
        "virtual_table",
        "host",
        str,
        "127.0.0.1",
        "where the virtual table (the OLED, the buttons, ROLL and the "
        "cards in a browser; simulated hardware only) listens; loopback unless you mean to show it to the network",
    ),
    Key("virtual_table", "port", int, 8000, "the virtual table's port; 0: no virtual table", low=0, high=65535),
    Key(
        "phone",
        "url",
        str,
        "",
        "an override of the phone page's address the QR codes carry (a name of your own); empty: the box's "
        "IP address now (the default route's interface first, looked up again every 5 s), the .local name "
        "shown beside it",
    ),
    Key(
        "phone",
        "host",
        str,
        "0.0.0.0",
        "where the phone page listens (docs/phone.md); 0.0.0.0: every network "
        "the box is on, so the phones on the home Wi-Fi reach it (plain HTTP: see the threat model)",
    ),
    Key(
        "phone",
        "port",
        int,
        8080,
        "the phone page's port; 0: no phone page of its own (with simulated hardware "
        "it is still at /phone/ on the virtual table)",
        low=0,
        high=65535,
    ),
    Key(
        "phone",
        "threads",
        int,
        64,
        "waitress threads serving the phone page: every open page holds one for its "
        "live stream, so 8 phones and the benchmark's 50 pages need this many",
        low=4,
        high=512,
    ),
    Key(
        "phone",
        "auction_quiet_seconds",
        float,
        30.0,
        "an auction with no new bid for this long is hammered down "
        'by the box ("going once" and "going twice" at a third and two thirds of it); 0: only the host closes it',
        low=0.0,
        high=3600.0,
    ),
    Key(
        "phone",
        "banker_pin",
        str,
        "",
        "the banker's PIN that makes a phone the banker's (starts and ends games, "
        "undoes) until one is set at the box (Game… → Banker's PIN), which is kept in box.json and wins; empty and "
        "none set at the box: no phone may be the banker",
    ),
    Key(
        "phone",
        "allowed_hosts",
        str,
        "",
        "more names the phone page may be reached under, comma-separated (a "
        "name of your own for the box); localhost, this machine's name (.local too), phone.url's host and any IP "
        "address always are: a page asked for under another name is refused (DNS rebinding, docs/phone.md)",
    ),
    # issue 25: phones find the box (docs/daemon.md, "Phones find the box")
    Key(
        "network",
        "hotspot",
        str,
        "off",
        "`when_offline`: when no known Wi-Fi has answered network.hotspot_wait_seconds after the start, "
        "the box opens its own Wi-Fi through NetworkManager and the phone page's menu shows a Wi-Fi QR code "
        "to join it first; `off`: never",
        ("off", "when_offline"),
    ),
    Key("network", "hotspot_ssid", str, "", "the box's own Wi-Fi's name; empty: companion-<this machine's name>"),
    Key(
        "network",
        "hotspot_password",
        str,
        "",
        "the box's own Wi-Fi's password (8 to 63 characters); empty: one made once and kept in <games_dir>/hotspot.key",
    ),
    Key(
        "network",
        "hotspot_wait_seconds",
        float,
        90.0,
        "how long NetworkManager is given to join a known Wi-Fi before the box opens its own",
        low=0.0,
        high=3600.0,
    ),
    Key(
        "daemon",
        "watchdog_probe_seconds",
        float,
        2.0,
        "how long the writer thread may take to answer the "
        "watchdog's liveness probe before systemd is no longer told all is well",
        low=0.1,
        high=60.0,
    ),
    # issue 21: true answers
    Key(
        "daemon",
        "answer_seconds",
        float,
        30.0,
        "how long a request (`companion do`, a phone's action, the "
        'control socket) waits for the writer: one not yet started by then is withdrawn ("nothing was done"), '
        'one under way is answered "outcome unknown" with its request id',
        low=0.1,
        high=50.0,
    ),
    # issue 25: backups (docs/backup.md)
    Key(
        "backup",
        "keep",
        int,
        10,
        "how many archives the box keeps in <games_dir>/backups (one is written at each game's end; the "
        "oldest, by their number, go first); 0: no automatic backups",
        low=0,
        high=1000,
    ),
    Key(
        "backup",
        "usb",
        str,
        "",
        "a USB stick's mount point (e.g. /media/usb): each automatic backup is also copied into its "
        "companion-backups folder, kept to backup.keep; a stick that is missing or read-only is said in one "
        "line; empty: none",
    ),
)


class ConfigError(SaidInput):
    """A configuration file that cannot be used: names the file and the key (`config_*` codes in
    companion/words/messages.py, said in the screen's language)."""


@dataclass(frozen=True)
class Config:
    """The validated configuration (every key present, defaults filled in)."""

    values: dict = field(default_factory=dict)
    source: str = "(defaults)"

    def __getitem__(self, path: str) -> Any:
        return self.values[path]

    @property
    def games_dir(self) -> Path:
        chosen = self.values["games_dir"] or os.environ.get("STATE_DIRECTORY", "").split(":")[0]
        return Path(chosen).expanduser() if chosen else default_state_dir()

    @property
    def socket_path(self) -> Path:
        if self.values["control.socket"]:
            return Path(self.values["control.socket"]).expanduser()
        runtime = os.environ.get("RUNTIME_DIRECTORY", "").split(":")[0]
        return Path(runtime) / "companion.sock" if runtime else self.games_dir / "companion.sock"


def defaults() -> Config:
    return Config({k.path: k.default for k in KEYS})


def load_config(path: str | os.PathLike | None) -> Config:
    """The configuration in `path` (None: the defaults); ConfigError naming the file and key."""
    if path is None:
        return defaults()
    source = str(path)
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError("config_missing", path=source) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(
            "config_not_utf8", path=source, byte=f"{exc.object[exc.start]:02x}", offset=exc.start
        ) from None
    except OSError as exc:
        raise ConfigError("config_unreadable", path=source, detail=str(exc), cause=cause_of(exc)) from None
    except (tomllib.TOMLDecodeError, ValueError, RecursionError) as exc:  # a huge integer, deep nesting
        raise ConfigError("config_not_toml", path=source, problem=toml_problem(exc)) from None
    return Config(validated(data, source), source)


def validated(data: dict, source: str) -> dict:
    values = {k.path: k.default for k in KEYS}
    known = {k.path: k for k in KEYS}
    sections = {k.section for k in KEYS if k.section}
    for name, value in data.items():
        if isinstance(value, dict):
            if name not in sections:
                raise ConfigError("config_unknown_section", path=source, name=name, known=sorted(sections))
            for key, inner in value.items():
                values[f"{name}.{key}"] = _checked(known, f"{name}.{key}", inner, source)
        else:
            values[name] = _checked(known, name, value, source)
    pins = [k.path for k in KEYS if k.section == "buttons"]
    for i, a in enumerate(pins):
        for b in pins[i + 1 :]:
            if values[a] == values[b]:
                raise ConfigError("config_same_pin", path=source, a=a, b=b, pin=values[a])
    password = values["network.hotspot_password"]
    if password and not 8 <= len(password) <= 63:  # WPA2's passphrase: NetworkManager refuses any other
        raise ConfigError("config_hotspot_password", path=source, key="network.hotspot_password", n=len(password))
    return values


def _checked(known: dict, path: str, value: Any, source: str) -> Any:
    key = known.get(path)
    if key is None:
        section = path.rpartition(".")[0]
        near = [k for k in known if k.rpartition(".")[0] == section]
        raise ConfigError("config_unknown_key", path=source, key=path, known=near)
    if key.kind is float and isinstance(value, int) and not isinstance(value, bool):
        try:
            value = float(value)
        except OverflowError:
            raise ConfigError(
                "config_out_of_range", path=source, key=path, value=repr(value), low=key.low, high=key.high
            ) from None
    if isinstance(value, float) and not math.isfinite(value):
        raise ConfigError("config_not_finite", path=source, key=path, value=repr(value))
    if not isinstance(value, key.kind) or isinstance(value, bool):
        raise ConfigError("config_want_" + KIND_WORDS[key.kind], path=source, key=path, value=repr(value))
    if key.choices and value not in key.choices:
        raise ConfigError(
            "config_not_choice", path=source, key=path, value=repr(value), allowed=", ".join(map(repr, key.choices))
        )
    if key.kind is int and isinstance(value, float):
        raise ConfigError("config_want_whole", path=source, key=path, value=repr(value))
    if key.low is not None and not key.low <= value <= (key.high if key.high is not None else value):
        raise ConfigError("config_out_of_range", path=source, key=path, value=repr(value), low=key.low, high=key.high)
    if key.kind is str and not value.isprintable():
        raise ConfigError("config_control_char", path=source, key=path)
    return value


# a key's type as the code of the words saying it (config_want_text: "must be text in quotes")
KIND_WORDS = {str: "text", float: "number", int: "whole", bool: "bool"}
