"""Asterion: how much of one side of a lined-up tile's frame shows the table's neutral grey
(`Window.table_side`)."""

from __future__ import annotations

import cv2
import numpy

from companion.vision.recognisers._asterion_window import SHIFT_PX, TEMPLATE_PX, Window
from companion.vision.reference import NEUTRAL_BGR

SIDE = TEMPLATE_PX + 2 * SHIFT_PX
YELLOW = (40, 200, 230)


def _window(picture: numpy.typing.NDArray[numpy.uint8]) -> Window:
    grey = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY).astype(numpy.float32)
    return Window(picture, grey)


def _tile() -> numpy.typing.NDArray[numpy.uint8]:
    """A yellow frame round a pale path, the table between tiles beyond it."""
    picture = numpy.full((SIDE, SIDE, 3), NEUTRAL_BGR, numpy.uint8)
    picture[SHIFT_PX + 1 : SHIFT_PX + TEMPLATE_PX - 1, SHIFT_PX + 1 : SHIFT_PX + TEMPLATE_PX - 1] = YELLOW
    inside = slice(SHIFT_PX + 6, SHIFT_PX + TEMPLATE_PX - 6)
    picture[inside, inside] = (200, 220, 235)
    return picture


def test_a_tile_whose_walls_the_table_took_shows_no_grey_side() -> None:
    picture = _tile()
    # Its dark walls left the table's grey by the reference (a dark wood's), inside the frame.
    picture[SHIFT_PX + 10 : SHIFT_PX + 30, SHIFT_PX + 8 : SHIFT_PX + 16] = NEUTRAL_BGR
    assert _window(picture).table_side(SHIFT_PX, SHIFT_PX) == 0.0


def test_the_table_along_one_side_is_measured() -> None:
    picture = _tile()
    # The lower third of the cell the table's grey: its frame's lower side all of it.
    picture[SHIFT_PX + 27 :, :] = NEUTRAL_BGR
    assert _window(picture).table_side(SHIFT_PX, SHIFT_PX) == 1.0
    # Half that side.
    picture = _tile()
    picture[SHIFT_PX + 27 :, : SHIFT_PX + TEMPLATE_PX // 2] = NEUTRAL_BGR
    assert 0.4 < _window(picture).table_side(SHIFT_PX, SHIFT_PX) < 0.6
    # The table between tiles, beyond the tile's edge, is not its frame.
    assert _window(_tile()).table_side(SHIFT_PX, SHIFT_PX) == 0.0
