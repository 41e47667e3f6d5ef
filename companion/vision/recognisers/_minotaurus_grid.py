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


def foreground(small: Frame, neutral: tuple[int, int, int]) -> numpy.typing.NDArray[numpy.float32]:
    """Per pixel of the small normalised plane, 1 where it is no table (differs from the neutral grey)."""
    low = tuple(v - FOREGROUND_LEVEL for v in neutral)
    high = tuple(v + FOREGROUND_LEVEL for v in neutral)
    table = cv2.inRange(small, low, high)
    return numpy.asarray(table == 0, numpy.float32)


def fit_axis(profile: FloatArray, centres: FloatArray, half_box: float) -> FloatArray:
    """The centres (pixels along one axis) stretched about the plane's middle and shifted so that boxes
    of `half_box` about them cover the most of `profile` (the foreground summed across the axis)."""
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
    stretch, shift = numpy.unravel_index(int(scores.argmax()), scores.shape)
    return numpy.asarray(at[stretch, shift], numpy.float64)


def fit_grid(
    mask: numpy.typing.NDArray[numpy.float32], columns: FloatArray, rows: FloatArray, half_box: float
) -> tuple[FloatArray, FloatArray]:
    """The columns' and rows' centres (small-plane pixels) that the pieces in `mask` show."""
    mask = numpy.asarray(
        cv2.erode(mask, numpy.ones((2 * RIM_PX + 1, 2 * RIM_PX + 1), numpy.uint8)), numpy.float32
    )
    return (
        fit_axis(mask.sum(axis=0).astype(numpy.float64), columns, half_box),
        fit_axis(mask.sum(axis=1).astype(numpy.float64), rows, half_box),
    )
