"""The daemon's control socket: `companion do`, `companion game ...` and `companion cards ...` reach
the running daemon through it, one JSON object a line each way.

A request is `{"op": ..., ...}`; the answer is `{"ok": true, ...}` or
`{"ok": false, "message": <one line in the asker's language>, "exit": <exit code>}`.
The socket is a Unix one (0660, in the runtime folder), so only the box's own
users reach it; a request longer than MAX_REQUEST or not JSON gets one line back.
"""

import json
import logging
import os
import socket
import socketserver
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.errors import SaidInput

log = logging.getLogger("companion.control")

MAX_REQUEST = 64 * 1024
REQUEST_TIMEOUT_S = 10.0
MAX_SOCKET_PATH = 107  # bytes: sockaddr_un's sun_path less its NUL
Handler = Callable[[dict], dict]


class _Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True
    request_queue_size = 64  # six phones, the buttons and a terminal connecting at once
    handle_request_dict: Handler


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
        self._server.shutdown()
        self._server.server_close()
        self.path.unlink(missing_ok=True)


def _answers(path: Path) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        try:
            s.connect(str(path))
            return True
        except OSError:
            return False


def ask(path: str | os.PathLike, request: dict, timeout: float = 60.0) -> dict:
    """Send one request to the daemon at `path`; its answer. OSError when no daemon answers."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(str(path))
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
