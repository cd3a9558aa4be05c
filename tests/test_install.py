"""systemd/install.sh in a throwaway Debian Bookworm arm64 root, run under qemu (tests/pi_root.py).

In order, on one root (each step builds on the one before): install; install again (nothing
changes); systemd-analyze verify; a repair that keeps the config; the installed daemon under qemu
in simulated mode, serving its page; an update from an offline wheelhouse that replays the game in
play, switches and waits for READY; an update to a broken version, rolled back; kill -9 at every
step of an update; --uninstall, which keeps the games.

No systemd runs in a chroot: the first runs check that the installer says so and goes on; the
update tests give it a stand-in for systemctl (pi_root.FAKE_CTL) that starts the installed daemon
the way systemd starts a Type=notify unit and says READY only when the daemon does.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
import warnings
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pi_root  # noqa: E402

WHY_NOT = pi_root.why_not()
if WHY_NOT:
    warnings.warn(f"tests/test_install.py SKIPPED, no arm64 root here: {WHY_NOT}", stacklevel=1)
    pytest.skip(f"no arm64 root here: {WHY_NOT}", allow_module_level=True)

pytestmark = pytest.mark.timeout(1800)

PREFIX = "/opt/companion"
CONFIG = "/etc/companion/companion.toml"
LOG = "/var/log/companion-install.log"
# what the installer owns: their checksums must not move on a second run
TREE = (
    "/opt/companion",
    "/etc/companion",
    "/etc/systemd/system",
    "/etc/sysusers.d",
    "/etc/modules-load.d",
    "/etc/udev/rules.d",
    "/boot/firmware",
    "/etc/passwd",
    "/etc/group",
    "/var/lib/companion",
)
BOOT_CONFIG = "# Raspberry Pi OS's own lines\n[all]\ndtparam=audio=on\n"
CTL = "/usr/local/sbin/fake-service-ctl"
TIMES: dict[str, float] = {}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def pi(tmp_path_factory):
    started = time.monotonic()
    root = pi_root.Root.unpack(tmp_path_factory.mktemp("pi") / "root")
    TIMES["unpack (and first build of the cached root)"] = time.monotonic() - started
    (root.path / "boot/firmware").mkdir(parents=True, exist_ok=True)
    (root.path / "boot/firmware/config.txt").write_text(BOOT_CONFIG)
    pi_root.copy_source(root.path / "src")
    yield root
    root.kill_daemon()
    print("\ntest_install timings: " + ", ".join(f"{k} {v:.0f} s" for k, v in TIMES.items()))
    shutil.rmtree(root.path, ignore_errors=True)


def install(pi, *args, src="/src", env=None, check=True, timing=None):
    started = time.monotonic()
    done = pi.run("bash", f"{src}/systemd/install.sh", *args, env=env, check=check)
    if timing:
        TIMES[timing] = time.monotonic() - started
    return done


def read(pi, path):
    return (pi.path / path.lstrip("/")).read_text()


def current(pi):
    return (pi.path / "opt/companion/current").readlink()


@pytest.fixture(scope="module")
def installed(pi):
    first = install(pi, timing="first install under qemu")
    after_first = pi.checksums(*TREE)
    second = install(pi, timing="second install (nothing to do)")
    return {
        "first": first.stdout,
        "second": second.stdout,
        "after_first": after_first,
        "after_second": pi.checksums(*TREE),
    }


def test_install_puts_every_file_in_place(pi, installed):
    out = installed["first"]
    assert out.startswith("preflight: ok (debian bookworm, aarch64/arm64, Python 3.11"), out
    assert "no running systemd" in out  # a chroot: enabled, not started, said in one line
    assert read(pi, "/etc/systemd/system/companion.service") == (pi_root.REPO / "systemd/companion.service").read_text()
    wants = pi.path / "etc/systemd/system/multi-user.target.wants/companion.service"
    assert wants.is_symlink() and str(wants.readlink()).endswith("/companion.service")
    assert "u companion -" in read(pi, "/etc/sysusers.d/companion.conf")
    assert any(
        line.startswith("companion:") and line.endswith(":/var/lib/companion:/usr/sbin/nologin")
        for line in read(pi, "/etc/passwd").splitlines()
    )
    assert read(pi, "/etc/modules-load.d/companion.conf").split("\n")[-4:] == ["i2c-dev", "spidev", "cdc_acm", ""]
    rule = read(pi, "/etc/udev/rules.d/70-companion-reader.rules")
    assert 'SYMLINK+="companion-reader"' in rule and 'ENV{ID_MM_DEVICE_IGNORE}="1"' in rule
    # issue 25: the phone page announced over mDNS, and the service's user allowed to power the box off
    assert "<port>8080</port>" in read(pi, "/etc/avahi/services/companion.service")
    assert "org.freedesktop.login1.power-off" in read(pi, "/etc/polkit-1/rules.d/50-companion.rules")
    boot = read(pi, "/boot/firmware/config.txt")
    assert boot.startswith(BOOT_CONFIG) and boot.count("dtparam=i2c_arm_baudrate=400000") == 1
    # no raspi-config in a Debian root: the installer turns the buses on in config.txt itself
    assert "dtparam=i2c_arm=on" in boot and "dtparam=spi=on" in boot
    config = read(pi, CONFIG)
    assert 'hardware = "real"' in config and 'port = "/dev/companion-reader"' in config
    target = current(pi)
    assert str(target).startswith("versions/0.1.0-t"), target  # no git in the root: a hash of the files
    version = pi.path / "opt/companion" / target
    assert (version / ".complete").is_file() and (version / "venv/bin/companion").is_file()
    assert (version / "src/systemd/install.sh").is_file()
    assert (pi.path / "opt/companion/.venv").readlink() == Path("current/venv")
    # the venv: the pinned wheels and companion, nothing compiled (no compiler in the root at all)
    freeze = pi.run(f"{PREFIX}/.venv/bin/pip", "freeze").stdout
    assert "lgpio==0.2.2.0" in freeze and "pillow==" in freeze.lower() and "companion @ file://" in freeze
    assert pi.run(f"{PREFIX}/.venv/bin/companion", "editions").stdout.startswith("classic")
    log = read(pi, LOG)
    assert (
        "== systemd/install.sh --install" in log
        and "built version" in log
        and "wrote /etc/companion/companion.toml" in log
    )


def test_a_second_run_changes_nothing(installed):
    assert "== install: nothing to change, everything was in place" in installed["second"], installed["second"]
    assert "  + " not in installed["second"]
    assert installed["after_second"] == installed["after_first"]


def test_systemd_analyze_verify_prints_nothing(pi, installed):
    done = subprocess.run(
        ["systemd-analyze", "verify", f"--root={pi.path}", "/etc/systemd/system/companion.service"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout == "" and done.stderr == "", done.stdout + done.stderr


def test_a_run_repairs_what_is_missing_and_keeps_the_config(pi, installed):
    own = read(pi, CONFIG) + 'language = "ru"\n'
    (pi.path / CONFIG.lstrip("/")).write_text(own)
    (pi.path / "etc/udev/rules.d/70-companion-reader.rules").unlink()
    (pi.path / "etc/modules-load.d/companion.conf").chmod(0o600)
    before = pi.checksums(*TREE)
    out = install(pi).stdout
    assert read(pi, CONFIG) == own
    assert "wrote /etc/udev/rules.d/70-companion-reader.rules" in out and "mode 644 on /etc/modules-load.d" in out
    after = pi.checksums(*TREE)
    changed = {k for k in after.keys() | before.keys() if after.get(k) != before.get(k)}
    assert changed == {"/etc/udev/rules.d/70-companion-reader.rules", "/etc/modules-load.d/companion.conf"}
    assert after == installed["after_first"] | {CONFIG: after[CONFIG]}


def test_the_avahi_file_announces_the_port_the_config_gives_the_phone_page(pi, installed):
    """Issue 25: a box whose config moves the phone page to another port announces that port over mDNS once
    the installer runs again (it used to say 8080 whatever the config said)."""
    own = read(pi, CONFIG)
    try:
        (pi.path / CONFIG.lstrip("/")).write_text(own + "\n[phone]\nport = 8090\n")
        out = install(pi).stdout
        assert "wrote /etc/avahi/services/companion.service" in out, out
        assert "<port>8090</port>" in read(pi, "/etc/avahi/services/companion.service")
    finally:
        (pi.path / CONFIG.lstrip("/")).write_text(own)
        install(pi)
    assert "<port>8080</port>" in read(pi, "/etc/avahi/services/companion.service")


# ------------------------------------------------------------------ the daemon and updates


@pytest.fixture(scope="module")
def running(pi, installed):
    """The installed daemon started as systemd would, simulated hardware, a game in play."""
    port = free_port()
    (pi.path / "etc/companion-test").mkdir(exist_ok=True)
    (pi.path / "etc/companion-test/sim.toml").write_text(
        'hardware = "simulated"\ngames_dir = "/var/lib/companion"\n'
        f'[virtual_table]\nport = 0\n[phone]\nhost = "127.0.0.1"\nport = {port}\n'
    )
    pi.run("install", "-d", "-o", "companion", "-g", "companion", "-m", "0750", "/var/lib/companion")
    pi.run(
        "setpriv",
        "--reuid=companion",
        "--regid=companion",
        "--clear-groups",
        "env",
        "COMPANION_STATE_DIR=/var/lib/companion",
        f"{PREFIX}/.venv/bin/companion",
        "new",
        "--db",
        "/var/lib/companion/current.sqlite",
        "--seed",
        "7",
        "classic",
        "Ann",
        "Bob",
    )
    env = {
        "COMPANION_SERVICE_CTL": CTL,
        "COMPANION_TEST_CONFIG": "/etc/companion-test/sim.toml",
        "COMPANION_READY_SECONDS": "240",
        "COMPANION_SETTLE_SECONDS": "3",
    }
    started = time.monotonic()
    pi.run(CTL, "start", "companion.service", env=env)
    TIMES["daemon start to READY under qemu"] = time.monotonic() - started
    return {"port": port, "env": env}


def page(port) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as answer:
        assert answer.status == 200
        return answer.read().decode()


def daemon_runs(pi):
    return pi.run(CTL, "is-active", "companion.service", check=False).returncode == 0


def test_the_installed_daemon_starts_under_qemu_and_serves_its_page(pi, running):
    assert "<html" in page(running["port"]).lower()
    assert daemon_runs(pi)


def new_source(pi, name, patch=None):
    """A copy of /src with one change (so another version), and `patch` appended to the CLI module."""
    src = pi.path / name.lstrip("/")
    if not src.exists():
        shutil.copytree(pi.path / "src", src, symlinks=True)
        with open(src / "companion/__init__.py", "a") as f:
            f.write(f"# {name}: another version for tests/test_install.py\n")
        if patch:  # appended to the module of the `companion` command's entry point (pyproject.toml)
            entry = tomllib.loads((src / "pyproject.toml").read_text())["project"]["scripts"]["companion"]
            module, func = entry.split(":")
            cli = src / module.replace(".", "/")
            cli = cli / "__init__.py" if cli.is_dir() else cli.with_suffix(".py")
            assert f"\ndef {func}(" in cli.read_text()
            with open(cli, "a") as f:
                f.write(patch.replace("main", func))
    return name


BROKEN_RUN = """
_unbroken_main = main


