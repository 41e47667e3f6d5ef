"""The ring-toss simulator (companion/sim/ringtoss): its physics and its light, not its labels.

Each test drops or places a ring where the outcome follows from geometry and
gravity alone (a ring dropped flat over a tip must end around that horn, one
lying around a horn must cover every beam of its hexagon), so a broken
contact model, a misplaced beam or a wrong light model fails here, before it
shows up as odd numbers in `companion bench toss`.
"""

from __future__ import annotations

import itertools
import math
import random

import numpy
import pytest

from companion.sensors.edges import BeamEdge
from companion.sensors.pinmap import PinMap, load_pinmap
from companion.sim.ringtoss.figure import Figure, LightPath, load_figure
from companion.sim.ringtoss.horn import PhysicalHorn
from companion.sim.ringtoss.optics import (
    KNOCK_PULSE_US,
    Receiver,
    blocked_share,
    knock_edges,
    rays_the_horns_block,
    receiver_edges,
)
from companion.sim.ringtoss.physics import STEP_S, Throw, Trajectory, rotation_matrix, simulate
from companion.sim.ringtoss.tosses import PhysicalToss, classify, ring_around, sensor_changes

FLAT = (1.0, 0.0, 0.0, 0.0)
HORNS = ("left", "right")


@pytest.fixture(scope="module")
def figure() -> Figure:
    return load_figure()


@pytest.fixture(scope="module")
def pinmap() -> PinMap:
    return load_pinmap()


def beam(figure: Figure, name: str) -> LightPath:
    return next(b for b in figure.beams if b.name == name)


def drop(figure: Figure, x: float, y: float, z: float) -> Trajectory:
    """A ring let go flat and still with its centre at (x, y, z) mm."""
    return simulate(figure, Throw((x, y, z), (0.0, 0.0, 0.0), 0.0, 0.0, (0.0, 0.0, 0.0)))


def placed(poses: list[tuple[float, float, float]]) -> Trajectory:
    """A ring lying flat at each of `poses` in turn, one step each (a trajectory built by hand)."""
    n = len(poses)
    return Trajectory(
        numpy.arange(1, n + 1) * STEP_S,
        numpy.asarray(poses, dtype=float),
        numpy.tile(FLAT, (n, 1)),
        numpy.zeros((n, 3)),
        None,
        False,
    )


def tilt_deg(quat: numpy.ndarray) -> float:
    return math.degrees(math.acos(min(1.0, abs(float(rotation_matrix(quat)[2, 2])))))


def around(x: float, y: float, radius: float, count: int, z: float) -> list[tuple[float, float, float]]:
    return [
        (x + radius * math.cos(2 * math.pi * k / count), y + radius * math.sin(2 * math.pi * k / count), z)
        for k in range(count)
    ]


# ------------------------------------------------------------------ physics


@pytest.mark.parametrize("horn_name", HORNS)
def test_a_ring_dropped_flat_over_a_tip_comes_to_rest_around_that_horn_on_the_collar(
    figure: Figure, pinmap: PinMap, horn_name: str
) -> None:
    tip = figure.horn(horn_name).tip
    trajectory = drop(figure, tip[0], tip[1], tip[2] + 150)

    assert trajectory.rest_s is not None and trajectory.rest_s < 3.0
    assert ring_around(figure, trajectory.final_position, trajectory.final_quat) == horn_name
    assert trajectory.final_position[2] == pytest.approx(figure.ring.cord_radius, abs=0.5)  # on the head
    assert tilt_deg(trajectory.final_quat) < 3.0
    assert trajectory.touched_figure
    # On the way down it crossed the tip beams; at rest it lies across every base beam of its horn.
    assert blocked_share(figure, trajectory, beam(figure, f"{horn_name}_tip_a")).max() > 0.5
    assert blocked_share(figure, trajectory, beam(figure, f"{horn_name}_tip_a"))[-1] == 0.0
    for name in pinmap.base_beams(horn_name):
        assert blocked_share(figure, trajectory, beam(figure, name))[-1] == 1.0, name


