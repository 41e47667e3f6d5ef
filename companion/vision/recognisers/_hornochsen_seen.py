"""Tanz der Hornochsen: a normalised plane as its squares are read.

On a normalised plane (reference.py: the empty play area replaced by a neutral grey) a tile is whatever is
no empty area. This module finds that area (table_mask), measures each square against it (square_levels,
squares_levels: how much of its middle is tile, and that part's median, brightest and darkest tenth) and
keeps what every square's look is cut from once a frame (Seen: the grey, the tiles' grey, their shaped
lightness). _hornochsen_tiles.py finds a tile's outline and window in these, _hornochsen_back.py a back's
mark.
"""

from __future__ import annotations

import dataclasses
import functools

import cv2
import numpy
import numpy.typing

from companion.vision.base import PLANE_PX_PER_MM, Frame, ItemRegion
from companion.vision.recognisers._lab import FloatArray
from companion.vision.reference import NEUTRAL_BGR

_DISC = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


NORMALISED_SHARE = 0.2
"""A plane this much of which is exactly the neutral background is a normalised one (reference.py): an
unnormalised camera plane has noise, so hardly any pixel of it is exactly that grey."""
NORMALISED_TILE_SHARE = 0.25
"""On a normalised plane a square holds a tile when this share of its middle is no empty area: only pieces
are (the table's shadows are table), and a tile laid in a slot's corner on a plane a few mm off covers
little more than a third of the middle)."""
_NEUTRAL = numpy.array(NEUTRAL_BGR, numpy.uint8)


def table_mask(plane: Frame) -> numpy.typing.NDArray[numpy.uint8] | None:
    """Where a normalised plane shows the empty play area (255; board and table alike, replaced by the
    neutral background); None for a plane that was not normalised against a reference."""
    mask = numpy.asarray(cv2.inRange(plane, _NEUTRAL, _NEUTRAL), numpy.uint8)
    if cv2.countNonZero(mask) < NORMALISED_SHARE * mask.size:
        return None
    return mask


