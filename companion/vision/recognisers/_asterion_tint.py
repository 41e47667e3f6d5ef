"""Asterion: how much likelier a cell's frame and prisoner are one frame colour's than another's, green
against yellow joined by the corners' tint (`tinted_lead`), and which corner pixels show a frame colour
(`frame_pixels`). `_asterion_cell` decides a cell's colour with these."""

from __future__ import annotations

import math

import cv2
import numpy
import numpy.typing

from companion.vision.base import Frame
from companion.vision.recognisers._asterion_match import SHIFT_PX, Templates
from companion.vision.recognisers._asterion_profile import FRAME_LABELS, _CellPalettes
from companion.vision.recognisers._asterion_window import TEMPLATE_PX, Window
from companion.vision.recognisers._lab import to_lab

_YELLOW, _GREEN = (FRAME_LABELS.index(colour) for colour in ("yellow", "green"))

TINT_WEIGHT = 0.1
TINT_MOST = 0.5
WHITE_SHARE = 15.0
CLIPPED = 250
"""Green against yellow, the cell's frame and prisoner (`Templates.colour_lead`) are joined by how much
less red (CIELAB a, median) its corners are than its own whites (mean of its lightest WHITE_SHARE per
cent: the paths under the same lamp), against the print's own splits (`_asterion_profile.tint_splits`):
TINT_WEIGHT for each unit over the green split leans green, under the yellow split yellow, by TINT_MOST
at most. A lamp or a table tints frame and paths alike, where the corners' a alone does not tell: the
second print's greens under a warm lamp (corners at a 118-124, the print's yellow 128) lay 15-20 under
their whites and led green by 0.09-0.22 only; felt's yellows, read green by 0.29-0.44, lay within 3 of
theirs. Where most whites have their green at CLIPPED or over, no lean to green (a shipped print's yellow
on linen under glare, whites at L 253, lay 18 under them); their red, no lean to yellow."""

RED_OVER_BLUE = 0.5
RED_OVER_BLUE_LEAN = 0.4
"""Green against yellow also leans yellow by RED_OVER_BLUE_LEAN where the corners are redder against blue
than the cell's whites by RED_OVER_BLUE or more (natural log of red over blue: the median of the corners'
pixels nearest yellow or green, less the whites' mean's): a yellow's red stands far over its blue (the
second print's 3.1 times, its paper's 1.3), a green's not (1.1), and a lamp tints the whites alike, where
a green cast leaves red over blue alone. On felt the second print's yellows under a green cast (frames at
a 108 where printed 128), their whites' green clipped (no tint to measure in a), showed frame and
prisoner green's by 0.33-0.50 and were read green (burnt 20261141, 42, 45, dev 61), at 0.65-0.87. Second
print tiles voted yellow or green on dev 2-83 and burnt 20261140-46, over all their frame colours' pixels:
greens 0.28 at the 99th percentile, yellows 0.30 at the 1st; greens over 0.5 (felt, a dark wood, a travel
green taught) led green by 0.8 and more."""


def tinted_lead(
    templates: Templates,
    colour: str,
    other: str,
    windows: list[Window],
    corner_pixels: Frame,
    palettes: _CellPalettes,
) -> float:
    """`Templates.colour_lead`, for green against yellow joined by the corners' tint (TINT_WEIGHT)."""
    lead = templates.colour_lead(colour, other, windows)
    if {colour, other} != {"green", "yellow"}:
        return lead
    window = windows[0]
    part = window.part(SHIFT_PX, SHIFT_PX)
    lightness = part[..., 0]
    # A partition and OpenCV's masked means, not percentiles and indexing: 90 us a call against 300.
    least = int(lightness.size * (1.0 - WHITE_SHARE / 100.0))
    whites = numpy.asarray(lightness >= numpy.partition(lightness.ravel(), least)[least], numpy.uint8)
    bgr = window.bgr[SHIFT_PX : SHIFT_PX + TEMPLATE_PX, SHIFT_PX : SHIFT_PX + TEMPLATE_PX]
    clipped = cv2.mean(cv2.threshold(bgr, CLIPPED - 1, 255, cv2.THRESH_BINARY)[1], mask=whites)
    pixels = corner_pixels.reshape(-1, 3)
    owners = palettes.every_map[palettes.every.classify_bgr(pixels)]
    corners = to_lab(frame_pixels(pixels, palettes, owners < len(FRAME_LABELS)).reshape(1, -1, 3))[0, :, 1]
    middle = corners.size // 2
    below = cv2.mean(part, mask=whites)[1] - float(numpy.partition(corners, middle)[middle])
    yellow_split, green_split = palettes.tint
    # A clipped channel's true value is no less than measured: most whites' green clipped, they are
    # no less red than they seem and the corners' lean to green is no measure; their red, to yellow.
    greener = TINT_WEIGHT * (
        (0.0 if 2 * clipped[1] > 255 else max(0.0, below - green_split))
        + (0.0 if 2 * clipped[2] > 255 else min(0.0, below - yellow_split))
    )
    greener = min(TINT_MOST, max(-TINT_MOST, greener))
    # Of the pixels nearest yellow or green only: a light wood's orange beside the frame (nearest red)
    # is as red against blue as a yellow (burnt 20261141 light wood, a green's corners at 0.57 with it).
    either = pixels[(owners == _YELLOW) | (owners == _GREEN)].astype(numpy.float32)
    if either.size:
        white = cv2.mean(bgr, mask=whites)
        ratios = numpy.log((either[:, 2] + 1.0) / (either[:, 0] + 1.0))
        if float(numpy.median(ratios)) - math.log((white[2] + 1.0) / (white[0] + 1.0)) >= RED_OVER_BLUE:
            greener -= RED_OVER_BLUE_LEAN
    return lead + (greener if colour == "green" else -greener)


def frame_pixels(
    corner_pixels: Frame, palettes: _CellPalettes, on_frame: numpy.typing.NDArray[numpy.bool_] | None = None
) -> Frame:
    """The corners' pixels (BGR, one row each) of a frame colour, all of them when none: beside the
    frame they show walls, paths and the table, whose a lies by the whites' and drew a green frame's
    median to yellow (dev 83). `on_frame`: which they are, as the ring classified them (`_read_ring`):
    not classified again (17 us; the warm-green gate asks ~8 cells a frame)."""
    pixels = corner_pixels.reshape(-1, 3)
    if on_frame is None:
        on_frame = palettes.every_map[palettes.every.classify_bgr(pixels)] < len(FRAME_LABELS)
    return pixels[on_frame] if on_frame.any() else pixels
