"""Rings where the rigid-body simulator left them: the toss generator's rings and their truth.

Real throws at the horns (companion/sim/ringtoss: draw_throw, simulate) come to rest around a horn,
leaning on one, beside or between them, or on the table. Each rest is kept in the simulator's frame
and reused in the figure's four mirror images (it is symmetric left-right and front-back). A horn wears
a ring when its axis passes through the ring's hole: the simulator's own test (tosses.ring_around).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
from collections.abc import Mapping
from typing import Any

import numpy

Rng = numpy.random.Generator

RING_CLEARANCE_MM = 72.0
"""Rings from different throws closer than this (centre to centre) would overlap: one is drawn again."""
POOL_TOSSES = 160
POOL_SEED = 20261126


@dataclasses.dataclass(frozen=True)
class RestingRing:
    """A ring at rest, in the simulator's frame (origin on the plate between the horns, x to the right
    horn, y away from the players, z up; mm)."""

    position: tuple[float, float, float]
    normal: tuple[float, float, float]
    kind: str

    def mirrored(self, x: bool, y: bool) -> RestingRing:
        """The same rest seen in the figure's mirror (it is symmetric left-right and front-back)."""
        sx, sy = (-1.0 if x else 1.0), (-1.0 if y else 1.0)
        (px, py, pz), (nx, ny, nz) = self.position, self.normal
        return RestingRing((sx * px, sy * py, pz), (sx * nx, sy * ny, nz), self.kind)


@functools.lru_cache(maxsize=4)
def resting_rings(count: int = POOL_TOSSES, seed: int = POOL_SEED) -> tuple[RestingRing, ...]:
    """Where `count` simulated throws left their ring (a twentieth of a second of CPU each)."""
    from companion.sim.ringtoss.figure import load_figure
    from companion.sim.ringtoss.physics import rotation_matrix, simulate
    from companion.sim.ringtoss.tosses import classify, draw_throw

    figure = load_figure()
    out = []
    for index in range(count):
        trajectory = simulate(figure, draw_throw(figure, random.Random(seed * 1_000_003 + index)))
        kind, _horn = classify(figure, trajectory, False)
        normal = rotation_matrix(trajectory.final_quat)[:, 2]
        position = trajectory.final_position
        out.append(RestingRing(tuple(map(float, position)), tuple(map(float, normal)), kind))  # type: ignore[arg-type]
    return tuple(out)


@functools.cache
def _figure() -> Any:
    from companion.sim.ringtoss.figure import load_figure

    return load_figure()


@functools.lru_cache(maxsize=4)
def variants(pool: tuple[RestingRing, ...]) -> tuple[tuple[RestingRing, str | None], ...]:
    """Every ring of the pool in the figure's four mirror images, with the horn through each."""
    mirrored = [r.mirrored(bool(mx), bool(my)) for r in pool for mx in (0, 1) for my in (0, 1)]
    return tuple((ring, horn_through(ring)) for ring in mirrored)


def horn_through(ring: RestingRing) -> str | None:
    """The horn whose axis passes through the ring's hole: the simulator's own truth."""
    from companion.sim.ringtoss.physics import rotation_matrix
    from companion.sim.ringtoss.tosses import ring_around

    normal = numpy.array(ring.normal)
    normal = normal if normal[2] >= 0 else -normal  # a ring upside down is the same ring
    # ring_around wants the orientation; any rotation taking z to the ring's normal will do.
    axis = numpy.cross([0.0, 0.0, 1.0], normal)
    angle = math.acos(max(-1.0, min(1.0, float(normal[2]))))
    sin_norm = float(numpy.linalg.norm(axis))
    quat = numpy.array([1.0, 0.0, 0.0, 0.0])
    if sin_norm > 1e-9:
        axis /= sin_norm
        quat = numpy.array([math.cos(angle / 2), *(axis * math.sin(angle / 2))])
    if not numpy.allclose(rotation_matrix(quat)[:, 2], normal, atol=1e-6):
        raise ValueError(f"no rotation found for the ring's normal {normal}")  # pragma: no cover
    return ring_around(_figure(), numpy.array(ring.position), quat)


def choose_rings(
    labels: Mapping[str, str], rng: Rng, pool: tuple[RestingRing, ...], hard: bool
) -> list[RestingRing]:
    """Rings for the labels: one at rest around each "ring" horn, and 0-2 (hard: 0-3) that missed."""
    every = variants(pool)
    chosen: list[RestingRing] = []

    def clear_of_others(ring: RestingRing) -> bool:
        return all(math.dist(ring.position, other.position) > RING_CLEARANCE_MM for other in chosen)

    for side in ("left", "right"):
        if labels.get(f"horn:{side}") == "ring":
            around = [r for r, horn in every if horn == side and clear_of_others(r)]
            chosen.append(around[int(rng.integers(len(around)))])
    misses = [r for r, horn in every if horn is None]
    for _ in range(int(rng.integers(0, 4 if hard else 3))):
        for _attempt in range(30):
            ring = misses[int(rng.integers(len(misses)))]
            if clear_of_others(ring):
                chosen.append(ring)
                break
    return chosen


def truth(rings: list[RestingRing]) -> dict[str, str]:
    through = {horn_through(ring) for ring in rings}
    return {f"horn:{side}": ("ring" if side in through else "clear") for side in ("left", "right")}
