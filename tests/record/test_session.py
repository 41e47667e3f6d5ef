from __future__ import annotations

from pathlib import Path

import pytest

from companion.games import CHANCE, RuleError
from companion.record.session import GameSession, NothingToUndoError
from companion.record.store import RecordStore

from .conftest import play, row_counts
from .toy import Add, Start


def new_session(store: RecordStore, goal: int = 10) -> GameSession:
    return GameSession.create(store, "toy-count", {"goal": goal}, ["Ann", "Bob"])


def test_apply_updates_state_history_and_record(store: RecordStore) -> None:
    session = new_session(store)
    event = session.apply(Start(CHANCE, 1), source="camera", evidence={"frame": 3})
    session.apply(Add(1, 2), source="host")

    assert (event.seq, event.kind, event.source, event.evidence) == (1, "action", "camera", {"frame": 3})
    assert event.action == {"kind": "start", "by": -1, "seat": 1}
    assert session.history == [Start(CHANCE, 1), Add(1, 2)]
    assert session.state.scores() == [0, 2]
    assert [e.seq for e in store.events(session.game_id)] == [1, 2]
    assert session.info.events == store.info(session.game_id).events == 2


def test_an_illegal_action_raises_and_writes_nothing(store: RecordStore, db_path: Path) -> None:
    session = new_session(store)
    play(session, 1)
    before = session.state.to_json()
    with pytest.raises(RuleError, match="not seat 0's turn"):
        session.apply(Add(0, 1), source="host")
    with pytest.raises(RuleError, match="add 1 to 3"):
        session.apply(Add(1, 5), source="host")
    assert session.state.to_json() == before
    assert row_counts(db_path) == (1, 2)


def test_undo_reverts_the_last_effective_action_repeatedly(store: RecordStore) -> None:
    session = new_session(store)
    states = [session.state.to_json()]
    play(session)
    states.append(session.state.to_json())
    for amount in (1, 2, 3):
        play(session, amount)
        states.append(session.state.to_json())

    for expected in reversed(states[:-1]):
        session.undo(source="host")
        assert session.state.to_json() == expected
    assert session.history == []
    kinds = [event.kind for event in store.events(session.game_id)]
    assert kinds == ["action"] * 4 + ["undo"] * 4, "undo appends; nothing is erased"


def test_undo_after_new_actions_reverts_the_newest(store: RecordStore) -> None:
    session = new_session(store)
    play(session, 1, 2)
    session.undo(source="host")
    play(session, 3)
    session.undo(source="host")
    session.undo(source="host")
    assert session.history == [Start(CHANCE, 0)]
    assert GameSession.load(store, session.game_id).history == [Start(CHANCE, 0)]


def test_undo_with_nothing_to_undo_is_refused_and_writes_nothing(store: RecordStore, db_path: Path) -> None:
    session = new_session(store)
    with pytest.raises(NothingToUndoError, match="no action has been taken yet"):
        session.undo(source="host")
    play(session)
    session.undo(source="host")
    with pytest.raises(NothingToUndoError, match="every action is undone already"):
        session.undo(source="host")
    assert row_counts(db_path) == (1, 2)


def test_finishing_marks_the_game_and_undo_reopens_it(store: RecordStore) -> None:
    session = new_session(store, goal=4)
    play(session, 3)
    assert store.unfinished_games()[0].game_id == session.game_id
    play(session, 1)

    assert session.state.is_over()
    assert session.info.finished and store.info(session.game_id).finished
    assert store.unfinished_games() == []
    with pytest.raises(RuleError, match="game is over"):
        session.apply(Add(0, 1), source="host")

    session.undo(source="host")
    assert not session.state.is_over()
    assert not session.info.finished and not store.info(session.game_id).finished
    assert [info.game_id for info in store.unfinished_games()] == [session.game_id]
    play(session, 2)
    assert session.state.scores() == [3, 2] and store.info(session.game_id).finished


def test_load_resumes_exactly_where_the_game_stood(store: RecordStore, db_path: Path) -> None:
    session = new_session(store)
    play(session, 3, 1, 2)
    session.undo(source="host")
    play(session, 1)

    with RecordStore(db_path) as reopened:
        loaded = GameSession.load(reopened, session.game_id)
        assert loaded.state.to_json() == session.state.to_json()
        assert loaded.history == session.history
        assert loaded.info == session.info
        loaded.undo(source="host")
        loaded.undo(source="host")
        assert loaded.state.scores() == [3, 0]


def test_create_refuses_a_bad_setup_before_writing(store: RecordStore, db_path: Path) -> None:
    with pytest.raises(ValueError, match="goal=0"):
        GameSession.create(store, "toy-count", {"goal": 0}, ["Ann", "Bob"])
    assert row_counts(db_path) == (0, 0)
