"""A throwaway Debian Bookworm arm64 root for the installer's tests (tests/test_install*.py).

mmdebstrap builds a minbase Bookworm arm64 root once into a cache folder ($COMPANION_TEST_CACHE, else
~/.cache/companion-tests; about a minute, 200 MB), and each test session unpacks its own copy. Commands
run in it through chroot, the arm64 programs under qemu-user-static registered with binfmt_misc
(with the F flag, so the interpreter needs no copy inside the root). Each command gets a mount
namespace of its own (unshare) with /proc and /dev mounted, so nothing stays mounted on the host when
it ends; the network is the host's, so a daemon started in the root is reached on 127.0.0.1.

`why_not()` says in one line why this cannot be set up here (the tests skip with that line);
.ci/run installs what it takes: mmdebstrap, qemu-user-static and binfmt-support.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import stat
import subprocess
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("COMPANION_TEST_CACHE") or Path.home() / ".cache" / "companion-tests")
# what Raspberry Pi OS Lite has that a minbase root lacks and the installer relies on
PACKAGES = ["systemd", "udev", "python3", "python3-venv", "ca-certificates"]
BINFMT = Path("/proc/sys/fs/binfmt_misc")
# what a version of companion keeps of the clone (systemd/install.sh, source_files)
SOURCE = ["pyproject.toml", "README.md", "companion", "web", "systemd", "docs", "firmware", "hardware"]
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

# systemctl's stand-in inside the root (no systemd runs in a chroot): start, restart, stop,
# is-active and is-enabled of companion.service, Type=notify as systemd does it: the daemon gets a
# NOTIFY_SOCKET, and start succeeds only once READY=1 arrives on it (or fails when the daemon exits).
FAKE_CTL = r"""#!/usr/bin/python3
import os, pwd, signal, socket, subprocess, sys, time
STATE = "/var/lib/companion-test"
PIDFILE = STATE + "/pid"
CONFIG = os.environ.get("COMPANION_TEST_CONFIG", "/etc/companion/companion.toml")
TIMEOUT = float(os.environ.get("COMPANION_TEST_START_SECONDS", "150"))

def running():
    try:
        pid = int(open(PIDFILE).read())
        with open(f"/proc/{pid}/stat") as f:
            return None if f.read().rsplit(")", 1)[1].split()[0] in "ZX" else pid
    except (OSError, ValueError, IndexError):
        return None

def stop():
    pid = running()
    if pid:
        os.kill(pid, signal.SIGTERM)
        for _ in range(300):
            if not running():
                break
            time.sleep(0.1)
        else:
            os.kill(pid, signal.SIGKILL)
    if os.path.exists(PIDFILE):
        os.unlink(PIDFILE)
    return 0

def start():
    os.makedirs(STATE, exist_ok=True)
    user = pwd.getpwnam("companion")
    for d in ("/var/lib/companion", "/run/companion"):
        os.makedirs(d, exist_ok=True)
        os.chown(d, user.pw_uid, user.pw_gid)
        os.chmod(d, 0o750)
    path = STATE + "/notify"
    if os.path.exists(path):
        os.unlink(path)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    os.chmod(path, 0o666)
    sock.settimeout(0.5)
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/var/lib/companion", "NOTIFY_SOCKET": path,
           "STATE_DIRECTORY": "/var/lib/companion", "RUNTIME_DIRECTORY": "/run/companion",
           "COMPANION_STATE_DIR": "/var/lib/companion", "PYTHONUNBUFFERED": "1"}
    def as_companion():
        os.setgid(user.pw_gid)
        os.setgroups([])
        os.setuid(user.pw_uid)
    log = open(STATE + "/daemon.log", "ab")
    proc = subprocess.Popen(["/opt/companion/.venv/bin/companion", "run", "--config", CONFIG], cwd="/run/companion",
                            env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log, preexec_fn=as_companion,
                            start_new_session=True)
    with open(PIDFILE, "w") as f:
        f.write(str(proc.pid))
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            print(f"companion.service: the daemon exited with {proc.returncode} before READY", file=sys.stderr)
            return 1
        try:
            if "READY=1" in sock.recv(4096).decode().split("\n"):
                return 0
        except socket.timeout:
            pass
    print("companion.service: no READY in time", file=sys.stderr)
    stop()
    return 1

args = [a for a in sys.argv[1:] if not a.startswith("-")]
verb = args[0] if args else ""
if verb == "start":
    sys.exit(0 if running() else start())
if verb == "restart":
    stop()
    sys.exit(start())
if verb == "stop":
    sys.exit(stop())
if verb == "is-active":
    sys.exit(0 if running() else 3)
if verb == "is-enabled":
    sys.exit(0 if os.path.exists("/etc/systemd/system/multi-user.target.wants/companion.service") else 1)
