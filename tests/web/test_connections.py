"""The server's own connections, through real sockets: one address cannot fill them, and a connection that
sends no request is closed soon, while a live event stream is not.

On Linux every 127.x.y.z is the loopback, so a client binds to 127.0.0.2 and the like to be another phone.
"""

from __future__ import annotations

import contextlib
import http.client
import select
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from companion.table.referee import Referee
from companion.web import create_app
from companion.web.server import CONNECTIONS_PER_ADDRESS, MAX_REQUEST_BODY, GuardedServer, Server, make_server

from .conftest import TEST_CONFIG, sign_in

PATIENCE = 10.0
"""Seconds before a read gives up (a hang guard, not a speed limit)."""
SHORT_TIMEOUT = 1.0
"""The request timeout of the test that waits for it (the daemon's is 10 s)."""


class Served:
    def __init__(self, app: Flask, server: Server) -> None:
        assert isinstance(server, GuardedServer)
        self.app = app
        self.server = server
        self.port = int(server.getsockname()[1])
        self.thread = threading.Thread(target=server.run, daemon=True)
        self.thread.start()

    def stop(self, referee: Referee) -> None:
        from waitress import wasyncore

        referee.broadcaster.close()  # the streams end, freeing their threads
        socket_map = self.server.socket_map
        trigger: Any = self.server.trigger  # the stubs call it an int
        trigger.pull_trigger(lambda: wasyncore.close_all(socket_map))  # run by the server's own loop
        self.thread.join(PATIENCE)
        self.server.task_dispatcher.shutdown(timeout=int(PATIENCE))


def serve(referee: Referee, **limits: Any) -> Served:
    app = create_app({**TEST_CONFIG, "SSE_KEEPALIVE": 0.2}, referee=referee)
    return Served(app, make_server(app, "127.0.0.1", 0, **limits))


@pytest.fixture
def served(referee: Referee) -> Iterator[Served]:
    running = serve(referee)
    yield running
    running.stop(referee)


@pytest.fixture
def served_short(referee: Referee) -> Iterator[Served]:
    running = serve(referee, request_timeout=SHORT_TIMEOUT)
    yield running
    running.stop(referee)


def connect(port: int, source: str) -> socket.socket:
    connection = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE, source_address=(source, 0))
    connection.setblocking(False)
    return connection


def closed_by_server(connection: socket.socket, wait: float = 0.0) -> bool:
    """True if the server has closed `connection` (it reads as ended or reset)."""
    readable, _, _ = select.select([connection], [], [], wait)
    if not readable:
        return False
    try:
        return connection.recv(1024) == b""
    except ConnectionResetError:
        return True


def still_open(connections: list[socket.socket], settle: float) -> list[socket.socket]:
    """The connections the server has not closed within `settle` seconds."""
    deadline = time.monotonic() + settle
    left = list(connections)
    while time.monotonic() < deadline:
        left = [connection for connection in left if not closed_by_server(connection)]
        time.sleep(0.05)
    return left


def get(port: int, path: str, source: str) -> tuple[int, bytes, float]:
    """Status, body and seconds taken of a GET from a phone at `source`."""
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE, source_address=(source, 0))
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read(), time.monotonic() - started
    finally:
        connection.close()


def test_one_address_holding_300_idle_connections_leaves_the_scoreboard_to_every_other_phone(
    served: Served,
) -> None:
    crowd = [connect(served.port, "127.0.0.1") for _ in range(300)]
    try:
        kept = still_open(crowd, settle=1.0)
        assert len(kept) == CONNECTIONS_PER_ADDRESS  # the rest were closed as they were accepted

        page, html, page_seconds = get(served.port, "/", "127.0.0.2")
        state, data, state_seconds = get(served.port, "/api/state", "127.0.0.2")
        assert page == 200 and b"<html" in html.lower()
        assert state == 200 and b'"table"' in data
        assert page_seconds < 2 and state_seconds < 2, (page_seconds, state_seconds)
        print(
            f"300 idle connections from one address: / in {page_seconds * 1000:.0f} ms, "
            f"/api/state in {state_seconds * 1000:.0f} ms from another"
        )
    finally:
        for connection in crowd:
            connection.close()


