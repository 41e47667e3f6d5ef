"""Asterion: what teaching learns from a shot, and what it leaves to a clearer one."""

from __future__ import annotations

from typing import Any

import cv2
import numpy
import pytest

from companion.games.asterion.tiles import DESIGN_INDEX
from companion.vision.base import PLANE_PX_PER_MM, Frame
from companion.vision.generate.asterion import draw_cell
from companion.vision.recognisers._asterion_cell import LEAST_LIKENESS
from companion.vision.recognisers.asterion import TILE_MM, AsterionRecogniser, asterion_layout
from companion.vision.reference import NEUTRAL_BGR

LAYOUT = asterion_layout(3, 1)


def _shot(colour: str, glare: float) -> Frame:
    """A normalised plane with one tile of the colour beside the Minotaur's cell, washed towards white."""
    width, height = LAYOUT.plane_size_px()
    plane = numpy.full((height, width, 3), NEUTRAL_BGR, numpy.float32)
    cell = draw_cell(colour, DESIGN_INDEX["corridor"])
    tile = round(TILE_MM * PLANE_PX_PER_MM)
    inset = (cell.shape[0] - tile) // 2
    cx, cy = (round(v) for v in LAYOUT.items["cell:1,0"].centre_px())
    y0, x0 = cy - tile // 2, cx - tile // 2
    plane[y0 : y0 + tile, x0 : x0 + tile] = cell[inset : inset + tile, inset : inset + tile]
    washed = plane + glare * (255.0 - plane)
    return numpy.clip(cv2.GaussianBlur(washed, (0, 0), 1.2), 0, 255).astype(numpy.uint8)


def test_a_frame_colour_washed_towards_another_by_glare_is_not_taught() -> None:
    # A green corner under glare, taught as green, drew the yellow tiles to green on every other table
    # (an edition taught on dark wood read 374 of 441 cells right on gingham, 438 untaught).
    recogniser = AsterionRecogniser()
    built_in = recogniser.default_profile()
    washed = recogniser.teach(_shot("green", 0.85), LAYOUT, {"cell:1,0": "green:corridor@0"}, built_in)
    assert washed.colours["green"] == built_in.colours["green"]
    assert "green" not in washed.params["taught_colours"]
    # The same tile in a clear shot teaches its colour.
    clear = recogniser.teach(_shot("green", 0.0), LAYOUT, {"cell:1,0": "green:corridor@0"}, built_in)
    assert "green" in clear.params["taught_colours"]
    assert clear.colours["green"] != built_in.colours["green"]


def test_clear_frame_corners_inside_like_no_design_are_no_tile(monkeypatch: pytest.MonkeyPatch) -> None:
    # Where the reference keeps a green felt or a checked cloth, a cell's corners show a frame colour
    # clearly and its inside some spread of grey: it was read as whichever design was nearest, however
    # little the cell was like any.
    from companion.vision.recognisers._asterion_match import Templates

    recogniser = AsterionRecogniser()
    plane = _shot("green", 0.0)
    real = Templates.match
    for likeness, read in ((LEAST_LIKENESS - 0.05, "empty"), (LEAST_LIKENESS + 0.05, "green:corridor@0")):

        def match(self: Templates, *args: Any, likeness: float = likeness) -> tuple[Any, ...]:
            return (*real(self, *args)[:4], likeness)

        monkeypatch.setattr(Templates, "match", match)
        assert recogniser.read(plane, LAYOUT, None).items["cell:1,0"] == read


def test_a_look_clipped_white_by_a_lamp_is_not_taught() -> None:
    # Under a lamp's hot spot on dark wood (the plane lifted for the dim table round it) walls, chests and
    # wings washed into the paths; such looks, and those transferred from them, read more cells wrong on
    # every other table than the built-in looks did (burnt 20261136: 23 of 2,016, untaught 17).
    recogniser = AsterionRecogniser()
    built_in = recogniser.default_profile()
    taught = f"tile:green:{DESIGN_INDEX['corridor']}:taught"
    lifted = numpy.clip(_shot("green", 0.0).astype(numpy.float32) * 1.6, 0, 255).astype(numpy.uint8)
    clipped = recogniser.teach(lifted, LAYOUT, {"cell:1,0": "green:corridor@0"}, built_in)
    assert taught not in clipped.templates
    # The same tile lifted less, nothing clipped, is taught.
    lit = numpy.clip(_shot("green", 0.0).astype(numpy.float32) * 1.1, 0, 255).astype(numpy.uint8)
    clear = recogniser.teach(lit, LAYOUT, {"cell:1,0": "green:corridor@0"}, built_in)
    assert taught in clear.templates


def test_a_frame_colour_in_dim_light_is_left_to_a_clearer_shot() -> None:
    # A second print taught on dim dark wood learned red as a dark dull red and its yellows as reddish
    # browns; on light wood its red frames then read yellow (25 of 693 cells wrong, 3 untaught).
    recogniser = AsterionRecogniser()
    built_in = recogniser.default_profile()
    clear = _shot("red", 0.0)
    dim = numpy.asarray(clear.astype(numpy.float32) * 0.7, numpy.uint8)
    lesson = {"cell:1,0": "red:corridor@0"}
    assert "red" not in recogniser.teach(dim, LAYOUT, lesson, built_in).params["taught_colours"]
    assert "red" in recogniser.teach(clear, LAYOUT, lesson, built_in).params["taught_colours"]