sys.exit(f"fake systemctl: {sys.argv[1:]} not known")
"""


def _binfmt_ready() -> bool:
    entry = BINFMT / "qemu-aarch64"
    if not entry.exists():
        return False
    text = entry.read_text()
    return text.startswith("enabled") and any(line.startswith("flags:") and "F" in line for line in text.splitlines())


def why_not() -> str | None:
    """None when an arm64 root can be built and run here, else the one reason it cannot."""
    if os.geteuid() != 0:
        return "not root: chroot and mmdebstrap's root mode need root (CI runs as root)"
    for tool in ("mmdebstrap", "unshare", "chroot", "systemd-analyze"):
        if not shutil.which(tool):
            return f"{tool} missing: apt-get install mmdebstrap qemu-user-static binfmt-support (.ci/run does)"
    if not _binfmt_ready():
        # binfmt-support registers qemu-user-static's interpreters; mount binfmt_misc first if needed
        if not (BINFMT / "register").exists():
            subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(BINFMT)], capture_output=True)
        if shutil.which("update-binfmts"):
            subprocess.run(["update-binfmts", "--enable", "qemu-aarch64"], capture_output=True)
        if not _binfmt_ready():
            return (
                "qemu-aarch64 is not registered with binfmt_misc (with the F flag): "
                "apt-get install qemu-user-static binfmt-support (.ci/run does)"
            )
    return None


def base_tar() -> Path:
    """The cached Bookworm arm64 root (built once; a lock keeps two sessions from building it twice)."""
    key = hashlib.sha256(" ".join(["bookworm", "arm64", "minbase", *PACKAGES]).encode()).hexdigest()[:12]
    tar = CACHE / f"bookworm-arm64-{key}.tar"
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not tar.exists():
            part = tar.with_suffix(".part")
            cmd = [
                "nice",
                "-n",
                "19",
                "mmdebstrap",
                "--quiet",
                "--variant=minbase",
                "--architectures=arm64",
                "--include=" + ",".join(PACKAGES),
                "bookworm",
                str(part),
            ]
            started = time.monotonic()
            done = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True)
            if done.returncode != 0:
                part.unlink(missing_ok=True)
                raise RuntimeError(f"mmdebstrap failed: {done.stderr[-2000:]}")
            part.rename(tar)
            (CACHE / f"{tar.name}.seconds").write_text(f"{time.monotonic() - started:.0f}\n")
    return tar


def copy_source(dest: Path, source: Path = REPO) -> None:
    """The clone as install.sh sees it: its source files, none of its build leftovers."""
    ignore = shutil.ignore_patterns("node_modules", "__pycache__", "*.pyc", "*.egg-info", ".venv")
    for name in SOURCE:
        src = source / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=ignore, symlinks=True)
        elif src.exists():
            dest.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)


class Root:
    """An unpacked arm64 root at `path`; `run` runs a command chrooted in it."""

    def __init__(self, path: Path):
        self.path = path

    @classmethod
    def unpack(cls, path: Path) -> Root:
        path.mkdir(parents=True, exist_ok=True)
        subprocess.run(["tar", "-C", str(path), "--numeric-owner", "-xpf", str(base_tar())], check=True)
        # name resolution and the proxies' certificates as this machine has them (pip reaches PyPI)
        for f in ("/etc/resolv.conf", "/etc/hosts", "/etc/ssl/certs/ca-certificates.crt"):
            if Path(f).exists():
                target = path / f.lstrip("/")
                if target.is_symlink() or target.exists():
                    target.unlink()
                shutil.copy(f, target)
        ctl = path / "usr/local/sbin/fake-service-ctl"
        ctl.write_text(FAKE_CTL)
        ctl.chmod(0o755)
        return cls(path)

    def run(
        self, *cmd: str, env: dict[str, str] | None = None, net: bool = True, timeout: float = 900, check: bool = True
    ) -> subprocess.CompletedProcess[str]:
        base = {"PATH": PATH, "LANG": "C.UTF-8", "HOME": "/root", "TERM": "dumb"}
        for k in (
            "http_proxy",
            "https_proxy",
            "no_proxy",
            "HTTP_PROXY",
            "HTTPS_PROXY",
            "NO_PROXY",
            "PIP_CERT",
            "PIP_INDEX_URL",
            "PIP_DEFAULT_TIMEOUT",
        ):
            if k in os.environ:
                base[k] = os.environ[k]
        base.update(env or {})
        script = 'mount -t proc proc "$R/proc" && mount --rbind /dev "$R/dev" && exec chroot "$R" "$@"'
        args = ["unshare", "--mount", "--propagation", "private"] + ([] if net else ["--net"])
        done = subprocess.run(
            [*args, "/bin/sh", "-c", script, "sh", *cmd],
            env={**base, "R": str(self.path), "PATH": PATH},
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if check and done.returncode != 0:
            raise AssertionError(
                f"{' '.join(cmd)} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
            )
        return done

    def checksums(self, *under: str, skip: tuple[str, ...] = ()) -> dict[str, str]:
        """{path: what it is} for every file, link and folder under these paths: content, mode, owner."""
        out: dict[str, str] = {}
        for top in under:
            base = self.path / top.lstrip("/")
            paths = [base] if not base.is_dir() or base.is_symlink() else [base, *sorted(base.rglob("*"))]
            for p in paths:
                rel = "/" + str(p.relative_to(self.path))
                if rel in skip or not (p.exists() or p.is_symlink()):
                    continue
                st = p.lstat()
                what = f"{stat.filemode(st.st_mode)} {st.st_uid}:{st.st_gid}"
                if p.is_symlink():
                    what += " -> " + os.readlink(p)
                elif p.is_file():
                    what += " " + hashlib.sha256(p.read_bytes()).hexdigest()
                out[rel] = what
        return out

    def kill_daemon(self) -> None:
        """Stop a daemon left running by the fake systemctl (its pid is this machine's)."""
        pidfile = self.path / "var/lib/companion-test/pid"
        try:
            os.kill(int(pidfile.read_text()), 9)
        except (OSError, ValueError):
            pass
