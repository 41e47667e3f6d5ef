"""Minoa's sticks: how much each interior line's strip darkens across a stick's width, and on a
normalised plane whether its colour is the frame's sure sticks' (minoa.py samples the strips and reads
them).

On a normalised plane a line's darkness is weighed with its colour too: the frame's sure sticks (dark
across a stick's whole width) show what its sticks look like under this lamp, so a stick the reference
narrowed or a lamp washed pale is still one, and the print the reference left in view is not.
"""

from __future__ import annotations

import math

import cv2
import numpy
import numpy.typing

from companion.vision.base import Frame
from companion.vision.recognisers._lab import FloatArray
from companion.vision.reference import NEUTRAL_BGR

STICK_WINDOW_ROWS = 7
"""Rows (millimetres) across a line over which a stick's darkening is summed."""
STICK_DIP_MM = 1.0
"""Least summed darkening (millimetres of black) of a stick. On the normalised planes of dev seeds 5-30
empty lines gave 1.05 at their 99th percentile (a printed line beside a piece, a shadow), and one stick
in fifty under the lamp's glare (washed pale, its middle taken for the print) less than 1.2; the core
(STICK_CORE) keeps a dark print out."""
STICK_CORE_ROWS = 4
STICK_CORE = 0.16
"""Least darkness of a stick over STICK_CORE_ROWS adjacent rows (millimetres): on seeds 3-4's hard
normalised planes sticks gave 0.19 and more, empty lines (a blurred dark print beside a piece) 0.13 at
most."""
SURE_DIP, SURE_CORE = 1.5, 0.3
"""A line darkened this much, this wide, holds a stick for certain (dev seeds 5-34: no empty line's core
passed 0.25; a stick's median is 0.55): the frame's sure sticks show what its sticks look like."""
SURE_FLAT = 0.6
"""... and is dark across its width: its core at least this share of its darkest row. Only then does no
colour overrule it (UNLIKE_AB): a print line of another hue, its card kept round it and dimmed, is dark
in one row and a third as dark beside it (burnt 20261138's dark wood and gingham, dev 2's dark wood:
0.51-0.53), as dark in all as a sure stick; sure sticks a colour would overrule were 0.66 and more (dev
2-88, burnt 20261138)."""
SURE_STICKS = 3
"""Fewer sure sticks than this and a frame's sticks are judged by their darkness alone."""
SURE_NEAREST = 5
"""A line's colour is weighed against its SURE_NEAREST nearest sure sticks' (their median; all the frame's
when it has fewer): a lamp's hotspot pales the sticks under it and leaves those beyond dark, so a stick
there lay 55-115 lighter than the frame's median sure stick and 7-14 off its hue (dev 26, 40, 55 and burnt
20261142's laminate, beyond WASHED_L or GLARED_AB), but within the bounds of the sure sticks beside it;
the print beside them is as much lighter than they as elsewhere. Not for WIDE_WASHED_L, asked against
the frame's sure sticks all: beside paled sure sticks the built-in print's grey came 95-98 lighter, cores
0.27-0.31 (fresh dev 51's linen). Dev 7-83 and burnt 20261142-45: 25 lines righted, none broken (3
nearest: 5 broken, 9: 1)."""
BAR_ROWS = 3
"""Rows (millimetres) across a line whose colour is a stick's: its middle, even where the reference took
its blurred sides for the card."""
LIKE_AB, LIKE_L = 6.0, 40.0
"""A bar within this of the sure sticks' colour (Lab a-b distance; at most this much lighter, 8-bit L) is
of a stick: a stick the reference narrowed to 3 mm (a brown stick on dark wood, its sides taken for the
table), or one washed pale under a lamp's hotspot, is still of the sticks' hue. Seeds 5-34: sticks were
within 6 of their frame's in 99 % of lines, every print line left in view 8.6 or more away but in the
built-in edition (4.6, then 100 lighter)."""
WASHED_AB, WASHED_L = 5.0, 90.0
"""... and a bar of the sure sticks' very hue up to this much lighter: a stick washed pale by a lamp's
hotspot (seeds 8, 40, 55, 77: 1-3.6 off their hue, 47-84 lighter; burnt 20261138's laminate and dark
wood 3.1-3.7), short of the built-in edition's print beside black sticks (as grey as they, 100-113
lighter). Empty lines darkened as much (WEAK_DIP) and no more than WASHED_L lighter were 6.9 or more off
the sticks' hue on dev seeds 2-77. Lighter still, no bar but a sure stick is one
(seeds 5-55: no stick but the sure ones 85 lighter than its frame's sure sticks)."""
WIDE_WASHED_L, WIDE_WASHED_CORE = 100.0, 0.2
"""A bar of the sure sticks' very hue (WASHED_AB) between WASHED_L and this much lighter is still a stick
when dark across a stick's width (its core this much at least): dev 26's laminate, black sticks under a
lamp's hotspot 90-92.5 lighter, cores 0.24-0.28. Print lines that light and of that hue (the built-in
edition's, dev 2, 5, 13, 77) were 0.14 at most; the built-in print is 100-113 lighter."""
UNLIKE_AB, UNLIKE_L = 9.0, 35.0
"""A bar this far from the sure sticks' hue and this much lighter is the board's print, however dark: the
print of another edition (grey by brown sticks, brown by grey ones) where the reference left it in view,
blurred to 3 mm by the lens, darkens a line as much as a narrowed stick. Not a sure stick, which no print
resembles (seed 8: a sure stick in a shadow's blue was 9.1 off the frame's others)."""
GLARED_AB, GLARED_WARMER, GLARED_CORE, GLARED_DIP = 13.0, 2.0, 0.2, 1.2
"""... nor a stick by its darkness, dark across its width (core and dip this much), up to GLARED_AB off the
sure sticks' hue but warmer (its a and b both GLARED_WARMER above theirs) and no more than WASHED_L lighter:
a black stick paled by a warm hotspot takes the lamp's hue (burnt 20261142's laminate: 9.5-12.8 off, a and
b 5-10 above, 53-70 lighter). A print line as wide and as far off, grey by brown sticks, is cooler (dev
77's dark wood: a 4-7, b 9-12 below); no empty line was read a stick by this on dev 8, 26, 55, 77."""
DARK_NARROW_CORE, DARK_NARROW_L = 0.05, 20.0
"""A line darkened as a sure stick is (SURE_DIP) but narrower (core this much at least: not a hairline) is a
stick when no more than DARK_NARROW_L lighter than the frame's sure sticks and within GLARED_AB of their hue:
a stick the reference narrowed, dark in two or three rows, its hue pulled by the table left beside it (dev
36's gingham 9.4 off, 68's dark wood 8.7, 55's felt 6.1; cores 0.13-0.16, from 26 darker to 16 lighter).
Empty lines so dark (dip 1.5 and more) were 34 lighter and more on dev 7-77 and burnt 20261142 (the print,
a shadow), whatever their core; none darkened 1.2 within 34 of the sticks' lightness and 13 of their hue."""
WEAK_DIP = 0.6
"""Least darkening of a stick recognised by its colour (whatever its width: the narrowed stick's core is
none, its 3 mm flanked by the neutral grey)."""
NORMALISED_SHARE = 0.2
"""Strips this much of the exact neutral grey are of a normalised plane (a camera's pixels never are)."""


