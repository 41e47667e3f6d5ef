"""`companion run --simulate` for real: a subprocess, waitress, and a plain HTTP client reading the stream.

The check that matters: with the simulated players switched off, one host action
yields its event on the stream while the table is otherwise quiet. A server that
buffered the stream would hold that message back, and the read would time out.
"""

from __future__ import annotations

import http.client
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

PATIENCE = 20.0
"""Seconds before a read gives up (a hang guard, not a speed limit)."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def read_line(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        if not selector.select(PATIENCE):
            raise AssertionError("companion run printed nothing")
    return process.stdout.readline()


class EventStream:
    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE)
        self.connection.request("GET", "/api/events", headers={"Accept": "text/event-stream"})
        self.response = self.connection.getresponse()

    def messages(self) -> Iterator[dict[str, Any]]:
        """Each data message as it arrives (a read that waits longer than PATIENCE fails the test)."""
        fields: dict[str, str] = {}
        while True:
            line = self.response.readline()
            if not line:
                return
            text = line.decode().rstrip("\n")
            if text:
                name, _, value = text.partition(": ")
                fields[name] = value
            elif "data" in fields:
                yield json.loads(fields["data"])
                fields = {}
            else:
                fields = {}


HOST_PIN = "2468"


def post(
    port: int, path: str, payload: dict[str, Any], headers: dict[str, str] | None = None
) -> tuple[int, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE)
    try:
        connection.request(
            "POST",
            path,
            body=json.dumps(payload),
            headers={"Content-Type": "application/json", **(headers or {})},
        )
        response = connection.getresponse()
        cookie = response.getheader("Set-Cookie", "").split(";")[0]
        data = json.loads(response.read())
        return response.status, {**data, "cookie": cookie} if cookie else data
    finally:
        connection.close()


def host_headers(port: int) -> dict[str, str]:
    """Sign in with the table PIN: the session cookie and the CSRF token every host request carries."""
    status, reply = post(port, "/api/host/sign-in", {"pin": HOST_PIN})
    assert status == 200, reply
    return {"Cookie": reply["cookie"], "X-CSRF-Token": reply["csrf_token"]}


@pytest.fixture
def simulation(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], int]]:
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "COMPANION_DB"}
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "companion", "run", "--simulate"),
            *("--port", str(port), "--delay", "0.05", "--seed", "5", "--db", str(tmp_path / "simulation.db")),
            *("--pin", HOST_PIN),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    try:
        yield process, port
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_companion_run_simulate_streams_each_event_as_it_happens_and_stops_on_sigterm(
    simulation: tuple[subprocess.Popen[str], int],
) -> None:
    process, port = simulation
    assert read_line(process) == f"Scoreboard: http://127.0.0.1:{port}/\n"

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE)
    connection.request("GET", "/api/state")
    state = json.loads(connection.getresponse().read())
    connection.close()
    assert state["table"]["simulate"] is True

    stream = EventStream(port)
    assert stream.response.status == 200
    assert stream.response.getheader("Content-Type", "").startswith("text/event-stream")
    messages = stream.messages()
    seqs = []
    for view in messages:
        if view["game"] is not None:
            seqs.append(view["seq"])
        if len(seqs) >= 5:
            break
    assert seqs == sorted(seqs) and len(set(seqs)) == 5, f"the simulation did not play on: {seqs}"

    host = host_headers(port)
    status, _ = post(port, "/api/autoplay", {"on": False}, host)
    assert status == 200
    view = next(messages)
    while view["table"]["autoplay"] or view["to_act"]["chance"]:
        view = next(messages)  # the simulator still answers for the table, then the table waits for a seat
    seat = view["to_act"]["seats"][0]
    action = next(legal["action"] for legal in view["legal"] if legal["by"] == seat)
    status, reply = post(port, "/api/actions", {"action": action, "after": view["seq"]}, host)
    assert status == 200, reply
    assert next(messages)["seq"] == view["seq"] + 1

    process.send_signal(signal.SIGTERM)
    assert process.wait(PATIENCE) == 0
    leftover = list(messages)  # returns only because the server ends the stream; a hang times out
    assert all(view["table"]["autoplay"] is False for view in leftover)
    assert process.stdout is not None
    assert "Stopped" in process.stdout.read()
