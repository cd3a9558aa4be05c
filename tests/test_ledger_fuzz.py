"""Damage every page of a real ledger: the companion shows the same game or says, in one line, that it
cannot; it never shows another game, never crashes (exit 70, a traceback) and never writes.

A small classic game is checkpointed into the main file, then for every page (page size from the
header) the file is cut at that page's start, and a few bytes at seeded offsets in that page are
flipped. The anchor (COMPANION_STATE_DIR) is put back as it was before each case, so the only
damage is the one the case made.
"""

import random
import sqlite3
import struct
from pathlib import Path

import pytest
from files.sandbox import cli

from companion.bots.autoplay import next_command
from companion.errors import EXIT_DAMAGED, EXIT_LEDGER, RuleViolation

READERS = ("state", "history", "verify")
EVENTS = 40
FLIPS = 3  # bytes flipped per case
FLIP_CASES = 6  # seeded flip cases per page (most of a small ledger's pages is free space)


def snapshot(folder: Path) -> dict:
    """The files under folder (the anchors; a crash log written there is not an anchor)."""
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.suffix != ".log"
    }


def brief(name: str, run) -> str:
    return f"{name}: `{run.argv[0]}` -> exit {run.code}: {(run.err or run.out)[:200]!r}"


def restore(folder: Path, files: dict) -> None:
    for p in sorted(folder.rglob("*"), reverse=True):
        if p.is_file() and str(p.relative_to(folder)) not in files:
            p.unlink()
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)


@pytest.fixture(scope="module")
def ledger(tmp_path_factory):
    """(path, state dir, pristine bytes, anchors, {command: stdout}, head) of a checkpointed game."""
    from companion.table.service import new_game, open_game

    root = tmp_path_factory.mktemp("fuzz")
    state_dir = root / "state"
    mp = pytest.MonkeyPatch()
    mp.setenv("COMPANION_STATE_DIR", str(state_dir))
    path = root / "game.sqlite"
    table = new_game(path, "classic", ["Anna", "Boris"], seed=11)
    rng = random.Random(11)
    while table.head()[0] < EVENTS:
        line, _ = next_command(table, rng)
        assert line is not None, "the autoplayer found no command"
        table.submit(line, request_id=f"fuzz-{table.head()[0] + 1}", actor="table")
        if table.head()[0] % 5 == 0:
            a, b = ("Anna", "Boris") if rng.random() < 0.5 else ("Boris", "Anna")
            try:
                table.submit(
                    f"pay {a} {b} {rng.randint(1, 50)}", request_id=f"fuzz-pay-{table.head()[0]}", actor="table"
                )
            except RuleViolation:  # a question is open: the rules refuse a pay now
                pass
    head = table.head()
    table.close()
    # everything into the main file, the -wal emptied: damage to the main file is all there is
    conn = sqlite3.connect(path, isolation_level=None)
    busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    assert busy == 0
    conn.close()
    for suffix in ("-wal", "-shm"):
        wal = Path(str(path) + suffix)
        assert not wal.exists() or suffix == "-shm" or wal.stat().st_size == 0
    seen = {}
    for command in READERS:
        run = cli([command, "--db", path])
        assert run.code == 0 and run.err == "", str(run)
        seen[command] = run.out
    check = open_game(path, readonly=True)
    assert check.head() == head
    check.close()
    yield path, state_dir, path.read_bytes(), snapshot(state_dir), seen, head
    mp.undo()


def page_size(data: bytes) -> int:
    (size,) = struct.unpack(">H", data[16:18])
    return 65536 if size == 1 else size


def cases(data: bytes):
    """(name, damaged bytes) for every page: cut at its start, and FLIP_CASES seeded flips in it."""
    size = page_size(data)
    assert len(data) % size == 0
    for page in range(len(data) // size):
        yield f"cut at page {page + 1} (byte {page * size})", data[: page * size]
        for case in range(FLIP_CASES):
            rng = random.Random(f"page {page} case {case}")
            damaged = bytearray(data)
            offsets = sorted(rng.sample(range(page * size, (page + 1) * size), FLIPS))
            for offset in offsets:
                damaged[offset] ^= rng.randrange(1, 256)
            yield f"page {page + 1}: bytes {offsets} flipped (seed 'page {page} case {case}')", bytes(damaged)


def test_every_damaged_page_shows_the_same_game_or_one_clear_line(ledger, monkeypatch):
    """state, history and verify on each damaged copy: exit 0 with exactly the original output and
    head, or one line and no output with the contract's exit: 6 (damaged) for every damaged file,
    5 (no game) for the file cut to 0 bytes; never 4, 7, 8, 9 (a bug of the bank) or 70 (a crash).
    The damaged file and the anchors are never written to. Every failing case is listed at the end."""
    from companion.table.service import open_game

    path, state_dir, pristine, anchors, seen, head = ledger
    monkeypatch.setenv("COMPANION_STATE_DIR", str(state_dir))
    problems, outcomes = [], {}
    for name, damaged in cases(pristine):
        for suffix in ("-wal", "-shm", "-journal"):
            Path(str(path) + suffix).unlink(missing_ok=True)
        path.write_bytes(damaged)
        restore(state_dir, anchors)
        opened = False
        expected = EXIT_LEDGER if not damaged else EXIT_DAMAGED
        for command in READERS:
            run = cli([command, "--db", path])
            outcomes[run.code] = outcomes.get(run.code, 0) + 1
            if run.code == 0:
                opened = True
                if run.out != seen[command] or run.err:
                    problems.append(f"another game shown: {brief(name, run)} stdout {run.out[:200]!r}")
            elif run.code != expected or "Traceback" in run.err + run.out or len(run.err.splitlines()) != 1 or run.out:
                problems.append(f"expected exit {expected}, one line: {brief(name, run)}")
        if opened:
            try:
                table = open_game(path, readonly=True)
                if table.head() != head:
                    problems.append(f"{name}: opened at head {table.head()}, the game's is {head}")
                table.close()
            except Exception as exc:
                problems.append(
                    f"{name}: the CLI read it but open_game(readonly=True) says {type(exc).__name__}: {exc}"
                )
        if path.read_bytes() != damaged:
            problems.append(f"{name}: the damaged file was written to")
        if snapshot(state_dir) != anchors:
            problems.append(f"{name}: the anchors were changed")
    path.write_bytes(pristine)
    restore(state_dir, anchors)
    # the cases must bite both ways: some damage is found, some flips land in free space
    assert outcomes.get(0) and outcomes.get(EXIT_DAMAGED), outcomes
    assert not problems, f"{len(problems)} problems (exits seen {outcomes}):\n" + "\n".join(problems[:80])
