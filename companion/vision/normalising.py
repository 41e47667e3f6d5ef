"""The normalised plane (reference.py's `TableReference.normalise_with_table`): the plane in canonical
light with every table pixel replaced by the neutral colour, from the comparison's masks (at
`MASK_PX_PER_MM`) spread to the plane's pixels. Corrected and spread over the foreground's box only: a
board with few pieces costs a fraction of the plane. Its correction brings the markers' paper to canonical
white, and a hotspot's table the empty area showed whiter than that too (`hotspot`, at learning), and lifts
nothing far past white (`unclipped`: least of all where the empty table showed a lamp's glare,
`glare_ceiling`)."""

from __future__ import annotations

import functools

import cv2
import numpy
import numpy.typing

from companion.vision._reference_base import FAINT_MM, HOTSPOT_MM, px, square
from companion.vision.base import Frame
from companion.vision.table_light import Floats, Mask, corner_field, floats, max3

CANONICAL_WHITE = 235.0
"""The level the markers' white paper is brought to in a normalised plane (each channel)."""
KEEP_LEVEL = 80
"""Where the foreground mask, spread smoothly to the plane's pixels, exceeds this (of 255), the plane's
own pixel is kept in a normalised plane."""
LIFT_CEILING = 300.0
"""The highest level (at the masks' size: 2 mm averages, the brightest channel) a normalised plane's
correction lifts anything to (`unclipped`): paper lifted past 255 by a little is what the
recognisers always saw (the markers' white is not every card's), but lifted beyond this (1.28 times
canonical white) the grey beside it clips too. At 245 or 280 instead, Hornochsen's white faces, lifted a
little past white and brought down, read a digit or two differently on dev seeds (13->23, 76->74)."""
GLARE_CEILING = 245.0
"""`LIFT_CEILING` where the empty table showed a hotspot (`glare_ceiling`): there nothing
is lifted past white at all. (Everywhere, it brought Hornochsen faces lifted a little past white down and
a digit or two read otherwise on dev seeds; where the table showed glare it reads them as before.)"""
GLARE_FROM = 1.4
"""How many times brighter than at the corners the empty table's level (35 mm averages) begins to count
as the lamp's glare (a wood's grain and a cloth's print average out well within it over that width)."""
GLARE_FULL = 1.8
"""... and from how many times it counts fully."""


def _kept_box(
    foreground: Mask, plane_size: tuple[int, int]
) -> tuple[tuple[int, int, int, int], tuple[slice, slice], tuple[float, float]] | None:
    """Where a normalised plane may keep its own pixels: the mask rows and columns to spread (top,
    bottom, left, right: the foreground's box, a mask pixel wider for the spread's reach and one more
    for its interpolation), the plane pixels of that spread to keep (an exact multiple of the mask's:
    those the spread of the whole mask gives alike), and the plane pixels per mask pixel. None: no
    foreground. Spread over the box alone, a board with few pieces costs a fraction of the plane."""
    height, width = foreground.shape
    scale = (plane_size[0] / width, plane_size[1] / height)
    # The box of the foreground's pixels in one call (two reductions and their indices cost 30 times more).
    first_column, first_row, columns, rows = cv2.boundingRect(foreground.view(numpy.uint8))
    if rows == 0:
        return None
    if plane_size != (4 * width, 4 * height):
        return (0, height, 0, width), (slice(0, plane_size[1]), slice(0, plane_size[0])), scale
    # Kept: a mask pixel beyond the foreground either side; spread from one more (interpolated from it).
    kept_top, kept_bottom = max(first_row - 1, 0), min(first_row + rows + 1, height)
    kept_left, kept_right = max(first_column - 1, 0), min(first_column + columns + 1, width)
    top, bottom = max(kept_top - 1, 0), min(kept_bottom + 1, height)
    left, right = max(kept_left - 1, 0), min(kept_right + 1, width)
    inner_y = slice(4 * (kept_top - top), 4 * (kept_bottom - top))
    inner_x = slice(4 * (kept_left - left), 4 * (kept_right - left))
    return (top, bottom, left, right), (inner_y, inner_x), scale


