"""The toss judge against hand-made edge trains: times in microseconds on a hand-set clock."""

from __future__ import annotations

import pytest

from companion.sensors.clock import ManualClock
from companion.sensors.edges import BeamEdge
from companion.sensors.judge import (
    HornNotClearError,
    TossError,
    TossInProgressError,
    TossJudge,
    TossSettings,
    Verdict,
)
from companion.sensors.pinmap import PinMap

MS = 1000
DELAY = 300
"""Arrival delay of every edge on the judge's clock (a serial frame in flight)."""
SETTINGS = TossSettings()
SETTLE = SETTINGS.settle_ms * MS
GRACE = SETTINGS.grace_us


class Table:
    """A judge whose edges arrive DELAY after they happen, on a clock `skew` ahead of the edges' clock."""

    def __init__(self, pinmap: PinMap, clock: ManualClock, settings: TossSettings = SETTINGS, skew: int = 0):
        self.judge = TossJudge(pinmap, settings, clock)
        self.clock = clock
        self.skew = skew
        self.verdicts: list[Verdict] = []

    def arm(self, seat: int = 0) -> int:
        self.judge.arm(seat, {})
        return self.clock.now - self.skew  # arming time on the edges' clock

    def edge(self, beam: str, blocked: bool, t: int) -> None:
        self.run_until(t + DELAY)
        verdict = self.judge.feed(BeamEdge(beam, blocked, t - 0, "test"))
        if verdict is not None:
            self.verdicts.append(verdict)

    def pulse(self, beam: str, start: int, length: int) -> None:
        self.edge(beam, True, start)
        self.edge(beam, False, start + length)

    def run_until(self, t_edge: int) -> None:
        """Let time pass up to edge time `t_edge`, polling at every deadline the judge names."""
        target = t_edge + self.skew
        while True:
            deadline = self.judge.next_deadline()
            if deadline is None or deadline > target:
                break
            self.clock.now = max(self.clock.now, deadline)
            verdict = self.judge.poll()
            if verdict is not None:
                self.verdicts.append(verdict)
        self.clock.now = max(self.clock.now, target)

    @property
    def verdict(self) -> Verdict:
        assert len(self.verdicts) == 1, self.verdicts
        return self.verdicts[0]


@pytest.fixture
def table(pinmap: PinMap, clock: ManualClock) -> Table:
    return Table(pinmap, clock)


def ringer(table: Table, t0: int, horn: str = "left") -> int:
    """A ring falling over the tip and coming to rest flat; returns the edge time its base block began."""
    table.pulse(f"{horn}_tip", t0, 3 * MS)
    table.edge(f"{horn}_base_front", True, t0 + 28 * MS)
    table.edge(f"{horn}_base_back", True, t0 + 29 * MS)
    return t0 + 28 * MS


def test_a_clean_ringer_succeeds_once_the_settle_time_has_passed(table: Table) -> None:
    t0 = table.arm(seat=2) + 2_000 * MS
    block = ringer(table, t0)
    table.run_until(block + SETTLE + GRACE - 1)
    assert table.verdicts == []
    table.run_until(block + SETTLE + GRACE + DELAY)
    verdict = table.verdict
    assert (verdict.seat, verdict.outcome, verdict.horn, verdict.beams_agree) == (2, "success", "left", True)
    assert verdict.settle_end_us == block + SETTLE
    assert [e.beam for e in verdict.edges] == ["left_tip", "left_tip", "left_base_front", "left_base_back"]
    assert verdict.evidence()["edges"][0] == {
        "beam": "left_tip",
        "blocked": True,
        "t_us": t0,
        "source": "test",
    }


def test_the_edges_clock_may_be_far_from_the_judges(pinmap: PinMap, clock: ManualClock) -> None:
    # A sensor node counts from its boot: its timestamps are nowhere near the Pi's clock.
    table = Table(pinmap, clock, skew=-987_654_321)
    block = ringer(table, table.arm() + 500 * MS, horn="right")
    table.run_until(block + SETTLE + GRACE + DELAY)
    assert table.verdict.horn == "right" and table.verdict.success


def test_a_bounce_off_fails_when_the_window_ends(table: Table) -> None:
    t_arm = table.arm()
    table.pulse("left_tip", t_arm + 1_000 * MS, 4 * MS)
    table.pulse("left_base_front", t_arm + 1_030 * MS, 350 * MS)
    table.run_until(t_arm + SETTINGS.window_ms * MS - 1)
    assert table.verdicts == []
    table.run_until(t_arm + SETTINGS.window_ms * MS + DELAY)
    assert table.verdict.outcome == "failure"
    assert len(table.verdict.edges) == 4


