"""The Minotaurus recogniser reads a cell whose middle shows no mark as empty: the table a normalisation
left behind (a lamp's hotspot saturating a glossy table, a shadow cast after the reference), whatever its
shade, is no piece; a back in a deep shadow, its emblem faint, still is one.

The planes are drawn as the reference would leave them: the generator's pieces on NEUTRAL_BGR.
"""

from __future__ import annotations

import numpy
import pytest

from companion.vision.base import PLANE_PX_PER_MM, Frame
from companion.vision.generate.minotaurus import piece_face
from companion.vision.recognisers.minotaurus import (
    FLAT_VARIATION,
    MinotaurusRecogniser,
    _cell_colours,
)
from tests.vision.test_minotaurus_marks import LAYOUT, neutral_plane


def left_table(
    plane: Frame, items: list[str], bgr: tuple[int, int, int], rng: numpy.random.Generator
) -> None:
    """Paint a patch of table the normalisation missed over these cells (and the gaps about them): one
    shade with a camera's noise, in place."""
    xs = [LAYOUT.items[item].centre_mm[0] * PLANE_PX_PER_MM for item in items]
    ys = [LAYOUT.items[item].centre_mm[1] * PLANE_PX_PER_MM for item in items]
    reach = round(20 * PLANE_PX_PER_MM)
    x0, x1 = round(min(xs)) - reach, round(max(xs)) + reach
    y0, y1 = round(min(ys)) - reach, round(max(ys)) + reach
    patch = numpy.full((y1 - y0, x1 - x0, 3), bgr, numpy.float32)
    patch += rng.normal(0.0, 1.5, patch.shape)
    plane[y0:y1, x0:x1] = numpy.clip(patch, 0, 255).astype(numpy.uint8)


@pytest.mark.parametrize(
    "shade",
    [(255, 255, 255), (232, 236, 238), (45, 45, 48), (62, 58, 50)],
    ids=["hotspot", "glare", "shadow", "dusk"],
)
def test_a_cell_showing_only_the_table_a_normalisation_left_is_empty(shade: tuple[int, int, int]) -> None:
    plane = neutral_plane({"cell:0": piece_face("down", PLANE_PX_PER_MM)})
    left_table(plane, ["cell:12", "cell:13"], shade, numpy.random.default_rng(12))
    items = MinotaurusRecogniser().read(plane, LAYOUT, None).items
    assert items["cell:12"] == "empty"
    assert items["cell:13"] == "empty"
    assert items["cell:0"] == "down"


@pytest.mark.parametrize("edition", ["default", "second-print", "travel"])
def test_a_back_in_a_deep_shadow_is_still_a_back(edition: str) -> None:
    """A fifth of the light, with a camera's noise: its emblem is faint, yet more than the table's noise."""
    back = piece_face("down", PLANE_PX_PER_MM, edition=edition).astype(numpy.float32) * 0.2
    back += numpy.random.default_rng(3).normal(0.0, 1.5, back.shape)
    plane = neutral_plane({"cell:12": numpy.clip(back, 0, 255).astype(numpy.uint8)})
    cells = _cell_colours(plane, LAYOUT)
    assert cells.variation is not None
    variation = cells.variation[cells.ids.index("cell:12")]
    assert FLAT_VARIATION < variation < 3 * FLAT_VARIATION  # faint: near what reads a cell flat
    assert MinotaurusRecogniser().read(plane, LAYOUT, None).items["cell:12"] == "down"
