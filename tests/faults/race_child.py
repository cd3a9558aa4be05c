"""Child of tests/test_races.py: one writer, reader or racer on a shared game, started together on "go".

Usage: python race_child.py ROLE DB ARGS...
  writer DB INDEX COUNT      submit COUNT `pay` commands, request ids w<INDEX>-<k>
  reader DB INDEX STOPFILE   open_game(readonly=True) in a loop until STOPFILE exists
  cli-reader DB INDEX STOPFILE  `companion state --db DB --json` in a loop until STOPFILE exists
  racer DB RID COMMAND...    submit one command with a request id other racers share
Each child opens what it needs, prints `ready`, waits for a line on stdin, then
works, printing one JSON line per result and a final {"done": ...}. Every loop
is bounded (LOOP_MAX, DEADLINE_S) so a child stops by itself.
"""

import json
import os
import subprocess
import sys
import time

from companion.errors import CompanionError, OutcomeUnknown, RuleViolation
from companion.table.service import open_game

LOOP_MAX = 5000
DEADLINE_S = 100.0
PLAYERS = ("Anna", "Boris")


def emit(**fields) -> None:
    print(json.dumps(fields), flush=True)


def wait_for_go() -> None:
    print("ready", flush=True)
    sys.stdin.readline()


def writer_command(index: int, k: int) -> str:
    """Alternating directions and small amounts: no payer ever runs short whatever the order."""
    payer, payee = PLAYERS if (index + k) % 2 else PLAYERS[::-1]
    return f"pay {payer} {payee} {1 + (index * 7 + k) % 9}"


def writer(db: str, index: int, count: int) -> None:
    table = open_game(db)
    wait_for_go()
    for k in range(count):
        rid, line = f"w{index}-{k}", writer_command(index, k)
        try:
            event = table.submit(line, request_id=rid, actor="table")
            emit(rid=rid, command=line, outcome="ack", seq=event.seq, stored=event.command)
        except RuleViolation as exc:
            emit(rid=rid, command=line, outcome="refused", code=exc.code, error=str(exc))
        except OutcomeUnknown as exc:
            emit(rid=rid, command=line, outcome="unknown", error=str(exc))
            break
        except CompanionError as exc:
            emit(rid=rid, command=line, outcome="error", kind=type(exc).__name__, error=str(exc))
    table.close()
    emit(done=True)


def reader(db: str, index: int, stopfile: str) -> None:
    """Open read-only again and again; every view must be whole: money kept, never going back."""
    wait_for_go()
    reads, last_seq, seen, deadline = 0, 0, set(), time.monotonic() + DEADLINE_S
    while reads < LOOP_MAX and time.monotonic() < deadline:
        stop = os.path.exists(stopfile)  # one more read after the writers are done
        try:
            table = open_game(db, readonly=True)
        except Exception as exc:
            emit(outcome="error", kind=type(exc).__name__, error=str(exc), reads=reads)
        else:
            try:
                seq = table.head()[0]
                cash = sum(table.state.balances.get(p, 0) for p in PLAYERS)
                if cash != 4000:
                    emit(outcome="error", kind="money", error=f"players hold {cash} at #{seq}")
                if seq < last_seq:
                    emit(outcome="error", kind="back", error=f"saw #{last_seq}, then #{seq}")
                last_seq = max(last_seq, seq)
                seen.add(seq)
            finally:
                table.close()
        reads += 1
        if stop:
            break
    emit(done=True, reads=reads, last_seq=last_seq, seen=sorted(seen))


def cli_reader(db: str, index: int, stopfile: str) -> None:
    """The same through the command line, a whole process per read."""
    wait_for_go()
    reads, deadline = 0, time.monotonic() + DEADLINE_S
    while reads < LOOP_MAX and time.monotonic() < deadline:
        stop = os.path.exists(stopfile)
        done = subprocess.run(
            [sys.executable, "-m", "companion", "state", "--db", db, "--json"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        if done.returncode != 0 or done.stderr.strip():
            emit(outcome="error", kind=f"exit {done.returncode}", error=done.stderr.strip(), reads=reads)
        else:
            try:
                json.loads(done.stdout)
            except ValueError as exc:
                emit(outcome="error", kind="json", error=f"{exc}: {done.stdout[:200]!r}")
        reads += 1
        if stop:
            break
    emit(done=True, reads=reads)


def racer(db: str, rid: str, line: str) -> None:
    table = open_game(db)
    wait_for_go()
    try:
        event = table.submit(line, request_id=rid, actor="table")
        emit(rid=rid, command=line, outcome="ack", seq=event.seq, stored=event.command)
    except RuleViolation as exc:
        emit(rid=rid, command=line, outcome="refused", code=exc.code, error=str(exc))
    except CompanionError as exc:
        emit(rid=rid, command=line, outcome="error", kind=type(exc).__name__, error=str(exc))
    table.close()
    emit(done=True)


def main(argv: list) -> None:
    role, db = argv[0], argv[1]
    if role == "writer":
        writer(db, int(argv[2]), int(argv[3]))
    elif role == "reader":
        reader(db, int(argv[2]), argv[3])
    elif role == "cli-reader":
        cli_reader(db, int(argv[2]), argv[3])
    elif role == "racer":
        racer(db, argv[2], " ".join(argv[3:]))
    else:
        raise SystemExit(f"unknown role {role}")


if __name__ == "__main__":
    main(sys.argv[1:])
