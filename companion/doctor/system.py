"""What the doctor looks at, through one root and one command runner, so the tests hand it a fake machine."""

import os
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT_ENV = "COMPANION_SYSTEM_ROOT"  # a fake /sys, /proc, /run, /dev, /etc tree (the tests'); default /
RUN_TIMEOUT_S = 10.0

# (exit code, standard output); 127 when the program is not installed, 124 when it did not finish in time
Runner = Callable[[Sequence[str]], tuple[int, str]]


def run_command(args: Sequence[str]) -> tuple[int, str]:
    """Run a program with no input and a time limit; never raises."""
    if shutil.which(args[0]) is None:
        return 127, ""
    try:
        done = subprocess.run(
            list(args), stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=RUN_TIMEOUT_S
        )
    except subprocess.TimeoutExpired:
        return 124, ""
    except OSError:
        return 127, ""
    return done.returncode, done.stdout


@dataclass(frozen=True)
class Holder:
    """A process with a file or socket open."""

    pid: int
    name: str  # /proc/<pid>/comm
    command: str  # /proc/<pid>/cmdline, words joined by spaces


class System:
    """The machine as the doctor reads it: every path under `root`, every program through `runner`."""

    def __init__(self, root: str | os.PathLike[str] | None = None, runner: Runner = run_command):
        self.root = Path(root or os.environ.get(ROOT_ENV) or "/")
        self.runner = runner

    def path(self, name: str | os.PathLike[str]) -> Path:
        """The file a machine path names here (a path already inside the root is taken as it is)."""
        path = Path(name)
        if self.root == Path("/") or not path.is_absolute() or path.is_relative_to(self.root):
            return path
        return self.root / path.relative_to(path.anchor)

    def read(self, name: str | os.PathLike[str]) -> str | None:
        try:
            return self.path(name).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None

    def exists(self, name: str | os.PathLike[str]) -> bool:
        return self.path(name).exists()

    def glob(self, pattern: str) -> list[str]:
        """Machine paths matching an absolute pattern, sorted."""
        base = self.path("/")
        return sorted("/" + str(p.relative_to(base)) if base != Path("/") else str(p) for p in base.glob(pattern[1:]))

    def run(self, *args: str) -> tuple[int, str]:
        return self.runner(args)

    def free_bytes(self, name: str | os.PathLike[str]) -> int | None:
        """Free bytes for an ordinary user on the file system holding `name` (its nearest existing folder)."""
        path = self.path(name)
        while not path.exists() and path != path.parent:
            path = path.parent
        try:
            stat = os.statvfs(path)
        except OSError:
            return None
        return stat.f_bavail * stat.f_frsize

    def link_target(self, name: str) -> str | None:
        """Where a symlink (a /dev/serial/by-id name) points, as a machine path."""
        path = self.path(name)
        try:
            target = os.readlink(path)
        except OSError:
            return None
        full = os.path.normpath(os.path.join("/" + str(Path(name).parent.relative_to("/")), target))
        return full

    def processes(self) -> list[Holder]:
        """Every process /proc lists (pid, name, command line)."""
        found = []
        for entry in self.glob("/proc/[0-9]*"):
            pid = int(entry.rsplit("/", 1)[1])
            name = (self.read(f"{entry}/comm") or "").strip()
            command = (self.read(f"{entry}/cmdline") or "").replace("\0", " ").strip()
            found.append(Holder(pid, name, command))
        return found

    def holders(self, targets: set[str]) -> list[Holder]:
        """The processes with any of `targets` open (a device's path, or `socket:[inode]`)."""
        found = []
        for process in self.processes():
            try:
                fds = list(self.path(f"/proc/{process.pid}/fd").iterdir())
            except OSError:
                continue  # another user's process: its descriptors are not ours to read
            for fd in fds:
                try:
                    target = os.readlink(fd)
                except OSError:
                    continue
                if target in targets:
                    found.append(process)
                    break
        return found

    def listeners(self, port: int) -> set[str]:
        """`socket:[inode]` of every TCP socket listening on `port` (/proc/net/tcp and tcp6)."""
        sockets = set()
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            for line in (self.read(table) or "").splitlines()[1:]:
                words = line.split()
                if len(words) < 10 or words[3] != "0A":  # 0A: LISTEN
                    continue
                try:
                    local_port = int(words[1].rsplit(":", 1)[1], 16)
                except (IndexError, ValueError):
                    continue
                if local_port == port:
                    sockets.add(f"socket:[{words[9]}]")
        return sockets

    def ask_firmware(self, port: str) -> str | None:
        """The reader's firmware version, asked over its port (only while nobody else holds it)."""
        from companion.hw.firmware import ask_version

        return ask_version(str(self.path(port)))
