"""Tanz der Hornochsen: a square of a raw plane (no reference to tell the empty area) read by its colours.

Each pixel is labelled by its nearest colour prototype among SURFACES (a profile's, see hornochsen.py): a
square is empty, a back or a face by the shares of its middle, a face's tile found by its face pixels
(find_tile) and its number read; a square in deep shadow that shows ink is looked at again lit up (lit_up).
"""

from __future__ import annotations

import cv2
import numpy
import numpy.typing

from companion.vision.base import Frame
from companion.vision.recognisers._hornochsen_digits import DigitTemplates, read_number
from companion.vision.recognisers._hornochsen_tiles import middle_of, straighten
from companion.vision.recognisers._lab import FloatArray, Palette
from companion.vision.vocabulary import DOWN, EMPTY

FACE, BACK, INK, BOARD_PRINT = "face", "back", "ink", "board"
SURFACES = (FACE, BACK, INK, BOARD_PRINT)
TILE_SHARE = 0.4
"""A square holds a tile when this share of its middle shows the tile's face or back."""


def read_square(
    crop: Frame, palette: Palette, templates: DigitTemplates
) -> tuple[str, float, list[tuple[int, float]]]:
    """What a square (or slot) shows, as hornochsen.HornochsenRecogniser._read_item says."""
    middle = palette.classify_bgr(middle_of(crop, 0.6)[::2, ::2])
    shares = numpy.bincount(middle.ravel(), minlength=len(SURFACES)) / max(1, middle.size)
    face, back = float(shares[0]), float(shares[1])
    if max(face, back) < TILE_SHARE:
        return EMPTY, float(min(1.0, 1.0 - max(face, back) / TILE_SHARE + 0.3)), []
    if back > face:
        return DOWN, float(min(1.0, back)), []
    tile = find_tile(crop, palette.classify_bgr(crop))
    if tile is None:
        return EMPTY, 0.2, []
    number, margin, alternatives = read_number(tile, templates)
    if number is None:
        return EMPTY, 0.1, []
    return str(number), float(min(1.0, margin * 4)), alternatives


DARK_LEVEL = 120.0
"""A square whose middle's brightest tenth is darker than this (a tile's face is about 228 grey, the board's
squares 140) lies in deep shadow..."""
LIT_LEVEL = 200.0
"""...and is looked at again scaled so that its brightest tenth is this light,"""
INK_SHARE = 0.5
"""...when its darkest fiftieth is at most this share of its brightest quarter's lightness: ink on a face
(a plain table or square in shadow is more even)."""
LIFTED_TRUST = 0.5
"""How much of its confidence a reading of a lit-up square keeps."""


def lit_up(crop: Frame) -> Frame | None:
    """The square lit up to a face's lightness, when it lies in deep shadow and shows ink; else None."""
    sample = numpy.ascontiguousarray(middle_of(crop, 0.6)[::2, ::2])
    blue, green, red, _ = cv2.mean(sample)
    if 0.114 * blue + 0.587 * green + 0.299 * red >= DARK_LEVEL:
        return None  # lit well enough on average: so is its brightest tenth (a quick look for most squares)
    middle = cv2.cvtColor(sample, cv2.COLOR_BGR2GRAY).ravel()
    size = middle.size
    ordered = numpy.partition(middle, (size // 50, size * 3 // 4, size * 9 // 10))
    brightest, face, ink = (
        float(ordered[size * 9 // 10]),
        float(ordered[size * 3 // 4]),
        float(ordered[size // 50]),
    )
    if not 0 < brightest < DARK_LEVEL or ink > INK_SHARE * face:
        return None
    return numpy.asarray(cv2.convertScaleAbs(crop, alpha=LIT_LEVEL / brightest), numpy.uint8)


def find_tile(crop: Frame, owners: numpy.typing.NDArray[numpy.intp]) -> FloatArray | None:
    """The tile in a square, straightened (see straighten), from its pixels' surfaces (SURFACES' indices)."""
    return straighten(crop, owners == SURFACES.index(FACE))