@pytest.mark.parametrize("horn_name", HORNS)
def test_a_ring_falls_freely_until_its_cord_meets_the_tip(figure: Figure, horn_name: str) -> None:
    tip = figure.horn(horn_name).tip
    inward = -math.copysign(1.0, tip[0])
    trajectory = drop(
        figure, tip[0] + inward * figure.ring.centre_radius, tip[1], tip[2] + 100
    )  # cord over tip

    free_fall = -9.81 * trajectory.t
    hit = int(numpy.flatnonzero(numpy.abs(trajectory.velocity[:, 2] - free_fall) > 0.02)[0])
    assert trajectory.position[hit, 2] == pytest.approx(tip[2] + figure.ring.cord_radius, abs=1.5)
    fall_mm = 100 - figure.ring.cord_radius
    assert trajectory.t[hit] == pytest.approx(math.sqrt(2 * fall_mm / 1000 / 9.81), abs=0.003)
    assert numpy.all(numpy.abs(trajectory.velocity[:hit, :2]) < 1e-6)  # straight down until then
    assert trajectory.touched_figure


def test_a_ring_dropped_flat_far_from_the_figure_lies_on_the_table_and_crosses_no_beam(
    figure: Figure,
) -> None:
    front_edge = figure.head_half_size[1]
    trajectory = drop(figure, 0.0, -(front_edge + 300), 100.0)

    assert trajectory.rest_s is not None and not trajectory.touched_figure
    assert trajectory.final_position[2] == pytest.approx(figure.table_z + figure.ring.cord_radius, abs=0.5)
    assert tilt_deg(trajectory.final_quat) < 3.0
    changes, crossed = sensor_changes(figure, trajectory, Receiver(), random.Random(1))
    assert not crossed
    assert {name for _, name, _ in changes} <= set(figure.knock_sensors)  # no beam ever changed
    assert classify(figure, trajectory, crossed) == ("clean_miss", None)


def test_the_simulator_is_deterministic_for_the_same_throw(figure: Figure) -> None:
    throw = Throw((-60.0, 10.0, 170.0), (0.4, -0.2, -2.0), 9.0, 1.0, (2.0, -1.0, 8.0))
    first, second = simulate(figure, throw), simulate(figure, throw)
    assert numpy.array_equal(first.position, second.position)
    assert numpy.array_equal(first.quat, second.quat)
    assert first.rest_s == second.rest_s

    one, other = PhysicalHorn(figure, seed=3).toss(0.5), PhysicalHorn(figure, seed=3).toss(0.5)
    assert one == other and one.changes


# ------------------------------------------------------------------ light


@pytest.mark.parametrize("horn_name", HORNS)
def test_a_ring_around_a_horn_blocks_all_its_base_beams_one_beside_it_at_most_four(
    figure: Figure, pinmap: PinMap, horn_name: str
) -> None:
    base = figure.horn(horn_name).base
    z = figure.ring.cord_radius  # lying on the head
    names = pinmap.base_beams(horn_name)
    assert len(names) == 6

    # Around the horn the ring's centre lies up to 18 mm from its axis (inner radius 30, horn 12).
    ringer = placed([(base[0], base[1], z), *around(base[0], base[1], 17.0, 12, z)])
    for name in names:
        assert numpy.all(blocked_share(figure, ringer, beam(figure, name)) == 1.0), name

    beside = placed(around(base[0], base[1], 50.0, 24, z))
    touched = numpy.sum([blocked_share(figure, beside, beam(figure, name)) > 0 for name in names], axis=0)
    assert touched.max() <= 4
    assert touched.min() >= 1  # close beside the horn it does lie across some of them

    far = placed([(0.0, -400.0, z), (600.0, 0.0, z)])
    for light in figure.beams:
        assert numpy.all(blocked_share(figure, far, light) == 0.0), light.name


def test_the_blocked_share_grows_from_nothing_to_all_as_a_flat_ring_is_lowered_through_a_beam(
    figure: Figure,
) -> None:
    front = beam(figure, "front")
    height = front.start[2]
    assert front.start[2] == front.end[2]  # horizontal
    heights = numpy.round(numpy.arange(height + 6.0, height - 0.001, -0.05), 3)
    share = blocked_share(figure, placed([(-55.0, 0.0, z) for z in heights]), front)

    assert numpy.all(numpy.diff(share) >= 0)
    # The cord (radius 2.5) first touches the light path (radius 1) once within 3.5 mm of its axis,
    # and covers it whole from within 1.5 mm (a little less: the outline is a polygon of points).
    reach = figure.ring.cord_radius + front.radius
    assert numpy.all(share[heights >= height + reach] == 0.0)
    assert numpy.all(share[heights <= height + figure.ring.cord_radius - front.radius - 0.2] == 1.0)
    assert len(set(share[(share > 0) & (share < 1)])) >= 4  # a gradual share, not an on/off switch


