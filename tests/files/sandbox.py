"""Run the `companion` CLI in-process, as another (non-root) user, or inside a private mount namespace.

- `cli(argv)`: companion.cli.main in this process, its output captured (no subprocess per case).
- `as_user(fn, *args)`: fn in a forked child that has dropped root to uid/gid 65534, so file modes
  bite even when the test runner is root; when the runner is not root the modes bite already and
  the child keeps the runner's uid. The child never execs: the venv's interpreter may live where
  another user cannot reach it (here /root/.pyenv, mode 0700).
- `in_mount_namespace(mounts, steps)`: a child in its own mount namespace (`unshare -m`, or
  `unshare -r -m` for a non-root runner) mounts a small tmpfs or a read-only bind mount and runs
  the steps (CLI calls, filling the disk); the mounts vanish with the child, whatever happens.
"""

import contextlib
import io
import json
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import traceback
from dataclasses import asdict, dataclass
from pathlib import Path

OTHER_UID = 65534  # "nobody": owns nothing, in no group
HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent


@dataclass
class Run:
    """One CLI call: exit code (or "raised" when an exception escaped main), stdout, stderr."""

    argv: list
    code: object
    out: str
    err: str

    def __str__(self) -> str:
        return f"`companion {' '.join(map(str, self.argv))}` -> exit {self.code}\nstdout: {self.out!r}\nstderr: {self.err!r}"


def cli(argv) -> Run:
    """companion.cli.main(argv) in this process; an exception escaping main is recorded, not raised."""
    from companion import cli as companion_cli

    argv = [str(a) for a in argv]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = companion_cli.main(argv)
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code
        except BaseException:  # main must never let one out: show it in the failure
            code = "raised"
            err.write(traceback.format_exc())
    return Run(argv, code, out.getvalue(), err.getvalue())


def one_line_error(run: Run, *codes: int) -> None:
    """The run failed with one of `codes`, one non-empty line on stderr, no traceback, nothing on stdout."""
    assert run.code in codes, f"expected exit {codes}: {run}"
    assert "Traceback" not in run.err + run.out, str(run)
    lines = run.err.splitlines()
    assert len(lines) == 1 and lines[0].strip(), f"stderr is not one line: {run}"
    assert run.out == "", f"an error also printed output: {run}"


# ----- another user ---------------------------------------------------------------------------


def is_root() -> bool:
    return os.geteuid() == 0


def user_uid() -> int:
    """The uid the permission tests run as: 65534 under a root runner, else the runner itself."""
    return OTHER_UID if is_root() else os.getuid()


def give_to_user(*paths) -> None:
    """Make the test user own these files and folders (a root runner chowns; otherwise they are ours)."""
    if not is_root():
        return
    for path in paths:
        for root, dirs, files in os.walk(path):
            for name in [root, *(os.path.join(root, n) for n in dirs + files)]:
                os.lchown(name, OTHER_UID, OTHER_UID)


def as_user(fn, *args):
    """fn(*args) in a forked child running as the test user (never root); returns its result.

    The child proves it dropped root before calling fn; an exception in fn is re-raised here
    with the child's traceback.
    """
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        try:
            os.close(read_fd)
            if is_root():
                os.setgroups([])
                os.setgid(OTHER_UID)
                os.setuid(OTHER_UID)
            if os.geteuid() == 0 or os.getuid() == 0:
                raise RuntimeError("the child is still root: file modes would not bite")
            payload = (True, fn(*args))
        except BaseException as exc:
            payload = (False, f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}")
        try:
            with os.fdopen(write_fd, "wb") as pipe:
                pickle.dump(payload, pipe)
        finally:
            os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    if not data:
        raise AssertionError(f"the child running as uid {user_uid()} died (wait status {status})")
    ok, value = pickle.loads(data)
    if not ok:
        raise AssertionError(f"in the child running as uid {user_uid()}: {value}")
    return value


def cli_as_user(argv, env: dict | None = None) -> Run:
    """The CLI in-process in a child running as the test user (with extra environment variables)."""

    def call():
        os.environ.update(env or {})
        return cli(argv)

    return as_user(call)


def can_write(path) -> bool:
    """Whether the test user may write to path (a file) or create files in it (a folder)."""
    return as_user(os.access, str(path), os.W_OK)


@contextlib.contextmanager
def open_dir():
    """A temporary folder the test user can reach (pytest's tmp_path sits in a 0700 folder of root's)."""
    path = Path(tempfile.mkdtemp(prefix="companion-files-"))
    os.chmod(path, 0o755)
    try:
        yield path
    finally:
        for root, dirs, _ in os.walk(path):
            for name in dirs:
                with contextlib.suppress(OSError):
                    os.chmod(os.path.join(root, name), 0o755)
        with contextlib.suppress(OSError):
            os.chmod(path, 0o755)
        shutil.rmtree(path, ignore_errors=True)


# ----- a private mount namespace ----------------------------------------------------------------


def unshare_command() -> list:
    """unshare with a new mount namespace; a non-root runner also takes a user namespace (it maps
    the runner to root there, which may mount a tmpfs or bind mounts but reaches no one else's files)."""
    return ["unshare", "-m", "--propagation", "private"] + ([] if is_root() else ["-r"])


def mount_namespace_problem() -> str | None:
    """None when this machine lets us mount in a private namespace, else why not."""
    if shutil.which("unshare") is None:
        return "no `unshare` command (util-linux)"
    with tempfile.TemporaryDirectory() as d:
        try:
            done = subprocess.run(
                unshare_command() + ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", d],
                capture_output=True,
                text=True,
                timeout=30,
            )
        except OSError as exc:
            return str(exc)
    return None if done.returncode == 0 else (done.stderr.strip() or f"exit {done.returncode}")


def tmpfs_mount(path, size_bytes: int) -> list:
    return ["mount", "-t", "tmpfs", "-o", f"size={size_bytes},mode=0755", "tmpfs", str(path)]


def readonly_bind_mounts(source, target) -> list:
    return [["mount", "--bind", str(source), str(target)], ["mount", "-o", "remount,ro,bind", str(target)]]


def in_mount_namespace(mounts: list, steps: list, env: dict | None = None) -> list:
    """Run tests/files/ns_child.py in a private mount namespace: it makes `mounts` (commands),
    then runs `steps` and returns one result dict per step (see ns_child.py)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as spec:
        json.dump({"mounts": mounts, "steps": steps}, spec)
    child_env = dict(os.environ, **(env or {}))
    child_env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), child_env.get("PYTHONPATH")]))
    try:
        done = subprocess.run(
            unshare_command() + [sys.executable, str(HERE / "ns_child.py"), spec.name],
            capture_output=True,
            text=True,
            env=child_env,
            timeout=600,
        )
    finally:
        os.unlink(spec.name)
    if done.returncode != 0:
        raise AssertionError(
            f"the mount-namespace child failed (exit {done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        )
    results = json.loads(done.stdout)
    for result in results:
        if result.get("kind") == "cli":
            result["run"] = Run(result["argv"], result["code"], result["out"], result["err"])
    return results


def run_dict(run: Run) -> dict:
    return asdict(run)
