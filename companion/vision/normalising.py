"""The normalised plane (reference.py's `TableReference.normalise_with_table`): the plane in canonical
light with every table pixel replaced by the neutral colour, from the comparison's masks (at
`MASK_PX_PER_MM`) spread to the plane's pixels. Corrected and spread over the foreground's box only: a
board with few pieces costs a fraction of the plane."""

from __future__ import annotations

import cv2
import numpy
import numpy.typing

from companion.vision.base import Frame
from companion.vision.table_light import Floats, Mask

KEEP_LEVEL = 80
"""Where the foreground mask, spread smoothly to the plane's pixels, exceeds this (of 255), the plane's
own pixel is kept in a normalised plane."""


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
