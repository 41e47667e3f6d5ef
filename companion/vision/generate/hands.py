"""Arms and hands reaching over the table, as solids: skin of every tone, sleeves, real size.

An arm comes from a player sitting at one of the table's sides: the shoulder beyond the table's
edge, well above it, the hand hovering over (or just touching) somewhere in the play area. It is
built of tapered tubes (upper arm, forearm, fingers, thumb) and a flattened box (the palm), so the
world renderer lights it, sees it with parallax and lets it cast a shadow like any other solid.
"""

from __future__ import annotations

import math

import numpy
import numpy.typing

from companion.vision.generate.solids import Solid

Rng = numpy.random.Generator
FloatArray = numpy.typing.NDArray[numpy.float64]

SKIN_TONES_BGR: dict[str, tuple[float, float, float]] = {
    "very light": (188, 206, 238),
    "light": (150, 180, 226),
    "medium light": (118, 152, 204),
    "medium": (84, 122, 172),
    "dark": (52, 78, 122),
    "very dark": (32, 45, 70),
}
"""Skin albedo from very light to very dark (roughly the six Fitzpatrick types), BGR."""
SLEEVE_BGR = ((40, 40, 40), (150, 90, 40), (230, 232, 235), (40, 40, 150), (60, 110, 60), (120, 120, 125))
TUBE_SIDES = 10


def tube(
    start: FloatArray,
    end: FloatArray,
    radius_start: float,
    radius_end: float,
    albedo: tuple[float, float, float],
    name: str,
) -> Solid:
    """A closed tapered tube (a prism of TUBE_SIDES sides, capped) from `start` to `end`."""
    axis = end - start
    length = float(numpy.linalg.norm(axis))
    forward = axis / max(length, 1e-9)
    helper = numpy.array([0.0, 0.0, 1.0]) if abs(forward[2]) < 0.9 else numpy.array([1.0, 0.0, 0.0])
    side = numpy.cross(forward, helper)
    side /= numpy.linalg.norm(side)
    up = numpy.cross(side, forward)
    angles = numpy.linspace(0, 2 * math.pi, TUBE_SIDES, endpoint=False)
    ring = numpy.cos(angles)[:, None] * side + numpy.sin(angles)[:, None] * up
    vertices = numpy.concatenate([start + radius_start * ring, end + radius_end * ring, [start, end]])
    n = TUBE_SIDES
    faces: list[tuple[int, ...]] = [(i, (i + 1) % n, n + (i + 1) % n, n + i) for i in range(n)]
    faces += [(2 * n, (i + 1) % n, i) for i in range(n)] + [
        (2 * n + 1, n + i, n + (i + 1) % n) for i in range(n)
    ]
    return Solid(
        vertices, tuple(faces), numpy.tile(numpy.array(albedo, numpy.float64), (len(faces), 1)), name
    )


def box(centre: FloatArray, axes: FloatArray, albedo: tuple[float, float, float], name: str) -> Solid:
    """A closed box: `axes` (3, 3) are its three half-edge vectors."""
    signs = numpy.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], numpy.float64)
    vertices = centre + signs @ axes
    faces = ((0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3))
    return Solid(vertices, faces, numpy.tile(numpy.array(albedo, numpy.float64), (6, 1)), name)


def arm(plane_mm: tuple[float, float], rng: Rng, tone: str | None = None) -> tuple[list[Solid], str]:
    """An arm reaching in from one of the table's sides to a point over the play area; its tone."""
    width, height = plane_mm
    chosen = tone if tone is not None else list(SKIN_TONES_BGR)[int(rng.integers(len(SKIN_TONES_BGR)))]
    skin = tuple(float(c) for c in numpy.array(SKIN_TONES_BGR[chosen]) * rng.uniform(0.93, 1.07))
    skin_bgr = (skin[0], skin[1], skin[2])
    target = numpy.array([rng.uniform(0.1, 0.9) * width, rng.uniform(0.1, 0.9) * height, rng.uniform(25, 90)])
    # Players sit along the long sides more often than at the ends.
    side = int(rng.choice(4, p=[0.3, 0.2, 0.3, 0.2]))
    beyond = rng.uniform(250, 420)
    along = rng.uniform(0.1, 0.9)
    shoulder_xy = [
        (along * width, -beyond),
        (width + beyond, along * height),
        (along * width, height + beyond),
        (-beyond, along * height),
    ][side]
    shoulder = numpy.array([*shoulder_xy, rng.uniform(180, 300)])
    reach = target - shoulder
    flat = numpy.array([reach[0], reach[1], 0.0])
    flat /= numpy.linalg.norm(flat)
    # The elbow drops below the line from shoulder to hand, as a relaxed arm's does.
    elbow = shoulder + reach * rng.uniform(0.4, 0.55) - numpy.array([0.0, 0.0, rng.uniform(0, 40)])
    elbow[2] = max(elbow[2], target[2] + 20)
    palm_length = rng.uniform(80, 100)
    wrist = target - flat * palm_length / 2 + numpy.array([0.0, 0.0, 8.0])
    solids: list[Solid] = []
    sleeve = SLEEVE_BGR[int(rng.integers(len(SLEEVE_BGR)))]
    sleeve_bgr = (float(sleeve[0]), float(sleeve[1]), float(sleeve[2]))
    solids.append(tube(shoulder, elbow, 48, 42, sleeve_bgr, "upper arm"))
    cuff = rng.uniform(0.0, 0.85)  # a short sleeve (0) to one down to the wrist
    forearm_at = elbow + (wrist - elbow) * cuff
    if cuff > 0.05:
        solids.append(tube(elbow, forearm_at, 44, 40, sleeve_bgr, "sleeve"))
    solids.append(tube(forearm_at, wrist, 36 - 8 * cuff, 26, skin_bgr, "forearm"))
    across = numpy.cross(flat, [0.0, 0.0, 1.0])
    palm_width = rng.uniform(70, 90)
    tilt = numpy.array([0.0, 0.0, -rng.uniform(0.0, 0.35)])  # fingers a little lower than the wrist
    forward = flat + tilt
    forward /= numpy.linalg.norm(forward)
    up = numpy.cross(across, forward)
    solids.append(
        box(
            target,
            numpy.stack([forward * palm_length / 2, across * palm_width / 2, up * 13]),
            skin_bgr,
            "palm",
        )
    )
    knuckles = target + forward * palm_length / 2
    spread = rng.uniform(0.0, 0.25)
    for finger in range(4):
        offset = (finger - 1.5) / 1.5
        base = knuckles + across * offset * palm_width * 0.38
        length = rng.uniform(55, 80) * (1.0 - 0.15 * abs(offset))
        direction = forward + across * offset * spread + numpy.array([0.0, 0.0, -rng.uniform(0.0, 0.6)])
        direction /= numpy.linalg.norm(direction)
        tip = base + direction * length
        tip[2] = max(tip[2], 6.0)
        solids.append(tube(base, tip, 9.0, 7.0, skin_bgr, f"finger {finger}"))
    thumb_side = 1.0 if rng.random() < 0.5 else -1.0
    thumb_base = target - forward * palm_length * 0.2 + across * thumb_side * palm_width * 0.5
    thumb_tip = thumb_base + (forward * 0.6 + across * thumb_side * 0.5) * rng.uniform(45, 60)
    thumb_tip[2] = max(thumb_tip[2] - 10, 6.0)
    solids.append(tube(thumb_base, thumb_tip, 11.0, 8.0, skin_bgr, "thumb"))
    return solids, chosen
