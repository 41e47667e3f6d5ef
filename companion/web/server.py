"""Serving the app under waitress, a production WSGI server, sized for a table full of phones.

Waitress writes each chunk of a streamed response to the socket as soon as
the app yields it (its send_bytes is 1), so Server-Sent Events arrive as they
happen; tests/web/test_serve.py checks that through a real socket.

Waitress limits connections only in total, and keeps an idle one for two
minutes: one phone that opened 300 connections and sent nothing filled the
limit, and the scoreboard was unreachable for everyone for some 150 s, again
and again. So no address may hold more than CONNECTIONS_PER_ADDRESS (one more
is closed as it is accepted), and a connection that has not sent a whole
request REQUEST_TIMEOUT seconds after it opened, went idle, or began its
request is closed. A response being served (an event stream lives for hours)
is never cut. Measured (tests/web/test_connections.py): with 300 idle
connections from 127.0.0.1, another address loads the scoreboard page and
/api/state in a few milliseconds, where waitress alone made it wait until
those connections timed out.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from flask import Flask
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer, MultiSocketServer, TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

PHONES = 60
THREADS = PHONES + 20
"""Each live page holds a thread for its event stream; the rest serve page loads and the host."""
MAX_STREAMS = PHONES + 4
CONNECTION_LIMIT = 4 * PHONES
"""Browsers keep a few idle connections open besides the stream."""
CONNECTIONS_PER_ADDRESS = 24
"""A browser opens at most 6 connections to one server (per profile: the browser tests' phones are three
profiles on one address), and on a home network every phone has its own address."""
WARNING_INTERVAL = 60.0
"""Seconds between two warnings of refused connections: a flood of them must not flood the log too."""
REQUEST_TIMEOUT = 10.0
"""Seconds a connection may take to send a whole request (a phone's browser sends one at once), or stay idle
between requests (browsers open a new connection when a kept one was closed)."""
MAX_REQUEST_BODY = 64 * 1024
"""Bytes of a request body waitress takes before it answers 413 itself: the app reads at most 16 KB
(MAX_CONTENT_LENGTH), where waitress alone would have buffered up to 1 GB to disk first."""
OUTBUF_HIGH_WATERMARK = 64 * 1024
"""Waitress appends a connection's output to one buffer and frees it only once it is full (16 MB by default):
an event stream never ends, so each phone's buffer grew by every view it was sent (the scoreboard bench saw
the daemon pass 250 MB). A small mark lets buffers be rotated and freed, and holds back a stream whose phone
reads too slowly, which then skips views (it is sent only the latest)."""

log = logging.getLogger(__name__)

Server = BaseWSGIServer | MultiSocketServer


class GuardedChannel(HTTPChannel):
    """A connection that remembers when the request it is receiving began."""

    request_started = 0.0

    def received(self, data: bytes) -> bool:
        if self.request is None and data:
            self.request_started = time.time()
        return bool(super().received(data))

    def waiting_since(self) -> float | None:
        """Since when this connection owes a request (None: one is being served, streams included)."""
        if self.requests:
            return None
        return self.request_started if self.request is not None else self.last_activity


class GuardedServer(TcpWSGIServer):
    """Waitress's TCP server with a cap of connections per address and a short wait for each request."""

    channel_class = GuardedChannel

    def __init__(
        self,
        app: Flask,
        *,
        socket_map: dict[int, Any],
        dispatcher: ThreadedTaskDispatcher,
        adj: Adjustments,
        sockinfo: Any,
        per_address: int,
        request_timeout: float,
    ) -> None:
        self.socket_map = socket_map
        """Waitress's map of every open socket, shared by the sockets of every listening address."""
        self.per_address = per_address
        self.request_timeout = request_timeout
        self.quiet_until = 0.0
        super().__init__(app, map=socket_map, dispatcher=dispatcher, adj=adj, sockinfo=sockinfo)

    def handle_accept(self) -> None:
        try:
            accepted = self.accept()
        except OSError:
            return
        if accepted is None:
            return
        connection, address = accepted
        host = _host_of(address)
        if self.connections_from(host) >= self.per_address:
            # Refused at once, before waitress spends a channel on it: the others keep their places.
            connection.close()
            if time.monotonic() >= self.quiet_until:
                self.quiet_until = time.monotonic() + WARNING_INTERVAL
                log.warning("closed a connection from %s, which holds %d already", host, self.per_address)
            return
        try:
            self.set_socket_options(connection)
        except OSError:
            connection.close()
            return
        self.channel_class(self, connection, self.fix_addr(address), self.adj, map=self.socket_map)

    def connections_from(self, host: str) -> int:
        """Open connections from `host` over every socket this server listens on (they share one map)."""
        channels = [d for d in list(self.socket_map.values()) if isinstance(d, HTTPChannel)]
        return len([channel for channel in channels if _host_of(channel.addr) == host])

    def maintenance(self, now: float) -> None:
        cutoff = now - self.request_timeout
        active: dict[int, HTTPChannel] = self.__dict__["active_channels"]  # a dict; the stubs say otherwise
        for channel in list(active.values()):
            since = channel.waiting_since() if isinstance(channel, GuardedChannel) else None
            if since is not None and since < cutoff:
                channel.will_close = True


def _host_of(address: Any) -> str:
    return str(address[0]) if isinstance(address, tuple) else str(address)


def make_server(
    app: Flask,
    host: str,
    port: int,
    *,
    per_address: int = CONNECTIONS_PER_ADDRESS,
    request_timeout: float = REQUEST_TIMEOUT,
) -> Server:
    """A bound waitress server (call `.run()`); raises OSError if the address is taken."""
    adjustments = Adjustments(
        host=host,
        port=port,
        threads=THREADS,
        connection_limit=CONNECTION_LIMIT,
        outbuf_high_watermark=OUTBUF_HIGH_WATERMARK,
        max_request_body_size=MAX_REQUEST_BODY,
        ident="minotaur-companion",
        cleanup_interval=1,  # how often maintenance looks for connections past REQUEST_TIMEOUT
    )
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adjustments.threads)
    shared_map: dict[int, Any] = {}
    servers: list[GuardedServer] = []
    try:
        for sockinfo in adjustments.listen:  # one socket per address `host` names (IPv4, IPv6)
            servers.append(
                GuardedServer(
                    app,
                    socket_map=shared_map,
                    dispatcher=dispatcher,
                    adj=adjustments,
                    sockinfo=sockinfo,
                    per_address=per_address,
                    request_timeout=request_timeout,
                )
            )
    except OSError:
        for server in servers:
            server.close()
        dispatcher.shutdown(timeout=1)
        raise
    if len(servers) == 1:
        return servers[0]
    listening = [(str(server.getsockname()[0]), int(server.getsockname()[1])) for server in servers]
    return MultiSocketServer(shared_map, adjustments, listening, dispatcher, servers[-1].log_info)


def bound_port(server: Server, requested: int) -> int:
    """The port listened on: the one the system chose if `requested` was 0."""
    return int(server.getsockname()[1]) if isinstance(server, BaseWSGIServer) else requested
