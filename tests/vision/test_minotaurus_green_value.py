"""The Minotaurus recogniser reads a green face's value in its green channel too (VALUE_CHANNEL): a green
face's blue pips are nearly its grey, while in green they are dark on a light face. Burnt 20261140 laminate
travel session 02 frame 6, cell 29: a green 1 lying turned about 10 degrees, its single pip faint in grey,
read green-3 (value likenesses 0.56-0.58 for 1, 2, 3).

The patch is that plane's cell (32 mm about the cell's centre, as the reference left it), pasted on a plane
otherwise NEUTRAL_BGR.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy
import pytest

from companion.vision.base import PLANE_PX_PER_MM
from companion.vision.generate.minotaurus import piece_face
from companion.vision.recognisers.minotaurus import MinotaurusRecogniser
from tests.vision.test_minotaurus_left_table import paste_face
from tests.vision.test_minotaurus_marks import LAYOUT, neutral_plane

DATA = Path(__file__).parent / "data" / "minotaurus_green_value"


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.png")))
def test_a_green_face_whose_pips_are_faint_in_grey_reads_its_value(name: str) -> None:
    patch = cv2.imread(str(DATA / name))
    assert patch is not None
    plane = neutral_plane({"cell:2": piece_face("green-4-left", PLANE_PX_PER_MM, edition="travel")})
    paste_face(plane, "cell:0", numpy.asarray(patch, numpy.uint8))
    reading = MinotaurusRecogniser().read(plane, LAYOUT, None)
    assert reading.items["cell:0"] == name.removesuffix(".png")
    assert reading.items["cell:2"] == "green-4-left"
