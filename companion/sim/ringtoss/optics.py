"""Light and receivers: how much of each beam's light the ring's cord blocks, and what the receiver says.

A beam's light is a bundle of parallel rays filling its light path (a
cylinder from emitter to receiver). The cord is a tube around the ring's
centre line, that is the union of balls of the cord's radius centred on the
line, so a ray is blocked exactly when, seen along the beam, it passes within
a cord radius of the centre line's outline (an ellipse). The receiver reports
"blocked" once the blocked share of the rays reaches its threshold and "clear"
once it falls below the threshold less a little hysteresis, after a short
delay; electrical glitches are spikes shorter than a millisecond.

The knock sensor (a piezo disc under the head with a comparator and a
retriggerable pulse) feels the ring's impacts: an impulse on the figure fully,
one on the table less the farther away it lands.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random

import numpy

from companion.sim.ringtoss.figure import Figure, LightPath
from companion.sim.ringtoss.physics import STEP_S, Trajectory, rotation_matrices

OUTLINE_POINTS = 128
MOVED_MM = 0.01
"""A pose that moved less than this since the last one computed keeps its blocked share (a ring at rest)."""
KNOCK_IMPULSE_NS = 0.0008
"""An impact's impulse per 0.5 ms step that trips the knock sensor (an 8 g ring stopped by 0.1 m/s)."""
KNOCK_TABLE_FALLOFF_MM = 200.0
KNOCK_PULSE_US = 30_000
"""The comparator's pulse, held this long after the last impulse over the threshold."""


@dataclasses.dataclass(frozen=True)
class Receiver:
    threshold: float = 0.5
    """Share of the light path blocked at which the receiver's output switches to "blocked"."""
    hysteresis: float = 0.1
    delay_us: tuple[int, int] = (20, 150)
    """The output follows the light this much later (a range: each edge draws its own)."""


def _ray_offsets(radius: float) -> numpy.ndarray:
    """Points filling the light path's cross-section evenly (a hexagonal grid, 19 or so rays)."""
    spacing = radius / 2.2
    out = []
    for i in range(-4, 5):
        for j in range(-4, 5):
            v = spacing * (i + 0.5 * j)
            w = spacing * j * math.sqrt(3) / 2
            if v * v + w * w <= radius * radius * 1.0001:
                out.append((v, w))
    return numpy.array(out)


