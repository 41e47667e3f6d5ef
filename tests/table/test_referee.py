from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.games import CHANCE
from companion.record.store import RecordStore
from companion.table.broadcast import Published
from companion.table.inputs import (
    NewGame,
    Reply,
    ResumeGame,
    SetAutoplay,
    SubmitAction,
    Undo,
)
from companion.table.referee import Referee

from .conftest import event_count
from .toygame import RACE, SECRET_KEY, Coin, Step

NAMES = ["Ariadne", "Theseus"]


def new_race(referee: Referee, goal: int = 6) -> int:
    reply = referee.call(NewGame("toy-race", {"goal": goal}, NAMES), source="host")
    assert reply.ok, reply.error
    assert reply.game_id is not None
    return reply.game_id


def act(referee: Referee, action: object, source: str = "host") -> Reply:
    return referee.call(SubmitAction(action), source=source)  # type: ignore[arg-type]


def test_inputs_are_applied_in_the_order_they_were_queued(referee: Referee, db_path: Path) -> None:
    game_id = new_race(referee)
    moves = [Step(0, 2), Coin(CHANCE, True), Step(1, 1), Coin(CHANCE, False), Step(0, 1)]
    futures = [
        referee.submit(SubmitAction(move), source="camera" if move.by == CHANCE else "host") for move in moves
    ]
    replies = [future.result(5) for future in futures]

    assert [reply.event.seq for reply in replies if reply.event] == [1, 2, 3, 4, 5]
    recorded = RecordStore(db_path).events(game_id)
    assert [RACE.action_from_json(event.action) for event in recorded] == moves
    assert [event.source for event in recorded] == ["host", "camera", "host", "camera", "host"]
    state = referee.snapshot().state
    assert state is not None and state.public_view()["places"] == [4, 1]


@pytest.mark.parametrize(
    ("command", "error_type", "rule"),
    [
        (SubmitAction(Step(1, 1)), "RuleError", "turn order"),
        (SubmitAction(Step(0, 3)), "RuleError", "step size"),
        (SubmitAction(Coin(CHANCE, True)), "RuleError", "turn order"),
        (SubmitAction({"kind": "step", "by": 0}), "ActionFormatError", None),
        (SubmitAction({"kind": "fly", "by": 0}), "ActionFormatError", None),
        (SubmitAction({"kind": "step", "by": 0, "size": "two"}), "ActionFormatError", None),
        (SubmitAction(Step(0, 1), after=7), "StaleInputError", None),
        (SubmitAction(Step(0, 1), game_id=999), "StaleInputError", None),
        (Undo(), "NothingToUndoError", None),
        (NewGame("toy-race", {"goal": 0}, NAMES), "SetupError", None),
        (NewGame("toy-race", {"speed": 3}, NAMES), "SetupError", None),
        (NewGame("toy-race", {}, ["Ariadne"]), "SetupError", None),
        (NewGame("chess", {}, NAMES), "UnknownGameError", None),
        (NewGame("toy-race", {}, NAMES, replacing=999), "StaleInputError", None),
        (SetAutoplay(True), "TableError", None),
        (ResumeGame(999), "GameNotFoundError", None),
    ],
)
def test_a_refused_input_gets_the_reason_and_writes_nothing(
    referee: Referee, db_path: Path, command: object, error_type: str, rule: str | None
) -> None:
    new_race(referee)
    published_before = referee.latest()

    reply = referee.call(command, source="host")  # type: ignore[arg-type]

    assert not reply.ok
    assert reply.error_type == error_type
    assert reply.rule == rule
    if rule is not None:
        assert f"(rule: {rule})" in (reply.error or "")
    assert event_count(db_path) == 0
    assert len(RecordStore(db_path).list_games()) == 1
    assert referee.latest() is published_before, "a refused input published a new view"


def test_inputs_without_a_game_are_refused(referee: Referee, db_path: Path) -> None:
    for command in (SubmitAction(Step(0, 1)), Undo()):
        reply = referee.call(command, source="host")
        assert reply.error_type == "NoGameError"
        assert "start a new game" in (reply.error or "")
    assert not db_path.exists() or event_count(db_path) == 0


def test_every_change_is_published_to_subscribers_with_its_event_seq(referee: Referee) -> None:
    received: list[Published] = []
    unsubscribe = referee.broadcaster.subscribe(received.append)
    game_id = new_race(referee)
    act(referee, Step(0, 2))
    act(referee, Coin(CHANCE, True))
    unsubscribe()
    act(referee, Step(1, 1))

    assert [message.payload["seq"] for message in received] == [0, 1, 2]
    assert all(message.payload["game"]["id"] == game_id for message in received)
    last = received[-1].payload
    assert last["public"] == {"places": [3, 0], "goal": 6}
    assert last["to_act"] == {"seats": [1], "waiting_for": "seat 1 to step", "chance": False}
    assert [entry["label"] for entry in last["legal"]] == ["step 1", "step 2"]
    assert json.loads(received[-1].data) == last


