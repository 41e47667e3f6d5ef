"""Minotaurus: where the matrix really lies on a normalised plane.

The plane is cut out by the corner markers, and the markers lie where the user laid their sheets:
by the black square's edge as the sheet asks, or by the paper's cut edge (the squares then sit a
sheet margin further in, so the plane shows the matrix larger and shifted), turned a little by
hand. Read at the layout's nominal centres, a piece at the matrix's edge is then off by a third of
its side. On a normalised plane the table is one neutral grey, so the pieces show by themselves:
the columns' and rows' centres are found as the comb of evenly spaced boxes that covers most of
the pieces, along each axis apart (the matrix stays a grid, only stretched and shifted). Where the
reference left the table filling the gaps between the pieces, the pieces' outlines help the combs
(OUTLINE_WEIGHT).
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

GAP_FILLED = 0.4
"""Share of the gaps between the fitted boxes (within the matrix, the foreground eroded by RIM_PX) that,
when foreground, shows the reference left the table there: the boxes then cover table as much shifted or
shrunk as where the pieces lie, and the pieces' outlines are asked too (OUTLINE_WEIGHT)."""
OUTLINE_WEIGHT = 0.05
"""Weight of the pieces' outlines in a comb's score (both as shares of their best comb) where the gaps are
filled (GAP_FILLED). Why: burnt 20261146's light-wood session 07 under a warm lamp (and 20261138's alike):
the reference left the wood about the pieces over most of the plane, every comb covered within 0.1-0.5 %
as much, and the columns shrunk 0.965 (a margin of -9 mm) beat the sheets' 1.045: a column off, backs read
empty. Their outlines (a comb of steps TILE_MM apart) lead by 15-20 % there. Only a tie-breaker: where
the outline of a piece hardly shows (a back whose body the reference took for a dark table, its ring
left; a felt's fibres about dark backs with bright rings) the steps of emblems mislead it: 0.1 read
burnt 20261138's felt f131 a column off (24 cells), 0.3 dev 2's felt too, 1.0 broke 211 cells; asked
in every plane, the rings alone of burnt 20261146's laminate (bodies taken for the table) misled them."""
OUTLINE_BAND = 4.0
"""Half the width (small-plane pixels, mm) of the band about each side of a box where a piece's outline is
looked for: a piece turned 8 degrees spreads its side over 4 mm, laid a few mm off its place."""


def outline_steps(small: Frame) -> tuple[FloatArray, FloatArray]:
    """Per column and per row of the small plane, how much its grey steps from the next one's: summed,
    the pieces' sides stand out where the table left about them is of another lightness."""
    grey = small if small.ndim == 2 else cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    across = cv2.reduce(cv2.absdiff(grey[:, 1:], grey[:, :-1]), 0, cv2.REDUCE_SUM, dtype=cv2.CV_32S)
    down = cv2.reduce(cv2.absdiff(grey[1:], grey[:-1]), 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S)
    return (
        numpy.append(across.ravel().astype(numpy.float64), 0.0),
        numpy.append(down.ravel().astype(numpy.float64), 0.0),
    )


def gap_fill(
    mask: numpy.typing.NDArray[numpy.float32], columns: FloatArray, rows: FloatArray, half_box: float
) -> float:
    """The share of the gaps between the columns' boxes, and of those between the rows', that is
    foreground within the matrix's extent (the lesser)."""
    height, width = mask.shape
    x0, x1 = max(0, round(columns[0] - half_box)), min(width, round(columns[-1] + half_box))
    y0, y1 = max(0, round(rows[0] - half_box)), min(height, round(rows[-1] + half_box))
    region = mask[y0:y1, x0:x1]
    gaps = []
    for centres, start, end in ((columns, x0, x1), (rows, y0, y1)):
        boxed = numpy.zeros(max(0, end - start), numpy.bool_)
        for centre in centres.tolist():
            boxed[max(0, round(centre - half_box) - start) : max(0, round(centre + half_box) - start)] = True
        gaps.append(~boxed)
    if region.size == 0 or not gaps[0].any() or not gaps[1].any():
        return 0.0
    return min(float(region[:, gaps[0]].mean()), float(region[gaps[1], :].mean()))


def foreground(small: Frame, neutral: tuple[int, int, int]) -> numpy.typing.NDArray[numpy.float32]:
    """Per pixel of the small normalised plane, 1 where it is no table (differs from the neutral grey)."""
    low = tuple(v - FOREGROUND_LEVEL for v in neutral)
    high = tuple(v + FOREGROUND_LEVEL for v in neutral)
    table = cv2.inRange(small, low, high)
    return numpy.asarray(table == 0, numpy.float32)


