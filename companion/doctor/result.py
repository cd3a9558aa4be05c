"""A check's verdict (OK / WARN / FAIL, a message code and, for WARN and FAIL, the code of the line that
fixes it) and what every check is handed (the machine, the configuration, the daemon's status)."""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.daemon.config import Config

from .system import Holder, System

OK, WARN, FAIL = "ok", "warn", "fail"


@dataclass(frozen=True)
class Result:
    """One check's verdict: `code` (and `params`) says what was found, `fix` (and `fix_params`) what to do."""

    check: str
    status: str
    code: str
    params: dict[str, Any] = field(default_factory=dict)
    fix: str | None = None
    fix_params: dict[str, Any] = field(default_factory=dict)


@dataclass
class Context:
    """What the checks read: the machine, the box's configuration, and the daemon's `status` answer when it runs."""

    system: System
    config: Config
    status: dict[str, Any] | None = None  # None: no daemon holds the games folder (or it did not answer)
    holder: dict[str, Any] | None = None  # {pid, socket} of the daemon holding the games folder

    def is_daemon(self, process: Holder) -> bool:
        """Whether a process is the box's daemon: the folder's holder, or (its lock unreadable to this user)
        a `companion run`."""
        if self.holder is not None:
            return str(process.pid) == str(self.holder.get("pid"))
        return "companion run" in process.command

    @property
    def real(self) -> bool:
        return bool(self.config["hardware"] == "real")


Check = Callable[[Context], Result]


def ok(check: str, code: str, /, **params: Any) -> Result:
    return Result(check, OK, code, params)


def warn(check: str, code: str, fix: str, fix_params: dict[str, Any] | None = None, /, **params: Any) -> Result:
    return Result(check, WARN, code, params, fix, fix_params or {})


def fail(check: str, code: str, fix: str, fix_params: dict[str, Any] | None = None, /, **params: Any) -> Result:
    return Result(check, FAIL, code, params, fix, fix_params or {})