def test_published_views_hold_only_what_every_player_may_see(referee: Referee) -> None:
    new_race(referee)
    act(referee, Step(0, 1))
    act(referee, Coin(CHANCE, True))
    act(referee, Step(1, 2))

    data = referee.latest().data
    assert SECRET_KEY not in data
    log = referee.latest().payload["log"]
    # The coin is no longer the latest event: the log keeps the question, not the answer.
    assert [entry["label"] for entry in log] == [
        "step 1",
        "answered the coin for seat 0 (hidden now)",
        "step 2",
    ]
    act(referee, Coin(CHANCE, False))
    assert referee.latest().payload["log"][-1]["label"] == "coin shows tails"


def test_undo_is_a_new_event_and_the_log_says_what_it_took_back(referee: Referee, db_path: Path) -> None:
    game_id = new_race(referee)
    act(referee, Step(0, 2))
    reply = referee.call(Undo(after=1), source="host")

    assert reply.ok and reply.event is not None
    assert (reply.event.seq, reply.event.kind) == (2, "undo")
    assert [event.kind for event in RecordStore(db_path).events(game_id)] == ["action", "undo"]
    payload = referee.latest().payload
    assert payload["public"]["places"] == [0, 0]
    assert [(entry["label"], entry["undone"]) for entry in payload["log"]] == [
        ("step 2", True),
        ("undo: step 2", False),
    ]


def test_a_new_referee_on_the_same_record_resumes_the_unfinished_game(db_path: Path) -> None:
    first = Referee(db_path)
    first.start()
    game_id = new_race(first)
    act(first, Step(0, 2))
    act(first, Coin(CHANCE, True))
    act(first, Step(1, 1))
    before = first.snapshot()
    first.stop()

    second = Referee(db_path)
    second.start()
    try:
        resumed = second.snapshot()
        assert resumed.game_id == game_id
        assert resumed.seq == 3
        assert resumed.state is not None and before.state is not None
        assert resumed.state.to_json() == before.state.to_json()
        assert second.latest().payload["log"] == first.latest().payload["log"]
        reply = act(second, Coin(CHANCE, False), source="simulator")
        assert reply.ok and reply.event is not None and reply.event.seq == 4
    finally:
        second.stop()


def test_finished_games_are_not_resumed_and_the_newest_unfinished_one_is_current(db_path: Path) -> None:
    first = Referee(db_path)
    first.start()
    older = new_race(first)
    finished = new_race(first, goal=1)
    act(first, Step(0, 1))
    act(first, Coin(CHANCE, False))
    ended = first.snapshot().state
    assert ended is not None and ended.is_over()
    newer = new_race(first)
    first.stop()

    second = Referee(db_path)
    second.start()
    try:
        assert second.snapshot().game_id == newer
        assert second.latest().payload["table"]["unfinished"] == [
            {"id": older, "title": "Toy race", "names": NAMES}
        ]
        refused = second.call(ResumeGame(finished), source="host")
        assert refused.error_type == "TableError" and "finished" in (refused.error or "")
        assert second.call(ResumeGame(older), source="host").ok
        assert second.snapshot().game_id == older
    finally:
        second.stop()


def test_a_stopped_referee_refuses_inputs(db_path: Path) -> None:
    referee = Referee(db_path)
    referee.start()
    referee.stop()
    with pytest.raises(ValueError, match="not running"):
        referee.submit(Undo(), source="host")


def test_autoplay_is_switched_through_the_loop_in_simulation(db_path: Path) -> None:
    referee = Referee(db_path, simulate=True)
    referee.start()
    try:
        assert referee.latest().payload["table"]["autoplay"] is True
        assert referee.call(SetAutoplay(False), source="host").ok
        assert referee.latest().payload["table"]["autoplay"] is False
        assert referee.snapshot().autoplay is False
    finally:
        referee.stop()


def test_undoing_a_table_answer_does_not_repeat_what_it_showed(referee: Referee) -> None:
    new_race(referee)
    act(referee, Step(0, 1))
    act(referee, Coin(CHANCE, True))
    assert referee.call(Undo(), source="host").ok

    log = referee.latest().payload["log"]
    assert [(entry["label"], entry["undone"]) for entry in log] == [
        ("step 1", False),
        ("answered the coin for seat 0 (hidden now)", True),
        ("undo: the answer to the coin for seat 0", False),
    ]
