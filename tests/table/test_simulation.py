from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.games import CHANCE, Action, get_game
from companion.record.store import RecordStore
from companion.table.inputs import SetAutoplay, SubmitAction
from companion.table.referee import Referee, Snapshot
from companion.table.simulation import CHANCE_SOURCE, PLAYER_SOURCE, SimulationDriver

from .toygame import Step

PATIENCE = 30.0
"""Seconds before a test gives up waiting for the simulation (a hang, not a speed limit)."""


@pytest.fixture
def simulated(db_path: Path) -> Iterator[Referee]:
    referee = Referee(db_path, simulate=True)
    referee.start()
    yield referee
    referee.stop()


def wait_until(referee: Referee, done: object) -> Snapshot:
    deadline = time.monotonic() + PATIENCE
    snapshot = referee.snapshot()
    while not done(snapshot):  # type: ignore[operator]
        assert time.monotonic() < deadline, f"the simulation stalled at {snapshot}"
        snapshot = referee.wait_for_change(snapshot.published.event_id, timeout=1.0) or referee.snapshot()
    return snapshot


def is_over(snapshot: Snapshot) -> bool:
    return snapshot.state is not None and snapshot.state.is_over()


def play_to_the_end(referee: Referee, db_path: Path, game: str, players: int) -> None:
    driver = SimulationDriver(referee, game=game, players=players, seed=1, delay=0, pause=PATIENCE)
    driver.start()
    try:
        final = wait_until(referee, is_over)
    finally:
        driver.stop()
    assert final.game_id is not None
    store = RecordStore(db_path)
    assert store.info(final.game_id).finished
    events = store.events(final.game_id)
    assert len(events) == final.seq
    for event in events:
        assert event.action is not None
        expected = CHANCE_SOURCE if event.action["by"] == CHANCE else PLAYER_SOURCE
        assert event.source == expected
    assert len(store.list_games()) == 1, "a new game started before the pause was over"


def test_the_simulation_plays_a_toy_game_to_the_end_through_the_referee(
    simulated: Referee, db_path: Path
) -> None:
    play_to_the_end(simulated, db_path, "toy-race", players=3)


def test_the_simulation_plays_minotaurus_to_the_end_through_the_referee(
    simulated: Referee, db_path: Path
) -> None:
    try:
        get_game("minotaurus")
    except ImportError:
        pytest.skip("companion/games/minotaurus.py is not there yet")
    play_to_the_end(simulated, db_path, "minotaurus", players=3)


def test_a_finished_simulated_game_is_followed_by_a_new_one(simulated: Referee) -> None:
    driver = SimulationDriver(simulated, game="toy-race", players=2, seed=2, delay=0, pause=0)
    driver.start()
    try:
        first = wait_until(simulated, lambda snapshot: snapshot.game_id is not None)
        second = wait_until(simulated, lambda snapshot: snapshot.game_id != first.game_id)
    finally:
        driver.stop()
    assert first.game_id is not None and second.game_id == first.game_id + 1


def test_without_autoplay_the_simulator_answers_only_for_the_table(simulated: Referee) -> None:
    driver = SimulationDriver(simulated, game="toy-race", players=2, seed=3, delay=0)
    assert simulated.call(SetAutoplay(False), source="host").ok
    command, source = driver.decide(simulated.snapshot()) or (None, None)
    assert source == CHANCE_SOURCE and command is not None
    assert simulated.call(command, source=source).ok

    assert driver.decide(simulated.snapshot()) is None, "the simulator played a seat with autoplay off"
    assert simulated.call(SubmitAction(Step(0, 2)), source="host").ok
    decision = driver.decide(simulated.snapshot())
    assert decision is not None
    command, source = decision
    assert source == CHANCE_SOURCE
    assert isinstance(command, SubmitAction) and isinstance(command.action, Action)
    assert command.action.by == CHANCE


def test_a_simulated_input_decided_before_the_host_moved_is_refused_as_stale(simulated: Referee) -> None:
    driver = SimulationDriver(simulated, game="toy-race", players=2, seed=4, delay=0)
    command, source = driver.decide(simulated.snapshot()) or (None, None)
    assert command is not None and source is not None
    assert simulated.call(command, source=source).ok
    decided = driver.decide(simulated.snapshot())
    assert decided is not None

    assert simulated.call(SubmitAction(Step(0, 1)), source="host").ok
    reply = simulated.call(decided[0], source=decided[1])

    assert reply.error_type == "StaleInputError"
    assert simulated.snapshot().seq == 1


def test_simulation_settings_out_of_range_are_refused(simulated: Referee) -> None:
    with pytest.raises(ValueError, match="skill"):
        SimulationDriver(simulated, skill=1.5)
    with pytest.raises(ValueError, match="negative"):
        SimulationDriver(simulated, delay=-1)