@dataclasses.dataclass(frozen=True)
class Seen:
    """A normalised plane as its squares are read: made grey once a frame (a grey crop for each square cost
    more). Each square's empty area is counted in its box (cv2.countNonZero): a summed-area table of the
    whole plane's empty area cost 1.0 ms of one core a frame (1048x600), the counts of a frame's 70-odd
    squares 0.2 ms."""

    plane: Frame
    table: numpy.typing.NDArray[numpy.uint8]
    """The empty play area (255), see table_mask."""
    grey: numpy.typing.NDArray[numpy.uint8]

    @classmethod
    def of(cls, plane: Frame, table: numpy.typing.NDArray[numpy.uint8]) -> Seen:
        grey = numpy.asarray(cv2.cvtColor(plane, cv2.COLOR_BGR2GRAY), numpy.uint8)
        return cls(plane, table, grey)

    @functools.cached_property
    def tiles(self) -> numpy.typing.NDArray[numpy.uint8]:
        """The grey where no empty area is, 0 where it is (made once a frame, when a square holds a face:
        each face's window is a slice of it)."""
        # The table is 0 or 255: grey less it, saturated at 0, is that in one pass and one array (the
        # inverted mask and its AND took two and a fresh plane's pages each frame).
        return numpy.asarray(cv2.subtract(self.grey, self.table), numpy.uint8)

    def shaped_at(self, x0: int, y0: int, x1: int, y1: int) -> numpy.typing.NDArray[numpy.uint8]:
        """The shaped plane, once a frame, in a face's window (x0..x1, y0..y1): a slice of the part made
        by shape_within when it holds the window, else of the whole plane's. (Closed and opened in each
        face's window, the morphology cost 40 us a face, 0.9 ms a frame of 24 faces, where the whole
        plane's 1048x600 cost 0.6 ms; the windows overlap, tiles in a row touching.)"""
        box = self.__dict__.get("_shaped_box")
        if box is None or not (box[0] <= x0 and box[1] <= y0 and x1 <= box[2] and y1 <= box[3]):
            height, width = self.grey.shape[:2]
            self.shape_within((0, 0, width, height))
        shaped: numpy.typing.NDArray[numpy.uint8] = self.__dict__["_shaped"]
        box = self.__dict__["_shaped_box"]
        return shaped[y0 - box[1] : y1 - box[1], x0 - box[0] : x1 - box[0]]

    def shape_within(self, box: tuple[int, int, int, int]) -> None:
        """The shaped plane made within `box` (x0, y0, x1, y1) only, for shaped_at: closed and opened over
        the box and SHAPED_REACH beyond it, all that a pixel of the box depends on, so the same bytes there
        as over the whole plane (the board's faces' windows cover about two thirds of it)."""
        height, width = self.grey.shape[:2]
        x0, y0, x1, y1 = max(0, box[0]), max(0, box[1]), min(width, box[2]), min(height, box[3])
        cx0, cy0 = max(0, x0 - SHAPED_REACH), max(0, y0 - SHAPED_REACH)
        cx1, cy1 = min(width, x1 + SHAPED_REACH), min(height, y1 + SHAPED_REACH)
        # Only the box is kept (shaped_at slices it by the box's corner): a plane of zeros round it was
        # never read.
        shaped = numpy.zeros((max(0, y1 - y0), max(0, x1 - x0)), numpy.uint8)
        if x1 > x0 and y1 > y0:
            around = shaped_tiles(numpy.ascontiguousarray(self.tiles[cy0:cy1, cx0:cx1]))
            shaped = around[y0 - cy0 : y1 - cy0, x0 - cx0 : x1 - cx0]
        self.__dict__["_shaped"] = shaped
        self.__dict__["_shaped_box"] = (x0, y0, x1, y1)

    def tile_shares(self, regions: list[ItemRegion]) -> FloatArray:
        """square_levels' share for each of the squares at once (most are empty: only those that hold a
        tile are looked at one by one)."""
        return self.middles(regions)[0]

    def middles(self, regions: list[ItemRegion]) -> tuple[FloatArray, list[Middle]]:
        """tile_shares, and each square's middle (as square_levels cuts it: the same roundings) with its
        count of empty pixels."""
        height, width = self.table.shape[:2]
        at = numpy.array([r.centre_mm + r.size_mm for r in regions], numpy.float64) * PLANE_PX_PER_MM
        x0 = numpy.maximum(0, numpy.rint(at[:, 0] - at[:, 2] / 2))
        y0 = numpy.maximum(0, numpy.rint(at[:, 1] - at[:, 3] / 2))
        x1 = numpy.minimum(width, numpy.rint(at[:, 0] + at[:, 2] / 2))
        y1 = numpy.minimum(height, numpy.rint(at[:, 1] + at[:, 3] / 2))
        dy, dx = numpy.rint((y1 - y0) * 0.2), numpy.rint((x1 - x0) * 0.2)
        y0, y1, x0, x1 = y0 + dy, y1 - dy, x0 + dx, x1 - dx
        area = numpy.maximum(0, y1 - y0) * numpy.maximum(0, x1 - x0)
        # (numpy.clip's two halves: its dispatch costs more than its work on a frame's squares.)
        tops, bottoms = (
            numpy.minimum(numpy.maximum(v, 0), height).astype(numpy.intp).tolist() for v in (y0, y1)
        )
        lefts, rights = (
            numpy.minimum(numpy.maximum(v, 0), width).astype(numpy.intp).tolist() for v in (x0, x1)
        )
        table = self.table
        empty = numpy.array(
            [
                cv2.countNonZero(table[top:bottom, left:right]) if bottom > top and right > left else 0
                for top, bottom, left, right in zip(tops, bottoms, lefts, rights, strict=True)
            ],
            numpy.float64,
        )
        shares = numpy.where(area > 0, 1.0 - empty / numpy.maximum(area, 1), 0.0)
        counts = empty.astype(numpy.intp).tolist()
        return shares, list(zip(tops, bottoms, lefts, rights, counts, strict=True))


