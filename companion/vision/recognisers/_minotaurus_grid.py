"""Minotaurus: where the matrix really lies on a normalised plane.

The plane is cut out by the corner markers, and the markers lie where the user laid their sheets:
by the black square's edge as the sheet asks, or by the paper's cut edge (the squares then sit a
sheet margin further in, so the plane shows the matrix larger and shifted), turned a little by
hand. Read at the layout's nominal centres, a piece at the matrix's edge is then off by a third of
its side. On a normalised plane the table is one neutral grey, so the pieces show by themselves:
the columns' and rows' centres are found as the comb of evenly spaced boxes that covers most of
the pieces, along each axis apart (the matrix stays a grid, only stretched and shifted).
"""

from __future__ import annotations

import cv2
import numpy
import numpy.typing

from companion.vision.base import Frame

FloatArray = numpy.typing.NDArray[numpy.float64]

STRETCHES = numpy.round(numpy.arange(0.96, 1.1001, 0.005), 3)
"""Pitches tried, against the layout's: a sheet laid by its cut edge shows the matrix up to 8 % larger
(two 10 mm margins across a 250-470 mm plane), a camera's residual error a little either way."""
SHIFT_MM = 10
"""Shifts of the whole comb tried, either way (whole mm): sheets laid a few mm off, turned."""
FOREGROUND_LEVEL = 8
"""A pixel differing from the neutral grey by more than this in any channel shows a piece (the table is
exactly neutral; a piece's edge blended with it differs by more)."""
RIM_PX = 3
"""The foreground is eroded by this (small-plane pixels, 1 mm) before the combs are fitted: the light rim
the reference leaves about a piece, and the plane's blur at its edge, made each piece a few mm wider and
the gaps between them too narrow to tell one pitch from another (with rims of 3-4 mm and the top row
empty, the rows were fitted 6-14 mm off and read a rim for a piece's middle). Eroded, a piece is its
core, its centre where it was."""
NOMINAL_BONUS = 0.01
"""A share of the best score by which the nominal grid (no stretch, no shift) wins a near tie: on a
plane with hardly any piece every comb scores alike."""
MARGIN_AGREE = 8.0
MARGIN_TIE = 0.005
"""The sheets are laid alike, so the margins the two axes' stretches imply (margins) agree within
MARGIN_AGREE (pixels, mm on the small plane: a sheet turned 3 degrees, shifted 1.5 mm, and the camera's
residual error; burnt 20261142's felt 11.8 and 16.5 mm, rightly). Where the pieces' rims the reference
leaves fill the gaps between them, an axis whose far columns hold a piece or two covers as much shrunk into
the crowd as stretched the sheets' way: dev 14's light wood, columns shrunk 0.96 (a margin of -10 mm) within
0.1 % of the right 1.045 (+10 mm, the rows' +10.6), read every piece of the right half a column off. A comb
within MARGIN_TIE of an axis's best then yields to the pair whose margins agree."""


def foreground(small: Frame, neutral: tuple[int, int, int]) -> numpy.typing.NDArray[numpy.float32]:
    """Per pixel of the small normalised plane, 1 where it is no table (differs from the neutral grey)."""
    low = tuple(v - FOREGROUND_LEVEL for v in neutral)
    high = tuple(v + FOREGROUND_LEVEL for v in neutral)
    table = cv2.inRange(small, low, high)
    return numpy.asarray(table == 0, numpy.float32)


def axis_scores(
    profile: FloatArray, centres: FloatArray, half_box: float
) -> tuple[FloatArray, FloatArray, numpy.typing.NDArray[numpy.intp]]:
    """Along one axis, for every stretch (STRETCHES, about the plane's middle) the centres (pixels) shifted
    so that boxes of `half_box` about them cover the most of `profile` (the foreground summed across the
    axis): those centres, per stretch, with what they cover and the shift's index."""
    length = len(profile)
    cumulative = numpy.concatenate([[0.0], numpy.cumsum(profile)])
    shifts = numpy.arange(-SHIFT_MM, SHIFT_MM + 1, dtype=numpy.float64)
    # Every stretch and shift at once: (stretch, shift, box).
    at = length / 2 + (centres - length / 2)[None, None, :] * STRETCHES[:, None, None] + shifts[None, :, None]
    low = numpy.clip(numpy.round(at - half_box).astype(numpy.intp), 0, length)
    high = numpy.clip(numpy.round(at + half_box).astype(numpy.intp), 0, length)
    scores = (cumulative[high] - cumulative[low]).sum(axis=2)
    nominal = (int(numpy.flatnonzero(STRETCHES == 1.0)[0]), SHIFT_MM)
    scores[nominal] = scores[nominal] * (1.0 + NOMINAL_BONUS) + 1e-6  # + : a plane without pieces
    shift = scores.argmax(axis=1)
    return at, scores[numpy.arange(len(STRETCHES)), shift], shift


def margins(length: int) -> FloatArray:
    """Per stretch, the margin (pixels) each side that a plane `length` long shows the matrix stretched by:
    the sheets' cut edge lies that far out from their black square."""
    return numpy.asarray(length * (1.0 - 1.0 / STRETCHES) / 2, numpy.float64)


def fit_grid(
    mask: numpy.typing.NDArray[numpy.float32], columns: FloatArray, rows: FloatArray, half_box: float
) -> tuple[FloatArray, FloatArray]:
    """The columns' and rows' centres (small-plane pixels) that the pieces in `mask` show.

    Each axis takes the comb that covers the most of its pieces, unless the two combs' margins disagree by
    more than MARGIN_AGREE while combs within MARGIN_TIE of each best agree: then the agreeing pair."""
    mask = numpy.asarray(
        cv2.erode(mask, numpy.ones((2 * RIM_PX + 1, 2 * RIM_PX + 1), numpy.uint8)), numpy.float32
    )
    height, width = mask.shape
    across, x_scores, x_shift = axis_scores(mask.sum(axis=0).astype(numpy.float64), columns, half_box)
    down, y_scores, y_shift = axis_scores(mask.sum(axis=1).astype(numpy.float64), rows, half_box)
    x, y = int(x_scores.argmax()), int(y_scores.argmax())
    x_margins, y_margins = margins(width), margins(height)
    if abs(x_margins[x] - y_margins[y]) > MARGIN_AGREE:
        agree = numpy.abs(x_margins[:, None] - y_margins[None, :]) <= MARGIN_AGREE
        agree &= (x_scores >= x_scores[x] * (1.0 - MARGIN_TIE))[:, None]
        agree &= (y_scores >= y_scores[y] * (1.0 - MARGIN_TIE))[None, :]
        if agree.any():
            joint = numpy.where(
                agree, x_scores[:, None] / x_scores[x] + y_scores[None, :] / y_scores[y], -1.0
            )
            x, y = (int(n) for n in numpy.unravel_index(int(joint.argmax()), joint.shape))
    return (
        numpy.asarray(across[x, x_shift[x]], numpy.float64),
        numpy.asarray(down[y, y_shift[y]], numpy.float64),
    )
