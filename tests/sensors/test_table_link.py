"""Sensor verdicts through the referee loop, and the sensors' state on the published table view."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.games.minotaurus import Toss
from companion.sensors.clock import ManualClock
from companion.sensors.judge import TossJudge, TossSettings
from companion.sensors.nodelink import not_connected
from companion.sensors.pinmap import PinMap
from companion.sensors.table_link import CHANNEL, SensorTosses, tossing_seat
from companion.sensors.tossing import TossRunner
from companion.sim import make_simulator
from companion.table.inputs import NewGame, SetTableStatus, SubmitAction
from companion.table.referee import Referee, Snapshot

from .fakes import FakeSource, eventually

MS = 1000


@pytest.fixture
def referee(tmp_path: Path) -> Iterator[Referee]:
    started = Referee(tmp_path / "table.db")
    started.start()
    yield started
    started.stop()


def play_to_a_toss(referee: Referee, seed: int = 5) -> Snapshot:
    """Simulated players play Minotaurus until the game waits for a toss."""
    assert referee.call(NewGame("minotaurus", {"players": 3}, ["A", "B", "C"]), source="host").ok
    simulator = make_simulator("minotaurus", seed=seed)
    for _ in range(2000):
        snapshot = referee.snapshot()
        if tossing_seat(snapshot) is not None:
            return snapshot
        assert snapshot.state is not None
        to_act = snapshot.state.to_act()
        action = (
            simulator.observe(snapshot.state)
            if to_act.chance
            else simulator.choose(snapshot.state, to_act.seats[0])
        )
        assert referee.call(SubmitAction(action), source="autoplay").ok
    raise AssertionError("no toss in 2000 moves")


def sensor_status(referee: Referee) -> dict[str, object]:
    status: dict[str, object] = referee.latest().payload["table"].get("status", {}).get(CHANNEL, {})
    return status


class Rig:
    def __init__(self, referee: Referee, pinmap: PinMap, clock: ManualClock) -> None:
        self.source = FakeSource(pinmap)
        self.clock = clock
        self.runner = TossRunner(self.source, TossJudge(pinmap, TossSettings(), clock), lambda v: None)
        self.link = SensorTosses(referee, self.runner, source_name="fake")

    def ringer(self, horn: str = "left") -> None:
        t = self.clock.now
        self.source.edge(f"{horn}_tip_a", True, t)
        self.source.edge(f"{horn}_tip_a", False, t + 3 * MS)
        for name in self.source.pinmap.base_beams(horn):  # it comes to rest around the horn
            self.source.edge(name, True, t + 30 * MS)
        self.clock.now = t + 30 * MS + TossSettings().settle_ms * MS + TossSettings().grace_us
        self.runner.kick()


@pytest.fixture
def rig(referee: Referee, pinmap: PinMap, clock: ManualClock) -> Iterator[Rig]:
    made = Rig(referee, pinmap, clock)
    yield made
    made.link.stop()


def test_the_table_status_channel_is_published_and_never_recorded(referee: Referee) -> None:
    snapshot = play_to_a_toss(referee)
    assert referee.call(SetTableStatus("camera", {"state": "ok"}), source="camera").ok
    assert referee.latest().payload["table"]["status"] == {"camera": {"state": "ok"}}
    assert referee.call(SetTableStatus("camera", None), source="camera").ok
    assert "status" not in referee.latest().payload["table"]
    assert snapshot.game_id is not None
    assert len(referee.store.events(snapshot.game_id)) == snapshot.seq == referee.snapshot().seq


def test_a_sensor_verdict_becomes_the_toss_with_its_edges_as_evidence(referee: Referee, rig: Rig) -> None:
    snapshot = play_to_a_toss(referee)
    seat = tossing_seat(snapshot)
    rig.link.start()
    eventually(lambda: rig.runner.armed_seat == seat, "the judge armed for the tossing seat")
    eventually(lambda: sensor_status(referee).get("state") == "armed", "'toss now' on the scoreboard")
    assert snapshot.names[seat] in str(sensor_status(referee)["message"])
    rig.ringer()
    eventually(lambda: referee.snapshot().seq > snapshot.seq, "the toss recorded")
    assert snapshot.game_id is not None
    event = referee.store.events(snapshot.game_id)[-1]
    assert event.source == "sensor"
    assert event.action == {"kind": "toss", "by": -1, "player": seat, "success": True}
    assert event.evidence is not None and event.evidence["outcome"] == "success"
    assert [e["beam"] for e in event.evidence["edges"]] == [
        "left_tip_a",
        "left_tip_a",
        *rig.source.pinmap.base_beams("left"),
    ]
    assert event.evidence["settings"]["settle_ms"] == TossSettings().settle_ms and event.evidence["sure"]


def test_arming_waits_for_a_clear_horn_and_says_so(referee: Referee, rig: Rig) -> None:
    snapshot = play_to_a_toss(referee)
    rig.source.states["right_back_outer"] = True  # the last ring still lies on the figure
    asked_to_clear: list[bool] = []
    rig.link.on_not_clear = lambda: asked_to_clear.append(True)  # the simulated table's hands
    rig.link.start()
    eventually(lambda: sensor_status(referee).get("state") == "blocked", "'clear the horn' shown")
    message = str(sensor_status(referee)["message"])
    assert (
        message
        == "Something blocks the right horn's outer back beam: take any ring or hand off the horn figure."
    )
    assert sensor_status(referee)["say"]["en"] == message  # type: ignore[index]
    assert rig.runner.armed_seat is None and asked_to_clear
    beams = {b["name"]: b["state"] for b in sensor_status(referee)["beams"]}  # type: ignore[attr-defined]
    assert beams["right_back_outer"] == "blocked" and beams["left_tip_a"] == "clear"
    rig.source.states["right_back_outer"] = False
    eventually(lambda: rig.runner.armed_seat == tossing_seat(snapshot), "armed once the horn is clear")


def test_a_fault_voids_the_toss_shows_until_fixed_and_the_toss_is_repeated(
    referee: Referee, rig: Rig
) -> None:
    snapshot = play_to_a_toss(referee)
    rig.link.start()
    eventually(lambda: rig.runner.armed_seat is not None, "armed")
    rig.source.edge("left_tip_a", True, rig.clock.now)
    rig.link.fault("node", not_connected())
    eventually(lambda: sensor_status(referee).get("state") == "fault", "the fault on the scoreboard")
    assert sensor_status(referee)["faults"] == [not_connected()]
    assert sensor_status(referee)["message"] == f"The last toss did not count. {not_connected()}"
    assert referee.snapshot().seq == snapshot.seq  # no verdict was recorded
    rig.source.edge("left_tip_a", False, rig.clock.now + 1 * MS)
    rig.link.fault("node", None)
    eventually(lambda: sensor_status(referee).get("state") == "armed", "armed again")
    name = snapshot.names[tossing_seat(snapshot) or 0]
    assert sensor_status(referee)["message"] == f"The last toss did not count. Toss now: {name}."
    rig.ringer(horn="right")
    eventually(lambda: referee.snapshot().seq > snapshot.seq, "the repeated toss recorded")


def test_a_toss_the_host_enters_first_cancels_the_sensor_toss(referee: Referee, rig: Rig) -> None:
    snapshot = play_to_a_toss(referee)
    seat = tossing_seat(snapshot)
    assert seat is not None
    rig.link.start()
    eventually(lambda: rig.runner.armed_seat == seat, "armed")
    assert referee.call(SubmitAction(Toss(-1, seat, False)), source="host").ok
    after_host = referee.snapshot()
    next_seat = tossing_seat(after_host)  # in a challenge, the other side tosses next
    eventually(lambda: rig.runner.armed_seat == next_seat, "the cancelled toss forgotten, the next one armed")
    rig.ringer()
    if next_seat is not None:
        eventually(lambda: referee.snapshot().seq > after_host.seq, "the next toss judged")
    assert snapshot.game_id is not None
    events = referee.store.events(snapshot.game_id)[snapshot.seq :]
    assert events[0].source == "host"
    assert all(
        e.action is not None and e.action["player"] == next_seat for e in events if e.source == "sensor"
    )
