"""`companion bench scoreboard`: many phones on the real daemon, the delay until each sees each event.

The daemon is started as `companion run` would be started on the Pi (a
subprocess under waitress, on loopback, with a fresh record). The phones are
plain SSE clients on one asyncio loop, so a phone costs a socket, not a
thread, and the measuring side stays light. The host signs in with the PIN and
enters one Minotaurus action at a time (chosen at random from the legal ones
the last reply listed); the next one goes only after every phone has seen the
last. For each phone and event the figure is the time from the moment the
host's request is sent to the moment the phone has read the event's id line:
the whole path of an action through the referee, the record's commit, the
publication and the stream. The daemon's memory is its resident set from
/proc while every phone is connected.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import math
import os
import queue
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

PIN = "24680"
STARTUP_SECONDS = 30.0
EVENT_PATIENCE = 5.0
"""Seconds an event may take to reach every phone before it counts as missed there."""
GOALS = {"p99_ms": 100.0, "rss_mb": 120.0}


class BenchError(ValueError):
    """The bench could not run as asked (the daemon did not start, a phone could not connect)."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@contextlib.contextmanager
def _daemon(db: Path, port: int) -> Iterator[subprocess.Popen[str]]:
    env = {key: value for key, value in os.environ.items() if key != "COMPANION_DB"}
    command = [sys.executable, "-m", "companion", "run", "--port", str(port), "--pin", PIN, "--no-mdns"]
    process = subprocess.Popen(
        [*command, "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env
    )
    try:
        _wait_for_start(process)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_for_start(process: subprocess.Popen[str]) -> None:
    """Until the daemon says it serves; its output is read to the end by a thread, so it never blocks."""
    lines: queue.Queue[str] = queue.Queue()

    def drain() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)
        lines.put("")

    threading.Thread(target=drain, name="daemon-output", daemon=True).start()
    deadline = time.monotonic() + STARTUP_SECONDS
    with contextlib.suppress(queue.Empty):
        while (line := lines.get(timeout=max(0.0, deadline - time.monotonic()))) != "":
            if line.startswith("Game record:"):
                return
    raise BenchError("the daemon did not start (companion run printed no 'Game record:' line)")


def _memory_mb(pid: int) -> dict[str, float]:
    """Resident and peak resident memory of a process, from /proc (Linux)."""
    figures: dict[str, float] = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                figures[name] = int(value.split()[0]) / 1024
    return {"rss_mb": round(figures["VmRSS"], 1), "peak_rss_mb": round(figures["VmHWM"], 1)}


