"""Files the ledger must not trust: a file that is not a ledger is never changed, and every damaged,
foreign, read-only or full-disk input gets one clear line and a contract exit code (companion.errors).

Read-only cases run as a non-root user even when the runner is root (tests/files/sandbox.as_user
drops to uid 65534 in a forked child), so file modes really bite. Full-disk and read-only-mount
cases run in a private mount namespace (a small tmpfs, a read-only bind mount) that vanishes with
its child process.
"""

import os
import re
import shutil
import sqlite3
import stat
from pathlib import Path

import pytest
from files.sandbox import (
    as_user,
    can_write,
    cli,
    cli_as_user,
    give_to_user,
    in_mount_namespace,
    mount_namespace_problem,
    one_line_error,
    open_dir,
    readonly_bind_mounts,
    tmpfs_mount,
    user_uid,
)

from companion.errors import EXIT_BAD_INPUT, EXIT_DAMAGED, EXIT_DISK_FULL, EXIT_LEDGER, LedgerDamaged, LedgerError

READERS = ["state", "history", "verify"]
COMMANDS = READERS + ["do"]
PAY = ["pay", "Anna", "Boris", "5"]


def argv(command, path, request_id="r-new"):
    if command == "do":
        return ["do", "--db", path, "--request-id", request_id, *PAY]
    return [command, "--db", path]


def snapshot(folder) -> dict:
    """Every file in a folder (names and bytes): what 'left unchanged' compares."""
    return {p.name: p.read_bytes() for p in sorted(Path(folder).iterdir()) if p.is_file()}


def unchanged_but_for_sqlite_files(folder, before: dict) -> None:
    """The folder's files are as they were, except that SQLite may have put an empty -wal and a
    -shm index beside a file it was asked to read (read-only WAL opens need them); a -wal with
    content would change what the file says, any other new file is a change."""
    now = snapshot(folder)
    for name, data in now.items():
        if name in before:
            assert data == before[name], f"{name} was changed"
        elif name.endswith("-wal"):
            assert data == b"", f"{name} appeared with {len(data)} bytes in it"
        else:
            assert name.endswith("-shm"), f"{name} appeared"
    assert set(before) <= set(now), f"{sorted(set(before) - set(now))} disappeared"


def settle(path) -> None:
    """Close the game the way a last writer does: SQLite checkpoints and removes its -wal and -shm
    (the owner's read-only looks leave them behind), so the folder holds the ledger alone."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    conn.close()
    assert sorted(os.listdir(Path(path).parent)) == [Path(path).name]


def journal_mode(path) -> str:
    """The journal mode written in the header (byte 18: 1 rollback, 2 WAL), read without SQLite."""
    return {1: "rollback", 2: "wal"}.get(Path(path).read_bytes()[18], "?")


@pytest.fixture
def place(monkeypatch):
    """A folder the test user can reach, with game/ for ledgers and state/ for the anchors."""
    with open_dir() as root:
        (root / "game").mkdir()
        (root / "state").mkdir()
        monkeypatch.setenv("COMPANION_STATE_DIR", str(root / "state"))
        yield root


def start_game(path, events=5):
    """A classic game of Anna and Boris with `events` acknowledged pays after the start."""
    run = cli(["new", "--db", path, "classic", "Anna", "Boris", "--seed", "1"])
    assert run.code == 0, str(run)
    for i in range(events):
        payer, payee = ("Anna", "Boris") if i % 2 == 0 else ("Boris", "Anna")
        run = cli(["do", "--db", path, "--request-id", f"r-{i}", "pay", payer, payee, str(10 + i)])
        assert run.code == 0, str(run)


def outputs(path) -> dict:
    """What the owner sees: stdout of state, history and verify (each must succeed)."""
    seen = {}
    for command in READERS:
        run = cli(argv(command, path))
        assert run.code == 0 and run.err == "", str(run)
        seen[command] = run.out
    return seen


# ----- files that are not ledgers: never changed ---------------------------------------------------


def foreign_rollback(path):
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE contacts (name TEXT, phone TEXT)")
    conn.execute("INSERT INTO contacts VALUES ('Vera', '555-0101')")
    conn.commit()
    conn.close()


def foreign_wal(path):
    foreign_rollback(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal"
    conn.close()


def foreign_lookalike(path):
    """Another program's tables that happen to carry our table names (and no companion mark)."""
    conn = sqlite3.connect(path)
    conn.executescript(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
        "CREATE TABLE events (seq INTEGER PRIMARY KEY, command TEXT);"
        "CREATE TABLE postings (seq INTEGER, leg INTEGER, account TEXT, amount INTEGER);"
        "INSERT INTO events VALUES (1, 'start');"
    )
    conn.close()


