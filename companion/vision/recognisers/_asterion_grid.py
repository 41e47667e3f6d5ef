"""Asterion: where the cells lie on the plane, and the plane shrunk to the templates' scale.

The grid of cells as the layout places it, fitted per frame to where the tiles read lie (`GridFit`:
an offset and a stretch per axis; marker sheets laid by their paper's cut edge stretch the plane
5 %, 8 mm at the rim), the plane shrunk and converted to Lab and grey once for every cell's
window (`SmallPlane`), where a cell's corners are sampled (`corner_pixels`), and a cell's window cut
from the plane itself, turned to line a taught shot up (`cell_windows`).
"""

from __future__ import annotations

import dataclasses
import functools
from fractions import Fraction
from typing import Any

import cv2
import numpy
import numpy.typing

from companion.vision.base import PLANE_PX_PER_MM, Frame, ItemRegion, Layout
from companion.vision.components import dimension_mm
from companion.vision.recognisers._asterion_window import SHIFT_PX, TEMPLATE_PX, Window, shift_scales
from companion.vision.recognisers._lab import FloatArray
from companion.vision.reference import NEUTRAL_BGR

CELL_MM = dimension_mm("asterion", "cell")
TILE_MM = dimension_mm("asterion", "tile")
MARGIN_MM = 36.0
"""Clear of the 30 mm corner markers."""
CORNER_INSET_MM = 3.5
"""Where a tile's corners are sampled: this far inside the tile's edge, in its coloured frame."""
CORNER_PATCH_MM = 2.0

SCALE = Fraction(2 * TEMPLATE_PX, round(CELL_MM * PLANE_PX_PER_MM))
"""From the plane halved to template scale: 10 pixels for every 11 (a whole ratio, so cells stay on
whole pixels)."""
SMALL_ORIGIN_PX = round((MARGIN_MM - CELL_MM / 2) * PLANE_PX_PER_MM)
"""Where the shrunk plane starts (plane pixels): half a cell before the grid, so that every cell's
centre falls on a whole pixel of it and its window, shifts and all, lies inside."""

_SMALL_PER_PX = float(SCALE) / 2
_NEUTRAL_GREY = int(cv2.cvtColor(numpy.array([[NEUTRAL_BGR]], numpy.uint8), cv2.COLOR_BGR2GRAY)[0, 0])


class PlaneBuffers:
    """Arrays `SmallPlane.of` writes a frame's shrunk plane into, kept from frame to frame: fresh ones
    cost their pages each frame (1.5 ms of the 2.6 a 936 x 760 plane's SmallPlane took, 2 of the
    recogniser's ~10). A reader keeps one and builds one SmallPlane at a time from it."""

    __slots__ = ("_arrays", "_size")

    def __init__(self) -> None:
        self._arrays: dict[str, numpy.typing.NDArray[Any]] = {}
        self._size: tuple[int, int] | None = None

    def sized(self, down: int, across: int) -> PlaneBuffers:
        """These buffers for a plane of `down` x `across` blocks (made anew when the size changes)."""
        if self._size != (down, across):
            halved = (down * SCALE.denominator, across * SCALE.denominator)
            small = (down * SCALE.numerator, across * SCALE.numerator)
            summed = (small[0] + 1, small[1] + 1)
            self._size = (down, across)
            self._arrays = {
                "halved": numpy.empty((*halved, 3), numpy.uint8),
                "small": numpy.empty((*small, 3), numpy.uint8),
                "grey": numpy.empty(small, numpy.uint8),
                "values": numpy.empty(summed, numpy.int32),
                "squares": numpy.empty(summed, numpy.float64),
                "neutral": numpy.empty(small, numpy.uint8),
                "table": numpy.empty(summed, numpy.int32),
                "floats": numpy.empty(small, numpy.float32),
            }
        return self

    def get(self, name: str) -> numpy.typing.NDArray[Any]:
        """The buffer so named (`sized` first)."""
        return self._arrays[name]


