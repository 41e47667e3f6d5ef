"""Asterion: a taught frame colour is the frame's, not the median of all its corners show."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.games.asterion.tiles import DESIGN_INDEX
from companion.vision.base import PLANE_PX_PER_MM, Frame
from companion.vision.generate.asterion import FRAME_BGR, draw_cell
from companion.vision.recognisers import _asterion_teach
from companion.vision.recognisers._lab import bgr_to_lab
from companion.vision.recognisers.asterion import TILE_MM, AsterionRecogniser, asterion_layout
from companion.vision.reference import NEUTRAL_BGR

LAYOUT = asterion_layout(3, 1)
OUTLINE_BGR = (20, 30, 40)


def _narrow_framed(colour: str) -> Frame:
    """A plane with one tile whose frame ends 3 mm in, a dark outline from there to 5 mm (a second print's
    narrower frame): the corner patches, 2.5-4.5 mm in, see the frame at their outer third only."""
    width, height = LAYOUT.plane_size_px()
    plane = numpy.full((height, width, 3), NEUTRAL_BGR, numpy.uint8)
    cell = draw_cell(colour, DESIGN_INDEX["corridor"])
    tile = round(TILE_MM * PLANE_PX_PER_MM)
    inset = (cell.shape[0] - tile) // 2
    view = cell[inset : inset + tile, inset : inset + tile].copy()
    outer, inner = round(3.0 * PLANE_PX_PER_MM), round(5.0 * PLANE_PX_PER_MM)
    ring = numpy.zeros(view.shape[:2], bool)
    ring[outer:-outer, outer:-outer] = True
    ring[inner:-inner, inner:-inner] = False
    view[ring] = OUTLINE_BGR
    cx, cy = (round(v) for v in LAYOUT.items["cell:1,0"].centre_px())
    y0, x0 = cy - tile // 2, cx - tile // 2
    plane[y0 : y0 + tile, x0 : x0 + tile] = view
    return numpy.asarray(cv2.GaussianBlur(plane, (0, 0), 1.0), numpy.uint8)


@pytest.mark.parametrize("colour", ["green", "yellow", "blue", "red"])
def test_a_narrow_frame_teaches_its_own_colour(colour: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # A second print taught on dark wood took its yellow as dim ochres and its green half way to grey
    # (burnt 20261141): its green tiles then read yellow on light wood and gingham.
    recogniser = AsterionRecogniser()
    built_in = recogniser.default_profile()
    printed = numpy.array(bgr_to_lab(FRAME_BGR[colour]))

    def taught() -> float:
        profile = recogniser.teach(
            _narrow_framed(colour), LAYOUT, {"cell:1,0": f"{colour}:corridor@0"}, built_in
        )
        assert colour in profile.params["taught_colours"]
        return float(numpy.linalg.norm(numpy.array(profile.colours[colour][0]) - printed))

    assert taught() < 12.0
    # Every corner pixel's median: the outline's share drags it far off.
    monkeypatch.setattr(_asterion_teach, "FRAME_PART", 1.0)
    assert taught() > 25.0
