"""Tanz der Hornochsen: where the board's squares and the played slots really lie on a normalised plane.

The plane is cut out by the corner markers, and the markers lie where the user laid their sheets: by the
black square's edge as the sheet asks, or by the paper's cut edge (each marker then sits a sheet margin
further in, turned by hand), so the plane shows the board stretched (up to 18 % on dev seeds 5-9, not
evenly) and shifted: read at the layout's places, a tile at the board's side is read beside its square,
or as its neighbour's. On a normalised plane the empty play area is one neutral grey, so the tiles show by
themselves; the layout's centres are moved by the affine map that puts the most of the tiles' numbers'
ink under number-sized boxes about them. The ink, not the whole tile: tiles in a row touch, so a face
fills a box a few millimetres off as well as the right one. Empty squares add nothing to a fit; a step
beyond each row's ends counts against it (nothing lies there), which tells a fit a whole square off
from the right one; the seams between touching tiles are no ink. The played slots lie on the table below
the board, where the board's fit is extrapolated: each is then moved onto the tile laid about it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import cv2
import numpy
import numpy.typing

from companion.vision.base import PLANE_PX_PER_MM, Frame, ItemRegion, Layout
from companion.vision.recognisers._hornochsen_layout import parse_square
from companion.vision.recognisers._hornochsen_loose import loose_shifts
from companion.vision.recognisers._hornochsen_side import without_side_runs

FloatArray = numpy.typing.NDArray[numpy.float64]

STRETCHES = numpy.round(numpy.arange(0.95, 1.2301, 0.02), 3)
"""Stretches tried along each axis in the first, coarse fit (seen: up to 1.18 with sheets laid by their
cut edge; a camera's residual error a little either way)."""
SHIFT_MM = 20
SHIFT_STEP_MM = 4
"""Shifts tried along each axis in the coarse fit, either way, and the step between them (mm); the
refinement takes up the rest."""
BOX_MM = (16.0, 12.0)
"""The box about an item that its tile's number fills when the fit is right (two digits, 9 mm high)."""
INK_SHARE = 0.75
"""Ink is darker than this share of the lightest face within FACE_REACH of it."""
FACE_LEVEL = 150
"""...and that face is lighter than this (faces are 160 and more on a normalised plane; a board's print the
reference left in view, darker, has its own dark marks, which would pull the fit onto the print)."""
_INK_QUARTERS = round(4 * INK_SHARE)
assert _INK_QUARTERS == 4 * INK_SHARE, "INK_SHARE is compared in whole quarters (see _ink)"
DIM_FACE_SHARE = 0.8
"""...or, where the tiles of a whole frame are dimmer, than this share of the brightest tenth of all that is
no empty area (its faces): under a dim lamp (felt, dev seed 34: faces at 95-125) hardly any ink was
found, and a fit to a few specks put a row's squares a third of a square off its tiles (five tiles read
as their neighbours); a board's print left in view in such a frame is as dim as its faces."""
_INK_BELOW = numpy.array([-(-_INK_QUARTERS * face // 4) for face in range(256)], numpy.uint8)
"""For each lightness of the face round it, the least grey that is no ink: 4 grey < 3 face is, for whole
numbers, grey < ceil(3 face / 4); taken as 0 (nothing is darker) where the face is no lighter than
FACE_LEVEL (see _ink_below)."""
_INK_BELOW_LIT = numpy.where(numpy.arange(256) > FACE_LEVEL, _INK_BELOW, 0).astype(numpy.uint8)


def _ink_below(
    grey: numpy.typing.NDArray[Any], inner: numpy.typing.NDArray[Any]
) -> numpy.typing.NDArray[numpy.uint8]:
    """_INK_BELOW for faces lighter than FACE_LEVEL, or than DIM_FACE_SHARE of the frame's faces where
    they are all dimmer (`inner`: what is no empty area, 1)."""
    counts = cv2.calcHist([grey], [0], inner, [256], [0, 256]).ravel()
    total = float(counts.sum())
    if total == 0:
        return _INK_BELOW_LIT
    brightest = int(numpy.searchsorted(numpy.cumsum(counts), 0.9 * total, side="right"))
    level = min(FACE_LEVEL, int(DIM_FACE_SHARE * brightest))
    if level == FACE_LEVEL:
        return _INK_BELOW_LIT
    return numpy.where(numpy.arange(256) > level, _INK_BELOW, 0).astype(numpy.uint8)


_FACE_REACH = cv2.getStructuringElement(cv2.MORPH_RECT, (7, 7))
"""(mm) a digit's strokes are at most 2 mm wide: 3 mm off them is the face."""
_SEAM = cv2.getStructuringElement(cv2.MORPH_RECT, (1, 15))
"""(mm) an upright run of ink this long is a seam between tiles: a digit is 10 to 12 mm high."""
_SEAM_WIDTH = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 1))
"""(mm) ...and so is the ink either side of it (a seam's blurred edges are shorter runs)."""
STEPS = (2.0, 0.01, 0.004)
"""The refinement's first steps: shift (mm), stretch and shear (share)."""
LEAST_STEP_MM = 0.5
"""The refinement stops when its shift step is below this (the ink is summed on whole millimetres: at
0.25 mm the same readings on dev seeds 5, 8 and 9, 1 ms more)."""
LIMITS = (24.0, 0.24, 0.06)
"""How far the refinement may go from the nominal layout: shift (mm), stretch off 1 and shear (share);
beyond this a hand or stray object, not the board, would be what the boxes cover."""
NOMINAL_BONUS = 0.1
"""A share by which the nominal layout wins a near tie: on a plane with hardly a tile, or tiles of an
edition whose ink is faint, every fit scores alike (at 0.02, a square-edge travel frame was fitted 5 mm
off; dev seeds 5 and 8 cached planes: items 6265 -> 6269 of 6390 at 0.1)."""

OUTSIDE_WEIGHT = 1.0
"""How much ink a step beyond a row's ends costs (see _points)."""

Affine = FloatArray
"""Six numbers: x shift, y shift (mm), x and y stretch, x's shear by y and y's by x, about the plane's
middle."""


def _small_empty(table: numpy.typing.NDArray[numpy.uint8]) -> numpy.typing.NDArray[numpy.uint8]:
    """The empty area (255) shrunk to one pixel a millimetre (its pixels' mean, as cv2's INTER_AREA)."""
    height, width = table.shape[:2]
    size = (round(width / PLANE_PX_PER_MM), round(height / PLANE_PX_PER_MM))
    return numpy.asarray(cv2.resize(table, size, interpolation=cv2.INTER_AREA), numpy.uint8)


def _ink(
    plane: Frame,
    table: numpy.typing.NDArray[numpy.uint8],
    empty: numpy.typing.NDArray[numpy.uint8] | None = None,
) -> numpy.typing.NDArray[numpy.uint8]:
    """A tile's number's ink (1), at one pixel a millimetre, on a normalised plane (BGR or grey): darker
    than the face round it, whatever the edition's colours. It lies in the tile's middle, apart from a
    neighbour's, where a tile's whole face would fill a box a few millimetres off as well (tiles in a row
    touch). `empty`: _small_empty of the table, when made already."""
    height, width = table.shape[:2]
    size = (round(width / PLANE_PX_PER_MM), round(height / PLANE_PX_PER_MM))
    # (The plane may come grey already: the recogniser makes it grey once a frame.)
    grey = cv2.resize(
        cv2.cvtColor(plane, cv2.COLOR_BGR2GRAY) if plane.ndim == 3 else plane,
        size,
        interpolation=cv2.INTER_AREA,
    )
    empty = _small_empty(table) if empty is None else empty
    face = cv2.dilate(grey, _FACE_REACH)
    # A tile's rim, blended with the empty area round it, is as dark as ink: only ink well inside counts.
    # (empty < 128 as 0/1 bytes by cv2's threshold: not above 127.)
    inner = cv2.erode(cv2.threshold(empty, 127, 1, cv2.THRESH_BINARY_INV)[1], _FACE_REACH)
    # grey < INK_SHARE * face where face > FACE_LEVEL, by a look-up of the face's lightness and a comparison
    # (numpy took a pass over the plane for each step of it).
    darker = cv2.compare(grey, cv2.LUT(face, _ink_below(grey, inner)), cv2.CMP_LT)  # 255 where ink
    ink = cv2.bitwise_and(darker, inner)  # 0/1
    # The dark seam between two touching tiles of a row runs the tiles' whole height, a digit's ink 12 mm at
    # most: taken for ink, seams pull the fit half a square sideways (laminate, seed 21: the slots' row
    # then read a tile's neighbour). Runs longer than a digit are no ink (0/1 bytes: taken off, not below 0).
    seams = cv2.morphologyEx(ink, cv2.MORPH_OPEN, _SEAM)
    return numpy.asarray(cv2.subtract(ink, cv2.dilate(seams, _SEAM_WIDTH)), numpy.uint8)


_PAD = 32
"""(mm) Box sums are kept this far beyond the plane's sides: a box centred further out covers nothing."""


@dataclasses.dataclass(frozen=True)
class _BoxedInk:
    """The ink under a BOX_MM box centred on each millimetre of the plane and _PAD beyond (one look-up a
    point, where four of a summed-area table and their clipping cost as much as the whole fit)."""

    sums: numpy.typing.NDArray[numpy.float32]
    """Flattened, row after row."""
    width: int
    height: int

    @classmethod
    def of(cls, ink: numpy.typing.NDArray[numpy.uint8]) -> _BoxedInk:
        padded = cv2.copyMakeBorder(ink, _PAD, _PAD, _PAD, _PAD, cv2.BORDER_CONSTANT, value=0)
        size = (round(BOX_MM[0]), round(BOX_MM[1]))
        sums = cv2.boxFilter(
            padded,
            cv2.CV_32F,
            size,
            anchor=(size[0] // 2, size[1] // 2),
            normalize=False,
            borderType=cv2.BORDER_CONSTANT,
        )
        return cls(numpy.asarray(sums, numpy.float32).ravel(), padded.shape[1], padded.shape[0])

    def sums_at(
        self, xs: FloatArray, ys: FloatArray, weights: FloatArray, origin: tuple[float, float] = (0.0, 0.0)
    ) -> FloatArray:
        """The ink under the box about each point (mm, from `origin`), weighted and summed over the last
        axis."""
        xs += origin[0] + _PAD
        ys += origin[1] + _PAD
        # (numpy.clip's two halves, in place: its dispatch cost more than its work.)
        numpy.rint(xs, out=xs)
        numpy.rint(ys, out=ys)
        numpy.minimum(numpy.maximum(xs, 0, out=xs), self.width - 1, out=xs)
        numpy.minimum(numpy.maximum(ys, 0, out=ys), self.height - 1, out=ys)
        # The flat index in floats, cast once (whole numbers far below 2^53: the same index).
        ys *= self.width
        ys += xs
        inside = self.sums.take(ys.astype(numpy.intp))
        return numpy.asarray(inside @ weights, numpy.float64)


STRIP_MM = 180
"""What is no empty area and runs up and down the plane this far (mm) is no tile (a column of the board's
tiles: five rows' tiles, 162 mm, the board's print between them). A shadow's edge the reference left in view
along the plane's side is (burnt 20261146 linen, session 03: 230 mm); counted as tile, it drew the coarse
search's left block's first squares onto it (stretched 1.19, a square early), its row's 24 93 read a square
late, a played 96 in the next slot."""
_STRIP = cv2.getStructuringElement(cv2.MORPH_RECT, (1, STRIP_MM | 1))  # (odd: an opening in place)
_STRIP_WIDTH = cv2.getStructuringElement(cv2.MORPH_RECT, (5, 1))
"""(mm) ...and neither is the cover a few millimetres either side of it (its ragged edge's shorter runs)."""
_OUT = cv2.BORDER_CONSTANT


@dataclasses.dataclass(frozen=True)
class _TileCover:
    """The tile (what is no empty area) under a START_BOX_MM box about a point: looked up in the summed
    area of the plane's tile at one pixel a millimetre for the few points asked (a box filter of the whole
    plane, as _BoxedInk's, cost 0.2 ms)."""

    summed: numpy.typing.NDArray[numpy.int32]
    """cv2.integral of the tile (0/1), flattened, row after row."""
    width: int
    height: int
    """The tile's size (the summed area is a row and a column larger)."""

    @classmethod
    def of(cls, empty: numpy.typing.NDArray[numpy.uint8]) -> _TileCover:
        """Of _small_empty of the table: below 128 is tile (as _ink's), but for what runs up and down
        longer than a column of tiles (see STRIP_MM) or along the plane's side (without_side_runs)."""
        tile = cv2.threshold(empty, 127, 1, cv2.THRESH_BINARY_INV)[1]
        # Only columns holding that much tile may hold such a run, opened by a line that long within the
        # plane (the whole plane's opening cost 0.6-1.1 ms a frame; most frames have no such column).
        tall = numpy.flatnonzero(cv2.reduce(tile, 0, cv2.REDUCE_SUM, dtype=cv2.CV_32S).ravel() >= STRIP_MM)
        if len(tall):
            strips = numpy.zeros_like(tile)
            within = numpy.ascontiguousarray(tile[:, tall])
            strips[:, tall] = cv2.morphologyEx(within, cv2.MORPH_OPEN, _STRIP, borderType=_OUT, borderValue=0)
            tile = cv2.subtract(tile, cv2.dilate(strips, _STRIP_WIDTH))
        summed = numpy.asarray(cv2.integral(without_side_runs(tile), sdepth=cv2.CV_32S), numpy.int32)
        return cls(summed.ravel(), empty.shape[1], empty.shape[0])

    def sums_at(
        self, xs: FloatArray, ys: FloatArray, weights: FloatArray, origin: tuple[float, float] = (0.0, 0.0)
    ) -> FloatArray:
        """The tile under the box about each point (mm, from `origin`), weighted and summed over the last
        axis (as _BoxedInk.sums_at)."""
        half = START_BOX_MM / 2
        x0 = numpy.clip(numpy.rint(xs + (origin[0] - half)), 0, self.width).astype(numpy.intp)
        x1 = numpy.clip(numpy.rint(xs + (origin[0] + half)), 0, self.width).astype(numpy.intp)
        y0 = numpy.clip(numpy.rint(ys + (origin[1] - half)), 0, self.height).astype(numpy.intp)
        y1 = numpy.clip(numpy.rint(ys + (origin[1] + half)), 0, self.height).astype(numpy.intp)
        y0 *= self.width + 1
        y1 *= self.width + 1
        flat = self.summed
        inside = flat.take(y1 + x1) - flat.take(y0 + x1) - flat.take(y1 + x0) + flat.take(y0 + x0)
        return numpy.asarray(inside @ weights, numpy.float64)


def _moved(
    params: FloatArray, dx: FloatArray, dy: FloatArray, middle: tuple[float, float]
) -> tuple[FloatArray, FloatArray]:
    """Points (offsets dx, dy from the plane's middle) under each affine map of `params` (..., 6)."""
    p = params[..., None]
    xs = middle[0] + p[..., 0, :] + p[..., 2, :] * dx + p[..., 4, :] * dy
    ys = middle[1] + p[..., 1, :] + p[..., 3, :] * dy + p[..., 5, :] * dx
    return xs, ys


@dataclasses.dataclass(frozen=True)
class _Points:
    """The points a fit is scored at (offsets from the plane's middle, mm) and their weights."""

    dx: FloatArray
    dy: FloatArray
    weights: FloatArray
    middle: tuple[float, float]

    def __post_init__(self) -> None:
        # _moved's sums as two products with these (a fit scores hundreds of maps: numpy's calls, not the
        # sums, cost): x from the maps' x shift, stretch and shear, y from theirs.
        ones = numpy.ones_like(self.dx)
        object.__setattr__(self, "_x_basis", numpy.stack([ones, self.dx, self.dy]))
        object.__setattr__(self, "_y_basis", numpy.stack([ones, self.dy, self.dx]))

    def scores(self, boxed: _BoxedInk | _TileCover, params: FloatArray) -> FloatArray:
        """The fit's score under each affine map of `params` (n, 6), or under the one map (6,)."""
        maps = numpy.atleast_2d(params)
        xs = maps[:, 0::2] @ self._x_basis  # type: ignore[attr-defined]
        ys = maps[:, 1::2] @ self._y_basis  # type: ignore[attr-defined]
        found = boxed.sums_at(xs, ys, self.weights, self.middle)
        return found if params.ndim > 1 else found[0]


FIRST_SQUARE_WEIGHT = 1.5
"""A row's first square's weight in the coarse search (fit_affine's basin): a row's tiles start there, so
a short row (its last squares empty) fitted a square early (its tiles under squares 1.., nothing under
square 0 or the step beyond) scores no worse than the right fit unless square 0 counts for more. The
refinement weighs it 1: more there pulls the fine fit towards the rows' ends."""


def _points(layout: Layout, lines: Sequence[Sequence[str]], first_weight: float = 1.0) -> _Points:
    """Every item, weighing 1 (a row's first square `first_weight`), and a step before and after each
    line of items (a row's squares in order),
    weighing -OUTSIDE_WEIGHT: nothing lies there, so a fit a whole square off, which would put every row's
    tiles under the boxes of the next squares as well as the right one does, loses."""
    centres = [region.centre_mm for region in layout.items.values()]
    weights = [first_weight if item.endswith(":square:0") else 1.0 for item in layout.items]
    for line in lines:
        if len(line) < 2:
            continue
        first, second = layout.items[line[0]].centre_mm, layout.items[line[1]].centre_mm
        last, before = layout.items[line[-1]].centre_mm, layout.items[line[-2]].centre_mm
        centres.append((2 * first[0] - second[0], 2 * first[1] - second[1]))
        centres.append((2 * last[0] - before[0], 2 * last[1] - before[1]))
        weights += [-OUTSIDE_WEIGHT, -OUTSIDE_WEIGHT]
    at = numpy.array(centres, numpy.float64)
    middle = (layout.plane_mm[0] / 2, layout.plane_mm[1] / 2)
    return _Points(at[:, 0] - middle[0], at[:, 1] - middle[1], numpy.array(weights), middle)


START_BOX_MM = 20.0
"""The box about a row's first square, and about the step before it, whose tile counts (see _starts)."""
START_WEIGHT = 100.0
"""What a row's first square wholly covered with tile weighs (the step before it as much less), in ink
millimetres (a number's ink under its box is some 40-70), in the coarse search along x only: see _starts.
(Recogniser alone on cached planes: at 75 burnt 20261143's short row stayed a square early; at 160 a
degraded frame, the board's print left in view taken for tile, was fitted off; at 90-120 neither.)"""


def _starts(layout: Layout, lines: Sequence[Sequence[str]]) -> _Points:
    """Each row's first square, weighing START_WEIGHT for a START_BOX_MM box wholly covered with tile, and
    the step before it, weighing as much less. A row's tiles lie side by side from its first square on:
    where the blocks' squares lie unevenly apart (markers laid by the paper's cut edge; no one affine map
    fits both), the ink alone fits the block of more tiles, and a short row of the other a square early
    scores as well as it (its tiles' numbers under squares 1 on, some ink under square 0). Its first
    square is then a third tile, not all; a square late, the step before holds a tile. (Coverage, not
    ink: the tiles of a row touch, so a box shifted a few millimetres along it stays covered and the ink
    keeps placing the squares.)"""
    centres, weights = [], []
    share = START_WEIGHT / START_BOX_MM**2
    for line in lines:
        first_square, second_square = (
            (parse_square(item) for item in line[:2]) if len(line) > 1 else (None, None)
        )
        if first_square is None or second_square is None or first_square[0] != second_square[0]:
            continue  # (the played slots, or a block's column of first squares: no row)
        first, second = layout.items[line[0]].centre_mm, layout.items[line[1]].centre_mm
        centres += [first, (2 * first[0] - second[0], 2 * first[1] - second[1])]
        weights += [share, -share]
    middle = (layout.plane_mm[0] / 2, layout.plane_mm[1] / 2)
    at = numpy.array(centres, numpy.float64).reshape(-1, 2)
    return _Points(at[:, 0] - middle[0], at[:, 1] - middle[1], numpy.array(weights), middle)


_LAST_POINTS: list[tuple[Layout, Sequence[Sequence[str]], tuple[_Points, _Points, _Points]]] = []
"""The last layout's points: a camera reads one layout frame after frame."""


def _points_of(layout: Layout, lines: Sequence[Sequence[str]]) -> tuple[_Points, _Points, _Points]:
    """_points for the refinement and the coarse search (FIRST_SQUARE_WEIGHT), and _starts, kept while the
    same layout (and its lines) is read."""
    last = _LAST_POINTS[0] if _LAST_POINTS else None  # one look: another thread may replace it
    if last is not None and last[0] is layout and last[1] == lines:
        return last[2]
    points = (_points(layout, lines), _points(layout, lines, FIRST_SQUARE_WEIGHT), _starts(layout, lines))
    _LAST_POINTS[:] = [(layout, lines, points)]
    return points


@dataclasses.dataclass(frozen=True)
class _Coarse:
    """The coarse search's score: the ink under the items' boxes (see _points, FIRST_SQUARE_WEIGHT), and
    along x the tile under the rows' first squares less that a step before them (see _starts)."""

    ink: _BoxedInk
    points: _Points
    tiles: _TileCover
    starts: _Points

    def scores(self, params: FloatArray, axis: int) -> FloatArray:
        """The score under each map of `params` (n, 6) searched along `axis`."""
        found = self.points.scores(self.ink, params)
        # (Along x only: a row fitted a square off lies along it; along y the column of the rows' first
        # squares, a line of _points, tells.)
        return found + self.starts.scores(self.tiles, params) if axis == 0 else found


def _coarse_axis(summed: _Coarse, params: FloatArray, axis: int) -> FloatArray:
    """`params` with the shift and stretch along `axis` (0: x, 1: y) that score best, the other axis's
    kept: every item's box on the plane, not a projection, so that rows of different lengths and the
    two blocks keep their own places."""
    shifts = numpy.arange(-SHIFT_MM, SHIFT_MM + 1, SHIFT_STEP_MM, dtype=numpy.float64)
    tried = numpy.repeat(params[None, :], len(STRETCHES) * len(shifts), axis=0)
    tried[:, axis] = numpy.tile(shifts, len(STRETCHES))
    tried[:, 2 + axis] = numpy.repeat(STRETCHES, len(shifts))
    return numpy.asarray(tried[int(summed.scores(tried, axis).argmax())], numpy.float64)


NOMINAL = numpy.array([0.0, 0.0, 1.0, 1.0, 0.0, 0.0])
_MOVES = numpy.concatenate([numpy.eye(6), -numpy.eye(6)])
"""The refinement's moves: each parameter up, then each down."""


def fit_affine(
    plane: Frame,
    table: numpy.typing.NDArray[numpy.uint8],
    layout: Layout,
    lines: Sequence[Sequence[str]],
    empty: numpy.typing.NDArray[numpy.uint8] | None = None,
) -> Affine:
    """The affine map (about the plane's middle, in mm) that puts the layout's items where the tiles on a
    normalised plane (`table`: its empty area, 255) show their numbers; NOMINAL where no better fit shows.
    `lines`: rows of items in order (see _points). `empty`: _small_empty of the table, when made already."""
    empty = _small_empty(table) if empty is None else empty
    boxed = _BoxedInk.of(_ink(plane, table, empty))
    points, coarse_points, starts = _points_of(layout, lines)
    coarse = _Coarse(boxed, coarse_points, _TileCover.of(empty), starts)
    best = NOMINAL
    for axis in (1, 0, 1):
        best = _coarse_axis(coarse, best, axis)
    best_score = float(points.scores(boxed, best))
    steps = numpy.array([STEPS[0], STEPS[0], STEPS[1], STEPS[1], STEPS[2], STEPS[2]])
    limits = numpy.array([LIMITS[0], LIMITS[0], LIMITS[1], LIMITS[1], LIMITS[2], LIMITS[2]])
    moves = _MOVES
    while steps[0] >= LEAST_STEP_MM:
        tried = best[None, :] + moves * steps[None, :]
        tried = tried[(numpy.abs(tried - NOMINAL) <= limits).all(axis=1)]
        scores = points.scores(boxed, tried) if len(tried) else numpy.zeros(0)
        if len(scores) and scores.max() > best_score:
            best, best_score = tried[int(scores.argmax())], float(scores.max())
        else:
            steps = steps / 2
    nominal_score = float(points.scores(boxed, NOMINAL))
    if best_score <= nominal_score + NOMINAL_BONUS * abs(nominal_score):
        return NOMINAL
    return best


def fitted_layout(
    plane: Frame,
    table: numpy.typing.NDArray[numpy.uint8],
    layout: Layout,
    lines: Sequence[Sequence[str]],
    loose: Sequence[str] = (),
) -> Layout:
    """The layout with its items moved to where the tiles on the normalised plane show the board lies;
    `loose` items (the played slots) then each moved to where its tile shows it lies."""
    empty = _small_empty(table)  # (for the fit and the loose items both)
    params = fit_affine(plane, table, layout, lines, empty)
    middle = (layout.plane_mm[0] / 2, layout.plane_mm[1] / 2)
    ids = list(layout.items)
    centres = numpy.array([layout.items[i].centre_mm for i in ids], numpy.float64)
    xs, ys = _moved(params, centres[:, 0] - middle[0], centres[:, 1] - middle[1], middle)
    xs, ys = numpy.asarray(xs, numpy.float64).ravel(), numpy.asarray(ys, numpy.float64).ravel()
    if loose:
        kept = set(loose)
        at = numpy.array([i in kept for i in ids])
        shift = loose_shifts(table, xs[at], ys[at], empty)
        xs[at] += shift[0]
        ys[at] += shift[1]
    items = {}
    for item_id, x, y in zip(ids, xs.tolist(), ys.tolist(), strict=True):
        region = layout.items[item_id]
        items[item_id] = ItemRegion((x, y), region.size_mm, region.rotation_deg)
    return Layout(layout.plane_mm, items, layout.raised_mm)