def stick_dips(
    strips: Frame,
    neutral: numpy.typing.NDArray[numpy.bool_],
    edge: numpy.typing.NDArray[numpy.bool_],
    nearest: numpy.typing.NDArray[numpy.intp],
    shown: dict[str, FloatArray] | None = None,
) -> FloatArray:
    """Per line, the summed darkening (millimetres of black) of the stick across it; 0 where none.
    `nearest`: per line, every line from the nearest to the furthest (LatticeLines.nearest);
    `shown` receives the measures it was made of (for diagnosis)."""
    # A stick darkens the card across its width; glare and blur lessen and widen the dip but
    # keep its area, which a thin printed line never reaches. Darkness is relative to the card.
    grey = strips.astype(numpy.float32) @ numpy.array([0.114, 0.587, 0.299], numpy.float32)
    as_if_card(grey, neutral)
    reference = percentile(grey.reshape(len(grey), -1), 75)[:, None]
    darkness = 1.0 - grey.mean(axis=2) / numpy.maximum(reference, 1.0)  # (lines, across)
    # A shadow's edge darkens one side of the strip: measure the dip above the line between its ends.
    ends = numpy.linspace(0.0, 1.0, darkness.shape[1], dtype=numpy.float32)[None, :]
    left, right = (
        darkness[:, :2].mean(axis=1, keepdims=True),
        darkness[:, -2:].mean(axis=1, keepdims=True),
    )
    above = numpy.clip(darkness - (left + (right - left) * ends), 0.0, 1.0)
    dip = best_window(above, STICK_WINDOW_ROWS) * STICK_WINDOW_ROWS
    # A stick is dark over its whole width, a printed line (the halo of card a normalised plane keeps
    # beside pieces shows it, darker in some editions) over two or three rows: the least of the
    # darkest STICK_CORE_ROWS adjacent rows.
    rows = darkness.shape[1] - STICK_CORE_ROWS + 1
    core = numpy.stack([darkness[:, k : k + rows] for k in range(STICK_CORE_ROWS)]).min(axis=0).max(axis=1)
    stick = (dip >= STICK_DIP_MM) & (core >= STICK_CORE)
    if shown is not None:
        shown.update(darkness=darkness, dip=dip.copy(), core=core)
    sure = ~edge & (dip >= SURE_DIP) & (core >= SURE_CORE)
    # Only on a normalised plane: there the reference narrows sticks and leaves print in view here and
    # there; a plane as the camera sees it shows every print line, whose bar (1 mm of print and 2 of card)
    # may average to a stick's colour, and no stick narrowed.
    normalised = numpy.count_nonzero(neutral) >= NORMALISED_SHARE * neutral.size
    colours = bar_colours(strips, neutral, darkness, sure, nearest) if normalised else None
    if colours is not None:
        hue, lighter, warmer, frame_hue, frame_lighter = colours
        like = ((hue <= LIKE_AB) & (lighter <= LIKE_L)) | ((hue <= WASHED_AB) & (lighter <= WASHED_L))
        # A sure stick is dark across its width, a print line in one row of it (SURE_FLAT).
        flat = core >= SURE_FLAT * darkness.max(axis=1)
        # A bar washed further still is a stick only when of its very hue and dark across its width, told
        # from the frame's sure sticks all: beside paled ones the built-in print's grey passes (SURE_NEAREST).
        wide = (frame_hue <= WASHED_AB) & (frame_lighter <= WIDE_WASHED_L) & (core >= WIDE_WASHED_CORE)
        # A stick paled by a warm hotspot takes its hue: dark across its width, it is still a stick.
        glared = (hue <= GLARED_AB) & (warmer >= GLARED_WARMER) & (lighter <= WASHED_L)
        glared &= (core >= GLARED_CORE) & (dip >= GLARED_DIP)
        unlike = (((hue > UNLIKE_AB) & (lighter > UNLIKE_L) & ~glared) | ((lighter > WASHED_L) & ~wide)) & ~(
            sure & flat
        )
        narrow = ~edge & (dip >= SURE_DIP) & (core >= DARK_NARROW_CORE)
        narrow &= (lighter <= DARK_NARROW_L) & (hue <= GLARED_AB)
        stick = (stick & ~unlike) | (like & (dip >= WEAK_DIP)) | narrow
        if shown is not None:
            shown.update(hue=hue, lighter=lighter)
    return numpy.where(stick, numpy.maximum(dip, STICK_DIP_MM), 0.0).astype(numpy.float32)


