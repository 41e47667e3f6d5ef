"""Asterion: which looks a cell's pair tests compare, when many score close to the best."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.games.asterion.tiles import COLOURS, DESIGN_INDEX
from companion.vision.generate.asterion import draw_cell
from companion.vision.recognisers import _asterion_match, _asterion_window
from companion.vision.recognisers._asterion_grid import cell_windows
from companion.vision.recognisers._asterion_labels import tile_label
from companion.vision.recognisers._lab import FloatArray
from companion.vision.recognisers.asterion import AsterionRecogniser

from .test_asterion_match import REGION, on_table

CROWD = ("hidden chest", "treasury", "junction", "wing corridor")
"""Designs whose every turn out-correlates the cell's own in the crowded cells below (a travel edition's
paler path made a crossroads correlate 0.04 less over the whole tile than these did)."""


@pytest.mark.parametrize("colour", COLOURS)
def test_every_design_close_to_the_best_is_told_apart_before_more_turns_of_one(
    colour: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every turn of four other designs scores over the crossroads (16 labels within CLOSE_CALL, the
    # crossroads 17th): taking the best labels alone, the crossroads was never compared and a hidden
    # chest or junction was read; each design's best label comes first, and the pair tests find it.
    recogniser = AsterionRecogniser()
    templates = recogniser._prepared_for(recogniser._profile(None)).templates
    looks = templates.by_colour[colour][2]
    crowd = numpy.array([looks[i][0] in {DESIGN_INDEX[name] for name in CROWD} for i in range(len(looks))])
    scores_of = _asterion_window._scores

    def crowded(matrix: FloatArray, window: FloatArray) -> FloatArray:
        scores = scores_of(matrix, window)
        return numpy.where(crowd, scores.max() + 0.04 + 0.0001 * numpy.arange(len(scores)), scores)

    monkeypatch.setattr(_asterion_match, "_scores", crowded)
    cell = draw_cell(colour, DESIGN_INDEX["crossroads"])
    plane = numpy.clip(cv2.GaussianBlur(on_table(cell), (0, 0), 1.5), 0, 255).astype(numpy.uint8)
    design, rotation = templates.match(colour, cell_windows(plane, REGION))[:2]
    assert tile_label(colour, design, rotation) == tile_label(colour, DESIGN_INDEX["crossroads"], 0)