def main(argv=None):  # tests/test_install.py: a version whose daemon never says READY
    import sys

    if (sys.argv[1:] if argv is None else list(argv))[:1] == ["run"]:
        raise SystemExit("broken on purpose")
    return _unbroken_main(argv)
"""


@pytest.fixture(scope="module")
def wheelhouse(pi):
    """The pinned wheels for CPython 3.11, as `make wheelhouse` makes them (cached with the root)."""
    cache = pi_root.CACHE / "wheelhouse-cp311"
    req = (pi_root.REPO / "systemd/requirements-aarch64.txt").read_text()
    stamp = cache / ".requirements"
    if not (stamp.exists() and stamp.read_text() == req):
        shutil.rmtree(cache, ignore_errors=True)
        subprocess.run(
            [sys.executable, str(pi_root.REPO / "systemd/lock.py"), "--wheelhouse", str(cache), "--python", "3.11"],
            check=True,
            capture_output=True,
            timeout=600,
        )
        stamp.write_text(req)
    shutil.copytree(cache, pi.path / "wheels", dirs_exist_ok=True)
    return "/wheels"


def test_an_update_replays_the_game_switches_and_waits_for_ready(pi, running, wheelhouse):
    old = current(pi)
    src = new_source(pi, "/src-v2")
    # --no-index: the wheels come from the folder only, as on a box without internet
    out = install(
        pi,
        "--update",
        "--wheelhouse",
        wheelhouse,
        src=src,
        env=running["env"],
        timing="update: build from the wheelhouse, verify, switch, READY",
    ).stdout
    assert "the new version replays the game in play: verified:" in out, out
    assert f"switched {PREFIX}/current: {old.name} -> " in out
    assert "the daemon says READY on versions/" in out
    assert current(pi) != old and (pi.path / "opt/companion" / old / ".complete").exists()  # the old one is kept
    assert daemon_runs(pi) and "<html" in page(running["port"]).lower()


def test_an_update_to_a_broken_version_rolls_back(pi, running):
    good = current(pi)
    src = new_source(pi, "/src-broken", BROKEN_RUN)
    done = install(
        pi, "--update", src=src, env=running["env"], check=False, timing="update to a broken version, rolled back"
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "did not report READY: back to " + str(good) in done.stdout
    assert f"FAILED: update rolled back to {good}" in done.stdout
    assert current(pi) == good
    assert daemon_runs(pi) and "<html" in page(running["port"]).lower()
    assert not (pi.path / "opt/companion/switching").exists()


BROKEN_VERIFY = """
_unbroken_main = main


