"""Asterion: the pair tests telling two looks apart, built with the templates where they are often asked."""

from __future__ import annotations

import numpy

from companion.games.asterion.tiles import DESIGN_INDEX
from companion.vision.recognisers._asterion_match import Templates
from companion.vision.recognisers._asterion_window import TEMPLATE_PX
from companion.vision.recognisers.asterion import AsterionRecogniser


def _templates() -> Templates:
    return Templates.from_profile(AsterionRecogniser().default_profile())


def test_pair_tests_of_looks_alike_are_built_with_the_templates() -> None:
    # A corridor and a winged one correlate well over the whole tile: cells are often told apart
    # between them, so their test is there before any cell asks.
    templates = _templates()
    looks = templates.by_colour["yellow"][2]
    corridor = looks.index((DESIGN_INDEX["corridor"], 0))
    wing = looks.index((DESIGN_INDEX["wing corridor"], 0))
    assert ("yellow", corridor, wing) in templates._tests
    assert ("yellow", wing, corridor) in templates._tests
    # Not every pair: looks far apart are built when asked.
    assert len(templates._tests) < sum(len(v[2]) * (len(v[2]) - 1) for v in templates.by_colour.values())


def test_a_pair_test_turned_round_gives_exactly_the_lead_negated() -> None:
    # One filter serves both ways round (its product negated): the lead of a look over another is the
    # other's over it, negated to the last bit, for any cell.
    templates = _templates()
    looks = templates.by_colour["red"][2]
    seen = numpy.random.default_rng(5).uniform(0, 255, 3 * TEMPLATE_PX * TEMPLATE_PX).astype(numpy.float32)
    for champion in range(0, len(looks), 7):
        for challenger in range(len(looks)):
            if challenger == champion:
                continue
            window, test, share, sign = templates._pair_test("red", champion, challenger)
            back_window, back_test, back_share, back_sign = templates._pair_test("red", challenger, champion)
            assert numpy.array_equal(window, back_window)
            assert share - sign * float(seen @ test) == -(back_share - back_sign * float(seen @ back_test))
