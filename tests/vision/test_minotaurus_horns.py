"""A cell read face down whose marks' polarity is unclear is a face when it shows a horn as clearly as only
a face does (a white face in a glare beside dark backs), and a back's emblem, in every edition and turned,
never does.

The planes are drawn as the reference would leave them: the generator's pieces on NEUTRAL_BGR.
"""

from __future__ import annotations

import dataclasses

import numpy
import pytest

from companion.vision.base import PLANE_PX_PER_MM, Frame
from companion.vision.generate.minotaurus import paste, piece_face
from companion.vision.recognisers.minotaurus import (
    BACK_POLARITY,
    FACE_POLARITY,
    Glyphs,
    MinotaurusRecogniser,
    _cell_colours,
    _clear_horns,
)
from tests.vision.test_minotaurus_marks import LAYOUT, neutral_plane


def in_a_glare(label: str, edition: str, darkest: float) -> Frame:
    """The piece lit from one side: from `darkest` of the light on its left to all of it on its right."""
    face = piece_face(label, PLANE_PX_PER_MM, edition=edition).astype(numpy.float32)
    ramp = numpy.linspace(darkest, 1.0, face.shape[1])[None, :, None]
    return numpy.clip(face * ramp, 0, 255).astype(numpy.uint8)


def prepared_glyphs() -> Glyphs:
    """The built-in glyphs, as a plane without a profile is read with."""
    return MinotaurusRecogniser()._prepare(None, True)[1]


@pytest.mark.parametrize(
    ("edition", "darkest"), [("default", 0.3), ("second-print", 0.3), ("second-print", 0.35)]
)
def test_a_white_face_read_down_for_its_unclear_marks_shows_its_horn(edition: str, darkest: float) -> None:
    pieces = {
        "cell:12": in_a_glare("white-5-left", edition, darkest),
        "cell:11": piece_face("down", PLANE_PX_PER_MM),
    }
    plane = neutral_plane(pieces)
    cells = _cell_colours(plane, LAYOUT)
    face = cells.ids.index("cell:12")
    assert FACE_POLARITY < cells.polarity[face] < BACK_POLARITY  # the marks tell neither
    classes = ["empty"] * len(cells.ids)
    classes[face] = classes[cells.ids.index("cell:11")] = "down"
    empty = numpy.array([label == "empty" for label in classes])
    found = _clear_horns(plane, cells, classes, empty, prepared_glyphs())
    assert found == [face]


@pytest.mark.parametrize("edition", ["default", "second-print", "travel"])
def test_no_back_shows_a_horn_as_clearly_as_a_face(edition: str) -> None:
    width, height = LAYOUT.plane_size_px()
    plane = numpy.full((height, width, 3), (128, 128, 128), numpy.uint8)
    back = piece_face("down", PLANE_PX_PER_MM, edition=edition)
    items = [f"cell:{n}" for n in range(0, 40, 2)]
    for k, item in enumerate(items):
        x, y = LAYOUT.items[item].centre_mm
        turn = -45.0 + 90.0 * k / (len(items) - 1)
        paste(plane, back, (x * PLANE_PX_PER_MM, y * PLANE_PX_PER_MM), turn, shadow=False)
    cells = _cell_colours(plane, LAYOUT)
    # Every back's polarity taken as unclear, so that its horn alone decides.
    cells = dataclasses.replace(cells, polarity=numpy.zeros_like(cells.polarity))
    classes = ["down" if item in items else "empty" for item in cells.ids]
    empty = numpy.array([label == "empty" for label in classes])
    assert _clear_horns(plane, cells, classes, empty, prepared_glyphs()) == []
