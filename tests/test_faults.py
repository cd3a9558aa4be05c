"""Fault injection: a disk that fails at any write step of a short game never makes the bank lose or double-book a command.

An LD_PRELOAD shim (tests/faults/faultshim.c, built here with gcc; no gcc is a
failure, not a skip) fails the Nth fdatasync, fsync, pwrite64 or write on the
game's files with EIO or ENOSPC (or makes it a short write). A child process
(tests/faults/child.py) plays a fixed short game through the Table API, once per
N, and reports every command as ack, refused, not written or unknown (with what
table.resolve() said). Variants: the fault stays on from then on (a dying disk);
the child dies right after the fault (no close: a power cut); another connection
stays open on the ledger (a reading process); only the anchor file is watched.
Then, without the shim, this process checks each ledger: acknowledged commands
are there exactly once, "not written" ones are absent, resolved ones are where
resolve() said, re-submitting the rest with the same request ids books each
exactly once, and the file passes integrity_check, open_game (chain, anchor) and
`companion verify`. The same is checked for `companion do` as a whole process.
The shim itself is checked first, on plain sqlite3.
"""

import contextlib
import errno
import io
import json
import math
import os
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

import pytest
from faults.payments import cash_after
from faults.shim import build, preload_env

from companion import cli
from companion.errors import EXIT_DISK_FULL, EXIT_LEDGER, EXIT_OK, EXIT_UNKNOWN
from companion.ledger.chain import split_body
from companion.table.service import new_game, open_game

HERE = Path(__file__).resolve().parent
FAULTS = HERE / "faults"
CHILD_TIMEOUT_S = 150
ERRNOS = {"EIO": errno.EIO, "ENOSPC": errno.ENOSPC, "short": 0}  # 0: a short write, no error


def child_env(shim_so: Path) -> dict:
    env = preload_env(shim_so)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE.parent), env.get("PYTHONPATH")]))
    env.pop("COMPANION_STATE_DIR", None)  # each scenario sets its own
    return env


