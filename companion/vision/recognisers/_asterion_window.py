"""Asterion: a cell at template scale (`Window`), lined up with a template by the best shift.

A cell is cut with SHIFT_PX pixels to spare each side from one shrunk copy of the plane; a template's
lightness is lined up with it at every shift by one product (`_Shifts`), its Lab when lightness puts it at
the edge of the search little like it (`_lined_in_lab`). Cells and templates are compared
as Lab pictures, each channel centred and scaled (`_features`, `_scores`). Matching a cell against the
templates is in _asterion_match, telling two looks apart in _asterion_pair_tests.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import cv2
import numpy
import numpy.typing

from companion.vision.base import Frame
from companion.vision.recognisers._lab import FloatArray, to_lab
from companion.vision.reference import NEUTRAL_BGR

GAME = "asterion"

TEMPLATE_PX = 40
"""A cell is compared with the templates at TEMPLATE_PX x TEMPLATE_PX (1.1 mm per pixel)."""
SHIFT_PX = 3
"""How far (template pixels) a tile may lie off its cell's centre: matching searches these shifts."""

MISSING_LEAST_PX = 8
MISSING_RIM_PX = 2
"""A cell is read without the pixels showing the table's neutral grey when at least MISSING_LEAST_PX do,
MISSING_RIM_PX and more inside its window's edge (a tile's edge lies 1.4 pixels inside it). Not 3: a
linen or gingham as pale as the path blanks a path's end where it runs through the frame, its grey
mostly in the tile's outer two pixels; uncounted, it stood for a wall there (junctions read horned or
with a chest, crossroads as junctions or treasuries: 11 cells on dev 7 and burnt 20261140-41, none
lost). 1 lost a wing bend and a cell to the table between tiles."""

SIDE_BAND_PX = (1, 5)
"""A tile's frame, lined up, lies from the first to the fifth pixel inside its window's edge (its edge 1.4
pixels in): `Window.table_side` looks there, but for the corners' 5 pixels (a neighbour's, the table's
between tiles)."""

CHANNEL_WEIGHTS = (1.0, 0.8, 0.8)
"""Weights of CIELAB's L, a and b in a template: colour tells a chest from a prisoner, a wing from a path."""


_WEIGHTS = numpy.array(CHANNEL_WEIGHTS, numpy.float32)
_WEIGHT_VALUES = _WEIGHTS.tolist()
_NEUTRAL_LOW = numpy.array([v - 1 for v in NEUTRAL_BGR], numpy.uint8)
_NEUTRAL_HIGH = numpy.array([v + 1 for v in NEUTRAL_BGR], numpy.uint8)
_BESIDE = numpy.ones((3, 3), numpy.uint8)
_NEUTRAL_GREY = numpy.float32(
    cv2.cvtColor(numpy.array([[NEUTRAL_BGR]], numpy.uint8), cv2.COLOR_BGR2GRAY)[0, 0]
)

Missing = numpy.typing.NDArray[numpy.bool_] | None
"""A cell's pixels (flat) the table covers (`Window.missing`), or None when (almost) none."""


def table_painted(picture: Frame) -> Frame:
    """Where a picture shows the table's NEUTRAL_BGR exactly (within a level; blended pixels are not): what
    the reference painted over the table (a 0/255 mask)."""
    return numpy.asarray(cv2.inRange(picture, _NEUTRAL_LOW, _NEUTRAL_HIGH), numpy.uint8)


def channels(picture: FloatArray) -> FloatArray:
    """A Lab picture as (3, pixels), channel after channel: numpy reduces rows far faster than columns."""
    return numpy.ascontiguousarray(picture.reshape(-1, 3).T, dtype=numpy.float32)


def _features(window: FloatArray) -> FloatArray:
    """A cell's Lab picture (TEMPLATE_PX square) as one vector: each channel centred and scaled, then all.

    Pixel after pixel, channels interleaved as the picture holds them (templates and cells alike, so
    their products are as channel after channel): no copy into channel order first."""
    picture = numpy.ascontiguousarray(window, dtype=numpy.float32)
    means, deviations = cv2.meanStdDev(picture)
    norms = deviations.ravel() * math.sqrt(picture.shape[0] * picture.shape[1])
    scale = (_WEIGHTS / (norms + 1.0)).astype(numpy.float32)
    vector = ((picture - means.ravel().astype(numpy.float32)) * scale).ravel()
    length = math.sqrt(float(vector @ vector))
    return numpy.asarray(vector / length if length > 0 else vector, numpy.float32)