def normalised_with_table(
    plane: Frame, foreground: Mask, correction: Floats, neutral: Frame
) -> tuple[Frame, numpy.typing.NDArray[numpy.uint8]]:
    """The plane in canonical light (`correction`: per mask pixel and channel, the factor bringing it
    there) with its table (where `foreground`, a mask, is False, spread smoothly) replaced by `neutral`'s
    pixels (the neutral colour, the plane's size), and where it replaced them (255; else 0)."""
    box = _kept_box(foreground, (neutral.shape[1], neutral.shape[0]))
    shape = neutral.shape[:2]
    if box is None:
        # A copy is a memcpy; filling with a colour is not.
        return neutral.copy(), numpy.full(shape, 255, numpy.uint8)
    (top, bottom, left, right), (inner_y, inner_x), scale = box
    # Spread smoothly and cut a little below half: the outline runs between the mask's 2 mm pixels
    # where the piece's edge is, and a pixel half piece is kept (its blur belongs to the piece).
    mask = foreground[top:bottom, left:right].astype(numpy.uint8) * 255
    size = (round((right - left) * scale[0]), round((bottom - top) * scale[1]))
    spread = cv2.resize(mask, size, interpolation=cv2.INTER_LINEAR)[inner_y, inner_x]
    table = numpy.asarray(cv2.threshold(spread, KEEP_LEVEL, 255, cv2.THRESH_BINARY_INV)[1], numpy.uint8)
    # The correction is smooth: scaled to bytes (1/80 steps) it multiplies the plane in one pass.
    scaled = numpy.clip(correction[top:bottom, left:right] * 80.0, 0, 255).astype(numpy.uint8)
    factor = cv2.resize(scaled, size, interpolation=cv2.INTER_LINEAR)[inner_y, inner_x]
    y0, x0 = round(top * scale[1]) + inner_y.start, round(left * scale[0]) + inner_x.start
    region = (slice(y0, y0 + table.shape[0]), slice(x0, x0 + table.shape[1]))
    if table.shape == shape:
        corrected = numpy.asarray(cv2.multiply(plane, factor, scale=1.0 / 80.0), numpy.uint8)
        # The table's pixels of the corrected plane become NEUTRAL_BGR, in place: the whole plane (a board
        # full of pieces) is then the normalised plane itself.
        cv2.copyTo(neutral, table, corrected)
        return corrected, table
    # Corrected straight into the normalised plane's box, its table's pixels set back to NEUTRAL_BGR there
    # (OpenCV writes into the box's view of it: no corrected box to copy in afterwards).
    out = neutral.copy()
    kept = out[region]
    written = cv2.multiply(plane[region], factor, dst=kept, scale=1.0 / 80.0)
    if written is not kept:
        kept[...] = written
    cv2.copyTo(neutral[region], table, kept)
    replaced = numpy.full(shape, 255, numpy.uint8)
    replaced[region] = table
    return out, replaced


@functools.cache
def _disc(side: int) -> numpy.typing.NDArray[numpy.uint8]:
    """A round kernel `side` mask pixels across (made once: OpenCV only reads it)."""
    return numpy.asarray(cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side)), numpy.uint8)


def gaps_joined(foreground: Mask, side: int) -> Mask:
    """`foreground` with every gap in it narrower than `side` mask pixels closed (a round kernel: no
    corner of the table between two pieces standing diagonally is filled more than a straight gap): for
    pieces lying edge to edge (`Layout.joined_gap_mm`), whose pale parts the reference took for the
    table where they open onto it. One closing of the mask, ~0.1 ms."""
    closed = cv2.morphologyEx(foreground.view(numpy.uint8), cv2.MORPH_CLOSE, _disc(side))
    return numpy.asarray(closed, numpy.uint8).view(bool)