def test_a_ring_lying_beside_the_horn_without_passing_its_tip_fails(table: Table) -> None:
    t_arm = table.arm()
    table.edge("left_base_front", True, t_arm + 1_000 * MS)
    table.run_until(t_arm + SETTINGS.window_ms * MS + DELAY)
    assert table.verdict.outcome == "failure"
    assert "not over a horn" in table.verdict.reason


def test_without_the_tip_rule_a_base_block_alone_succeeds(pinmap: PinMap, clock: ManualClock) -> None:
    table = Table(pinmap, clock, TossSettings(require_tip=False))
    t_arm = table.arm()
    table.edge("left_base_front", True, t_arm + 1_000 * MS)
    table.run_until(t_arm + 1_000 * MS + SETTLE + GRACE + DELAY)
    assert table.verdict.success and table.verdict.beams_agree is False


def test_requiring_both_base_beams_rejects_a_single_blocked_beam(pinmap: PinMap, clock: ManualClock) -> None:
    table = Table(pinmap, clock, TossSettings(require_both_base=True))
    t_arm = table.arm()
    table.pulse("left_tip", t_arm + 1_000 * MS, 3 * MS)
    table.edge("left_base_back", True, t_arm + 1_030 * MS)
    table.run_until(t_arm + SETTINGS.window_ms * MS + DELAY)
    assert table.verdict.outcome == "failure"


def test_glitches_shorter_than_the_debounce_are_ignored(table: Table) -> None:
    t_arm = table.arm()
    # Sub-millisecond flickers on the tip and a base beam do not make a ring that passed the tip ...
    table.pulse("left_tip", t_arm + 500 * MS, 900)
    table.pulse("left_base_front", t_arm + 600 * MS, 400)
    table.edge("left_base_back", True, t_arm + 700 * MS)
    table.run_until(t_arm + 700 * MS + 2 * SETTLE)
    assert table.verdicts == []
    table.edge("left_base_back", False, t_arm + 700 * MS + 2 * SETTLE)
    # ... and one flicker during a real settle does not restart the settle time.
    block = ringer(table, t_arm + 3_000 * MS)
    for beam, t in (("left_base_front", block + 400 * MS), ("left_base_back", block + 400 * MS + 100)):
        table.edge(beam, False, t)
        table.edge(beam, True, t + 700)
    table.run_until(block + SETTLE + GRACE + DELAY)
    assert table.verdict.success and table.verdict.settle_end_us == block + SETTLE


def test_a_one_millisecond_occlusion_counts_as_the_ring_passing_the_tip(table: Table) -> None:
    t_arm = table.arm()
    table.pulse("right_tip", t_arm + 500 * MS, SETTINGS.debounce_us)
    table.edge("right_base_back", True, t_arm + 530 * MS)
    table.run_until(t_arm + 530 * MS + SETTLE + GRACE + DELAY)
    assert table.verdict.success and table.verdict.horn == "right"


def test_a_ring_rattling_on_the_horn_settles_from_its_last_block(table: Table) -> None:
    t0 = table.arm() + 1_000 * MS
    table.pulse("left_tip", t0, 3 * MS)
    for k in range(4):
        table.pulse("left_base_front", t0 + (30 + 60 * k) * MS, 40 * MS)
    last = t0 + (30 + 60 * 4) * MS
    table.edge("left_base_front", True, last)
    table.run_until(last + SETTLE + GRACE + DELAY)
    assert table.verdict.success and table.verdict.settle_end_us == last + SETTLE


def test_a_ring_hanging_on_the_tip_past_the_window_is_waited_for(table: Table) -> None:
    t_arm = table.arm()
    window_end = t_arm + SETTINGS.window_ms * MS
    table.edge("left_tip", True, window_end - 1_000 * MS)
    table.run_until(window_end + 3_000 * MS)
    assert table.verdicts == []
    table.edge("left_tip", False, window_end + 3_200 * MS)
    table.edge("left_base_front", True, window_end + 3_220 * MS)
    table.run_until(window_end + 3_220 * MS + SETTLE + GRACE + DELAY)
    assert table.verdict.success


def test_a_ring_hanging_longer_than_the_wait_voids_the_toss(table: Table) -> None:
    t_arm = table.arm()
    table.edge("right_tip", True, t_arm + 14_000 * MS)
    table.run_until(t_arm + (SETTINGS.window_ms + SETTINGS.max_wait_ms) * MS + DELAY)
    assert table.verdict.outcome == "void"
    assert "hangs on the right horn's tip" in table.verdict.reason


