"""The league commits a backlog together and still answers every message in the order it came."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from companion.club.league import League
from companion.club.league_store import LeagueStore
from companion.club.messages import EventMessage, events_topic


def event(table: str, seq: int) -> EventMessage:
    return EventMessage(
        table=table,
        game_id=1,
        seq=seq,
        at="2026-11-27T19:00:00.000+00:00",
        kind="action",
        source="host",
        label=f"move {seq}",
        game="minoa",
        names=("Ann", "Bo"),
        finished=False,
        view={"seq": seq},
    )


def test_a_backlog_is_answered_in_order_once_committed_and_duplicates_stay_duplicates(tmp_path: Path) -> None:
    league = League(tmp_path / "league.db", "lions")
    answered: list[tuple[int, str]] = []
    all_done = threading.Event()
    messages = [(seq, event("t1", seq).encode()) for seq in range(1, 301)]
    messages += [(seq, event("t1", seq).encode()) for seq in (5, 6)]  # QoS 1 sent these twice
    messages.append((0, b"not json"))
    try:
        for seq, payload in messages:

            def done(outcome: str, seq: int = seq) -> None:
                answered.append((seq, outcome))
                if len(answered) == len(messages):
                    all_done.set()

            league.ingest_later(events_topic("lions", "t1"), payload, done)
        assert all_done.wait(30)
        assert [seq for seq, _ in answered] == [seq for seq, _ in messages], "answered in the order received"
        assert [outcome for _, outcome in answered[-3:]] == ["duplicate", "duplicate", "malformed"]
        assert league.counts["event"] == 300 and league.counts["duplicate"] == 2
        assert league.received() == {("t1", 1, seq) for seq in range(1, 301)}
    finally:
        league.close()


def test_one_refused_job_in_a_batch_leaves_the_others_committed(tmp_path: Path) -> None:
    store = LeagueStore(tmp_path / "league.db")
    gate = threading.Event()
    try:
        blocker = store.submit(lambda _c: gate.wait(10))  # holds the writer so the next three wait together

        def failing(_connection: sqlite3.Connection) -> None:
            raise ValueError("refused")

        first = store.add_event_later(event("t1", 1))
        refused = store.submit(failing)
        last = store.add_event_later(event("t1", 2))
        gate.set()
        assert blocker.result(10) is True
        assert first.result(10) is True and last.result(10) is True
        with pytest.raises(ValueError, match="refused"):
            refused.result(10)
        assert store.event_keys() == {("t1", 1, 1), ("t1", 1, 2)}
    finally:
        store.close()