def _scores(matrix: FloatArray, window: FloatArray) -> FloatArray:
    """`matrix @ _features(window)` for a matrix of `_features` rows, without centring the cell: each
    row's channels are centred already, so a channel's mean adds nothing to the products.

    The three channels' scales, over the vector's length, in Python floats and applied by one OpenCV
    call: numpy broadcasting three values along a picture's pixels cost a fifth of the call, and
    numpy's calls around the product (the scales rounded to float32 through an array, the products
    divided by the length after) a fifth of the rest (52 -> 40 us a cell, the same scores within
    1e-6)."""
    picture = numpy.ascontiguousarray(window, dtype=numpy.float32)
    root = math.sqrt(picture.shape[0] * picture.shape[1])
    norm_l, norm_a, norm_b = (deviation * root for deviation in cv2.meanStdDev(picture)[1].ravel().tolist())
    weight_l, weight_a, weight_b = _WEIGHT_VALUES
    scale_l, scale_a, scale_b = (
        weight_l / (norm_l + 1.0),
        weight_a / (norm_a + 1.0),
        weight_b / (norm_b + 1.0),
    )
    length = math.sqrt((scale_l * norm_l) ** 2 + (scale_a * norm_a) ** 2 + (scale_b * norm_b) ** 2)
    # A 4-tuple is a scalar to OpenCV (its stubs know arrays only): per channel. A flat cell (length
    # 0) is not divided by it.
    over = 1.0 / length if length > 0 else 1.0
    per_channel: Any = (scale_l * over, scale_a * over, scale_b * over, 0.0)
    return numpy.asarray(matrix @ cv2.multiply(picture, per_channel).ravel(), numpy.float32)


def _interleaved(test: FloatArray) -> FloatArray:
    """A filter over a picture as `channels` (channel after channel) made to apply to the picture's own
    pixel order (channels interleaved): a cell is then filtered as it lies, not copied channel-wise."""
    return numpy.ascontiguousarray(test.reshape(3, -1).T.ravel())


