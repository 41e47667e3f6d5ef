"""Tanz der Hornochsen: a tile-sized outline off its number's ink does not keep the ink window from the
number where its square lies (_hornochsen_tiles.normalised_tile with on_ink).

A cloth's blotches the reference left in view may join half a face into an outline of a tile's size whose
centre lies beside the tile's (burnt 20261139 gingham: a 73 read 7, the window on the outline cutting the
3 off its side). _hornochsen_faces.read_face then asks for the window centred on the ink.
"""

from __future__ import annotations

import cv2
import numpy

from companion.vision.base import ItemRegion
from companion.vision.recognisers import _hornochsen_seen, _hornochsen_tiles
from companion.vision.reference import NEUTRAL_BGR

FACE = 230
INK = 40


def _seen(face_left: int) -> _hornochsen_seen.Seen:
    """A normalised plane with a bright 52 px face from `face_left`, and a number's two digits about the
    square's centre (100, 100): the first on the face's right edge, the second beyond it."""
    plane = numpy.full((260, 260, 3), NEUTRAL_BGR, numpy.uint8)
    plane[74:126, face_left : face_left + 52] = FACE
    cv2.rectangle(plane, (88, 89), (99, 111), (INK, INK, INK), -1)
    cv2.rectangle(plane, (104, 89), (115, 111), (INK, INK, INK), -1)
    table = _hornochsen_seen.table_mask(plane)
    assert table is not None
    return _hornochsen_seen.Seen.of(plane, table)


def _ink_window(seen: _hornochsen_seen.Seen) -> numpy.typing.NDArray[numpy.float32] | None:
    region = ItemRegion((50.0, 50.0), (26.0, 26.0))
    window = _hornochsen_tiles.tile_window(seen, region, float(FACE))
    assert window.rect is not None
    return _hornochsen_tiles.normalised_tile(seen, region, float(FACE), on_ink=True, window=window)


def test_two_digits_at_the_squares_centre_centre_the_window_past_an_outline_beside_them() -> None:
    seen = _seen(52)  # the outline's centre 24 px left of the ink's
    straight = _ink_window(seen)
    assert straight is not None
    ink = numpy.asarray(straight < (FACE + INK) / 2, numpy.uint8)
    count, _, stats, middles = cv2.connectedComponentsWithStats(ink, connectivity=8)
    digits = [k for k in range(1, count) if stats[k, 4] >= 10 * 20]
    assert len(digits) == 2  # both whole
    middle = (middles[digits[0]][0] + middles[digits[1]][0]) / 2
    assert abs(middle - straight.shape[1] / 2) <= 3.0


def test_two_digits_away_from_the_square_and_the_outline_give_no_ink_window() -> None:
    """The number's ink far from both the outline and the square's centre is not the tile's: no window."""
    plane_seen = _seen(52)
    region = ItemRegion((36.0, 50.0), (26.0, 26.0))  # the square's centre 28 px left of the ink
    window = _hornochsen_tiles.tile_window(plane_seen, region, float(FACE))
    assert window.rect is not None
    moved = window._replace(rect=((window.rect[0][0] - 16, window.rect[0][1]), *window.rect[1:]))
    straight = _hornochsen_tiles.normalised_tile(plane_seen, region, float(FACE), on_ink=True, window=moved)
    assert straight is None


def _oversize_window(faint: int) -> numpy.typing.NDArray[numpy.float32]:
    """A face run into its neighbour (an outline 76 px wide, a tile 52) with an 85 printed at its square's
    centre (100, 100): the 8 at INK dark enough for INK_LEVEL, the 5 at `faint`."""
    plane = numpy.full((260, 260, 3), NEUTRAL_BGR, numpy.uint8)
    plane[74:126, 60:136] = FACE
    cv2.rectangle(plane, (86, 89), (97, 111), (110, 110, 110), -1)
    cv2.rectangle(plane, (102, 89), (113, 111), (faint, faint, faint), -1)
    table = _hornochsen_seen.table_mask(plane)
    assert table is not None
    seen = _hornochsen_seen.Seen.of(plane, table)
    straight = _hornochsen_tiles.normalised_tile(seen, ItemRegion((50.0, 50.0), (26.0, 26.0)), float(FACE))
    assert straight is not None
    return straight


def _middle_of_ink(straight: numpy.typing.NDArray[numpy.float32], below: float) -> float:
    ink = numpy.asarray(straight < below, numpy.uint8)
    count, _, stats, middles = cv2.connectedComponentsWithStats(ink, connectivity=8)
    digits = [k for k in range(1, count) if stats[k, 4] >= 10 * 20]
    assert len(digits) == 2
    return float(middles[digits[0]][0] + middles[digits[1]][0]) / 2


def test_a_faint_second_digit_centres_an_oversize_outlines_window_with_the_first() -> None:
    """At INK_LEVEL only the 8 shows (the 5 at 165 on a 230 face): the faint level finds both, and the
    window is centred on the number, not on the 8 (burnt 20261138: an 85 read 8)."""
    straight = _oversize_window(165)
    assert abs(_middle_of_ink(straight, 190.0) - straight.shape[1] / 2) <= 3.0


def test_two_digits_dark_enough_centre_the_window_as_before() -> None:
    straight = _oversize_window(110)
    assert abs(_middle_of_ink(straight, 170.0) - straight.shape[1] / 2) <= 3.0
