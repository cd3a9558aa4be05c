"""Child of tests/files/sandbox.in_mount_namespace: inside a private mount namespace, make the
mounts, run the steps, print one JSON result per step on stdout.

Usage: python ns_child.py SPEC.json with {"mounts": [[cmd...]...], "steps": [{...}...]}. Steps:
  {"kind": "cli", "argv": [...], "env": {...}, "patch": {"module:NAME": value}}
                                                  companion.cli.main in-process -> code, out, err
                                                  (patch: module globals set for this call only)
  {"kind": "fill", "dir": D, "slack": N}         fill D's disk, then free N bytes -> free bytes
  {"kind": "unfill", "dir": D}                    remove the filler files
  {"kind": "files", "dir": D}                     {name: [size, sha256]} of the files in D
"""

import errno
import hashlib
import importlib
import json
import os
import subprocess
import sys
from dataclasses import asdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sandbox import cli  # noqa: E402

FILLERS = (("filler-1", 1 << 20), ("filler-2", 4096), ("filler-3", 1))


def fill(directory: str, slack: int) -> dict:
    """Write filler files until the disk refuses even one byte, then give back `slack` bytes."""
    for name, chunk in FILLERS:
        fd = os.open(os.path.join(directory, name), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            while True:
                os.write(fd, b"\0" * chunk)
        except OSError as exc:
            if exc.errno != errno.ENOSPC:
                raise
        finally:
            os.close(fd)
    if slack:
        big = os.path.join(directory, FILLERS[0][0])
        os.truncate(big, max(0, os.path.getsize(big) - slack))
    st = os.statvfs(directory)
    return {"free": st.f_bavail * st.f_frsize}


def unfill(directory: str) -> dict:
    for name, _ in FILLERS:
        try:
            os.remove(os.path.join(directory, name))
        except FileNotFoundError:
            pass
    st = os.statvfs(directory)
    return {"free": st.f_bavail * st.f_frsize}


def files(directory: str) -> dict:
    out = {}
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if os.path.isfile(path):
            with open(path, "rb") as f:
                data = f.read()
            out[name] = [len(data), hashlib.sha256(data).hexdigest()]
    return {"files": out}


def main(spec_path: str) -> None:
    with open(spec_path) as f:
        spec = json.load(f)
    for command in spec["mounts"]:
        subprocess.run(command, check=True)
    results = []
    for step in spec["steps"]:
        kind = step["kind"]
        if kind == "cli":
            saved = dict(os.environ)
            os.environ.update(step.get("env") or {})
            patched = []
            for target, value in (step.get("patch") or {}).items():
                module_name, name = target.split(":")
                module = importlib.import_module(module_name)
                patched.append((module, name, getattr(module, name)))
                setattr(module, name, value)
            try:
                result = asdict(cli(step["argv"]))
            finally:
                for module, name, old in reversed(patched):
                    setattr(module, name, old)
                os.environ.clear()
                os.environ.update(saved)
        elif kind == "fill":
            result = fill(step["dir"], step.get("slack", 0))
        elif kind == "unfill":
            result = unfill(step["dir"])
        elif kind == "files":
            result = files(step["dir"])
        else:
            raise ValueError(f"unknown step {kind!r}")
        results.append({"kind": kind, **result})
    print(json.dumps(results))


if __name__ == "__main__":
    main(sys.argv[1])
