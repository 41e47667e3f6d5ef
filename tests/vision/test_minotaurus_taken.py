"""The Minotaurus recogniser reads a white face the reference took mostly for the (light) table: what it
keeps is its ink, a horn and a row of pips, and a rim of face; a cell of bare table whose leftover pattern
varies as much stays empty.

The planes are drawn as the reference would leave them: the generator's pieces on NEUTRAL_BGR.
"""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.vision.base import PLANE_PX_PER_MM
from companion.vision.generate.minotaurus import piece_face
from companion.vision.recognisers.minotaurus import (
    EMPTY_COVER,
    TAKEN_VARIATION,
    MinotaurusRecogniser,
    _cell_colours,
)
from companion.vision.reference import NEUTRAL_BGR
from tests.vision.test_minotaurus_marks import LAYOUT, neutral_plane


def centre_px(item: str) -> tuple[int, int]:
    x, y = LAYOUT.items[item].centre_mm
    return round(x * PLANE_PX_PER_MM), round(y * PLANE_PX_PER_MM)


@pytest.mark.parametrize("label", ["white-1-left", "white-4-left", "white-3-right", "white-2-right"])
def test_a_white_face_taken_mostly_for_the_table_is_read(label: str) -> None:
    plane = neutral_plane(
        {"cell:12": piece_face(label, PLANE_PX_PER_MM), "cell:0": piece_face("down", PLANE_PX_PER_MM)}
    )
    x, y = centre_px("cell:12")
    reach = round(16 * PLANE_PX_PER_MM)
    piece = plane[y - reach : y + reach, x - reach : x + reach]
    # The reference kept the face only in blobs along its right side (where the lamp's light differed).
    kept = numpy.zeros(piece.shape[:2], numpy.uint8)
    cv2.circle(kept, (2 * reach, reach), round(10 * PLANE_PX_PER_MM), 255, -1)
    piece[(kept == 0) & numpy.all(piece > 200, axis=2)] = NEUTRAL_BGR
    cells = _cell_colours(plane, LAYOUT)
    assert cells.covered is not None and cells.variation is not None
    n = cells.ids.index("cell:12")
    assert cells.covered[n] < EMPTY_COVER  # read empty for its middle before
    assert cells.variation[n] >= TAKEN_VARIATION
    items = MinotaurusRecogniser().read(plane, LAYOUT, None).items
    assert items["cell:12"] == label
    assert items["cell:0"] == "down"


def test_bare_table_whose_leftover_pattern_varies_as_much_stays_empty() -> None:
    """A printed cloth the normalisation left in patches: dark and light blobs, yet no horn, no pips."""
    rng = numpy.random.default_rng(7)
    plane = neutral_plane({"cell:0": piece_face("down", PLANE_PX_PER_MM)})
    x, y = centre_px("cell:12")
    for _ in range(8):
        dx, dy = (int(v) for v in rng.integers(-22, 22, 2))
        shade = (40, 40, 50) if rng.random() < 0.5 else (230, 225, 215)
        cv2.ellipse(
            plane, (x + dx, y + dy), (int(rng.integers(3, 9)), int(rng.integers(3, 9))), 0, 0, 360, shade, -1
        )
    cells = _cell_colours(plane, LAYOUT)
    assert cells.covered is not None and cells.variation is not None
    n = cells.ids.index("cell:12")
    assert cells.covered[n] < EMPTY_COVER
    assert cells.variation[n] >= TAKEN_VARIATION
    assert MinotaurusRecogniser().read(plane, LAYOUT, None).items["cell:12"] == "empty"
