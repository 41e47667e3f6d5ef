"""Minoa's pieces lie on their line: where the reference took an edge line's middle for the table, a colour
left in view wholly beside the line (the table beyond the edge: burnt 20261145's red felt under a shadow)
is no piece, while a piece the fit left 2 mm off its line, its middle taken for the table too, still is."""

from __future__ import annotations

import numpy
import pytest

from companion.vision.base import Frame, Layout, recogniser_for
from companion.vision.recognisers import minoa
from companion.vision.reference import NEUTRAL_BGR

from .test_minoa_centre import BLUE, ITEM, OTHERS, _bar, line_offsets

RED = (40, 40, 200)


def _plane(layout: Layout, off_mm: float, width_mm: float) -> Frame:
    """Blue pieces on every other edge line (they pin the fit), a red bar `off_mm` across ITEM, and the
    line's middle (1.5 mm either side) taken for the table: CENTRE_HOLDS cannot ask there."""
    plane = None
    for other in OTHERS:
        plane = _bar(layout, other, BLUE, 0.0, minoa.PIECE_WIDTH_MM, plane)
    plane = _bar(layout, ITEM, RED, off_mm, width_mm, plane)
    across, along = line_offsets(layout, ITEM, plane)
    middle = (numpy.abs(across) <= 1.5) & (numpy.abs(along) <= 14.0)
    plane[middle] = NEUTRAL_BGR
    return plane


@pytest.mark.parametrize(
    ("off_mm", "width_mm", "expected"),
    [
        (2.0, minoa.PIECE_WIDTH_MM, "red"),  # a piece the fit left off its line
        (-2.0, minoa.PIECE_WIDTH_MM, "red"),
        (5.0, 5.0, minoa.EMPTY),  # the table's red beyond the edge
        (-5.0, 5.0, minoa.EMPTY),
    ],
)
def test_a_colour_beside_a_bare_line_is_no_piece(off_mm: float, width_mm: float, expected: str) -> None:
    layout = recogniser_for("minoa").layout({})
    read = minoa.MinoaRecogniser().read(_plane(layout, off_mm, width_mm), layout, None).items
    assert read[ITEM] == expected
    assert {read[other] for other in OTHERS} == {"blue"}


def test_without_the_rule_the_colour_beside_is_a_piece(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test above tells the feature: with no bound on where the colour lies, the red is read."""
    monkeypatch.setattr(minoa, "OFF_LINE_MM", 100.0)
    layout = recogniser_for("minoa").layout({})
    read = minoa.MinoaRecogniser().read(_plane(layout, 5.0, 5.0), layout, None).items
    assert read[ITEM] == "red"
