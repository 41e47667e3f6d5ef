"""`companion run` killed with SIGKILL at random moments resumes its game exactly where it stood.

The daemon plays a simulated game; it is killed mid-play, several times at
random moments. What the restarted daemon publishes must be the replay of the
record, and the record must be whole; then play goes on from there.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from companion.record.session import GameSession
from companion.record.store import RecordStore
from tests.web.test_serve import free_port, read_line

COMPANION = [sys.executable, "-m", "companion"]


def start(db: Path, *extra: str) -> tuple[subprocess.Popen[str], int]:
    port = free_port()
    process = subprocess.Popen(
        [*COMPANION, "run", "--port", str(port), "--db", str(db), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    lines = [read_line(process)]
    while "Scoreboard: http://" not in lines[-1]:
        assert len(lines) < 20 and lines[-1], f"companion run did not start: {lines}"
        lines.append(read_line(process))
    return process, port


def get_state(port: int) -> dict[str, Any]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=10) as response:
        state: dict[str, Any] = json.load(response)
    return state


def recorded_events(db: Path) -> int:
    with sqlite3.connect(db) as connection:
        (count,) = connection.execute("SELECT COUNT(*) FROM events").fetchone()
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    return int(count)


def test_killed_daemon_resumes_its_game_from_the_record(tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    rng = random.Random(11)
    seen_events = 0
    for round_number in range(3):
        process, port = start(
            db, "--simulate", "--delay", "0.005", "--seed", str(round_number), "--pause", "60"
        )
        deadline = time.monotonic() + 30
        while recorded_events(db) < seen_events + 20 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(rng.uniform(0.0, 0.3))
        process.send_signal(signal.SIGKILL)
        process.wait()
        events = recorded_events(db)
        assert events > seen_events, "the simulated table played on in every round"
        seen_events = events

        store = RecordStore(db)
        [unfinished] = store.unfinished_games()
        replayed = GameSession.load(store, unfinished.game_id)
        store.close()

        # Without --simulate nothing plays on: what it shows is only what it resumed.
        process, port = start(db)
        try:
            shown = get_state(port)
        finally:
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=20) == 0
        assert shown["game"]["id"] == unfinished.game_id
        assert shown["seq"] == unfinished.events == events
        assert shown["public"] == replayed.state.public_view()
        assert shown["to_act"]["seats"] == list(replayed.state.to_act().seats)
        assert recorded_events(db) == events, "resuming writes nothing"
