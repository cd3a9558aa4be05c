"""`companion doctor` against a fake Pi (a /sys, /proc, /run, /dev and /etc tree and a fake command runner):
healthy, every check OK; each part broken in turn, that part's FAIL (or WARN) line and its fix, the others
still OK; the same in Russian; the bundle redacted; the ledger never written."""

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.daemon.games import Games
from companion.doctor import box
from companion.doctor.report import CHECKS, box_config, bundle, lines, run_checks
from companion.doctor.result import FAIL, OK, WARN, Context
from companion.doctor.system import System
from companion.hw.protocol import FIRMWARE_VERSION

HERE = Path(__file__).parent
DAEMON_PID = 300
BY_ID = "dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6614103e7000000-if00"
CONFIG = """hardware = "real"
[phone]
banker_pin = "9876"
"""
I2C_SEEN = """     0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f
30: -- -- -- -- -- -- -- -- -- -- -- -- 3c -- -- --
"""
I2C_EMPTY = I2C_SEEN.replace("3c", "--")
TCP_HEADER = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"


def tcp_line(port, inode, state="0A"):
    return f"   0: 00000000:{port:04X} 00000000:0000 {state} 00000000:00000000 00:00000000 00000000   999        0 {inode}\n"


class FakePi(System):
    """The doctor's System over a folder, with the programs' answers and the free space set by the test."""

    def __init__(self, root):
        self.answers = {
            ("systemctl", "show"): (0, "LoadState=loaded\nActiveState=active\nResult=success\nExecMainStatus=0\n"),
            ("i2cdetect",): (0, I2C_SEEN),
            ("vcgencmd",): (0, "throttled=0x0\n"),
            ("ip",): (0, "1: lo    inet 127.0.0.1/8 scope host lo\n2: wlan0    inet 192.168.1.23/24 brd x\n"),
            ("uname",): (0, "Linux box 6.6.51+rpt-rpi-v8 aarch64 GNU/Linux\n"),
            ("journalctl",): (
                0,
                "companion[300]: wpa_passphrase=SuperSecretWifi\ncompanion[300]: token: tok123secret\n",
            ),
        }
        self.calls = []
        self.free = 5 * 1024**3
        self.firmware_said = FIRMWARE_VERSION
        super().__init__(root, self.answer)

    def answer(self, args):
        self.calls.append(tuple(args))
        for prefix, reply in self.answers.items():
            if tuple(args[: len(prefix)]) == prefix:
                return reply
        return 127, ""

    def free_bytes(self, name):
        return self.free

    def ask_firmware(self, port):
        return self.firmware_said


def process(root, pid, name, cmdline=None, fds=()):
    folder = root / "proc" / str(pid)
    (folder / "fd").mkdir(parents=True, exist_ok=True)
    (folder / "comm").write_text(name + "\n")
    (folder / "cmdline").write_text((cmdline or name).replace(" ", "\0") + "\0")
    for n, target in enumerate(fds, start=3):
        (folder / "fd" / str(n)).symlink_to(target)


