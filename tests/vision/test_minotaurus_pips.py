"""The Minotaurus recogniser counts a row of pips by its length, whatever the pips' shape and however a
thicker or thinner horn puts the piece's centre.

The planes are drawn as the reference would leave them: the generator's pieces on NEUTRAL_BGR.
"""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.vision.base import PLANE_PX_PER_MM, Frame
from companion.vision.generate.minotaurus import paste, piece_face
from companion.vision.recognisers._minotaurus_glyphs import (
    GLYPH_PX_PER_MM,
    VALUE_BOX_MM,
    VALUE_SLACK_PX,
    best_match,
    glyph_window,
)
from companion.vision.recognisers.minotaurus import MinotaurusRecogniser, _templates, matrix_layout
from companion.vision.reference import NEUTRAL_BGR

LAYOUT = matrix_layout({"players": 5})


def _plane(item: str, face: Frame, turn: float = 0.0) -> Frame:
    width, height = LAYOUT.plane_size_px()
    plane = numpy.full((height, width, 3), NEUTRAL_BGR, numpy.uint8)
    x, y = LAYOUT.items[item].centre_mm
    paste(plane, face, (x * PLANE_PX_PER_MM, y * PLANE_PX_PER_MM), turn, shadow=False)
    return plane


@pytest.mark.parametrize("edition", ["travel", "second-print", "default"])
def test_a_row_of_pips_of_any_shape_seen_a_little_blurred_counts_its_own_length(edition: str) -> None:
    """Blurred by the camera, a row of five ring pips shows four dark blobs where neighbouring rings'
    walls meet: compared blurred with round pips it fitted a four. Filled, every row is a bar."""
    recogniser = MinotaurusRecogniser()
    wrong = []
    for value in range(1, 6):
        for horn in ("left", "right"):
            for turn in (-6.0, 0.0, 6.0):
                label = f"red-{value}-{horn}"
                face = piece_face(label, PLANE_PX_PER_MM, edition=edition)
                plane = numpy.asarray(
                    cv2.GaussianBlur(_plane("cell:12", face, turn), (0, 0), 2.0), numpy.uint8
                )
                read = recogniser.read(plane, LAYOUT, None).items["cell:12"]
                if read != label:
                    wrong.append((label, turn, read))
    assert wrong == []


def test_the_row_of_pips_is_found_below_a_horn_that_put_the_piece_too_high() -> None:
    """A thick or thin horn of another edition, blurred, best matches a few pixels off where the built-in
    one lies: the row is looked for farther along the piece's height than across it."""
    glyphs = _templates(None)
    x, y = LAYOUT.items["cell:12"].centre_mm
    for value in range(1, 6):
        plane = _plane("cell:12", piece_face(f"white-{value}-left", PLANE_PX_PER_MM))
        grey, near = glyph_window(plane, (x, y))
        too_high = (near[0], near[1] - 3.0 * GLYPH_PX_PER_MM)  # the horn put the piece 3 mm up
        names = [str(v) for v in range(1, 6)]
        look, blurred = glyphs.values[0], glyphs.blurred_values[0]
        read, _, _, _ = best_match(grey, too_high, VALUE_BOX_MM, look, names, VALUE_SLACK_PX, blurred)
        assert read == str(value)


def test_a_face_cut_beside_its_pips_by_the_reference_keeps_its_value() -> None:
    """A white face on a light cloth: the reference took a strip at the right of its lower half for the table.
    The patch is the face's paper, not ink: filled with the face's grey (FACE_FILL_PERCENTILE of its middle),
    not its middle's median, it is no extra pip (read white-4-right with the median)."""
    face = piece_face("white-3-right", PLANE_PX_PER_MM, edition="second-print")
    height, width = face.shape[:2]
    face[height // 2 :, width - round(7 * PLANE_PX_PER_MM) :] = NEUTRAL_BGR
    plane = _plane("cell:12", face)
    assert MinotaurusRecogniser().read(plane, LAYOUT, None).items["cell:12"] == "white-3-right"
