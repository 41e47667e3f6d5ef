"""Whole tosses: a player's throw, the ring's flight and rest, the truth, and what the sensors report.

Throws (an assumption, documented in hardware/beams.md): a player aims the
ring's centre at the tip of one horn and comes down with a scatter that is
their skill; the ring arrives 2-3 m/s from above (FACTS: dropped from 20-40 cm)
with some sideways speed from an arc thrown across the table, tilted and
spinning a little as a tossed ring wobbles. Every kind of toss, and how often
it happens, follows from these and the physics; none is scripted.

The truth is the final pose: a toss succeeds when the ring ends around a horn,
that is when the horn's axis passes through the ring's hole. Kinds are named
from the pose and the path for the benchmark's breakdown only.
"""

from __future__ import annotations

import dataclasses
import math
import random
from typing import Any

import numpy

from companion.sensors.edges import BeamEdge
from companion.sim.ringtoss.figure import Figure
from companion.sim.ringtoss.optics import Receiver, blocked_share, knock_edges, receiver_edges
from companion.sim.ringtoss.physics import Throw, Trajectory, rotation_matrix, simulate

G = 9.81
START_ABOVE_TIP_MM = 70.0
GLITCH_US = (20, 950)


@dataclasses.dataclass(frozen=True)
class Thrower:
    """How a player throws (assumptions; see hardware/beams.md, "The simulated tosses")."""

    aim_scatter_mm: tuple[float, float] = (12.0, 45.0)
    """Standard deviation of where the ring's centre comes down around the aimed tip (drawn per toss,
    log-uniformly: careful and casual throws)."""
    drop_mm: tuple[float, float] = (200.0, 400.0)
    """Height above the tip of the throw's highest point: the ring arrives at 2-2.8 m/s."""
    sideways_m_s: tuple[float, float] = (0.2, 1.2)
    tilt_sd_deg: float = 12.0
    spin_sd_rad_s: float = 12.0
    """About the ring's own axis (thrown flat with a flick)."""
    wobble_sd_rad_s: float = 4.0


def draw_throw(figure: Figure, rng: random.Random, thrower: Thrower | None = None) -> Throw:
    thrower = thrower or Thrower()
    horn = rng.choice(figure.horns)
    tip = horn.tip
    low, high = thrower.aim_scatter_mm
    scatter = math.exp(rng.uniform(math.log(low), math.log(high)))
    aim = (tip[0] + rng.gauss(0, scatter), tip[1] + rng.gauss(0, scatter))
    speed_at_tip = math.sqrt(2 * G * rng.uniform(*thrower.drop_mm) / 1000)
    climb = START_ABOVE_TIP_MM / 1000
    speed_at_start = math.sqrt(speed_at_tip**2 - 2 * G * climb)
    fall_s = (speed_at_tip - speed_at_start) / G
    heading = rng.uniform(0, 2 * math.pi)
    sideways = rng.uniform(*thrower.sideways_m_s)
    vx, vy = sideways * math.cos(heading), sideways * math.sin(heading)
    position = (aim[0] - vx * fall_s * 1000, aim[1] - vy * fall_s * 1000, tip[2] + START_ABOVE_TIP_MM)
    tilt = abs(rng.gauss(0, thrower.tilt_sd_deg))
    spin = (
        rng.gauss(0, thrower.wobble_sd_rad_s),
        rng.gauss(0, thrower.wobble_sd_rad_s),
        rng.gauss(0, thrower.spin_sd_rad_s),
    )
    return Throw(position, (vx, vy, -speed_at_start), tilt, rng.uniform(0, 2 * math.pi), spin)


def ring_around(figure: Figure, position: numpy.ndarray, quat: numpy.ndarray) -> str | None:
    """The horn whose axis passes through the ring's hole, if any."""
    normal = rotation_matrix(quat)[:, 2]
    for horn in figure.horns:
        axis = numpy.asarray(horn.axis)
        base = numpy.asarray(horn.base)
        facing = float(normal @ axis)
        if abs(facing) < 1e-9:
            continue
        along = float(normal @ (position - base)) / facing
        if 0 <= along <= horn.length:
            pierce = base + along * axis
            if numpy.linalg.norm(pierce - position) < figure.ring.centre_radius:
                return horn.name
    return None


def _tilt_deg(quat: numpy.ndarray) -> float:
    return math.degrees(math.acos(min(1.0, abs(float(rotation_matrix(quat)[2, 2])))))


def _bounces(trajectory: Trajectory) -> int:
    """Times the ring was thrown back up by an impact (vertical speed turning from down to up)."""
    vz = trajectory.velocity[:, 2]
    return int(numpy.count_nonzero((vz[:-1] < -0.05) & (vz[1:] > 0.05)))


def classify(figure: Figure, trajectory: Trajectory, crossed_a_beam: bool) -> tuple[str, str | None]:
    """(kind, horn around which the ring rests or None)."""
    position, quat = trajectory.final_position, trajectory.final_quat
    horn = ring_around(figure, position, quat)
    tilt = _tilt_deg(quat)
    lowest = position[2] - figure.ring.centre_radius * math.sin(math.radians(tilt)) - figure.ring.cord_radius
    if horn is not None:
        if lowest > 15:
            return "hanging", horn
        if tilt >= 3:
            return "tilted_ringer", horn
        if _bounces(trajectory) >= 2:
            return "rattling_ringer", horn
        return "clean_ringer", horn
    on_table = position[2] < figure.table_z + figure.ring.outer_radius + 1
    if on_table:
        if trajectory.touched_figure:
            return "bounce_off", None
        return ("pass_through" if crossed_a_beam else "clean_miss"), None
    if tilt >= 8:
        return "leaner", None
    left, right = (min(h.base[0] for h in figure.horns), max(h.base[0] for h in figure.horns))
    if left < position[0] < right and abs(position[1]) < figure.ring.outer_radius:
        return "between", None
    return "beside", None