def foreign_marked(path):
    """Another program that marks its files with its own application id (e.g. a Fossil repository)."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 252006673")
    conn.execute("CREATE TABLE blob (rid INTEGER PRIMARY KEY, content BLOB)")
    conn.commit()
    conn.close()


FOREIGN = {"rollback": foreign_rollback, "wal": foreign_wal, "lookalike": foreign_lookalike, "marked": foreign_marked}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("kind", sorted(FOREIGN))
def test_another_programs_sqlite_file_is_refused_and_left_byte_for_byte(place, kind, command):
    """Opening another program's database says "not a companion ledger" (exit 6) and changes
    nothing: same bytes, same journal mode (PRAGMA journal_mode=WAL would convert it), no
    -wal/-shm/-journal files beside it."""
    path = place / "game" / "contacts.sqlite"
    FOREIGN[kind](path)
    before, mode = snapshot(path.parent), journal_mode(path)
    run = cli(argv(command, path))
    one_line_error(run, EXIT_DAMAGED)
    assert "not a companion ledger" in run.err, str(run)
    assert journal_mode(path) == mode
    assert snapshot(path.parent) == before


@pytest.mark.parametrize("command", COMMANDS)
def test_another_programs_empty_database_gets_no_schema(place, command):
    """An SQLite file with no tables but another program's user_version: refused, not given tables."""
    path = place / "game" / "settings.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 7")
    conn.close()
    before = snapshot(path.parent)
    run = cli(argv(command, path))
    one_line_error(run, EXIT_LEDGER, EXIT_DAMAGED)
    assert snapshot(path.parent) == before


@pytest.mark.parametrize("command", COMMANDS)
def test_an_empty_file_gets_no_schema(place, command):
    """A 0-byte file (touch, mktemp) holds no game: one line, exit 5, and it stays 0 bytes
    with nothing created beside it (only `companion new` may write a schema)."""
    path = place / "game" / "empty.sqlite"
    path.touch()
    run = cli(argv(command, path))
    one_line_error(run, EXIT_LEDGER)
    assert path.stat().st_size == 0
    assert sorted(os.listdir(path.parent)) == ["empty.sqlite"]


def text_file(path):
    path.write_text("Anna 1200\nBoris 800\n", encoding="utf-8")


def random_bytes(path):
    path.write_bytes(bytes((i * 131 + 7) % 256 for i in range(8192)))


def magic_only(path):
    path.write_bytes(b"SQLite format 3\x00" + b"\x10\x00\x02\x02")


def settle_leftovers(path):
    """Remove the empty -wal and the -shm the owner's last look left beside the ledger we cut."""
    for suffix in ("-wal", "-shm"):
        leftover = Path(str(path) + suffix)
        if leftover.exists():
            assert suffix == "-shm" or leftover.stat().st_size == 0
            leftover.unlink()


