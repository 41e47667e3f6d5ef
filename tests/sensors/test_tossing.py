"""The toss runner: its thread wakes the judge at the judge's deadlines, and faults void tosses."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from companion.sensors.clock import ManualClock
from companion.sensors.judge import HornNotClearError, TossJudge, TossSettings, Verdict
from companion.sensors.pinmap import PinMap
from companion.sensors.tossing import SensorFaultError, TossRunner, realtime_priority

from .fakes import FakeSource, eventually

MS = 1000


@pytest.fixture
def source(pinmap: PinMap) -> FakeSource:
    return FakeSource(pinmap)


@pytest.fixture
def verdicts() -> list[Verdict]:
    return []


@pytest.fixture
def runner(
    pinmap: PinMap, clock: ManualClock, source: FakeSource, verdicts: list[Verdict]
) -> Iterator[TossRunner]:
    started = TossRunner(source, TossJudge(pinmap, TossSettings(), clock), verdicts.append)
    started.start()
    yield started
    started.stop()
    assert source.stopped


def test_the_runner_delivers_a_success_when_the_clock_reaches_the_settle_end(
    runner: TossRunner, source: FakeSource, clock: ManualClock, verdicts: list[Verdict]
) -> None:
    runner.arm(3)
    t = clock.now
    source.edge("right_tip_a", True, t + 10 * MS)
    source.edge("right_tip_a", False, t + 13 * MS)
    clock.now = t + 40 * MS
    for name in source.pinmap.base_beams("right"):  # a ring around the right horn
        source.edge(name, True, t + 40 * MS)
    clock.now = t + 40 * MS + TossSettings().settle_ms * MS  # the settle time has passed, but not the grace
    runner.kick()
    clock.now += TossSettings().grace_us
    runner.kick()
    eventually(lambda: verdicts, "a verdict")
    assert verdicts[0].success and verdicts[0].seat == 3 and runner.armed_seat is None


def test_the_runner_fails_a_toss_when_the_window_ends(
    runner: TossRunner, clock: ManualClock, verdicts: list[Verdict]
) -> None:
    runner.arm(0)
    clock.now += TossSettings().window_ms * MS
    runner.kick()
    eventually(lambda: verdicts, "a verdict")
    assert verdicts[0].outcome == "failure"


def test_a_fault_voids_the_toss_and_refuses_arming_until_fixed(
    runner: TossRunner, source: FakeSource, clock: ManualClock, verdicts: list[Verdict]
) -> None:
    runner.arm(1)
    source.edge("left_tip_a", True, clock.now)
    runner.fault("node", "sensor node disconnected")
    assert [v.outcome for v in verdicts] == ["void"] and "disconnected" in verdicts[0].reason
    with pytest.raises(SensorFaultError, match="sensor node disconnected"):
        runner.arm(1)
    runner.fault("node", None)
    with pytest.raises(HornNotClearError):  # the ring of the void toss still hangs on the tip
        runner.arm(1)
    source.edge("left_tip_a", False, clock.now + 5 * MS)
    runner.arm(1)
    assert runner.armed_seat == 1


def test_a_cancelled_toss_gives_no_verdict(
    runner: TossRunner, clock: ManualClock, verdicts: list[Verdict]
) -> None:
    runner.arm(2)
    runner.cancel()
    clock.now += 60_000 * MS
    runner.kick()
    runner.arm(2)  # the judge is free again
    assert verdicts == []


def test_a_beam_check_before_each_toss_holds_arming_until_the_receiver_works_again(
    runner: TossRunner, verdicts: list[Verdict]
) -> None:
    dead = ["left_tip_a"]
    runner.check_beams = lambda: list(dead)
    with pytest.raises(SensorFaultError, match="left horn's tip beam A dead: check that its receiver"):
        runner.arm(0)
    assert "self_test" in runner.faults
    dead.clear()  # the maker plugged it back in
    runner.arm(0)
    assert runner.armed_seat == 0 and not runner.faults


def test_real_time_priority_is_given_back(runner: TossRunner, source: FakeSource, clock: ManualClock) -> None:
    before = os.sched_getscheduler(0)
    with realtime_priority() as raised:
        if raised:
            assert os.sched_getscheduler(0) == os.SCHED_FIFO
    assert os.sched_getscheduler(0) == before
    # A runner left at its default never touches the priority of a thread that hands it edges.
    runner.arm(0)
    source.edge("left_tip_a", True, clock.now)
    assert os.sched_getscheduler(0) == before
