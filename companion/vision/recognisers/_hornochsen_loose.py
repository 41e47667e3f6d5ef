"""Tanz der Hornochsen: where each played slot's tile lies. The slots lie on the table below the board,
apart, each tile laid about its slot by hand: the board's fit (_hornochsen_grid.py), extrapolated below
it, puts each slot near its tile, and each is then moved onto the tile laid about it.
"""

from __future__ import annotations

import functools

import cv2
import numpy
import numpy.typing

from companion.vision.base import PLANE_PX_PER_MM

FloatArray = numpy.typing.NDArray[numpy.float64]

LOOSE_MM = 10
"""How far (mm, either way along each axis) a played slot may lie from where the board's fit puts it: the
board's fit, extrapolated below it, puts the slots up to 11 mm off on a plane stretched unevenly by markers
laid by their cut edge (dark wood, seed 8), more towards the plane's corners."""
LOOSE_BOX_MM = 26.0
"""The box about a slot that its tile covers when the slot lies on it: a tile's size, so that the cover
peaks there (slots are 36 mm apart: a box moved by LOOSE_MM just reaches a neighbour's tile)."""

LOOSE_COVER = 0.6
"""...and that it covers this share of at least (a tile 10 mm off its slot still covers 0.6 of the box)."""


@functools.lru_cache(maxsize=2)
def _loose_grid(reach_mm: int) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """The loose items' shifts along an axis, every pair of them (x and y, in meshgrid's order) and the
    tie-breaking cost of each pair: made once for a reach (numpy.meshgrid cost 60 us a frame)."""
    steps = numpy.arange(-reach_mm, reach_mm + 1, dtype=numpy.float64)
    dx, dy = (grid.ravel() for grid in numpy.meshgrid(steps, steps))
    return steps, dx, dy, (1e-3 * numpy.hypot(dx, dy))[:, None]


def loose_shifts(
    table: numpy.typing.NDArray[numpy.uint8],
    xs: FloatArray,
    ys: FloatArray,
    empty: numpy.typing.NDArray[numpy.uint8] | None = None,
) -> tuple[FloatArray, FloatArray]:
    """The shift (mm) of each loose item (a played slot, laid on the table below the board) that puts the
    most tile, whatever its side up, under a tile-sized box about it: unlike the board's rows, slots lie
    apart, so a tile's whole area shows where it lies (a back has no ink to fit by). `empty`: _small_empty
    of the table, when made already."""
    height, width = table.shape[:2]
    size = (round(width / PLANE_PX_PER_MM), round(height / PLANE_PX_PER_MM))
    if empty is not None and PLANE_PX_PER_MM == 2 and (width, height) == (2 * size[0], 2 * size[1]):
        # Shrunk by exactly two, a millimetre's four pixels averaged and rounded are 0, 64, 128, 191 or 255
        # for none to all four empty: at most two empty (the mean of the table < 128 bytes, rounded, is 1)
        # is 128 or less. (A pass over the whole plane and a shrink of it fewer; the same bytes.)
        occupied = cv2.threshold(empty, 128, 1, cv2.THRESH_BINARY_INV)[1]
    else:
        # table < 128 as 0/1 bytes in one pass over the whole plane (cv2's threshold: not above 127).
        occupied = cv2.resize(
            cv2.threshold(table, 127, 1, cv2.THRESH_BINARY_INV)[1], size, interpolation=cv2.INTER_AREA
        )
    steps, dx, dy, penalty = _loose_grid(LOOSE_MM)
    half = LOOSE_BOX_MM / 2
    # A box's sides along x depend on its x shift only, along y on its y shift: each is worked out for
    # each shift of its own axis (steps, items), and the boxes' sums are looked up for every pair at once
    # (y shift, x shift, item), in meshgrid's order (shifts, items) (not 441 shifts' sides each).
    shifted_x, shifted_y = xs[None, :] + steps[:, None], ys[None, :] + steps[:, None]
    x0 = numpy.clip(numpy.rint(shifted_x - half), 0, size[0]).astype(numpy.intp)[None, :, :]
    x1 = numpy.clip(numpy.rint(shifted_x + half), 0, size[0]).astype(numpy.intp)[None, :, :]
    y0 = numpy.clip(numpy.rint(shifted_y - half), 0, size[1]).astype(numpy.intp)[:, None, :]
    y1 = numpy.clip(numpy.rint(shifted_y + half), 0, size[1]).astype(numpy.intp)[:, None, :]
    # Summed over the band of rows the boxes reach only (the slots' row, a sixth of the plane), in whole
    # numbers: the boxes' sums are the same counts (0.3 ms of the whole plane's, in float64, -> 0.1).
    band_top = min(int(y0.min()), occupied.shape[0] - 1)  # (a row at least)
    band_bottom = max(int(y1.max()), band_top + 1)
    summed = numpy.asarray(cv2.integral(occupied[band_top:band_bottom], sdepth=cv2.CV_32S), numpy.int32)
    y0, y1 = y0 - band_top, y1 - band_top
    width = summed.shape[1]  # the sums looked up flat: one index a corner
    flat = summed.ravel()
    bottom, top = y1 * width, y0 * width
    scores = (flat[bottom + x1] - flat[top + x1] - flat[bottom + x0] + flat[top + x0]).reshape(
        len(dx), len(xs)
    )
    # The least shift among the best; a slot whose best box is not mostly tile stays put (an empty slot
    # beside a tile would otherwise move onto the tile's rim or the shadow the reference left round it).
    pick = numpy.argmax(scores - penalty, axis=0)
    covered = scores[pick, numpy.arange(len(xs))] >= LOOSE_COVER * LOOSE_BOX_MM**2
    return numpy.where(covered, dx[pick], 0.0), numpy.where(covered, dy[pick], 0.0)