@dataclasses.dataclass(frozen=True)
class SmallPlane:
    """The plane at template scale from SMALL_ORIGIN_PX on: BGR, and grey converted once for every cell
    (a cell's Lab is converted where a tile is lined up in its window, `Window.part`)."""

    bgr: Frame
    grey: FloatArray
    sums: tuple[numpy.typing.NDArray[numpy.int32], numpy.typing.NDArray[numpy.float64]]
    """The grey's integral images, of values and of their squares: a square's spread in four lookups."""
    table_sums: numpy.typing.NDArray[numpy.int32]
    """The integral image of where the grey is within 1 of the table's neutral grey (255 there;
    `table_shares`). Told by grey alone, ten times faster than by the three channels: no tile's middle
    shows a whole square of that grey, only the table."""

    @classmethod
    def of(cls, plane: Frame, buffers: PlaneBuffers | None = None) -> SmallPlane:
        """Halved by area averaging, then shrunk by SCALE along straight lines: OpenCV averages areas ten
        times faster by a whole factor than by 2.2; one resize of the plane costs less than 60 of cells.
        `buffers`: where to write it (the previous frame's SmallPlane of them is overwritten), else fresh."""
        height, width = plane.shape[:2]
        block = 2 * SCALE.denominator
        across, down = (width - SMALL_ORIGIN_PX) // block, (height - SMALL_ORIGIN_PX) // block
        crop = plane[
            SMALL_ORIGIN_PX : SMALL_ORIGIN_PX + down * block,
            SMALL_ORIGIN_PX : SMALL_ORIGIN_PX + across * block,
        ]
        to = (buffers or PlaneBuffers()).sized(down, across)
        halved = cv2.resize(
            crop,
            (across * SCALE.denominator, down * SCALE.denominator),
            dst=to.get("halved"),
            interpolation=cv2.INTER_AREA,
        )
        small = numpy.asarray(
            cv2.resize(
                halved,
                (across * SCALE.numerator, down * SCALE.numerator),
                dst=to.get("small"),
                interpolation=cv2.INTER_LINEAR,
            ),
            numpy.uint8,
        )
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY, dst=to.get("grey"))
        sums = cv2.integral2(
            grey, sum=to.get("values"), sqsum=to.get("squares"), sdepth=cv2.CV_32S, sqdepth=cv2.CV_64F
        )
        values, squares = numpy.asarray(sums[0], numpy.int32), numpy.asarray(sums[1], numpy.float64)
        neutral = cv2.inRange(grey, _NEUTRAL_GREY - 1, _NEUTRAL_GREY + 1, dst=to.get("neutral"))
        table = numpy.asarray(cv2.integral(neutral, sum=to.get("table"), sdepth=cv2.CV_32S), numpy.int32)
        floats = to.get("floats")
        numpy.copyto(floats, grey)
        return cls(small, floats, (values, squares), table)

    def centre(self, region: ItemRegion, offset: tuple[int, int] = (0, 0)) -> tuple[int, int]:
        """Where (x, y, shrunk plane pixels) the cell's window is centred, `offset` pixels off its place:
        kept far enough from the plane's edges for the whole window to lie on it."""
        cx, cy = region.centre_px()
        half = TEMPLATE_PX // 2 + SHIFT_PX
        height, width = self.grey.shape
        x = min(max(half, round((cx - SMALL_ORIGIN_PX) * _SMALL_PER_PX) + offset[0]), width - half)
        y = min(max(half, round((cy - SMALL_ORIGIN_PX) * _SMALL_PER_PX) + offset[1]), height - half)
        return x, y

    def centres(
        self, regions: list[ItemRegion], offsets: numpy.typing.NDArray[numpy.intp]
    ) -> numpy.typing.NDArray[numpy.intp]:
        """`centre` of many cells at once (x, y rows), each `offsets` (x, y rows) off its place: the same
        roundings and bounds, without Python's arithmetic per cell."""
        middles = numpy.array([region.centre_px() for region in regions], numpy.float64).reshape(-1, 2)
        # numpy's rint rounds halves to even, as Python's round does.
        at = numpy.rint((middles - SMALL_ORIGIN_PX) * _SMALL_PER_PX).astype(numpy.intp) + offsets
        half = TEMPLATE_PX // 2 + SHIFT_PX
        height, width = self.grey.shape
        return numpy.asarray(
            numpy.minimum(numpy.maximum(at, half), [width - half, height - half]), numpy.intp
        )

    def window_at(self, x: int, y: int, scales: numpy.typing.NDArray[numpy.float64] | None = None) -> Window:
        """The window centred at (x, y), shrunk plane pixels (`centre`); `scales`: its `shift_scales`
        if known (`scales_at`)."""
        half = TEMPLATE_PX // 2 + SHIFT_PX
        return Window(
            self.bgr[y - half : y + half, x - half : x + half],
            self.grey[y - half : y + half, x - half : x + half],
            scales if scales is not None else self.scales_at(numpy.array([[x, y]]))[0],
        )

    def scales_at(self, centres: numpy.typing.NDArray[numpy.intp]) -> numpy.typing.NDArray[numpy.float64]:
        """`shift_scales` of the windows centred at `centres` (x, y rows), from the plane's integral
        images: for many cells at once (numpy's calls per window cost more than their work)."""
        values, squares = self.sums
        return shift_scales(values, squares, centres - (TEMPLATE_PX // 2 + SHIFT_PX))

    def window(self, region: ItemRegion, offset: tuple[int, int] = (0, 0)) -> Window:
        """The cell's window (TEMPLATE_PX and SHIFT_PX to spare each side), `offset` pixels off its place."""
        return self.window_at(*self.centre(region, offset))

    def table_shares(self, centres: numpy.typing.NDArray[numpy.intp], side: int) -> FloatArray:
        """The share of each `side` square centred at `centres` (x, y rows) that shows the table's neutral
        grey: four lookups per cell in one integral image."""
        x0, y0 = centres[:, 0] - side // 2, centres[:, 1] - side // 2
        x1, y1 = x0 + side, y0 + side
        sums = self.table_sums
        count = (sums[y1, x1] - sums[y0, x1] - sums[y1, x0] + sums[y0, x0]) / (255.0 * side * side)
        return numpy.asarray(count, numpy.float32)

    def spreads(self, centres: numpy.typing.NDArray[numpy.intp], inset: int) -> FloatArray:
        """The spread (standard deviation) of grey inside each window centred at `centres` (x, y rows),
        `inset` pixels in from its edges: gathered for many cells at once, not cell by cell."""
        half = TEMPLATE_PX // 2 + SHIFT_PX - inset
        x0, y0 = centres[:, 0] - half, centres[:, 1] - half
        x1, y1 = x0 + 2 * half, y0 + 2 * half
        count = float(4 * half * half)
        values, squares = self.sums
        total = (values[y1, x1] - values[y0, x1] - values[y1, x0] + values[y0, x0]) / count
        total_sq = (squares[y1, x1] - squares[y0, x1] - squares[y1, x0] + squares[y0, x0]) / count
        return numpy.sqrt(numpy.maximum(total_sq - total * total, 0.0)).astype(numpy.float32)

    def rough_contrast(self, region: ItemRegion, offset: tuple[int, int] = (0, 0)) -> float:
        """The spread of grey inside a cell, away from its edges: a quick first look."""
        return float(self.spreads(numpy.array([self.centre(region, offset)]), ROUGH_INSET_PX)[0])


ROUGH_INSET_PX = SHIFT_PX + 6
"""The quick first look at a cell (`SmallPlane.rough_contrast`) keeps this far inside its window."""


GRID_STIFFNESS = 1.0
"""How firmly the grid's stretch is held at none while few tiles show it (a cell's worth of offset
counts as much as one tile's)."""
MAX_STRETCH = 0.1
"""The grid is stretched at most this much (a sheet laid by its cut edge: 5 %)."""


@dataclasses.dataclass(frozen=True)
class GridShape:
    """What the grid's fit needs of a layout, worked out once per layout, not per frame: each cell's
    centre from the middle of the grid (x, y template pixels, in the layout's order) and the cells by
    rings round the middle."""

    from_middle: numpy.typing.NDArray[numpy.float64]
    rings: list[list[tuple[int, str]]]

    @classmethod
    def of(cls, layout: Layout) -> GridShape:
        for known, shape in _SHAPES:
            if known is layout:
                return shape
        centres = numpy.array([region.centre_px() for region in layout.items.values()]) * _SMALL_PER_PX
        from_middle = centres - centres.mean(axis=0)
        cell = CELL_MM * PLANE_PX_PER_MM * _SMALL_PER_PX
        rings: dict[int, list[tuple[int, str]]] = {}
        for index, item_id in enumerate(layout.items):
            x, y = from_middle[index]
            rings.setdefault(round(max(abs(x), abs(y)) / cell), []).append((index, item_id))
        shape = cls(from_middle, [rings[ring] for ring in sorted(rings)])
        _SHAPES[:] = [(layout, shape), *_SHAPES[:3]]
        return shape


_SHAPES: list[tuple[Layout, GridShape]] = []
"""The last few layouts' shapes (a session's layout is one object read frame after frame)."""


class GridFit:
    """Where the cells really lie on the plane: per axis an offset and a stretch about the middle cell,
    fitted to where the tiles read so far lay (template pixels)."""

    def __init__(self, layout: Layout) -> None:
        self.shape = GridShape.of(layout)
        self.seen: list[tuple[float, float, float, float]] = []
        """(x, y from the middle, x, y offset found) per tile, template pixels."""
        self.model = ((0.0, 0.0), (0.0, 0.0))

    def rings(self) -> list[list[tuple[int, str]]]:
        """The cells by rings round the middle (Chebyshev distance, in cells), innermost first, each as
        (index in the layout, item id)."""
        return self.shape.rings

    def offsets(self, indices: list[int]) -> numpy.typing.NDArray[numpy.intp]:
        """Where the model puts the cells (indices in the layout), from their places (whole template
        pixels, x, y rows): the model's line per axis, rounded (halves to even, as Python's round)."""
        (ax, bx), (ay, by) = self.model
        middle = self.shape.from_middle[indices]
        placed = numpy.empty((len(indices), 2), numpy.intp)
        placed[:, 0] = numpy.rint(ax + bx * middle[:, 0])
        placed[:, 1] = numpy.rint(ay + by * middle[:, 1])
        return placed

    def found(self, index: int, offset: tuple[int, int], shift: tuple[int, int]) -> None:
        x, y = self.shape.from_middle[index].tolist()
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
            fits.append((float((sv - stretch * su) / n), float(stretch)))
        self.model = (fits[0], fits[1])


# ---------------------------------------------------------------- a cell's corners and window


@functools.lru_cache(maxsize=4)
def corner_pixels(
    centres: tuple[tuple[float, float], ...], size: tuple[int, int]
) -> tuple[numpy.typing.NDArray[numpy.intp], numpy.typing.NDArray[numpy.intp]]:
    """Row and column indices of the four corner patches of cells centred there: (cells, pixels) each.
    Kept across recognisers, as every session's layout of the same grid places them alike."""
    reach = (TILE_MM / 2 - CORNER_INSET_MM) * PLANE_PX_PER_MM
    half = CORNER_PATCH_MM * PLANE_PX_PER_MM / 2
    offsets = numpy.arange(-half, half + 0.01, 1.0)
    patch_y, patch_x = numpy.meshgrid(offsets, offsets, indexing="ij")
    signs = numpy.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], numpy.float64)
    # (corner, patch pixel) per cell, corner after corner.
    ys = (signs[:, 1:2] * reach + patch_y.ravel()[None, :]).ravel()
    xs = (signs[:, 0:1] * reach + patch_x.ravel()[None, :]).ravel()
    middles = numpy.array(centres, numpy.float64).reshape(-1, 2)
    width, height = size
    rows = numpy.clip(numpy.round(middles[:, 1:2] + ys[None, :]), 0, height - 1).astype(numpy.intp)
    cols = numpy.clip(numpy.round(middles[:, 0:1] + xs[None, :]), 0, width - 1).astype(numpy.intp)
    return rows, cols