def main(argv=None):  # tests/test_install.py: a version that cannot replay the game in play
    import sys

    if (sys.argv[1:] if argv is None else list(argv))[:1] == ["verify"]:
        print("ledger damaged: broken on purpose")
        raise SystemExit(6)
    return _unbroken_main(argv)
"""


def test_an_update_that_cannot_replay_the_game_in_play_is_not_switched(pi, running):
    good = current(pi)
    src = new_source(pi, "/src-noverify", BROKEN_VERIFY)
    done = install(pi, "--update", src=src, env=running["env"], check=False)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "does not verify the game in play (/var/lib/companion/current.sqlite): not switched" in done.stdout
    assert current(pi) == good and daemon_runs(pi)
    assert "ledger damaged: broken on purpose" in read(pi, LOG)
    assert not (pi.path / "opt/companion/switching").exists()


def test_an_update_without_the_disk_for_it_changes_nothing(pi, running):
    before = pi.checksums(*TREE)
    env = {**running["env"], "COMPANION_MIN_FREE_MB": str(10**9)}
    done = install(pi, "--update", src=new_source(pi, "/src-v3"), env=env, check=False)
    assert done.returncode == 1 and "preflight: disk: " in done.stderr, done.stdout + done.stderr
    assert pi.checksums(*TREE) == before and daemon_runs(pi)


# (step, the clone the update is run from): the build's steps on a new version; the switch's steps
# on the broken version, already built (its daemon never says READY, so the run that finishes the
# cut switch rolls back); the last step, pruning, on the first version, still kept
STEPS = [
    ("build-started", "/src-v3"),
    ("venv-made", "/src-v3"),
    ("venv-built", "/src-v3"),
    ("verified", "/src-broken"),
    ("link-made", "/src-broken"),
    ("switched", "/src-broken"),
    ("restarting", "/src-broken"),
    ("pruning", "/src"),
]


def test_kill_9_at_every_step_of_an_update_leaves_a_complete_version(pi, running):
    """Each run is cut by kill -9 at one step: the link is on a complete version, old or new, after
    every one, a daemon runs, and the next run finishes or undoes what the cut one began."""
    env = running["env"]
    a = current(pi).name
    new_source(pi, "/src-v3")
    seen = {}
    for step, src in STEPS:
        done = install(pi, "--update", src=src, env={**env, "COMPANION_KILL_AT": step}, check=False)
        assert done.returncode == -9, (step, done.returncode, done.stdout, done.stderr)
        assert f"(test) kill -9 at {step}" in done.stdout, (step, done.stdout)
        link = current(pi)
        version = pi.path / "opt/companion" / link
        assert (version / ".complete").is_file() and (version / "venv/bin/companion").is_file(), (step, link)
        assert daemon_runs(pi), step
        seen[step] = link.name
        if step == "restarting":  # the next run finishes the switch: the broken version fails, back to a
            done = install(pi, "--update", src=src, env=env, check=False)
            assert done.returncode == 1 and f"FAILED: update rolled back to versions/{a}" in done.stdout, done.stdout
            assert current(pi).name == a and daemon_runs(pi)
    broken = seen["switched"]
    assert seen["build-started"] == seen["venv-made"] == seen["venv-built"] == seen["verified"] == a
    assert seen["link-made"] == a and broken != a and seen["restarting"] == broken
    assert seen["pruning"] not in (a, broken)
    assert "<html" in page(running["port"]).lower()
    # what the cut runs left behind is cleared by the next one
    install(pi, "--update", src="/src-v2", env=env)
    assert current(pi).name == a
    for left in ("current.new", "switching", "trash"):
        assert not (pi.path / "opt/companion" / left).exists(), left
    assert (
        sorted(p.name for p in (pi.path / "opt/companion/versions").iterdir() if not (p / ".complete").exists()) == []
    )


def test_old_versions_are_kept_to_a_bound(pi, running):
    install(pi, "--update", src="/src-v2", env={**running["env"], "COMPANION_KEEP_VERSIONS": "2"})
    kept = sorted(p.name for p in (pi.path / "opt/companion/versions").iterdir())
    assert len(kept) == 2 and current(pi).name in kept, kept


def test_uninstall_keeps_the_games(pi, running):
    ledger = pi.path / "var/lib/companion/current.sqlite"
    before = ledger.read_bytes()
    out = install(pi, "--uninstall", src="/src-v2", env=running["env"]).stdout
    assert "kept: the games and backups in /var/lib/companion" in out
    assert not daemon_runs(pi)
    for gone in (
        "opt/companion",
        "etc/companion",
        "etc/systemd/system/companion.service",
        "etc/systemd/system/multi-user.target.wants/companion.service",
        "etc/sysusers.d/companion.conf",
        "etc/modules-load.d/companion.conf",
        "etc/udev/rules.d/70-companion-reader.rules",
        "etc/avahi/services/companion.service",
        "etc/polkit-1/rules.d/50-companion.rules",
    ):
        assert not (pi.path / gone).exists(), gone
    assert ledger.read_bytes() == before
    assert read(pi, "/boot/firmware/config.txt") == BOOT_CONFIG
    assert "removed /opt/companion" in read(pi, LOG)
