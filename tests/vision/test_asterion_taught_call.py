"""Asterion: a taught look is told apart from the candidates though it scores well under the best."""

from __future__ import annotations

import numpy

from companion.games.asterion.tiles import DESIGN_INDEX
from companion.vision.base import Profile
from companion.vision.recognisers._asterion_match import CLOSE_CALL, TAUGHT_CALL, Templates
from companion.vision.recognisers.asterion import AsterionRecogniser


def test_a_taught_look_well_under_a_transferred_one_is_still_a_candidate() -> None:
    # A taught look is one shot of one tile: on another table it correlates less with the tile than a
    # look transferred from the built-in pictures (a blue cell taught alone read as the transferred
    # treasury, 0.1-0.12 over it, and the two were never compared where they differ, by the chest).
    default = AsterionRecogniser().default_profile()
    taught = dict(default.templates)
    taught["tile:blue:0:taught"] = default.templates["tile:blue:0"]
    templates = Templates.from_profile(Profile(game=default.game, templates=taught))
    looks, sources = templates.by_colour["blue"][2], templates._sources["blue"]
    cell = next(
        i for i, look in enumerate(looks) if look == (DESIGN_INDEX["cell"], 0) and sources[i] == "taught"
    )
    treasury = next(
        i
        for i, look in enumerate(looks)
        if look == (DESIGN_INDEX["treasury"], 0) and sources[i] == "transferred"
    )
    scores = numpy.zeros(len(looks), numpy.float32)
    scores[treasury] = 0.8
    scores[cell] = 0.8 - (CLOSE_CALL + TAUGHT_CALL) / 2
    chosen = templates._candidates("blue", scores)
    assert chosen[0] == treasury and cell in chosen
    # Not a built-in look scoring as far under: it is not one shot.
    built_in = next(i for i, look in enumerate(looks) if look == (DESIGN_INDEX["cell"], 0) and not sources[i])
    scores[cell], scores[built_in] = 0.0, 0.8 - (CLOSE_CALL + TAUGHT_CALL) / 2
    assert built_in not in templates._candidates("blue", scores)
