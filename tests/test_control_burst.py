"""The control socket under a family's burst (docs/daemon.md): 200 `companion do` and `game status` at once
are each answered, correctly, none told "the daemon did not answer"; the daemon serves them with a bounded
number of threads."""

import threading
import time

import pytest
from test_daemon import config

from companion.cli.box import through_daemon
from companion.daemon import control
from companion.daemon.main import Daemon
from companion.errors import LedgerError


def test_a_burst_of_200_clients_is_answered_every_one(tmp_path):
    daemon = Daemon(config(tmp_path), out=lambda line: None).start()
    try:
        assert daemon.handle({"op": "start", "edition": "elite", "players": ["Anna", "Boris"], "seed": 1})["ok"]
        holder = {"socket": str(daemon.config.socket_path), "pid": "?"}
        clients = 200
        go = threading.Barrier(clients)
        answers: list = [None] * clients

        def client(i: int) -> None:
            go.wait()
            try:
                if i % 2:
                    answers[i] = through_daemon(holder, "games", {"op": "status"}, "en")
                else:  # the same roll asked by many (a retried tap): booked once, the rest answered as the first
                    answers[i] = through_daemon(
                        holder,
                        "games",
                        {"op": "do", "actor": "Anna", "command": "roll 3 4", "request_id": "burst-roll"},
                        "en",
                    )
            except LedgerError as exc:  # "... did not answer"
                answers[i] = str(exc)

        workers = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
        for w in workers:
            w.start()
        for w in workers:
            w.join(120)
        silent = [a for a in answers if not isinstance(a, dict)]
        assert not silent, f"{len(silent)} of {clients} not answered, e.g. {silent[0]}"
        assert all(a["ok"] and a["game"] for a in answers[1::2])
        assert all(a["ok"] and a["seq"] == 2 and a["command"] == "roll 3 4" for a in answers[0::2])
        assert daemon.owner.table.head_seq == 2  # booked once
        # answered by the bounded pool, not a thread per connection
        assert not [t for t in threading.enumerate() if "process_request_thread" in t.name]
        assert len(daemon.control._server._handlers) == control.HANDLERS
    finally:
        daemon.stop()