def run_child(script: str, args: list, shim_so: Path) -> tuple[list, str]:
    """Run a child under the shim; returns (its JSON report lines, its stderr)."""
    proc = subprocess.run(
        [sys.executable, str(FAULTS / script), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=CHILD_TIMEOUT_S,
        env=child_env(shim_so),
    )
    assert "Traceback" not in proc.stderr, f"{script}: a traceback on stderr:\n{proc.stderr}"
    assert proc.returncode == 0, f"{script} exited {proc.returncode}:\n{proc.stderr}"
    reports = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    return reports, proc.stderr


@pytest.fixture(scope="session")
def shim_so(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("shim"))


# ---- the shim itself, on plain sqlite3 -------------------------------------------------------


def sqlite_commit(shim_so, tmp_path, call, n, err, how):
    directory = tmp_path / f"{call}-{n}-{err}-{how}"
    directory.mkdir()
    reports, _ = run_child("sqlite_child.py", [directory, call, n, err, how], shim_so)
    assert len(reports) == 1, reports
    conn = sqlite3.connect(directory / "t.db")
    try:
        rows = [r[0] for r in conn.execute("SELECT x FROM t ORDER BY x")]
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        conn.close()
    return reports[0], rows


def test_shim_fails_the_nth_call_on_the_watched_files_only(shim_so, tmp_path):
    """The shim fires exactly once, on the call it was armed for, and never counts the
    child's own stdout writes: the child still prints, and 'write' counts nothing."""
    report, _ = sqlite_commit(shim_so, tmp_path, "fdatasync", 1, errno.EIO, "close")
    assert report["fired"] == 1
    assert report["error"] == "SQLITE_IOERR_FSYNC"
    assert report["counts"]["fdatasync"] == 1 and report["counts"]["pwrite64"] >= 1
    assert report["counts"]["write"] == 0, "the shim counted writes outside the watched directory"
    report, _ = sqlite_commit(shim_so, tmp_path, "fdatasync", 2, errno.EIO, "close")
    assert report["fired"] == 0 and report["commit"] == "ok", "a commit makes one WAL fdatasync"


def test_a_failed_wal_sync_at_commit_may_still_be_stored(shim_so, tmp_path):
    """Why OutcomeUnknown exists: SQLite says COMMIT failed (SQLITE_IOERR_FSYNC) when the WAL
    sync fails, yet its frames are written; if the process then dies (power cut, SIGKILL)
    the next open recovers the row, while a clean close drops it. 'Not written' would be a
    lie one time in two."""
    died, rows_died = sqlite_commit(shim_so, tmp_path, "fdatasync", 1, errno.EIO, "die")
    closed, rows_closed = sqlite_commit(shim_so, tmp_path, "fdatasync", 1, errno.EIO, "close")
    for report in (died, closed):
        assert report["fired"] == 1 and report["error"] == "SQLITE_IOERR_FSYNC"
        assert report["seen_by_writer"] == [1]
    assert rows_died == [1, 2], "the row of the 'failed' commit is there after a crash"
    assert rows_closed == [1]


@pytest.mark.parametrize("err", ["EIO", "ENOSPC"])
def test_a_failed_wal_write_is_never_stored(shim_so, tmp_path, err):
    """A refused frame write (pwrite64) fails the COMMIT before anything is committed:
    the row is absent whether the process dies or closes."""
    for how in ("die", "close"):
        report, rows = sqlite_commit(shim_so, tmp_path, "pwrite64", 1, ERRNOS[err], how)
        assert report["fired"] == 1
        assert report["error"] == ("SQLITE_FULL" if err == "ENOSPC" else "SQLITE_IOERR_WRITE")
        assert rows == [1]


# ---- the table under a failing disk ----------------------------------------------------------


def run_scenarios(shim_so: Path, base: Path, specs: list) -> dict:
    """Run the scenarios in two children at once (two cores); returns {index: [reports]}."""
    halves = [list(range(len(specs)))[k::2] for k in range(2)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = list(
            pool.map(lambda k: run_plan(shim_so, base / f"plan{k}.json", [specs[i] for i in halves[k]]), range(2))
        )
    return {index: runs[k][j] for k in range(2) for j, index in enumerate(halves[k])}


def run_plan(shim_so: Path, plan: Path, specs: list) -> dict:
    plan.write_text(json.dumps({"scenarios": specs}))
    reports, stderr = run_child("child.py", [plan], shim_so)
    assert reports and reports[-1].get("done"), f"the child did not finish:\n{reports[-3:]}\n{stderr}"
    by_scenario = {i: [] for i in range(len(specs))}
    for report in reports:
        if "scenario" in report:
            by_scenario[report["scenario"]].append(report)
    return by_scenario


@pytest.fixture(scope="session")
def calibration(shim_so, tmp_path_factory) -> dict:
    """The calls the whole game makes, counted by the shim with no fault armed:
    {"all": on every file of the game, "state": on the anchor file only}."""
    base = tmp_path_factory.mktemp("calibrate")
    specs = [{"dir": str(base / watch), "call": None, "watch": watch} for watch in ("all", "state")]
    reports = run_scenarios(shim_so, base, specs)
    found = problems(specs[0], reports[0], verify="process")
    assert not found, found
    return {spec["watch"]: reports[i][-1]["counts"] for i, spec in enumerate(specs)}


def test_the_shim_sees_the_calls_the_game_commits_with(calibration):
    """SQLite commits with pwrite64 + fdatasync (strace-confirmed): if the shim stopped seeing
    them (another libsqlite3, another path), every sweep below would inject nothing."""
    assert calibration["all"]["fdatasync"] > 0 and calibration["all"]["pwrite64"] > 0, calibration


def stored_events(db: str) -> tuple[dict, list]:
    """({request_id: (seq, submitted command)}, [submitted commands]) straight from the file; integrity first."""
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)], "integrity_check failed"
        rows = [
            (seq, rid, split_body(body)["submitted"])
            for seq, rid, body in conn.execute("SELECT seq, request_id, body FROM events ORDER BY seq")
        ]
    finally:
        conn.close()
    return {rid: (seq, submitted) for seq, rid, submitted in rows}, [r[2] for r in rows]


