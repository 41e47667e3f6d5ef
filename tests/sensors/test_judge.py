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


LEFT = ("front", "back", "left_back_inner", "left_back_outer", "left_front_outer", "left_front_inner")
RIGHT = ("front", "back", "right_back_inner", "right_back_outer", "right_front_outer", "right_front_inner")


def ringer(table: Table, t0: int, horn: str = "left", lines: int = 6) -> int:
    """A ring falling over the tip and coming to rest flat around `horn`, blocking `lines` of its six
    base beams; returns the edge time of its last change (the rest starts there)."""
    table.pulse(f"{horn}_tip_b", t0, 3 * MS)
    table.pulse(f"{horn}_tip_a", t0 + 1 * MS, 3 * MS)
    base = LEFT if horn == "left" else RIGHT
    table.edge("knock", True, t0 + 27 * MS)  # it strikes the collar
    for k, name in enumerate(base[:lines]):
        table.edge(name, True, t0 + (28 + k) * MS)
    table.edge("knock", False, t0 + 57 * MS)
    return t0 + 57 * MS


def test_a_clean_ringer_succeeds_once_the_ring_has_been_still_for_the_settle_time(table: Table) -> None:
    t0 = table.arm(seat=2) + 2_000 * MS
    last = ringer(table, t0)
    table.run_until(last + SETTLE + GRACE - 1)
    assert table.verdicts == []
    table.run_until(last + SETTLE + GRACE + DELAY)
    verdict = table.verdict
    assert (verdict.seat, verdict.outcome, verdict.horn, verdict.sure) == (2, "success", "left", True)
    assert verdict.settle_end_us == last + SETTLE and verdict.blocked == {"left": 6, "right": 2}
    assert [e.beam for e in verdict.edges][:5] == [
        "left_tip_b",
        "left_tip_b",
        "left_tip_a",
        "left_tip_a",
        "knock",
    ]
    assert verdict.evidence()["edges"][0] == {
        "beam": "left_tip_b",
        "blocked": True,
        "t_us": t0,
        "source": "test",
    }
    assert verdict.evidence()["sure"] is True


def test_the_edges_clock_may_be_far_from_the_judges(pinmap: PinMap, clock: ManualClock) -> None:
    # A sensor node counts from its boot: its timestamps are nowhere near the Pi's clock.
    table = Table(pinmap, clock, skew=-987_654_321)
    last = ringer(table, table.arm() + 500 * MS, horn="right")
    table.run_until(last + SETTLE + GRACE + DELAY)
    assert table.verdict.horn == "right" and table.verdict.success


def test_five_of_six_base_beams_are_a_ring_around_the_horn(table: Table) -> None:
    # A ringer tilted a little lifts its cord off the beam on its high side.
    last = ringer(table, table.arm() + 500 * MS, horn="right", lines=5)
    table.run_until(last + SETTLE + GRACE + DELAY)
    assert table.verdict.success and table.verdict.sure and table.verdict.blocked["right"] == 5


def test_a_ring_spiralling_down_a_horn_unseen_is_waited_for(table: Table) -> None:
    # It went down over the left tip (both of its beams crossed), struck it, and circles the horn on its
    # way down, between the tip and the base beams, for most of a second before it reaches the collar.
    t0 = table.arm() + 1_000 * MS
    table.pulse("left_tip_a", t0, 3 * MS)
    table.pulse("left_tip_b", t0 + 1 * MS, 3 * MS)
    table.pulse("knock", t0 + 5 * MS, 30 * MS)
    quiet_from = t0 + 35 * MS
    assert SETTINGS.settle_after_tip_ms > SETTINGS.settle_ms + 200
    table.run_until(quiet_from + SETTINGS.settle_after_tip_ms * MS - 100 * MS)
    assert table.verdicts == [], "called while the ring may still be coming down"
    last = ringer(table, quiet_from + SETTINGS.settle_after_tip_ms * MS - 90 * MS)
    table.run_until(last + SETTLE + GRACE + DELAY)
    assert table.verdict.success


