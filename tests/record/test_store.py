from __future__ import annotations

import sqlite3
import threading
from contextlib import closing
from pathlib import Path

import pytest

from companion.games import SetupError
from companion.record.store import Event, GameNotFoundError, RecordStore, RecordStoreError

from .conftest import row_counts


def test_round_trip_of_games_and_events(store: RecordStore) -> None:
    game_id = store.create_game("toy-count", {"goal": 12}, ["Ann", "Bob"])
    first = store.append(
        game_id,
        "action",
        action={"kind": "start", "by": -1, "seat": 1},
        source="sensor",
        evidence={"beam": [1, 0]},
    )
    second = store.append(game_id, "undo", source="host")

    assert store.events(game_id) == [first, second]
    assert first == Event(
        game_id, 1, first.at, "action", "sensor", {"kind": "start", "by": -1, "seat": 1}, {"beam": [1, 0]}
    )
    assert (second.seq, second.kind, second.action, second.evidence) == (2, "undo", None, None)
    info = store.info(game_id)
    assert (info.game, info.names, info.events, info.finished) == ("toy-count", ["Ann", "Bob"], 2, False)
    assert info.options == {"players": 2, "goal": 12, "max_add": 3}, "options are stored completed"


def test_records_survive_reopening(db_path: Path) -> None:
    with RecordStore(db_path) as store:
        game_id = store.create_game("toy-count", {}, ["Ann", "Bob"])
        appended = store.append(game_id, "action", action={"kind": "start", "by": -1, "seat": 0})
    with RecordStore(db_path) as reopened:
        assert reopened.events(game_id) == [appended]
        assert [info.game_id for info in reopened.list_games()] == [game_id]


def test_list_unfinished_and_set_finished(store: RecordStore) -> None:
    first = store.create_game("toy-count", {}, ["Ann", "Bob"])
    second = store.create_game("toy-count", {"players": 3}, ["A", "B", "C"])
    store.set_finished(first, True)

    assert [(info.game_id, info.finished) for info in store.list_games()] == [(first, True), (second, False)]
    assert [info.game_id for info in store.unfinished_games()] == [second]
    store.set_finished(first, False)
    assert [info.game_id for info in store.unfinished_games()] == [first, second]


def test_append_can_set_finished_in_the_same_transaction(store: RecordStore) -> None:
    game_id = store.create_game("toy-count", {}, ["Ann", "Bob"])
    store.append(game_id, "action", action={"kind": "start", "by": -1, "seat": 0}, finished=True)
    assert store.info(game_id).finished is True


def test_durability_settings(store: RecordStore, db_path: Path) -> None:
    assert store.durability() == {"journal_mode": "wal", "synchronous": "FULL"}
    with closing(sqlite3.connect(db_path)) as other:
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal", "WAL is a property of the file"


def test_reader_threads_get_the_same_durability_settings(store: RecordStore) -> None:
    seen: list[dict[str, str]] = []
    reader = threading.Thread(target=lambda: seen.append(store.durability()))
    reader.start()
    reader.join()
    assert seen == [{"journal_mode": "wal", "synchronous": "FULL"}]


def test_an_appended_event_is_committed_when_append_returns(store: RecordStore, db_path: Path) -> None:
    game_id = store.create_game("toy-count", {}, ["Ann", "Bob"])
    store.append(game_id, "action", action={"kind": "start", "by": -1, "seat": 0})
    with closing(sqlite3.connect(db_path)) as other:
        assert other.execute("SELECT seq, kind FROM events").fetchall() == [(1, "action")]


def test_readers_in_other_threads_see_a_consistent_record(store: RecordStore) -> None:
    game_id = store.create_game("toy-count", {"goal": 10**6}, ["Ann", "Bob"])
    stop = threading.Event()
    problems: list[str] = []

    def read() -> None:
        while not stop.is_set():
            seqs = [event.seq for event in store.events(game_id)]
            if seqs != list(range(1, len(seqs) + 1)):
                problems.append(f"gap in {seqs}")
            store.list_games()

    readers = [threading.Thread(target=read) for _ in range(2)]
    for reader in readers:
        reader.start()
    for _ in range(200):
        store.append(game_id, "action", action={"kind": "add", "by": 0, "amount": 1})
    stop.set()
    for reader in readers:
        reader.join()
    assert problems == []
    assert [event.seq for event in store.events(game_id)] == list(range(1, 201))


def test_create_game_refuses_bad_setup_and_writes_nothing(store: RecordStore, db_path: Path) -> None:
    with pytest.raises(SetupError, match="players=7"):
        store.create_game("toy-count", {"players": 7}, ["A"] * 7)
    with pytest.raises(SetupError, match="unknown option"):
        store.create_game("toy-count", {"colour": "red"}, ["Ann", "Bob"])
    with pytest.raises(SetupError, match="1 name"):
        store.create_game("toy-count", {}, ["Ann"])
    assert row_counts(db_path) == (0, 0)


@pytest.mark.parametrize(
    ("kind", "action", "source", "evidence", "message"),
    [
        ("move", {"kind": "add"}, "host", None, "unknown event kind"),
        ("action", None, "host", None, "needs an action"),
        ("undo", {"kind": "add"}, "host", None, "carries no action"),
        ("undo", None, "", None, "source"),
        ("undo", None, "host", {"reading": float("nan")}, "evidence is not plain JSON"),
        ("undo", None, "host", {"reading": object()}, "evidence is not plain JSON"),
    ],
)
def test_append_refuses_malformed_events(
    store: RecordStore,
    db_path: Path,
    kind: str,
    action: dict[str, object] | None,
    source: str,
    evidence: dict[str, object] | None,
    message: str,
) -> None:
    game_id = store.create_game("toy-count", {}, ["Ann", "Bob"])
    with pytest.raises(RecordStoreError, match=message):
        store.append(game_id, kind, action=action, source=source, evidence=evidence)
    assert row_counts(db_path) == (1, 0)


def test_unknown_game_ids_are_refused(store: RecordStore) -> None:
    with pytest.raises(GameNotFoundError, match="no game with id 42"):
        store.info(42)
    with pytest.raises(GameNotFoundError):
        store.events(42)
    with pytest.raises(GameNotFoundError):
        store.append(42, "undo")
    with pytest.raises(GameNotFoundError):
        store.set_finished(42, True)
