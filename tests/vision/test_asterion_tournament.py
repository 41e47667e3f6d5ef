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


def test_labels_beating_each_other_round_ask_no_pair_of_a_label_that_cannot_win() -> None:
    # Four labels beating each other round (`Templates._maximin`): the one whose worst lead is best wins,
    # as if every pair were asked; a label whose worst lead so far is no better than the best label's is
    # asked no more pairs (each a pair test, some built inside the frame).
    recogniser = AsterionRecogniser()
    templates = recogniser._prepared_for(recogniser._profile(None)).templates
    looks = templates.by_colour["blue"][2]
    names = ("cell", "corridor", "junction", "crossroads")
    firsts = [looks.index((DESIGN_INDEX[name], 0)) for name in names]
    label_of = {
        tuple(templates._alike("blue", first)): name for first, name in zip(firsts, names, strict=True)
    }
    leads = {
        ("cell", "corridor"): 0.2,
        ("cell", "junction"): 0.1,
        ("cell", "crossroads"): -0.05,
        ("corridor", "junction"): 0.3,
        ("corridor", "crossroads"): 0.4,
        ("junction", "crossroads"): -0.3,
    }
    asked: list[tuple[str, str]] = []

    def label_lead(mine: list[int], theirs: list[int]) -> tuple[float, int]:
        pair = (label_of[tuple(mine)], label_of[tuple(theirs)])
        asked.append(pair)
        return (leads[pair] if pair in leads else -leads[pair[::-1]]), mine[0]

    champion, margin = templates._maximin("blue", firsts, label_lead)
    # Every pair asked: the worst leads are cell -0.05, corridor -0.2, junction -0.3, crossroads -0.4.
    assert champion == firsts[0]
    assert margin == 0.0  # beaten by one of them: not sure at all
    # The corridor loses to the cell by 0.2 first and the junction by 0.1: asked no further; the crossroads
    # beats the cell, then loses to the corridor by 0.4: asked no further.
    assert asked == [
        ("cell", "corridor"),
        ("cell", "junction"),
        ("cell", "crossroads"),
        ("corridor", "cell"),
        ("junction", "cell"),
        ("crossroads", "cell"),
        ("crossroads", "corridor"),
    ]
