"""Tanz der Hornochsen: the window a face-up tile's number is read in holds the whole number, level.

A tile's outline (its bright face) may lose a strip where the reference took part of a washed-out face for
the empty table, or run into a look-alike surround and turn with it; the number's own ink then places and
levels the window (_hornochsen_tiles.normalised_tile).
"""

from __future__ import annotations

import cv2
import numpy

from companion.vision.base import ItemRegion
from companion.vision.recognisers import _hornochsen_ink, _hornochsen_seen, _hornochsen_tiles
from companion.vision.recognisers._lab import FloatArray
from companion.vision.reference import NEUTRAL_BGR

FACE = 230
INK = 40


def _plane(face: numpy.typing.NDArray[numpy.uint8]) -> numpy.typing.NDArray[numpy.uint8]:
    """A normalised plane: the neutral empty area, and a face's light grey wherever `face` is 255 (the
    ink is drawn on it before it is seen)."""
    plane = numpy.full((*face.shape, 3), NEUTRAL_BGR, numpy.uint8)
    plane[face > 0] = FACE
    return plane


def _finish(plane: numpy.typing.NDArray[numpy.uint8]) -> _hornochsen_seen.Seen:
    table = _hornochsen_seen.table_mask(plane)
    assert table is not None
    return _hornochsen_seen.Seen.of(plane, table)


def _window(seen: _hornochsen_seen.Seen, region: ItemRegion) -> FloatArray:
    tile, (_, light, _) = _hornochsen_seen.square_levels(seen, region)
    assert tile >= _hornochsen_seen.NORMALISED_TILE_SHARE
    straight = _hornochsen_tiles.normalised_tile(seen, region, light)
    assert straight is not None
    return straight


def _digits(straight: FloatArray) -> list[tuple[int, float, float]]:
    """The window's ink shapes: (pixels, middle x, middle y), largest first."""
    ink = numpy.asarray(straight < (FACE + INK) / 2, numpy.uint8)
    count, _, stats, middles = cv2.connectedComponentsWithStats(ink, connectivity=8)
    shapes = [(int(stats[k, 4]), float(middles[k][0]), float(middles[k][1])) for k in range(1, count)]
    return sorted(shapes, reverse=True)


def _a_47_on(
    face: numpy.typing.NDArray[numpy.uint8],
) -> tuple[_hornochsen_seen.Seen, ItemRegion, _hornochsen_tiles.TileWindow]:
    """A 47 printed about the middle of the square at (50, 50) mm on the face `face` outlines: the plane
    seen, the square, and its tile window."""
    plane = _plane(face)
    cv2.rectangle(plane, (86, 89), (99, 111), (INK, INK, INK), -1)
    cv2.rectangle(plane, (104, 89), (117, 111), (INK, INK, INK), -1)
    seen = _finish(plane)
    region = ItemRegion((50.0, 50.0), (26.0, 26.0))
    return seen, region, _hornochsen_tiles.tile_window(seen, region, float(FACE))


def test_a_digit_off_a_narrow_outline_stays_in_the_window() -> None:
    """An 18 whose face lost its left part and top to the empty area and ran on to the right into the
    board washed out to a face's lightness: its outline is narrower than a tile and off to the right, and
    a window centred on it cuts the 1 off (dev seed 8 read 8). The window is centred on the number."""
    face = numpy.zeros((260, 260), numpy.uint8)
    cv2.rectangle(face, (98, 80), (150, 121), 255, -1)  # 53 x 42 px: a tile is 52 px a side
    plane = _plane(face)
    cv2.rectangle(plane, (86, 89), (94, 111), (INK, INK, INK), -1)  # the 1, in the lost strip
    cv2.rectangle(plane, (100, 89), (114, 111), (INK, INK, INK), -1)  # the 8
    seen = _finish(plane)
    straight = _window(seen, ItemRegion((50.0, 50.0), (26.0, 26.0)))
    shapes = _digits(straight)
    assert len(shapes) == 2
    # Both digits whole (a shape's edge straddling pixels is shared with the face: a row and a column lost).
    one, eight = sorted(size for size, _, _ in shapes)
    assert one >= 8 * 22 and eight >= 14 * 22
    middle = straight.shape[1] / 2
    assert abs((shapes[0][1] + shapes[1][1]) / 2 - middle) <= 4.0


def test_a_whole_outline_is_not_moved_to_the_ink() -> None:
    """A tile outlined whole is straightened about its outline, not re-centred on its ink (a number printed
    a little left of the tile's middle stays there)."""
    face = numpy.zeros((260, 260), numpy.uint8)
    cv2.rectangle(face, (74, 74), (125, 125), 255, -1)
    plane = _plane(face)
    cv2.rectangle(plane, (78, 89), (91, 111), (INK, INK, INK), -1)
    cv2.rectangle(plane, (95, 89), (108, 111), (INK, INK, INK), -1)
    seen = _finish(plane)
    straight = _window(seen, ItemRegion((50.0, 50.0), (26.0, 26.0)))
    shapes = _digits(straight)
    assert len(shapes) == 2
    assert abs((shapes[0][1] + shapes[1][1]) / 2 - (straight.shape[1] / 2 - 6.5)) <= 1.5