def axis_scores(
    profile: FloatArray,
    centres: FloatArray,
    half_box: float,
    steps: FloatArray | None = None,
    half_tile: float = 0.0,
) -> tuple[FloatArray, FloatArray, numpy.typing.NDArray[numpy.intp]]:
    """Along one axis, for every stretch (STRETCHES, about the plane's middle) the centres (pixels) shifted
    so that boxes of `half_box` about them cover the most of `profile` (the foreground summed across the
    axis): those centres, per stretch, with what they cover and the shift's index. With `steps` (see
    outline_steps), what the boxes cover and the steps within OUTLINE_BAND of their sides (`half_tile`
    from their centres), each as a share of its best, weighed by OUTLINE_WEIGHT."""
    length = len(profile)
    cumulative = numpy.concatenate([[0.0], numpy.cumsum(profile)])
    shifts = numpy.arange(-SHIFT_MM, SHIFT_MM + 1, dtype=numpy.float64)
    # Every stretch and shift at once: (stretch, shift, box).
    at = length / 2 + (centres - length / 2)[None, None, :] * STRETCHES[:, None, None] + shifts[None, :, None]
    low = numpy.clip(numpy.round(at - half_box).astype(numpy.intp), 0, length)
    high = numpy.clip(numpy.round(at + half_box).astype(numpy.intp), 0, length)
    scores = (cumulative[high] - cumulative[low]).sum(axis=2)
    if steps is not None:
        stepped = numpy.concatenate([[0.0], numpy.cumsum(steps)])
        outline = numpy.zeros_like(scores)
        for side in (-half_tile, half_tile):
            low = numpy.clip(numpy.round(at + side - OUTLINE_BAND).astype(numpy.intp), 0, length)
            high = numpy.clip(numpy.round(at + side + OUTLINE_BAND).astype(numpy.intp), 0, length)
            outline += (stepped[high] - stepped[low]).sum(axis=2)
        scores = scores / max(float(scores.max()), 1e-6) + OUTLINE_WEIGHT * outline / max(
            float(outline.max()), 1e-6
        )
    nominal = (int(numpy.flatnonzero(STRETCHES == 1.0)[0]), SHIFT_MM)
    scores[nominal] = scores[nominal] * (1.0 + NOMINAL_BONUS) + 1e-6  # + : a plane without pieces
    shift = scores.argmax(axis=1)
    return at, scores[numpy.arange(len(STRETCHES)), shift], shift


def margins(length: int) -> FloatArray:
    """Per stretch, the margin (pixels) each side that a plane `length` long shows the matrix stretched by:
    the sheets' cut edge lies that far out from their black square."""
    return numpy.asarray(length * (1.0 - 1.0 / STRETCHES) / 2, numpy.float64)


def fit_grid(
    mask: numpy.typing.NDArray[numpy.float32],
    columns: FloatArray,
    rows: FloatArray,
    half_box: float,
    small: Frame | None = None,
    half_tile: float = 0.0,
) -> tuple[FloatArray, FloatArray]:
    """The columns' and rows' centres (small-plane pixels) that the pieces in `mask` show; where the gaps
    between them are filled (GAP_FILLED), their outlines in `small` (pieces `half_tile` across) too.

    Each axis takes the comb that covers the most of its pieces, unless the two combs' margins disagree by
    more than MARGIN_AGREE while combs within MARGIN_TIE of each best agree: then the agreeing pair."""
    # Eroded as bytes (0 or 1 alike): a third cheaper than as floats.
    kernel = numpy.ones((2 * RIM_PX + 1, 2 * RIM_PX + 1), numpy.uint8)
    mask = numpy.asarray(cv2.erode(numpy.asarray(mask > 0, numpy.uint8), kernel), numpy.float32)
    fitted = _combs(mask, columns, rows, half_box)
    if small is None or gap_fill(mask, *fitted, half_box) < GAP_FILLED:
        return fitted
    return _combs(mask, columns, rows, half_box, outline_steps(small), half_tile)


def _summed(mask: numpy.typing.NDArray[numpy.float32], axis: int) -> FloatArray:
    """The mask summed down its columns (axis 0) or across its rows (axis 1)."""
    return numpy.asarray(cv2.reduce(mask, axis, cv2.REDUCE_SUM).ravel(), numpy.float64)


def _combs(
    mask: numpy.typing.NDArray[numpy.float32],
    columns: FloatArray,
    rows: FloatArray,
    half_box: float,
    steps: tuple[FloatArray, FloatArray] | None = None,
    half_tile: float = 0.0,
) -> tuple[FloatArray, FloatArray]:
    """fit_grid's combs on the eroded mask (and the outlines' `steps` across and down, if given)."""
    height, width = mask.shape
    across_steps, down_steps = (None, None) if steps is None else steps
    across, x_scores, x_shift = axis_scores(_summed(mask, 0), columns, half_box, across_steps, half_tile)
    down, y_scores, y_shift = axis_scores(_summed(mask, 1), rows, half_box, down_steps, half_tile)
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
