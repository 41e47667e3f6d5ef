"""Asterion: where the cells lie on the plane, and the plane shrunk to the templates' scale.

The grid of cells as the layout places it, fitted per frame to where the tiles read lie (`GridFit`:
an offset and a stretch per axis; marker sheets laid by their paper's cut edge stretch the plane
5 %, 8 mm at the rim), and the plane shrunk and converted to Lab and grey once for every cell's
window (`SmallPlane`).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import cv2
import numpy

from companion.vision.base import PLANE_PX_PER_MM, Frame, ItemRegion, Layout
from companion.vision.recognisers._asterion_match import SHIFT_PX, TEMPLATE_PX, Window
from companion.vision.recognisers._lab import FloatArray, to_lab

CELL_MM = 44.0
TILE_MM = 41.0
MARGIN_MM = 36.0
"""Clear of the 30 mm corner markers."""

SCALE = Fraction(2 * TEMPLATE_PX, round(CELL_MM * PLANE_PX_PER_MM))
"""From the plane halved to template scale: 10 pixels for every 11 (a whole ratio, so cells stay on
whole pixels)."""
SMALL_ORIGIN_PX = round((MARGIN_MM - CELL_MM / 2) * PLANE_PX_PER_MM)
"""Where the shrunk plane starts (plane pixels): half a cell before the grid, so that every cell's
centre falls on a whole pixel of it and its window, shifts and all, lies inside."""

_SMALL_PER_PX = float(SCALE) / 2


@dataclasses.dataclass(frozen=True)
class SmallPlane:
    """The plane at template scale from SMALL_ORIGIN_PX on: Lab and grey, converted once for every cell."""

    lab: FloatArray
    grey: FloatArray

    @classmethod
    def of(cls, plane: Frame) -> SmallPlane:
        """Halved by area averaging, then shrunk by SCALE along straight lines: OpenCV averages areas ten
        times faster by a whole factor than by 2.2; one resize of the plane costs less than 60 of cells."""
        height, width = plane.shape[:2]
        block = 2 * SCALE.denominator
        across, down = (width - SMALL_ORIGIN_PX) // block, (height - SMALL_ORIGIN_PX) // block
        crop = plane[
            SMALL_ORIGIN_PX : SMALL_ORIGIN_PX + down * block,
            SMALL_ORIGIN_PX : SMALL_ORIGIN_PX + across * block,
        ]
        halved = cv2.resize(
            crop, (across * SCALE.denominator, down * SCALE.denominator), interpolation=cv2.INTER_AREA
        )
        small = numpy.asarray(
            cv2.resize(
                halved, (across * SCALE.numerator, down * SCALE.numerator), interpolation=cv2.INTER_LINEAR
            ),
            numpy.uint8,
        )
        return cls(to_lab(small), numpy.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), numpy.float32))

    def window(self, region: ItemRegion, offset: tuple[int, int] = (0, 0)) -> Window:
        """The cell's window (TEMPLATE_PX and SHIFT_PX to spare each side), `offset` pixels off its place."""
        cx, cy = region.centre_px()
        half = TEMPLATE_PX // 2 + SHIFT_PX
        height, width = self.grey.shape
        x = min(max(half, round((cx - SMALL_ORIGIN_PX) * _SMALL_PER_PX) + offset[0]), width - half)
        y = min(max(half, round((cy - SMALL_ORIGIN_PX) * _SMALL_PER_PX) + offset[1]), height - half)
        return Window(
            self.lab[y - half : y + half, x - half : x + half],
            self.grey[y - half : y + half, x - half : x + half],
        )

    def rough_contrast(self, region: ItemRegion, offset: tuple[int, int] = (0, 0)) -> float:
        """The spread of grey inside a cell, away from its edges: a quick first look."""
        window = self.window(region, offset).grey
        inside = window[SHIFT_PX + 6 : -SHIFT_PX - 6, SHIFT_PX + 6 : -SHIFT_PX - 6]
        return float(cv2.meanStdDev(numpy.ascontiguousarray(inside))[1][0, 0])


GRID_STIFFNESS = 1.0
"""How firmly the grid's stretch is held at none while few tiles show it (a cell's worth of offset
counts as much as one tile's)."""
MAX_STRETCH = 0.1
"""The grid is stretched at most this much (a sheet laid by its cut edge: 5 %)."""


class GridFit:
    """Where the cells really lie on the plane: per axis an offset and a stretch about the middle cell,
    fitted to where the tiles read so far lay (template pixels)."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        centres = numpy.array([region.centre_px() for region in layout.items.values()])
        self.middle = centres.mean(axis=0) * _SMALL_PER_PX
        self.seen: list[tuple[float, float, float, float]] = []
        """(x, y from the middle, x, y offset found) per tile, template pixels."""
        self.model = ((0.0, 0.0), (0.0, 0.0))

    def rings(self) -> list[list[tuple[int, str]]]:
        """The cells by rings round the middle (Chebyshev distance, in cells), innermost first."""
        cell = CELL_MM * PLANE_PX_PER_MM * _SMALL_PER_PX
        rings: dict[int, list[tuple[int, str]]] = {}
        for index, (item_id, region) in enumerate(self.layout.items.items()):
            x, y = self._from_middle(region)
            rings.setdefault(round(max(abs(x), abs(y)) / cell), []).append((index, item_id))
        return [rings[ring] for ring in sorted(rings)]

    def _from_middle(self, region: ItemRegion) -> tuple[float, float]:
        cx, cy = region.centre_px()
        return cx * _SMALL_PER_PX - self.middle[0], cy * _SMALL_PER_PX - self.middle[1]

    def offset(self, region: ItemRegion) -> tuple[int, int]:
        """Where the model puts the cell, from its place (whole template pixels)."""
        x, y = self._from_middle(region)
        (ax, bx), (ay, by) = self.model
        return round(ax + bx * x), round(ay + by * y)

    def found(self, region: ItemRegion, offset: tuple[int, int], shift: tuple[int, int]) -> None:
        x, y = self._from_middle(region)
        self.seen.append((x, y, offset[0] + shift[0], offset[1] + shift[1]))

    def refit(self) -> None:
        """Least squares per axis, the stretch held towards none (GRID_STIFFNESS) and bounded."""
        if not self.seen:
            return
        seen = numpy.array(self.seen)
        cell = CELL_MM * PLANE_PX_PER_MM * _SMALL_PER_PX
        fits = []
        for axis in (0, 1):
            u, v = seen[:, axis], seen[:, axis + 2]
            n, su, suu = len(u), u.sum(), (u * u).sum() + GRID_STIFFNESS * cell * cell
            sv, suv = v.sum(), (u * v).sum()
            determinant = n * suu - su * su
            stretch = (n * suv - su * sv) / determinant
            stretch = min(MAX_STRETCH, max(-MAX_STRETCH, stretch))
            fits.append(((sv - stretch * su) / n, stretch))
        self.model = (fits[0], fits[1])
