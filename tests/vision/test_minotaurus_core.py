"""The Minotaurus recogniser reads as empty the table a normalisation left behind whose only lighter marks
are its blend with the bits of table the reference did match (core_polarity) or its noise (EMBLEM_VARIATION),
and a glare read as a face that shows no horn and goes on across the gap about its place; a back keeps its
emblem and stays a back.

The crops are 60 mm of the pipeline's normalised planes about a cell's centre (as the grid put it): burnt
20261139 minotaurus (14 sessions x 12 frames) session 08 (dark wood, travel edition) frame 000012 cell:15, a
player's shadow over the wood, cut by bits of table; /tmp/s19/diag.py's dev set minotaurus 77 (7 x 8)
session 02 (laminate, travel) frame 000006 cell:42, a lamp's glare on the laminate.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import cv2
import numpy
import pytest

from companion.vision.base import PLANE_PX_PER_MM, Frame
from companion.vision.generate.minotaurus import BACK_BGR, piece_face
from companion.vision.recognisers._minotaurus_cells import (
    BACK_POLARITY,
    COARSE_PX_PER_MM,
    MIDDLE_MM,
    Cells,
    ink_polarity,
    small_plane,
)
from companion.vision.recognisers._minotaurus_checks import (
    CORE_POLARITY,
    EMBLEM_VARIATION,
    FLAT_VARIATION,
    core_polarity,
    left_table,
    table_left_empty,
)
from companion.vision.recognisers._minotaurus_grid import FOREGROUND_LEVEL
from companion.vision.recognisers.minotaurus import MinotaurusRecogniser, _cell_colours, default_back
from companion.vision.reference import NEUTRAL_BGR
from tests.vision.test_minotaurus_left_table import paste_face
from tests.vision.test_minotaurus_marks import LAYOUT, neutral_plane

CROPS = Path(__file__).parent / "data" / "crops"
SHADOW_BLEND = CROPS / "minotaurus-shadow-blend.png"
LAMINATE_GLARE = CROPS / "minotaurus-laminate-glare.png"
LINEN_GLARE = CROPS / "minotaurus-linen-glare.png"
"""/tmp/s19/diag.py's dev set minotaurus 40 (7 x 8) session 03 (linen, default) frame 000005 cell:39, a lamp's
glare on the linen the normalisation left over two thirds of the cell's middle: no horn, darker marks only."""
WHITE_SHADE = CROPS / "minotaurus-white-shade.png"
"""/tmp/s19/diag.py's dev set minotaurus 60 (7 x 8) session 02 (laminate, travel) frame 000009 cell:6, a white
3 in shade: its marks' polarity unclear, its horn 0.63, a third of its pixels lighter than the table."""


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


def _read_at_cell_24(patch_path: Path, shift_px: int = 0) -> str:
    """cell:24's reading with a recorded patch pasted on its centre (moved `shift_px` along x), among backs at
    the matrix's corners: its grid is fitted where pieces lie, so they hold it in place."""
    patch = numpy.asarray(cv2.imread(str(patch_path), cv2.IMREAD_COLOR), numpy.uint8)
    plane = neutral_plane(
        {item: piece_face("down", PLANE_PX_PER_MM) for item in ("cell:0", "cell:9", "cell:40", "cell:49")}
    )
    x, y = (round(v * PLANE_PX_PER_MM) for v in LAYOUT.items["cell:24"].centre_mm)
    x += shift_px
    half_h, half_w = patch.shape[0] // 2, patch.shape[1] // 2
    plane[y - half_h : y - half_h + patch.shape[0], x - half_w : x - half_w + patch.shape[1]] = patch
    return MinotaurusRecogniser().read(plane, LAYOUT, None).items["cell:24"]


def test_a_glare_read_as_a_face_without_a_horn_is_empty() -> None:
    assert _read_at_cell_24(LAMINATE_GLARE) == "empty"  # down without the rule