def test_a_ring_that_went_over_a_tip_and_off_fails_after_the_longer_settle(table: Table) -> None:
    t0 = table.arm() + 1_000 * MS
    table.pulse("right_tip_a", t0, 3 * MS)
    table.pulse("right_tip_b", t0 + 1 * MS, 3 * MS)
    table.pulse("knock", t0 + 300 * MS, 30 * MS)  # it lands on the table
    last = t0 + 330 * MS
    table.run_until(last + SETTINGS.settle_after_tip_ms * MS + GRACE + DELAY)
    assert table.verdict.outcome == "failure"
    assert table.verdict.settle_end_us == last + SETTINGS.settle_after_tip_ms * MS


def test_a_ring_between_the_horns_fails_as_soon_as_it_is_at_rest(table: Table) -> None:
    # Four of a horn's six lines is the most a ring not around it can block (hardware/beams.md).
    t_arm = table.arm()
    t0 = t_arm + 1_000 * MS
    table.pulse("knock", t0, 30 * MS)
    for k, name in enumerate(("front", "back", "left_back_inner", "left_front_inner", "right_front_inner")):
        table.edge(name, True, t0 + (31 + k) * MS)
    last = t0 + 35 * MS
    table.run_until(last + SETTLE + GRACE + DELAY)
    verdict = table.verdict
    assert (verdict.outcome, verdict.sure) == ("failure", True)
    assert verdict.blocked == {"left": 4, "right": 3} and "not around a horn" in verdict.reason
    assert verdict.decided_us < t_arm + SETTINGS.window_ms * MS


def test_a_bounce_off_fails_at_rest_without_waiting_for_the_window(table: Table) -> None:
    t_arm = table.arm()
    table.pulse("left_tip_a", t_arm + 1_000 * MS, 4 * MS)
    table.pulse("front", t_arm + 1_030 * MS, 350 * MS)
    table.pulse("knock", t_arm + 1_400 * MS, 30 * MS)  # it lands on the table beside the figure
    last = t_arm + 1_430 * MS
    table.run_until(last + SETTLE + GRACE - 1)
    assert table.verdicts == []
    table.run_until(last + SETTLE + GRACE + DELAY)
    assert table.verdict.outcome == "failure" and table.verdict.sure
    assert table.verdict.reason == "no ring lies on the figure" and len(table.verdict.edges) == 6


def test_a_clean_miss_felt_only_by_the_knock_sensor_fails_at_once(table: Table) -> None:
    t_arm = table.arm()
    table.pulse("knock", t_arm + 2_000 * MS, 30 * MS)
    table.pulse("knock", t_arm + 2_200 * MS, 30 * MS)  # a bounce on the table
    table.run_until(t_arm + 2_230 * MS + SETTLE + GRACE + DELAY)
    assert table.verdict.outcome == "failure" and table.verdict.settle_end_us == t_arm + 2_230 * MS + SETTLE


def test_a_hand_in_a_beam_is_not_a_toss(table: Table) -> None:
    # Whoever lifted the last ring off brushes a beam after the judge armed: no knock, so no ring
    # came down, and the real toss a few seconds later is judged.
    t_arm = table.arm()
    table.pulse("left_front_outer", t_arm + 200 * MS, 300 * MS)
    table.run_until(t_arm + 200 * MS + 5 * SETTLE)
    assert table.verdicts == []
    last = ringer(table, t_arm + 4_000 * MS)
    table.run_until(last + SETTLE + GRACE + DELAY)
    assert table.verdict.success


def test_beams_seen_without_a_ring_coming_down_fail_when_the_window_ends(table: Table) -> None:
    t_arm = table.arm()
    table.pulse("back", t_arm + 200 * MS, 300 * MS)
    table.run_until(t_arm + SETTINGS.window_ms * MS + DELAY)
    assert table.verdict.outcome == "failure" and table.verdict.reason == "no ring came down near the figure"


def test_a_knock_does_not_stop_arming(pinmap: PinMap, clock: ManualClock) -> None:
    judge = TossJudge(pinmap, clock=clock)
    judge.arm(0, {"knock": True})  # someone put a cup down on the table
    assert judge.armed_seat == 0