def test_a_thinner_cord_leaves_a_higher_beam_partly_lit(figure: Figure) -> None:
    def resting_share(changed: Figure) -> float:
        light = beam(changed, "front")
        return float(blocked_share(changed, placed([(-55.0, 0.0, changed.ring.cord_radius)]), light)[0])

    assert resting_share(figure) == 1.0
    assert resting_share(figure.with_changes(beam_height_offset=1.0)) == 1.0
    thin = figure.with_changes(cord_diameter=3.0)
    assert thin.ring.cord_radius == 1.5 and resting_share(thin) == 1.0
    thin_raised = resting_share(figure.with_changes(beam_height_offset=1.0, cord_diameter=3.0))
    assert 0.0 < thin_raised < 0.6


def test_the_horns_stand_in_none_of_the_beams_but_would_block_one_moved_through_them(figure: Figure) -> None:
    for light in figure.beams:
        assert not rays_the_horns_block(figure, light).any(), light.name

    through = LightPath("through", (-119.0, 0.0, 20.0), (119.0, 0.0, 20.0), 1.0)
    assert rays_the_horns_block(figure, through).all()
    assert numpy.all(blocked_share(figure, placed([(0.0, -400.0, 2.5)]), through) == 1.0)  # ring or no ring

    lowered = figure.with_changes(beam_height_offset=-5.0)  # the tip beams 1.4 mm below the tips
    assert rays_the_horns_block(lowered, beam(lowered, "left_tip_a")).any()
    assert blocked_share(lowered, placed([(0.0, -400.0, 2.5)]), beam(lowered, "left_tip_a"))[0] > 0.0


# ------------------------------------------------------------------ receivers


def ramp(start: float, stop: float, steps: int) -> tuple[numpy.ndarray, numpy.ndarray]:
    """(share, t_s) rising linearly from `start` to `stop`, then held: the cord sliding into a beam."""
    share = numpy.concatenate([numpy.zeros(10), numpy.linspace(start, stop, steps), numpy.full(20, stop)])
    return share, numpy.arange(1, len(share) + 1) * STEP_S


def crossing_us(share: numpy.ndarray, t_s: numpy.ndarray, level: float) -> float:
    rising = numpy.flatnonzero(share > 0)[0] - 1
    return float(numpy.interp(level, share[rising:], t_s[rising:])) * 1e6


def test_a_receiver_switches_once_where_the_share_crosses_its_threshold_after_its_delay() -> None:
    share, t_s = ramp(0.013, 1.0, 77)
    expected = crossing_us(share, t_s, 0.5)
    assert expected % (STEP_S * 1e6) != 0  # between two steps: the edge time must be interpolated

    fixed = receiver_edges(share, t_s, Receiver(delay_us=(60, 60)), random.Random(1))
    assert len(fixed) == 1 and fixed[0][1] is True
    assert fixed[0][0] == pytest.approx(expected + 60, abs=1)

    for seed in range(5):
        ((t, blocked),) = receiver_edges(share, t_s, Receiver(), random.Random(seed))
        assert blocked and expected + 20 - 1 <= t <= expected + 150 + 1


def test_hysteresis_keeps_a_wobbling_share_from_toggling_the_receiver() -> None:
    share, t_s = ramp(0.0, 0.55, 30)
    wobble = numpy.tile([0.45, 0.55], 40)  # 0.05 around the threshold, less than the hysteresis
    share = numpy.concatenate([share, wobble, numpy.zeros(10)])
    t_s = numpy.arange(1, len(share) + 1) * STEP_S

    steady = receiver_edges(share, t_s, Receiver(hysteresis=0.1), random.Random(1))
    assert [blocked for _, blocked in steady] == [True, False]  # in while wobbling, out when it clears
    assert steady[1][0] > t_s[-11] * 1e6
    jittery = receiver_edges(share, t_s, Receiver(hysteresis=0.0), random.Random(1))
    assert len(jittery) > 40
    assert all(b - a > 0 for (a, _), (b, _) in itertools.pairwise(jittery))  # in order, apart