def bar_colours(
    strips: Frame,
    neutral: numpy.typing.NDArray[numpy.bool_],
    darkness: FloatArray,
    sure: numpy.typing.NDArray[numpy.bool_],
    nearest: numpy.typing.NDArray[numpy.intp],
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray] | None:
    """Per line, how far the colour of its darkest BAR_ROWS rows (the pixels the plane shows) lies from
    its nearest sure sticks' (SURE_NEAREST, by `nearest`; Lab a-b distance), how much lighter it is
    (8-bit L), the less of how far its a and b lie above theirs (warmer), and the first two against all
    the frame's sure sticks; None when the frame has too few sure sticks to tell, beyond all bounds where
    the bar shows nothing."""
    lines = len(strips)
    if numpy.count_nonzero(sure) < SURE_STICKS:
        return None
    rows = darkness.shape[1] - BAR_ROWS + 1
    start = numpy.stack([darkness[:, k : k + rows] for k in range(BAR_ROWS)]).sum(axis=0).argmax(axis=1)
    pick = start[:, None] + numpy.arange(BAR_ROWS)[None, :]
    index = numpy.arange(lines)[:, None]
    bars = numpy.ascontiguousarray(strips[index, pick]).reshape(lines, -1, 3)  # (lines, rows x along, 3)
    lab = numpy.asarray(cv2.cvtColor(bars, cv2.COLOR_BGR2LAB), numpy.float32)
    seen = ~neutral[index, pick].reshape(lines, -1)
    count = numpy.count_nonzero(seen, axis=1).astype(numpy.float32)
    total = numpy.einsum("lpc,lp->lc", lab, seen.astype(numpy.float32))
    bar = total / numpy.maximum(count, 1.0)[:, None]
    known = sure & (count > 0)
    if numpy.count_nonzero(known) < SURE_STICKS:
        return None
    where = numpy.flatnonzero(known)
    frame_shift = bar - numpy.median(bar[where], axis=0)
    shift = frame_shift
    if len(where) > SURE_NEAREST:
        # Per line, the first SURE_NEAREST sure sticks met going outwards.
        ordered = known[nearest]
        first = ordered & (numpy.cumsum(ordered, axis=1) <= SURE_NEAREST)
        near = nearest[first].reshape(lines, SURE_NEAREST)
        # Their median (SURE_NEAREST is odd), by a partition: numpy.median costs several times more.
        middle = SURE_NEAREST // 2
        shift = bar - numpy.partition(bar[near], middle, axis=1)[:, middle]
    nothing = count == 0

    def bound(values: FloatArray, fill: float) -> FloatArray:
        return numpy.where(nothing, fill, values).astype(numpy.float32)

    return (
        bound(numpy.hypot(shift[:, 1], shift[:, 2]), numpy.inf),
        bound(shift[:, 0], numpy.inf),
        bound(shift[:, 1:].min(axis=1), -numpy.inf),
        bound(numpy.hypot(frame_shift[:, 1], frame_shift[:, 2]), numpy.inf),
        bound(frame_shift[:, 0], numpy.inf),
    )


