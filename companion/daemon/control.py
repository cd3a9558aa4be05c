"""The daemon's control socket: `companion do`, `companion game ...` and `companion cards ...` reach
the running daemon through it, one JSON object a line each way.

A request is `{"op": ..., ...}`; the answer is `{"ok": true, ...}` or
`{"ok": false, "message": <one line in the asker's language>, "exit": <exit code>}`.
The socket is a Unix one (0660, in the runtime folder), so only the box's own
users reach it; a request longer than MAX_REQUEST or not JSON gets one line back.

HANDLERS threads answer (each request mostly waits for the one writer thread anyway);
connections beyond them wait, accepted, in a queue, and beyond that in the socket's
backlog (BACKLOG): a burst of a family's commands waits its turn instead of being
refused, and `ask` (the command line's side) retries a connect the full backlog refused
for CONNECT_RETRY_S instead of saying the daemon did not answer.
"""

import errno
import json
import logging
import os
import queue
import socket
import socketserver
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.errors import SaidInput

log = logging.getLogger("companion.control")

MAX_REQUEST = 64 * 1024
REQUEST_TIMEOUT_S = 10.0
MAX_SOCKET_PATH = 107  # bytes: sockaddr_un's sun_path less its NUL
HANDLERS = 16  # threads answering requests (a thread per connection had no cap)
WAITING = 256  # accepted connections waiting for a handler; beyond them the backlog holds the rest
BACKLOG = 1024  # connections the kernel holds before accept (capped by net.core.somaxconn, 4096)
CONNECT_RETRY_S = 10.0  # a client retries a connect the full backlog refused this long
Handler = Callable[[dict], dict]


class _Server(socketserver.UnixStreamServer):
    """Accepts on its own thread (serve_forever) and hands each connection to a bounded pool of handlers."""

    request_queue_size = BACKLOG
    handle_request_dict: Handler

    def __init__(self, path: str, handler: type[socketserver.BaseRequestHandler]):
        super().__init__(path, handler)
        self._waiting: queue.Queue[tuple[Any, Any] | None] = queue.Queue(WAITING)
        self._stopping = threading.Event()
        self._handlers = [threading.Thread(target=self._handle_waiting, name=f"companion-control-{i + 1}",
                                           daemon=True) for i in range(HANDLERS)]
        for thread in self._handlers:
            thread.start()

    def process_request(self, request: Any, client_address: Any) -> None:
        # a full queue holds the accepting thread here, so further connections wait in the backlog
        while not self._stopping.is_set():
            try:
                self._waiting.put((request, client_address), timeout=0.2)
                return
            except queue.Full:
                continue
        self.shutdown_request(request)

    def _handle_waiting(self) -> None:
        while True:
            item = self._waiting.get()
            if item is None:
                return
            request, client_address = item
            try:
                if not self._stopping.is_set():  # stopping: the ones still waiting are closed unanswered
                    self.finish_request(request, client_address)
            except Exception:
                self.handle_error(request, client_address)
            finally:
                self.shutdown_request(request)

    def stop_handlers(self) -> None:
        """Each handler ends after the request it is answering (daemon threads: nobody waits for them)."""
        self._stopping.set()
        for _ in self._handlers:
            try:
                self._waiting.put(None, timeout=1.0)  # the handlers empty the queue fast once stopping
            except queue.Full:
                break

    def handle_error(self, request: Any, client_address: Any) -> None:
        log.exception("the control socket failed to answer a request")


class _Connection(socketserver.StreamRequestHandler):
    timeout = REQUEST_TIMEOUT_S  # a client that never finishes its line is let go

    def handle(self) -> None:
        try:
            line = self.rfile.readline(MAX_REQUEST + 1)
        except OSError:  # timed out or gone
            return
        if not line:
            return
        if len(line) > MAX_REQUEST:
            answer: dict[str, Any] = {"ok": False, "message": "request too long", "exit": 4}
        else:
            try:
                request = json.loads(line)
                if not isinstance(request, dict):
                    raise ValueError("not an object")
            except (ValueError, RecursionError):
                answer = {"ok": False, "message": "not a JSON request", "exit": 4}
            else:
                server = self.server
                assert isinstance(server, _Server)
                answer = server.handle_request_dict(request)
        try:
            self.wfile.write(json.dumps(answer, ensure_ascii=False).encode() + b"\n")
        except OSError:  # the asker left
            pass


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

    def start(self) -> "ControlServer":
        self._thread.start()
        return self

    def stop(self) -> None:
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


def ask(path: str | os.PathLike, request: dict, timeout: float = 60.0) -> dict:
    """Send one request to the daemon at `path`; its answer. OSError when no daemon answers."""
    with _connect(path, timeout) as s:
        s.sendall(json.dumps(request, ensure_ascii=False).encode() + b"\n")
        chunks = []
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
            if chunk.endswith(b"\n"):
                break
    data = b"".join(chunks)
    if not data:
        raise ConnectionError("the daemon closed the connection without an answer")
    answer = json.loads(data)
    if not isinstance(answer, dict):
        raise ConnectionError("the daemon's answer is not an object")
    return answer
