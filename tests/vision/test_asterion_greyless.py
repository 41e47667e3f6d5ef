"""Asterion: a cell whose inside shows none of a tile's grey is empty however its corners and grain
look (`_asterion_inside.greyless`)."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.vision.recognisers import _asterion_cell
from companion.vision.recognisers._asterion_inside import greyless
from companion.vision.recognisers._asterion_window import SHIFT_PX, TEMPLATE_PX, Window
from companion.vision.recognisers.asterion import AsterionRecogniser
from companion.vision.reference import NEUTRAL_BGR

from .test_asterion_table_middle import DATA, LAYOUT, pasted_crop

SIDE = TEMPLATE_PX + 2 * SHIFT_PX


def _window(picture: numpy.typing.NDArray[numpy.uint8]) -> Window:
    return Window(picture, cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY).astype(numpy.float32))


def grey_window() -> Window:
    """A cell whose inside shows a tile's grey (its walls): the rule on grey insides lets it be."""
    return _window(numpy.full((SIDE, SIDE, 3), 90, numpy.uint8))


def _wood(light: int) -> numpy.typing.NDArray[numpy.uint8]:
    """A yellow-brown wood with dark and light grain across it, as a shadow leaves it."""
    picture = numpy.empty((SIDE, SIDE, 3), numpy.uint8)
    grain = (numpy.arange(SIDE) // 3 % 2) * 30
    for column, dark in enumerate(grain.tolist()):
        picture[:, column] = (30, light - dark, light + 30 - dark)
    return picture


def test_a_tile_shows_grey_a_shadowed_wood_none() -> None:
    wood = _wood(120)
    assert greyless(_window(wood))
    # A tile's frame in the wood's colour round walls of grey and a sand path.
    tile = wood.copy()
    inside = slice(SHIFT_PX + 6, SHIFT_PX + TEMPLATE_PX - 6)
    tile[inside, inside] = (60, 60, 60)
    tile[inside, SHIFT_PX + 16 : SHIFT_PX + 24] = (190, 215, 225)
    assert not greyless(_window(tile))
    # Walls alone in a fifth of the inside are grey enough.
    tile = wood.copy()
    tile[SHIFT_PX + 8 : SHIFT_PX + 32, SHIFT_PX + 8 : SHIFT_PX + 13] = (70, 70, 70)
    assert not greyless(_window(tile))


def test_empty_cells_under_a_shadow_on_light_wood_are_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    # Burnt 20261151 light wood f9: a shadow over the table the reference kept as wood, yellow-brown;
    # the empty cells below the tiles voted yellow and matched yellow designs at 0.25-0.36.
    plane = pasted_crop(DATA / "empty-shadowed-light-wood-at-328-416.png")
    tiles = {"cell:-1,1": "green:treasury@0", "cell:0,1": "red:bend@0", "cell:1,1": "red:crossroads@0"}
    shadowed = ("cell:0,2", "cell:2,2", "cell:0,3")
    read = AsterionRecogniser().read(plane, LAYOUT, None).items
    assert {item: read[item] for item in tiles} == tiles
    assert [read[item] for item in shadowed] == ["empty"] * 3
    # Not asking whether their inside is grey, they read as yellow tiles.
    monkeypatch.setattr(_asterion_cell, "GREYLESS_ASKED", 0.0)
    read = AsterionRecogniser().read(plane, LAYOUT, None).items
    assert any(read[item].startswith("yellow:") for item in shadowed)


def test_the_tables_own_grey_is_no_tiles() -> None:
    # Burnt 20261152 felt f9: the reference matched an empty cell but for a ring of the felt (dark blue)
    # its neighbours' shadows darkened; inside, the table's neutral grey, with a blended rim.
    felt = numpy.full((SIDE, SIDE, 3), (110, 50, 20), numpy.uint8)
    middle = slice(SHIFT_PX + 8, SHIFT_PX + TEMPLATE_PX - 8)
    felt[middle, middle] = NEUTRAL_BGR
    rim = slice(SHIFT_PX + 7, SHIFT_PX + TEMPLATE_PX - 7)
    blended = felt.copy()
    blended[rim, rim] = (119, 89, 74)
    blended[middle, middle] = NEUTRAL_BGR
    assert greyless(_window(blended))
    # A tile whose dark walls the reference matched shows the rest of its walls' grey.
    tile = blended.copy()
    tile[SHIFT_PX + 6 : SHIFT_PX + 34, SHIFT_PX + 8 : SHIFT_PX + 13] = (70, 70, 70)
    assert not greyless(_window(tile))
