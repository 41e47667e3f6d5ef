"""Asterion: a cell is scored against its colour's looks when a match or likeness asks, not when lined up."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.games.asterion.tiles import DESIGN_INDEX
from companion.vision.generate.asterion import draw_cell
from companion.vision.recognisers import _asterion_match, _asterion_window
from companion.vision.recognisers._asterion_grid import cell_windows
from companion.vision.recognisers._lab import FloatArray
from companion.vision.recognisers.asterion import AsterionRecogniser

from .test_asterion_match import REGION, on_table


def test_lining_up_scores_nothing_and_a_match_scores_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # A tile lined up at the edge of the search is matched in another window: its first window's
    # scores were computed and never used. Scored when first asked, then kept for the match.
    templates = AsterionRecogniser()._prepared_for(AsterionRecogniser()._profile(None)).templates
    calls: list[int] = []
    scores_of = _asterion_window._scores

    def counted(matrix: FloatArray, view: FloatArray) -> FloatArray:
        calls.append(1)
        return scores_of(matrix, view)

    monkeypatch.setattr(_asterion_match, "_scores", counted)
    cell = draw_cell("red", DESIGN_INDEX["treasury"])
    plane = numpy.clip(cv2.GaussianBlur(on_table(cell), (0, 0), 1.5), 0, 255).astype(numpy.uint8)
    windows = cell_windows(plane, REGION)
    templates.lined_up("red", windows)
    assert calls == []
    likeness = templates.likeness("red", windows)
    assert len(calls) == 1
    design, _, _, _, top = templates.match("red", windows)
    assert len(calls) == 1  # kept from the likeness
    assert design == DESIGN_INDEX["treasury"] and top == likeness
