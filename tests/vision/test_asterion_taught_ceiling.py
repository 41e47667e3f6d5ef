"""Asterion: a taught look does not crowd its colour's other designs out of the candidates."""

from __future__ import annotations

import numpy
import pytest

from companion.games.asterion.tiles import DESIGN_INDEX, DESIGNS
from companion.vision.base import Profile
from companion.vision.recognisers import _asterion_taught
from companion.vision.recognisers._asterion_match import CLOSE_CALL, Templates
from companion.vision.recognisers.asterion import AsterionRecogniser


def _look(templates: Templates, colour: str, design: str, source: str) -> int:
    looks, sources = templates.by_colour[colour][2], templates._sources[colour]
    return next(
        i for i, look in enumerate(looks) if look == (DESIGN_INDEX[design], 0) and sources[i] == source
    )


def _taught(designs: list[str]) -> Templates:
    default = AsterionRecogniser().default_profile()
    taught = dict(default.templates)
    for design in designs:
        name = f"tile:green:{DESIGN_INDEX[design]}"
        taught[f"{name}:taught"] = default.templates[name]
    return Templates.from_profile(Profile(game=default.game, templates=taught))


def test_a_taught_look_far_over_the_others_leaves_them_candidates() -> None:
    # The travel print's green cell taught alone scored 0.15-0.2 over the transferred treasury on every
    # green tile (the print's frame and pale stone, not its design): the treasury must still be asked.
    templates = _taught(["cell"])
    cell = _look(templates, "green", "cell", "taught")
    treasury = _look(templates, "green", "treasury", "transferred")
    scores = numpy.zeros(len(templates.by_colour["green"][2]), numpy.float32)
    scores[cell], scores[treasury] = 0.85, 0.85 - 2.5 * CLOSE_CALL
    chosen = templates._candidates("green", scores)
    assert cell in chosen and treasury in chosen
    # Not where a taught look may count so far over the looks not taught.
    _asterion_taught.TAUGHT_CEILING, kept = 1.0, _asterion_taught.TAUGHT_CEILING
    try:
        assert treasury not in templates._candidates("green", scores)
    finally:
        _asterion_taught.TAUGHT_CEILING = kept


@pytest.mark.parametrize("taught", [len(DESIGNS), len(DESIGNS) // 2 + 1])
def test_a_colour_taught_in_most_designs_keeps_its_taught_scores(taught: int) -> None:
    # Most designs of the colour taught: its taught looks meet each other, not the transferred alone.
    templates = _taught([design.name for design in DESIGNS[:taught]])
    cell = _look(templates, "green", "cell", "taught")
    built_in = _look(templates, "green", "treasury", "")
    scores = numpy.zeros(len(templates.by_colour["green"][2]), numpy.float32)
    scores[cell], scores[built_in] = 0.85, 0.85 - 2.5 * CLOSE_CALL
    assert templates._candidates("green", scores) == [cell]