def healthy_pi(root, monkeypatch):
    """A Pi as the installer leaves it, the daemon (pid 300) running with a game of one event."""
    for name in ("dev/gpiochip0", "dev/gpiochip4", "dev/i2c-1", "dev/spidev0.0", "dev/ttyACM0"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("")
    (root / BY_ID).parent.mkdir(parents=True)
    (root / BY_ID).symlink_to("../../ttyACM0")
    (root / "dev/companion-reader").symlink_to("ttyACM0")
    etc = root / "etc"
    (etc / "udev/rules.d").mkdir(parents=True)
    (etc / "udev/rules.d/70-companion-reader.rules").write_text("# the rule\n")
    (etc / "passwd").write_text(
        "root:x:0:0::/root:/bin/bash\ncompanion:x:990:990::/var/lib/companion:/usr/sbin/nologin\n"
    )
    (etc / "group").write_text("gpio:x:986:\ni2c:x:987:\nspi:x:988:\ndialout:x:20:\ncompanion:x:990:\n")
    (etc / "hostname").write_text("box\n")
    (etc / "os-release").write_text('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n')
    (etc / "companion").mkdir()
    (etc / "companion/companion.toml").write_text(CONFIG)
    (root / "run/systemd/system").mkdir(parents=True)
    (root / "proc/net").mkdir(parents=True)
    (root / "proc/net/tcp").write_text(TCP_HEADER + tcp_line(8080, 4242) + tcp_line(22, 17, "01"))
    (root / "proc/net/tcp6").write_text(TCP_HEADER)
    process(root, 1, "systemd", "/sbin/init")
    process(
        root,
        DAEMON_PID,
        "companion",
        "/opt/companion/.venv/bin/python companion run",
        ["socket:[4242]", "/dev/ttyACM0"],
    )
    process(root, 200, "avahi-daemon", "avahi-daemon: running [box.local]")
    games = root / "var/lib/companion"
    monkeypatch.setenv("COMPANION_STATE_DIR", str(games))
    Games(games).start("classic", ["Anna", "Boris"], 1).close()
    (games / "phones").mkdir()
    (games / "phones" / "g1.json").write_text(json.dumps({"code": "HJKL", "pins": {"1": "5551"}, "roles": {}}))


def daemon_status(firmware=FIRMWARE_VERSION):
    return {
        "ok": True,
        "reader": "ready",
        "reader_detail": firmware,
        "reader_firmware": firmware,
        "firmware_shipped": FIRMWARE_VERSION,
    }


@pytest.fixture
def pi(tmp_path, monkeypatch):
    root = tmp_path / "root"
    healthy_pi(root, monkeypatch)
    system = FakePi(root)
    return root, system


RUNNING = {"pid": DAEMON_PID, "socket": ""}


def check(system, status=None, holder=RUNNING):
    """Every check's result by name, with the daemon's status as the control socket gives it (by default the
    daemon runs with the reader ready on the shipped firmware; holder=None: no daemon runs)."""
    config, verdict = box_config(system, None)
    if status is None and holder is not None:
        status = daemon_status()
    ctx = Context(system, config, status, holder)
    return {r.check: r for r in [verdict, *run_checks(ctx)]}, ctx


def test_a_healthy_pi_is_all_ok(pi):
    root, system = pi
    results, ctx = check(system)
    assert {name: r.status for name, r in results.items() if r.status != OK} == {}
    text = "\n".join(lines(list(results.values()), "en"))
    assert "http://192.168.1.23:8080/ (wlan0)" in text and "127.0.0.1" not in text
    assert "box.local" in text and f"{FIRMWARE_VERSION}, as shipped" in text
    assert "answers at 0x3C on /dev/i2c-1" in text
    assert "14 OK, 0 WARN, 0 FAIL" in text


def _drop_group(root, system):
    (root / "etc/group").write_text("gpio:x:986:\nspi:x:988:\ndialout:x:20:\n")


def _no_spidev_needed_but_no_gpio(root, system):
    for chip in ("gpiochip0", "gpiochip4"):
        (root / "dev" / chip).unlink()


def _no_i2c(root, system):
    (root / "dev/i2c-1").unlink()


def _unplugged(root, system):
    (root / BY_ID).unlink()


def _no_udev_rule(root, system):
    (root / "etc/companion/companion.toml").write_text(
        CONFIG.replace("[phone]", '[reader]\nport = "/dev/companion-reader"\n[phone]')
    )
    (root / "dev/companion-reader").unlink()


def _modem_manager(root, system):
    process(root, 400, "ModemManager", "/usr/sbin/ModemManager", ["/dev/ttyACM0"])


def _minicom(root, system):
    process(root, 401, "minicom", "minicom -D /dev/ttyACM0", ["/dev/ttyACM0"])


def _oled_silent(root, system):
    system.answers[("i2cdetect",)] = (0, I2C_EMPTY)


def _buttons_clash(root, system):
    (root / "etc/companion/companion.toml").write_text(CONFIG + "[buttons]\nup = 17\n")


def _button_on_i2c(root, system):
    (root / "etc/companion/companion.toml").write_text(CONFIG + "[buttons]\ndown = 3\n")


def _unit_failed(root, system):
    system.answers[("systemctl", "show")] = (
        0,
        "LoadState=loaded\nActiveState=failed\nResult=exit-code\nExecMainStatus=6\n",
    )


def _port_taken(root, system):
    (root / "proc/300/fd/3").unlink()
    process(root, 500, "nginx", "nginx: master process", ["socket:[4242]"])


def _disk_full(root, system):
    system.free = 10 * 1024 * 1024


def _ledger_damaged(root, system):
    ledger = root / "var/lib/companion/current.sqlite"
    data = bytearray(ledger.read_bytes())
    data[100:4000] = b"\x55" * 3900  # the header's tail and the schema page
    ledger.write_bytes(bytes(data))


def _undervoltage(root, system):
    system.answers[("vcgencmd",)] = (0, "throttled=0x50005\n")


def _undervoltage_sysfs(root, system):
    del system.answers[("vcgencmd",)]
    target = root / "sys/devices/platform/soc/soc:firmware"
    target.mkdir(parents=True)
    (target / "get_throttled").write_text("50005\n")


def _offline(root, system):
    system.answers[("ip",)] = (0, "1: lo    inet 127.0.0.1/8 scope host lo\n")


def _mdns_conflict(root, system):
    (root / "proc/200/cmdline").write_text("avahi-daemon: running [box-2.local]\0")


def _no_avahi(root, system):
    (root / "proc/200/comm").write_text("bash\n")


def _no_unit(root, system):
    system.answers[("systemctl", "show")] = (0, "LoadState=not-found\nActiveState=inactive\nResult=success\n")


def _no_systemd(root, system):
    (root / "run/systemd/system").rmdir()


# (what breaks, the check, its status, words of its line, words of its fix, other checks it takes along)
BROKEN = [
    (_drop_group, "groups", FAIL, "the groups i2c do not exist", "systemd-sysusers", ()),
    (_no_spidev_needed_but_no_gpio, "nodes", FAIL, "no /dev/gpiochip*", 'hardware = "simulated"', ()),
    (_no_i2c, "nodes", FAIL, "/dev/i2c-1 is missing", "raspi-config nonint do_i2c 0", ("oled",)),
    (_unplugged, "reader", FAIL, "no reader found (auto)", "data cable", ()),
    (
        _no_udev_rule,
        "reader",
        FAIL,
        "/dev/companion-reader is missing, but a Pico is at /dev/serial/by-id/",
        "make install",
        (),
    ),
    (_modem_manager, "reader", FAIL, "ModemManager holds the reader (/dev/ttyACM0)", "ID_MM" and "ModemManager", ()),
    (_minicom, "reader", FAIL, "/dev/ttyACM0 is held by process 401 (minicom)", "close that program", ()),
    (_oled_silent, "oled", FAIL, "nothing answers at 0x3C on /dev/i2c-1", "display.i2c_address", ()),
    (_buttons_clash, "config", FAIL, "buttons.ok and buttons.up are both GPIO 17", "correct that line in", ()),
    (_button_on_i2c, "buttons", FAIL, "the DOWN button is on GPIO3", "[buttons]", ()),
    (_unit_failed, "unit", FAIL, "exit code 6 (the game's ledger is damaged)", "journalctl -u companion", ()),
    (_no_unit, "unit", FAIL, "the companion service is not installed", "sudo make install", ()),
    (_no_systemd, "unit", WARN, "systemd does not run here", "companion run --config", ()),
    (_port_taken, "port", FAIL, "port 8080 is held by process 500 (nginx)", "phone.port", ()),
    (_disk_full, "disk", FAIL, "only 10 MB free", "apt clean", ()),
    (_ledger_damaged, "ledger", FAIL, "is damaged", "companion recover --db", ()),
    (_undervoltage, "power", FAIL, "undervoltage now (0x50005)", "power supply", ()),
    (_undervoltage_sysfs, "power", FAIL, "undervoltage now (0x50005)", "power supply", ()),
    (_offline, "addresses", FAIL, "no network address", "nmtui", ()),
    (_mdns_conflict, "mdns", WARN, "announced as box-2.local, not box.local", "hostnamectl set-hostname", ()),
    (_no_avahi, "mdns", WARN, "avahi does not run: box.local is unknown", "apt install avahi-daemon", ()),
]


@pytest.mark.parametrize("breaking, name, status, words, fix, along", BROKEN, ids=[b[0].__name__ for b in BROKEN])
def test_each_part_broken_in_turn_gives_its_line_and_fix_and_leaves_the_others_ok(
    pi, breaking, name, status, words, fix, along
):
    root, system = pi
    breaking(root, system)
    results, ctx = check(system)
    result = results[name]
    assert result.status == status, result
    assert {n: r.status for n, r in results.items() if r.status != OK and n != name and n not in along} == {}
    text = "\n".join(lines(list(results.values()), "en"))
    label = "FAIL" if status == FAIL else "WARN"
    line = next(i for i, line in enumerate(text.splitlines()) if line.startswith(label) and words in line)
    assert fix in text.splitlines()[line + 1] and "fix:" in text.splitlines()[line + 1]


def test_the_reader_firmware_against_the_shipped_one(pi):
    root, system = pi
    older = check(system, daemon_status("0.1.0"))[0]["firmware"]
    assert older.status == WARN and older.fix == "doctor_fix_firmware"
    [said, fix] = lines([older], "en")[1:3]
    assert f"the reader runs 0.1.0, this version ships {FIRMWARE_VERSION}" in said
    assert "ROLL held" in fix and "companion firmware install" in fix
    unknown = check(system, daemon_status(""))[0]["firmware"]  # a firmware older than the fw= field
    assert unknown.status == WARN and "too old to say its version" in lines([unknown], "en")[1]
    # no daemon: the reader is asked over its port, only while nobody holds it
    (root / "proc/300/fd/4").unlink()
    system.firmware_said = "0.1.0"
    asked = check(system, holder=None)
    assert asked[0]["firmware"].params["version"] == "0.1.0"


def test_the_report_in_russian(pi):
    root, system = pi
    _unplugged(root, system)
    results, ctx = check(system)
    text = "\n".join(lines(list(results.values()), "ru"))
    assert "ОШИБКА    считыватель карт: считыватель не найден (`auto`)" in text
    assert "как исправить: подключите Pico кабелем с передачей данных" in text
    assert "в порядке: 13, внимание: 0, ошибки: 1" in text
    assert "None" not in text and "doctor_" not in text


def test_every_code_the_checks_can_say_has_words_in_both_languages():
    source = "\n".join(p.read_text() for p in (HERE.parent / "companion/doctor").glob("*.py"))
    codes = set(re.findall(r'"(doctor_[a-z_0-9]+)"', source)) | {f"doctor_check_{c.__name__[6:]}" for c in CHECKS}
    codes |= {f"doctor_unit_failed_{w}" for w in (*box.EXIT_WORDS.values(), "other")}
    codes |= {f"doctor_status_{s}" for s in (OK, WARN, FAIL)} | {"doctor_check_config"}
    for lang in ("en", "ru"):
        po = (HERE.parent / f"companion/words/locale/{lang}/LC_MESSAGES/messages.po").read_text()
        assert not [c for c in codes if f'msgid "{c}"' not in po], lang


def test_the_bundle_is_redacted(pi, tmp_path):
    root, system = pi
    results, ctx = check(system)
    text = bundle(ctx, lines(list(results.values()), "en"), "en")
    assert "14 OK" in text and "Debian GNU/Linux 12" in text and "aarch64" in text
    for secret in ("9876", "HJKL", "5551", "SuperSecretWifi", "tok123secret"):
        assert secret not in text, secret
    assert "banker_pin = <redacted>" in text and "wpa_passphrase=<redacted>" in text


def ledger_files(root):
    folder = root / "var/lib/companion"
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_doctor_never_writes_to_the_ledger(pi):
    """Not a byte, and no -wal or -shm left beside it (under sudo they would be root's, locking the service out)."""
    root, system = pi
    before = ledger_files(root)
    mtime = (root / "var/lib/companion/current.sqlite").stat().st_mtime_ns
    results, ctx = check(system, holder=None)  # no daemon: nothing else has the file open
    assert results["ledger"].status == OK and "1 event, every one checks out" in lines([results["ledger"]], "en")[1]
    bundle(ctx, [], "en")
    assert ledger_files(root) == before
    assert (root / "var/lib/companion/current.sqlite").stat().st_mtime_ns == mtime


def test_the_command_line_without_a_daemon_and_with_a_bundle(pi, tmp_path):
    """`companion doctor --root` on the fake Pi with no daemon (real commands absent here: WARN, never a
    traceback); the exit code says whether anything FAILed; --bundle writes the redacted file."""
    root, system = pi
    for fd in (root / "proc/300/fd").iterdir():  # the daemon is not running: nobody on 8080 or the reader
        fd.unlink()
    (root / "proc/net/tcp").write_text(TCP_HEADER)
    out = tmp_path / "bundle.txt"
    env = {**os.environ, "PYTHONPATH": str(HERE.parent), "PATH": str(tmp_path / "nobin")}
    done = subprocess.run(
        [sys.executable, "-m", "companion", "doctor", "--root", str(root), "--bundle", str(out), "--lang", "en"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert "WARN  phone page port: nothing listens on port 8080: the box is not running" in done.stdout
    assert "WARN  service" not in done.stdout or "systemd does not run here" in done.stdout
    assert f"Report written to {out}" in done.stdout
    assert "9876" not in out.read_text() and "HJKL" not in out.read_text()
    assert done.returncode == (1 if " FAIL  " in done.stdout or "\nFAIL" in done.stdout else 0)


def free_port():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_with_the_daemon_running_the_doctor_asks_it_and_reads_the_real_proc(tmp_path, monkeypatch):
    """A simulated daemon in this process: the doctor finds it through its games folder's lock, takes the
    reader's firmware from its status, and sees in the real /proc that the phone page's port is the box's."""
    from companion.daemon.config import Config, defaults
    from companion.daemon.main import Daemon
    from companion.doctor.report import context

    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "games"))
    port = free_port()
    values = {**defaults().values, "games_dir": str(tmp_path / "games"), "phone.port": port, "virtual_table.port": 0}
    config = Config(values, "(test)")
    daemon = Daemon(config, out=lambda line: None).start()
    try:
        assert daemon.handle({"op": "start", "edition": "classic", "players": ["Anna", "Boris"], "seed": 3})["ok"]
        ctx = context(System("/"), config, "en")
        assert ctx.holder is not None and str(ctx.holder["pid"]) == str(os.getpid())
        assert ctx.status["firmware_shipped"] == FIRMWARE_VERSION
        assert box.check_port(ctx).code == "doctor_port_ours"
        ledger = box.check_ledger(ctx)
        assert ledger.status == OK and ledger.params["count"] == 1
    finally:
        daemon.stop()
    ctx = context(System("/"), config, "en")  # stopped: the doctor works without it
    assert ctx.holder is None and ctx.status is None
    assert box.check_port(ctx).code == "doctor_port_free" and box.check_ledger(ctx).status == OK
