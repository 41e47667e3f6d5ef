"""kill -9 at random moments must lose no acknowledged event and leave a record that replays."""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

from companion.record.session import GameSession
from companion.record.store import Event, RecordStore

APPEND_LOOP = Path(__file__).with_name("append_loop.py")
ROUNDS = 8

Ack = tuple[int, str, dict[str, object] | None]


def run_until_killed(db_path: Path, game_id: int, seed: int, rng: random.Random) -> list[Ack]:
    """Start the loop, let it acknowledge a random number of events, kill it at a random moment after."""
    loop = subprocess.Popen(
        [sys.executable, str(APPEND_LOOP), str(db_path), str(game_id), str(seed)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert loop.stdout is not None and loop.stderr is not None
    lines: list[str] = []
    try:
        for _ in range(rng.randint(1, 80)):
            line = loop.stdout.readline()
            assert line, f"the append loop died by itself: {loop.stderr.read()}"
            lines.append(line)
        # Not a timing assertion: only a way to land the kill at a different point of the append each round.
        time.sleep(rng.choice([0, 0, rng.uniform(0, 0.005)]))
    finally:
        loop.send_signal(signal.SIGKILL)
        loop.wait()
    assert loop.returncode == -signal.SIGKILL
    lines += loop.stdout.read().splitlines(keepends=True)
    loop.stdout.close()
    loop.stderr.close()
    acks = []
    for line in lines:
        if line.endswith("\n"):  # a line cut by the kill was never seen whole, so never acknowledged
            seq, kind, action = line.split(" ", 2)
            acks.append((int(seq), kind, json.loads(action)))
    return acks


def check_record(db_path: Path, game_id: int, acks: list[Ack]) -> list[Event]:
    with closing(sqlite3.connect(db_path)) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    with RecordStore(db_path) as store:
        events = store.events(game_id)
        for seq, kind, action in acks:
            assert seq <= len(events), f"acknowledged event {seq} is lost; the record has {len(events)}"
            assert (events[seq - 1].kind, events[seq - 1].action) == (kind, action)
        session = GameSession.load(store, game_id)
    effective = sum(1 if event.kind == "action" else -1 for event in events)
    assert len(session.history) == effective
    state = session.state.to_json()
    assert state["total"] == sum(state["points"]) and not session.state.is_over()
    return events


def test_kill_9_at_random_moments_loses_no_acknowledged_event(db_path: Path) -> None:
    with RecordStore(db_path) as store:
        game_id = store.create_game("toy-count", {"goal": 10**9}, ["Ann", "Bob"])
    rng = random.Random(20240501)
    recorded = 0
    for seed in range(ROUNDS):
        acks = run_until_killed(db_path, game_id, seed, rng)
        assert acks, "every round acknowledges at least one event before the kill"
        assert acks[0][0] == recorded + 1, "each run continues the same game where the last one stopped"
        assert [ack[0] for ack in acks] == list(range(acks[0][0], acks[-1][0] + 1))
        events = check_record(db_path, game_id, acks)
        recorded = len(events)
    assert recorded > ROUNDS
