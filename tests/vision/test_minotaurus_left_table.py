"""The Minotaurus recogniser reads a cell whose middle goes on in the same colour across the gap about its
place, and shows no back's emblem, as empty: the table a normalisation left behind (a round shadow cast over
dark wood after the reference was taken; burnt 20261137), grained, so not flat. A back lying in it, or at
its edge, shows its emblem and is still a back. A cell read as a face whose horn is no clearer than such a
patch's noise shows is likewise empty (a lamp's pool on green felt; dev seed 2).

The planes are drawn as the reference would leave them: the generator's pieces on NEUTRAL_BGR.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy
import pytest

from companion.vision.base import PLANE_PX_PER_MM, Frame
from companion.vision.generate.minotaurus import piece_face
from companion.vision.recognisers.minotaurus import FLAT_VARIATION, MinotaurusRecogniser, _cell_colours
from tests.vision.test_minotaurus_marks import LAYOUT, neutral_plane

SHADOWED_WOOD = (52.0, 66.0, 84.0)
"""A dark wood's brown (B, G, R) in a shadow."""


def shadow_over(plane: Frame, items: list[str], rng: numpy.random.Generator) -> None:
    """Paint grained, shadowed wood over these cells and the gaps about them, in place (pieces already
    there are painted over: paste them afterwards)."""
    xs = [LAYOUT.items[item].centre_mm[0] * PLANE_PX_PER_MM for item in items]
    ys = [LAYOUT.items[item].centre_mm[1] * PLANE_PX_PER_MM for item in items]
    reach = round(24 * PLANE_PX_PER_MM)
    x0, x1 = round(min(xs)) - reach, round(max(xs)) + reach
    y0, y1 = round(min(ys)) - reach, round(max(ys)) + reach
    columns = numpy.arange(x1 - x0, dtype=numpy.float32)
    grain = 9.0 * numpy.sin(columns / 2.3) + 5.0 * numpy.sin(columns / 7.1 + 1.0)
    patch = numpy.empty((y1 - y0, x1 - x0, 3), numpy.float32)
    patch[:] = numpy.array(SHADOWED_WOOD, numpy.float32)
    patch += grain[None, :, None] * numpy.array([0.6, 0.8, 1.0], numpy.float32)
    patch += rng.normal(0.0, 2.0, patch.shape)
    plane[y0:y1, x0:x1] = numpy.clip(patch, 0, 255).astype(numpy.uint8)


def paste_face(plane: Frame, item: str, face: Frame) -> None:
    x, y = (round(v * PLANE_PX_PER_MM) for v in LAYOUT.items[item].centre_mm)
    half = face.shape[0] // 2
    plane[y - half : y - half + face.shape[0], x - half : x - half + face.shape[1]] = face


def read_recorded_cell(patch_path: Path, neighbour: str) -> tuple[str, str]:
    """A recorded cell's patch read at cell:0 with a drawn travel `neighbour` face at cell:2 (so the grid
    has a piece it knows to fit to): the readings of both."""
    patch = cv2.imread(str(patch_path))
    assert patch is not None, f"{patch_path} is not an image"
    plane = neutral_plane({"cell:2": piece_face(neighbour, PLANE_PX_PER_MM, edition="travel")})
    paste_face(plane, "cell:0", numpy.asarray(patch, numpy.uint8))
    items = MinotaurusRecogniser().read(plane, LAYOUT, None).items
    return items["cell:0"], items["cell:2"]


@pytest.mark.parametrize("edition", ["default", "second-print", "travel"])
def test_a_grained_shadow_the_normalisation_left_over_empty_cells_is_empty(edition: str) -> None:
    plane = neutral_plane({})
    shadow_over(plane, ["cell:0", "cell:1", "cell:10", "cell:11"], numpy.random.default_rng(37))
    # A back lies in the shadow, another at its edge: both still backs (without the emblem's test the
    # one at the edge, the shadow going on about it, would be read empty).
    for item in ("cell:1", "cell:2"):
        paste_face(plane, item, piece_face("down", PLANE_PX_PER_MM, edition=edition))
    cells = _cell_colours(plane, LAYOUT)
    assert cells.variation is not None and cells.covered is not None
    for item in ("cell:0", "cell:10", "cell:11"):
        n = cells.ids.index(item)
        assert cells.covered[n] > 0.9 and cells.variation[n] > FLAT_VARIATION  # no bare, flat table
    items = MinotaurusRecogniser().read(plane, LAYOUT, None).items
    assert [items[item] for item in ("cell:0", "cell:10", "cell:11")] == ["empty"] * 3
    assert items["cell:1"] == "down"
    assert items["cell:2"] == "down"


FELT_POOL = Path(__file__).parent / "data" / "crops" / "minotaurus-felt-pool.png"
"""The empty cell:39 of frame 000003 of session 06 (felt, default edition) of /tmp/s19/diag.py's dev set
minotaurus 2 (7 sessions x 8 frames), 60 mm about it on the pipeline's normalised plane: a lamp's pool the
normalisation left over half the matrix, its pile varying past FLAT_VARIATION and showing a horn faintly."""


def test_a_pool_of_felt_the_normalisation_left_is_no_face() -> None:
    patch = numpy.asarray(cv2.imread(str(FELT_POOL), cv2.IMREAD_COLOR), numpy.uint8)
    plane = neutral_plane({})
    x, y = (round(v * PLANE_PX_PER_MM) for v in LAYOUT.items["cell:24"].centre_mm)
    half = patch.shape[0] // 2
    plane[y - half : y + half, x - half : x + half] = patch
    items = MinotaurusRecogniser().read(plane, LAYOUT, None).items
    assert items["cell:24"] == "empty"  # green-4-right without the rule