class Expect:
    """What the child's reports say about one request id."""

    def __init__(self, command: str):
        self.command = command
        self.state = "out"  # "in" | "out" | "either": stored, absent, cannot tell
        self.seq = None  # the seq it was acknowledged with
        self.by_rules = True  # every answer so far was a refusal by the rules

    def resubmit(self) -> bool:
        return not self.by_rules


def expectations(reports: list) -> tuple[dict, list]:
    """From the child's reports: {rid: Expect} and the contract breaches seen on the way."""
    expect, breaches = {}, []
    for r in reports:
        rid = r.get("rid")
        if rid is None or r["step"] not in ("submit", "probe", "resolve"):
            continue
        e = expect.setdefault(rid, Expect(r["command"]))
        outcome = r.get("outcome")
        if outcome != "refused":
            e.by_rules = False
        if r["step"] == "resolve":
            if r["said"] is True:
                e.state = "in"
            elif r["said"] is False and e.state == "in":
                breaches.append(f"{rid}: resolve() said not stored, yet it was acknowledged as #{e.seq}")
            elif r["said"] is False:
                e.state = "out"
            elif r["said"] not in (True, False) and e.state != "in":
                e.state = "either"
        elif outcome == "ack":
            if e.seq is not None and r["seq"] != e.seq:
                breaches.append(f"{rid}: acknowledged as #{e.seq}, then as #{r['seq']}")
            if r["step"] == "probe":
                breaches.append(f"{rid}: a submit was accepted while an outcome was unknown")
            if r.get("stored_command") not in (None, e.command):
                breaches.append(f"{rid}: acknowledged as {r['stored_command']!r}, not {e.command!r}")
            e.state, e.seq = "in", e.seq or r["seq"]
        elif outcome == "unknown":
            if (r.get("exc_rid"), r.get("exc_command")) != (rid, e.command):
                breaches.append(f"{rid}: OutcomeUnknown names {r.get('exc_rid')!r} {r.get('exc_command')!r}")
            if e.state == "out":
                e.state = "either"  # until resolve() says
        elif outcome in ("not_written", "refused", "blocked"):
            if e.state == "in":
                breaches.append(f"{rid}: stored as #{e.seq}, yet a retry said {outcome} ({r.get('error')})")
            if r.get("exc") == "LedgerDamaged":
                breaches.append(f"{rid}: a failing disk made the table call the ledger damaged: {r['error']}")
        else:
            breaches.append(f"{rid}: {r['step']} {outcome}: {r.get('error')}\n{r.get('trace', '')}")
    for r in reports:
        if r.get("outcome") in ("error", "halted") and r["step"] not in ("submit", "new"):
            breaches.append(f"{r['step']}: {r['outcome']}: {r.get('error')}")
        if r.get("step") == "resolve" and r["said"] == "error":
            breaches.append(f"resolve raised {r['error']}\n{r.get('trace', '')}")
    return expect, breaches