class Window:
    """A cell at template scale with SHIFT_PX pixels to spare each side, as BGR and grey, cut from one
    shrunk copy of the whole plane; its Lab is converted where a tile is lined up in it (`part`):
    converting the whole shrunk plane cost 0.7 ms a frame, and half the cells are flat (the bare table)
    and need the grey alone."""

    def __init__(
        self, bgr: Frame, grey: FloatArray, scales: numpy.typing.NDArray[numpy.float64] | None = None
    ) -> None:
        self.bgr = bgr
        self.grey = grey
        self._scales = scales
        self._parts: dict[tuple[int, int], FloatArray] = {}
        self.lined: dict[
            str, tuple[FloatArray, tuple[int, int], FloatArray | None, tuple[Window, int, int]]
        ] = {}
        """Per frame colour: the cell lined up with its looks (`Templates.lined_up`), its scores
        against them (None until asked for) and where it was cut from, as a doubtful cell's likeness
        in two colours found them before its match."""

    def part(self, dy: int, dx: int) -> FloatArray:
        """The Lab view TEMPLATE_PX square from (dy, dx) in the window."""
        key = (dy, dx)
        if key not in self._parts:
            # OpenCV converts the window's rows where they lie: no copy of them first.
            self._parts[key] = to_lab(self.bgr[dy : dy + TEMPLATE_PX, dx : dx + TEMPLATE_PX])
        return self._parts[key]

    def missing(self, dy: int, dx: int) -> Missing:
        """Which pixels (flat, TEMPLATE_PX square from (dy, dx)) inside the tile show the table's
        NEUTRAL_BGR, and those beside them (blended with it), when at least MISSING_LEAST_PX do; else
        None. Not its rim: the table shows between tiles, and there the looks agree."""
        inner = slice(MISSING_RIM_PX, TEMPLATE_PX - MISSING_RIM_PX)
        # The table's grey is grey 128: few cells show that many pixels of it, and those only are
        # looked at in colour.
        grey = self.grey[dy : dy + TEMPLATE_PX, dx : dx + TEMPLATE_PX][inner, inner]
        if int(numpy.count_nonzero(grey == _NEUTRAL_GREY)) < MISSING_LEAST_PX:
            return None
        picture = numpy.ascontiguousarray(
            self.bgr[dy : dy + TEMPLATE_PX, dx : dx + TEMPLATE_PX][inner, inner]
        )
        neutral = table_painted(picture)
        if cv2.countNonZero(neutral) < MISSING_LEAST_PX:
            return None
        mask = numpy.zeros((TEMPLATE_PX, TEMPLATE_PX), numpy.uint8)
        mask[inner, inner] = cv2.dilate(neutral, _BESIDE)
        return numpy.asarray(mask.ravel() > 0, numpy.bool_)

    def table_side(self, dy: int, dx: int) -> float:
        """The largest share of the table's NEUTRAL_BGR (exactly: blended pixels are not counted) along
        one side of the frame of a tile lined up at (dy, dx), `SIDE_BAND_PX` inside its edge."""
        inner, outer = SIDE_BAND_PX
        picture = numpy.ascontiguousarray(self.bgr[dy : dy + TEMPLATE_PX, dx : dx + TEMPLATE_PX])
        neutral = table_painted(picture)
        along = slice(outer, TEMPLATE_PX - outer)
        sides = (
            neutral[inner:outer, along],
            neutral[TEMPLATE_PX - outer : TEMPLATE_PX - inner, along],
            neutral[along, inner:outer],
            neutral[along, TEMPLATE_PX - outer : TEMPLATE_PX - inner],
        )
        return max(cv2.countNonZero(side) for side in sides) / float(sides[0].size)

    def scales(self) -> numpy.typing.NDArray[numpy.float64]:
        """`shift_scales` of the window's grey, unless given (`SmallPlane` gives them for many cells at
        once)."""
        if self._scales is None:
            values, squares = cv2.integral2(self.grey, sdepth=cv2.CV_64F, sqdepth=cv2.CV_64F)
            self._scales = shift_scales(values, squares, numpy.zeros((1, 2), numpy.intp))[0]
        return self._scales

    @classmethod
    def of(cls, bgr: Frame) -> Window:
        grey = numpy.asarray(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), numpy.float32)
        return cls(bgr, grey)

    def middle(self) -> FloatArray:
        """The cell as it lies (no shift), TEMPLATE_PX square."""
        return self.part(SHIFT_PX, SHIFT_PX)


_STEPS = 2 * SHIFT_PX + 1
"""Shifts searched along each axis."""
_SIDE = TEMPLATE_PX + 2 * SHIFT_PX
"""A window's side."""


def shift_scales(
    values: numpy.typing.NDArray[Any],
    squares: numpy.typing.NDArray[Any],
    corners: numpy.typing.NDArray[numpy.intp],
) -> numpy.typing.NDArray[numpy.float64]:
    """Per window whose top left corner (x, y rows) is given: one over the square root of the sum of
    squared deviations of its grey over the TEMPLATE_PX square at each shift (the shifts row after
    row), 0 where the grey is flat there; from the grey's integral images of values and squares (whole
    numbers: exact in any order), each looked up flat at once."""
    width = values.shape[1]
    at = (corners[:, 1] * width + corners[:, 0])[:, None, None] + _box_corners(width)
    # Each square's sum from its four corners by one product (fewer numpy calls than by each corner).
    total = (values.ravel().take(at) @ _BOX).astype(numpy.float64)
    total_sq = numpy.asarray(squares.ravel().take(at) @ _BOX, numpy.float64)
    spreads = numpy.sqrt(numpy.maximum(total_sq - total * total / (TEMPLATE_PX * TEMPLATE_PX), 0.0))
    # As OpenCV's matchTemplate: a flat square correlates 0 with anything.
    scales = numpy.divide(1.0, spreads, out=numpy.zeros_like(spreads), where=spreads > 0)
    return numpy.asarray(scales, numpy.float64)


