"""Asterion: the tournament between close looks does not crown a look that a beaten one beats."""

from __future__ import annotations

import numpy
import numpy.typing
import pytest

from companion.games.asterion.tiles import DESIGN_INDEX
from companion.vision.recognisers._asterion_match import Templates
from companion.vision.recognisers._asterion_window import TEMPLATE_PX
from companion.vision.recognisers._lab import FloatArray
from companion.vision.recognisers.asterion import AsterionRecogniser

_PIXELS = 3 * TEMPLATE_PX * TEMPLATE_PX


def _rigged(
    templates: Templates, leads: dict[tuple[int, int], float], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pair tests giving the lead `leads[(look, other)]` (and its negation the other way round) on a cell
    of ones."""
    window = numpy.arange(16)

    def pair_test(
        colour: str, champion: int, challenger: int
    ) -> tuple[numpy.typing.NDArray[numpy.intp], FloatArray, float, float]:
        if (champion, challenger) in leads:
            lead, sign = leads[(champion, challenger)], 1.0
        else:
            lead, sign = leads[(challenger, champion)], -1.0
        # value = share - sign * (seen @ test): the lead one way, its negation the other.
        return window, numpy.full(_PIXELS, -lead / _PIXELS, numpy.float32), 0.0, sign

    monkeypatch.setattr(templates, "_pair_test", pair_test)


def test_an_upset_champion_meets_the_looks_before_the_one_it_beat(monkeypatch: pytest.MonkeyPatch) -> None:
    # Burnt 20261143 dark wood (travel print): a plain bend, best of its cell, beat its treasure bend by
    # 0.34 and lost to its winged bend by 0.03, which the treasure bend beat by 0.02: the treasure bend,
    # having met the winged bend only, was read. Here the first look loses narrowly to the second, the
    # second to the third, and the third to the first by far: the first, whose worst lead is the least
    # bad, is read.
    recogniser = AsterionRecogniser()
    templates = recogniser._prepared_for(recogniser._profile(None)).templates
    looks = templates.by_colour["blue"][2]
    first, second, third = (looks.index((DESIGN_INDEX[name], 0)) for name in ("cell", "corridor", "junction"))
    _rigged(templates, {(first, second): -0.02, (second, third): -0.1, (first, third): 0.3}, monkeypatch)
    seen = numpy.ones(_PIXELS, numpy.float32)
    champion, margin = templates._tournament("blue", [first, second, third], seen, None)
    assert champion == first
    assert margin == 0.0  # beaten by one of them: not sure at all


def test_a_champion_beating_every_look_it_did_not_meet_stays(monkeypatch: pytest.MonkeyPatch) -> None:
    recogniser = AsterionRecogniser()
    templates = recogniser._prepared_for(recogniser._profile(None)).templates
    looks = templates.by_colour["blue"][2]
    first, second, third = (looks.index((DESIGN_INDEX[name], 0)) for name in ("cell", "corridor", "junction"))
    # The second beats the first, the third the second, and the third the first too: the third.
    _rigged(templates, {(first, second): -0.2, (second, third): -0.1, (first, third): -0.3}, monkeypatch)
    seen = numpy.ones(_PIXELS, numpy.float32)
    champion, margin = templates._tournament("blue", [first, second, third], seen, None)
    assert champion == third
    assert margin == pytest.approx(0.1, abs=1e-5)