def hotspot(image: Floats, log_white: Floats) -> Floats:
    """How much (log) the reference `image`, white-balanced by the corners (`log_white`), shows brighter
    than the markers' white around each pixel (0 where it does not). Nothing on a table is whiter than white
    paper: that is a lamp's hotspot the corners do not see. Brought down by as much, a board's paper
    there lands at canonical white, and what lies on it does not clip (a grey outline on white)."""
    white = numpy.exp(log_white)
    level = cv2.blur(max3(image * white), (px(FAINT_MM), px(FAINT_MM)))
    # Over a hotspot's width, no less than its brightest paper nearby: the light, not the print.
    level = cv2.blur(cv2.dilate(level, square(HOTSPOT_MM)), (px(HOTSPOT_MM), px(HOTSPOT_MM)))
    excess = numpy.log(numpy.maximum(level, CANONICAL_WHITE) / CANONICAL_WHITE)
    return numpy.asarray(excess, numpy.float32)[:, :, None]


def glare_ceiling(image: Floats, markers: Mask, corner: int) -> Floats:
    """Per mask pixel, the level the normalised plane's correction lifts nothing past (`unclipped`):
    `LIFT_CEILING`, but down to `GLARE_CEILING` where the empty table (the reference `image`, at the
    masks' size) showed itself brighter than at the corners (its level beside the corner `markers`, a mask,
    within `corner` pixels of each corner; spread between them) by
    `GLARE_FROM` to `GLARE_FULL` times: a lamp's glare or pool the corners' white does not see, however
    dark the table, and what lies there must not be lifted into white for the corners' sake."""
    brightest = max3(image)
    level = cv2.blur(brightest, (px(HOTSPOT_MM), px(HOTSPOT_MM)))
    side = corner
    corners = []
    for rows, columns in (
        (slice(0, 2 * side), slice(0, 2 * side)),
        (slice(0, 2 * side), slice(-2 * side, None)),
        (slice(-2 * side, None), slice(-2 * side, None)),
        (slice(-2 * side, None), slice(0, 2 * side)),
    ):
        # The table beside the marker, not averaged with its white paper.
        box, paper = brightest[rows, columns], markers[rows, columns]
        corners.append(float(numpy.median(box[~paper])) if numpy.any(~paper) else 1.0)
    field = corner_field(
        numpy.repeat(numpy.array(corners, numpy.float32)[:, None], 3, axis=1),
        (image.shape[1], image.shape[0]),
    )
    ratio = level / numpy.maximum(field[:, :, 0], 1.0)
    strength = numpy.clip((ratio - GLARE_FROM) / (GLARE_FULL - GLARE_FROM), 0.0, 1.0)
    return floats(LIFT_CEILING - (LIFT_CEILING - GLARE_CEILING) * strength)


def unclipped(small: Frame, correction: Floats, lift_ceiling: Floats) -> Floats:
    """`correction` brought down, smoothly over a hotspot's width, wherever it would lift the plane
    (`small`: at the masks' size) past `lift_ceiling` (per mask pixel:
    `glare_ceiling`'s): a hotspot the empty table did not show whiter than
    the markers' paper (a lamp's glare on dark wood is far darker than paper) keeps the lift the dim
    corners need, and lifted so, a tile's grey walls there clipped white with its paths (burnt 20261136
    Asterion, dark wood: 99 % of a tile clipped, its walls at L 148-188 in the camera's frame)."""
    level = max3(floats(cv2.multiply(small, correction, dtype=cv2.CV_32F)))
    # Over a few millimetres, so that a speck of glare on a die does not hold its surroundings down.
    level = floats(cv2.blur(level, (px(FAINT_MM), px(FAINT_MM))))
    if float(level.max()) <= float(lift_ceiling.min()):
        return correction
    # No less than the brightest nearby over a hotspot's width (dilated, then smoothed: the smoothing
    # never falls below a pixel's own level): one gain over a whole piece. (Done at half the masks'
    # size, a Hornochsen number or two on dev seeds read otherwise: 68->64.)
    level = floats(cv2.blur(cv2.dilate(level, square(HOTSPOT_MM)), (px(HOTSPOT_MM), px(HOTSPOT_MM))))
    ceiling = lift_ceiling if lift_ceiling.shape == level.shape else LIFT_CEILING
    scale = floats(ceiling / numpy.maximum(level, ceiling))
    return floats(cv2.multiply(correction, cv2.merge([scale] * 3)))
