"""Asterion: the pair tests telling two looks apart, built with the templates where they are often asked."""

from __future__ import annotations

import cv2
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


def test_a_cell_blurred_more_than_the_templates_leans_to_neither_look() -> None:
    # A hidden chest and a corridor: blur spreads the chest's dark outline and the prisoner's ring over
    # where they differ. Blurred alike, each keeps about as much of its lead over the other (without
    # the blur explained away, a hidden chest blurred 1.5 template pixels more kept under half of what
    # a corridor kept, and travel hidden chests read as corridors).
    templates = _templates()
    looks = templates.by_colour["yellow"][2]
    chest = looks.index((DESIGN_INDEX["hidden chest"], 0))
    corridor = looks.index((DESIGN_INDEX["corridor"], 0))
    _, test, share, sign = templates._pair_test("yellow", chest, corridor)
    drawn = templates._softened["yellow"]

    def lead(look: int, sigma: float) -> float:
        picture = numpy.ascontiguousarray(drawn[look].T.reshape(TEMPLATE_PX, TEMPLATE_PX, 3))
        seen = cv2.GaussianBlur(picture, (0, 0), sigma).ravel()
        return share - sign * float(seen @ test)

    for sigma in (1.5, 2.0):
        kept_by_chest, kept_by_corridor = lead(chest, sigma), -lead(corridor, sigma)
        assert kept_by_chest > 0 and kept_by_corridor > 0
        assert kept_by_chest >= 0.75 * kept_by_corridor
