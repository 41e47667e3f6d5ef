"""Asterion: a cell whose corners vote yellow first and red next is read yellow, a tile when red's designs
are like it enough (`_asterion_cell.ORANGE_YELLOW`): a second print's yellow turned orange on a dark wood."""

from __future__ import annotations

from typing import Any, cast

import numpy
import pytest

from companion.vision.recognisers import _asterion_cell
from companion.vision.recognisers._asterion_cell import read_cell
from companion.vision.recognisers._asterion_labels import EMPTY
from companion.vision.recognisers._asterion_profile import FRAME_LABELS

from .test_asterion_greyless import grey_window

# The corners' tint needs a window's pixels; here the vote's handling alone is tested (autouse).
from .test_asterion_partner import _templates_alone as _templates_alone
from .test_asterion_partner import nearest_as_voted

YELLOW, RED = (FRAME_LABELS.index(colour) for colour in ("yellow", "red"))


class _Designs:
    """Templates as read_cell asks them: each colour's designs correlate `likeness[colour]` with the cell,
    no frame leads another."""

    def __init__(self, likeness: dict[str, float]) -> None:
        self.likenesses = likeness

    def colour_lead(self, colour: str, other: str, windows: list[Any]) -> float:
        return 0.0

    def likeness(self, colour: str, windows: list[Any]) -> float:
        return self.likenesses.get(colour, 0.1)

    def lined_up(self, colour: str, windows: list[Any]) -> tuple[None, tuple[int, int]]:
        return None, (0, 0)

    def match(self, colour: str, windows: list[Any]) -> tuple[int, int, float, tuple[int, int], float]:
        return 0, 0, 0.2, (0, 0), self.likenesses.get(colour, 0.1)


def _read(yellow: int, red: int, likeness: dict[str, float]) -> str:
    """The label where `yellow` and `red` per cent of the corners show those colours, the rest the table."""
    counts = numpy.zeros(len(FRAME_LABELS) + 3, numpy.intp)
    counts[YELLOW], counts[RED] = yellow, red
    counts[len(FRAME_LABELS)] = 100 - yellow - red
    palettes = cast(Any, type("P", (), {})())
    palettes.every = type(
        "E", (), {"classify_bgr": staticmethod(lambda pixels: numpy.zeros(len(pixels), int))}
    )()
    palettes.every_map = numpy.array([YELLOW])
    nearest_as_voted(palettes, {YELLOW: yellow, RED: red}, FRAME_LABELS.index("minotaur"))
    label, _, _ = read_cell(
        grey_window(),
        30.0,
        numpy.full((100, 3), (40, 120, 200), numpy.uint8),
        counts,
        (YELLOW, yellow / 100, RED, red / 100),
        palettes,
        cast(Any, _Designs(likeness)),
        numpy.array([label != "minotaur" for label in FRAME_LABELS]),
        cast(Any, None),
    )
    return label.split(":")[0]


# Burnt 20261149 dark wood second print: f7 (doubtful) and f4 (half framed), yellows.
DOUBTFUL = {"yellow": 0.39, "red": 0.505, "green": 0.34}
HALF = {"yellow": 0.443, "red": 0.519, "green": 0.455}


def test_an_orange_yellow_likelier_reds_designs_is_a_yellow_tile() -> None:
    assert _read(38, 28, DOUBTFUL) == "yellow"
    assert _read(52, 12, HALF) == "yellow"


def test_without_it_they_read_red_or_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_asterion_cell, "ORANGE_YELLOW", False)
    assert _read(38, 28, DOUBTFUL) == "red"
    assert _read(52, 12, HALF) == EMPTY


def test_an_empty_cell_like_no_design_stays_empty() -> None:
    # Empty cells voted yellow then red correlated 0.31 at most with red's designs.
    assert _read(38, 11, {"yellow": 0.2, "red": 0.31}) == EMPTY
    assert _read(52, 12, {"yellow": 0.3, "red": 0.31}) == EMPTY
