from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from companion.table.referee import Referee
from companion.web import create_app

from .conftest import TEST_CONFIG, start_race

KEEP_ALIVE = b": keep-alive\n\n"


class Stream:
    """An open event stream read through the test client, one chunk (one SSE block) at a time."""

    def __init__(self, client: FlaskClient, **kwargs: Any) -> None:
        self.response = client.get("/api/events", buffered=False, **kwargs)
        self._chunks: Iterator[bytes] = iter(self.response.response)  # type: ignore[arg-type]

    def next_block(self) -> bytes:
        return next(self._chunks)

    def next_message(self, skip_keep_alives: int = 20) -> tuple[str, dict[str, Any]]:
        """The next data message; keep-alives (every 0.05 s here) are skipped a bounded number of times."""
        for _ in range(skip_keep_alives):
            block = self.next_block()
            if block != KEEP_ALIVE:
                return parse(block)
        raise AssertionError("no message came")

    def close(self) -> None:
        self.response.close()


def parse(block: bytes) -> tuple[str, dict[str, Any]]:
    text = block.decode()
    assert text.endswith("\n\n"), f"an SSE block ends with a blank line: {text!r}"
    lines = text[:-2].split("\n")
    assert [line.split(": ", 1)[0] for line in lines] == ["id", "data"], text
    event_id, data = (line.split(": ", 1)[1] for line in lines)
    payload = json.loads(data)
    assert payload["id"] == event_id
    return event_id, payload


def test_a_stream_opens_with_the_current_view_then_pushes_each_change(client: FlaskClient) -> None:
    start_race(client)
    stream = Stream(client)
    try:
        assert stream.response.status_code == 200
        assert stream.response.mimetype == "text/event-stream"
        assert stream.response.headers["Cache-Control"] == "no-cache"
        assert stream.next_block() == b"retry: 1500\n\n"
        _, first = stream.next_message()
        assert (first["seq"], first["to_act"]["seats"]) == (0, [0])

        client.post("/api/actions", json={"action": {"kind": "step", "by": 0, "size": 1}})
        _, second = stream.next_message()
        assert second["seq"] == 1
        assert second["log"][-1]["label"] == "step 1"
        assert second["to_act"]["chance"] is True
    finally:
        stream.close()


def test_a_quiet_table_sends_keep_alive_comments(client: FlaskClient) -> None:
    stream = Stream(client)
    try:
        stream.next_block()
        stream.next_message()
        assert stream.next_block() == KEEP_ALIVE
    finally:
        stream.close()


def test_a_reconnecting_page_up_to_date_gets_only_what_is_new(client: FlaskClient) -> None:
    start_race(client)
    current = client.get("/api/state").get_json()["id"]
    stream = Stream(client, headers={"Last-Event-ID": current})
    try:
        stream.next_block()
        assert stream.next_block() == KEEP_ALIVE, "the page had this view already"
        client.post("/api/actions", json={"action": {"kind": "step", "by": 0, "size": 2}})
        event_id, view = stream.next_message()
        assert event_id != current and view["seq"] == 1
    finally:
        stream.close()


def test_a_reconnecting_page_that_missed_changes_catches_up_at_once(client: FlaskClient) -> None:
    start_race(client)
    missed_from = client.get("/api/state").get_json()["id"]
    client.post("/api/actions", json={"action": {"kind": "step", "by": 0, "size": 2}})
    client.post("/api/actions", json={"action": {"kind": "coin", "by": -1, "heads": False}})
    for kwargs in ({"headers": {"Last-Event-ID": missed_from}}, {"query_string": {"since": missed_from}}):
        stream = Stream(client, **kwargs)
        try:
            stream.next_block()
            _, view = stream.next_message()
            assert view["seq"] == 2
            assert [entry["seq"] for entry in view["log"]] == [1, 2], "the missed events are in the log"
        finally:
            stream.close()


def test_an_id_from_before_a_restart_never_matches(client: FlaskClient, referee: Referee) -> None:
    stream = Stream(client, headers={"Last-Event-ID": "0f0f0f0f-1"})
    try:
        stream.next_block()
        event_id, _ = stream.next_message()
        assert event_id == referee.latest().event_id
    finally:
        stream.close()


def test_streams_are_capped_and_a_closed_one_frees_its_place(referee: Referee) -> None:
    app: Flask = create_app({**TEST_CONFIG, "SSE_MAX_STREAMS": 1}, referee=referee)
    client = app.test_client()
    first = Stream(client)
    first.next_block()
    refused = client.get("/api/events")
    assert refused.status_code == 503
    assert refused.headers["Retry-After"] == "10"
    assert "too many live pages" in refused.get_json()["error"]
    first.close()
    second = Stream(client)
    try:
        assert second.response.status_code == 200
    finally:
        second.close()


def test_streams_end_when_the_referee_stops(db_path: Any) -> None:
    referee = Referee(db_path)
    referee.start()
    client = create_app(TEST_CONFIG, referee=referee).test_client()
    stream = Stream(client)
    stream.next_block()
    stream.next_message()
    referee.stop()
    assert list(stream._chunks) == []
    stream.close()