@functools.cache
def _box_corners(width: int) -> numpy.typing.NDArray[numpy.intp]:
    """Where (flat, in an integral image `width` wide) the TEMPLATE_PX square at each shift has its
    corners, from a window's top left corner (shifts x 4): top left, top right, bottom left, bottom
    right, as `_BOX` weighs them."""
    down = numpy.arange(_STEPS)[:, None] * width
    across = numpy.arange(_STEPS)[None, :]
    first = (down + across).ravel()
    side, below = TEMPLATE_PX, TEMPLATE_PX * width
    return numpy.stack([first, first + side, first + below, first + below + side], axis=1)


_BOX = numpy.array([1, -1, -1, 1], numpy.int32)
"""A square's sum from the integral image at its corners (`_box_corners`): whole numbers, exact."""


def _shifted(channel: FloatArray) -> tuple[FloatArray, float]:
    """A template's channel less its mean, a row per shift where that shift puts it in a window, and its
    length."""
    picture = numpy.asarray(channel, numpy.float64)
    centred = picture - picture.mean()
    rows = numpy.zeros((_STEPS, _STEPS, _SIDE, _SIDE), numpy.float32)
    for dy in range(_STEPS):
        for dx in range(_STEPS):
            rows[dy, dx, dy : dy + TEMPLATE_PX, dx : dx + TEMPLATE_PX] = centred
    return rows.reshape(_STEPS * _STEPS, _SIDE * _SIDE), float(numpy.sqrt((centred * centred).sum()))


