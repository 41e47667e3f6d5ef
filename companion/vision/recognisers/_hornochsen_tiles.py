"""Tanz der Hornochsen: finding a tile on a plane and the window its number is read in.

On a normalised plane (reference.py: the empty play area replaced by a neutral grey) a tile is whatever is
no empty area; its face's outline (a minimum-area rectangle of its bright pixels) straightens it, and where
the outline ran into a neighbour or lost a strip to the empty area, the number's own ink centres the
window instead. On a raw plane (no reference) the recogniser finds the face by its colours and
straightens it the same way. hornochsen.py reads what these find.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from typing import Any, NamedTuple

import cv2
import numpy
import numpy.typing

from companion.vision.base import PLANE_PX_PER_MM, Frame, ItemRegion
from companion.vision.recognisers._hornochsen_glyphs import INK_CONTRAST, TILE_MM
from companion.vision.recognisers._lab import FloatArray
from companion.vision.reference import NEUTRAL_BGR

STRAIGHT_MARGIN_MM = 3.0
"""The straightened tile's margin round its face."""
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


WIDE_MM = 9.0
"""A tile is looked for this far beyond its square on a normalised plane: a tile laid off centre, or a
plane several millimetres off (markers laid by their cut edge), still shows whole (at 6 mm, a tile 8 mm off
lost its first digit into the window's replicated border)."""