@dataclasses.dataclass(frozen=True)
class PhysicalToss:
    """One simulated toss: its truth and every output change of every sensor, from the throw's start."""

    kind: str
    success: bool
    horn: str | None
    rest_us: int | None
    """When the ring came to rest (None: it never did within the simulation)."""
    changes: tuple[tuple[int, str, bool], ...]
    """(µs, sensor, blocked) that the ring caused, in time order."""
    glitch_changes: tuple[tuple[int, str, bool], ...] = ()
    """Electrical spikes on the receiver lines (each a pair of changes under a millisecond apart)."""

    @property
    def glitches(self) -> int:
        return len(self.glitch_changes) // 2

    def edges(self, offset_us: int = 0, source: str = "sim") -> list[BeamEdge]:
        merged = sorted(self.changes + self.glitch_changes)
        return [BeamEdge(name, blocked, t + offset_us, source) for t, name, blocked in merged]

    def lasting_changes(self, at_least_us: int = 1000) -> list[tuple[int, str, bool]]:
        """The ring's changes whose state lasted `at_least_us` (shorter ones a debounce may drop)."""
        out = []
        for k, (t, name, blocked) in enumerate(self.changes):
            following = [u for u, n, _ in self.changes[k + 1 :] if n == name]
            if not following or following[0] - t >= at_least_us:
                out.append((t, name, blocked))
        return out

    def shifted(self, by_us: int) -> PhysicalToss:
        """The same toss thrown `by_us` later."""

        def move(changes: tuple[tuple[int, str, bool], ...]) -> tuple[tuple[int, str, bool], ...]:
            return tuple((t + by_us, name, blocked) for t, name, blocked in changes)

        rest = None if self.rest_us is None else self.rest_us + by_us
        return dataclasses.replace(
            self, rest_us=rest, changes=move(self.changes), glitch_changes=move(self.glitch_changes)
        )

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "success": self.success, "horn": self.horn, "rest_us": self.rest_us}


def sensor_changes(
    figure: Figure, trajectory: Trajectory, receiver: Receiver, rng: random.Random
) -> tuple[list[tuple[int, str, bool]], bool]:
    """Every sensor's output changes (µs, name, blocked) and whether any beam's light met the ring."""
    changes: list[tuple[int, str, bool]] = []
    crossed = False
    for beam in figure.beams:
        share = blocked_share(figure, trajectory, beam)
        crossed = crossed or bool(share.max() > 0)
        changes += [
            (t, beam.name, blocked) for t, blocked in receiver_edges(share, trajectory.t, receiver, rng)
        ]
    for name in figure.knock_sensors:
        changes += [(t, name, on) for t, on in knock_edges(figure, trajectory)]
    return sorted(changes), crossed


def glitch_changes(
    changes: list[tuple[int, str, bool]], names: list[str], span_us: int, rng: random.Random, rate: float
) -> list[tuple[int, str, bool]]:
    """Electrical spikes under a millisecond on random receiver lines, kept 2 ms clear of the ring's own
    edges (so each stays a glitch); on a blocked beam a spike is a flicker to clear and back."""
    out: list[tuple[int, str, bool]] = []
    if rng.random() >= rate:
        return out
    for _ in range(rng.randint(1, 3)):
        start, name = rng.randint(0, span_us), rng.choice(names)
        end = start + rng.randint(*GLITCH_US)
        mine = sorted((t, b) for t, n, b in changes + out if n == name)
        if any(abs(t - start) < 2000 or abs(t - end) < 2000 for t, _ in mine):
            continue
        before = [b for t, b in mine if t < start]
        blocked = before[-1] if before else False
        out += [(start, name, not blocked), (end, name, blocked)]
    return sorted(out)


def physical_toss(
    figure: Figure,
    throw: Throw,
    receiver: Receiver | None = None,
    rng: random.Random | None = None,
    glitch_rate: float = 0.3,
) -> PhysicalToss:
    return toss_from_trajectory(figure, simulate(figure, throw), receiver, rng, glitch_rate)


def toss_from_trajectory(
    figure: Figure,
    trajectory: Trajectory,
    receiver: Receiver | None = None,
    rng: random.Random | None = None,
    glitch_rate: float = 0.3,
) -> PhysicalToss:
    """What the sensors of `figure` report of a ring flying as `trajectory` (the same flight may be seen
    by beams placed a little differently, or by other receivers)."""
    rng = rng or random.Random(0)
    changes, crossed = sensor_changes(figure, trajectory, receiver or Receiver(), rng)
    span = round(trajectory.t[-1] * 1e6)
    spikes = glitch_changes(changes, [b.name for b in figure.beams], span, rng, glitch_rate)
    kind, horn = classify(figure, trajectory, crossed)
    rest = round(trajectory.rest_s * 1e6) if trajectory.rest_s is not None else None
    return PhysicalToss(kind, horn is not None, horn, rest, tuple(changes), tuple(spikes))
