"""Child of tests/test_faults.py: one plain-sqlite3 WAL + synchronous=FULL commit under the shim, to check the shim itself.

Usage: LD_PRELOAD=faultshim.so python sqlite_child.py DIR CALL N ERRNO EXIT
Creates DIR/t.db with one row, prints "stdout passes" (a write the shim must
not count), arms the shim, tries to commit a second row and prints one JSON line:
what COMMIT said, the SQLite error name, faults fired, calls counted. Then it
ends the way EXIT says: "die" (os._exit, like a power cut or SIGKILL: nothing is
closed or checkpointed) or "close" (the connection is closed first).
"""

import json
import os
import sqlite3
import sys

from shim import Shim


def main(directory: str, call: str, n: int, err: int, how: str) -> None:
    shim = Shim()
    shim.watch(directory)
    conn = sqlite3.connect(os.path.join(directory, "t.db"), isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE t(x INTEGER)")
    conn.execute("INSERT INTO t VALUES (1)")
    shim.reset()
    print("stdout passes", flush=True)
    shim.arm(call, n, err)
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO t VALUES (2)")
    try:
        conn.execute("COMMIT")
        said, name = "ok", None
    except sqlite3.Error as exc:
        said, name = str(exc), getattr(exc, "sqlite_errorname", None)
        if conn.in_transaction:
            conn.execute("ROLLBACK")
    report = {
        "commit": said,
        "error": name,
        "fired": shim.fired(),
        "counts": shim.counts(),
        "seen_by_writer": [r[0] for r in conn.execute("SELECT x FROM t ORDER BY x")],
    }
    shim.disarm()
    print(json.dumps(report), flush=True)
    if how == "die":
        os._exit(0)
    conn.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