def truncated_half(path):
    start_game(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def header_only(path):
    start_game(path)
    path.write_bytes(path.read_bytes()[:100])


NOT_LEDGERS = {
    "text": text_file,
    "random": random_bytes,
    "magic-only": magic_only,
    "truncated-half": truncated_half,
    "header-only": header_only,
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("kind", sorted(NOT_LEDGERS))
def test_a_file_that_is_not_an_intact_ledger_gets_one_line(place, kind, command):
    """Text, random bytes, a bare SQLite magic, a ledger cut in half or to its header: exit 6
    (damaged or foreign), one line, the file left as it was."""
    path = place / "game" / "game.sqlite"
    NOT_LEDGERS[kind](path)
    if kind in ("truncated-half", "header-only"):
        settle_leftovers(path)
    before = snapshot(path.parent)
    run = cli(argv(command, path))
    one_line_error(run, EXIT_DAMAGED)
    unchanged_but_for_sqlite_files(path.parent, before)


@pytest.mark.parametrize("command", COMMANDS)
def test_a_folder_is_not_a_ledger(place, command):
    """--db naming a folder: one line (exit 4 or 5: the contract names neither), nothing created."""
    folder = place / "game" / "games"
    folder.mkdir()
    run = cli(argv(command, folder))
    one_line_error(run, EXIT_BAD_INPUT, EXIT_LEDGER)
    assert os.listdir(folder) == [] and sorted(os.listdir(folder.parent)) == ["games"]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_missing_file_is_not_created(place, command):
    """--db naming no file: one line, and no file appears (only `companion new` creates one)."""
    path = place / "game" / "typo.sqlite"
    run = cli(argv(command, path))
    one_line_error(run, EXIT_BAD_INPUT, EXIT_LEDGER)
    assert os.listdir(path.parent) == []


def test_open_game_refuses_a_foreign_file_at_the_api(place):
    """The API says the same as the CLI: LedgerDamaged, for readonly opens too; bytes unchanged."""
    from companion.table.service import open_game

    path = place / "game" / "contacts.sqlite"
    foreign_wal(path)
    before = snapshot(path.parent)
    for readonly in (False, True):
        with pytest.raises(LedgerDamaged, match="not a companion ledger"):
            open_game(path, readonly=readonly)
    assert snapshot(path.parent) == before


def test_open_game_gives_no_schema_to_an_empty_file_at_the_api(place):
    from companion.table.service import open_game

    path = place / "game" / "empty.sqlite"
    path.touch()
    for readonly in (False, True):
        with pytest.raises(LedgerError):
            open_game(path, readonly=readonly)
    assert path.stat().st_size == 0 and os.listdir(path.parent) == ["empty.sqlite"]


# ----- read-only files and folders, as a user who cannot write -------------------------------------

# (file mode, folder mode) of a game the test user owns
READ_ONLY = {"file": (0o444, 0o755), "folder": (0o644, 0o555), "both": (0o444, 0o555)}


def make_read_only(place, how):
    """A game the test user owns, then made read-only `how`; returns (path, owner's outputs)."""
    path = place / "game" / "game.sqlite"
    start_game(path)
    seen = outputs(path)
    settle(path)
    give_to_user(place / "game", place / "state")
    file_mode, folder_mode = READ_ONLY[how]
    os.chmod(path, file_mode)
    os.chmod(path.parent, folder_mode)
    # the modes must bite (the child really is not root): otherwise the test proves nothing
    assert not can_write(path) or not can_write(path.parent), f"uid {user_uid()} can still write"
    assert can_write(path) == bool(file_mode & stat.S_IWUSR)
    assert can_write(path.parent) == bool(folder_mode & stat.S_IWUSR)
    return path, seen


@pytest.mark.parametrize("how", sorted(READ_ONLY))
def test_a_read_only_ledger_still_shows_state_history_and_verify(place, how):
    """A finished game kept read-only (file, folder or both) can still be looked at: the same
    state, history and verify output its owner saw, and the ledger bytes unchanged."""
    path, seen = make_read_only(place, how)
    before = path.read_bytes()
    for command in READERS:
        run = cli_as_user(argv(command, path))
        assert run.code == 0 and "Traceback" not in run.err, str(run)
        assert run.out == seen[command], f"{command} shows another game than its owner saw: {run}"
    assert path.read_bytes() == before


@pytest.mark.parametrize("how", sorted(READ_ONLY))
def test_do_on_a_read_only_ledger_refuses_in_one_line_and_changes_nothing(place, how):
    path, seen = make_read_only(place, how)
    before = snapshot(path.parent)
    run = cli_as_user(argv("do", path))
    one_line_error(run, EXIT_LEDGER)
    assert path.read_bytes() == before[path.name]
    os.chmod(path.parent, 0o755)
    os.chmod(path, 0o644)
    assert outputs(path) == seen, "the refused command left a trace in the game"


def test_a_ledger_made_writable_again_takes_commands(place):
    """Looking at a read-only ledger must not leave anything that blocks its owner later: after
    `chmod u+w` the next `do` is stored (read-only -wal/-shm files left beside it would refuse it)."""
    path, seen = make_read_only(place, "file")
    assert cli_as_user(argv("state", path)).code == 0
    os.chmod(path, 0o644)
    run = cli_as_user(argv("do", path))
    assert run.code == 0, str(run)
    assert cli_as_user(argv("history", path)).out.startswith(seen["history"].rstrip("\n"))


def test_readonly_table_reads_a_read_only_file_at_the_api(place):
    """open_game(readonly=True) by a user who cannot write: the same head as the owner's, and a
    submit refused with a LedgerError (not an SQLite error, not a traceback)."""
    from companion.table.service import open_game

    path, _ = make_read_only(place, "both")
    owner = open_game(path, readonly=True)
    head = owner.head()
    owner.close()

    def look():
        table = open_game(path, readonly=True)
        try:
            seen = table.head()
            try:
                table.submit(" ".join(PAY), request_id="r-ro", actor="table")
                refused = "stored"
            except LedgerError as exc:
                refused = type(exc).__name__
            return seen, refused
        finally:
            table.close()

    seen, refused = as_user(look)
    assert seen == head
    assert refused == "LedgerError"


def hot_copy(place, events=6):
    """A ledger copied with its -wal while the writer still had it open (no -shm): the last events
    live only in the -wal, so reading it needs WAL recovery. Returns (folder, owner's outputs)."""
    from companion.table.service import open_game

    path = place / "game" / "game.sqlite"
    start_game(path, events=2)
    table = open_game(path)
    for i in range(events):
        table.submit(f"pay Anna Boris {i + 1}", request_id=f"hot-{i}", actor="table")
    hot = place / "hot"
    hot.mkdir()
    shutil.copy(path, hot / "game.sqlite")
    shutil.copy(str(path) + "-wal", hot / "game.sqlite-wal")
    table.close()
    seen = outputs(path)
    # precondition: the main file alone holds fewer events than the game (read without writing)
    conn = sqlite3.connect(f"file:{hot / 'game.sqlite'}?mode=ro&immutable=1", uri=True)
    in_main = conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    conn.close()
    assert in_main < 1 + 2 + events, "the -wal copy is not hot: the test proves nothing"
    return hot, seen


def says_writable(run) -> bool:
    """A reader must say to make it writable; `do` may instead say the place is read-only."""
    words = ("writable",) if run.argv[0] != "do" else ("writable", "read-only", "permission")
    return any(word in run.err for word in words)


def test_a_hot_wal_on_a_read_only_folder_says_to_mount_it_writable(place):
    """Recovering a -wal needs a -shm file beside it: in a folder the user cannot write, each
    reader says so in one line (exit 5, 'writable') instead of showing an older game; `do`
    refuses in one line that names the folder's permissions."""
    hot, seen = hot_copy(place)
    give_to_user(hot, place / "state")
    os.chmod(hot, 0o555)
    assert not can_write(hot)
    before = snapshot(hot)
    for command in COMMANDS:
        run = cli_as_user(argv(command, hot / "game.sqlite"))
        one_line_error(run, EXIT_LEDGER)
        assert says_writable(run), str(run)
    assert snapshot(hot) == before
    os.chmod(hot, 0o755)
    run = cli_as_user(argv("state", hot / "game.sqlite"))
    assert run.code == 0 and run.out == seen["state"], str(run)


# ----- a read-only mount and a full disk (private mount namespaces) ---------------------------------


@pytest.fixture(scope="module")
def namespaces():
    problem = mount_namespace_problem()
    if problem:
        pytest.skip(f"cannot mount in a private namespace here (root or user namespaces needed): {problem}")


def cli_step(*args, env=None, patch=None):
    return {"kind": "cli", "argv": [str(a) for a in args], "env": env or {}, "patch": patch or {}}


def test_a_read_only_mount_still_shows_the_game_and_refuses_do(place, namespaces):
    """The Pi's card mounted read-only (`mount -o remount,ro,bind`; root cannot write there either)."""
    path = place / "game" / "game.sqlite"
    start_game(path)
    seen = outputs(path)
    mnt = place / "ro"
    mnt.mkdir()
    ro_path = mnt / "game.sqlite"
    results = in_mount_namespace(
        readonly_bind_mounts(place / "game", mnt),
        [
            {"kind": "files", "dir": str(mnt)},
            *[cli_step(*argv(command, ro_path)) for command in COMMANDS],
            {"kind": "files", "dir": str(mnt)},
        ],
    )
    for command, result in zip(READERS, results[1:4]):
        run = result["run"]
        assert run.code == 0 and run.out == seen[command], str(run)
    one_line_error(results[4]["run"], EXIT_LEDGER)
    assert results[-1]["files"] == results[0]["files"]


def test_a_hot_wal_on_a_read_only_mount_says_to_mount_it_writable(place, namespaces):
    hot, _ = hot_copy(place)
    mnt = place / "ro"
    mnt.mkdir()
    results = in_mount_namespace(
        readonly_bind_mounts(hot, mnt), [cli_step(*argv(command, mnt / "game.sqlite")) for command in COMMANDS]
    )
    for result in results:
        one_line_error(result["run"], EXIT_LEDGER)
        assert says_writable(result["run"]), str(result["run"])


DISK = 4 << 20  # a 4 MiB tmpfs: a classic game's ledger and its -wal fit many times over


def run_plan(mounts, plan) -> dict:
    """Run labelled steps in one mount namespace; returns {label: result}."""
    results = in_mount_namespace(mounts, [step for _, step in plan])
    return {label: result for (label, _), result in zip(plan, results)}


def commands(history_out: str) -> list:
    """The stored commands in `companion history` output (its "#SEQ COMMAND" lines)."""
    return [m.group(1) for m in re.finditer(r"^#\d+ (.*?)(?: \(undone\))?$", history_out, re.M)]


def pay_step(db, env, request_id, payer, payee, amount, patch=None):
    return cli_step("do", "--db", db, "--request-id", request_id, "pay", payer, payee, amount, env=env, patch=patch)


# the free-space check before a write (companion.ledger.store.SPACE_RESERVE) turned off: what the
# disk looks like when another program fills it between that check and the COMMIT
NO_RESERVE = {"companion.ledger.store:SPACE_RESERVE": 0}


@pytest.mark.parametrize("last", ["look", "write"])
@pytest.mark.parametrize("anchors", ["on the full disk", "elsewhere"])
def test_a_full_disk_refuses_do_loses_nothing_and_still_shows_the_game(place, namespaces, anchors, last):
    """On a full disk `do` says so (exit 8) and stores nothing; `state`, `history` and `verify`
    still show every acknowledged event; once there is room the same request is stored once.
    The disk fills after a look (read-only opens leave SQLite's -shm index behind) or after a
    write (its close removes the -wal and -shm, and a 32 KiB -shm then cannot be made)."""
    disk = place / "disk"
    disk.mkdir()
    db = disk / "game.sqlite"
    env = {"COMPANION_STATE_DIR": str(disk / "state" if anchors == "on the full disk" else place / "state")}

    def readers(when):
        return [(f"{command} {when}", cli_step(command, "--db", db, env=env)) for command in READERS]

    full_do = pay_step(db, env, "r-full", "Boris", "Anna", 7)
    plan = [("new", cli_step("new", "--db", db, "classic", "Anna", "Boris", "--seed", 1, env=env))]
    plan += [(f"do r-{i}", pay_step(db, env, f"r-{i}", "Anna", "Boris", 10 + i)) for i in range(5)]
    plan += readers("before")
    if last == "write":
        plan.append(("do r-5", pay_step(db, env, "r-5", "Anna", "Boris", 15)))
    plan += [
        ("fill", {"kind": "fill", "dir": str(disk)}),
        ("do on the full disk", full_do),
        *readers("on the full disk"),
        ("unfill", {"kind": "unfill", "dir": str(disk)}),
        *readers("after"),
        ("do with room", full_do),
        ("retry", full_do),
        ("history at the end", cli_step("history", "--db", db, env=env)),
    ]
    r = run_plan([tmpfs_mount(disk, DISK)], plan)
    for label, result in r.items():
        if label.startswith(("new", "do r-")) or label.endswith("before"):
            assert result["run"].code == 0, f"{label}: {result['run']}"
    assert r["fill"]["free"] == 0
    problems = []
    try:
        one_line_error(r["do on the full disk"]["run"], EXIT_DISK_FULL)
        assert "disk is full" in r["do on the full disk"]["run"].err, str(r["do on the full disk"]["run"])
    except AssertionError as exc:
        problems.append(f"do on the full disk: {exc}")
    for command in READERS:
        full, after = r[f"{command} on the full disk"]["run"], r[f"{command} after"]["run"]
        if full.code != 0:
            problems.append(f"on the full disk: {full}")
        if after.code != 0:
            problems.append(f"after the full disk: {after}")
        elif full.code == 0 and full.out != after.out:
            problems.append(f"on the full disk {command} showed another game than after it:\n{full}\n{after}")
        if last == "look" and after.out != r[f"{command} before"]["run"].out:
            problems.append(f"{command} after the full disk differs from before it: {after}")
    history = r["history after"]["run"].out
    if last == "write" and commands(history).count("pay Anna Boris 15") != 1:
        problems.append(f"the event acknowledged just before the disk filled is not stored once: {history!r}")
    if "pay Boris Anna 7" in commands(history):
        problems.append("the event refused on the full disk is in the history")
    for label in ("do with room", "retry", "history at the end"):
        if r[label]["run"].code != 0:
            problems.append(f"{label}: {r[label]['run']}")
    end = r["history at the end"]["run"].out
    if not end.startswith(history.rstrip("\n")) or commands(end) != commands(history) + ["pay Boris Anna 7"]:
        problems.append(f"history after the retry is not the old one plus one event: {end!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("reserve", ["as shipped", "filled after the check"])
def test_a_nearly_full_disk_either_stores_the_event_or_says_the_disk_is_full(place, namespaces, reserve):
    """With a few pages left (fewer than SQLite's 32 KiB -shm, more, about the 1 MiB the companion
    keeps in reserve) each `do` is either stored (exit 0, in the history after) or refused as a full
    disk (exit 8, not in it): never an unknown outcome, never another error, and no acknowledged
    event is ever lost. Each round starts from a ledger a write just closed (no -shm), every other
    round after a look (-shm kept). "filled after the check" turns the free-space check off, as when
    another program fills the disk between the check and the COMMIT."""
    patch = NO_RESERVE if reserve == "filled after the check" else None
    disk = place / "disk"
    disk.mkdir()
    db = disk / "game.sqlite"
    env = {"COMPANION_STATE_DIR": str(disk / "state")}
    slacks = [4096 * pages for pages in (1, 2, 4, 7, 8, 9, 16, 32, 64, 255, 256, 257, 300)]
    plan = [("new", cli_step("new", "--db", db, "classic", "Anna", "Boris", "--seed", 1, env=env))]
    for k, slack in enumerate(slacks):
        plan.append((f"{k} acked", pay_step(db, env, f"acked-{k}", "Boris", "Anna", k + 1)))
        if k % 2:
            plan.append((f"{k} look", cli_step("state", "--db", db, env=env)))
        plan += [
            (f"{k} fill", {"kind": "fill", "dir": str(disk), "slack": slack}),
            (f"{k} do", pay_step(db, env, f"r-{k}", "Anna", "Boris", 100 + k, patch)),
            (f"{k} state", cli_step("state", "--db", db, env=env)),
            (f"{k} unfill", {"kind": "unfill", "dir": str(disk)}),
            (f"{k} history", cli_step("history", "--db", db, env=env)),
        ]
    plan.append(("verify", cli_step("verify", "--db", db, env=env)))
    r = run_plan([tmpfs_mount(disk, DISK)], plan)
    assert r["new"]["run"].code == 0, str(r["new"]["run"])
    stored, problems = [], []
    for k in range(len(slacks)):
        free = r[f"{k} fill"]["free"]
        where = f"{free} bytes free{' (after a look)' if k % 2 else ''}"
        acked, do, state, history = (r[f"{k} {label}"]["run"] for label in ("acked", "do", "state", "history"))
        assert acked.code == 0, str(acked)
        stored.append(f"pay Boris Anna {k + 1}")
        line = f"pay Anna Boris {100 + k}"
        if do.code == 0:
            stored.append(line)
        elif do.code != EXIT_DISK_FULL or len(do.err.splitlines()) != 1 or "Traceback" in do.err:
            problems.append(f"{where}: {do}")
        if state.code != 0:
            problems.append(f"{where}, state: {state}")
        if history.code != 0:
            problems.append(f"after {where}, history: {history}")
            continue
        for earlier in stored:
            if commands(history.out).count(earlier) != 1:
                problems.append(
                    f"after {where}: '{earlier}' is {commands(history.out).count(earlier)} times in the history"
                )
        if do.code != 0 and line in commands(history.out):
            problems.append(f"{where}: the refused '{line}' is in the history")
    if r["verify"]["run"].code != 0:
        problems.append(f"verify at the end: {r['verify']['run']}")
    assert not problems, "\n".join(problems)