def test_a_higher_threshold_switches_later_on_the_same_share() -> None:
    share, t_s = ramp(0.0, 1.0, 200)
    edges = {
        threshold: receiver_edges(
            share, t_s, Receiver(threshold=threshold, delay_us=(0, 0)), random.Random(1)
        )
        for threshold in (0.3, 0.7)
    }
    assert [len(e) for e in edges.values()] == [1, 1]
    assert edges[0.3][0][0] == pytest.approx(crossing_us(share, t_s, 0.3), abs=1)
    assert edges[0.7][0][0] == pytest.approx(crossing_us(share, t_s, 0.7), abs=1)
    assert edges[0.7][0][0] - edges[0.3][0][0] > 30_000  # 0.4 of a 100 ms ramp


# ------------------------------------------------------------------ knock sensor


def test_a_ring_landing_on_the_head_knocks_and_one_landing_on_the_table_a_metre_off_does_not(
    figure: Figure,
) -> None:
    on_head = drop(figure, 0.0, -25.0, 40.0)  # flat between the horns, on the head
    assert on_head.final_position[2] == pytest.approx(figure.ring.cord_radius, abs=0.5)
    landed = on_head.t[numpy.flatnonzero(on_head.position[:, 2] <= figure.ring.cord_radius + 0.2)[0]] * 1e6
    pulses = knock_edges(figure, on_head)
    assert pulses and pulses[0][1] is True
    assert landed - 2_000 <= pulses[0][0] <= landed + 5_000
    assert pulses[1][1] is False and pulses[1][0] == pytest.approx(pulses[0][0] + KNOCK_PULSE_US, abs=5_000)
    assert [on for _, on in pulses] == [True, False] * (len(pulses) // 2)

    hx = figure.head_half_size[0]
    near = drop(figure, hx + 50.0, 0.0, 100.0)
    far = drop(figure, hx + 1000.0, 0.0, 100.0)
    for trajectory in (near, far):
        assert not trajectory.touched_figure
        assert trajectory.final_position[2] == pytest.approx(
            figure.table_z + figure.ring.cord_radius, abs=0.5
        )
    assert knock_edges(figure, near)  # felt through the table close by
    assert knock_edges(figure, far) == []


# ------------------------------------------------------------------ tosses


def test_a_toss_merges_its_glitches_drops_short_changes_and_shifts_whole() -> None:
    toss = PhysicalToss(
        "bounce_off",
        False,
        None,
        90_000,
        changes=(
            (10_000, "tips", True),
            (10_600, "tips", False),  # a 0.6 ms graze
            (40_000, "front", True),
            (70_000, "front", False),
            (80_000, "knock", True),
        ),
        glitch_changes=((20_000, "back", True), (20_400, "back", False)),
    )
    assert toss.glitches == 1
    assert toss.edges(offset_us=5, source="node") == [
        BeamEdge("tips", True, 10_005, "node"),
        BeamEdge("tips", False, 10_605, "node"),
        BeamEdge("back", True, 20_005, "node"),
        BeamEdge("back", False, 20_405, "node"),
        BeamEdge("front", True, 40_005, "node"),
        BeamEdge("front", False, 70_005, "node"),
        BeamEdge("knock", True, 80_005, "node"),
    ]
    assert toss.lasting_changes() == [
        (10_600, "tips", False),
        (40_000, "front", True),
        (70_000, "front", False),
        (80_000, "knock", True),
    ]
    assert toss.lasting_changes(at_least_us=500) == list(toss.changes)

    later = toss.shifted(1_000_000)
    assert later.rest_us == 1_090_000
    assert [t for t, _, _ in later.changes] == [t + 1_000_000 for t, _, _ in toss.changes]
    assert [t for t, _, _ in later.glitch_changes] == [20_000 + 1_000_000, 20_400 + 1_000_000]
    assert later.edges() == [BeamEdge(e.beam, e.blocked, e.t_us + 1_000_000, e.source) for e in toss.edges()]
    assert (later.kind, later.success, later.horn) == (toss.kind, toss.success, toss.horn)
    never = PhysicalToss("hanging", True, "left", None, ()).shifted(5)
    assert never.rest_us is None
