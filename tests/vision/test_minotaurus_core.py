"""The Minotaurus recogniser reads as empty the table a normalisation left behind whose only lighter marks
are its blend with the bits of table the reference did match (core_polarity), and a glare read as a face
that shows no horn and goes on across the gap about its place; a back keeps its emblem and stays a back.

The crops are 60 mm of the pipeline's normalised planes about a cell's centre (as the grid put it): burnt
20261139 minotaurus (14 sessions x 12 frames) session 08 (dark wood, travel edition) frame 000012 cell:15, a
player's shadow over the wood, cut by bits of table; /tmp/s19/diag.py's dev set minotaurus 77 (7 x 8)
session 02 (laminate, travel) frame 000006 cell:42, a lamp's glare on the laminate.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import cast

import cv2
import numpy
import pytest

from companion.vision.base import PLANE_PX_PER_MM, Frame
from companion.vision.generate.minotaurus import piece_face
from companion.vision.recognisers._minotaurus_cells import (
    BACK_POLARITY,
    COARSE_PX_PER_MM,
    MIDDLE_MM,
    Cells,
    ink_polarity,
    small_plane,
)
from companion.vision.recognisers._minotaurus_checks import CORE_POLARITY, core_polarity
from companion.vision.recognisers._minotaurus_grid import FOREGROUND_LEVEL
from companion.vision.recognisers.minotaurus import MinotaurusRecogniser
from companion.vision.reference import NEUTRAL_BGR
from tests.vision.test_minotaurus_marks import LAYOUT, neutral_plane

CROPS = Path(__file__).parent / "data" / "crops"
SHADOW_BLEND = CROPS / "minotaurus-shadow-blend.png"
LAMINATE_GLARE = CROPS / "minotaurus-laminate-glare.png"


def _cells_about_middle(crop: Frame) -> Cells:
    """What core_polarity reads of a crop centred on its cell: the crop at COARSE_PX_PER_MM, its centre."""
    small = small_plane(crop)
    centre = numpy.array([[small.shape[1] / 2, small.shape[0] / 2]], numpy.float64)
    return cast(Cells, SimpleNamespace(small=small, centres=centre))


def _middle_polarity(crop: Frame) -> float:
    """ink_polarity of the crop's middle over its pixels no neutral table, as cell_colours reads it."""
    small = small_plane(crop)
    half = round(MIDDLE_MM / 2 * COARSE_PX_PER_MM)
    y, x = small.shape[0] // 2, small.shape[1] // 2
    middle = small[y - half : y + half, x - half : x + half]
    away = numpy.abs(middle.astype(numpy.int16) - numpy.array(NEUTRAL_BGR, numpy.int16)).max(axis=2)
    grey = cv2.cvtColor(middle, cv2.COLOR_BGR2GRAY).astype(numpy.float32)
    return float(ink_polarity(grey.reshape(1, -1), (away > FOREGROUND_LEVEL).reshape(1, -1))[0])


def test_a_shadow_lighter_only_where_it_meets_the_table_shows_no_emblem() -> None:
    crop = numpy.asarray(cv2.imread(str(SHADOW_BLEND), cv2.IMREAD_COLOR), numpy.uint8)
    assert _middle_polarity(crop) >= BACK_POLARITY  # its middle as a whole looks like a back's
    assert core_polarity(_cells_about_middle(crop), 0) < CORE_POLARITY


@pytest.mark.parametrize("edition", ["default", "second-print", "travel"])
def test_a_back_cut_by_bits_of_table_keeps_its_emblem(edition: str) -> None:
    """A back whose corner and edge the reference took for the table still shows its emblem inside."""
    face = piece_face("down", PLANE_PX_PER_MM, edition=edition)
    side = round(40 * PLANE_PX_PER_MM)
    crop = numpy.full((side, side, 3), NEUTRAL_BGR, numpy.uint8)
    top = (side - face.shape[0]) // 2
    crop[top : top + face.shape[0], top : top + face.shape[1]] = face
    bits = round(6 * PLANE_PX_PER_MM)
    crop[top : top + bits, top : top + bits] = NEUTRAL_BGR
    crop[side // 2 - bits : side // 2 + bits, top : top + bits // 2] = NEUTRAL_BGR
    assert core_polarity(_cells_about_middle(crop), 0) >= CORE_POLARITY


def test_a_glare_read_as_a_face_without_a_horn_is_empty() -> None:
    patch = numpy.asarray(cv2.imread(str(LAMINATE_GLARE), cv2.IMREAD_COLOR), numpy.uint8)
    # Backs at the corners of the matrix: its grid is fitted where pieces lie, so they hold it in place.
    plane = neutral_plane(
        {item: piece_face("down", PLANE_PX_PER_MM) for item in ("cell:0", "cell:9", "cell:40", "cell:49")}
    )
    x, y = (round(v * PLANE_PX_PER_MM) for v in LAYOUT.items["cell:24"].centre_mm)
    half = patch.shape[0] // 2
    plane[y - half : y + half, x - half : x + half] = patch
    assert (
        MinotaurusRecogniser().read(plane, LAYOUT, None).items["cell:24"] == "empty"
    )  # down without the rule