def test_a_ring_still_moving_when_the_window_ends_is_waited_for(table: Table) -> None:
    t_arm = table.arm()
    window_end = t_arm + SETTINGS.window_ms * MS
    table.pulse("left_tip", window_end - 30 * MS, 3 * MS)
    table.pulse("left_base_front", window_end - 5 * MS, 10 * MS)  # bounces up, comes down again
    table.edge("left_base_front", True, window_end + 200 * MS)
    table.run_until(window_end + 200 * MS + SETTLE + GRACE + DELAY)
    assert table.verdict.success


def test_nothing_at_all_fails_when_the_window_ends(table: Table) -> None:
    t_arm = table.arm()
    table.run_until(t_arm + SETTINGS.window_ms * MS)
    assert table.verdict.outcome == "failure" and table.verdict.edges == ()


def test_each_toss_has_exactly_one_verdict(table: Table) -> None:
    block = ringer(table, table.arm() + 100 * MS)
    table.run_until(block + 3 * SETTLE)
    table.edge("left_base_front", False, block + 3 * SETTLE)
    table.run_until(block + 30_000 * MS)
    assert len(table.verdicts) == 1 and table.judge.armed_seat is None
    assert table.judge.poll() is None and table.judge.next_deadline() is None


def test_arming_is_refused_while_a_beam_is_blocked(pinmap: PinMap, clock: ManualClock) -> None:
    judge = TossJudge(pinmap, clock=clock)
    with pytest.raises(HornNotClearError, match=r"clear the horn figure.*left_base_back is blocked"):
        judge.arm(1, {"left_base_back": True, "left_tip": False})
    assert judge.armed_seat is None
    judge.arm(1, {name: False for name in pinmap.names})
    with pytest.raises(TossInProgressError):
        judge.arm(2, {})


def test_a_void_ends_the_toss_without_a_verdict_on_the_ring(table: Table) -> None:
    t_arm = table.arm(seat=3)
    table.edge("left_tip", True, t_arm + 100 * MS)
    verdict = table.judge.void("the sensor node disappeared")
    assert verdict is not None and verdict.outcome == "void" and not verdict.success
    assert "sensor node disappeared" in verdict.reason and len(verdict.edges) == 1
    assert table.judge.void("again") is None
    table.judge.arm(0, {})


def test_settings_are_checked() -> None:
    with pytest.raises(TossError):
        TossSettings(settle_ms=-1)
    with pytest.raises(TossError):
        TossSettings(settle_ms=1, debounce_us=1000)


def test_a_deadline_that_passed_since_the_last_poll_is_still_due(table: Table) -> None:
    # A thread that polls just before a deadline and asks for the next one just after it must not
    # be sent to sleep until the window's end.
    block = ringer(table, table.arm() + 100 * MS)
    settle_deadline = block + SETTLE + GRACE + DELAY
    table.run_until(settle_deadline - 10)
    assert table.verdicts == []
    table.clock.now = settle_deadline + 5_000
    deadline = table.judge.next_deadline()
    assert deadline is not None and deadline <= table.clock.now
    verdict = table.judge.poll()
    assert verdict is not None and verdict.success


def test_the_edge_ending_a_glitch_may_arrive_late(table: Table) -> None:
    t_arm = table.arm()
    tip = t_arm + 500 * MS
    table.edge("left_tip", True, tip)
    # The clear that ends this 0.9 ms glitch is delayed in transit by 40 ms more than the block was
    # (a busy reader): the judge, polled meanwhile, must not have confirmed a ring passing the tip.
    table.clock.now = tip + 900 + DELAY + 40 * MS
    assert table.judge.poll() is None
    table.judge.feed(BeamEdge("left_tip", False, tip + 900, "test"))
    table.edge("left_base_front", True, tip + 30 * MS)  # a ring lying beside the horn
    table.run_until(t_arm + SETTINGS.window_ms * MS + DELAY)
    assert table.verdict.outcome == "failure"


def test_a_late_batch_of_edges_is_judged_by_the_edges_times(table: Table) -> None:
    t_arm = table.arm()
    table.edge("right_base_back", True, t_arm + 100 * MS)  # on time: sets how late "on time" is
    table.edge("right_base_back", False, t_arm + 110 * MS)
    tip = t_arm + 500 * MS
    # The reader was held up for 10 ms: both edges of a 0.9 ms glitch arrive together, each fed
    # (and polled) in turn. The first must not be confirmed before the second is seen.
    table.run_until(tip + DELAY + 10 * MS)
    for blocked, t in ((True, tip), (False, tip + 900)):
        assert table.judge.feed(BeamEdge("right_tip", blocked, t, "test")) is None
    table.edge("right_base_front", True, tip + 30 * MS)  # then a ring lying beside the horn
    table.run_until(t_arm + SETTINGS.window_ms * MS + DELAY)
    assert table.verdict.outcome == "failure"
