"""Child of tests/test_faults.py: plays a fixed short game through the Table API while the shim fails one disk call.

Usage: LD_PRELOAD=faultshim.so python child.py PLAN.json
PLAN: {"scenarios": [{"dir": D, "call": C or null, "n": N, "errno": E, "times": T,
"die": "" | "now" | "after-resolve", "watch": "all" | "state", "reader": R}, ...]}
(errno 0: the Nth call is a short write instead of an error; times -1: every later call fails too;
watch "state": count and fail only the calls on the anchor file, not the ledger's; reader: keep
another connection open on the ledger, as a reading process would, so that closing the table's
connection neither checkpoints nor drops the -wal file).
For each scenario, in its own directory D (ledger D/game.sqlite, anchors in
D/state, the shim watching D): arm the shim, start the game, submit every
command of GAME with its request id, and write one JSON line per outcome on
stdout (a pipe the shim never touches):
  ack (the event's seq), refused (the code), not_written (LedgerError/DiskFull),
  unknown (OutcomeUnknown's seq/request_id/command), then probe (a submit while
  the outcome is unknown must be refused), resolve (what table.resolve() said,
  armed and again disarmed), reopen (a fresh open_game when resolve could not tell),
  halted / error (never expected).
A scenario ends with {"end": ..., "fired": F, "counts": {...}}. With "die", the
scenario runs in a forked copy of the child, which ends itself (os._exit: no close,
no checkpoint, like a power cut or SIGKILL) right after the first command during
which the fault fired, saying {"died": ...} first: what that command's report said
must hold after a crash. die "now" ends it at an unknown outcome before resolve(),
"after-resolve" once resolve() has answered.
The parent checks the ledgers afterwards, without the shim.
"""

import json
import os
import sqlite3
import sys
import traceback
from pathlib import Path

from shim import Shim

from companion.errors import DiskFull, InvariantViolation, LedgerError, OutcomeUnknown, RuleViolation
from companion.table.service import new_game, open_game

EDITION, PLAYERS, SEED = "classic", ["Anna", "Boris"], 1
# every command stays acceptable in any order (pays well within the start cash), so the
# parent can re-submit the ones that were not written after the rest of the game
GAME = (
    ("g-1", "pay Anna Boris 101"),
    ("g-2", "pay Boris Anna 32"),
    ("g-3", "pay Anna Boris 999999"),  # refused: more than Anna has
    ("g-4", "pay Anna Boris 43"),
    ("g-1", "pay Anna Boris 101"),  # a retry: answered from the ledger, never booked twice
    ("g-5", "pay Boris Anna 54"),
    ("g-6", "pay Anna Boris 65"),
    ("g-7", "pay Boris Anna 76"),
)


def emit(**fields) -> None:
    print(json.dumps(fields), flush=True)


