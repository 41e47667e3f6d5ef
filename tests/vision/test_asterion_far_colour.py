"""Asterion: a cell whose corners show their voted colour at under half and whose designs in it are unlike
the cell is read in a colour whose designs are far likelier (`_asterion_cell.FAR_COLOUR`)."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.games.asterion.tiles import DESIGN_INDEX
from companion.vision.generate.asterion import draw_cell
from companion.vision.recognisers import _asterion_cell
from companion.vision.recognisers._asterion_cell import read_cell
from companion.vision.recognisers._asterion_grid import SmallPlane, cell_windows
from companion.vision.recognisers._asterion_labels import EMPTY
from companion.vision.recognisers._asterion_profile import _ELSEWHERE, FRAME_LABELS, OTHER_LABELS
from companion.vision.recognisers.asterion import AsterionRecogniser

from .test_asterion_match import REGION, on_table

GREEN = FRAME_LABELS.index("green")
TABLE = len(FRAME_LABELS) + OTHER_LABELS.index("table")


def _read(colour: str, design: str) -> str:
    """The label read of a tile of `colour` under a warm dim lamp whose corners voted green at 0.44 (the
    rest the table), as a second print's blue in a dark wood's shadow did."""
    recogniser = AsterionRecogniser()
    prepared = recogniser._prepared_for(recogniser._profile(None))
    lit = on_table(draw_cell(colour, DESIGN_INDEX[design])) * numpy.array([0.55, 0.75, 0.6], numpy.float32)
    plane = numpy.clip(cv2.GaussianBlur(lit, (0, 0), 1.5), 0, 255).astype(numpy.uint8)
    counts = numpy.zeros(len(FRAME_LABELS) + len(OTHER_LABELS), numpy.intp)
    counts[GREEN], counts[TABLE] = 44, 56
    label, _, _ = read_cell(
        cell_windows(plane, REGION)[0],
        30.0,
        numpy.full((100, 3), (60, 90, 40), numpy.uint8),
        counts,
        (GREEN, 0.44, FRAME_LABELS.index("red"), 0.0),
        prepared.palettes[False],
        prepared.templates,
        _ELSEWHERE,
        (SmallPlane.of(plane), REGION, (0, 0)),
    )
    return label


@pytest.mark.parametrize("design", ["wing corridor", "treasure junction", "bend"])
def test_a_blue_voted_green_at_under_half_is_read_blue(design: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _read("blue", design) == f"blue:{design}@0"
    # Without the rule: green's designs (0.33-0.38) too unlike the cell to hold a tile so framed.
    monkeypatch.setattr(_asterion_cell, "FAR_COLOUR", 10.0)
    assert _read("blue", design) == EMPTY


@pytest.mark.parametrize("design", ["wing corridor", "treasure junction", "bend"])
def test_a_green_voted_green_stays_green(design: str) -> None:
    assert _read("green", design) == f"green:{design}@0"