def test_glitches_shorter_than_the_debounce_are_not_a_ring(table: Table) -> None:
    t_arm = table.arm()
    table.pulse("left_tip_a", t_arm + 500 * MS, 900)
    table.pulse("front", t_arm + 600 * MS, 400)
    table.run_until(t_arm + 600 * MS + 3 * SETTLE)
    assert table.verdicts == []  # nothing came down: a glitch is not a ring
    # ... and a flicker while the ring rests does not restart the settle time.
    last = ringer(table, t_arm + 3_000 * MS)
    for beam, t in (("front", last + 400 * MS), ("left_back_inner", last + 400 * MS + 100)):
        table.edge(beam, False, t)
        table.edge(beam, True, t + 700)
    table.run_until(last + SETTLE + GRACE + DELAY)
    assert table.verdict.success and table.verdict.settle_end_us == last + SETTLE


def test_a_ring_rattling_on_the_horn_is_judged_from_its_last_change(table: Table) -> None:
    t0 = table.arm() + 1_000 * MS
    last = ringer(table, t0)
    for k in range(4):  # it hops on the collar: beams clear and block again, up to 400 ms apart
        hop = last + (100 + 400 * k) * MS
        table.pulse("left_back_outer", hop, 40 * MS)
    last = last + (100 + 400 * 3 + 40) * MS
    table.run_until(last + SETTLE + GRACE + DELAY)
    assert table.verdict.success and table.verdict.settle_end_us == last + SETTLE


def test_nothing_is_decided_while_a_ring_hangs_on_a_tip(table: Table) -> None:
    t_arm = table.arm()
    table.edge("left_tip_a", True, t_arm + 1_000 * MS)  # caught on the tip, quite still
    table.run_until(t_arm + 1_000 * MS + 5 * SETTLE)
    assert table.verdicts == []
    slide = t_arm + 5_000 * MS  # it slides down after a few seconds
    table.edge("left_tip_a", False, slide)
    last = ringer(table, slide + 5 * MS)
    table.run_until(last + SETTLE + GRACE + DELAY)
    assert table.verdict.success and table.verdict.sure


def test_a_ring_hanging_past_the_wait_is_doubtful(table: Table) -> None:
    t_arm = table.arm()
    table.edge("left_tip_b", True, t_arm + 14_000 * MS)
    table.run_until(t_arm + (SETTINGS.window_ms + SETTINGS.max_wait_ms) * MS - 1)
    assert table.verdicts == []
    table.run_until(t_arm + (SETTINGS.window_ms + SETTINGS.max_wait_ms) * MS + DELAY)
    assert table.verdict.sure is False and "hangs" in table.verdict.reason


def test_a_ring_still_moving_when_the_window_ends_is_waited_for(table: Table) -> None:
    t_arm = table.arm()
    window_end = t_arm + SETTINGS.window_ms * MS
    table.pulse("left_tip_a", window_end - 300 * MS, 3 * MS)
    table.pulse("front", window_end - 5 * MS, 10 * MS)  # bounces up, comes down again
    last = ringer(table, window_end + 200 * MS)
    table.run_until(last + SETTLE + GRACE + DELAY)
    assert table.verdict.success


def test_a_ring_never_at_rest_voids_the_toss(table: Table) -> None:
    t_arm = table.arm()
    give_up = t_arm + (SETTINGS.window_ms + SETTINGS.max_wait_ms) * MS
    t = t_arm + 1_000 * MS
    while t < give_up + SETTLE:
        table.pulse("front", t, 20 * MS)  # a beam out of line, flickering for ever
        t += SETTLE // 2
    assert table.verdict.outcome == "void" and "still moving" in table.verdict.reason


def test_nothing_at_all_fails_when_the_window_ends(table: Table) -> None:
    t_arm = table.arm()
    table.run_until(t_arm + SETTINGS.window_ms * MS)
    assert table.verdict.outcome == "failure" and table.verdict.edges == ()
    assert table.verdict.reason == "no ring came down near the figure"


