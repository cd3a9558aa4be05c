"""The daemon's control socket: `companion do`, `companion game ...` and `companion cards ...` reach
the running daemon through it, one JSON object a line each way.

A request is `{"op": ..., ...}`; the answer is `{"ok": true, ...}` or
`{"ok": false, "message": <one line in the asker's language>, "exit": <exit code>}`.
The socket is a Unix one (0660, in the runtime folder), so only the box's own
users reach it; a request longer than MAX_REQUEST or not JSON gets one line back.

One thread reads every connection's request line (GATHERING at most at once, the oldest
closed for a newcomer; one that has not sent its line within REQUEST_TIMEOUT_S is closed):
a connection that sends nothing, or half a line, holds no handler. HANDLERS threads answer
the complete requests (each mostly waits for the one writer thread anyway); requests
beyond them wait in a queue, and connections beyond that in the socket's backlog
(BACKLOG): a burst of a family's commands waits its turn instead of being refused, and
`ask` (the command line's side) retries a connect the full backlog refused for
CONNECT_RETRY_S instead of saying the daemon did not answer.
"""

import errno
import json
import logging
import os
import queue
import selectors
import socket
import socketserver
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.errors import SaidInput
from companion.words.messages import LANGUAGES, render

log = logging.getLogger("companion.control")

MAX_REQUEST = 64 * 1024
REQUEST_TIMEOUT_S = 10.0
MAX_SOCKET_PATH = 107  # bytes: sockaddr_un's sun_path less its NUL
HANDLERS = 16  # threads answering requests (a thread per connection had no cap)
WAITING = 256  # complete requests waiting for a handler; beyond them the backlog holds the connections
GATHERING = 512  # connections whose request line is still being read; a newcomer beyond them closes the oldest
BACKLOG = 1024  # connections the kernel holds before accept (capped by net.core.somaxconn, 4096)
CONNECT_RETRY_S = 10.0  # a client retries a connect the full backlog refused this long
Handler = Callable[[dict], dict]


class _Server(socketserver.UnixStreamServer):
    """Accepts on its own thread (serve_forever) and hands each connection to a bounded pool of handlers."""

    request_queue_size = BACKLOG
    handle_request_dict: Handler

    def __init__(self, path: str, handler: type[socketserver.BaseRequestHandler]):
        super().__init__(path, handler)
        self._waiting: queue.Queue[tuple[Any, Any, bytes] | None] = queue.Queue(WAITING)
        self._stopping = threading.Event()
        self._inbox: list[tuple[Any, Any]] = []  # accepted, not yet read by the gathering thread
        self._room = threading.Condition()
        self._wake_r, self._wake_w = os.pipe()
        self._pipe_closed = False
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._gatherer = threading.Thread(target=self._gather, name="companion-control-read", daemon=True)
        self._gatherer.start()
        self._handlers = [
            threading.Thread(target=self._handle_waiting, name=f"companion-control-{i + 1}", daemon=True)
            for i in range(HANDLERS)
        ]
        for thread in self._handlers:
            thread.start()

    def process_request(self, request: Any, client_address: Any) -> None:
        # handed to the gathering thread, which reads the line without holding a handler; a full inbox holds
        # the accepting thread here, so further connections wait in the backlog
        with self._room:
            while len(self._inbox) >= GATHERING and not self._stopping.is_set():
                self._room.wait(0.2)
            if self._stopping.is_set():
                self.shutdown_request(request)
                return
            self._inbox.append((request, client_address))
        try:
            os.write(self._wake_w, b"x")
        except BlockingIOError:  # the pipe is full: the gathering thread is awake anyway
            pass

    def _gather(self) -> None:
        """Read each connection's request line (non-blocking, all at once); hand complete ones to the handlers."""
        selector = selectors.DefaultSelector()
        selector.register(self._wake_r, selectors.EVENT_READ)
        reading: dict[Any, tuple[Any, bytearray, float]] = {}  # socket: (address, bytes so far, deadline)

        def drop(conn: Any) -> None:
            selector.unregister(conn)
            del reading[conn]

        def close(conn: Any) -> None:
            drop(conn)
            self.shutdown_request(conn)

        def hand(conn: Any, line: bytes) -> None:
            address = reading[conn][0]
            drop(conn)
            while not self._stopping.is_set():
                try:
                    self._waiting.put((conn, address, line), timeout=0.2)
                    return
                except queue.Full:
                    continue
            self.shutdown_request(conn)

        while not self._stopping.is_set():
            for key, _ in selector.select(timeout=0.2):
                if key.fileobj == self._wake_r:
                    try:
                        os.read(self._wake_r, 4096)
                    except BlockingIOError:
                        pass
                    continue
                conn = key.fileobj
                try:
                    chunk = conn.recv(65536)  # type: ignore[union-attr]
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                got = reading[conn][1]
                if not chunk:  # the asker left (or half-closed after its line without a newline)
                    if got:
                        hand(conn, bytes(got))
                    else:
                        close(conn)
                    continue
                got += chunk
                end = got.find(b"\n")
                if end >= 0 or len(got) > MAX_REQUEST:
                    hand(conn, bytes(got[: end + 1] if end >= 0 else got))
            with self._room:
                arrived, self._inbox[:] = list(self._inbox), []
                self._room.notify_all()
            now = time.monotonic()
            for conn, address in arrived:
                conn.setblocking(False)
                reading[conn] = (address, bytearray(), now + REQUEST_TIMEOUT_S)
                selector.register(conn, selectors.EVENT_READ)
                if len(reading) > GATHERING:  # a flood of connections: the oldest still silent one goes
                    close(min(reading, key=lambda c: reading[c][2]))
            for conn in [c for c, (_, _, deadline) in reading.items() if deadline < now]:  # never finished its line
                close(conn)
        for conn in list(reading):
            self.shutdown_request(conn)
        selector.close()

    def _handle_waiting(self) -> None:
        while True:
            item = self._waiting.get()
            if item is None:
                return
            request, client_address, line = item
            try:
                request.setblocking(True)
                request.settimeout(REQUEST_TIMEOUT_S)
                # stopping: the ones still waiting are told nothing was done (closed unanswered, the asker
                # could only say the outcome is unknown)
                answer = self._answer(line) if not self._stopping.is_set() else _stopping_answer(line)
                request.sendall(json.dumps(answer, ensure_ascii=False).encode() + b"\n")
            except OSError:  # the asker left
                pass
            except Exception:
                self.handle_error(request, client_address)
            finally:
                self.shutdown_request(request)

    def _answer(self, line: bytes) -> dict[str, Any]:
        if len(line) > MAX_REQUEST:
            return {"ok": False, "message": "request too long", "exit": 4}
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise ValueError("not an object")
        except (ValueError, RecursionError):
            return {"ok": False, "message": "not a JSON request", "exit": 4}
        return self.handle_request_dict(request)

    def stop_handlers(self) -> None:
        """Each handler ends after the request it is answering (daemon threads: nobody waits for them)."""
        self._stopping.set()
        for _ in self._handlers:
            try:
                self._waiting.put(None, timeout=1.0)  # the handlers empty the queue fast once stopping
            except queue.Full:
                break

    def server_close(self) -> None:
        self._stopping.set()
        super().server_close()
        self._gatherer.join(2.0)
        # its wake pipe is closed once nothing writes or reads it, and once only: a descriptor closed twice
        # may by then be another's (a restarted daemon's in the same process)
        if not self._gatherer.is_alive() and not self._pipe_closed:
            self._pipe_closed = True
            os.close(self._wake_r)
            os.close(self._wake_w)

    def handle_error(self, request: Any, client_address: Any) -> None:
        log.exception("the control socket failed to answer a request")