def test_a_pool_of_felt_whose_noise_has_a_light_tail_is_empty() -> None:
    """A lamp's pool on green felt the normalisation left over a few cells (dev 2 felt: 3 cells read down):
    its middle varies a little past FLAT_VARIATION, and its noise's light specks give it a back's polarity,
    but not an emblem's contrast. A back lying in it is still a back."""
    rng = numpy.random.default_rng(2)
    plane = neutral_plane({})
    pooled = ["cell:0", "cell:1", "cell:10", "cell:11"]
    xs = [LAYOUT.items[item].centre_mm[0] * PLANE_PX_PER_MM for item in pooled]
    ys = [LAYOUT.items[item].centre_mm[1] * PLANE_PX_PER_MM for item in pooled]
    x0, x1 = round(min(xs)) - 48, round(max(xs)) + 48
    y0, y1 = round(min(ys)) - 48, round(max(ys)) + 48
    height, width = y1 - y0, x1 - x0
    specks = rng.normal(0.0, 4.0, (height // 2, width // 2)) + 16.0 * (
        rng.random((height // 2, width // 2)) < 0.08
    )
    pool = numpy.full((height, width, 3), (70.0, 140.0, 60.0), numpy.float32)
    pool += cv2.resize(specks.astype(numpy.float32), (width, height), interpolation=cv2.INTER_NEAREST)[
        ..., None
    ]
    plane[y0:y1, x0:x1] = numpy.clip(pool, 0, 255).astype(numpy.uint8)
    paste_face(plane, "cell:1", piece_face("down", PLANE_PX_PER_MM, edition="travel"))
    cells = _cell_colours(plane, LAYOUT)
    assert cells.variation is not None
    empty = ["cell:0", "cell:10", "cell:11"]
    for item in empty:
        n = cells.ids.index(item)
        assert cells.polarity[n] >= BACK_POLARITY and FLAT_VARIATION < cells.variation[n] < EMBLEM_VARIATION
    items = MinotaurusRecogniser().read(plane, LAYOUT, None).items
    assert [items[item] for item in empty] == ["empty"] * 3  # down without the rule
    assert items["cell:1"] == "down"


def test_a_back_whose_marks_tell_nothing_keeps_its_pattern() -> None:
    """A back amid a patch of its own colour goes on across the gap; were its marks no emblem (its middle
    hardly varying, as a dim back's faint ring on linen may look: dev 8), its likeness to the back, matched
    then, keeps it a back (read empty without it)."""
    anchors = ("cell:0", "cell:9", "cell:40", "cell:49")  # the grid is fitted where pieces lie
    plane = neutral_plane({item: piece_face("down", PLANE_PX_PER_MM) for item in anchors})
    x, y = (round(v * PLANE_PX_PER_MM) for v in LAYOUT.items["cell:23"].centre_mm)
    reach = round(30 * PLANE_PX_PER_MM)
    patch = numpy.array(BACK_BGR) + numpy.random.default_rng(3).normal(0.0, 2.0, (2 * reach, 2 * reach, 3))
    plane[y - reach : y + reach, x - reach : x + reach] = numpy.clip(patch, 0, 255).astype(numpy.uint8)
    paste_face(plane, "cell:23", piece_face("down", PLANE_PX_PER_MM))
    cells = _cell_colours(plane, LAYOUT)
    n = cells.ids.index("cell:23")
    assert cells.variation is not None and cells.polarity[n] >= BACK_POLARITY
    assert left_table(cells, n) is not None
    variation = cells.variation.copy()
    variation[n] = FLAT_VARIATION + 1.0  # under EMBLEM_VARIATION: its marks no emblem
    classes, confidences = ["down"] * len(cells.ids), [1.0] * len(cells.ids)
    table_left_empty(dataclasses.replace(cells, variation=variation), classes, confidences, default_back())
    assert classes[n] == "down"


def test_a_white_face_in_shade_whose_marks_tell_nothing_is_told_by_its_horn_and_light() -> None:
    # A millimetre left of the cell's centre: where the grid fitted about the patch puts the piece, as the
    # pipeline's did on the frame it comes from.
    assert _read_at_cell_24(WHITE_SHADE, shift_px=-2) == "white-3-left"  # down without the rule


def test_a_glare_over_part_of_a_cell_showing_neither_horn_nor_emblem_is_empty() -> None:
    assert _read_at_cell_24(LINEN_GLARE) == "empty"  # down without the rule
