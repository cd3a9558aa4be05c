"""The virtual table served by waitress in a background thread, started and stopped by the daemon.

    server = VirtualTableServer(create_app(table), port=0)
    server.start()            # binds (OSError in one line if the port is taken), then serves in a daemon thread
    print(server.url)         # http://127.0.0.1:<the port it got>/
    server.stop()             # ends the open /frames streams, closes every connection, joins the threads

Each open page holds one waitress thread for its /frames stream; the app keeps
at most MAX_STREAMS of them (4) open, so the default 8 threads leave room for
the page's presses, pictures and status requests. The loop is our own (one
waitress poll at a time until stop() is asked), so stopping never waits on a
stream or an idle connection.
"""

import errno
import logging
import socket
import threading
from typing import Any

from flask import Flask

# waitress ships no type information; `unused-ignore` keeps mypy quiet should it ever gain some
from waitress import wasyncore  # type: ignore[import-untyped, unused-ignore]
from waitress.server import create_server  # type: ignore[import-untyped, unused-ignore]

from web.app import close_streams
from web.phone import close_phone_streams

log = logging.getLogger("companion.web")


class VirtualTableServer:
    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 8000, threads: int = 8,
                 what: str = "the virtual table"):
        self.app = app
        self.what = what  # what its lines call it: "the virtual table", "the phone page"
        self.host = host
        self._port = port
        self.threads = threads
        self._map: dict[int, Any] = {}
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()

    @property
    def port(self) -> int:
        """The port being served (the one picked when 0 was asked); before start(), the one asked for."""
        return int(self._server.effective_port) if self._server is not None else self._port

    @property
    def url(self) -> str:
        host = self._server.effective_host if self._server is not None else self.host
        host = f"[{host}]" if ":" in str(host) else host
        return f"http://{host}:{self.port}/"

    def start(self) -> "VirtualTableServer":
        """Bind and serve in a daemon thread. OSError, in one line naming the port, when it cannot bind."""
        if self._server is not None or self._stopping.is_set():
            raise RuntimeError("the virtual table server is started once")
        sock = self._bind()
        try:
            self._server = create_server(self.app, map=self._map, sockets=[sock], threads=self.threads,
                                         ident="companion", max_request_body_size=64 * 1024, expose_tracebacks=False)
        except BaseException:
            wasyncore.close_all(self._map)
            sock.close()
            raise
        self._thread = threading.Thread(target=self._serve, name="virtual-table", daemon=True)
        self._thread.start()
        log.info("%s is at %s", self.what, self.url)
        return self

    def _bind(self) -> socket.socket:
        """The listening socket, bound here so that a taken port costs no waitress threads."""
        where = f"{self.host} port {self._port}"
        try:
            family, kind, proto, _, address = socket.getaddrinfo(
                self.host, self._port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
        except (OSError, UnicodeError) as e:
            raise _one_line_error(f"{self.what} cannot listen on {where}: {e}", getattr(e, "errno", None)) from None
        sock = socket.socket(family, kind, proto)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as waitress does: no wait after a restart
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
        except OSError as e:
            sock.close()
            why = "the port is already in use" if e.errno == errno.EADDRINUSE else (e.strerror or str(e))
            raise _one_line_error(f"{self.what} cannot listen on {where}: {why}", e.errno) from None
        return sock

    def _serve(self) -> None:
        try:
            while not self._stopping.is_set():
                wasyncore.loop(timeout=0.2, map=self._map, use_poll=True, count=1)
        except Exception:
            log.exception("the server of %s failed", self.what)
        finally:
            wasyncore.close_all(self._map)

    def stop(self, timeout: float = 5.0) -> None:
        """End the streams, close the listening socket and every connection, and wait for the threads."""
        self._stopping.set()
        close_streams(self.app)
        close_phone_streams(self.app)
        if self._thread is not None:
            self._thread.join(timeout)
        if self._server is not None:
            self._server.task_dispatcher.shutdown(timeout=timeout)

    def __enter__(self) -> "VirtualTableServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _one_line_error(line: str, number: int | None) -> OSError:
    error = OSError(" ".join(line.split()))
    error.errno = number  # kept for callers that look; str() stays the one line
    return error
