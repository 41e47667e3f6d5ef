"""Tanz der Hornochsen: where a tile's number's ink lies in its window.

The number is printed in the tile's middle: its digit-sized shapes of ink (darker than INK_LEVEL of the
face, or for a number printed pale, than halfway from the face to its darkest ink) centre the window the
number is read in where the tile's outline ran into a neighbour or lost a strip to the empty area, and
tell how many digits were found there (see _hornochsen_tiles.normalised_tile).
"""

from __future__ import annotations

import math

import cv2
import numpy

from companion.vision.base import PLANE_PX_PER_MM, Frame
from companion.vision.recognisers._hornochsen_glyphs import INK_CONTRAST, TILE_MM

INK_LEVEL = 0.6
"""Ink is darker than this share of the face's lightness."""
DIGIT_REACH_MM = 14.0
"""A number's digits stand this close together at most (about 10 mm between their centres; a neighbour
tile's nearest digit is 20 mm away)."""
DIGIT_GAP_MM = 4.0
"""...and their ink this close side by side (1.5 to 3 mm apart as found; a tile's frame line or edge is
5 mm and more from them)..."""
ALIKE_HEIGHT = 0.7
"""...of a height alike (printed the same, blurred alike: a speck or a piece of a neighbour's digit is
shorter)..."""
STROKE_SHARE = 0.3
"""...so ink further off and narrower than this share of its height is a line, no digit (a frame line's
piece is a quarter as wide as tall, a digit two thirds; a thin 1 a fifth)."""


def ink_centre(light: Frame, face_level: float, centre: tuple[float, float]) -> tuple[float, float] | None:
    """The middle of the digit-sized ink shapes nearest the square's centre and those beside them."""
    found = ink_number(light, face_level, centre)
    return None if found is None else found[0]