def test_each_toss_has_exactly_one_verdict(table: Table) -> None:
    last = ringer(table, table.arm() + 100 * MS)
    table.run_until(last + 3 * SETTLE)
    table.edge("front", False, last + 3 * SETTLE)
    table.run_until(last + 30_000 * MS)
    assert len(table.verdicts) == 1 and table.judge.armed_seat is None
    assert table.judge.poll() is None and table.judge.next_deadline() is None


def test_arming_is_refused_while_a_beam_is_blocked(pinmap: PinMap, clock: ManualClock) -> None:
    judge = TossJudge(pinmap, clock=clock)
    with pytest.raises(HornNotClearError, match=r"clear the horn figure.*left_back_inner is blocked"):
        judge.arm(1, {"left_back_inner": True, "left_tip_a": False})
    assert judge.armed_seat is None
    judge.arm(1, {name: False for name in pinmap.names})
    with pytest.raises(TossInProgressError):
        judge.arm(2, {})


def test_a_void_ends_the_toss_without_a_verdict_on_the_ring(table: Table) -> None:
    t_arm = table.arm(seat=3)
    table.edge("left_tip_a", True, t_arm + 100 * MS)
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
    with pytest.raises(TossError, match="below"):
        TossSettings(sure_success_at_least=4, sure_failure_at_most=4)


def test_counts_between_the_sure_ones_are_doubtful(pinmap: PinMap, clock: ManualClock) -> None:
    table = Table(pinmap, clock, TossSettings(sure_success_at_least=6, sure_failure_at_most=3))
    last = ringer(table, table.arm() + 100 * MS, lines=5)
    table.run_until(last + SETTLE + GRACE + DELAY)
    assert table.verdict.sure is False and "doubtful" in table.verdict.reason


def test_a_deadline_that_passed_since_the_last_poll_is_still_due(table: Table) -> None:
    # A thread that polls just before a deadline and asks for the next one just after it must not
    # be sent to sleep until the window's end.
    last = ringer(table, table.arm() + 100 * MS)
    settle_deadline = last + SETTLE + GRACE + DELAY
    table.run_until(settle_deadline - 10)
    assert table.verdicts == []
    table.clock.now = settle_deadline + 5_000
    deadline = table.judge.next_deadline()
    assert deadline is not None and deadline <= table.clock.now
    verdict = table.judge.poll()
    assert verdict is not None and verdict.success


def test_the_edge_ending_a_glitch_may_arrive_late(table: Table) -> None:
    t_arm = table.arm()
    glitch = t_arm + 500 * MS
    table.edge("left_tip_a", True, glitch)
    # The clear that ends this 0.9 ms glitch is delayed in transit by 40 ms more than the block was
    # (a busy reader): the judge, polled meanwhile, must not have taken it for a ring coming down,
    # or it would call a miss before the real toss.
    table.clock.now = glitch + 900 + DELAY + 40 * MS
    assert table.judge.poll() is None
    table.judge.feed(BeamEdge("left_tip_a", False, glitch + 900, "test"))
    table.run_until(glitch + 5 * SETTLE)
    assert table.verdicts == []
    last = ringer(table, t_arm + 4_000 * MS)
    table.run_until(last + SETTLE + GRACE + DELAY)
    assert table.verdict.success


def test_a_late_batch_of_edges_is_judged_by_the_edges_times(table: Table) -> None:
    t_arm = table.arm()
    tip = t_arm + 500 * MS
    # The reader was held up for 10 ms: both edges of a 0.9 ms glitch arrive together, each fed
    # (and polled) in turn. The first must not be confirmed before the second is seen.
    table.edge("knock", True, tip - 300 * MS)  # on time: sets how late "on time" is
    table.edge("knock", False, tip - 270 * MS)
    table.run_until(tip + DELAY + 10 * MS)
    for blocked, t in ((True, tip), (False, tip + 900)):
        assert table.judge.feed(BeamEdge("right_tip_a", blocked, t, "test")) is None
    # The knock was a ring landing off the figure: judged from the knock, the glitch ignored (and as
    # late edges may be 10 ms late now, the rest is called 10 ms later).
    table.run_until(tip - 270 * MS + SETTLE + GRACE + DELAY + 10 * MS)
    assert table.verdict.outcome == "failure" and table.verdict.settle_end_us == tip - 270 * MS + SETTLE