def as_if_card(grey: FloatArray, neutral: numpy.typing.NDArray[numpy.bool_]) -> None:
    """On a normalised plane, the neutral grey that stands for the empty table (the board's card too)
    as light as the card still shown beside the pieces: a stick is dark beside the card, but in canonical
    light hardly darker than that grey (a brown stick of another edition is lighter than it).

    The card is the frame's bright level, or the line's own where its strip shows card lighter still (the
    halo the reference leaves round a stick): where a plane shows mostly sticks and pieces, the frame's
    bright level is a pale stick's (a stick under glare is washed lighter, the card is not)."""
    if numpy.count_nonzero(neutral) < NORMALISED_SHARE * neutral.size:
        return  # a plane as the camera sees it: the card is there to compare with
    shown = grey[~neutral]
    frame = float(percentile(shown[None, :], 90)[0]) if shown.size else float(NEUTRAL_BGR[0])
    own = numpy.where(neutral, 0.0, grey).reshape(len(grey), -1).max(axis=1)
    card = numpy.maximum(own, frame)[:, None, None]
    grey[:] = numpy.where(neutral, card, grey)


def percentile(values: FloatArray, share: float) -> FloatArray:
    """Per row, numpy.percentile's (linear) value at `share` per cent, from a partition (numpy.percentile
    sorts its way there at several times the cost)."""
    position = share / 100 * (values.shape[1] - 1)
    low, high = math.floor(position), math.ceil(position)
    parted = numpy.partition(values, sorted({low, high}), axis=1)
    return numpy.asarray(
        parted[:, low] + (parted[:, high] - parted[:, low]) * (position - low), numpy.float32
    )


def window_sums(rows: FloatArray, width: int) -> FloatArray:
    """Per line (the first axis), the sums of every `width` adjacent values along the second."""
    sums = numpy.zeros((rows.shape[0], rows.shape[1] + 1), numpy.float64)
    numpy.cumsum(rows, axis=1, dtype=numpy.float64, out=sums[:, 1:])
    width = max(1, min(width, rows.shape[1]))
    return numpy.asarray(sums[:, width:] - sums[:, :-width], numpy.float32)


def best_window(rows: FloatArray, width: int) -> FloatArray:
    """Per line (the first axis), the largest mean of `width` adjacent values along the second."""
    return numpy.asarray(
        window_sums(rows, width).max(axis=1) / max(1, min(width, rows.shape[1])), numpy.float32
    )
