"""The doctor's run: the checks in order, their lines in the reader's language, and the redacted bundle."""

import dataclasses
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.daemon.config import Config, ConfigError, defaults, load_config
from companion.daemon.control import ask
from companion.daemon.games import folder_holder
from companion.daemon.phonekeep import FOLDER as PHONE_FOLDER
from companion.errors import CompanionError
from companion.hw.firmware import SHIPPED
from companion.words import messages

from . import box, devices
from .result import FAIL, OK, WARN, Check, Context, Result, fail, ok
from .system import System

INSTALLED_CONFIG = "/etc/companion/companion.toml"  # the installer's (systemd/install.sh)
UNIT_STATE_DIR = "/var/lib/companion"  # the unit's StateDirectory=: the games folder when the config names none
STATUS_TIMEOUT_S = 5.0

# in the order a person fixes things: the parts first, then the box, then the network
CHECKS: tuple[Check, ...] = (
    devices.check_groups,
    devices.check_nodes,
    devices.check_reader,
    devices.check_oled,
    devices.check_buttons,
    box.check_unit,
    box.check_port,
    box.check_disk,
    box.check_ledger,
    box.check_power,
    box.check_addresses,
    box.check_mdns,
    devices.check_firmware,
)


def box_config(system: System, path: str | None) -> tuple[Config, Result]:
    """The configuration the box runs with (--config, else the installer's file, else the defaults) and the
    verdict on it: a file the daemon would refuse is a FAIL, and the checks go on with the defaults. With the
    installer's file and no games_dir in it, the unit's StateDirectory (/var/lib/companion) is the games folder."""
    chosen = path or (INSTALLED_CONFIG if system.exists(INSTALLED_CONFIG) else None)
    try:
        config = load_config(system.path(chosen) if chosen else None)
        verdict = ok("config", "doctor_config_ok", path=chosen) if chosen else ok("config", "doctor_config_defaults")
    except ConfigError as exc:
        config = defaults()
        verdict = fail("config", "doctor_config_bad", "doctor_fix_config", {"path": chosen}, why=exc)
    if chosen == INSTALLED_CONFIG and not config["games_dir"]:
        config = dataclasses.replace(config, values={**config.values, "games_dir": str(system.path(UNIT_STATE_DIR))})
    return config, verdict


def context(system: System, config: Config, lang: str) -> Context:
    """The checks' context, with the daemon's status when a daemon holds the games folder and answers."""
    holder = folder_holder(system.path(config.games_dir))
    status = None
    if holder is not None and holder.get("socket"):
        try:
            answer = ask(holder["socket"], {"op": "status", "lang": lang}, timeout=STATUS_TIMEOUT_S)
        except (OSError, ValueError):
            answer = {}
        status = answer if answer.get("ok") else None
    return Context(system, config, status, holder)


def run_checks(ctx: Context, checks: Sequence[Check] = CHECKS) -> list[Result]:
    return [check(ctx) for check in checks]


def _words(code: str, params: dict[str, Any], lang: str) -> str:
    shown = {
        key: messages.render_error(value, lang)
        if isinstance(value, CompanionError)
        else ", ".join(map(str, value))
        if isinstance(value, list)
        else value
        for key, value in params.items()
    }
    return " ".join(str(messages.render(code, shown, lang)).split())


def lines(results: Sequence[Result], lang: str) -> list[str]:
    """The report: one line a check (its status, its name, what was found), a fix line under each WARN and FAIL."""
    out = [_words("doctor_title", {"version": SHIPPED}, lang)]
    width = max(len(_words(f"doctor_status_{s}", {}, lang)) for s in (OK, WARN, FAIL))
    for result in results:
        status = _words(f"doctor_status_{result.status}", {}, lang).ljust(width)
        name = _words(f"doctor_check_{result.check}", {}, lang)
        out.append(f"{status}  {name}: {_words(result.code, result.params, lang)}")
        if result.fix is not None:
            out.append(
                f"{' ' * width}  {_words('doctor_fix', {'fix': _words(result.fix, result.fix_params, lang)}, lang)}"
            )
    counts = {s: sum(r.status == s for r in results) for s in (OK, WARN, FAIL)}
    out.append(_words("doctor_summary", {"ok": counts[OK], "warn": counts[WARN], "fail": counts[FAIL]}, lang))
    return out


# ----- the bundle: the report and what helps a helper, with every secret taken out ---------------------------

SECRET_KEY = re.compile(
    r"(?i)\b([\w.-]*(?:pin|psk|pass(?:word|phrase)?|secret|token|key|code|wpa|csrf)[\w.-]*)(\s*[=:]\s*)(\"[^\"]*\"|'[^']*'|\S+)"
)
REDACTED = "<redacted>"
SECRET_FILES = ("box.json", f"{PHONE_FOLDER}/*.json")  # the banker's PIN; each game's table code and seats' PINs


def _secret_values(data: Any, found: set[str], under_secret: bool = False) -> None:
    """Every string under a key that names a secret (pin, code, token, ...), anywhere in JSON data."""
    if isinstance(data, dict):
        for key, value in data.items():
            _secret_values(value, found, under_secret or bool(SECRET_KEY.fullmatch(f"{key}=x")))
    elif isinstance(data, list):
        for value in data:
            _secret_values(value, found, under_secret)
    elif under_secret and isinstance(data, (str, int)) and len(str(data)) >= 3:
        found.add(str(data))


def secrets(system: System, config: Config) -> set[str]:
    """The box's own secrets by value: the config's banker PIN, the PINs and table codes in the box's files."""
    found = {str(config["phone.banker_pin"])} - {""}
    folder = system.path(config.games_dir)
    for pattern in SECRET_FILES:
        for path in folder.glob(pattern):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            _secret_values(data, found)
    return found


def redact(text: str, known: set[str]) -> str:
    """`key = value` lines whose key names a secret lose the value; the box's known secrets go wherever they are."""
    text = SECRET_KEY.sub(lambda m: m[1] + m[2] + REDACTED, text)
    for value in sorted(known, key=len, reverse=True):
        text = text.replace(value, REDACTED)
    return text


def bundle(ctx: Context, report: Sequence[str], lang: str) -> str:
    """The report and the facts a helper asks first (OS, kernel, config, the unit's last lines), redacted."""
    sys = ctx.system
    parts = [("companion doctor", "\n".join(report))]
    parts.append(("/etc/os-release", sys.read("/etc/os-release") or "-"))
    code, kernel = sys.run("uname", "-a")
    parts.append(("uname -a", kernel if code == 0 else "-"))
    config_text = sys.read(ctx.config.source) if ctx.config.source.startswith("/") else None
    parts.append((f"config {ctx.config.source}", config_text or "-"))
    parts.append(("daemon status", "\n".join(f"{k} = {v}" for k, v in sorted((ctx.status or {}).items())) or "-"))
    code, journal = sys.run("journalctl", "-u", box.UNIT, "-n", "200", "--no-pager", "-o", "short-monotonic")
    parts.append(("journalctl -u companion -n 200", journal if code == 0 else "-"))
    known = secrets(sys, ctx.config)
    text = "\n\n".join(f"===== {title}\n{body.rstrip()}" for title, body in parts) + "\n"
    return redact(text, known)


def write_bundle(path: str, text: str) -> Path:
    target = Path(path)
    target.write_text(text, encoding="utf-8")
    return target
