"""Build the LD_PRELOAD fault shim (faultshim.c) and drive it, through ctypes, from the process it is loaded in."""

import ctypes
import os
import shutil
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "faultshim.c"
CALLS = ("fdatasync", "fsync", "pwrite64", "write")


def build(out_dir: Path) -> Path:
    """Compile faultshim.c into out_dir; AssertionError (never a skip) when gcc is missing or fails."""
    gcc = shutil.which("gcc")
    if gcc is None:
        raise AssertionError(
            "gcc is not on PATH: the fault shim tests/faults/faultshim.c cannot be built, "
            "and the fault-injection tests cannot run without it"
        )
    out = Path(out_dir) / "faultshim.so"
    done = subprocess.run(
        [
            gcc,
            "-shared",
            "-fPIC",
            "-O2",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-o",
            str(out),
            str(SOURCE),
            "-ldl",
            "-lpthread",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if done.returncode != 0:
        raise AssertionError(f"gcc could not build the fault shim:\n{done.stderr}")
    return out


def preload_env(shim_path: Path, base: dict | None = None) -> dict:
    """An environment that preloads the shim into a child process (and whatever it starts)."""
    env = dict(os.environ if base is None else base)
    env["LD_PRELOAD"] = " ".join(filter(None, [str(shim_path), env.get("LD_PRELOAD")]))
    env["FAULTSHIM_SO"] = str(shim_path)
    return env


class Shim:
    """The control functions of the shim preloaded into this process."""

    def __init__(self) -> None:
        # the global symbol scope: finds the preloaded copy, the one that intercepts the calls
        lib = ctypes.CDLL(None)
        try:
            self._arm = lib.faultshim_arm_times
        except AttributeError:
            raise RuntimeError("the fault shim is not preloaded in this process (LD_PRELOAD)") from None
        self._arm.argtypes = [ctypes.c_char_p, ctypes.c_long, ctypes.c_int, ctypes.c_long]
        self._arm.restype = ctypes.c_int
        self._arm_short = lib.faultshim_arm_short
        self._arm_short.argtypes = [ctypes.c_char_p, ctypes.c_long]
        self._arm_short.restype = ctypes.c_int
        self._disarm = lib.faultshim_disarm
        self._disarm.restype = None
        self._fired = lib.faultshim_fired
        self._fired.restype = ctypes.c_long
        self._count = lib.faultshim_count
        self._count.argtypes = [ctypes.c_char_p]
        self._count.restype = ctypes.c_long
        self._reset = lib.faultshim_reset
        self._reset.restype = None
        self._set_dir = lib.faultshim_set_dir
        self._set_dir.argtypes = [ctypes.c_char_p]
        self._set_dir.restype = ctypes.c_int

    def watch(self, directory: Path | None) -> None:
        """Count and fail only calls on files at or under this directory (None: none)."""
        self._set_dir(os.fsencode(str(directory)) if directory else b"")

    def arm(self, call: str, n: int, err: int, times: int = 1) -> None:
        """Fail the nth matching `call` from now with errno `err`, and `times` in a row (-1: all later ones)."""
        if self._arm(call.encode(), n, err, times) != 0:
            raise ValueError(f"the shim refused arm({call!r}, {n}, {err}, {times})")

    def arm_short(self, call: str, n: int) -> None:
        """Let the nth matching pwrite64/write from now write only half its bytes, without an error."""
        if self._arm_short(call.encode(), n) != 0:
            raise ValueError(f"the shim refused arm_short({call!r}, {n})")

    def disarm(self) -> None:
        self._disarm()

    def fired(self) -> int:
        """Faults injected since the last arm."""
        return self._fired()

    def counts(self) -> dict:
        """Matching calls since the last reset, by call name."""
        return {call: self._count(call.encode()) for call in CALLS}

    def reset(self) -> None:
        self._reset()