def test_an_oversize_outline_turned_far_leaves_an_upright_number_level() -> None:
    """An upright 47 whose bright face ran into a turned look-alike surround: the outline is larger than a
    tile and turned 25 degrees. The window is centred on the number and left upright, its digits level
    (turned with the outline, one digit stood 8 px above the other)."""
    face = numpy.zeros((260, 260), numpy.uint8)
    corners = cv2.boxPoints(((100.0, 100.0), (70.0, 50.0), 25.0))
    cv2.fillPoly(face, [numpy.asarray(numpy.rint(corners), numpy.int32)], 255)
    seen, region, window = _a_47_on(face)
    assert window.rect is not None and max(window.rect[1]) > _hornochsen_tiles.OVERSIZE * 52
    assert abs(((window.rect[2] + 45) % 90) - 45) > _hornochsen_tiles.OVERSIZE_TURN
    shapes = _digits(_window(seen, region))
    assert len(shapes) >= 2
    assert abs(shapes[0][2] - shapes[1][2]) <= 1.5


def test_a_faint_number_on_a_face_taken_for_the_table_is_looked_at_where_it_lies() -> None:
    """A face the reference took for the empty area but round its faintly printed number: what is left
    outlines no tile, and its ink is lighter than ink is looked for. The window is the square as it lies,
    its number in the middle (it read empty: no window)."""
    face = numpy.zeros((260, 260), numpy.uint8)
    cv2.rectangle(face, (84, 84), (115, 115), 255, -1)  # the face left round the number, 16 mm a side
    plane = _plane(face)
    faint = round(0.8 * FACE)
    cv2.rectangle(plane, (84, 89), (97, 111), (faint, faint, faint), -1)
    cv2.rectangle(plane, (102, 89), (115, 111), (faint, faint, faint), -1)
    seen = _finish(plane)
    region = ItemRegion((50.0, 50.0), (26.0, 26.0))
    tile, (_, light, _) = _hornochsen_seen.square_levels(seen, region)
    assert tile >= _hornochsen_seen.NORMALISED_TILE_SHARE
    window = _hornochsen_tiles.tile_window(seen, region, light)
    assert window.rect is None
    assert _hornochsen_ink.ink_centre(window.light, light, window.here) is None
    straight = _hornochsen_tiles.normalised_tile(seen, region, light, window=window)
    assert straight is not None
    columns = numpy.flatnonzero((straight < (FACE + faint) / 2).any(axis=0))
    assert len(columns) >= 26
    assert abs((columns.min() + columns.max() + 1) / 2 - straight.shape[1] / 2) <= 1.5


def test_a_frame_lines_piece_beside_a_digit_is_not_the_numbers_other_digit() -> None:
    """A 47 of an edition with a frame line printed round its number (linen, burnt 20261137): a piece of the
    line stands a millimetre left of the 4, as tall as it, and the 7 3 mm right of it. The number is the 4
    and the 7: a window centred on the 4 and the line put the 7 off its side (47 read 4)."""
    light = numpy.full((108, 108), 221, numpy.uint8)
    light[44:60, 31:34] = INK  # the frame line's piece (1.5 mm wide)
    light[46:64, 36:53] = INK  # the 4's box
    light[47:65, 59:73] = INK  # the 7's box
    found = _hornochsen_ink.ink_number(light, 221.0, (54.0, 54.0))
    assert found is not None
    (x, _), digits = found
    assert digits == 2 and abs(x - (36 + 73) / 2) <= 1.0


def test_a_frame_lines_piece_off_the_middle_is_no_number_and_faint_digits_are_looked_for() -> None:
    """A travel tile's pale digits (lighter than INK_LEVEL of the face) with a piece of a frame line 15 mm off
    the square's middle, dark: the line is no number (a window centred on it read 10 as 1 and 58 as 3, burnt
    20261137, printed cloth), so the faint digits in the middle are looked for and centre the window."""
    light = numpy.full((108, 108), 251, numpy.uint8)
    light[38:59, 22:27] = 60  # the line's piece: thin, dark, 15 mm off the middle
    light[45:63, 38:52] = 185  # the 5, faint
    light[45:63, 56:70] = 185  # the 8, faint
    assert _hornochsen_ink.ink_centre(light, 251.0, (54.0, 54.0)) is None
    window = _hornochsen_tiles.TileWindow(light, (54.0, 54.0), None)
    straight = _hornochsen_tiles.normalised_tile(None, None, 251.0, window=window)  # type: ignore[arg-type]
    assert straight is not None
    dark = numpy.argwhere((straight > 120) & (straight < 220))  # the faint digits (not the line)
    middle = (straight.shape[0] - 1) / 2
    assert abs(dark[:, 1].mean() - middle) < 2 and abs(dark[:, 0].mean() - middle) < 2


def test_an_oversize_outline_still_gives_a_window_on_the_numbers_ink() -> None:
    """A 47 whose bright face ran into a neighbour's: the outline is larger than a tile, upright. The window
    asked for on the number's ink (read_face's second look, where the first read one digit) is centred on
    the number's two digits found from the outline's centre (it was none: dev seed 58, a 19 read 1)."""
    face = numpy.zeros((260, 260), numpy.uint8)
    cv2.rectangle(face, (65, 75), (135, 125), 255, -1)  # 71 x 51 px: a tile and a strip of its neighbour
    seen, region, window = _a_47_on(face)
    assert window.rect is not None and max(window.rect[1]) > _hornochsen_tiles.OVERSIZE * 52
    straight = _hornochsen_tiles.normalised_tile(seen, region, float(FACE), on_ink=True, window=window)
    assert straight is not None
    shapes = _digits(straight)
    assert len(shapes) == 2
    assert abs((shapes[0][1] + shapes[1][1]) / 2 - straight.shape[1] / 2) <= 1.5