def problems(spec: dict, reports: list, verify: str = "here") -> list:
    """Everything wrong with one scenario's ledger, as sentences (empty: all good)."""
    end = [r for r in reports if r.get("end") or r.get("died")]
    if not end:
        return ["the child reported no end for this scenario"]
    out = []
    if spec.get("call") and end[0]["fired"] < 1:
        out.append("the shim injected no fault")
    new = [r for r in reports if r.get("step") in ("new", "new_reopen", "new_retry")]
    if new[0]["outcome"] == "not_written" and any(r["step"] == "new_reopen" and r["outcome"] == "ack" for r in new):
        out.append(f"new_game said {new[0]['error']!r}, yet the game was there")
    if new[0]["outcome"] not in ("ack", "not_written", "unknown"):
        out.append(f"new_game: {new[0]['outcome']}: {new[0].get('error')}")
    if not any(r["outcome"] == "ack" for r in new):
        return out + [f"no game after a failed new_game: {[(r['step'], r.get('error')) for r in new]}"]
    expect, breaches = expectations(reports)
    out += breaches
    db = str(Path(spec["dir"]) / "game.sqlite")
    try:
        stored, submitted = stored_events(db)
    except AssertionError as exc:
        return out + [str(exc)]
    for rid, e in expect.items():
        have = stored.get(rid)
        if have and have[1] != e.command:
            out.append(f"{rid}: stored as {have[1]!r}, submitted as {e.command!r}")
        if e.state == "in" and not have:
            out.append(f"{rid} ({e.command}) was acknowledged or resolved as stored, but is missing")
        if e.state == "in" and have and e.seq is not None and have[0] != e.seq:
            out.append(f"{rid} acknowledged as #{e.seq}, stored as #{have[0]}")
        if e.state == "out" and have:
            out.append(f"{rid} ({e.command}) was reported not written, but is stored as #{have[0]}")
    twice = {line for line in submitted if submitted.count(line) > 1}
    if twice:
        out.append(f"booked twice: {sorted(twice)}")
    if out:
        return out
    # the game opens (schema, chain, anchor) and every command not yet in is booked exactly once
    with state_dir(spec):
        out += resubmit(db, expect, stored)
    if not out:
        out += companion_verify(spec) if verify == "process" else companion_verify_here(spec)
    return out


def resubmit(db: str, expect: dict, stored: dict) -> list:
    """Open the game and submit every command not acknowledged, with its own request id, again."""
    out = []
    try:
        table = open_game(db)
    except Exception as exc:
        return [f"open_game after the faults: {type(exc).__name__}: {exc}"]
    try:
        for rid, e in expect.items():
            if not e.resubmit():
                continue  # refused by the rules, not by the disk
            try:
                event = table.submit(e.command, request_id=rid, actor="table")
            except Exception as exc:
                out.append(f"re-submitting {rid} ({e.command}): {type(exc).__name__}: {exc}")
                continue
            if event.command != e.command:
                out.append(f"re-submitting {rid} gave event #{event.seq} {event.command!r}")
            if rid in stored and event.seq != stored[rid][0]:
                out.append(f"re-submitting stored {rid} (#{stored[rid][0]}) gave #{event.seq}")
        cash = {p: table.state.balances[p] for p in ("Anna", "Boris")}
    finally:
        table.close()
    stored, submitted = stored_events(db)
    wanted = {rid for rid, e in expect.items() if e.resubmit()}
    missing = wanted - set(stored)
    if missing:
        out.append(f"re-submitted but not stored: {sorted(missing)}")
    twice = {line for line in submitted if submitted.count(line) > 1}
    if twice:
        out.append(f"booked twice after re-submitting: {sorted(twice)}")
    expected_cash = cash_after(stored[rid][1] for rid in wanted if rid in stored)
    if cash != expected_cash:
        out.append(f"balances {cash}, the stored payments make {expected_cash}")
    return out


def companion_verify(spec: dict) -> list:
    """`companion verify --db` as a process (the calibration game is checked this way)."""
    env = dict(os.environ, COMPANION_STATE_DIR=str(Path(spec["dir"]) / "state"))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE.parent), env.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-m", "companion", "verify", "--db", str(Path(spec["dir"]) / "game.sqlite")],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    if done.returncode != 0 or "Traceback" in done.stderr:
        return [f"companion verify exited {done.returncode}: {done.stderr.strip()}"]
    return []


def companion_verify_here(spec: dict) -> list:
    """`companion verify --db` through the command's own main() in this process: the same code
    and exit code without a second of interpreter start per scenario."""
    err = io.StringIO()
    with state_dir(spec), contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = cli.main(["verify", "--db", str(Path(spec["dir"]) / "game.sqlite")])
    if code != 0 or "Traceback" in err.getvalue():
        return [f"companion verify exited {code}: {err.getvalue().strip()}"]
    return []


