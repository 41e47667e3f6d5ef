"""Serving the app under waitress, a production WSGI server, sized for a table full of phones.

Waitress writes each chunk of a streamed response to the socket as soon as
the app yields it (its send_bytes is 1), so Server-Sent Events arrive as they
happen; tests/web/test_serve.py checks that through a real socket.
"""

from __future__ import annotations

from flask import Flask
from waitress.server import BaseWSGIServer, MultiSocketServer, create_server

PHONES = 60
THREADS = PHONES + 20
"""Each live page holds a thread for its event stream; the rest serve page loads and the host."""
MAX_STREAMS = PHONES + 4
CONNECTION_LIMIT = 4 * PHONES
"""Browsers keep a few idle connections open besides the stream."""
OUTBUF_HIGH_WATERMARK = 64 * 1024
"""Waitress appends a connection's output to one buffer and frees it only once it is full (16 MB by default):
an event stream never ends, so each phone's buffer grew by every view it was sent (the scoreboard bench saw
the daemon pass 250 MB). A small mark lets buffers be rotated and freed, and holds back a stream whose phone
reads too slowly, which then skips views (it is sent only the latest)."""


Server = BaseWSGIServer | MultiSocketServer


def make_server(app: Flask, host: str, port: int) -> Server:
    """A bound waitress server (call `.run()`); raises OSError if the address is taken."""
    return create_server(
        app,
        host=host,
        port=port,
        threads=THREADS,
        connection_limit=CONNECTION_LIMIT,
        outbuf_high_watermark=OUTBUF_HIGH_WATERMARK,
        ident="minotaur-companion",
    )


def bound_port(server: Server, requested: int) -> int:
    """The port listened on: the one the system chose if `requested` was 0."""
    return int(server.getsockname()[1]) if isinstance(server, BaseWSGIServer) else requested