def ink_number(
    light: Frame,
    face_level: float,
    centre: tuple[float, float],
    widest_mm: float = 14.0,
    level: float | None = None,
) -> tuple[tuple[float, float], int] | None:
    """ink_centre's middle, and how many digits it was found from (1 or 2). `widest_mm`: the widest ink
    shape taken for a digit (see PAIR_WIDE_MM). `level`: ink is darker than this (by default INK_LEVEL of
    the face's lightness)."""
    # light < level, as cv2's threshold on bytes (not above the whole level below it).
    below = math.ceil(INK_LEVEL * face_level if level is None else level) - 1
    ink = numpy.asarray(cv2.threshold(light, below, 1, cv2.THRESH_BINARY_INV)[1], numpy.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(ink, 8, cv2.CV_32S, cv2.CCL_BBDT)
    # (A dozen shapes: looked at in plain Python, where numpy's calls on arrays this small cost more.)
    parts = [
        [x, y, x + w, y + h]
        for x, y, w, h in stats[1:count, :4].tolist()
        if h >= PART_MM * PLANE_PX_PER_MM and w <= widest_mm * PLANE_PX_PER_MM
    ]
    tall = [
        box
        for box in _stacked(parts)
        if 0.5 * 11.0 * PLANE_PX_PER_MM <= box[3] - box[1] <= DIGIT_HIGH_MM * PLANE_PX_PER_MM
        and box[2] - box[0] <= widest_mm * PLANE_PX_PER_MM
    ]
    if not tall:
        return None
    middles = [((x0 + x1) / 2, (y0 + y1) / 2) for x0, y0, x1, y1 in tall]
    offsets = numpy.array(middles, numpy.float64) - numpy.asarray(centre, numpy.float64)
    distances = numpy.hypot(offsets[:, 0], offsets[:, 1]).tolist()
    # A thin upright stroke off the square's middle is a tile's frame line or edge, no digit: the number is
    # the ink nearest the middle of the rest.
    candidates = [
        (distance, place)
        for place, (distance, (x0, y0, x1, y1)) in enumerate(zip(distances, tall, strict=True))
        if not (x1 - x0 < STROKE_SHARE * (y1 - y0) and distance > NEAR_MM * PLANE_PX_PER_MM)
    ]
    if not candidates:
        return None
    nearest = min(candidates)[1]
    if distances[nearest] > NEAR_MM * 2 * PLANE_PX_PER_MM:
        return None
    # A thin upright stroke further off is a tile's frame line or edge, not a digit (a thin 1 stands close).
    near_x0, _, near_x1, _ = tall[nearest]
    near_height = tall[nearest][3] - tall[nearest][1]
    beside = []  # (thin, gap, place) of the shapes beside the nearest
    for place, ((x0, y0, x1, y1), (mx, my)) in enumerate(zip(tall, middles, strict=True)):
        gap = max(x0 - near_x1, near_x0 - x1)
        thin = x1 - x0 < STROKE_SHARE * (y1 - y0)
        if (
            place != nearest
            and abs(mx - middles[nearest][0]) <= DIGIT_REACH_MM * PLANE_PX_PER_MM
            and abs(my - middles[nearest][1]) <= 4.0 * PLANE_PX_PER_MM
            and y1 - y0 >= ALIKE_HEIGHT * near_height
            and not (thin and gap > DIGIT_GAP_MM * PLANE_PX_PER_MM)
        ):
            beside.append((thin, gap, place))
    number = [tall[nearest]]
    if beside:
        # A number has two digits at most: the other is the one standing closest (the first of ties), a
        # digit's width before a stroke's: a piece of a frame line printed a millimetre from one digit is
        # no closer a digit than the other digit 3 mm off (linen, burnt 20261137: 47 read 4, the window
        # centred on the 4 and the line, the 7 off its side; dev seed 55: 59 read 5).
        number.append(tall[min(beside)[2]])
    x0, y0 = min(box[0] for box in number), min(box[1] for box in number)
    x1, y1 = max(box[2] for box in number), max(box[3] for box in number)
    return ((x0 + x1) / 2, (y0 + y1) / 2), len(number)


FAINT_INK_SHARE = 0.5
"""Faint ink (see faint_ink_centre) is darker than this share of the way from the face to the darkest ink."""


def faint_ink_centre(
    light: Frame, face_level: float, centre: tuple[float, float]
) -> tuple[float, float] | None:
    """ink_centre of a number printed fainter than INK_LEVEL of its face: ink darker than halfway from the
    face to the darkest fiftieth of a tile-sized box round the square's centre, where that stands
    INK_CONTRAST (the digit reader's) out of the face. An outline larger than a tile (its side ran into the
    board) is no window for it: centred there, a light-orange 6 of 63 fell off the window's side and 63 read
    3 (burnt 20261136, dark wood, travel edition at 0.77 mm/px: both digits at 165-185 on a face at 244,
    INK_LEVEL's threshold 146)."""
    found = faint_ink_number(light, face_level, centre)
    return None if found is None else found[0]


def faint_ink_number(
    light: Frame, face_level: float, centre: tuple[float, float]
) -> tuple[tuple[float, float], int] | None:
    """faint_ink_centre's middle, and how many digits it was found from (see ink_number)."""
    half = round(TILE_MM / 2 * PLANE_PX_PER_MM)
    x, y = round(centre[0]), round(centre[1])
    box = light[max(y - half, 0) : y + half, max(x - half, 0) : x + half]
    if box.size == 0:
        return None
    darkest = float(numpy.partition(box.ravel(), box.size // 50)[box.size // 50])
    if face_level - darkest < INK_CONTRAST:
        return None
    return ink_number(light, face_level, centre, level=darkest + FAINT_INK_SHARE * (face_level - darkest))


PART_MM = 2.0
"""Ink shapes shorter than this are specks, not parts of a digit."""
DIGIT_HIGH_MM = 16.0
"""A digit's ink, blurred, is at most this tall (they are printed 10 to 12 mm high)."""


def _stacked(parts: list[list[int]]) -> list[list[int]]:
    """Ink shapes' boxes (x0, y0, x1, y1), with those just above one another in the same columns made one:
    a blurred digit's ink may break across its waist (a 5 in two parts)."""
    merged: list[list[int]] = []
    for box in sorted(parts):
        last = merged[-1] if merged else [0, 0, 0, 0]
        top, bottom = min(last[1], box[1]), max(last[3], box[3])
        if (
            box[0] < last[2] - 1
            and max(box[1], last[1]) - min(box[3], last[3]) <= 3
            and bottom - top <= DIGIT_HIGH_MM * PLANE_PX_PER_MM
        ):
            merged[-1] = [last[0], top, max(last[2], box[2]), bottom]
        else:
            merged.append(box)
    return merged


NEAR_MM = 8.0
"""A tile reaches this close to its square's centre at least (a plane a few millimetres off moves it)."""