def test_the_cap_is_per_address_and_frees_a_place_when_a_connection_closes(served: Served) -> None:
    mine = [connect(served.port, "127.0.0.3") for _ in range(CONNECTIONS_PER_ADDRESS)]
    try:
        assert len(still_open(mine, settle=0.5)) == CONNECTIONS_PER_ADDRESS
        over = connect(served.port, "127.0.0.3")
        assert closed_by_server(over, wait=PATIENCE)
        elsewhere = [connect(served.port, "127.0.0.4") for _ in range(CONNECTIONS_PER_ADDRESS)]
        assert len(still_open(elsewhere, settle=0.5)) == CONNECTIONS_PER_ADDRESS
        mine.pop().close()
        time.sleep(0.3)
        status, _, _ = get(served.port, "/api/state", "127.0.0.3")
        assert status == 200
        for connection in elsewhere:
            connection.close()
    finally:
        for connection in mine:
            connection.close()


class Stream:
    """An event stream read line by line through a real socket."""

    def __init__(self, port: int, source: str) -> None:
        self.connection = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=PATIENCE, source_address=(source, 0)
        )
        self.connection.request("GET", "/api/events", headers={"Accept": "text/event-stream"})
        self.response = self.connection.getresponse()
        assert self.response.status == 200

    def next_data(self) -> str:
        while True:
            line = self.response.readline()
            assert line, "the stream was closed"
            if line.startswith(b"data: "):
                return line.decode()

    def close(self) -> None:
        self.connection.close()


def test_a_connection_that_sends_no_whole_request_is_closed_after_the_timeout_and_a_stream_lives_on(
    served_short: Served,
) -> None:
    stream = Stream(served_short.port, "127.0.0.5")
    idle = connect(served_short.port, "127.0.0.6")
    trickle = connect(served_short.port, "127.0.0.7")  # a request sent a byte at a time never ends
    trickle.send(b"GET / HTTP/1.1\r\nHost: table\r\n")
    try:
        stream.next_data()  # the current view, sent at once
        started = time.monotonic()
        while time.monotonic() - started < SHORT_TIMEOUT / 2:
            assert not closed_by_server(idle) and not closed_by_server(trickle)
            time.sleep(0.05)
        while time.monotonic() - started < 3 * SHORT_TIMEOUT + 1 and not closed_by_server(trickle):
            trickle.send(b"X")
            time.sleep(0.1)
        assert closed_by_server(trickle), "a trickled request held its connection past the timeout"
        assert closed_by_server(idle, wait=PATIENCE)
        closed_after = time.monotonic() - started
        assert closed_after < 3 * SHORT_TIMEOUT + 1

        # Long past the timeout (and the next look for late connections), the stream gets the next view.
        time.sleep(max(0.0, started + 2 * SHORT_TIMEOUT + 1.5 - time.monotonic()))
        host = served_short.app.test_client()
        sign_in(host)
        assert host.post("/api/games", json={"game": "toy-race", "names": ["Ann", "Bo"]}).status_code == 201
        assert '"toy-race"' in stream.next_data()
    finally:
        stream.close()
        idle.close()
        trickle.close()


def test_a_phone_that_asks_again_on_a_kept_connection_is_served(served_short: Served) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", served_short.port, timeout=PATIENCE)
    try:
        for _ in range(3):
            connection.request("GET", "/api/state")
            assert connection.getresponse().read()
            time.sleep(SHORT_TIMEOUT / 3)
    finally:
        connection.close()


def test_a_body_too_large_for_any_request_is_refused_before_it_is_buffered(served: Served) -> None:
    connection = socket.create_connection(("127.0.0.1", served.port), timeout=PATIENCE)
    try:
        length = 100 * MAX_REQUEST_BODY
        connection.sendall(
            f"POST /api/host/sign-in HTTP/1.1\r\nHost: table\r\nContent-Type: application/json\r\n"
            f"Content-Length: {length}\r\n\r\n".encode()
        )
        with contextlib.suppress(OSError):  # the server may close before the body is all sent
            connection.sendall(b" " * (2 * MAX_REQUEST_BODY))
        assert connection.recv(64).startswith(b"HTTP/1.1 413")
    finally:
        connection.close()