@contextlib.contextmanager
def state_dir(spec: dict):
    """COMPANION_STATE_DIR set to this scenario's anchors for the block, as the child had it."""
    saved = os.environ.get("COMPANION_STATE_DIR")
    os.environ["COMPANION_STATE_DIR"] = str(Path(spec["dir"]) / "state")
    try:
        yield
    finally:
        if saved is None:
            del os.environ["COMPANION_STATE_DIR"]
        else:
            os.environ["COMPANION_STATE_DIR"] = saved


def sweep_ns(total: int, limit: int) -> list:
    """Every N from 1 to total, or when there are more than `limit`, a stride keeping the first and last."""
    if total <= limit:
        return list(range(1, total + 1))
    stride = math.ceil(total / limit)
    return sorted(set(range(1, total + 1, stride)) | {total})


class Sweep(NamedTuple):
    """One family of scenarios: fail this call at every N (or a stride of at most `limit` Ns)."""

    call: str
    times: int = 1  # 1: one call fails; -1: every later one too, until the child disarms
    die: str = ""  # "now" / "after-resolve": the child ends itself (no close, like a power
    #                         cut) after the faulty command, at once or once resolve() answered
    limit: int = 200
    errs: tuple = ("EIO", "ENOSPC")  # "short": the call writes half its bytes, without an error
    watch: str = "all"  # "state": count and fail only the anchor file's calls
    reader: bool = False  # another connection stays open on the ledger (a reading process)

    def id(self, err: str) -> str:
        return "-".join(
            [self.call, err, "once" if self.times == 1 else "from-then-on"]
            + ([f"then-die-{self.die}"] if self.die else [])
            + (["anchor-only"] if self.watch == "state" else [])
            + ["reader-open"] * self.reader
        )


SWEEPS = [
    Sweep("fdatasync"),
    Sweep("fdatasync", times=-1),
    Sweep("fdatasync", die="now", errs=("EIO",)),
    Sweep("fdatasync", die="after-resolve", errs=("EIO",)),
    Sweep("fdatasync", reader=True, errs=("EIO",)),
    Sweep("fdatasync", die="now", reader=True, errs=("EIO",)),
    Sweep("fdatasync", die="after-resolve", reader=True, errs=("EIO",)),
    Sweep("fsync"),
    Sweep("pwrite64"),
    Sweep("pwrite64", times=-1, limit=30),
    Sweep("pwrite64", die="now", limit=60),
    # the anchor file's own writes, every one of them (a few among SQLite's many); SQLite loops
    # over a short write, the anchor's Python code must not leave a torn slot either
    Sweep("pwrite64", errs=("EIO", "short"), die="now", watch="state"),
]
CASES = [(sweep, err) for sweep in SWEEPS for err in sweep.errs]


def test_sqlite_writes_the_ledger_only_with_pwrite64(calibration):
    """Why no sweep fails `write`: SQLite (and the anchor) write these files only with pwrite64.
    If a later SQLite uses write(), this fails and a `write` sweep belongs in SWEEPS again."""
    assert calibration["all"]["write"] == 0 and calibration["all"]["pwrite64"] > 0, calibration


@pytest.mark.timeout(240)
@pytest.mark.parametrize("sweep,err", CASES, ids=[sweep.id(err) for sweep, err in CASES])
def test_every_write_step_failing(shim_so, calibration, tmp_path, sweep, err):
    """For every N (or a dense stride) of this call in the game, fail it this way and check
    the ledger: nothing acknowledged lost, nothing booked twice, nothing 'not written'
    stored, the game opens and `companion verify` passes. Failing scenarios are named."""
    total = calibration[sweep.watch][sweep.call]
    assert total > 0, f"the game makes no {sweep.call} call on these files: nothing would be failed"
    ns = sweep_ns(total, sweep.limit)
    specs = [
        {
            "dir": str(tmp_path / f"n{n}"),
            "call": sweep.call,
            "n": n,
            "errno": ERRNOS[err],
            "times": sweep.times,
            "die": sweep.die,
            "watch": sweep.watch,
            "reader": sweep.reader,
        }
        for n in ns
    ]
    results = run_scenarios(shim_so, tmp_path, specs)
    failures = {spec["n"]: (found, results[i]) for i, spec in enumerate(specs) if (found := problems(spec, results[i]))}
    assert not failures, (
        "\n\n".join(
            f"{sweep.call} #{n} fails ({sweep.id(err)}):\n  "
            + "\n  ".join(found)
            + "\n  child said:\n    "
            + "\n    ".join(json.dumps(r) for r in reports)
            for n, (found, reports) in sorted(failures.items())[:6]
        )
        + f"\n\nfailing N: {sorted(failures)} of {ns}"
    )


