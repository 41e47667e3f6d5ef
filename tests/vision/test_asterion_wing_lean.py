"""The wing/plain pair test leans by the tile's colour (`_asterion_shape.WING_LEAN`)."""

from __future__ import annotations

import pytest

from companion.vision.recognisers import _asterion_match, _asterion_shape
from companion.vision.recognisers._asterion_match import Templates
from companion.vision.recognisers.asterion import AsterionRecogniser
from tests.vision.test_asterion_lined import _cell
from tests.vision.test_asterion_shape import PLAIN, WING


@pytest.fixture(scope="module")
def templates() -> Templates:
    return Templates.from_profile(AsterionRecogniser().default_profile())


def _weakest_wing_seen(templates: Templates, colour: str) -> float:
    """The least share of a wing's difference drawn on a corridor (0.02 apart) read winged."""
    looks = templates.by_colour[colour][2]
    order = [looks.index((WING, 0)), looks.index((PLAIN, 0))]
    for step in range(51):
        champion, _ = templates._tournament(colour, order, _cell(colour, 0, step / 50, (0, 0)), None)
        if looks[champion][0] == WING:
            return step / 50
    return 2.0


def test_blue_reads_a_fainter_wing_and_yellow_wants_a_clearer_one(
    templates: Templates, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The pair test alone (neither lined up again nor moved by the wing's shape), so its lean is what
    # moves; where it is close, as the shape is asked.
    monkeypatch.setattr(_asterion_match, "LINED_CLOSE", 0.0)
    monkeypatch.setattr(_asterion_shape, "WING_SHAPE_WEIGHT", 0.0)
    colours = ["blue", "yellow", "green", "red"]
    leaning = {colour: _weakest_wing_seen(templates, colour) for colour in colours}
    monkeypatch.setattr(_asterion_shape, "WING_LEAN", {})
    upright = {colour: _weakest_wing_seen(templates, colour) for colour in colours}
    assert leaning["blue"] < upright["blue"] < 1
    assert upright["yellow"] < leaning["yellow"] < 1
    assert leaning["green"] == upright["green"] and leaning["red"] == upright["red"]