def square_levels(seen: Seen, region: ItemRegion) -> tuple[float, tuple[float, float, float]]:
    """The share of a square's middle that is no empty play area, and that part's median and brightest
    tenth of lightness (zeros when it is too little for a tile)."""
    x0, y0, x1, y1 = region.box_px()
    height, width = seen.table.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(width, x1), min(height, y1)
    # The middle 0.6 of the square (middle_of's rounding), its empty area counted.
    dy, dx = round((y1 - y0) * 0.2), round((x1 - x0) * 0.2)
    y0, y1, x0, x1 = y0 + dy, y1 - dy, x0 + dx, x1 - dx
    if y1 <= y0 or x1 <= x0:
        return 0.0, (0.0, 0.0, 0.0)
    empty = cv2.countNonZero(seen.table[y0:y1, x0:x1])
    tile = 1.0 - empty / ((y1 - y0) * (x1 - x0))
    if tile < NORMALISED_TILE_SHARE:
        return tile, (0.0, 0.0, 0.0)
    # The order statistics from the tile's histogram (exact for bytes; fewer calls than a partition): the
    # empty area's pixels made 255 (or'd with its mask) and that many taken off the last bin (half the
    # time of a histogram under a mask of the tile's part, which cost a pass of its own to make).
    shown = cv2.bitwise_or(seen.grey[y0:y1, x0:x1], seen.table[y0:y1, x0:x1])
    histogram = numpy.bincount(shown.ravel(), minlength=256)
    histogram[255] -= empty
    counts = histogram.cumsum()  # (the array's methods: numpy's functions cost a dispatch more)
    size = int(counts[-1])
    dark, median, light = counts.searchsorted((size // 10, size // 2, size * 9 // 10), side="right")
    return tile, (float(median), float(light), float(dark))


Levels = tuple[float, tuple[float, float, float]]
"""square_levels' answer: the share of tile, and its median, brightest tenth and darkest tenth."""


Middle = tuple[int, int, int, int, int]
"""A square's middle (top, bottom, left, right: pixels) and how many of its pixels are empty area."""


def squares_levels(
    seen: Seen, regions: list[ItemRegion], middles: list[Middle] | None = None
) -> list[Levels]:
    """square_levels of each square, the order statistics of every square of a size at once: their middles
    stacked, the empty area made 255 (or'ed with its mask) and each row sorted, the ranks among each
    square's own tile pixels (the first that many of its sorted row: 255 is the largest level) looked up
    at once (a histogram, its sums and its search a square cost 15 us a face in calls). `middles`: the
    squares' middles as Seen.middles found them, when found already."""
    height, width = seen.table.shape[:2]
    found: list[Levels] = [(0.0, (0.0, 0.0, 0.0))] * len(regions)
    sizes: dict[tuple[int, int], list[tuple[int, int, int, int, int, int, float]]] = {}
    for place, region in enumerate(regions):
        if middles is not None:
            y0, y1, x0, x1, empty = middles[place]
        else:
            x0, y0, x1, y1 = region.box_px()
            x0, y0, x1, y1 = max(0, x0), max(0, y0), min(width, x1), min(height, y1)
            dy, dx = round((y1 - y0) * 0.2), round((x1 - x0) * 0.2)
            y0, y1, x0, x1 = y0 + dy, y1 - dy, x0 + dx, x1 - dx
            empty = cv2.countNonZero(seen.table[y0:y1, x0:x1]) if y1 > y0 and x1 > x0 else 0
        if y1 <= y0 or x1 <= x0:
            continue
        tile = 1.0 - empty / ((y1 - y0) * (x1 - x0))
        if tile < NORMALISED_TILE_SHARE:
            found[place] = (tile, (0.0, 0.0, 0.0))
            continue
        sizes.setdefault((y1 - y0, x1 - x0), []).append((place, y0, y1, x0, x1, empty, tile))
    for (rows, columns), squares in sizes.items():
        greys = numpy.stack([seen.grey[y0:y1, x0:x1] for _, y0, y1, x0, x1, _, _ in squares])
        tables = numpy.stack([seen.table[y0:y1, x0:x1] for _, y0, y1, x0, x1, _, _ in squares])
        shown = numpy.bitwise_or(greys, tables).reshape(len(squares), rows * columns)
        shown.sort(axis=1, kind="stable")  # (a radix sort of bytes)
        size = rows * columns - numpy.array([square[5] for square in squares], numpy.intp)
        ranks = numpy.stack([size // 10, size // 2, size * 9 // 10], axis=1)
        levels = numpy.take_along_axis(shown, ranks, axis=1).tolist()
        for (place, *_, tile), (dark, median, light) in zip(squares, levels, strict=True):
            found[place] = (tile, (float(median), float(light), float(dark)))
    return found


SHAPED_REACH = 4 * (_DISC.shape[0] // 2)
"""How far a pixel of shaped_tiles' result depends on its surround: four passes of _DISC (close, open)."""


def shaped_tiles(face: numpy.typing.NDArray[numpy.uint8]) -> numpy.typing.NDArray[numpy.uint8]:
    """A face's lightness (already 0 off it) closed and opened (see _hornochsen_tiles._shaped: why)."""
    closed = cv2.morphologyEx(face, cv2.MORPH_CLOSE, _DISC)
    return numpy.asarray(cv2.morphologyEx(closed, cv2.MORPH_OPEN, _DISC), numpy.uint8)