def _wide_box(region: ItemRegion, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = region.box_px()
    wide = round(WIDE_MM * PLANE_PX_PER_MM)
    return max(0, x0 - wide), max(0, y0 - wide), min(shape[1], x1 + wide), min(shape[0], y1 + wide)


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
        """_shaped of the plane, once a frame, in a face's window (x0..x1, y0..y1): a slice of the part made
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
        """_shaped of the plane made within `box` (x0, y0, x1, y1) only, for shaped_at: closed and opened over
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
            around = _shaped_tiles(numpy.ascontiguousarray(self.tiles[cy0:cy1, cx0:cx1]))
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


BACK_RING_MM = (8.0, 1.5)
"""A tile's back shows a light mark: a ring of this radius and stroke (mm) round a disc..."""
BACK_DISC_MM = 3.0
"""...of this radius, in the back's middle (every edition prints it; only its colours differ)."""
BACK_REACH_MM = 8.0
"""The mark is looked for this far about the square's centre (a tile laid off centre)."""


BACK_SCALES = (1.0, 1.2, 1.1)
"""The mark is looked for at these sizes: markers laid by their cut edge stretch the plane by up to a fifth
(dark wood, seed 8: a back's ring 1.25 times its size). Between them too, last (a back decided at one of
the first two is not looked at again): a travel back's faint mark on a plane stretched 1.1 scored 0.48 and
0.51 at 1.0 and 1.2, 0.53 at 1.1 (burnt 20261137, printed cloth: read empty); faces score 0.45 at most at
all three (dev seeds 8, 21, 34, 55 and that burnt seed, 7000 squares)."""


def _back_template(scale: float) -> FloatArray:
    """The back's mark as the camera shows it, lightly blurred, on a dark ground."""
    ring, stroke = (round(v * PLANE_PX_PER_MM * scale) for v in BACK_RING_MM)
    side = 2 * (ring + stroke) + 1
    template = numpy.zeros((side, side), numpy.float32)
    middle = (side // 2, side // 2)
    cv2.circle(template, middle, ring, 1.0, stroke, cv2.LINE_AA)
    cv2.circle(template, middle, round(BACK_DISC_MM * PLANE_PX_PER_MM * scale), 1.0, -1, cv2.LINE_AA)
    return numpy.asarray(cv2.GaussianBlur(template, (0, 0), PLANE_PX_PER_MM / 2), numpy.float32)


_BACK_TEMPLATES = [_back_template(scale) for scale in BACK_SCALES]
_BACK_HALF = max(template.shape[0] for template in _BACK_TEMPLATES) // 2
"""Half the largest template's side: the mark is looked for this far and BACK_REACH_MM beyond."""


def back_mark(seen: Seen, region: ItemRegion, enough: float | None = None) -> float:
    """How much a square shows a tile's back: the best correlation of its lightness with the back's mark
    (a ring round a disc) about its centre. Backs score 0.57 and more on dev seeds 5, 8, 13, 21 and 34,
    faces and the board's print or a shadow the reference left in view 0.41 and less. `enough`: a score
    that decides, returned as soon as one size scores it (the other sizes are not looked at)."""
    cx, cy = round(region.centre_px()[0]), round(region.centre_px()[1])
    reach = _BACK_HALF + round(BACK_REACH_MM * PLANE_PX_PER_MM)
    x0, y0 = max(0, cx - reach), max(0, cy - reach)
    grey = numpy.asarray(seen.grey[y0 : cy + reach + 1, x0 : cx + reach + 1], numpy.float32)
    best = 0.0
    for template in _BACK_TEMPLATES:
        if min(grey.shape[:2]) >= template.shape[0]:
            best = max(best, float(cv2.minMaxLoc(cv2.matchTemplate(grey, template, cv2.TM_CCOEFF_NORMED))[1]))
            if enough is not None and best >= enough:
                break
    return best


def face_up_tile(
    plane: Frame, table: numpy.typing.NDArray[numpy.uint8], region: ItemRegion, seen: Seen | None = None
) -> FloatArray | None:
    """A square's face-up tile on a normalised plane, straightened, as reading finds it (for learning;
    `seen`: the plane as Seen.of makes it, when made already)."""
    seen = seen if seen is not None else Seen.of(plane, table)
    tile, (_, light, _) = square_levels(seen, region)
    return normalised_tile(seen, region, light) if tile >= NORMALISED_TILE_SHARE else None


class TileWindow(NamedTuple):
    """A square's surround as normalised_tile looks at it: its lightness (where the empty area was, the
    face's), the square's centre in it and the tile's outline found there (None where none was)."""

    light: Frame
    here: tuple[float, float]
    rect: RotatedRect | None


def tile_window(seen: Seen, region: ItemRegion, face_level: float) -> TileWindow:
    """normalised_tile's look about a square (see there), for it to straighten the tile from, once or twice
    (centred on the outline, then on the number's ink: hornochsen.py asks for both of one square)."""
    x0, y0, x1, y1 = _wide_box(region, seen.table.shape)
    # Where the reference took part of a face for the empty area (a face as light as the board's print
    # round it), the neutral grey would read as ink: it takes the face's lightness instead (the empty
    # area's 255 and'ed with that level, the tiles' grey, 0 there, the larger: two calls a window, where a
    # copy, a filled array, a copy under the mask and the mask's own inRange were four).
    level = int(numpy.uint8(min(255.0, face_level)))
    empty = cv2.bitwise_and(seen.table[y0:y1, x0:x1], level)  # type: ignore[call-overload]
    light = numpy.asarray(cv2.max(seen.tiles[y0:y1, x0:x1], empty), numpy.uint8)
    centre = region.centre_px()
    here = (centre[0] - x0, centre[1] - y0)
    return TileWindow(light, here, _tile_rect(light, None, here, face_level, seen.shaped_at(x0, y0, x1, y1)))


def normalised_tile(
    seen: Seen,
    region: ItemRegion,
    face_level: float,
    on_ink: bool = False,
    window: TileWindow | None = None,
    level: bool = False,
) -> FloatArray | None:
    """The face-up tile of a square of a normalised plane, straightened (see straighten); where neither a
    tile's outline nor a number's ink is found, the square as it lies. `face_level`: the face's lightness
    (the middle's brightest tenth). `on_ink`: the window centred on the number's ink instead of the tile's
    outline (None where that is no better).
    `window`: tile_window's look at the square with this face_level, when taken already. `level`: the
    window left upright, whatever the outline's turn (see hornochsen._read_face)."""
    light, here, rect = window if window is not None else tile_window(seen, region, face_level)
    if rect is not None and max(rect[1]) <= OVERSIZE * TILE_MM * PLANE_PX_PER_MM:
        angle = 0.0 if level else outline_turn(rect)
        # An outline narrower than a tile lost a strip to the empty area or the board (a face washed out
        # where the reference took it for the table): centred on it, a digit falls off the window's edge
        # (dev seed 8: 18 read 8 from an outline 41 px wide, its 1 cut off).
        narrow = min(rect[1]) < NARROW * TILE_MM * PLANE_PX_PER_MM
        if not on_ink and not narrow:
            return _upright(light, rect[0], angle)
        # The number is printed in the tile's middle: its ink centres the window better than an outline
        # whose side ran into a neighbour or lost a strip to the empty area (where a digit falls off).
        found = _ink_number(light, face_level, rect[0])
        # (Unless the ink window is asked for, only a number's two digits move it: one may be half of it.)
        inked = None if found is None or (not on_ink and found[1] < 2) else found[0]
        # A narrow outline's centre is off by up to half the strip it lost, so its ink may lie further.
        reach = RECENTRE_PX * (NARROW_REACH if narrow else 1.0)
        if inked is None:
            return None if on_ink else _upright(light, rect[0], angle)
        if numpy.hypot(inked[0] - rect[0][0], inked[1] - rect[0][1]) > reach:
            if not (on_ink and found is not None and found[1] == 2 and _near(inked, here)):
                return None if on_ink else _upright(light, rect[0], angle)
            # The outline is astray: its turn, as an oversize one's, is the tile's only when slight.
            angle = angle if abs(angle) <= OVERSIZE_TURN else 0.0
        return _upright(light, inked, angle)
    if on_ink:
        return None
    # An outline larger than a tile took in some of a neighbour or of the board between tiles washed out
    # to a face's lightness (or there is none): the number is the ink nearest the square's centre, and
    # the window is centred on it; the outline, when there is one, still tells how the tile is turned
    # when it is turned a little. Turned further, it is the shape of the tile and what it ran into (dev
    # seed 13: 79, 13 and 56 read wrong in windows turned 16-30 degrees off upright tiles).
    found = _ink_number(light, face_level, here)
    inked = None if found is None else found[0]
    if found is None:
        inked = _faint_ink_centre(light, face_level, here)
    elif found[1] < 2:
        # One digit at INK_LEVEL may be the darker of two printed faint: where the faint level finds two,
        # they are the number (burnt 20261138 laminate, travel edition: an 85 on a 237 face, the 8's ink
        # 148 at its darkest, broken into specks at 142, the 5 above it; centred on the 8, read 8).
        faint = _faint_ink_number(light, face_level, here)
        if faint is not None and faint[1] == 2:
            inked = faint[0]
    angle = outline_turn(rect) if rect is not None and not level else 0.0
    if inked is None:
        # With no outline either: a face the reference took for the empty area but round its number,
        # printed faint (lighter than INK_LEVEL of the face). The digit reader takes its face and ink
        # levels from the window's middle, where the number is, and may still read it (dev seed 13,
        # printed table: 24 and 39 read empty).
        return _upright(light, here, 0.0) if rect is None else _upright(light, rect[0], angle)
    return _upright(light, inked, angle if abs(angle) <= OVERSIZE_TURN else 0.0)


def _near(inked: tuple[float, float], here: tuple[float, float]) -> bool:
    """Whether a number's two digits of ink lie within RECENTRE_PX of the square's centre: an outline of a
    tile's size may still be the wrong shape (a cloth's blotches the reference left joined to half the
    face: burnt 20261139 gingham, a 73 read 7 from an outline 23 px off its ink, the 3 off the window's
    side), and a number's ink where its square lies is the tile's."""
    return bool(numpy.hypot(inked[0] - here[0], inked[1] - here[1]) <= RECENTRE_PX)


def outline_turn(rect: RotatedRect) -> float:
    """The turn (degrees, -45 to 45) from upright of a tile's outline."""
    return ((rect[2] + 45) % 90) - 45


def ink_tile(window: TileWindow, face_level: float) -> FloatArray | None:
    """The window centred on the number's ink nearest the square's centre, whatever outline was found
    (None where no digit-sized ink lies near it): as a player reads the number printed in the middle of
    the tile lying there. An outline of a tile's size may still be off (a face torn where the reference
    took strips of it for the empty area: played slots on linen and gingham, dev seeds 13 and 21, whose
    outlines lay 20-25 pixels off the tile and 30 degrees askew, so 79, 84 and 98 fell off their windows),
    and normalised_tile's ink is looked for about that outline's centre only."""
    light, here, rect = window
    found = _ink_number(light, face_level, here, PAIR_WIDE_MM)
    if found is None:
        return None
    inked = found[0]
    angle = ((rect[2] + 45) % 90) - 45 if rect is not None else 0.0
    return _upright(light, inked, angle if abs(angle) <= OVERSIZE_TURN else 0.0)


def evened(window: TileWindow) -> TileWindow:
    """The window with its lightness divided by the face's round each pixel (the window closed by a disc
    wider than a digit's stroke: ink gone, face and shadow kept), scaled to EVEN_LEVEL. A tile in a
    shadow's edge (light wood, dev seed 13: a row's tiles at 60-110 with their lower halves darker) has
    its face darker than the window's brightest tenth's ink level, all of it ink at one level; evened,
    its digits stand out of it as a player sees them."""
    light = window.light
    face = cv2.morphologyEx(light, cv2.MORPH_CLOSE, _EVEN_DISC)
    even = cv2.divide(light, numpy.maximum(face, 1), scale=EVEN_LEVEL)
    return TileWindow(numpy.asarray(even, numpy.uint8), window.here, window.rect)


EVEN_LEVEL = 200.0
"""The lightness an evened window's face is scaled to."""
EVEN_DISC_MM = 6.0
"""The disc closing a window to its face: wider than a blurred digit's stroke (2-4 mm), narrower than the
tile (whose shadow's edge it follows)."""
_EVEN_DISC = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (round(EVEN_DISC_MM * PLANE_PX_PER_MM) | 1,) * 2)


PAIR_WIDE_MM = 24.0
"""A number's two digits blurred into one shape of ink are this wide at most (each 6-8 mm wide, 1.5-3 mm
apart; a tile is 26 mm): ink_tile takes such a shape for the number (dev seeds 13 and 21: 84 and 98 blurred
together on linen and gingham, 15 mm wide and more, were no digit-sized ink)."""


NARROW = 0.85
"""An outline whose shorter side is less than this share of a tile's lost a strip (dev seeds 5, 8, 13: faces'
outlines' shorter sides are 1.02 of a tile at the median, 0.885 at the 5th percentile, 2 % under 0.85; at
0.9 the windows of whole tiles moved too, and a frame fewer was read)."""
NARROW_REACH = 1.5
"""A narrow outline's number may lie this many times RECENTRE_PX from its centre."""
OVERSIZE_TURN = 10.0
"""An oversize outline's turn (degrees) is the tile's up to this; beyond, the window is left upright."""


RECENTRE_PX = 10.0 * PLANE_PX_PER_MM
"""A number's ink lies this close to its tile outline's centre at most (a found outline off by a strip of a
few millimetres); ink further off belongs to a neighbour."""
INK_LEVEL = 0.6
"""Ink is darker than this share of the face's lightness."""
DIGIT_REACH_MM = 14.0
"""A number's digits stand this close together at most (about 10 mm between their centres; a neighbour
tile's nearest digit is 20 mm away)."""
DIGIT_GAP_MM = 4.0
"""...and their ink this close side by side (1.5 to 3 mm apart as found; a tile's frame line or edge is
5 mm and more from them)..."""
ALIKE_HEIGHT = 0.7
"""...of a height alike (printed the same, blurred alike: a speck or a piece of a neighbour's digit is
shorter)..."""
STROKE_SHARE = 0.3
"""...so ink further off and narrower than this share of its height is a line, no digit (a frame line's
piece is a quarter as wide as tall, a digit two thirds; a thin 1 a fifth)."""


def _ink_centre(light: Frame, face_level: float, centre: tuple[float, float]) -> tuple[float, float] | None:
    """The middle of the digit-sized ink shapes nearest the square's centre and those beside them."""
    found = _ink_number(light, face_level, centre)
    return None if found is None else found[0]


def _ink_number(
    light: Frame,
    face_level: float,
    centre: tuple[float, float],
    widest_mm: float = 14.0,
    level: float | None = None,
) -> tuple[tuple[float, float], int] | None:
    """_ink_centre's middle, and how many digits it was found from (1 or 2). `widest_mm`: the widest ink
    shape taken for a digit (see PAIR_WIDE_MM). `level`: ink is darker than this (by default INK_LEVEL of
    the face's lightness)."""
    # light < level, as cv2's threshold on bytes (not above the whole level below it).
    below = math.ceil(INK_LEVEL * face_level if level is None else level) - 1
    ink = numpy.asarray(cv2.threshold(light, below, 1, cv2.THRESH_BINARY_INV)[1], numpy.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(ink, 8, cv2.CV_32S, cv2.CCL_BBDT)
    # (A dozen shapes: looked at in plain Python, where numpy's calls on arrays this small cost more.)
    parts = [
        [x, y, x + w, y + h]
        for x, y, w, h in stats[1:count, :4].tolist()
        if h >= PART_MM * PLANE_PX_PER_MM and w <= widest_mm * PLANE_PX_PER_MM
    ]
    tall = [
        box
        for box in _stacked(parts)
        if 0.5 * 11.0 * PLANE_PX_PER_MM <= box[3] - box[1] <= DIGIT_HIGH_MM * PLANE_PX_PER_MM
        and box[2] - box[0] <= widest_mm * PLANE_PX_PER_MM
    ]
    if not tall:
        return None
    middles = [((x0 + x1) / 2, (y0 + y1) / 2) for x0, y0, x1, y1 in tall]
    offsets = numpy.array(middles, numpy.float64) - numpy.asarray(centre, numpy.float64)
    distances = numpy.hypot(offsets[:, 0], offsets[:, 1]).tolist()
    # A thin upright stroke off the square's middle is a tile's frame line or edge, no digit: the number is
    # the ink nearest the middle of the rest.
    candidates = [
        (distance, place)
        for place, (distance, (x0, y0, x1, y1)) in enumerate(zip(distances, tall, strict=True))
        if not (x1 - x0 < STROKE_SHARE * (y1 - y0) and distance > NEAR_MM * PLANE_PX_PER_MM)
    ]
    if not candidates:
        return None
    nearest = min(candidates)[1]
    if distances[nearest] > NEAR_MM * 2 * PLANE_PX_PER_MM:
        return None
    # A thin upright stroke further off is a tile's frame line or edge, not a digit (a thin 1 stands close).
    near_x0, _, near_x1, _ = tall[nearest]
    near_height = tall[nearest][3] - tall[nearest][1]
    beside = []  # (thin, gap, place) of the shapes beside the nearest
    for place, ((x0, y0, x1, y1), (mx, my)) in enumerate(zip(tall, middles, strict=True)):
        gap = max(x0 - near_x1, near_x0 - x1)
        thin = x1 - x0 < STROKE_SHARE * (y1 - y0)
        if (
            place != nearest
            and abs(mx - middles[nearest][0]) <= DIGIT_REACH_MM * PLANE_PX_PER_MM
            and abs(my - middles[nearest][1]) <= 4.0 * PLANE_PX_PER_MM
            and y1 - y0 >= ALIKE_HEIGHT * near_height
            and not (thin and gap > DIGIT_GAP_MM * PLANE_PX_PER_MM)
        ):
            beside.append((thin, gap, place))
    number = [tall[nearest]]
    if beside:
        # A number has two digits at most: the other is the one standing closest (the first of ties), a
        # digit's width before a stroke's: a piece of a frame line printed a millimetre from one digit is
        # no closer a digit than the other digit 3 mm off (linen, burnt 20261137: 47 read 4, the window
        # centred on the 4 and the line, the 7 off its side; dev seed 55: 59 read 5).
        number.append(tall[min(beside)[2]])
    x0, y0 = min(box[0] for box in number), min(box[1] for box in number)
    x1, y1 = max(box[2] for box in number), max(box[3] for box in number)
    return ((x0 + x1) / 2, (y0 + y1) / 2), len(number)


FAINT_INK_SHARE = 0.5
"""Faint ink (see _faint_ink_centre) is darker than this share of the way from the face to the darkest ink."""


def _faint_ink_centre(
    light: Frame, face_level: float, centre: tuple[float, float]
) -> tuple[float, float] | None:
    """_ink_centre of a number printed fainter than INK_LEVEL of its face: ink darker than halfway from the
    face to the darkest fiftieth of a tile-sized box round the square's centre, where that stands
    INK_CONTRAST (the digit reader's) out of the face. An outline larger than a tile (its side ran into the
    board) is no window for it: centred there, a light-orange 6 of 63 fell off the window's side and 63 read
    3 (burnt 20261136, dark wood, travel edition at 0.77 mm/px: both digits at 165-185 on a face at 244,
    INK_LEVEL's threshold 146)."""
    found = _faint_ink_number(light, face_level, centre)
    return None if found is None else found[0]


def _faint_ink_number(
    light: Frame, face_level: float, centre: tuple[float, float]
) -> tuple[tuple[float, float], int] | None:
    """_faint_ink_centre's middle, and how many digits it was found from (see _ink_number)."""
    half = round(TILE_MM / 2 * PLANE_PX_PER_MM)
    x, y = round(centre[0]), round(centre[1])
    box = light[max(y - half, 0) : y + half, max(x - half, 0) : x + half]
    if box.size == 0:
        return None
    darkest = float(numpy.partition(box.ravel(), box.size // 50)[box.size // 50])
    if face_level - darkest < INK_CONTRAST:
        return None
    return _ink_number(light, face_level, centre, level=darkest + FAINT_INK_SHARE * (face_level - darkest))


PART_MM = 2.0
"""Ink shapes shorter than this are specks, not parts of a digit."""
DIGIT_HIGH_MM = 16.0
"""A digit's ink, blurred, is at most this tall (they are printed 10 to 12 mm high)."""


def _stacked(parts: list[list[int]]) -> list[list[int]]:
    """Ink shapes' boxes (x0, y0, x1, y1), with those just above one another in the same columns made one:
    a blurred digit's ink may break across its waist (a 5 in two parts)."""
    merged: list[list[int]] = []
    for box in sorted(parts):
        last = merged[-1] if merged else [0, 0, 0, 0]
        top, bottom = min(last[1], box[1]), max(last[3], box[3])
        if (
            box[0] < last[2] - 1
            and max(box[1], last[1]) - min(box[3], last[3]) <= 3
            and bottom - top <= DIGIT_HIGH_MM * PLANE_PX_PER_MM
        ):
            merged[-1] = [last[0], top, max(last[2], box[2]), bottom]
        else:
            merged.append(box)
    return merged


def middle_of(image: numpy.typing.NDArray[Any], share: float) -> numpy.typing.NDArray[Any]:
    height, width = image.shape[:2]
    dy, dx = round(height * (1 - share) / 2), round(width * (1 - share) / 2)
    return image[dy : height - dy, dx : width - dx]


BRIGHT_SHARES = (0.65, 0.85, 0.93)
"""The face is the brightest thing in its square: a table of a similar hue is darker than the first share of
the lightness of the crop's brightest tenth; the later ones outline a face that ran into its surround."""
OVERSIZE = 1.2
"""A face outline this much larger than a tile has taken in some of its surround."""

NEAR_MM = 8.0
"""A tile reaches this close to its square's centre at least (a plane a few millimetres off moves it)."""
RotatedRect = tuple[tuple[float, float], tuple[float, float], float]


def _face_rect(
    mask: numpy.typing.NDArray[numpy.uint8], centre: tuple[float, float] | None = None
) -> RotatedRect | None:
    """The minimum-area rectangle of the largest shape of the bright face pixels (`mask`, see _shaped; with
    `centre`, the largest of those reaching within a few millimetres of it: not a neighbour's tile), when
    it is of a tile's size."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    if centre is None:
        largest = max(contours, key=cv2.contourArea)
    else:
        # The largest shape near the centre: shapes are tried largest first (most are specks, and the
        # distance test costs more than the area), the first near one kept (max's pick among equal areas).
        near = -NEAR_MM * PLANE_PX_PER_MM
        areas = [cv2.contourArea(c) for c in contours]
        order = sorted(range(len(contours)), key=lambda k: -areas[k])
        chosen = next((k for k in order if cv2.pointPolygonTest(contours[k], centre, True) >= near), None)
        if chosen is None:
            return None
        largest = contours[chosen]
    (cx, cy), (w, h), angle = cv2.minAreaRect(largest)
    if not 0.75 * TILE_MM * PLANE_PX_PER_MM < min(w, h) <= max(w, h) < 1.45 * TILE_MM * PLANE_PX_PER_MM:
        return None
    return (cx, cy), (w, h), angle


def straighten(
    crop: Frame,
    face_mask: numpy.typing.NDArray[numpy.bool_],
    light: Frame | None = None,
    centre: tuple[float, float] | None = None,
    brightest: float | None = None,
) -> FloatArray | None:
    """The tile's lightness (`light`, by default the crop's grey), turned upright and centred, with a
    margin; None when no tile is found. With `centre`, the tile is the one there (see _face_rect).
    `brightest`: the face's lightness when known (else the crop's brightest tenth)."""
    if light is None:
        light = numpy.asarray(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), numpy.uint8)
    rect = _tile_rect(light, face_mask, centre, brightest)
    if rect is None:
        return None
    (cx, cy), _, angle = rect
    return _upright(light, (cx, cy), ((angle + 45) % 90) - 45)  # the nearest upright: tiles lie square-ish


def _tile_rect(
    light: Frame,
    face_mask: numpy.typing.NDArray[numpy.bool_] | numpy.typing.NDArray[numpy.uint8] | None,
    centre: tuple[float, float] | None,
    brightest: float | None,
    shaped: numpy.typing.NDArray[numpy.uint8] | None = None,
) -> RotatedRect | None:
    """The outline of the tile's face (see straighten). `shaped`: _shaped of the face, when made already
    (then `face_mask` is not looked at)."""
    if brightest is None:
        brightest = float(numpy.partition(light.ravel(), light.size * 9 // 10)[light.size * 9 // 10])
    rect = None
    if shaped is None:
        assert face_mask is not None, "a face's mask or its shaped lightness is needed"
        shaped = _shaped(light, numpy.asarray(face_mask, numpy.uint8))
    # On a raw plane, what outlines no tile at the first share is no tile (a table's grain lit up would
    # show one at a tighter share); on a normalised one the table is gone and tighter shares may be tried.
    for share in BRIGHT_SHARES if centre is not None else BRIGHT_SHARES[:2]:
        # (cv2's threshold on bytes, 0/1: as numpy's comparison, in fewer calls.)
        bright = numpy.asarray(cv2.threshold(shaped, share * brightest, 1, cv2.THRESH_BINARY)[1], numpy.uint8)
        found = _face_rect(bright, centre)
        if found is None and rect is None and centre is None:
            return None
        rect = found if found is not None else rect
        if rect is not None and max(rect[1]) <= OVERSIZE * TILE_MM * PLANE_PX_PER_MM:
            break
        # The face ran into a surround of its colour and nearly its lightness (a light table, the board
        # between two tiles): only the face's own lightness outlines the tile then.
    return rect


def _shaped(light: Frame, faces: numpy.typing.NDArray[numpy.uint8]) -> numpy.typing.NDArray[numpy.uint8]:
    """The face's lightness (0 off `faces`), closed and opened: thresholded at a share, the bright face
    pixels with the ink inside the face closed (it is part of the tile) and thin bridges to look-alike
    surroundings cut. (Flat morphology commutes with a threshold: the same pixels as closing and opening
    each share's bright pixels, for the morphology's cost once a tile, not once a share.)"""
    return _shaped_tiles(numpy.asarray(cv2.bitwise_and(light, light, mask=faces), numpy.uint8))


SHAPED_REACH = 4 * (_DISC.shape[0] // 2)
"""How far a pixel of _shaped_tiles' result depends on its surround: four passes of _DISC (close, open)."""


def _shaped_tiles(face: numpy.typing.NDArray[numpy.uint8]) -> numpy.typing.NDArray[numpy.uint8]:
    """_shaped of a face's lightness already 0 off it."""
    closed = cv2.morphologyEx(face, cv2.MORPH_CLOSE, _DISC)
    return numpy.asarray(cv2.morphologyEx(closed, cv2.MORPH_OPEN, _DISC), numpy.uint8)


def _upright(light: Frame, centre: tuple[float, float], angle: float) -> FloatArray:
    """The tile's lightness about its centre, turned by `angle` (degrees) and cut out with a margin."""
    cx, cy = centre
    # A margin round the tile: a tile found a little off centre still has its digits clear of the sides.
    side = round((TILE_MM + 2 * STRAIGHT_MARGIN_MM) * PLANE_PX_PER_MM)
    matrix = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
    matrix[0, 2] += side / 2 - cx
    matrix[1, 2] += side / 2 - cy
    turned = cv2.warpAffine(
        light, matrix, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return numpy.asarray(turned, dtype=numpy.float32)
