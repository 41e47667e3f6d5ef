"""Asterion training: a tile cut from a normalised plane is turned back and lined up before averaging."""

from __future__ import annotations

import numpy
import pytest

from companion.games.asterion.tiles import DESIGN_INDEX
from companion.vision.base import PLANE_PX_PER_MM
from companion.vision.recognisers._asterion_labels import tile_label
from companion.vision.recognisers.asterion import asterion_layout
from companion.vision.reference import NEUTRAL_BGR
from companion.vision.training.asterion import _drawn, _sample

LAYOUT = asterion_layout(3, 3)


@pytest.mark.parametrize(("name", "rotation"), [("wing corridor", 2), ("treasure bend", 1), ("junction", 3)])
@pytest.mark.parametrize("off_mm", [(0.0, 0.0), (2.0, -1.5)])
def test_a_tile_is_turned_back_to_its_printed_orientation_and_lined_up(
    name: str, rotation: int, off_mm: tuple[float, float]
) -> None:
    design = DESIGN_INDEX[name]
    drawn = _drawn("red", design)
    width, height = LAYOUT.plane_size_px()
    plane = numpy.full((height, width, 3), NEUTRAL_BGR, numpy.uint8)
    cx, cy = LAYOUT.items["cell:0,0"].centre_px()
    side = drawn.shape[0]
    x0 = round(cx - side / 2 + off_mm[0] * PLANE_PX_PER_MM)
    y0 = round(cy - side / 2 + off_mm[1] * PLANE_PX_PER_MM)
    # The tile lies turned (clockwise quarter turns) and a little off its cell, as a hand lays it.
    plane[y0 : y0 + side, x0 : x0 + side] = numpy.rot90(drawn, k=-rotation).astype(numpy.uint8)
    sample = _sample(plane, (cx, cy), tile_label("red", design, rotation))
    assert sample is not None
    shape, picture = sample
    assert shape == f"red:{design}"
    # The half turn of a winged corridor has the same label: the drawing tells which lies here.
    assert numpy.abs(picture - drawn).mean() < 1.0