def kind(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


class Scenario:
    def __init__(self, shim: Shim, spec: dict, index: int):
        self.shim, self.spec, self.index = shim, spec, index
        self.dir = Path(spec["dir"])
        self.db = str(self.dir / "game.sqlite")

    def say(self, **fields) -> None:
        emit(scenario=self.index, **fields)

    def run(self) -> None:
        self.dir.mkdir(parents=True, exist_ok=False)
        os.environ["COMPANION_STATE_DIR"] = str(self.dir / "state")
        self.shim.watch(self.dir / "state" if self.spec.get("watch") == "state" else self.dir)
        self.shim.reset()
        if self.spec.get("call") and self.spec["errno"] == 0:
            self.shim.arm_short(self.spec["call"], self.spec["n"])
        elif self.spec.get("call"):
            self.shim.arm(self.spec["call"], self.spec["n"], self.spec["errno"], self.spec.get("times", 1))
        table = self.start()
        reader = None
        if table is not None and self.spec.get("reader"):
            reader = sqlite3.connect(self.db)
            reader.execute("SELECT COUNT(*) FROM events").fetchone()
        for position, (rid, line) in enumerate(GAME, 1):
            if table is None:
                break
            table = self.submit(table, rid, line, position)
        fired, counts = self.shim.fired(), self.shim.counts()
        self.shim.disarm()
        if table is not None:
            try:
                table.close()
            except Exception as exc:  # closing must not fail either; the parent flags it
                self.say(step="close", outcome="error", error=kind(exc))
        if reader is not None:
            reader.close()
        self.say(end=True, fired=fired, counts=counts)

    def start(self):
        """new_game under the armed shim; after a failure, a fresh open or a second new_game, disarmed."""
        try:
            table = new_game(self.db, EDITION, PLAYERS, seed=SEED)
            self.say(step="new", outcome="ack")
            return table
        except OutcomeUnknown as exc:
            self.say(step="new", outcome="unknown", error=kind(exc))
        except (DiskFull, LedgerError) as exc:
            self.say(step="new", outcome="not_written", error=kind(exc), exc=type(exc).__name__)
        except InvariantViolation as exc:
            self.say(step="new", outcome="halted", error=kind(exc))
        except Exception as exc:  # outside the contract: the parent names it
            self.say(step="new", outcome="error", error=kind(exc), exc=type(exc).__name__, trace=traceback.format_exc())
        self.shim.disarm()
        try:
            table = open_game(self.db)
            self.say(step="new_reopen", outcome="ack", seq=table.head()[0])
            return table
        except LedgerError as exc:
            self.say(step="new_reopen", outcome="refused", error=kind(exc), exc=type(exc).__name__)
        except Exception as exc:
            self.say(step="new_reopen", outcome="error", error=kind(exc), exc=type(exc).__name__)
        try:
            table = new_game(self.db, EDITION, PLAYERS, seed=SEED)
            self.say(step="new_retry", outcome="ack")
            return table
        except Exception as exc:
            self.say(step="new_retry", outcome="error", error=kind(exc), exc=type(exc).__name__)
        return None

    def submit(self, table, rid: str, line: str, position: int):
        """One command; returns the table to go on with (a fresh one after an unresolved outcome)."""
        base = dict(step="submit", rid=rid, command=line)
        try:
            event = table.submit(line, request_id=rid, actor="table")
            self.say(**base, outcome="ack", seq=event.seq, stored_command=event.command)
        except RuleViolation as exc:
            self.say(**base, outcome="refused", code=exc.code)
        except OutcomeUnknown as exc:
            self.say(**base, outcome="unknown", seq=exc.seq, exc_rid=exc.request_id, exc_command=exc.command)
            if self.spec.get("die") == "now":
                self.die_if_asked()
            table = self.settle(table, rid, line, position)
        except InvariantViolation as exc:
            self.say(**base, outcome="halted", error=kind(exc))
        except (DiskFull, LedgerError) as exc:
            # LedgerDamaged is a LedgerError too: reported by name so the parent can flag it
            self.say(**base, outcome="not_written", exc=type(exc).__name__, error=kind(exc))
        except Exception as exc:
            self.say(**base, outcome="error", error=kind(exc), trace=traceback.format_exc())
        if self.shim.fired():
            self.die_if_asked()
        return table

    def die_if_asked(self) -> None:
        if self.spec.get("die"):
            self.say(died=True, fired=self.shim.fired(), counts=self.shim.counts())
            os._exit(0)

    def settle(self, table, rid: str, line: str, position: int):
        """After OutcomeUnknown: a probe must be refused, then resolve (armed, then disarmed), else reopen."""
        # a command of its own (rid and amount) so that the parent can book it later without a clash
        probe_rid, probe = f"probe-{position}", f"pay Boris Anna {position}"
        try:
            event = table.submit(probe, request_id=probe_rid, actor="table")
            self.say(step="probe", rid=probe_rid, command=probe, outcome="ack", seq=event.seq)
        except OutcomeUnknown:
            self.say(step="probe", rid=probe_rid, command=probe, outcome="blocked")
        except Exception as exc:
            self.say(step="probe", rid=probe_rid, command=probe, outcome="error", error=kind(exc))
        for armed in (True, False):
            if not armed:
                self.shim.disarm()
            try:
                stored = table.resolve()
            except OutcomeUnknown as exc:
                self.say(step="resolve", rid=rid, command=line, armed=armed, said="unknown", error=kind(exc))
                continue
            except Exception as exc:
                self.say(
                    step="resolve",
                    rid=rid,
                    command=line,
                    armed=armed,
                    said="error",
                    error=kind(exc),
                    trace=traceback.format_exc(),
                )
                continue
            self.say(step="resolve", rid=rid, command=line, armed=armed, said=bool(stored))
            return table
        try:
            table.close()
        except Exception as exc:
            self.say(step="close", outcome="error", error=kind(exc))
        try:
            fresh = open_game(self.db)
        except Exception as exc:
            self.say(step="reopen", rid=rid, outcome="error", error=kind(exc), exc=type(exc).__name__)
            return None
        self.say(step="reopen", rid=rid, outcome="ack", seq=fresh.head()[0])
        return fresh


def main(plan_path: str) -> None:
    plan = json.loads(Path(plan_path).read_text())
    shim = Shim()
    for index, spec in enumerate(plan["scenarios"]):
        if not spec.get("die"):
            Scenario(shim, spec, index).run()
            continue
        # a scenario that ends in a crash runs in a forked copy of this process (the imports
        # are paid once); the copy ends with os._exit whether or not it died on the way
        pid = os.fork()
        if pid == 0:
            try:
                Scenario(shim, spec, index).run()
            finally:
                os._exit(0)
        _, status = os.waitpid(pid, 0)
        if status != 0:
            emit(scenario=index, step="fork", outcome="error", error=f"the forked scenario ended with {status}")
    emit(done=True)


if __name__ == "__main__":
    main(sys.argv[1])
