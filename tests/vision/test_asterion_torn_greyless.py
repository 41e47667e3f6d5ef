"""Asterion: a torn cell (the table's grey in its middle) is asked whether the rest of its inside is greyless
up to a higher likeness (`_asterion_cell.TORN_GREYLESS_ASKED`): an empty gingham cell the reference matched
but for its orange and pink checks, voted red, correlated 0.42 with a red cell (burnt 20261156 gingham
travel session 11 frame 8)."""

from __future__ import annotations

from typing import Any, cast

import cv2
import numpy
import pytest

from companion.vision.recognisers import _asterion_cell
from companion.vision.recognisers._asterion_cell import TORN_GREYLESS_ASKED, read_cell
from companion.vision.recognisers._asterion_inside import GREYLESS_ASKED
from companion.vision.recognisers._asterion_profile import FRAME_LABELS
from companion.vision.recognisers._asterion_window import SHIFT_PX, TEMPLATE_PX, Window
from companion.vision.reference import NEUTRAL_BGR

RED, YELLOW = FRAME_LABELS.index("red"), FRAME_LABELS.index("yellow")
SIDE = TEMPLATE_PX + 2 * SHIFT_PX
LIKENESS = 0.42


class _Designs:
    """Templates matching a red design by a margin of nothing, the cell correlating `LIKENESS`."""

    def lined_up(self, colour: str, windows: list[Any]) -> tuple[None, tuple[int, int]]:
        return None, (0, 0)

    def match(self, colour: str, windows: list[Any]) -> tuple[int, int, float, tuple[int, int], float]:
        return 0, 0, 0.0, (0, 0), LIKENESS


@pytest.fixture(autouse=True)
def _likeness_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    # The likeness over what the table leaves and the table's grey along a side need the designs'
    # pixels; here the question of grey alone.
    monkeypatch.setattr(_asterion_cell, "_kept_likeness", lambda *_: None)
    monkeypatch.setattr(_asterion_cell, "_table_side", lambda *_: 0.0)


def _gingham(walls: bool) -> Window:
    """Orange and pink checks round the table's grey the reference painted over the cell's middle; with
    `walls`, a tile's dark grey walls beside it."""
    picture = numpy.full((SIDE, SIDE, 3), (170, 160, 245), numpy.uint8)
    for row in range(0, SIDE, 16):
        picture[row : row + 8] = (40, 140, 250)
    middle = slice(SHIFT_PX + 10, SHIFT_PX + TEMPLATE_PX - 10)
    picture[middle, SHIFT_PX + 6 : SHIFT_PX + 20] = NEUTRAL_BGR
    if walls:
        picture[SHIFT_PX + 8 : SHIFT_PX + 32, SHIFT_PX + 24 : SHIFT_PX + 30] = (70, 70, 70)
    return Window(picture, cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY).astype(numpy.float32))


def _read(window: Window, torn: bool) -> str:
    counts = numpy.zeros(len(FRAME_LABELS) + 3, numpy.intp)
    counts[RED] = 97
    label, _, _ = read_cell(
        window,
        30.7,
        numpy.zeros((100, 3), numpy.uint8),
        counts,
        (RED, 0.97, YELLOW, 0.0),
        cast(Any, None),
        cast(Any, _Designs()),
        numpy.array([label != "minotaur" for label in FRAME_LABELS]),
        cast(Any, None),
        torn,
    )
    return label


def test_a_torn_cell_showing_no_grey_besides_the_tables_is_empty() -> None:
    assert GREYLESS_ASKED <= LIKENESS < TORN_GREYLESS_ASKED
    assert _read(_gingham(walls=False), torn=True) == "empty"


def test_a_whole_cell_or_one_showing_walls_is_read() -> None:
    assert _read(_gingham(walls=False), torn=False).startswith("red:")
    assert _read(_gingham(walls=True), torn=True).startswith("red:")


def test_the_higher_floor_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_asterion_cell, "TORN_GREYLESS_ASKED", GREYLESS_ASKED)
    assert _read(_gingham(walls=False), torn=True).startswith("red:")
