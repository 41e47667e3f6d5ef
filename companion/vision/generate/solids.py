"""Solid things above the table, for the world renderer: meshes in world millimetres.

World frame: x and y as the game's plane (millimetres, x to the right, y down the plane as drawn,
origin at the plane's top-left corner), z up from the plane of the markers. A scene renderer
returns the solids its labels put on the table (the bull's head, its horns, rings at their poses);
the world renderer lights and projects them.
"""

from __future__ import annotations

import dataclasses

import numpy
import numpy.typing

FloatArray = numpy.typing.NDArray[numpy.float64]


@dataclasses.dataclass(frozen=True)
class Solid:
    """A closed mesh: vertices (N, 3) in world mm, faces as vertex index tuples (3 or 4, counter-
    clockwise seen from outside), and each face's albedo as BGR 0-255 (F, 3)."""

    vertices_mm: FloatArray
    faces: tuple[tuple[int, ...], ...]
    albedo_bgr: FloatArray
    name: str = ""

    def __post_init__(self) -> None:
        if self.vertices_mm.ndim != 2 or self.vertices_mm.shape[1] != 3:
            raise ValueError(f"solid {self.name!r}: vertices must be (N, 3), not {self.vertices_mm.shape}")
        if self.albedo_bgr.shape != (len(self.faces), 3):
            raise ValueError(
                f"solid {self.name!r}: {len(self.faces)} faces need albedo of shape ({len(self.faces)}, 3), "
                f"not {self.albedo_bgr.shape}"
            )
        count = len(self.vertices_mm)
        for face in self.faces:
            if len(face) not in (3, 4) or not all(0 <= i < count for i in face):
                raise ValueError(f"solid {self.name!r}: face {face} is not 3 or 4 indices below {count}")
