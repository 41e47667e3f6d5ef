"""Which resting rings block which base beams: the numbers behind hardware/beams.md.

A static study of resting poses (not a physics simulation): the head is the
plane z = 0, the left horn stands at the origin (the right one 110 mm to the
right), a ring is a circle of 32.5 mm centre-line radius with a 5 mm cord,
and a beam is a 3 mm wide segment. Poses are drawn at random per class and
the script prints, per candidate layout, how often each class blocks any/all
of the layout's beams. Run: `python hardware/beam_study.py` (a few seconds):
it prints the table in hardware/beams.md.
"""

from __future__ import annotations

import math
import random

RING_R = 32.5  # centre-line radius of a 70 mm ring with a 5 mm cord
CORD_R = 2.5
BEAM_R = 1.5  # half the width of the light path between emitter and receiver lenses
HORN_R = 12.0  # horn radius at the head
HORN_GAP = 110.0  # axis to axis; the right horn is at x = +110
SAMPLES = 2000

Point = tuple[float, float, float]
Segment = tuple[Point, Point]


def ring(centre: tuple[float, float], tilt_deg: float, low_azimuth: float, n: int = 120) -> list[Point]:
    """Centre-line points of a ring resting on the head, tilted with its lowest point at `low_azimuth`."""
    rise = RING_R * math.sin(math.radians(tilt_deg))
    points = []
    for k in range(n):
        a = 2 * math.pi * k / n
        z = CORD_R + rise * (1 - math.cos(a - low_azimuth))
        points.append((centre[0] + RING_R * math.cos(a), centre[1] + RING_R * math.sin(a), z))
    return points


def distance(p: Point, seg: Segment) -> float:
    (ax, ay, az), (bx, by, bz) = seg
    dx, dy, dz = bx - ax, by - ay, bz - az
    u = ((p[0] - ax) * dx + (p[1] - ay) * dy + (p[2] - az) * dz) / (dx * dx + dy * dy + dz * dz)
    u = min(1.0, max(0.0, u))
    return math.dist(p, (ax + u * dx, ay + u * dy, az + u * dz))


def blocks(points: list[Point], seg: Segment) -> bool:
    return any(distance(p, seg) < CORD_R + BEAM_R for p in points)


def around(rng: random.Random, tilted: bool) -> list[Point]:
    # The horn inside the hole: the centre is at most (inner radius - horn radius) = 18 mm off the axis.
    off, angle = rng.uniform(0, 18), rng.uniform(0, 2 * math.pi)
    tilt = rng.uniform(5, 20) if tilted else 0.0
    return ring((off * math.cos(angle), off * math.sin(angle)), tilt, rng.uniform(0, 2 * math.pi))


def beside(rng: random.Random) -> list[Point]:
    # Flat on the head, touching neither horn: centre at least 47 mm (35 + 12) from both axes.
    while True:
        r, angle = rng.uniform(47, 95), rng.uniform(0, 2 * math.pi)
        c = (r * math.cos(angle), r * math.sin(angle))
        if math.dist(c, (HORN_GAP, 0)) >= 47:
            return ring(c, 0.0, 0.0)


def chord(y: float, height: float, length: float) -> Segment:
    """A beam parallel to the line between the horns, `y` mm in front of (-) or behind (+) the axis."""
    return ((-length / 2, y, height), (length / 2, y, height))


LAYOUTS: dict[str, list[Segment]] = {
    "one beam, front, 3 mm high, 60 mm": [chord(-15, 3, 60)],
    "one beam, front, 5 mm high, 110 mm": [chord(-15, 5, 110)],
    "front + back, 3 mm high, 60 mm": [chord(-15, 3, 60), chord(15, 3, 60)],
    "front + back, 5 mm high, 70 mm": [chord(-15, 5, 70), chord(15, 5, 70)],
    "front + back, 5 mm high, 110 mm (chosen)": [chord(-15, 5, 110), chord(15, 5, 110)],
    "front + back, 7 mm high, 110 mm": [chord(-15, 7, 110), chord(15, 7, 110)],
}


def main() -> None:
    rng = random.Random(3)
    classes = {
        "flat ringer": [around(rng, False) for _ in range(SAMPLES)],
        "tilted ringer": [around(rng, True) for _ in range(SAMPLES)],
        "flat ring beside": [beside(rng) for _ in range(SAMPLES)],
    }
    print("| layout | " + " | ".join(f"{c}: any / all" for c in classes) + " |")
    print("|---|" + "---|" * len(classes))
    for name, segs in LAYOUTS.items():
        cells = []
        for poses in classes.values():
            hits = [[blocks(p, s) for s in segs] for p in poses]
            anyf = sum(any(h) for h in hits) / len(hits)
            allf = sum(all(h) for h in hits) / len(hits)
            cells.append(f"{anyf:.0%} / {allf:.0%}")
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
