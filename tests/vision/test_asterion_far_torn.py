"""Asterion: a torn cell (the table's grey in its middle) whose tile is found 2 * SHIFT_PX off, at the edge
of the search in a window moved to the edge, and whose design is unsure (`_asterion_cell.FAR_TORN_SURE`)
is empty: a ring of dark wood left around an empty cell voted red, and the neighbour's red tile below was
read as its treasure bend (burnt 20261154 session 08 frame 8)."""

from __future__ import annotations

from typing import Any, cast

import numpy
import pytest

from companion.vision.recognisers import _asterion_cell
from companion.vision.recognisers._asterion_cell import FAR_TORN_SURE, read_cell
from companion.vision.recognisers._asterion_match import SHIFT_PX
from companion.vision.recognisers._asterion_profile import FRAME_LABELS

RED, YELLOW = FRAME_LABELS.index("red"), FRAME_LABELS.index("yellow")


class _Edge:
    """Templates lining the cell up at the edge of the search, `at` in the window moved there, and
    matching a red design there by `margin`, the whole tile correlating 0.8."""

    def __init__(self, margin: float, at: tuple[int, int]) -> None:
        self.margin, self.at = margin, at

    def lined_up(self, colour: str, windows: list[Any]) -> tuple[None, tuple[int, int]]:
        return None, (0, SHIFT_PX)

    def match(self, colour: str, windows: list[Any]) -> tuple[int, int, float, tuple[int, int], float]:
        return 0, 0, self.margin, self.at, 0.8


class _Small:
    def window(self, region: Any, offset: tuple[int, int]) -> None:
        return None


@pytest.fixture(autouse=True)
def no_table_side(monkeypatch: pytest.MonkeyPatch) -> None:
    # The table's grey beside the frame needs a window's pixels; here the shift and confidence alone.
    monkeypatch.setattr(_asterion_cell, "_table_side", lambda *_: 0.0)


def _read(templates: _Edge, torn: bool) -> tuple[str, tuple[int, int] | None]:
    counts = numpy.zeros(len(FRAME_LABELS) + 3, numpy.intp)
    counts[RED] = 62
    label, _, shift = read_cell(
        cast(Any, None),
        35.0,
        numpy.zeros((100, 3), numpy.uint8),
        counts,
        (RED, 0.62, YELLOW, 0.0),
        cast(Any, None),
        cast(Any, templates),
        numpy.array([label != "minotaur" for label in FRAME_LABELS]),
        (cast(Any, _Small()), cast(Any, None), (0, 0)),
        torn,
    )
    return label, shift


def test_an_unsure_tile_found_past_both_searches_in_a_torn_cell_is_empty() -> None:
    assert _read(_Edge(0.086, (-1, SHIFT_PX)), torn=True) == ("empty", None)


def test_a_sure_one_or_one_nearer_or_one_in_a_whole_cell_stands() -> None:
    assert _read(_Edge(0.2, (-1, SHIFT_PX)), torn=True)[1] == (-1, 2 * SHIFT_PX)
    assert _read(_Edge(0.086, (-1, SHIFT_PX - 1)), torn=True)[0].startswith("red:")
    assert _read(_Edge(0.086, (-1, SHIFT_PX)), torn=False)[0].startswith("red:")


def test_the_confidence_floor_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_asterion_cell, "FAR_TORN_SURE", 0.0)
    assert _read(_Edge(0.086, (-1, SHIFT_PX)), torn=True)[0].startswith("red:")
    assert FAR_TORN_SURE > 0.086 * 5 * 0.62 / 0.8