TEACHING_TURNS_DEG = (-2.5, 0.0, 2.5)
"""Turns tried when lining a taught shot up, so that the taught picture is square. Reading tries
no turn: on hard generated frames turns of 2.5 degrees each way read no better (the templates are
smooth enough) and cost three times as much."""


def cell_windows(plane: Frame, region: ItemRegion, turns: tuple[float, ...] = (0.0,)) -> list[Window]:
    """The cell at template scale, turned by each of `turns`, SHIFT_PX pixels to spare each side."""
    if turns == (0.0,):
        return [SmallPlane.of(plane).window(region)]
    scale = TEMPLATE_PX / (CELL_MM * PLANE_PX_PER_MM)
    side = TEMPLATE_PX + 2 * SHIFT_PX
    crop, x0, y0 = cell_crop(plane, region)
    cx, cy = region.centre_px()
    cx, cy = cx - x0, cy - y0
    # Shrink first (area averaging, no aliasing), then turn the small picture.
    small = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    cx, cy = (cx + 0.5) * scale - 0.5, (cy + 0.5) * scale - 0.5  # pixel centres, before and after shrinking
    windows = []
    for turn in turns:
        matrix = cv2.getRotationMatrix2D((cx, cy), turn, 1.0)
        matrix[0, 2] += (side - 1) / 2 - cx
        matrix[1, 2] += (side - 1) / 2 - cy
        window = cv2.warpAffine(
            small, matrix, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        windows.append(Window.of(numpy.asarray(window, numpy.uint8)))
    return windows


def cell_crop(plane: Frame, region: ItemRegion) -> tuple[Frame, int, int]:
    """The cell with a few millimetres to spare (a tile off its place), and the crop's origin."""
    cx, cy = region.centre_px()
    half = (CELL_MM / 2 + 3.0) * PLANE_PX_PER_MM
    x0, y0 = max(0, round(cx - half)), max(0, round(cy - half))
    return plane[y0 : round(cy + half), x0 : round(cx + half)], x0, y0