class _Shifts:
    """A template's lightness lined up with a window at every shift by one product: a row per shift holds
    the template less its mean where that shift puts it in the window. OpenCV's matchTemplate went
    through Fourier transforms for 49 sums (40 us a cell, a sixth of reading)."""

    def __init__(self, template: FloatArray) -> None:
        self.rows, self.norm = _shifted(template[..., 0])
        # Its colour channels' rows too (a and b), for the cells lined up at the edge of the search
        # (`_lined_in_lab`): 0.8 MB a frame colour, built with the templates.
        self.colour_rows = [_shifted(template[..., channel]) for channel in (1, 2)]

    def lightness(self, windows: list[Window]) -> tuple[float, int, int, int]:
        """The best normalised correlation coefficient of the lightness (the template's and the window's
        means taken out, over their spreads) over windows and shifts (the first best, as OpenCV's), and
        where: the window's index and the place (dy, dx) in it."""
        best, index, dy, dx, _ = self._lightness(windows)
        return best, index, dy, dx

    def _lightness(
        self, windows: list[Window]
    ) -> tuple[float, int, int, int, numpy.typing.NDArray[numpy.float64]]:
        """`lightness`, and the correlations at every shift in the best window (row after row)."""
        best, chosen, correlations = -2.0, (0, 0, 0), numpy.zeros(_STEPS * _STEPS, numpy.float64)
        for index, window in enumerate(windows):
            scores = (self.rows @ window.grey.ravel()) * window.scales()
            at = int(scores.argmax())
            top = float(scores[at]) / self.norm if self.norm > 0 else 0.0
            if top > best:
                best, chosen = top, (index, at // _STEPS, at % _STEPS)
                if self.norm > 0:
                    correlations = numpy.asarray(scores / self.norm, numpy.float64)
        return (best, *chosen, correlations)

    def aligned_in(
        self, windows: list[Window]
    ) -> tuple[FloatArray, tuple[int, int], tuple[Window, int, int]]:
        """The cell lined up with this template by its lightness (`lightness`), or in Lab when that puts it
        at the edge of the search little like it: its Lab view, shift, and the window and place (dy, dx)
        in it the view was cut from."""
        best, index, dy, dx, correlations = self._lightness(windows)
        if (EDGES[dy] or EDGES[dx]) and best < LAB_LINING_BELOW:
            # Lined up at the edge of the search by lightness alone, and poorly: a print whose frame is
            # about as light as its walls (the travel edition's green) shows lightness little but its
            # paths, and a bend or a treasury lined up with a neighbour's path beyond the search (burnt
            # 20261145: 7 of Asterion's 14 cells read wrong, lined up 5-6 pixels off, likeness under 0.4).
            # Its colour shows the frame: lined up again in Lab.
            dy, dx = _lined_in_lab(windows[index], self.colour_rows, correlations)
        return windows[index].part(dy, dx), (dx - SHIFT_PX, dy - SHIFT_PX), (windows[index], dy, dx)


LAB_LINING_BELOW = 0.4
"""A cell lined up at the edge of the search with its lightness correlating under this is lined up again
in Lab (`_lined_in_lab`)."""
EDGES = [step in (0, _STEPS - 1) for step in range(_STEPS)]
"""Per shift searched along an axis: whether it is at the edge of the search."""


def _lined_in_lab(
    window: Window,
    colour_rows: list[tuple[FloatArray, float]],
    lightness: numpy.typing.NDArray[numpy.float64],
) -> tuple[int, int]:
    """Where (dy, dx in the window) a template's Lab picture best matches the window's: each channel's
    normalised correlation at each shift, weighed as `_features` weighs the channels; the lightness's
    given (`_Shifts._lightness`: the grey's, for L), a and b's by one product each (`colour_rows`, as
    `_Shifts` lines lightness up). ~80 us a cell (its Lab conversion and two products), asked about
    once a frame (`LAB_LINING_BELOW`: 291 times in some 280 frames of dev 83 and burnt 20261145)."""
    lab = channels(to_lab(window.bgr))
    total = lightness.reshape(_STEPS, _STEPS) * _WEIGHT_VALUES[0]
    for seen, (rows, norm), weight in zip(lab[1:], colour_rows, _WEIGHT_VALUES[1:], strict=True):
        if norm > 0:
            values, squares = cv2.integral2(seen.reshape(_SIDE, _SIDE), sdepth=cv2.CV_64F, sqdepth=cv2.CV_64F)
            sums, sums_sq = (_box_sums(integral) for integral in (values, squares))
            spreads = numpy.sqrt(numpy.maximum(sums_sq - sums * sums / (TEMPLATE_PX * TEMPLATE_PX), 0.0))
            products = (rows @ seen).reshape(_STEPS, _STEPS)
            total += numpy.divide(products, spreads, out=numpy.zeros_like(spreads), where=spreads > 0) * (
                weight / norm
            )
    at = int(total.argmax())
    return at // _STEPS, at % _STEPS


def _box_sums(integral: numpy.typing.NDArray[numpy.float64]) -> numpy.typing.NDArray[numpy.float64]:
    """The sum over the TEMPLATE_PX square at each shift (rows dy, columns dx) from a window's integral."""
    far = slice(TEMPLATE_PX, TEMPLATE_PX + _STEPS)
    near = slice(0, _STEPS)
    return numpy.asarray(
        integral[far, far] - integral[near, far] - integral[far, near] + integral[near, near]
    )


def lined_up(windows: list[Window], template: FloatArray, centred: FloatArray | None = None) -> FloatArray:
    """The Lab view (TEMPLATE_PX square) of the turn and shift that best match the template's lightness.

    `centred`: the Lab view of the first window's centre, when known, returned as it is when best."""
    return aligned(windows, template, centred)[0]


def aligned(
    windows: list[Window], template: FloatArray, centred: FloatArray | None = None
) -> tuple[FloatArray, tuple[int, int]]:
    """`lined_up`'s view, and the shift (x, y template pixels from the window's centre) it was found at."""
    view, shift, _ = _aligned_in(windows, template, centred)
    return view, shift


def _aligned_in(
    windows: list[Window], template: FloatArray, centred: FloatArray | None = None
) -> tuple[FloatArray, tuple[int, int], tuple[Window, int, int]]:
    """`aligned`, and the window and place (dy, dx) in it the view was cut from."""
    light_template = numpy.ascontiguousarray(template[..., 0])
    best, chosen = -2.0, (0, 0, 0)
    for index, window in enumerate(windows):
        scores = cv2.matchTemplate(window.grey, light_template, cv2.TM_CCOEFF_NORMED)
        _, top, _, (dx, dy) = cv2.minMaxLoc(scores)
        if top > best:
            best, chosen = float(top), (index, dy, dx)
    index, dy, dx = chosen
    shift = (dx - SHIFT_PX, dy - SHIFT_PX)
    cut = (windows[index], dy, dx)
    if centred is not None and chosen == (0, SHIFT_PX, SHIFT_PX):
        return centred, shift, cut
    return windows[index].part(dy, dx), shift, cut


def turned(image: numpy.typing.NDArray[Any], quarter_turns: int) -> numpy.typing.NDArray[Any]:
    """A template (rows, columns, channels) of a tile turned clockwise by quarter turns."""
    return numpy.ascontiguousarray(numpy.rot90(image, k=-quarter_turns, axes=(0, 1)))


EDGE_DOUBT = 0.55
"""A cell lined up at the edge of the search by its colour's looks' mean, correlating under this with its
best look there, is lined up again by each look (`lined_by_looks`) when matched (about 0.1 cells a frame,
1 ms each; asked of every likeness too, 2.5 a frame, mostly empty cells and other colours, and it moved
colour votes both ways). The bench's misread bends correlated 0.43 and 0.51 where the mean put them."""


def lined_by_looks(
    windows: list[Window], pictures: list[FloatArray], features: FloatArray
) -> tuple[FloatArray, tuple[int, int], FloatArray, tuple[Window, int, int]] | None:
    """The cell lined up where one of its colour's looks (`pictures`) lines up best by lightness and
    correlates best (`features`: their rows) there: its Lab view, shift, scores against every look, and
    the window and place it was cut from; None for no window.

    The looks' mean is the frame and a blur of every design's paths: a bend's two paths beside a
    neighbour's path running on from one of them match it a few pixels off, at the search's edge,
    where no look fits (the travel print's red treasure bend, 6 pixels off, read as a treasure junction
    at 0.43; lined up by its own look it correlated 0.79)."""
    lights = numpy.stack([picture[..., 0] for picture in pictures]).reshape(len(pictures), -1)
    lights = lights - lights.mean(axis=1, keepdims=True)
    norms = numpy.sqrt((lights * lights).sum(axis=1))
    norms[norms == 0] = numpy.inf
    best = numpy.full(len(pictures), -2.0)
    chosen = numpy.zeros(len(pictures), numpy.intp)
    at_window = numpy.zeros(len(pictures), numpy.intp)
    for index, window in enumerate(windows):
        # Every look's lightness correlated at every shift by one product (as `_Shifts`, the looks
        # centred, the window's spread at each shift from `scales`): matchTemplate per look cost 40 us.
        squares = numpy.lib.stride_tricks.sliding_window_view(window.grey, (TEMPLATE_PX, TEMPLATE_PX))
        correlations = (squares.reshape(_STEPS * _STEPS, -1) @ lights.T) * window.scales()[:, None] / norms
        top = correlations.argmax(axis=0)
        values = correlations[top, numpy.arange(len(pictures))]
        better = values > best
        best[better], chosen[better], at_window[better] = values[better], top[better], index
    # Each place some look lines up best at, scored against those looks alone; the best scoring place
    # is then scored against every look.
    places: dict[tuple[int, int], list[int]] = {}
    for look, (index, at) in enumerate(zip(at_window.tolist(), chosen.tolist(), strict=True)):
        places.setdefault((index, at), []).append(look)
    best_place, best_score = None, -2.0
    for (index, at), looks in sorted(places.items()):
        score = float(_scores(features[looks], windows[index].part(at // _STEPS, at % _STEPS)).max())
        if score > best_score:
            best_place, best_score = (index, at // _STEPS, at % _STEPS), score
    if best_place is None:
        return None
    index, dy, dx = best_place
    view = windows[index].part(dy, dx)
    return view, (dx - SHIFT_PX, dy - SHIFT_PX), _scores(features, view), (windows[index], dy, dx)