def _stopping_answer(line: bytes) -> dict[str, Any]:
    try:
        lang = json.loads(line).get("lang")
    except (ValueError, AttributeError, RecursionError):
        lang = None
    return {
        "ok": False,
        "message": render("daemon_stopping", {}, lang if lang in LANGUAGES else "en"),
        "exit": 5,
        "refused": False,
    }


class _Connection(socketserver.BaseRequestHandler):
    """Unused: the server reads and answers each connection itself (`_Server._gather`, `_handle_waiting`)."""


class ControlServer:
    """Serves requests on a Unix socket, each handed to `handle` (which answers in one dict)."""

    def __init__(self, path: str | os.PathLike, handle: Handler):
        self.path = Path(path)
        if len(os.fsencode(self.path)) > MAX_SOCKET_PATH:
            raise SaidInput("socket_too_long", path=str(self.path), limit=MAX_SOCKET_PATH)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.path.is_socket():
            if _answers(self.path):
                raise SaidInput("socket_taken", path=str(self.path))
            self.path.unlink()  # left by a daemon that died
        self._server = _Server(str(self.path), _Connection)
        self._server.handle_request_dict = handle
        os.chmod(self.path, 0o660)
        self._thread = threading.Thread(target=self._server.serve_forever, name="companion-control", daemon=True)
        self._stopped = False

    def start(self) -> "ControlServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._stopped:  # once: a second stop would unlink the socket a newer server has made at this path
            return
        self._stopped = True
        self._server._stopping.set()
        if self._thread.is_alive():
            self._server.shutdown()
        self._server.server_close()
        self._server.stop_handlers()
        self.path.unlink(missing_ok=True)


def _answers(path: Path) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        try:
            s.connect(str(path))
            return True
        except OSError:
            return False


def _connect(path: str | os.PathLike, timeout: float) -> socket.socket:
    """A connected socket. A connect refused because the daemon's backlog is full (a burst of commands) is
    tried again for CONNECT_RETRY_S: nothing was sent, so nothing can be booked twice. OSError (no such
    socket, nobody listening, still full by then) when no daemon answers."""
    end = time.monotonic() + min(CONNECT_RETRY_S, timeout)
    pause = 0.01
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.settimeout(timeout)
            s.connect(str(path))
            return s
        except OSError as exc:
            s.close()
            # EAGAIN: the backlog is full (a blocking connect would wait with no end if the daemon hung)
            if exc.errno != errno.EAGAIN or time.monotonic() + pause > end:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.2)


class Unanswered(ConnectionError):
    """The request was sent (or may have been, in part) and no answer came: the daemon may have acted on it."""


def ask(path: str | os.PathLike, request: dict, timeout: float = 60.0) -> dict:
    """Send one request to the daemon at `path`; its answer. OSError when no daemon answers: Unanswered
    once the daemon may have read the whole request (it closed the connection without a reset), TimeoutError
    when it took longer than `timeout`."""
    with _connect(path, timeout) as s:
        chunks = []
        try:
            s.sendall(json.dumps(request, ensure_ascii=False).encode() + b"\n")
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
                if chunk.endswith(b"\n"):
                    break
        except (TimeoutError, ConnectionResetError, BrokenPipeError):
            # a reset: the daemon went with bytes of ours unread (Linux resets a Unix socket closed with its
            # receive queue not empty), so it never had the whole line and cannot have acted on it
            raise
        except OSError as exc:  # gone under way otherwise: it may have had the line
            raise Unanswered(f"the daemon went away without an answer: {exc}") from exc
    data = b"".join(chunks)
    if not data or not data.endswith(b"\n"):
        raise Unanswered("the daemon closed the connection without an answer")
    answer = json.loads(data)
    if not isinstance(answer, dict):
        raise ConnectionError("the daemon's answer is not an object")
    return answer
