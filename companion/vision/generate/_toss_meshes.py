"""Meshes of the toss figure and its rings, in world mm (solids.py): boxes, tapering cylinders, tori.

Faces are quads wound so that, in the right-handed frame (x, y, -z) the camera works in, their normal
(v1 - v0) x (v2 - v0) points outwards; the world renderer lights whichever side the lens sees anyway.
"""

from __future__ import annotations

import numpy
import numpy.typing

from companion.vision.generate.solids import Solid

FloatArray = numpy.typing.NDArray[numpy.float64]
Colour = tuple[float, float, float]


def box(
    low: tuple[float, float, float], high: tuple[float, float, float], albedo: Colour, name: str
) -> Solid:
    """An axis-aligned box from its lowest to its highest corner (mm, z up)."""
    (x0, y0, z0), (x1, y1, z1) = low, high
    vertices = numpy.array(
        [[x, y, z] for z in (z0, z1) for y in (y0, y1) for x in (x0, x1)], numpy.float64
    )  # index = 4 * top + 2 * far + right
    faces = ((0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3))
    return Solid(vertices, faces, numpy.tile(numpy.array(albedo, numpy.float64), (len(faces), 1)), name)


def _frame_of(axis: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Two unit vectors square to `axis` and to each other."""
    helper = numpy.array([1.0, 0.0, 0.0]) if abs(axis[0]) < 0.9 else numpy.array([0.0, 1.0, 0.0])
    first = numpy.cross(axis, helper)
    first /= numpy.linalg.norm(first)
    return first, numpy.cross(axis, first)


def tapered_cylinder(
    base: FloatArray,
    axis: FloatArray,
    length: float,
    radii: tuple[float, float],
    albedo: Colour,
    name: str,
    *,
    sides: int = 20,
    segments: int = 6,
    lighter_towards_end: float = 0.0,
) -> Solid:
    """A cylinder (a horn: tapering, a post: straight) from `base` along the unit `axis`, closed at its
    end. Cut into `segments` along its length so that it sorts well against rings around it."""
    axis = numpy.asarray(axis, numpy.float64) / numpy.linalg.norm(axis)
    first, second = _frame_of(axis)
    angles = numpy.linspace(0.0, 2 * numpy.pi, sides, endpoint=False)
    rings = []
    for step in range(segments + 1):
        share = step / segments
        radius = radii[0] + (radii[1] - radii[0]) * share
        centre = base + axis * length * share
        rings.append(
            centre + radius * (numpy.cos(angles)[:, None] * first + numpy.sin(angles)[:, None] * second)
        )
    vertices = numpy.concatenate([*rings, (base + axis * length)[None, :]])
    faces: list[tuple[int, ...]] = []
    albedo_rows = []
    colour = numpy.array(albedo, numpy.float64)
    for step in range(segments):
        shade = numpy.clip(colour * (1 + lighter_towards_end * (step + 0.5) / segments), 0, 255)
        for k in range(sides):
            a, b = step * sides + k, step * sides + (k + 1) % sides
            faces.append((a, b, b + sides, a + sides))
            albedo_rows.append(shade)
    tip = len(vertices) - 1
    for k in range(sides):  # the end, as a fan of triangles
        faces.append((segments * sides + k, segments * sides + (k + 1) % sides, tip))
        albedo_rows.append(albedo_rows[-1])
    return Solid(vertices, tuple(faces), numpy.array(albedo_rows), name)


def torus(
    centre: FloatArray,
    normal: FloatArray,
    radius: float,
    cord_radius: float,
    albedo: Colour,
    name: str,
    *,
    segments: int = 40,
    sides: int = 8,
    twist_strands: int = 3,
) -> Solid:
    """A rope ring: the cord (radius `cord_radius`) around a circle of `radius` about `normal`. The
    strands of a twisted rope show as darker grooves running round the cord at a slant."""
    normal = numpy.asarray(normal, numpy.float64) / numpy.linalg.norm(normal)
    first, second = _frame_of(normal)
    around = numpy.linspace(0.0, 2 * numpy.pi, segments, endpoint=False)
    across = numpy.linspace(0.0, 2 * numpy.pi, sides, endpoint=False)
    outward = numpy.cos(around)[:, None] * first + numpy.sin(around)[:, None] * second  # (segments, 3)
    spoke = (
        numpy.cos(across)[None, :, None] * outward[:, None, :]
        + numpy.sin(across)[None, :, None] * normal[None, None, :]
    )
    vertices = (centre + radius * outward)[:, None, :] + cord_radius * spoke
    faces: list[tuple[int, ...]] = []
    albedo_rows = []
    colour = numpy.array(albedo, numpy.float64)
    for i in range(segments):
        for j in range(sides):
            a, b = i * sides + j, i * sides + (j + 1) % sides
            c, d = ((i + 1) % segments) * sides + (j + 1) % sides, ((i + 1) % segments) * sides + j
            faces.append((a, d, c, b))
            groove = (i * twist_strands / segments * sides + j) % (sides / twist_strands) < 0.9
            albedo_rows.append(colour * (0.72 if groove else 1.0))
    return Solid(vertices.reshape(-1, 3), tuple(faces), numpy.array(albedo_rows), name)