def _frame(beam: LightPath) -> tuple[numpy.ndarray, float, numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """(start, length, u along the beam, v and w across it)."""
    start = numpy.asarray(beam.start)
    along = numpy.asarray(beam.end) - start
    length = float(numpy.linalg.norm(along))
    u = along / length
    helper = numpy.array([0.0, 0.0, 1.0]) if abs(u[2]) < 0.9 else numpy.array([0.0, 1.0, 0.0])
    v = numpy.cross(u, helper)
    v /= numpy.linalg.norm(v)
    return start, length, u, v, numpy.cross(u, v)


@functools.lru_cache(maxsize=256)
def rays_the_horns_block(figure: Figure, beam: LightPath) -> numpy.ndarray:
    """Which of the beam's rays a horn itself stands in (a beam placed too close to a horn or its tip)."""
    start, length, u, v, w = _frame(beam)
    rays = _ray_offsets(beam.radius)
    blocked = numpy.zeros(len(rays), dtype=bool)
    along = numpy.linspace(0, length, max(2, int(length / 0.25)))
    for k, (dv, dw) in enumerate(rays):
        points = start + numpy.outer(along, u) + dv * v + dw * w
        for horn in figure.horns:
            rel = points - numpy.asarray(horn.base)
            height = rel @ numpy.asarray(horn.axis)
            radial = numpy.linalg.norm(rel - numpy.outer(height, horn.axis), axis=1)
            inside = (height >= 0) & (height <= horn.length)
            radius = (
                horn.base_radius
                + (horn.tip_radius - horn.base_radius) * numpy.clip(height, 0, horn.length) / horn.length
            )
            blocked[k] |= bool(numpy.any(inside & (radial < radius)))
    blocked.flags.writeable = False  # shared by every caller (cached)
    return blocked


def blocked_share(figure: Figure, trajectory: Trajectory, beam: LightPath) -> numpy.ndarray:
    """For every step, the share (0-1) of the beam's rays that the cord or a horn blocks."""
    start, length, u, v, w = _frame(beam)
    by_horn = rays_the_horns_block(figure, beam)
    ring = figure.ring
    rel = trajectory.position - start
    cu, cv, cw = rel @ u, rel @ v, rel @ w
    reach = ring.outer_radius + beam.radius + 0.5
    near = (numpy.hypot(cv, cw) < reach) & (cu > -reach) & (cu < length + reach)
    share = numpy.full(len(rel), by_horn.mean())
    index = numpy.flatnonzero(near)
    if index.size == 0:
        return share
    # A ring at rest is computed once: only steps whose pose moved since the step before are computed.
    pose = numpy.concatenate(
        [trajectory.position[index] / MOVED_MM, trajectory.quat[index] * ring.centre_radius / MOVED_MM],
        axis=1,
    ).round()
    moved = numpy.ones(len(index), dtype=bool)
    moved[1:] = (numpy.diff(index) != 1) | numpy.any(pose[1:] != pose[:-1], axis=1)
    kept = index[moved]
    theta = numpy.linspace(0, 2 * math.pi, OUTLINE_POINTS, endpoint=False)
    circle = (
        numpy.stack([numpy.cos(theta), numpy.sin(theta), numpy.zeros_like(theta)], axis=1)
        * ring.centre_radius
    )
    rays = _ray_offsets(beam.radius)
    for chunk in numpy.array_split(kept, max(1, len(kept) // 128)):
        rot = rotation_matrices(trajectory.quat[chunk])
        points = numpy.matmul(rot, circle.T).transpose(0, 2, 1) + rel[chunk][:, None, :]  # (t, k, 3)
        pu, pv, pw = points @ u, points @ v, points @ w
        inside = (pu > 0) & (pu < length)
        # Only poses whose outline comes within a cord and a light path's radius of the beam's axis
        # can block a ray: the rest of the chunk keeps the horns' share.
        reach2 = (ring.cord_radius + beam.radius + 0.1) ** 2
        close = numpy.flatnonzero(numpy.any(inside & (pv * pv + pw * pw < reach2), axis=1))
        share[chunk] = by_horn.mean()
        if close.size == 0:
            continue
        dv = pv[close, None, :] - rays[None, :, 0, None]
        dw = pw[close, None, :] - rays[None, :, 1, None]
        hit = ((dv * dv + dw * dw) < ring.cord_radius**2) & inside[close, None, :]
        share[chunk[close]] = (hit.any(axis=2) | by_horn[None, :]).mean(axis=1)
    # Fill the skipped (unmoved) steps with the share of the step kept before them.
    filled = numpy.zeros(len(rel), dtype=int)
    filled[kept] = kept
    filled = numpy.maximum.accumulate(filled)
    return numpy.where(near, share[filled], by_horn.mean())


def receiver_edges(
    share: numpy.ndarray, t_s: numpy.ndarray, receiver: Receiver, rng: random.Random
) -> list[tuple[int, bool]]:
    """(µs, blocked) output changes of a receiver watching a beam whose blocked share is `share`."""
    out: list[tuple[int, bool]] = []
    state = False
    previous = 0.0
    on, off = receiver.threshold, receiver.threshold - receiver.hysteresis
    for k in numpy.flatnonzero(numpy.abs(numpy.diff(share, prepend=0.0)) > 0):
        value = share[k]
        level = off if state else on
        crossed = value >= on if not state else value < off
        if crossed:
            before = share[k - 1] if k else previous
            frac = (level - before) / (value - before) if value != before else 1.0
            t = t_s[k] - STEP_S * (1 - min(1.0, max(0.0, frac)))
            state = not state
            out.append((round(t * 1e6) + rng.randint(*receiver.delay_us), state))
    # Edges with their own delays must stay in order and apart.
    cleaned: list[tuple[int, bool]] = []
    for t, blocked in out:
        if cleaned and t <= cleaned[-1][0]:
            t = cleaned[-1][0] + 1
        cleaned.append((t, blocked))
    return cleaned


def knock_edges(figure: Figure, trajectory: Trajectory) -> list[tuple[int, bool]]:
    """(µs, on) pulses of the knock sensor: impacts of the ring, felt less the farther off the figure."""
    v = trajectory.velocity
    if len(v) < 2:
        return []
    dv = numpy.diff(v, axis=0)
    dv[:, 2] += 9.81 * STEP_S
    impulse = numpy.linalg.norm(dv, axis=1) * figure.ring.mass_g / 1000
    hx, hy = figure.head_half_size
    px, py = trajectory.position[1:, 0], trajectory.position[1:, 1]
    outside = numpy.hypot(numpy.maximum(numpy.abs(px) - hx, 0), numpy.maximum(numpy.abs(py) - hy, 0))
    on_table = trajectory.position[1:, 2] < figure.table_z + figure.ring.outer_radius + 2
    felt = numpy.where(on_table, impulse / (1 + (outside / KNOCK_TABLE_FALLOFF_MM) ** 2), impulse)
    hits = numpy.flatnonzero(felt >= KNOCK_IMPULSE_NS)
    out: list[tuple[int, bool]] = []
    end = -1
    for k in hits:
        t = round(trajectory.t[k + 1] * 1e6)
        if t > end:
            if out:
                out.append((end, False))
            out.append((t, True))
        end = t + KNOCK_PULSE_US
    if out:
        out.append((end, False))
    return out