class _Host:
    """The host's phone: signs in, starts a game, enters actions (blocking HTTP, run in a worker thread)."""

    def __init__(self, port: int, seed: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = {"Content-Type": "application/json"}
        self.rng = random.Random(seed)
        self.state: dict[str, Any] = {}

    def post(self, path: str, payload: dict[str, Any]) -> tuple[int, dict[str, Any], str]:
        self.connection.request("POST", path, body=json.dumps(payload), headers=self.headers)
        response = self.connection.getresponse()
        data = json.loads(response.read())
        return response.status, data, response.getheader("Set-Cookie", "")

    def sign_in_and_start(self) -> None:
        status, data, cookie = self.post("/api/host/sign-in", {"pin": PIN})
        if status != 200:
            raise BenchError(f"the host could not sign in: {data}")
        self.headers.update(Cookie=cookie.split(";")[0], **{"X-CSRF-Token": data["csrf_token"]})
        self.new_game()

    def new_game(self) -> None:
        status, data, _ = self.post("/api/games", {"game": "minotaurus", "options": {"players": 4}})
        if status != 201:
            raise BenchError(f"the host could not start a game: {data}")
        self.state = data["state"]

    def choices(self) -> list[dict[str, Any]]:
        """The seats' legal actions from the public view, or the table's answers (the host's alone)."""
        if not self.state["to_act"]["chance"]:
            legal: list[dict[str, Any]] = self.state["legal"]
            return legal
        self.connection.request("GET", "/api/answers", headers=self.headers)
        response = self.connection.getresponse()
        data = json.loads(response.read())
        if response.status != 200:
            raise BenchError(f"the host could not read the table's answers: {data}")
        answers: list[dict[str, Any]] = data["answers"]
        return answers

    def act(self) -> str:
        """Enter one legal action; returns the id of the view that publishes it."""
        if self.state["game"]["finished"]:
            self.new_game()
        choice = self.rng.choice(self.choices())
        status, data, _ = self.post("/api/actions", {"action": choice["action"], "after": self.state["seq"]})
        if status != 200:
            raise BenchError(f"the host's action was refused: {data}")
        self.state = data["state"]
        return str(self.state["id"])


def _phone_address(index: int) -> str:
    """A loopback address of its own for each phone (all of 127/8 is the loopback on Linux), as phones at a
    table have: the daemon caps the connections of one address."""
    return f"127.0.{1 + index // 250}.{1 + index % 250}"


async def _phone(port: int, index: int, arrivals: dict[str, list[float]], count: list[int]) -> None:
    reader, writer = await asyncio.open_connection(
        "127.0.0.1", port, limit=1 << 20, local_addr=(_phone_address(index), 0)
    )
    writer.write(
        f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    status = await reader.readline()
    if b" 200 " not in status:
        raise BenchError(f"a phone's stream was refused: {status.decode().strip()}")
    first = True
    try:
        while True:
            line = await reader.readline()
            if not line:
                return
            if line.startswith(b"id: "):
                arrivals.setdefault(line[4:].strip().decode(), []).append(time.perf_counter())
                if first:  # the stream is open: its first message is the current view
                    count[0], first = count[0] + 1, False
    finally:
        writer.close()


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def _summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {"p50": math.nan, "p99": math.nan, "max": math.nan, "mean": math.nan}
    return {
        "p50": round(_percentile(values, 0.50), 2),
        "p99": round(_percentile(values, 0.99), 2),
        "max": round(max(values), 2),
        "mean": round(sum(values) / len(values), 2),
    }


async def _run(port: int, pid: int, phones: int, events: int, seed: int) -> dict[str, Any]:
    arrivals: dict[str, list[float]] = {}
    connected = [0]
    tasks = [asyncio.create_task(_phone(port, index, arrivals, connected)) for index in range(phones)]
    host = _Host(port, seed)
    await asyncio.to_thread(host.sign_in_and_start)
    deadline = time.monotonic() + STARTUP_SECONDS
    while connected[0] < phones:  # every phone has had its first view: all streams are open
        if time.monotonic() > deadline or any(task.done() for task in tasks):
            for task in tasks:
                if task.done() and task.exception() is not None:
                    raise BenchError(f"a phone failed: {task.exception()}")
            raise BenchError(f"only {connected[0]} of {phones} phones connected")
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.2)
    delays: list[float] = []
    replies: list[float] = []
    missed = 0
    for _ in range(events):
        sent = time.perf_counter()
        event_id = await asyncio.to_thread(host.act)
        replies.append(1000 * (time.perf_counter() - sent))
        until = time.monotonic() + EVENT_PATIENCE
        while len(arrivals.get(event_id, ())) < phones and time.monotonic() < until:
            await asyncio.sleep(0.001)
        seen = arrivals.get(event_id, [])
        missed += phones - len(seen)
        delays.extend(1000 * (arrived - sent) for arrived in seen)
        await asyncio.sleep(0.02)  # a table does not act in a burst; each event is its own
    memory = _memory_mb(pid)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    host.connection.close()
    latency = _summary(delays)
    return {
        "phones": phones,
        "events": events,
        "deliveries": len(delays),
        "missed": missed,
        "event_to_phone_ms": latency,
        "host_reply_ms": _summary(replies),
        "daemon_memory": memory,
        "goals": GOALS,
        "goals_met": {
            "p99_ms": latency["p99"] <= GOALS["p99_ms"] and missed == 0,
            "rss_mb": memory["rss_mb"] <= GOALS["rss_mb"],
        },
        "method": "companion run subprocess on loopback; SSE phones on one asyncio loop; from the host's "
        "POST being sent to each phone reading the event's id line; memory is VmRSS of the daemon process",
    }


def bench_scoreboard(phones: int = 50, events: int = 200, seed: int = 1) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-scoreboard-") as scratch:
        port = _free_port()
        with _daemon(Path(scratch) / "bench.db", port) as daemon:
            return asyncio.run(_run(port, daemon.pid, phones, events, seed))
