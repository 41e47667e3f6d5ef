"""Asterion: a cell whose middle shows the table's neutral grey is empty, whatever its rim shows."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy
import pytest

from companion.vision.base import Frame
from companion.vision.recognisers import _asterion_cell, _asterion_match, asterion
from companion.vision.recognisers._asterion_grid import _SMALL_PER_PX, SMALL_ORIGIN_PX, SmallPlane
from companion.vision.recognisers.asterion import AsterionRecogniser, asterion_layout
from companion.vision.reference import NEUTRAL_BGR

DATA = Path(__file__).parent / "data" / "asterion"
LAYOUT = asterion_layout(9, 7)
CASES = {
    # crop, the empty cell, the tiles lying wholly inside the crop beside it (the pipeline's truth)
    "empty-light-wood-cell-1_-2-at-424-72.png": (
        "cell:1,-2",
        {"cell:0,-2": "red:horned junction@1", "cell:2,-2": "empty", "cell:1,-1": "empty"},
    ),
    "empty-felt-cell-0_3-at-336-512.png": (
        "cell:0,3",
        {"cell:0,2": "yellow:horned junction@3", "cell:-1,3": "green:bend@3", "cell:1,3": "empty"},
    ),
}


def _plane(name: str) -> Frame:
    return pasted_crop(DATA / name)


def pasted_crop(path: Path) -> Frame:
    """A crop (named `...-at-X0-Y0.png`) pasted where it was cut from a normalised plane of LAYOUT (9x7),
    the rest of the plane the table."""
    x0, y0 = (int(v) for v in path.name.removesuffix(".png").split("-at-")[1].split("-"))
    crop = cv2.imread(str(path), cv2.IMREAD_COLOR)
    assert crop is not None
    width, height = LAYOUT.plane_size_px()
    plane = numpy.full((height, width, 3), NEUTRAL_BGR, numpy.uint8)
    plane[y0 : y0 + crop.shape[0], x0 : x0 + crop.shape[1]] = crop
    return plane


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_empty_cell_whose_window_shows_neighbours_frames_is_empty(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The grid put the empty cell's window over its neighbours' frames (noise, blur): its middle is
    # the table's grey, its rim a frame colour, and the whole matched a design.
    empty, beside = CASES[name]
    plane = _plane(name)
    # Its window's grey alone read by the match (`_asterion_match.MOSTLY_MISSING`), by the torn test
    # (`_asterion_cell.TORN_SHARE`), by the table along its frame's side (`_asterion_cell.TABLE_SIDE`) or
    # by a torn inside greyless (`_asterion_cell.TORN_GREYLESS_ASKED`) holds these cells too: left out, so
    # that the middle's rule is what is tested.
    monkeypatch.setattr(_asterion_match, "MOSTLY_MISSING", 1.0)
    monkeypatch.setattr(_asterion_cell, "TORN_SHARE", 1.01)
    monkeypatch.setattr(_asterion_cell, "TABLE_SIDE", 2.0)
    monkeypatch.setattr(_asterion_cell, "TORN_GREYLESS_ASKED", 0.0)
    read = AsterionRecogniser().read(plane, LAYOUT, None).items
    assert read[empty] == "empty"
    assert {item: read[item] for item in beside} == beside
    # Without looking at the middle, it read as a tile.
    monkeypatch.setattr(asterion, "TABLE_MIDDLE", 1.01)
    assert AsterionRecogniser().read(plane, LAYOUT, None).items[empty] != "empty"


def test_table_shares_count_the_neutral_grey_in_a_square() -> None:
    width, height = LAYOUT.plane_size_px()
    plane = numpy.full((height, width, 3), NEUTRAL_BGR, numpy.uint8)
    plane[:, : width // 2] = (60, 90, 120)  # the left half a tile's colours, not the table
    small = SmallPlane.of(plane)
    side = asterion.MIDDLE_PX
    edge = round((width // 2 - SMALL_ORIGIN_PX) * _SMALL_PER_PX)  # where the halves meet, shrunk
    y = small.grey.shape[0] // 2
    at = numpy.array([[edge - 2 * side, y], [edge + 2 * side, y], [edge, y]], numpy.intp)
    shares = small.table_shares(at, side)
    assert shares[0] == 0.0
    assert shares[1] == 1.0
    assert 0.4 < shares[2] < 0.6
