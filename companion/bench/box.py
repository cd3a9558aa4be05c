"""The box the table and phone benches measure: the daemon on simulated hardware, started and stopped, and a
spectator's session on its phone page.

The daemon's modules are imported where the box is started, not at the top: the web and daemon benches'
clients run in spawned processes that import their bench module (and so this one) and should start light.
"""

import http.client
import os
import re
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.daemon.main import Daemon


def reader_daemon(folder: Path, seed: int, extra: dict[str, Any] | None = None) -> "Daemon":
    """The daemon on simulated hardware, its games in `folder`, not yet started: no virtual table (nor a phone
    page unless `extra` names its port)."""
    from companion.daemon.config import Config, defaults
    from companion.daemon.main import Daemon

    values = dict(defaults().values)
    # no virtual table: a bench needs no web server (nor port 8000 free)
    values.update({"games_dir": str(folder), "reader.retry_seconds": 0.05, "virtual_table.port": 0})
    values.update(extra or {})
    return Daemon(Config(values, "(bench)"), out=lambda line: None, sim_seed=seed)


@contextmanager
def bench_box(
    folder: Path, seed: int, durable: bool, extra: dict[str, Any] | None = None, patience: float = 1
) -> Iterator[tuple["Daemon", Any, dict[str, Any]]]:
    """The daemon on simulated hardware with an Elite game, the demo's cards and the reader ready:
    (daemon, table, cards). durable=False: every sync elided (the ledger's and the anchor's
    fdatasync), so what is left is our code; the syncs come back and the daemon stops afterwards."""
    from companion.daemon import collector
    from companion.daemon.cards import CardMap
    from companion.daemon.demo import PLAYERS, demo_cards
    from companion.daemon.main import wait_for

    daemon = reader_daemon(folder, seed, extra).start()
    collector.settle()  # as the daemon's own process does (Daemon.run_until_signal)
    real_fsync, real_fdatasync = os.fsync, os.fdatasync
    try:
        answer = daemon.handle({"op": "start", "edition": "elite", "players": PLAYERS, "seed": seed})
        assert answer["ok"], answer
        table = daemon.owner.table
        assert table is not None and daemon.sim is not None
        cards = demo_cards(table.rules.edition)
        daemon.cards = CardMap(folder / "cards.json", cards)
        if not wait_for(lambda: daemon.link is not None and daemon.link.state.state == "ready", timeout=10 * patience):
            raise RuntimeError("the simulated reader did not answer")
        if not durable:
            daemon.owner.call(lambda: table.ledger.conn.execute("PRAGMA synchronous=OFF"))
            os.fsync = os.fdatasync = lambda fd: None
        yield daemon, table, cards
    finally:
        os.fsync, os.fdatasync = real_fsync, real_fdatasync
        daemon.stop(quiet=True)


def start_box(tmp: str, seed: int, players: list[str]) -> Any:
    """The daemon the web benches measure: simulated hardware, its phone page on a free loopback port, a
    new Elite game of `players` started (stopped again if any of that fails)."""
    from companion.daemon.config import Config, defaults
    from companion.daemon.main import Daemon

    values = dict(defaults().values)
    values.update(
        {
            "games_dir": str(Path(tmp) / "games"),
            "virtual_table.port": 0,
            "phone.host": "127.0.0.1",
            "phone.port": free_port(),
            "phone.auction_quiet_seconds": 0.0,
        }
    )
    daemon = Daemon(Config(values, "(bench)"), out=lambda line: None, sim_seed=seed).start()
    try:
        if daemon.phone_server is None:
            raise RuntimeError("the phone page's server did not start")
        answer = daemon.handle({"op": "start", "edition": "elite", "players": players, "seed": seed})
        if not answer.get("ok"):
            raise RuntimeError(f"no game: {answer}")
    except BaseException:
        daemon.stop(quiet=True)
        raise
    return daemon


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def spectator(port: int, code: str) -> str:
    """A spectator's session cookie ("name=value"): the page, then the table code posted with its token."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", "/phone/")
        response = conn.getresponse()
        page = response.read().decode()
        cookie = (response.getheader("Set-Cookie") or "").split(";", 1)[0]
        found = re.search(r'data-csrf="([^"]*)"', page)
        if not cookie or not found:
            raise RuntimeError("the phone page gave no session")
        body = f"csrf={found.group(1)}&code={code}"
        conn.request(
            "POST",
            "/phone/join",
            body=body,
            headers={"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"},
        )
        answer = conn.getresponse()
        answer.read()
        if answer.status != 200:
            raise RuntimeError(f"joining the table answered {answer.status}")
        # the role rising gives the session a new token (docs/phone.md: no session fixation)
        return (answer.getheader("Set-Cookie") or "").split(";", 1)[0] or cookie
    finally:
        conn.close()
