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


def test_a_flat_match_keeps_every_close_design_past_the_cap() -> None:
    # The travel print's blue treasury on a dim dark wood (unseen bench 20261154) correlated 0.28-0.35
    # with ten designs: the treasury, tenth, was cut by CANDIDATES and the cell beside it read unopposed.
    recogniser = AsterionRecogniser()
    templates = recogniser._prepared_for(recogniser._profile(None)).templates
    looks = templates.by_colour["blue"][2]
    firsts: dict[int, int] = {}
    for i, (design, rotation) in enumerate(looks):
        if rotation == 0 and design not in firsts and design != DESIGN_INDEX["treasury"]:
            firsts[design] = i
    close = list(firsts.values())[: _asterion_match.CANDIDATES + 1]
    assert len(close) > _asterion_match.CANDIDATES
    scores = numpy.zeros(len(looks), numpy.float32)
    for rank, i in enumerate(close):
        scores[i] = 0.35 - rank * _asterion_match.CLOSE_CALL / 20
    treasury = next(i for i, look in enumerate(looks) if look == (DESIGN_INDEX["treasury"], 0))
    scores[treasury] = 0.35 - _asterion_match.CLOSE_CALL * 0.9
    chosen = templates._candidates("blue", scores)
    assert treasury in chosen and all(i in chosen for i in close)