# ---- the command line under a failing disk --------------------------------------------------


def companion_do(db: Path, rid: str, command: str, shim_so: Path, fault: dict | None, report: Path):
    """`companion do --request-id RID COMMAND` under the shim, armed from the environment."""
    env = child_env(shim_so)
    env.update(
        {
            "COMPANION_STATE_DIR": str(db.parent / "state"),
            "FAULTSHIM_DIR": str(db.parent),
            "FAULTSHIM_REPORT": str(report),
        }
    )
    if fault:
        env.update(
            {"FAULTSHIM_CALL": fault["call"], "FAULTSHIM_N": str(fault["n"]), "FAULTSHIM_ERRNO": str(fault["errno"])}
        )
    done = subprocess.run(
        [sys.executable, "-m", "companion", "do", "--db", str(db), "--request-id", rid, *command.split()],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    shim = dict(line.split() for line in report.read_text().splitlines())
    return done, {key: int(value) for key, value in shim.items()}


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    "call,err,limit", [("fdatasync", "EIO", 20), ("fdatasync", "ENOSPC", 20), ("pwrite64", "EIO", 12)]
)
def test_the_command_line_under_a_failing_disk(shim_so, tmp_path, monkeypatch, call, err, limit):
    """`companion do` with the Nth call failing, for every N of one command (or a stride): it
    exits 0, 5, 7 or 8 without a traceback; the same command with the same request id, run
    again on a working disk, exits 0; and in the end every request is booked exactly once."""
    db = tmp_path / "game.sqlite"
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "state"))
    new_game(str(db), "classic", ["Anna", "Boris"], seed=1).close()
    done, counts = companion_do(db, "warm-up", "pay Anna Boris 1", shim_so, None, tmp_path / "report")
    assert done.returncode == EXIT_OK and counts["fired"] == 0, done.stderr
    sent, fired, trouble = {"warm-up": "pay Anna Boris 1"}, 0, []
    for n in sweep_ns(counts[call], limit):
        rid, command = f"{call}-{n}", f"pay Anna Boris {n + 1}"
        sent[rid] = command
        done, shim = companion_do(
            db, rid, command, shim_so, {"call": call, "n": n, "errno": ERRNOS[err]}, tmp_path / "report"
        )
        fired += shim["fired"]
        if "Traceback" in done.stderr or done.returncode not in (EXIT_OK, EXIT_LEDGER, EXIT_UNKNOWN, EXIT_DISK_FULL):
            trouble.append(f"{call} #{n}: exit {done.returncode}: {done.stderr.strip()}")
        if done.returncode != EXIT_OK:
            again, _ = companion_do(db, rid, command, shim_so, None, tmp_path / "report")
            if again.returncode != EXIT_OK:
                trouble.append(
                    f"{call} #{n}: the retry on a working disk exited {again.returncode}: {again.stderr.strip()}"
                )
    assert fired >= 1, "the shim injected no fault into any command"
    assert not trouble, "\n".join(trouble)
    stored, submitted = stored_events(str(db))
    assert {rid: stored.get(rid, (None, None))[1] for rid in sent} == sent, "a request missing or changed"
    assert len(submitted) == 1 + len(sent), f"booked twice: {submitted}"
    table = open_game(str(db))
    try:
        assert {p: table.state.balances[p] for p in ("Anna", "Boris")} == cash_after(sent.values())
    finally:
        table.close()
    assert not companion_verify({"dir": str(tmp_path)})
