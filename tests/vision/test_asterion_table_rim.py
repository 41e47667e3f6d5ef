"""Asterion: a path's end the reference took for the table, near the tile's edge, is read without it."""

from __future__ import annotations

from pathlib import Path

import numpy
import pytest

from companion.vision.recognisers import _asterion_window
from companion.vision.recognisers._asterion_window import TEMPLATE_PX, Window
from companion.vision.recognisers.asterion import AsterionRecogniser, asterion_layout
from companion.vision.reference import NEUTRAL_BGR

from .test_asterion_table_middle import pasted_crop

DATA = Path(__file__).parent / "data" / "asterion_rim"
LAYOUT = asterion_layout(9, 7)
"""The dev sets' layout the crops were cut from (as `pasted_crop` pastes them)."""
CASES = {
    # crop (three cells square of a normalised plane, cut at X0, Y0), the cell, its truth
    "linen-cell-3_2-at-600-424.png": ("cell:3,2", "green:crossroads@0"),
    "linen-cell--3_2-at-72-424.png": ("cell:-3,2", "blue:crossroads@0"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_crossroads_whose_path_ends_show_the_table_is_a_crossroads(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Dev seed 7, linen (as pale as the path), camera far and tilted: the reference blanked the ends of
    # the crossroads' arms where they run through the frame, most of their grey in the tile's outer
    # pixels. Counted from 3 pixels in, that grey stood for a wall: a treasury or a junction.
    cell, truth = CASES[name]
    plane = pasted_crop(DATA / name)
    assert AsterionRecogniser().read(plane, LAYOUT, None).items[cell] == truth
    monkeypatch.setattr(_asterion_window, "MISSING_RIM_PX", 3)
    assert AsterionRecogniser().read(plane, LAYOUT, None).items[cell] != truth


def test_the_tables_grey_two_pixels_inside_the_window_is_missing() -> None:
    picture = numpy.full((TEMPLATE_PX, TEMPLATE_PX, 3), (150, 190, 210), numpy.uint8)  # a path's cream
    rows = slice(_asterion_window.MISSING_RIM_PX, _asterion_window.MISSING_RIM_PX + 1)
    picture[rows, 10:30] = NEUTRAL_BGR
    missing = Window.of(picture).missing(0, 0)
    assert missing is not None
    grid = missing.reshape(TEMPLATE_PX, TEMPLATE_PX)
    assert grid[rows, 10:30].all()
    # Not the window's outer pixels: there the table shows between tiles.
    assert not grid[: _asterion_window.MISSING_RIM_PX].any()
    picture[rows] = (150, 190, 210)
    picture[: _asterion_window.MISSING_RIM_PX] = NEUTRAL_BGR
    assert Window.of(picture).missing(0, 0) is None