def test_a_connect_the_full_backlog_refuses_is_tried_again_not_called_silence(tmp_path):
    """The kernel refuses a connect while the daemon's backlog is full (EAGAIN): the command line waits for
    room instead of saying the daemon did not answer (nothing was sent, so nothing can be booked twice)."""
    import json
    import socket
    import time

    path = str(tmp_path / "full.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(0)
    queued = []
    for _ in range(100):  # fill the backlog
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.setblocking(False)
        try:
            s.connect(path)
        except BlockingIOError:
            s.close()
            break
        queued.append(s)
    answered = []

    def busy_daemon() -> None:
        time.sleep(0.5)  # busy a moment, then it takes every connection in turn and answers
        for s in queued:  # those that filled the backlog leave without a request
            s.close()
        listener.settimeout(30)
        while len(answered) < len(queued) + 1:
            conn, _ = listener.accept()
            with conn:
                conn.settimeout(30)
                line = conn.makefile("rb").readline()
                if line:
                    conn.sendall(json.dumps({"ok": True, "echo": json.loads(line)["op"]}).encode() + b"\n")
                answered.append(line)

    helper = threading.Thread(target=busy_daemon, daemon=True)
    helper.start()
    try:
        assert control.ask(path, {"op": "status"}, timeout=30) == {"ok": True, "echo": "status"}
    finally:
        helper.join(30)
        listener.close()


def test_300_idle_or_half_sent_connections_do_not_keep_a_command_waiting(tmp_path):
    """Found by attacking the running box: 300 connections to the control socket that send nothing or half a
    line each held one of the 16 handlers for 10 s, so `companion game status` waited a minute and was told
    the daemon "did not answer: try again, or stop the daemon". Idle connections now cost no handler."""
    import socket
    import time

    daemon = Daemon(config(tmp_path), out=lambda line: None).start()
    idle = []
    try:
        assert daemon.handle({"op": "start", "edition": "elite", "players": ["Anna", "Boris"], "seed": 1})["ok"]
        holder = {"socket": str(daemon.config.socket_path), "pid": "?"}
        for i in range(300):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(str(daemon.config.socket_path))
            if i % 2:
                s.sendall(b'{"op": "sta')
            idle.append(s)
        time.sleep(0.2)
        started = time.monotonic()
        status = through_daemon(holder, "games", {"op": "status"}, "en")
        booked = through_daemon(
            holder, "games", {"op": "do", "actor": "Anna", "command": "roll 3 4", "request_id": "after-the-idle"}, "en"
        )
        took = time.monotonic() - started
        assert status["ok"] and booked["ok"] and booked["seq"] == 2
        assert took < 2.0, f"answered after {took:.1f} s"
    finally:
        for s in idle:
            s.close()
        daemon.stop()


@pytest.mark.parametrize(
    "lang,words",
    [("en", "whether request kill-1 was booked is not known"), ("ru", "проведён ли запрос kill-1, неизвестно")],
)
def test_a_daemon_gone_after_taking_the_line_is_outcome_unknown_with_the_id_never_did_not_answer(tmp_path, lang, words):
    """Found by killing the running box (kill -9) under a burst of `companion do`: a roll it booked just before
    dying was told "did not answer: try again, or stop the daemon" (exit 5, nothing done). Once the line is
    sent, a connection closed without an answer is "outcome unknown" with the request id (exit 7)."""
    import socket

    from companion.errors import OutcomeUnknown, exit_code
    from companion.words.messages import render_error

    path = str(tmp_path / "dying.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(1)

    def dying_daemon() -> None:  # takes the whole line (it may book it), then is gone without an answer
        conn, _ = listener.accept()
        got = b""
        while not got.endswith(b"\n"):
            got += conn.recv(65536)
        conn.close()

    threading.Thread(target=dying_daemon, daemon=True).start()
    holder = {"socket": path, "pid": "?"}
    with pytest.raises(OutcomeUnknown) as raised:
        through_daemon(
            holder, "games", {"op": "do", "actor": "Anna", "command": "roll 3 4", "request_id": "kill-1"}, lang
        )
    listener.close()
    assert exit_code(raised.value) == 7 and raised.value.request_id == "kill-1"
    assert words in render_error(raised.value, lang)


def test_a_daemon_gone_before_reading_the_whole_line_did_nothing_and_says_so(tmp_path):
    """The other side of the test above: killed with the request unread (in its backlog, or a line not yet
    read), the daemon cannot have booked it: "did not answer" (exit 5), not a needless "outcome unknown"."""
    import socket

    from companion.errors import LedgerError, OutcomeUnknown

    path = str(tmp_path / "dying.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(1)

    def dying_daemon() -> None:  # accepts, reads none of the line, is gone
        conn, _ = listener.accept()
        time.sleep(0.2)
        conn.close()

    threading.Thread(target=dying_daemon, daemon=True).start()
    with pytest.raises(LedgerError) as raised:
        through_daemon(
            {"socket": path, "pid": "?"},
            "games",
            {"op": "do", "actor": "Anna", "command": "roll 3 4", "request_id": "kill-2"},
            "en",
        )
    listener.close()
    assert not isinstance(raised.value, OutcomeUnknown) and raised.value.code == "daemon_silent"


def test_requests_still_waiting_when_the_box_stops_are_told_nothing_was_done(tmp_path):
    """Found by stopping the running box (SIGTERM) under a burst of `companion do`: the requests still waiting
    for a handler were closed unanswered, so the command line could only say "did not answer" or "outcome
    unknown"; docs/daemon.md promises "the box is shutting down; nothing was done"."""
    from companion.errors import LedgerError

    daemon = Daemon(config(tmp_path), out=lambda line: None).start()
    stopped = False
    try:
        assert daemon.handle({"op": "start", "edition": "elite", "players": ["Anna", "Boris"], "seed": 1})["ok"]
        holder = {"socket": str(daemon.config.socket_path), "pid": "?"}
        release = threading.Event()
        daemon.owner.post(lambda: release.wait(10))  # the writer busy: every request waits
        clients = 40
        answers: list = [None] * clients

        def client(i: int) -> None:
            try:
                answers[i] = through_daemon(
                    holder,
                    "games",
                    {"op": "do", "actor": "TABLE", "command": "pay Anna Boris 1", "request_id": f"stop-{i}"},
                    "ru" if i % 2 else "en",
                )
            except LedgerError as exc:
                answers[i] = exc

        workers = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
        for w in workers:
            w.start()
        time.sleep(0.5)
        stopper = threading.Thread(target=daemon.stop)
        stopper.start()
        time.sleep(0.3)
        release.set()
        stopper.join(30)
        stopped = True
        for w in workers:
            w.join(30)
        # each is answered: booked (those the handlers had handed to the writer), or refused in words
        assert all(isinstance(a, dict) for a in answers), [a for a in answers if not isinstance(a, dict)][:3]
        refused = [a for a in answers if not a["ok"]]
        assert refused and all(a["exit"] == 5 for a in refused)
        assert all(
            a["message"] in ("The box is shutting down; nothing was done", "Коробка выключается; ничего не сделано")
            for a in refused
        ), refused[:3]
    finally:
        if not stopped:
            daemon.stop()


def test_a_daemon_stopped_twice_leaves_the_next_daemons_socket_alone(tmp_path):
    # found on the newcomer's walk: a test that restarts the box stopped the first daemon again at its
    # end, and the second stop closed descriptors a second time and unlinked the socket the new daemon
    # had just made at the same path
    first = Daemon(config(tmp_path), out=lambda line: None).start()
    first.stop(quiet=True)
    second = Daemon(config(tmp_path), out=lambda line: None).start()
    try:
        first.stop(quiet=True)  # nothing, once more
        assert second.config.socket_path.is_socket()
        assert control.ask(second.config.socket_path, {"op": "status"})["ok"]
    finally:
        second.stop(quiet=True)
