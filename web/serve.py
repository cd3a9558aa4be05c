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

Connections are let in by address (an IPv4 address, an IPv6 /64: web.hosts.guesser), so that idle
connections from someone on the Wi-Fi never lock a phone or the banker out (docs/phone.md):
a connection that has not shown the table code (no request carrying a joined phone's session
cookie) must complete a request within VISITOR_WAIT_S of opening or of its last answer, and
one address keeps at most PER_ADDRESS of them waiting (a new one closes its oldest); past
CONNECTIONS in all, a new connection closes a waiting one of the address holding the most
(visitors' first), so a new phone always gets in. A phone that showed the table code keeps
waitress's ordinary timeout for its keep-alive connections and its live stream.
"""

import errno
import logging
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask

# waitress ships no type information; `unused-ignore` keeps mypy quiet should it ever gain some
from waitress import wasyncore  # type: ignore[import-untyped, unused-ignore]
from waitress.adjustments import Adjustments  # type: ignore[import-untyped, unused-ignore]
from waitress.channel import HTTPChannel  # type: ignore[import-untyped, unused-ignore]
from waitress.server import TcpWSGIServer  # type: ignore[import-untyped, unused-ignore]
from waitress.task import ThreadedTaskDispatcher  # type: ignore[import-untyped, unused-ignore]

from web.app import close_streams
from web.hosts import guesser
from web.phone import close_phone_streams, joined_cookie

log = logging.getLogger("companion.web")

CONNECTIONS = 200  # open connections in all (a phone holds a few; the bench's 50 pages one each; fds: 1024)
PER_ADDRESS = 16  # connections one address may keep waiting before it showed the table code (a browser opens 6)
VISITOR_WAIT_S = 5.0  # ... each of them closed when no complete request came this long after opening or an answer


class VirtualTableServer:
    def __init__(
        self,
        app: Flask,
        host: str = "127.0.0.1",
        port: int = 8000,
        threads: int = 8,
        what: str = "the virtual table",
        connections: int = CONNECTIONS,
        per_address: int = PER_ADDRESS,
        visitor_wait: float = VISITOR_WAIT_S,
    ):
        self.app = app
        self.connections, self.per_address, self.visitor_wait = connections, per_address, visitor_wait
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
            # create_server's own steps, with our server class: it lets connections in by address
            adj = Adjustments(
                sockets=[sock],
                threads=self.threads,
                ident="companion",
                max_request_body_size=64 * 1024,
                expose_tracebacks=False,
                connection_limit=self.connections + 8,
                cleanup_interval=1,
            )
            dispatcher = ThreadedTaskDispatcher()
            dispatcher.set_thread_count(self.threads)
            self._server = _GuardedServer(
                self.app,
                map=self._map,
                _sock=sock,
                dispatcher=dispatcher,
                adj=adj,
                bind_socket=False,
                sockinfo=(sock.family, sock.type, sock.proto, sock.getsockname()),
            )
            self._server.doors = _Doors(
                self.connections, self.per_address, self.visitor_wait, lambda cookie: joined_cookie(self.app, cookie)
            )
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
                self.host, self._port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
            )[0]
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


class _Doors:
    """The server's limits by address, and how it tells a joined phone's request (its session cookie)."""

    def __init__(self, connections: int, per_address: int, visitor_wait: float, joined: Callable[[str], bool]):
        self.connections = connections
        self.per_address = per_address
        self.visitor_wait = visitor_wait
        self.joined = joined


class _GuardedChannel(HTTPChannel):  # type: ignore[misc, unused-ignore]
    """A connection that knows its client (address or /64), whether its last request showed the table code,
    and since when it waits for a request (set only when no request is being served)."""

    def __init__(self, server: Any, sock: socket.socket, addr: Any, adj: Any, map: Any = None) -> None:
        self.client = guesser(str(addr[0]) if isinstance(addr, tuple) and addr else str(addr))
        self.joined = False  # its last request carried a joined phone's session: the ordinary timeouts
        self.serving = False  # a request of it is being served on a thread (never closed as idle then)
        self.waiting_since = time.time()
        super().__init__(server, sock, addr, adj, map)

    def service(self) -> None:
        self.serving = True
        try:
            request = self.requests[0] if self.requests else None
            if request is not None:
                try:
                    self.joined = bool(self.server.doors.joined(str(request.headers.get("COOKIE", ""))))
                except Exception:  # never a reason to fail the request: it is just a visitor's
                    self.joined = False
            super().service()
        finally:
            self.waiting_since = time.time()  # before `serving` drops: the wait starts after the answer
            self.serving = False

    def idle(self) -> bool:
        """No request of it being served or queued: closing it loses nobody's answer."""
        return not self.requests and not self.serving and not self.will_close

    def waited(self, now: float) -> float:
        """How long it has waited for a complete request (an answer still being sent counts as activity)."""
        since = max(self.waiting_since, self.last_activity) if self.total_outbufs_len else self.waiting_since
        return now - since


class _GuardedServer(TcpWSGIServer):  # type: ignore[misc, unused-ignore]
    """waitress's server letting connections in by address (the module's docstring says how)."""

    channel_class = _GuardedChannel
    doors: _Doors

    def handle_accept(self) -> None:
        try:
            pair = self.accept()
            if pair is None:
                return
            conn, addr = pair
            self.set_socket_options(conn)
        except OSError:  # gone before we got to it (waitress's own handling)
            return
        client = guesser(str(addr[0]) if isinstance(addr, tuple) and addr else str(addr))
        channels = [c for c in self.active_channels.values() if isinstance(c, _GuardedChannel) and not c.will_close]
        visitors = [c for c in channels if c.client == client and not c.joined and c.idle()]
        if len(visitors) >= self.doors.per_address:
            self._let_go(visitors[0])  # its oldest: an address's flood pushes out only its own
            channels.remove(visitors[0])
        if len(channels) >= self.doors.connections:
            victim = _most_held([c for c in channels if not c.joined and c.idle()]) or _most_held(
                [c for c in channels if c.idle()]
            )
            if victim is None:  # every connection is being served: the new one waits its turn outside
                conn.close()
                return
            self._let_go(victim)
        self.channel_class(self, conn, addr, self.adj, map=self._map)

    def maintenance(self, now: float) -> None:
        super().maintenance(now)  # waitress's own: any idle connection after channel_timeout
        for channel in list(self.active_channels.values()):
            if (
                isinstance(channel, _GuardedChannel)
                and not channel.joined
                and channel.idle()
                and channel.waited(now) > self.doors.visitor_wait
            ):
                self._let_go(channel)

    @staticmethod
    def _let_go(channel: "_GuardedChannel") -> None:
        """Closed now, on the loop's thread (no request of it is being served, so no thread holds it)."""
        try:
            channel.handle_close()
        except OSError:
            pass


def _most_held(channels: list[_GuardedChannel]) -> _GuardedChannel | None:
    """The oldest of the connections of the client holding the most of them (None if there are none)."""
    counts: dict[str, int] = {}
    for c in channels:
        counts[c.client] = counts.get(c.client, 0) + 1
    if not counts:
        return None
    most = max(counts.values())
    return next(c for c in channels if counts[c.client] == most)


def _one_line_error(line: str, number: int | None) -> OSError:
    error = OSError(" ".join(line.split()))
    error.errno = number  # kept for callers that look; str() stays the one line
    return error
